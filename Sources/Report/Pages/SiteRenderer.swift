import Checklist
import Foundation
import Manifest
import Summary

/// Turns a `SiteInput` into the files of the site. Pure: same input, same bytes.
public struct SiteRenderer: Sendable {
    let templates: TemplateSet
    /// What every page's footer names (the input's, set by `plan`).
    var footer = SiteFooter()

    public init(templates: TemplateSet) { self.templates = templates }

    /// The pages to write, in a fixed order (index, apps, rules, content, assets), each with the
    /// cache key of its inputs where it has one (content pages and assets) and a deferred render,
    /// so a build can skip unchanged pages and render the rest in parallel.
    public func plan(_ input: SiteInput) -> [PendingFile] {
        var renderer = self
        renderer.footer = input.footer
        return renderer.pages(input)
    }

    private func pages(_ input: SiteInput) -> [PendingFile] {
        // Every page shows the templates, the site's title and the footer.
        let shared = StableDigest.hex([templates.digest, input.title, "\(footer.version) \(footer.commit ?? "") \(footer.date ?? "")"].joined(separator: "|"))
        // Pages showing the apps are keyed only when the caller can say what the apps were made from.
        let apps = input.appsDigest.map { StableDigest.hex(shared + "|apps " + $0) }
        let listed = StableDigest.hex(input.contentPages.map { $0.title + "\u{0}" + $0.outputPath }.joined(separator: "\n"))
        var files: [PendingFile] = [.later(SitePaths.index, key: apps.map { StableDigest.hex($0 + "|pages " + listed) }) { indexPage(input) }]
        files += input.apps.map { app in .later(SitePaths.app(app.id), key: apps) { appPage(app, input: input) } }
        for app in input.apps {
            guard let simulation = app.simulation else { continue }
            let pages = SummaryPages(app: app, summary: simulation, renderer: self, siteTitle: input.title)
            files.append(.later(SitePaths.summary(app.id), key: apps) { pages.overview() })
            for (index, day) in simulation.days.enumerated() {
                files.append(.later(SitePaths.day(app.id, day.day.description), key: apps) { pages.dayPage(day, index: index) })
            }
        }
        // The rules come with the tool, whose binary the build cache is keyed by.
        files.append(.later(SitePaths.rulesIndex, key: shared) { rulesIndexPage(input) })
        files.append(.later(SitePaths.notFound, key: apps.map { StableDigest.hex($0 + "|base " + input.baseURL) }) { notFoundPage(input) })
        files += RuleCatalog.all.map { rule in
            .later(SitePaths.rule(rule.description.id), key: apps) { rulePage(rule.description, examples: RuleExamplePages.shown(for: rule), input: input) }
        }
        // A content page depends on its own text, the templates, the site title and the set of page paths (its links).
        let links = ContentLinkMap(input.contentPages)
        let content = StableDigest.hex(shared + "|" + links.digest)
        files += input.contentPages.map { page in
            PendingFile(path: page.outputPath, key: StableDigest.hex(page.contentHash + "|" + content)) {
                contentPage(page, input: input, links: links).data
            }
        }
        files += templates.assets.keys.sorted().map { name in
            let data = templates.assets[name]!
            return PendingFile(path: name, key: StableDigest.hex(data)) { data }
        }
        return files
    }

    /// Every file rendered now, in plan order.
    public func render(_ input: SiteInput) -> [OutputFile] {
        plan(input).map { OutputFile(path: $0.path, data: $0.render()) }
    }

    /// `fromApps`: the page shows what apps and results say (every page but the site's own content
    /// pages). Their control and bidi characters are then shown as `\u{202E}` escapes, as in the
    /// text formats, whichever way they reached the page: a template's `{{value}}`, cmark, a chart.
    func page(_ template: String, path: String, title: String, model: some TemplateModel, siteTitle: String,
              toc: [TableOfContentsEntry] = [], fromApps: Bool = true) -> OutputFile {
        let html = templates.page(template, model: PageBody(model: model, root: SitePaths.root(from: path)),
                                  layout: PageContext.layout(title: title, page: path, siteTitle: siteTitle, toc: toc, footer: footer))
        return OutputFile(path: path, text: fromApps ? VisibleText.escaped(html) : html)
    }

    static func rank(_ verdict: Verdict) -> Int {
        switch verdict {
        case .fails: return 0
        case .incomplete: return 1
        case .needsWork: return 2
        case .passes: return 3
        }
    }

    /// The site in one line: "4 of 5 apps fail", then the others' state.
    struct Headline: TemplateModel {
        var lead: String
        /// ", 1 needs work, 2 pass", or empty.
        var rest: String
    }

    static func headline(_ apps: [AppReport]) -> Headline {
        let by = Dictionary(grouping: apps, by: \.verdict).mapValues(\.count)
        let total = Plural.count(apps.count, "app")
        let failing = by[.fails] ?? 0, needsWork = by[.needsWork] ?? 0, incomplete = by[.incomplete] ?? 0
        let lead: String
        if apps.isEmpty { lead = "No app is audited yet" }
        else if failing > 0 { lead = "\(failing) of \(total) \(failing == 1 ? "fails" : "fail")" }
        else if needsWork > 0 { lead = "\(needsWork) of \(total) \(needsWork == 1 ? "needs" : "need") work" }
        else if incomplete > 0 { lead = "\(incomplete) of \(total) could not be fully read" }
        else { lead = apps.count == 1 ? "The app passes" : "All \(total) pass" }
        var rest: [String] = []
        if failing > 0, needsWork > 0 { rest.append("\(needsWork) \(needsWork == 1 ? "needs" : "need") work") }
        if failing + needsWork > 0, incomplete > 0 { rest.append("\(incomplete) could not be fully read") }
        let passing = by[.passes] ?? 0
        if passing > 0, passing < apps.count { rest.append("\(passing) \(passing == 1 ? "passes" : "pass")") }
        return Headline(lead: lead, rest: rest.isEmpty ? "" : ", " + rest.joined(separator: ", "))
    }

    /// The index's template values.
    struct IndexModel: TemplateModel {
        var siteTitle: String
        var apps: [IndexApp]
        var pages: [PageLink]
        var hasPages: Bool
        var ruleCount: Int
        var headline: Headline
        var history: HistorySection.Model?
    }

    /// An app's row on the index.
    struct IndexApp: TemplateModel {
        var name: String
        var id: String
        var kind: String
        var url: String
        var verdict: String
        var verdictClass: String
        var counts: PageContext.Counts
        /// Why it fails, in words: its worst problems, one line each.
        var problems: [ProblemSummary.Row]
        /// Only for an app with summaries.
        var summaryURL: String?
    }

    /// A content page on the index.
    struct PageLink: TemplateModel {
        var title: String
        var url: String
    }

    /// An app on the 404 page.
    struct AppLink: TemplateModel {
        var name: String
        var url: String
    }

    func indexPage(_ input: SiteInput) -> OutputFile {
        let path = SitePaths.index
        // Worst first: failing apps, then incomplete ones, those that need work, those that pass (config order within each).
        let ordered = input.apps.enumerated().sorted { a, b in
            let (x, y) = (Self.rank(a.element.verdict), Self.rank(b.element.verdict))
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
        let apps = ordered.map { app in
            IndexApp(name: app.name, id: app.id, kind: app.kind.rawValue, url: SitePaths.app(app.id), verdict: app.verdict.rawValue,
                     verdictClass: PageContext.verdictClass(app.verdict), counts: PageContext.Counts(app.findings),
                     problems: ProblemSummary(groups: FindingGroup.groups(app.activeFindings), simulation: app.simulation)
                        .rows(from: path, appPath: SitePaths.app(app.id), limit: 3),
                     summaryURL: app.simulation == nil ? nil : SitePaths.summary(app.id))
        }
        let pages = input.contentPages.map { PageLink(title: $0.title, url: $0.outputPath) }
        let model = IndexModel(siteTitle: input.title, apps: apps, pages: pages, hasPages: !pages.isEmpty, ruleCount: RuleCatalog.all.count,
                               headline: Self.headline(input.apps),
                               history: input.history.flatMap { HistorySection.model($0.site, subject: "all apps", commits: false) })
        return page("index", path: path, title: input.title, model: model, siteTitle: input.title)
    }

    func appPage(_ app: AppReport, input: SiteInput) -> OutputFile {
        let page = AppPage(app: app)
        let history = input.history.flatMap { HistorySection.model($0.apps[app.id] ?? [], subject: app.name, commits: true) }
        let (model, toc) = page.model(history: history)
        var sections = [TableOfContentsEntry(level: 2, title: "Review questions", anchor: "review-questions"),
                        TableOfContentsEntry(level: 2, title: "Findings", anchor: "findings")]
        if history != nil { sections.append(TableOfContentsEntry(level: 2, title: "History", anchor: "history")) }
        if app.simulation != nil { sections.append(TableOfContentsEntry(level: 2, title: "Summaries and scenarios", anchor: "summaries")) }
        return self.page("app", path: page.path, title: app.name, model: model, siteTitle: input.title, toc: sections + toc)
    }

    struct NotFoundModel: TemplateModel {
        var apps: [AppLink]
        var hasApps: Bool
    }

    /// `404.html`, which static hosts (GitHub Pages, Netlify) and `serve` return for a missing page at
    /// any depth: its links are made absolute with `base_url`, or by `serve` with a `<base>`.
    func notFoundPage(_ input: SiteInput) -> OutputFile {
        var file = page("notfound", path: SitePaths.notFound, title: "Page not found",
                        model: NotFoundModel(apps: input.apps.map { AppLink(name: $0.name, url: SitePaths.app($0.id)) }, hasApps: !input.apps.isEmpty),
                        siteTitle: input.title)
        var text = String(decoding: file.data, as: UTF8.self)
        // Styled wherever it answers and when opened from disk: the CSS inline, not fetched.
        if let css = templates.assets["style.css"] {
            text = text.replacingOccurrences(of: "<link rel=\"stylesheet\" href=\"style.css\">", with: "<style>\n" + String(decoding: css, as: UTF8.self) + "</style>")
        }
        let base = input.baseURL
        // An absolute URL or a path on the same host; `//host` (another host) is not a base.
        if base.hasPrefix("https://") || base.hasPrefix("http://") || (base.hasPrefix("/") && !base.hasPrefix("//")) {
            let tag = "<base href=\"\(HTMLText.escape(base.hasSuffix("/") ? base : base + "/"))\">"
            // Opened from disk the published site is elsewhere: the links then stay within the copy.
            let local = "<script>if (location.protocol === \"file:\") document.querySelector(\"base\")?.remove();</script>"
            text = text.replacingOccurrences(of: "<head>\n", with: "<head>\n\(tag)\n\(local)\n")
        }
        file = OutputFile(path: file.path, text: text)
        return file
    }

    struct RulesIndexModel: TemplateModel {
        var rules: [Row]

        struct Row: TemplateModel {
            var id: String
            var title: String
            var severity: String
            var url: String
            /// "Q1, Q3".
            var questions: String
        }
    }

    func rulesIndexPage(_ input: SiteInput) -> OutputFile {
        let rules = RuleCatalog.all.map { rule in
            let d = rule.description
            return RulesIndexModel.Row(id: d.id, title: d.title, severity: d.severity.rawValue, url: "\(d.id).html",
                                       questions: d.questions.map { "Q\($0.rawValue)" }.joined(separator: ", "))
        }
        return page("rules", path: SitePaths.rulesIndex, title: "Rules", model: RulesIndexModel(rules: rules), siteTitle: input.title)
    }

    /// A rule's page: what it finds and why, its examples, and its findings in every app.
    struct RuleModel: TemplateModel {
        var id: String
        var title: String
        var severity: String
        var questions: [Question]
        var hasQuestions: Bool
        var questionsLabel: String
        var rationale: String
        var triggering: [Example]
        var nonTriggering: [Example]
        /// The corrected example: the first that does not trigger the rule, as written beside the triggering one.
        var fix: [Example]
        var hasFix: Bool
        var references: [Reference]
        var findings: [PageContext.FindingRow]
        var hasFindings: Bool
        var history: HistorySection.Model?

        struct Question: TemplateModel {
            var number: Int
            var text: String
        }

        struct Example: TemplateModel {
            var html: String
        }

        struct Reference: TemplateModel {
            var title: String
            var url: String
        }
    }

    func rulePage(_ rule: RuleDescription, examples: RuleExamplePages.Shown, input: SiteInput) -> OutputFile {
        let path = SitePaths.rule(rule.id)
        let rationale = MarkdownRenderer.render(rule.rationale)
        let findings = input.apps.flatMap { app in
            app.findings.filter { $0.ruleID == rule.id }.map { finding in
                var row = PageContext.FindingRow(finding, from: path)
                row.app = app.name
                row.appURL = SitePaths.link(from: path, to: SitePaths.app(app.id))
                return row
            }
        }
        let model = RuleModel(
            id: rule.id, title: rule.title, severity: rule.severity.rawValue,
            questions: rule.questions.map { RuleModel.Question(number: $0.rawValue, text: MarkdownRenderer.inline($0.text)) },
            hasQuestions: !rule.questions.isEmpty,
            questionsLabel: rule.questions.count == 1 ? "Answers review question" : "Answers review questions",
            rationale: rationale.html,
            triggering: examples.triggering.map(RuleModel.Example.init), nonTriggering: examples.nonTriggering.map(RuleModel.Example.init),
            fix: examples.nonTriggering.prefix(1).map(RuleModel.Example.init), hasFix: !examples.nonTriggering.isEmpty,
            references: rule.references.map { RuleModel.Reference(title: $0.title, url: $0.url) },
            findings: findings, hasFindings: !findings.isEmpty,
            history: input.history.flatMap { HistorySection.model($0.rules[rule.id] ?? [], subject: rule.id, commits: false) })
        return page("rule", path: path, title: rule.title, model: model, siteTitle: input.title)
    }

    /// A content page (Markdown of the site's own).
    struct ContentModel: TemplateModel {
        var title: String
        /// HTML.
        var body: String
    }

    func contentPage(_ content: ContentPage, input: SiteInput, links: ContentLinkMap) -> OutputFile {
        let path = content.outputPath
        let directory = (content.path as NSString).deletingLastPathComponent
        let rendered = MarkdownRenderer.render(content.body) { url in
            ContentLinks.rewrite(url, fromDirectory: directory, page: path, pages: links.outputs)
        }
        return page("page", path: path, title: content.title, model: ContentModel(title: content.title, body: rendered.html),
                    siteTitle: input.title, toc: rendered.headings, fromApps: false)
    }
}

/// Source path → output path of every content page, built once per build (not once per page).
struct ContentLinkMap: Sendable {
    let outputs: [String: String]
    let digest: String

    init(_ pages: [ContentPage]) {
        outputs = Dictionary(pages.map { ($0.path, $0.outputPath) }, uniquingKeysWith: { first, _ in first })
        digest = StableDigest.hex(pages.map(\.path).joined(separator: "\n"))
    }
}

/// Links between content pages are written as `other.md`; on the site they point at `other.html`.
enum ContentLinks {
    static func rewrite(_ url: String, fromDirectory directory: String, page: String, pages: [String: String]) -> String? {
        guard !url.contains(":"), !url.hasPrefix("/"), !url.hasPrefix("#") else { return nil }
        let parts = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts[0].hasSuffix(".md") else { return nil }
        let joined = directory.isEmpty ? String(parts[0]) : directory + "/" + parts[0]
        guard let normalized = try? ContainedPath.resolve(joined, in: ""), let target = pages[String(normalized.drop { $0 == "/" })] else { return nil }
        let anchor = parts.count > 1 ? "#" + parts[1] : ""
        return SitePaths.link(from: page, to: target) + anchor
    }
}

/// A catalogue rule's examples as its page shows them. They are the rule's alone, yet building
/// and escaping them was most of the render of a small site; `serve` renders every rule page on
/// each rebuild, so each rule's are made once per process.
enum RuleExamplePages {
    struct Shown: Sendable {
        var triggering: [String]
        var nonTriggering: [String]
    }

    private static let made = Made()

    static func shown(for rule: any Rule.Type) -> Shown {
        let key = ObjectIdentifier(rule)
        if let shown = made[key] { return shown }
        // Examples are built on each ask (`RuleDescription`): once here.
        let description = rule.description
        let triggering = description.triggering
        let aboutCode = RuleDescription.isAboutCode(triggering)
        let shown = Shown(triggering: RuleExamplePresenter.html(triggering, aboutCode: aboutCode),
                          nonTriggering: RuleExamplePresenter.html(description.nonTriggering, aboutCode: aboutCode))
        made[key] = shown
        return shown
    }

    private final class Made: @unchecked Sendable {
        private let lock = NSLock()
        private var shown: [ObjectIdentifier: Shown] = [:]

        subscript(key: ObjectIdentifier) -> Shown? {
            get { lock.withLock { shown[key] } }
            set { lock.withLock { shown[key] = newValue } }
        }
    }
}

/// Rule examples shown on rule pages: each file of the example as a fenced code block.
/// A rule's examples on its page: only the files a reader needs (see `RuleExample.shownFiles`),
/// the finding's lines marked, and the facts the example states besides its files.
enum RuleExamplePresenter {
    static func html(_ examples: [RuleExample], aboutCode: Bool) -> [String] {
        examples.map { example in
            var html = ""
            for file in example.shownFiles(aboutCode: aboutCode) {
                let lines = (file.text.hasSuffix("\n") ? String(file.text.dropLast()) : file.text).split(separator: "\n", omittingEmptySubsequences: false)
                let marked = file.markedLines.sorted()
                let caption = marked.isEmpty ? "" : " — finding on line " + marked.map(String.init).joined(separator: ", ")
                html += "<figure><figcaption><code>\(HTMLText.escape(file.path))</code>\(caption)</figcaption><pre><code>"
                html += lines.enumerated().map { index, line in
                    let text = HTMLText.escape(String(line))
                    return file.markedLines.contains(index + 1) ? "<mark class=\"trigger\">\(text)</mark>" : text
                }.joined(separator: "\n")
                html += "</code></pre></figure>\n"
            }
            var facts: [String] = []
            if !example.read.isEmpty { facts.append("requests read: " + example.read.joined(separator: ", ")) }
            if !example.share.isEmpty { facts.append("requests share: " + example.share.joined(separator: ", ")) }
            if !example.buildSettings.isEmpty { facts.append("build settings: " + example.buildSettings.keys.sorted().map { "\($0) = \(example.buildSettings[$0]!)" }.joined(separator: ", ")) }
            if !facts.isEmpty { html += "<p>\(HTMLText.escape(facts.joined(separator: "; ")))</p>\n" }
            return html
        }
    }
}
