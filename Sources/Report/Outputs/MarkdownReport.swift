import Checklist
import Foundation
import Manifest

/// GitHub-flavoured Markdown for a pull-request comment, written as a reviewer reads it: a hidden
/// marker, a one-line verdict, one row of the six answers per app, then one list of findings, each
/// once — severity, `path:line` linked to the line at the audited commit, message, rule. Cut at
/// whole rows and items to stay under GitHub's comment limit, saying how many were left out.
/// Untrusted text is escaped only where it would be markup (`MarkdownText.inline`), so it renders
/// as typed: code spans stay code, and no backslash shows.
public enum MarkdownReport {
    /// GitHub refuses comments over 65,536 characters; counted in UTF-8 bytes to stay clear of it.
    public static let defaultLimit = 65_000

    public static func render(_ audits: [AppAudit], context: OutputContext, limit: Int = defaultLimit) -> String {
        let site = siteRoot(context)
        var document = BudgetedText(limit: limit, reserve: 600)
        document.force(CommentMarker.line(audits.map(\.manifest.id)) + "\n")
        document.force("## HealthKit audit\n\n" + verdict(audits, context: context, site: site) + "\n\n")
        if !audits.isEmpty {
            document.force(answersHeader(changed: context.changeScope != nil))
            var appsLeftOut = 0
            for audit in audits where !document.append(answersRow(audit, changed: context.changeScope != nil, site: site)) { appsLeftOut += 1 }
            if appsLeftOut > 0 { document.force("\n_\(Plural.count(appsLeftOut, "app")) \(appsLeftOut == 1 ? "was" : "were") left out of this table._\n") }
            document.force("\n" + legend(changed: context.changeScope != nil) + "\n\n")
        }
        let listed = findings(audits, context: context)
        var leftOut = 0
        if !listed.isEmpty {
            document.force(context.changeScope == nil ? "### Findings\n\n" : "### Findings on the changed lines\n\n")
            for finding in listed where !document.append(item(finding, context: context, site: site)) { leftOut += 1 }
            document.force("\n")
        }
        if leftOut > 0 {
            document.force("_\(leftOut) of \(Plural.count(listed.count, "finding")) \(leftOut == 1 ? "was" : "were") left out to stay under GitHub's comment size limit; "
                           + "the SARIF or JSON report has all of them\(site == nil ? "" : ", and so does the site")._\n\n")
        }
        document.force("<sub>\(MarkdownText.inline(context.tool.name)) \(MarkdownText.inline(context.tool.version))</sub>\n")
        return document.text
    }

    static func markBadge(_ mark: Answer.Mark) -> String {
        switch mark {
        case .pass: return "✅"
        case .fail: return "❌"
        case .unknown: return "❔"
        case .notApplicable: return "➖"
        }
    }

    static func verdictBadge(_ verdict: Verdict) -> String {
        switch verdict {
        case .passes: return "✅ passes"
        case .needsWork: return "⚠️ needs work"
        case .incomplete: return "❔ incomplete"
        case .fails: return "❌ fails"
        }
    }

    static func severityBadge(_ severity: Severity) -> String {
        switch severity {
        case .error: return "🔴"
        case .warning: return "🟡"
        case .note: return "🔵"
        }
    }

    /// The six questions as column headings, short enough for a phone-width comment.
    static let questionHeadings: [ReviewQuestion: String] = [
        .availabilityChecked: "Availability", .completionInterpreted: "Request result", .readStatusProbed: "Read status",
        .usageStringsMeaningful: "Usage strings", .widgetsDoNotRequest: "Widgets", .writeStatusRechecked: "Write status",
    ]

    /// One line: how many apps fail (or, under `--changed-files`/`--since`, what the change
    /// brought in — never "passes" for a change whose app still fails), the counts, the site.
    private static func verdict(_ audits: [AppAudit], context: OutputContext, site: String?) -> String {
        let counts = FindingCounts(audits)
        var line: String
        if let scope = context.changeScope {
            line = counts.errors > 0 ? "❌ **\(Plural.count(counts.errors, "new error"))**" : "✅ **0 new errors**"
            line += " — the changed lines add \(Plural.count(counts.warnings, "warning")), \(Plural.count(counts.notes, "note"))"
                + (counts.suppressed > 0 ? " (\(counts.suppressed) suppressed)" : "") + "; \(scope.sentence)"
        } else {
            let total = Plural.count(audits.count, "app")
            let by = Dictionary(grouping: audits, by: \.verdict).mapValues(\.count)
            let failing = by[.fails] ?? 0, needsWork = by[.needsWork] ?? 0, incomplete = by[.incomplete] ?? 0
            if audits.isEmpty {
                line = "➖ **No app was audited**"
            } else if failing > 0 {
                line = "❌ **\(failing) of \(total) \(failing == 1 ? "fails" : "fail")**"
                if needsWork > 0 { line += ", \(needsWork) \(needsWork == 1 ? "needs" : "need") work" }
                if incomplete > 0 { line += ", \(incomplete) could not be fully read" }
            } else if needsWork > 0 {
                line = "⚠️ **\(needsWork) of \(total) \(needsWork == 1 ? "needs" : "need") work**"
                if incomplete > 0 { line += ", \(incomplete) could not be fully read" }
            } else if incomplete > 0 {
                line = "❔ **\(incomplete) of \(total) could not be fully read**"
            } else {
                line = audits.count == 1 ? "✅ **The app passes**" : "✅ **All \(total) pass**"
            }
            line += " — \(Plural.count(counts.errors, "error")), \(Plural.count(counts.warnings, "warning")), \(Plural.count(counts.notes, "note"))"
            if counts.suppressed > 0 { line += ", \(counts.suppressed) suppressed" }
        }
        if let baselined = context.baselined, baselined > 0 { line += "; \(Plural.count(baselined, "baselined finding")) not shown" }
        line += "."
        if let site { line += " [Full report](<\(site)>)" }
        return line
    }

    private static func answersHeader(changed: Bool) -> String {
        let questions = ReviewQuestion.allCases.map { "\($0.rawValue) \(questionHeadings[$0] ?? "")" }
        return "| App | \(changed ? "This change" : "Verdict") | " + questions.joined(separator: " | ") + " |\n"
            + "| --- | --- |" + String(repeating: " :-: |", count: questions.count) + "\n"
    }

    private static func answersRow(_ audit: AppAudit, changed: Bool, site: String?) -> String {
        var name = MarkdownText.tableCell(audit.manifest.name)
        if let site { name = "[\(name)](<\(site)apps/\(pathSegment(audit.manifest.id))/>)" }
        let marks = ReviewQuestion.allCases.map { question in audit.answers.first { $0.question == question }.map { markBadge($0.mark) } ?? "❔" }
        return "| \(name) | \(changed ? changeBadge(FindingCounts(audit.findings)) : verdictBadge(audit.verdict)) | " + marks.joined(separator: " | ") + " |\n"
    }

    /// What the change brought into one app, worst first.
    private static func changeBadge(_ counts: FindingCounts) -> String {
        if counts.errors > 0 { return "❌ \(Plural.count(counts.errors, "new error"))" }
        if counts.warnings > 0 { return "⚠️ \(Plural.count(counts.warnings, "new warning"))" }
        if counts.notes > 0 { return "🔵 \(Plural.count(counts.notes, "new note"))" }
        return "✅ nothing new"
    }

    private static func legend(changed: Bool) -> String {
        "<sub>✅ healthy · ❌ unhealthy · ❔ cannot tell · ➖ not applicable — the six review questions"
            + (changed ? ", answered for the whole app, not only the changed lines" : "") + ".</sub>"
    }

    /// Active findings, errors first, then warnings, then notes (each in the reports' order); the
    /// suppressed ones after them when asked for.
    private static func findings(_ audits: [AppAudit], context: OutputContext) -> [Finding] {
        let all = audits.flatMap(\.findings).filter { !$0.isSuppressed || context.showSuppressed }
        return all.enumerated().sorted { a, b in
            if a.element.isSuppressed != b.element.isSuppressed { return !a.element.isSuppressed }
            if a.element.severity != b.element.severity { return a.element.severity > b.element.severity }
            return a.offset < b.offset
        }.map(\.element)
    }

    private static func item(_ finding: Finding, context: OutputContext, site: String?) -> String {
        let place = MarkdownText.code("\(context.repositoryPath(finding.location.file)):\(OutputContext.line(finding.location))")
        var text = "- \(severityBadge(finding.severity)) "
        if let url = context.findingLinks?.url(file: context.sitePath(finding.location.file), line: finding.location.line), let destination = destination(url) {
            text += "[\(place)](\(destination))"
        } else {
            text += place
        }
        text += " " + MarkdownText.message(finding.message)
        if let suppression = finding.suppression {
            text += " *(suppressed, \(suppression.origin.rawValue): \(MarkdownText.inline(suppression.reason)))*"
        }
        let rule = MarkdownText.code(finding.ruleID)
        if let site { text += " [\(rule)](<\(site)rules/\(pathSegment(finding.ruleID)).html>)" } else { text += " " + rule }
        return text + "\n"
    }

    /// The published site's root with a trailing slash, when `base_url` is an http(s) URL a link can hold.
    static func siteRoot(_ context: OutputContext) -> String? {
        guard let base = context.siteURL, base.hasPrefix("https://") || base.hasPrefix("http://"), destination(base) != nil else { return nil }
        return base.hasSuffix("/") ? base : base + "/"
    }

    /// `<url>`, a link destination nothing in the URL can end early; nil for a URL that cannot be one.
    static func destination(_ url: String) -> String? {
        guard !url.unicodeScalars.contains(where: { $0 == "<" || $0 == ">" || $0 == "\\" || $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return "<" + url + ">"
    }

    private static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")) ?? ""
    }
}

/// The hidden first line of the comment, `<!-- healthaudit:app1,app2 -->` (the audited app ids,
/// sorted): a CI script finds the comment that starts with the same line and updates it instead of
/// posting another, and a job per app (`--app`) keeps one comment each. Ids come from the config,
/// so each is percent-encoded outside `[A-Za-z0-9._-]` and no `--` is left in it: nothing in an id
/// can end the comment (`-->`, `--!>`) or split the list (`,`).
public enum CommentMarker {
    public static func line(_ appIDs: [String]) -> String {
        let ids = Set(appIDs.map(neutralised)).sorted()
        return ids.isEmpty ? "<!-- healthaudit -->" : "<!-- healthaudit:" + ids.joined(separator: ",") + " -->"
    }

    static func neutralised(_ id: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        var text = id.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        while let range = text.range(of: "--") { text.replaceSubrange(range, with: "-%2D") }
        return text
    }
}

/// Text that grows only by whole pieces while they fit, keeping `reserve` bytes for closing lines.
struct BudgetedText {
    let limit: Int
    let reserve: Int
    private(set) var text = ""
    private var bytes = 0

    init(limit: Int, reserve: Int) { self.limit = limit; self.reserve = reserve }

    /// Appends `piece` if it fits before the reserve; false when it was left out.
    mutating func append(_ piece: String) -> Bool {
        let size = piece.utf8.count
        guard bytes + size + reserve <= limit else { return false }
        text += piece
        bytes += size
        return true
    }

    /// Appends regardless of the budget (the summary and the closing lines).
    mutating func force(_ piece: String) {
        text += piece
        bytes += piece.utf8.count
    }
}
