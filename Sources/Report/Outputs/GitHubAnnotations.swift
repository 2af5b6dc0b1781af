import Checklist
import Manifest

/// GitHub Actions workflow commands (`::error file=…,line=…::message`), which annotate the
/// pull request's diff. Suppressed findings are not annotated.
public enum GitHubAnnotations {
    public static func render(_ audits: [AppAudit], context: OutputContext) -> String {
        var output = ""
        for finding in audits.flatMap(\.findings) where !finding.isSuppressed {
            var properties = [
                ("file", VisibleText.escaped(context.repositoryPath(finding.location.file))),
                ("line", String(OutputContext.line(finding.location))),
            ]
            if let column = finding.location.column, column >= 1 { properties.append(("col", String(column))) }
            let title = RuleCatalog.rule(id: finding.ruleID)?.description.title ?? finding.ruleID
            properties.append(("title", "\(title) [\(finding.ruleID)]"))
            var message = VisibleText.escaped(PlainText.message(finding.message))
            if !finding.quote.isEmpty { message += "\n" + VisibleText.escaped(finding.quote) }
            // The runner reads this line as one `::` command first, so a `##[` in it is data; it
            // is still written `#\u{0023}[`, as in every other output, should that ever change.
            output += RunnerCommand.neutralized("::\(command(finding.severity)) "
                + properties.map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
                + "::\(escapeData(message))", hash: VisibleText.escape("#")) + "\n"
        }
        if let scope = context.changeScope { output += "::notice title=\(escapeProperty(context.tool.name))::\(escapeData(scope.sentence))\n" }
        return output
    }

    static func command(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "notice"
        }
    }

    /// The runner's own escaping for a command's message.
    public static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Property values additionally escape the separators `:` and `,`.
    public static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
