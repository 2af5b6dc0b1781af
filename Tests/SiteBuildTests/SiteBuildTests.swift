import Foundation
import Manifest
import Report
@testable import SiteBuild
import TestSupport
import XCTest

/// Site-level behaviour on small sites written here (Hugo's style): every fact a test asserts is
/// in the test. The demo `Site/` keeps one end-to-end test.
final class SiteBuildTests: XCTestCase {
    var sites: [TestSite] = []

    override func tearDown() { sites.forEach { $0.remove() } }

    /// Pace is well configured; Trace lacks its update usage string.
    func twoApps(trace: KeyValuePairs<String, String>? = ["CFBundleName": "Trace", "NSHealthShareUsageDescription": InlineApp.share],
                 extra: [String: String] = [:]) throws -> TestSite {
        let site = try TestSite(files: InlineApp.site([("pace", "Pace", nil), ("trace", "Trace", trace)], extra: extra))
        sites.append(site)
        return site
    }

    func testBuildsIndexLinkingEveryAppAuditPage() throws {
        let site = try twoApps(extra: ["content/about.md": "# About\n\nWhy this audit exists.\n"])
        try site.build()
        let index = try site.read("index.html")
        for app in ["pace", "trace"] {
            XCTAssertTrue(index.contains("href=\"apps/\(app)/index.html\""), "index links \(app)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: site.output + "/apps/\(app)/index.html"))
        }
        XCTAssertFalse(try site.read("apps/pace/index.html").contains("usage-string-missing"))
        XCTAssertTrue(try site.read("apps/trace/index.html").contains("usage-string-missing"))
        XCTAssertTrue(try site.read("pages/about.html").contains("Why this audit exists."))
        // Without source_url, locations are text: no link leads nowhere.
        for page in ["index.html", "apps/pace/index.html", "apps/trace/index.html"] {
            XCTAssertFalse(try site.read(page).contains("href=\"\""), page)
        }
        XCTAssertFalse(try site.read("apps/trace/index.html").contains("<p class=\"message\"></p>"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.output + "/style.css"))
    }

    /// End to end on the demo site: every page, chart and asset link resolves from disk.
    func testEveryInternalLinkOfTheDemoSiteIsRelativeAndResolves() throws {
        let site = try TestSite.builtDemo()
        var checked = 0
        for (path, data) in try site.snapshot() where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            let hrefs = html.matches(of: /(?:href|src)="([^"]*)"/).map { String($0.1) }
            for href in hrefs where !href.hasPrefix("http") && !href.hasPrefix("#") {
                XCTAssertFalse(href.hasPrefix("/"), "\(path) has absolute link \(href)")
                let target = String(href.split(separator: "#").first ?? "")
                let resolved = ((site.output + "/" + path) as NSString).deletingLastPathComponent + "/" + target
                XCTAssertTrue(FileManager.default.fileExists(atPath: (resolved as NSString).standardizingPath), "\(path) → \(href) is broken")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100, "the demo site links its apps, days and pages")
    }

    /// `source_url`: each location links to its line at the checked-out commit (read from `.git`),
    /// the path relative to the repository and percent-encoded; a template without `{path}` is a
    /// config error at its line.
    func testLocationsLinkToTheForgeAtTheCommit() throws {
        var files = InlineApp.site([("trace", "Trace", ["CFBundleName": "Trace", "NSHealthShareUsageDescription": InlineApp.share])])
        let commit = String(repeating: "ab12", count: 10)
        files["healthaudit.yml"] = "source_url: https://github.com/example/trace/blob/{commit}/{path}#L{line}\n" + files["healthaudit.yml"]!
        files[".git/HEAD"] = "ref: refs/heads/main\n"
        files[".git/refs/heads/main"] = commit + "\n"
        let site = try TestSite(files: files)
        sites.append(site)
        try site.build()
        let page = try site.read("apps/trace/index.html")
        let links = page.matches(of: /<a class="loc" href="([^"]+)">/).map { String($0.1) }
        XCTAssertFalse(links.isEmpty, "findings and evidence link their lines")
        XCTAssertTrue(links.contains { $0.hasPrefix("https://github.com/example/trace/blob/\(commit)/apps/trace/") && $0.contains("Info.plist#L") }, "\(links)")

        XCTAssertEqual(SourceLinks(template: "https://x/{commit}/{path}#L{line}", commit: nil, sitePrefix: "Site").url(file: "apps/a b/Info#1.plist", line: 3),
                       "https://x/HEAD/Site/apps/a%20b/Info%231.plist#L3")
        XCTAssertNil(SourceLinks(template: "https://x/{path}", commit: nil, sitePrefix: "").url(file: "../../etc/passwd", line: 1))

        try site.write("healthaudit.yml", "source_url: https://github.com/example/trace/blob/main\n" + files["healthaudit.yml"]!.split(separator: "\n").dropFirst().joined(separator: "\n"))
        XCTAssertThrowsError(try site.build()) { error in
            XCTAssertTrue("\(error)".contains("healthaudit.yml:1:13: error: [load] 'source_url' must contain {path}"), "\(error)")
        }
    }

    /// What a reviewer sees first: the index names each failing app's worst problems; the app page
    /// opens with the crash and the errors, each linked to its place on the page; findings are one
    /// card per rule; no message shows a raw backtick.
    func testTheWorstProblemsComeFirstAndLinkToTheirPlace() throws {
        let site = try TestSite.builtDemo()
        let index = try site.read("index.html")
        let trainerRow = try XCTUnwrap(index.components(separatedBy: "<tr>").first { $0.contains("apps/trainer/index.html") })
        let crash = try XCTUnwrap(trainerRow.range(of: "Simulated crash in"))
        XCTAssertLessThan(crash.lowerBound, try XCTUnwrap(trainerRow.range(of: "badge error")).lowerBound, "the crash is the first problem")
        XCTAssertTrue(trainerRow.contains("href=\"apps/trainer/index.html#scenario-"), trainerRow)

        let page = try site.read("apps/trainer/index.html")
        let box = try XCTUnwrap(page.range(of: "<section class=\"summary-box\""))
        XCTAssertLessThan(box.lowerBound, try XCTUnwrap(page.range(of: "id=\"review-questions\"")).lowerBound)
        // Every in-page link of the box lands on an element of the page.
        let boxHTML = String(page[box.lowerBound...]).components(separatedBy: "</section>")[0]
        let anchors = boxHTML.matches(of: /href="#([^"]+)"/).map { String($0.1) }
        XCTAssertFalse(anchors.isEmpty)
        for anchor in anchors { XCTAssertTrue(page.contains("id=\"\(anchor)\""), "#\(anchor) is on the page") }
        XCTAssertTrue(anchors[0].hasPrefix("scenario-"), "the crash leads")
        // One card per rule, none repeated.
        let cards = page.matches(of: /<details class="rule-group [^"]*" id="rule-([a-z0-9-]+)"/).map { String($0.1) }
        XCTAssertFalse(cards.isEmpty)
        XCTAssertEqual(cards.count, Set(cards).count)
        for message in page.matches(of: /<p class="message">(.*?)<\/p>/).map({ String($0.1) }) {
            XCTAssertFalse(message.contains("`"), message)
        }
        XCTAssertTrue(page.contains("<code>"), "code spans render as code")
        // A quoted line sits between its neighbours.
        XCTAssertTrue(page.contains("<pre class=\"quote\"><code><span class=\"context\">"), "context lines before the quoted one")

        // The reference app asks for all it reads: a metric it never requested is no loss to it.
        for day in try FileManager.default.contentsOfDirectory(atPath: site.output + "/apps/steady/summary") where day.hasPrefix("2026-") {
            XCTAssertTrue(try site.read("apps/steady/summary/" + day).contains("The app sees everything the store holds for this day."), day)
        }
    }

    /// A rule page shows the file that triggers with the finding's line marked — not the example's
    /// Info.plist scaffolding — and links the documents the rule rests on.
    func testRulePagesShowTheTriggeringFileAndTheirSources() throws {
        let site = try TestSite.builtDemo()
        let page = try site.read("rules/read-status-probed.html")
        XCTAssertTrue(page.contains("<mark class=\"trigger\">        isAuthorized = hasWriteAccess</mark>"), page)
        XCTAssertFalse(page.contains("CFBundleName"), "the Info.plist every example carries is left out")
        XCTAssertTrue(page.contains("<a href=\"https://developer.apple.com/documentation/healthkit/hkhealthstore/authorizationstatus(for:)\" rel=\"noopener\">"), page)
        // A manifest rule's example is its plist.
        let manifest = try site.read("rules/usage-string-missing.html")
        XCTAssertTrue(manifest.contains("&lt;key&gt;NSHealthShareUsageDescription&lt;/key&gt;"), manifest)
        XCTAssertTrue(manifest.contains("#app-completeness"), manifest)
    }

    /// Markdown in messages, rationales and questions is rendered on every page: outside code
    /// blocks and code spans no backtick is left for a reader to see.
    func testNoRawBacktickOnAnyPage() throws {
        let site = try TestSite.builtDemo()
        let pages = try FileManager.default.subpathsOfDirectory(atPath: site.output).filter { $0.hasSuffix(".html") }
        XCTAssertGreaterThan(pages.count, 80)
        for page in pages {
            let html = try site.read(page)
                .replacing(/<pre[^>]*>.*?<\/pre>/.dotMatchesNewlines(), with: "")
                .replacing(/<code[^>]*>.*?<\/code>/.dotMatchesNewlines(), with: "")
                .replacing(/<script[^>]*>.*?<\/script>/.dotMatchesNewlines(), with: "")
            XCTAssertFalse(html.contains("`"), "\(page): \(html.components(separatedBy: "`").first?.suffix(120) ?? "")")
        }
    }

    /// `404.html` for static hosts: styled like every page, listing the apps; with `base_url` its
    /// relative links resolve from any depth.
    func testTheNotFoundPageListsTheAppsAndTakesTheBaseURL() throws {
        let page = try TestSite.builtDemo().read("404.html")
        XCTAssertTrue(page.contains("<h1>Page not found</h1>") && page.contains("<a href=\"apps/trainer/index.html\">"), page)
        XCTAssertTrue(page.contains("<head>\n<base href=\"https://example.org/healthaudit/\">"), page)
        let site = try TestSite()
        sites.append(site)
        let config = try String(contentsOfFile: site.site + "/healthaudit.yml", encoding: .utf8)
        try config.replacingOccurrences(of: "base_url: https://example.org/healthaudit/\n", with: "")
            .write(toFile: site.site + "/healthaudit.yml", atomically: true, encoding: .utf8)
        try site.build()
        XCTAssertFalse(try site.read("404.html").contains("<base "), "no base_url, no base")
    }

    /// Opened from disk (`file://`), `404.html` is styled and links within the site: its CSS is
    /// inline, and the `<base>` of `base_url` is dropped there (a static host still gets it).
    func testTheNotFoundPageWorksFromDisk() throws {
        let site = try TestSite.builtDemo()
        let page = try site.read("404.html")
        XCTAssertFalse(page.contains("<link rel=\"stylesheet\""), "no stylesheet to fetch from the published site")
        XCTAssertTrue(page.contains("<style>\n:root {"), "the site's CSS inline")
        XCTAssertTrue(page.contains("<script>if (location.protocol === \"file:\") document.querySelector(\"base\")?.remove();</script>"), page)
        XCTAssertLessThan(try XCTUnwrap(page.range(of: "<base "))?.lowerBound ?? page.startIndex, try XCTUnwrap(page.range(of: "location.protocol")).lowerBound)
    }

    /// The finishing touches of the pages: the index opens with a headline, its apps worst first,
    /// its title said once; notes render their code; pills never wrap; quoted code has line
    /// numbers; the rule link leads to a "How to fix" section holding the corrected example.
    func testThePagesAreFinished() throws {
        let site = try twoApps()
        try site.build()
        let index = try site.read("index.html")
        XCTAssertTrue(index.contains("<title>Inline</title>"), "the index's title is the site's, said once")
        XCTAssertTrue(index.contains("<p class=\"headline\"><strong>1 of 2 apps fails</strong>"), index)
        let trace = try XCTUnwrap(index.range(of: "href=\"apps/trace/index.html\"")), pace = try XCTUnwrap(index.range(of: "href=\"apps/pace/index.html\""))
        XCTAssertLessThan(trace.lowerBound, pace.lowerBound, "the failing app comes first")

        let page = try site.read("apps/trace/index.html")
        XCTAssertNotNil(page.firstMatch(of: /<pre class="quote"><code>(<span class="context"><span class="ln">\d+<\/span>.*\n)*<span class="quoted"><span class="ln">\d+<\/span>/),
                        "the quoted line and its context carry their numbers")
        let ruleLink = try XCTUnwrap(page.firstMatch(of: /<p class="rule-link"><a href="([^"]+)">/)).1
        XCTAssertTrue(ruleLink.hasSuffix(".html#how-to-fix"), String(ruleLink))
        let rule = try site.read("apps/trace/" + String(ruleLink.prefix { $0 != "#" }))
        let fix = try XCTUnwrap(rule.firstMatch(of: /<h2 id="how-to-fix">How to fix<\/h2>\n(.*?)<h2/.dotMatchesNewlines())).1
        XCTAssertTrue(fix.contains("<div class=\"example good\">") && fix.contains("<pre><code>"), String(fix))

        let css = try site.read("style.css")
        XCTAssertTrue(css.contains(".verdict, .answer, .badge { white-space: nowrap;"), "pills never wrap")
    }

    /// Each app page opens with what the manifest says the app is, from a source build and from
    /// its JSON result alike; build settings fill what the Info.plist leaves to them.
    func testTheAppPageOpensWithTheAppsIdentity() throws {
        let site = try twoApps(trace: ["CFBundleName": "Trace", "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleShortVersionString": "2.3",
                                       "CFBundleVersion": "45", "NSHealthShareUsageDescription": InlineApp.share])
        try site.edit("healthaudit.yml") {
            $0.replacingOccurrences(of: "    info_plist: Trace/Info.plist\n", with: "    info_plist: Trace/Info.plist\n    build_settings:\n      PRODUCT_BUNDLE_IDENTIFIER: org.example.trace\n      IPHONEOS_DEPLOYMENT_TARGET: \"16.4\"\n")
        }
        try site.build()
        let expected = "<dl class=\"identity\"><dt>Bundle id</dt><dd><code>org.example.trace</code></dd><dt>Version</dt><dd>2.3 (45)</dd>"
            + "<dt>Minimum iOS</dt><dd>16.4</dd><dt>Target</dt><dd>Trace</dd></dl>"
        let page = try site.read("apps/trace/index.html")
        XCTAssertTrue(page.contains(expected), page)
        XCTAssertLessThan(try XCTUnwrap(page.range(of: "<dl class=\"identity\">")).lowerBound, try XCTUnwrap(page.range(of: "id=\"review-questions\"")).lowerBound)

        let audits = try site.audit().audits
        let json = JSONReport.render(audits, context: OutputContext(sitePrefix: "", siteDirectory: site.site))
        let read = try ResultReader.read(Data(json.utf8))
        XCTAssertEqual(read.apps.first { $0.id == "trace" }?.declared.identity, audits.first { $0.manifest.id == "trace" }.map { Declarations(manifest: $0.manifest).identity })
    }

    /// What the scan could not establish is Markdown like every message: its code shows as code.
    func testNotesRenderTheirCode() throws {
        let site = try twoApps()
        try site.edit("healthaudit.yml") { $0.replacingOccurrences(of: "    info_plist: Trace/Info.plist\n", with: "") }
        try FileManager.default.removeItem(atPath: site.site + "/apps/trace/Trace/Info.plist")
        try site.build()
        let page = try site.read("apps/trace/index.html")
        let notes = try XCTUnwrap(page.firstMatch(of: /<h3>What the scan could not establish<\/h3><ul>(.*?)<\/ul>/.dotMatchesNewlines()), page).1
        XCTAssertTrue(notes.contains("<code>info_plist:</code>"), String(notes))
        XCTAssertFalse(notes.replacing(/<code>.*?<\/code>/, with: "").contains("`"), String(notes))
    }

    /// Every page's footer names the tool's version, the audited commit and the run's date.
    func testEveryFooterNamesVersionCommitAndDate() throws {
        var files = InlineApp.site([("trace", "Trace", ["CFBundleName": "Trace", "NSHealthShareUsageDescription": InlineApp.share])])
        let commit = String(repeating: "ab12", count: 10)
        files[".git/HEAD"] = "ref: refs/heads/main\n"
        files[".git/refs/heads/main"] = commit + "\n"
        let site = try TestSite(files: files)
        sites.append(site)
        try site.build()
        let pages = try FileManager.default.subpathsOfDirectory(atPath: site.output).filter { $0.hasSuffix(".html") }
        XCTAssertGreaterThan(pages.count, 10)
        for page in pages {
            let footer = try XCTUnwrap(try site.read(page).firstMatch(of: /<footer class="site">(.*?)<\/footer>/.dotMatchesNewlines()), page).1
            XCTAssertTrue(footer.contains("healthaudit \(ToolInfo.currentVersion)"), "\(page): \(footer)")
            XCTAssertTrue(footer.contains("commit <code>\(commit.prefix(12))</code>"), "\(page): \(footer)")
            XCTAssertTrue(footer.contains("2026-04-01"), "\(page): \(footer)")
        }
    }

    func testFailedBuildLeavesPreviousSiteUntouched() throws {
        let site = try twoApps()
        try site.build()
        let before = try site.snapshot()
        try site.edit("healthaudit.yml") { $0.replacingOccurrences(of: "title: Inline\n", with: "title: Inline\nbogus_key: 1\n") }
        try site.edit("apps/pace/Pace/Info.plist") { String($0.prefix(200)) }
        XCTAssertThrowsError(try site.build()) { error in
            let failure = error as! BuildFailed
            // A config problem does not hide the problems of the apps it lists well.
            let files = failure.diagnostics.map(\.problem.location.file)
            XCTAssertEqual(files.count, 2, "the config's problem and the plist's, in one run: \(failure)")
            XCTAssertTrue(files.contains("healthaudit.yml"), "\(files)")
            XCTAssertTrue(files.contains { $0.hasSuffix("Pace/Info.plist") }, "\(files)")
            XCTAssertTrue(failure.description.contains("healthaudit.yml:2"), failure.description)
            XCTAssertTrue(failure.description.contains("[load]"), failure.description)
        }
        XCTAssertEqual(try site.snapshot(), before)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: site.site)
        XCTAssertFalse(siblings.contains { $0.hasPrefix(".public-") }, "no staging folders left: \(siblings)")
    }

    func testAllManifestErrorsAreReportedTogether() throws {
        let site = try twoApps()
        try site.edit("apps/pace/Pace/Info.plist") { String($0.prefix(200)) }
        try site.edit("apps/trace/Trace/Info.plist") { $0.replacingOccurrences(of: "</dict>", with: "") }
        XCTAssertThrowsError(try site.build()) { error in
            let files = (error as! BuildFailed).diagnostics.map(\.problem.location.file)
            XCTAssertEqual(files, ["apps/pace/Pace/Info.plist", "apps/trace/Trace/Info.plist"])
        }
    }

    func testInterruptedBuildLeftoversAreCleanedAndLastSiteRestored() throws {
        let site = try twoApps()
        try site.build()
        let before = try site.snapshot()
        // A build killed between the two renames: staging half-written, old site moved aside.
        try FileManager.default.createDirectory(atPath: site.site + "/.public-tmp-dead", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: site.output, toPath: site.site + "/.public-old-dead")
        try SiteWriter(output: site.output).removeLeftovers()
        XCTAssertEqual(try site.snapshot(), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: site.site).filter { $0.hasPrefix(".public-") }, [])
    }

    func testOutputPathsCannotLeaveTheOutputFolder() {
        for path in ["../x.html", "/etc/passwd", "a/../../b", "", "a//b", "./a"] {
            XCTAssertThrowsError(try SiteWriter.validate(path), path)
        }
        XCTAssertNoThrow(try SiteWriter.validate("apps/x/index.html"))
    }

    /// The render order visits every page once, and threads side by side start far apart in the plan.
    func testSpreadOrderVisitsEveryPageOnceFromDistantStretches() {
        for count in 0...70 {
            for parts in 1...5 {
                let order = ParallelRender.SpreadOrder(count: count, parts: parts)
                XCTAssertEqual((0..<count).map(order.index).sorted(), Array(0..<count), "\(count) pages, \(parts) threads")
            }
        }
        let order = ParallelRender.SpreadOrder(count: 10, parts: 3)
        XCTAssertEqual((0..<10).map(order.index), [0, 4, 7, 1, 5, 8, 2, 6, 9, 3])
    }

    func testInjectedUsageStringIsShownAsLiteralText() throws {
        let payload = "<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(2)>"
        let escaped = payload.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        let site = try twoApps(trace: ["CFBundleName": "Trace", "NSHealthShareUsageDescription": escaped, "NSHealthUpdateUsageDescription": InlineApp.update])
        try site.build()
        let html = try site.read("apps/trace/index.html")
        XCTAssertFalse(html.contains("<script"), "no script element")
        XCTAssertFalse(html.contains("href=\"javascript:"), "no javascript link")
        XCTAssertFalse(html.contains("<img"), "no image element")
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the payload is shown as text")
        XCTAssertTrue(html.contains("[x](javascript:alert(1))"), "the Markdown link is shown as text")
    }

    func testContentLinksAreRewrittenToPages() throws {
        let site = try twoApps(extra: [
            "content/about.md": "# About\n",
            "content/methodology.md": "# Methodology\n\nSee [about](about.md) and [the rules](https://example.org/rules.md).\n",
        ])
        try site.build()
        let methodology = try site.read("pages/methodology.html")
        XCTAssertTrue(methodology.contains("href=\"about.html\""), "about.md became about.html: \(methodology)")
        XCTAssertTrue(methodology.contains("href=\"https://example.org/rules.md\""), "an outside link is kept as written")
    }
}
