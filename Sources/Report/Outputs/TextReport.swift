import Checklist
import Foundation
import Manifest

/// The default, compiler-like output: each app's six answers as a compact block (unless
/// `--quiet`), then `path:line:column: severity: message [rule]`, which editors and CI log viewers
/// turn into links. Paths are relative to the current directory.
public enum TextReport {
    public static func render(_ audits: [AppAudit], context: OutputContext) -> String {
        var output = ""
        if context.showsAnswers { output += audits.map { answers($0, verdict: context.baselined == nil && context.changeScope == nil) }.joined() }
        for audit in audits {
            if context.verbose { output += discovery(audit, context: context) }
            for finding in audit.findings where !finding.isSuppressed || context.showSuppressed {
                output += line(finding, context: context) + "\n"
            }
        }
        output += summary(audits) + " (\(context.tool.name) \(context.tool.version))\n"
        if let scope = context.changeScope { output += scope.sentence + "\n" }
        return output
    }

    /// The app's verdict, then one line per question: mark, number, the checklist's question,
    /// the answer and its reason clipped to one short line (the findings below carry the detail).
    /// The block never starts with a path, so a log viewer takes none of it for a finding. The
    /// verdict judges the findings shown: with a baseline or a change scope it would call an app
    /// "passes" beside failing answers, so it is left out then.
    static func answers(_ audit: AppAudit, verdict: Bool) -> String {
        let name = "\(oneLine(audit.manifest.name)) (\(oneLine(audit.manifest.id)))"
        var text = VisibleText.line(verdict ? "\(name): \(audit.verdict.rawValue)" : name) + "\n"
        for answer in audit.answers {
            let mark = answer.mark.rawValue.padding(toLength: markWidth, withPad: " ", startingAt: 0)
            let question = PlainText.message(answer.question.text)
            text += VisibleText.line("  \(mark) Q\(answer.question.rawValue) \(question) \(answer.status.rawValue) — \(shortReason(answer))") + "\n"
        }
        return text + "\n"
    }

    /// "unknown", the widest mark.
    private static let markWidth = Answer.Mark.unknown.rawValue.count
    public static let reasonLimit = 100

    /// The reason on one line, without the "cannot tell — " its status already says, cut at a
    /// word within `reasonLimit` characters (before escaping, so no escape is cut in half).
    static func shortReason(_ answer: Answer) -> String {
        var reason = PlainText.message(answer.reason)
        let prefix = answer.status.rawValue + " — "
        if reason.hasPrefix(prefix) { reason.removeFirst(prefix.count) }
        guard reason.count > reasonLimit else { return oneLine(reason) }
        var cut = String(reason.prefix(reasonLimit))
        if let space = cut.lastIndex(where: \.isWhitespace), cut.distance(from: cut.startIndex, to: space) > reasonLimit / 2 { cut = String(cut[..<space]) }
        return oneLine(cut.trimmingCharacters(in: CharacterSet(charactersIn: " ,;:—"))) + " …"
    }

    /// `--verbose`: what discovery found for the app, each fact where it was read, as
    /// `path:line: note: text (origin)` so editors link it like a finding.
    static func discovery(_ audit: AppAudit, context: OutputContext) -> String {
        var text = VisibleText.line("\(oneLine(audit.manifest.id)): \(Plural.count(audit.manifest.discovery.count, "discovered fact"))") + "\n"
        for fact in audit.manifest.discovery {
            let place = fact.location.map { "\(oneLine(context.repositoryPath($0.file))):\(OutputContext.line($0))" } ?? oneLine(audit.manifest.id)
            text += VisibleText.line("\(place): \(fact.isNote ? "note" : "info"): \(oneLine(fact.text)) (\(oneLine(fact.origin)))") + "\n"
        }
        return text
    }

    public static func line(_ finding: Finding, context: OutputContext) -> String {
        var text = "\(location(finding, context: context)): \(finding.severity.rawValue): \(oneLine(PlainText.message(finding.message))) [\(finding.ruleID)]"
        if let suppression = finding.suppression {
            text += " (suppressed, \(suppression.origin.rawValue): \(oneLine(suppression.reason)))"
        }
        // A path at the line's start could begin `::`; a message could hold `##[`.
        return VisibleText.line(text)
    }

    /// `path:line` or `path:line:column`; line 1 when the input has no lines.
    static func location(_ finding: Finding, context: OutputContext) -> String {
        var text = "\(oneLine(context.repositoryPath(finding.location.file))):\(OutputContext.line(finding.location))"
        if let column = finding.location.column, column >= 1 { text += ":\(column)" }
        return text
    }

    /// `2 app(s) audited: 3 error(s), 1 warning(s), 0 note(s), 2 suppressed`.
    public static func summary(_ audits: [AppAudit]) -> String {
        let counts = FindingCounts(audits)
        return "\(Plural.count(audits.count, "app")) audited: \(Plural.count(counts.errors, "error")), \(Plural.count(counts.warnings, "warning")), \(Plural.count(counts.notes, "note")), \(counts.suppressed) suppressed"
    }

    /// Untrusted text must not start a new line that a log parser would read as another diagnostic,
    /// nor hide or reorder what the terminal shows.
    static func oneLine(_ text: String) -> String {
        VisibleText.escaped(String(text.map { $0.isNewline ? " " : $0 }))
    }
}
