import Checklist
import Manifest

/// A file that went into the audit, with its SHA-256, so the evidence can be checked against the sources later.
public struct InputDigest: Sendable, Hashable {
    public var path: String
    public var sha256: String
    public init(path: String, sha256: String) { self.path = path; self.sha256 = sha256 }
}

/// Everything the evidence file holds besides the audit; read from disk by the CLI.
public struct EvidenceInput: Sendable {
    public var audit: AppAudit
    /// The config file as shown (site-relative) and its text.
    public var configPath: String
    public var configText: String
    public var inputs: [InputDigest]
    /// Pre-rendered, trusted HTML placed after the findings (e.g. the summaries overview).
    public var extraSection: String?

    public init(audit: AppAudit, configPath: String, configText: String, inputs: [InputDigest], extraSection: String? = nil) {
        self.audit = audit; self.configPath = configPath; self.configText = configText
        self.inputs = inputs; self.extraSection = extraSection
    }
}

/// One self-contained HTML page per app to archive with a release or attach to a review: inline
/// CSS, no scripts, no external requests (a CSP forbids them), no timestamps (same inputs, same bytes).
/// Every value read from the app is HTML-escaped.
public enum EvidenceReport {
    public static func render(_ input: EvidenceInput, context: OutputContext) -> String {
        let audit = input.audit
        let name = HTMLText.escape(audit.manifest.name)
        var html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>HealthKit audit evidence — \(name)</title>
        <style>\(style)</style>
        </head>
        <body>
        <h1>HealthKit audit evidence — \(name)</h1>

        """
        html += facts(audit, input: input, context: context)
        html += answers(audit, context: context)
        html += findings("Findings", audit.activeFindings, context: context, empty: "No findings.")
        html += findings("Suppressed findings", audit.findings.filter(\.isSuppressed), context: context, empty: "No suppressed findings.")
        if !audit.notes.isEmpty {
            // Markdown like every message: code spans for keys and identifiers, app text escaped by cmark.
            html += "<h2>What the scan could not establish</h2>\n<ul>\n" + audit.notes.map { "<li>\(MarkdownRenderer.inline($0))</li>\n" }.joined() + "</ul>\n"
        }
        if let extra = input.extraSection { html += "<section>\n\(extra)\n</section>\n" }
        html += "<h2>Configuration</h2>\n<p><code>\(HTMLText.escape(input.configPath))</code></p>\n"
        html += "<pre><code>\(HTMLText.escape(input.configText))</code></pre>\n"
        html += inputs(input.inputs)
        // Control and bidi characters however they got in (a message's Markdown, the extra section), as the site shows them.
        return VisibleText.escaped(html + "</body>\n</html>\n")
    }

    private static func facts(_ audit: AppAudit, input: EvidenceInput, context: OutputContext) -> String {
        let counts = FindingCounts(audit.findings)
        return """
        <table class="facts">
        <tr><th>App</th><td>\(HTMLText.escape(audit.manifest.name)) (<code>\(HTMLText.escape(audit.manifest.id))</code>, \(audit.manifest.config.kind.rawValue))</td></tr>
        <tr><th>Verdict</th><td class="verdict \(verdictClass(audit.verdict))">\(audit.verdict.rawValue)</td></tr>
        <tr><th>Findings</th><td>\(Plural.count(counts.errors, "error")), \(Plural.count(counts.warnings, "warning")), \(Plural.count(counts.notes, "note")), \(counts.suppressed) suppressed</td></tr>
        <tr><th>Requested (read)</th><td>\(requested(audit.requestedRead, audit.unresolvedRead))</td></tr>
        <tr><th>Requested (share)</th><td>\(requested(audit.requestedShare, audit.unresolvedShare))</td></tr>
        <tr><th>Tool</th><td>\(HTMLText.escape(context.tool.name)) \(HTMLText.escape(context.tool.version))</td></tr>
        <tr><th>Commit</th><td>\(context.source.commit.map { "<code>\(HTMLText.escape($0))</code>" } ?? "not in a git repository")</td></tr>
        </table>

        """
    }

    private static func answers(_ audit: AppAudit, context: OutputContext) -> String {
        var html = "<h2>Review questions</h2>\n<table>\n<tr><th>#</th><th>Question</th><th>Answer</th><th>Evidence</th></tr>\n"
        for answer in audit.answers {
            // The question text is the tool's own Markdown; cmark renders it in safe mode.
            let question = MarkdownRenderer.render(answer.question.text).html
            let evidence = answer.evidence.map { "<div>\(location($0.location, context: context))<br><code>\(HTMLText.escape($0.quote))</code></div>" }.joined()
            html += "<tr><td>\(answer.question.rawValue)</td><td>\(question)</td>"
            html += "<td><span class=\"answer \(answerClass(answer.mark))\">\(answer.status.rawValue) (\(answer.mark.rawValue))</span><br>\(MarkdownRenderer.inline(answer.reason))</td>"
            html += "<td>\(evidence)</td></tr>\n"
        }
        return html + "</table>\n"
    }

    private static func findings(_ title: String, _ findings: [Finding], context: OutputContext, empty: String) -> String {
        var html = "<h2>\(title)</h2>\n"
        guard !findings.isEmpty else { return html + "<p>\(empty)</p>\n" }
        html += "<table>\n<tr><th>Severity</th><th>Rule</th><th>Where</th><th>Finding</th></tr>\n"
        for finding in findings {
            let title = RuleCatalog.rule(id: finding.ruleID)?.description.title
            html += "<tr><td class=\"\(finding.severity.rawValue)\">\(finding.severity.rawValue)</td>"
            html += "<td><code>\(HTMLText.escape(finding.ruleID))</code>" + (title.map { "<br>\(HTMLText.escape($0))" } ?? "") + "</td>"
            html += "<td>\(location(finding.location, context: context))<br>target <code>\(HTMLText.escape(finding.target))</code>"
            html += "<br>fingerprint <code>\(HTMLText.escape(context.fingerprint(finding)))</code></td>"
            html += "<td>\(MarkdownRenderer.inline(finding.message))"
            if !finding.quote.isEmpty {
                // The quoted line in bold between its neighbours, as on the site.
                let before = (finding.context?.before ?? []).map { "<span class=\"context\">\(HTMLText.escape($0))</span>\n" }.joined()
                let after = (finding.context?.after ?? []).map { "\n<span class=\"context\">\(HTMLText.escape($0))</span>" }.joined()
                html += "<pre class=\"quote\"><code>\(before)<span class=\"quoted\">\(HTMLText.escape((finding.context?.indent ?? "") + finding.quote))</span>\(after)</code></pre>"
            }
            if let suppression = finding.suppression {
                html += "<p class=\"suppressed\">Suppressed (\(suppression.origin.rawValue), \(location(suppression.location, context: context))): "
                html += "\(HTMLText.escape(suppression.reason))</p>"
            }
            html += "</td></tr>\n"
        }
        return html + "</table>\n"
    }

    private static func inputs(_ inputs: [InputDigest]) -> String {
        var html = "<h2>Input files</h2>\n<table>\n<tr><th>File</th><th>SHA-256</th></tr>\n"
        for input in inputs.sorted(by: { $0.path < $1.path }) {
            html += "<tr><td><code>\(HTMLText.escape(input.path))</code></td><td><code class=\"digest\">\(HTMLText.escape(input.sha256))</code></td></tr>\n"
        }
        return html + "</table>\n"
    }

    private static func location(_ location: FileLocation, context: OutputContext) -> String {
        var copy = location
        copy.file = context.sitePath(location.file)
        return "<code>\(HTMLText.escape(copy.description))</code>"
    }

    private static func requested(_ names: [String], _ unresolved: UnresolvedRequests) -> String {
        let code = { (text: String) in "<code>\(HTMLText.escape(text))</code>" }
        return UnresolvedRequests.describe(names, unresolved: unresolved, name: code, place: code)
    }

    private static func verdictClass(_ verdict: Verdict) -> String {
        switch verdict {
        case .passes: return "pass"
        case .needsWork: return "warn"
        case .incomplete: return "unknown"
        case .fails: return "fail"
        }
    }

    private static func answerClass(_ mark: Answer.Mark) -> String {
        switch mark {
        case .pass: return "pass"
        case .fail: return "fail"
        case .notApplicable, .unknown: return "na"
        }
    }

    static let style = """
    body{font:16px/1.5 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}\
    table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border:1px solid #d2d2d7;padding:.4rem .6rem;text-align:left;vertical-align:top}\
    th{background:#f5f5f7}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}pre{white-space:pre-wrap;background:#f5f5f7;padding:.6rem;overflow-wrap:anywhere}\
    .facts{width:auto}.pass{color:#1a7f37}.warn,.warning{color:#9a6700}.fail,.error{color:#cf222e}.na,.note{color:#57606a}\
    .answer,.verdict{font-weight:600}.suppressed{color:#57606a;font-style:italic}.digest{overflow-wrap:anywhere}\
    pre.quote .context{color:#5b5b60}pre.quote .quoted{font-weight:600}
    """
}
