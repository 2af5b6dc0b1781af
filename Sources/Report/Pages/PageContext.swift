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

    static func counts(_ findings: [Finding]) -> [String: Any] {
        let c = FindingCounts(findings)
        // The numbers for templates that format their own, the phrases ("1 error", "2 warnings") for prose.
        return [
            "errors": c.errors, "warnings": c.warnings, "notes": c.notes, "suppressed": c.suppressed,
            "errorsText": Plural.count(c.errors, "error"), "warningsText": Plural.count(c.warnings, "warning"), "notesText": Plural.count(c.notes, "note"),
        ]
    }

    static func finding(_ finding: Finding, from page: String) -> [String: Any] {
        let rule = RuleCatalog.rule(id: finding.ruleID)
        var row: [String: Any] = [
            "rule": finding.ruleID,
            "ruleTitle": rule?.description.title ?? finding.ruleID,
            "ruleURL": SitePaths.link(from: page, to: SitePaths.rule(finding.ruleID)),
            "severity": finding.severity.rawValue,
            // Markdown through cmark (code spans, emphasis), links in app text rendered as text.
            "message": MarkdownRenderer.inline(finding.message),
            "location": finding.location.description,
            "quote": finding.quote,
            "target": finding.target,
            "fingerprint": finding.fingerprint,
        ]
        if let suppression = finding.suppression {
            row["suppression"] = ["origin": suppression.origin.rawValue, "reason": suppression.reason, "location": suppression.location.description]
        }
        return row
    }

    static func layout(title: String, page: String, siteTitle: String, toc: [TableOfContentsEntry] = [], footer: SiteFooter = SiteFooter()) -> [String: Any] {
        let root = SitePaths.root(from: page)
        return [
            "title": title,
            // The index is titled by the site: "Apps · Apps" would say it twice.
            "pageTitle": title == siteTitle ? title : title + " · " + siteTitle,
            "footer": footer.context,
            "siteTitle": siteTitle,
            "root": root,
            "stylesheet": root + "style.css",
            "home": root + SitePaths.index,
            "rules": root + SitePaths.rulesIndex,
            "toc": toc.filter { $0.level == 2 }.map { ["title": $0.title, "anchor": $0.anchor] },
            "hasToc": toc.contains { $0.level == 2 },
        ]
    }
}
