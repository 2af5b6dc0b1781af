import Checklist

/// The formats `healthaudit check --format` writes; each is a pure function of the audits.
public enum ReportFormat: String, Sendable, CaseIterable {
    case text, sarif, junit, json, markdown, github, gitlab

    public func render(_ audits: [AppAudit], context: OutputContext) -> String {
        switch self {
        case .text: return TextReport.render(audits, context: context)
        case .sarif: return SARIFReport.render(audits, context: context)
        case .junit: return JUnitReport.render(audits, context: context)
        case .json: return JSONReport.render(audits, context: context)
        case .markdown: return MarkdownReport.render(audits, context: context)
        case .github: return GitHubAnnotations.render(audits, context: context)
        case .gitlab: return GitLabCodeQuality.render(audits, context: context)
        }
    }
}
