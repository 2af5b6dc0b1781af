import Foundation
import Manifest
import SwiftSyntax

/// The audit of one app: findings (suppressed ones included, marked) and the six answers.
public struct AppAudit: Sendable {
    public var manifest: AppManifest
    public var findings: [Finding]
    public var answers: [Answer]
    public var requestedRead: [String]
    public var requestedShare: [String]
    /// Requests whose types could not be resolved: the requested types are then not all known.
    public var unresolvedRead = UnresolvedRequests()
    public var unresolvedShare = UnresolvedRequests()
    /// Facts the scan could not establish (unresolved type sets, files that do not parse).
    public var notes: [String]

    public var activeFindings: [Finding] { findings.filter { !$0.isSuppressed } }

    public var verdict: Verdict { Verdict(activeFindings: activeFindings) }

    /// What `init` writes of this app: its targets, requested types and what is unknown.
    public var discoveryFindings: AppDiscovery.Findings {
        AppDiscovery.Findings(targets: manifest.targets.map(\.name), read: requestedRead, share: requestedShare,
                              unresolvedRead: unresolvedRead, unresolvedShare: unresolvedShare)
    }
}

public enum Verdict: String, Sendable, CaseIterable, Codable {
    case passes = "passes"
    case needsWork = "needs work"
    case incomplete = "incomplete"
    case fails = "fails"

    /// Rules whose finding says part of the app could not be read: the audit cannot pass it.
    public static let incompletenessRules: Set<String> = ["app-not-loaded", "healthkit-use-unread"]

    /// By the worst active finding: an error fails, a warning needs work. What could not be read
    /// makes the audit incomplete (never "passes"), unless another error already fails it.
    public init(activeFindings: [Finding]) {
        let (unread, others) = (activeFindings.filter { Self.incompletenessRules.contains($0.ruleID) },
                                activeFindings.filter { !Self.incompletenessRules.contains($0.ruleID) })
        switch others.map(\.severity).max() {
        case .error?: self = .fails
        case _ where !unread.isEmpty: self = .incomplete
        case .warning?: self = .needsWork
        default: self = .passes
        }
    }
}

/// Runs every rule over an app, applies suppressions and answers the review questions.
public struct Checklist: Sendable {
    public let rules: [any Rule]

    public init(rules: [any Rule] = RuleCatalog.all.map { $0.init() }) {
        self.rules = rules
    }

    public func audit(_ manifest: AppManifest) -> AppAudit {
        let checklist = self
        return LargeStack.run { checklist.auditOnThisThread(manifest, files: ParsedFiles()) }
    }

    /// The apps of one run, in order: a file several of them compile is parsed and indexed once.
    /// `cache`: per-file facts kept between runs (`SwiftFileCache`).
    public func audit(_ manifests: [AppManifest], cache: SwiftFileCache? = nil) -> [AppAudit] {
        audit(manifests, files: ParsedFiles(manifests: manifests, cache: cache))
    }

    func audit(_ manifests: [AppManifest], files: ParsedFiles) -> [AppAudit] {
        let checklist = self
        return manifests.map { manifest in LargeStack.run { checklist.auditOnThisThread(manifest, files: files) } }
    }

    private func auditOnThisThread(_ manifest: AppManifest, files: ParsedFiles) -> AppAudit {
        let context = AuditContext(manifest: manifest, files: files)
        defer { Self.releaseInBackground(context, files: files) }
        if !manifest.loadProblems.isEmpty { return unloadedAudit(context) }
        // Rules only read the context: they run side by side, and their findings are sorted below.
        var findings = ParallelMap.map(rules) { $0.check(context) }.flatMap { $0 }
        findings = DebugOnlyCode(sources: context.sources).soften(findings)
        findings = Self.droppingUncalledScriptCode(findings, files: manifest.javaScriptSources, uncalled: context.uncalledScripts.javaScript, rules: rules)
        findings = RuleSettings(manifest.config.rules).apply(to: findings)
        findings = Suppressions(context: context).apply(to: findings)
        findings.sort { a, b in
            if a.severity != b.severity { return a.severity > b.severity }
            if a.location != b.location { return a.location < b.location }
            return (a.ruleID, a.message) < (b.ruleID, b.message)
        }
        findings = Self.unique(findings)
        findings = FindingContext(manifest: manifest, sources: context.sources).apply(to: findings)
        let answers = AnswerSheet(context: context, findings: findings, rules: rules.map { type(of: $0).description }).answers()
        return AppAudit(manifest: manifest, findings: findings, answers: answers,
                        requestedRead: context.requestedRead.sorted(), requestedShare: context.requestedShare.sorted(),
                        unresolvedRead: context.unresolvedRead, unresolvedShare: context.unresolvedShare, notes: context.notes.sorted())
    }

    /// A finding about what JavaScript code does with a value, inside a function nothing in the app calls,
    /// describes code that never runs. The rules of questions 1 and 6 keep theirs: those answers count
    /// every call and write the facts hold, and a finding must not vanish from under its answer.
    static func droppingUncalledScriptCode(_ findings: [Finding], files: [JavaScriptFile], uncalled: UncalledScriptFunctions, rules: [any Rule]) -> [Finding] {
        let scriptPaths = Set(files.map(\.path))
        guard findings.contains(where: { scriptPaths.contains($0.location.file) }) else { return findings }
        let droppable = Set(rules.map { type(of: $0).description }.filter { !$0.questions.contains(.availabilityChecked) && !$0.questions.contains(.writeStatusRechecked) }
            .map(\.id))
        return findings.filter { finding in
            guard droppable.contains(finding.ruleID), scriptPaths.contains(finding.location.file), let line = finding.location.line else { return true }
            return !uncalled.contains(path: finding.location.file, line: line)
        }
    }

    /// An app that could not be loaded: its problems as findings, each answer "cannot tell" citing them.
    private func unloadedAudit(_ context: AuditContext) -> AppAudit {
        var findings = rules.filter { $0 is AppNotLoadedRule }.flatMap { $0.check(context) }
        findings = RuleSettings(context.manifest.config.rules).apply(to: findings)
        let problems = context.manifest.loadProblems
        let quotes = context.manifest.loadProblemQuotes
        // Evidence quotes the line a problem rests on; a folder or an unreadable file has none to quote.
        let evidence = problems.indices.compactMap { index -> Evidence? in
            index < quotes.count && !quotes[index].isEmpty ? Evidence(location: problems[index].location, quote: quotes[index]) : nil
        }
        let first = problems[0]
        let place = evidence.first { $0.location == first.location }?.place ?? Self.shown(first.location)
        let answers = ReviewQuestion.allCases.map { question in
            Answer(question: question, status: .cannotTell,
                   reason: "cannot tell — the app could not be loaded: \(first.message) (\(place))", evidence: evidence,
                   ruleIDs: findings.isEmpty ? [] : [AppNotLoadedRule.description.id])
        }
        return AppAudit(manifest: context.manifest, findings: findings, answers: answers, requestedRead: [], requestedShare: [],
                        notes: context.manifest.loadProblems.map { "not loaded: \($0.location): \($0.message)" })
    }

    /// A place no evidence quotes: the file (a folder) and its line in words, so no reader takes it for a cited line.
    private static func shown(_ location: FileLocation) -> String {
        location.line.map { "\(location.file), line \($0)" } ?? location.file
    }

    /// Freeing a thousand trees and their indexes takes a tenth of a `check`; nothing waits for it,
    /// so it happens beside the report writing (or the next app's parse) instead of before it.
    /// Files a later app of the run compiles keep their tree and index.
    private static func releaseInBackground(_ context: AuditContext, files: ParsedFiles) {
        DispatchQueue.global(qos: .utility).async {
            let released = files.finished(Set(context.sources.map(\.key)))
            var seen: Set<SyntaxIdentifier> = []
            let roots = context.sources.filter { released.contains($0.key) }.map { $0.tree.id }.filter { seen.insert($0).inserted }
            SyntaxIndex.shared.forget(roots)
            withExtendedLifetime(context) {}
        }
    }

    private static func unique(_ findings: [Finding]) -> [Finding] {
        var seen: Set<Finding> = []
        return findings.filter { seen.insert($0).inserted }
    }
}

/// The catalogue of every rule, in a stable order (manifest rules, then source rules).
public enum RuleCatalog {
    public static var all: [any Rule.Type] { manifestRules + sourceRules + reactNativeRules + dartRules + wrapperRules + coverageRules }

    public static func rule(id: String) -> (any Rule.Type)? { all.first { $0.description.id == id } }
}

/// The config's project-wide `rules:`: a rule turned `off` reports nothing (and so answers
/// nothing); `error` / `warning` / `note` replaces the rule's severity for every app.
public struct RuleSettings {
    let levels: [String: RuleSetting.Level]

    public init(_ settings: [Located<RuleSetting>]) {
        levels = Dictionary(settings.map { ($0.value.rule, $0.value.level) }) { _, last in last }
    }

    func apply(to findings: [Finding]) -> [Finding] {
        findings.compactMap { finding in
            guard let level = levels[finding.ruleID] else { return finding }
            guard let severity = Severity(rawValue: level.rawValue) else { return nil }
            var finding = finding
            finding.severity = severity
            return finding
        }
    }

    /// Settings naming no rule, as config problems at their line (with the closest rule id).
    public static func problems(in settings: [Located<RuleSetting>]) -> [InputProblem] {
        let ids = RuleCatalog.all.map { $0.description.id }
        return settings.filter { setting in !ids.contains(setting.value.rule) }.map { setting in
            let hint = Suggestion.closest(to: setting.value.rule, in: ids).map { " (did you mean '\($0)'?)" } ?? ""
            return InputProblem("rules: unknown rule '\(setting.value.rule)'\(hint); `healthaudit rules` lists them", at: setting.location)
        }
    }
}

/// Config `ignore:` entries and inline `// healthaudit:disable-next-line RULE -- reason` comments.
struct Suppressions {
    let context: AuditContext

    func apply(to findings: [Finding]) -> [Finding] {
        let inline = inlineSuppressions()
        return findings.map { finding in
            var finding = finding
            if let entry = context.manifest.config.ignore.first(where: { matches($0, finding) }) {
                finding.suppression = Suppression(origin: .config, reason: entry.reason, location: entry.location)
            } else if let line = finding.location.line,
                      let (reason, location) = inline[InlineKey(file: finding.location.file, line: line, rule: finding.ruleID)] {
                finding.suppression = Suppression(origin: .inline, reason: reason, location: location)
            }
            return finding
        }
    }

    private func matches(_ entry: IgnoreEntry, _ finding: Finding) -> Bool {
        guard entry.rule == finding.ruleID else { return false }
        guard let path = entry.path else { return true }
        return finding.location.file == path || finding.location.file.hasSuffix("/" + path)
    }

    private struct InlineKey: Hashable { var file: String; var line: Int; var rule: String }

    static let marker = InlineSuppression.marker

    /// Every code file the rules read: Swift, JavaScript / TypeScript and Dart all write `//` comments.
    private var codeFiles: [(path: String, text: String)] {
        context.sources.map { ($0.file.path, $0.file.text) }
            + (context.manifest.javaScriptSources + context.manifest.dartSources).map { ($0.path, $0.text) }
    }

    /// A reason is required: a comment without `-- reason` suppresses nothing.
    private func inlineSuppressions() -> [InlineKey: (String, FileLocation)] {
        var result: [InlineKey: (String, FileLocation)] = [:]
        // Most files hold no directive: one search of the bytes spares splitting them into lines.
        for source in codeFiles where ByteSearch.contains(source.text, Self.marker) {
            for (index, line) in source.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let range = line.range(of: Self.marker), line[..<range.lowerBound].contains("//") else { continue }
                let rest = line[range.upperBound...]
                let parts = rest.components(separatedBy: "--")
                guard parts.count >= 2 else { continue }
                let reason = parts.dropFirst().joined(separator: "--").trimmingCharacters(in: .whitespaces)
                guard !reason.isEmpty else { continue }
                let location = FileLocation(file: source.path, line: index + 1)
                for rule in parts[0].split(whereSeparator: { $0 == " " || $0 == "," }) {
                    result[InlineKey(file: source.path, line: index + 2, rule: String(rule))] = (reason, location)
                }
            }
        }
        return result
    }
}
