import Checklist
import Manifest

/// The default, compiler-like output: `path:line:column: severity: message [rule]`, which editors
/// and CI log viewers turn into links. Paths are relative to the current directory.
public enum TextReport {
    public static func render(_ audits: [AppAudit], context: OutputContext) -> String {
        var output = ""
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
