import Checklist
import Manifest

/// Template values shared by pages: severity badges, verdicts, finding rows, links.
enum PageContext {
    static func verdictClass(_ verdict: Verdict) -> String {
        switch verdict {
        case .passes: return "pass"
        case .needsWork: return "warn"
        case .incomplete: return "unknown"
        case .fails: return "fail"
        }
    }

    static func answerClass(_ mark: Answer.Mark) -> String {
        switch mark {
        case .pass: return "pass"
        case .fail: return "fail"
        case .notApplicable: return "na"
        case .unknown: return "unknown"
        }
    }

    /// The numbers for templates that format their own, the phrases ("1 error", "2 warnings") for prose.
    struct Counts: TemplateModel {
        var errors: Int, warnings: Int, notes: Int, suppressed: Int
        var errorsText: String, warningsText: String, notesText: String

        init(_ findings: [Finding]) {
            let c = FindingCounts(findings)
            errors = c.errors; warnings = c.warnings; notes = c.notes; suppressed = c.suppressed
            errorsText = Plural.count(c.errors, "error"); warningsText = Plural.count(c.warnings, "warning"); notesText = Plural.count(c.notes, "note")
        }
    }

    /// A finding as a row of the app page's suppressed list or a rule page's findings.
    struct FindingRow: TemplateModel {
        var rule: String
        var ruleTitle: String
        var ruleURL: String
        var severity: String
        /// Markdown through cmark (code spans, emphasis), links in app text rendered as text.
        var message: String
        var location: String
        var quote: String
        var target: String
        var fingerprint: String
        var suppression: SuppressionRow?
        /// On a rule page: the app it was found in, and its page.
        var app: String?
        var appURL: String?

        struct SuppressionRow: TemplateModel {
            var origin: String
            var reason: String
            var location: String
        }

        init(_ finding: Finding, from page: String) {
            rule = finding.ruleID
            ruleTitle = RuleCatalog.rule(id: finding.ruleID)?.description.title ?? finding.ruleID
            ruleURL = SitePaths.link(from: page, to: SitePaths.rule(finding.ruleID))
            severity = finding.severity.rawValue
            message = MarkdownRenderer.inline(finding.message)
            location = finding.location.description
            quote = finding.quote
            target = finding.target
            fingerprint = finding.fingerprint
            suppression = finding.suppression.map { SuppressionRow(origin: $0.origin.rawValue, reason: $0.reason, location: $0.location.description) }
        }
    }

    /// The layout's values: every page's frame around its own template's output.
    struct Layout: TemplateModel {
        var title: String
        /// The index is titled by the site: "Apps · Apps" would say it twice.
        var pageTitle: String
        var footer: SiteFooter.Model
        var siteTitle: String
        var root: String
        var stylesheet: String
        var home: String
        var rules: String
        var toc: [TocEntry]
        var hasToc: Bool
        /// The page's own template's output, set by `TemplateSet.page`.
        var content = ""

        struct TocEntry: TemplateModel {
            var title: String
            var anchor: String
        }
    }

    static func layout(title: String, page: String, siteTitle: String, toc: [TableOfContentsEntry] = [], footer: SiteFooter = SiteFooter()) -> Layout {
        let root = SitePaths.root(from: page)
        return Layout(title: title, pageTitle: title == siteTitle ? title : title + " · " + siteTitle, footer: footer.model,
                      siteTitle: siteTitle, root: root, stylesheet: root + "style.css", home: root + SitePaths.index,
                      rules: root + SitePaths.rulesIndex,
                      toc: toc.filter { $0.level == 2 }.map { Layout.TocEntry(title: $0.title, anchor: $0.anchor) },
                      hasToc: toc.contains { $0.level == 2 })
    }
}
