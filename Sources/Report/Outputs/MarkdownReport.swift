import Checklist
import Foundation
import Manifest

/// GitHub-flavoured Markdown for a pull-request comment: a hidden marker, the summary, then a
/// findings table, then one collapsed `<details>` section per app. Cut at whole rows and sections
/// to stay under GitHub's comment limit, saying how many findings were left out.
public enum MarkdownReport {
    /// GitHub refuses comments over 65,536 characters; counted in UTF-8 bytes to stay clear of it.
    public static let defaultLimit = 65_000

    public static func render(_ audits: [AppAudit], context: OutputContext, limit: Int = defaultLimit) -> String {
        var document = BudgetedText(limit: limit, reserve: 400)
        document.force(CommentMarker.line(audits.map(\.manifest.id)) + "\n")
        document.force(summary(audits, scope: context.changeScope))
        var appsLeftOut = 0
        for audit in audits where !document.append(summaryRow(audit)) { appsLeftOut += 1 }
        if appsLeftOut > 0 { document.force("\n_\(Plural.count(appsLeftOut, "app")) \(appsLeftOut == 1 ? "was" : "were") left out of this table._\n") }
        document.force("\n")
        let active = audits.flatMap { audit in audit.activeFindings.map { (audit, $0) } }
        var leftOut = 0
        if !active.isEmpty {
            document.force("### Findings\n\n| Severity | App | Rule | Location | Message |\n| --- | --- | --- | --- | --- |\n")
            for (audit, finding) in active where !document.append(row(finding, app: audit.manifest.id, context: context)) {
                leftOut += 1
            }
            document.force("\n")
        }
        var sectionsLeftOut = 0
        for audit in audits where !document.append(details(audit, context: context)) { sectionsLeftOut += 1 }
        if leftOut > 0 {
            document.force("_\(leftOut) of \(Plural.count(active.count, "finding")) \(leftOut == 1 ? "was" : "were") left out of the table to stay under GitHub's comment size limit; the SARIF or JSON report has all of them._\n\n")
        }
        if sectionsLeftOut > 0 {
            document.force("_The details of \(Plural.count(sectionsLeftOut, "app")) were left out for the same reason._\n\n")
        }
        document.force("<sub>\(MarkdownText.escape(context.tool.name)) \(MarkdownText.escape(context.tool.version))</sub>\n")
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

    private static func summary(_ audits: [AppAudit], scope: ChangeScope?) -> String {
        let counts = FindingCounts(audits)
        var text = "## HealthKit audit\n\n"
        let failing = audits.filter { $0.verdict == .fails }.count, needsWork = audits.filter { $0.verdict == .needsWork }.count
        let incomplete = audits.filter { $0.verdict == .incomplete }.count
        text += "**\(failing) of \(Plural.count(audits.count, "app")) \(failing == 1 ? "fails" : "fail"), \(needsWork) \(needsWork == 1 ? "needs" : "need") work"
            + (incomplete > 0 ? ", \(incomplete) could not be fully read" : "") + "** — "
        text += "\(Plural.count(counts.errors, "error")), \(Plural.count(counts.warnings, "warning")), \(Plural.count(counts.notes, "note")), \(counts.suppressed) suppressed.\n\n"
        if let scope { text += "_\(scope.sentence)._\n\n" }
        return text + "| App | Verdict | Errors | Warnings | Notes | Suppressed |\n| --- | --- | ---: | ---: | ---: | ---: |\n"
    }

    private static func summaryRow(_ audit: AppAudit) -> String {
        let c = FindingCounts(audit.findings)
        return "| \(MarkdownTable.text(audit.manifest.name)) (\(MarkdownTable.code(audit.manifest.id))) | \(verdictBadge(audit.verdict)) | "
            + "\(c.errors) | \(c.warnings) | \(c.notes) | \(c.suppressed) |\n"
    }

    private static func row(_ finding: Finding, app: String, context: OutputContext) -> String {
        "| \(finding.severity.rawValue) | \(MarkdownTable.code(app)) | \(MarkdownTable.code(finding.ruleID)) | "
            + "\(MarkdownTable.code(TextReport.location(finding, context: context))) | \(MarkdownTable.text(finding.message)) |\n"
    }

    private static func details(_ audit: AppAudit, context: OutputContext) -> String {
        let c = FindingCounts(audit.findings)
        var text = "<details>\n<summary><b>\(MarkdownText.inlineHTML(audit.manifest.name))</b> — \(verdictBadge(audit.verdict)): "
        text += "\(Plural.count(c.errors, "error")), \(Plural.count(c.warnings, "warning")), \(Plural.count(c.notes, "note"))</summary>\n\n"
        text += "**Review questions**\n\n"
        for answer in audit.answers {
            text += "\(answer.question.rawValue). \(answer.question.text) **\(answer.status.rawValue)** \(markBadge(answer.mark)) — \(MarkdownText.escape(answer.reason))\n"
        }
        text += "\n"
        let shown = audit.findings.filter { !$0.isSuppressed || context.showSuppressed }
        if !shown.isEmpty {
            text += "**Findings**\n\n"
            for finding in shown {
                text += "- **\(finding.severity.rawValue)** \(MarkdownText.code(finding.ruleID)) at \(MarkdownText.code(TextReport.location(finding, context: context))): \(MarkdownText.escape(finding.message))"
                if let suppression = finding.suppression {
                    text += " — *suppressed (\(suppression.origin.rawValue)): \(MarkdownText.escape(suppression.reason))*"
                }
                text += "\n"
                if !finding.quote.isEmpty { text += "  \(MarkdownText.code(finding.quote))\n" }
            }
            text += "\n"
        }
        return text + "</details>\n\n"
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

/// Untrusted text in a GFM table cell: every punctuation mark backslash-escaped (so `|` cannot end
/// the cell) and line breaks folded (so it cannot end the row).
enum MarkdownTable {
    static func text(_ value: String) -> String { MarkdownText.escape(value) }

    /// A code span inside a cell: GFM splits cells before reading code spans, so `|` still needs its backslash.
    static func code(_ value: String) -> String { MarkdownText.code(value).replacingOccurrences(of: "|", with: "\\|") }
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
