@testable import Checklist
import Foundation
import Manifest
@testable import Report
import XCTest
import TestSupport

/// The pull-request comment, read as GitHub renders it (`GFMComment`: cmark, tables split as GFM
/// splits them): a verdict line, one row of six answers per app, one list of findings.
final class OutputMarkdownTests: XCTestCase {
    /// 1,700 findings in each of the fixture's apps, with table-breaking text in every message.
    private func manyFindings() throws -> [AppAudit] {
        try OutputFixture.audits().enumerated().map { index, audit in
            var audit = audit
            audit.findings = (0..<1700).map { n in
                OutputFixture.finding(n % 3 == 0 ? "usage-string-missing" : "cached-authorization", severity: n % 3 == 0 ? .error : .warning,
                                      message: "finding \(n) of app \(index) | pipe <b>bold</b>\nnew line",
                                      file: "apps/\(audit.manifest.id)/Sources/File\(n).swift", line: n + 1, column: 5, quote: "let x = a | b")
            }
            return audit
        }
    }

    /// The finding lines of the comment: list items that start with a severity's emoji.
    static func findingLines(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { line in ["- 🔴 ", "- 🟡 ", "- 🔵 "].contains { line.hasPrefix($0) } }
    }

    func testFiveThousandFindingsStayUnderTheCommentLimitWithVerdictFirst() throws {
        let audits = try manyFindings()
        let text = MarkdownReport.render(audits, context: OutputFixture.context)
        XCTAssertLessThan(text.utf8.count, 65_000)
        XCTAssertTrue(text.hasPrefix("<!-- healthaudit:steady,trainer,veloride -->\n## HealthKit audit\n\n❌ **\(audits.count) of \(audits.count) apps fail**"),
                      String(text.prefix(200)))
        let answers = try XCTUnwrap(text.range(of: "| App |")), findings = try XCTUnwrap(text.range(of: "### Findings"))
        XCTAssertLessThan(answers.lowerBound, findings.lowerBound)
        let items = Self.findingLines(text)
        XCTAssertGreaterThan(items.count, 50)
        let total = audits.count * 1700
        let leftOut = try XCTUnwrap(text.firstMatch(of: /_(\d+) of (\d+) findings were left out/))
        XCTAssertEqual(Int(leftOut.2), total)
        XCTAssertEqual(Int(leftOut.1), total - items.count)
        // Errors come first: the cut drops warnings before any error.
        let ranks = items.map { $0.hasPrefix("- 🔴 ") ? 0 : 1 }
        XCTAssertEqual(ranks, ranks.sorted())
        XCTAssertEqual(ranks.first, 0)
    }

    /// One row per app: its name, its verdict and the marks of its six answers, in question order.
    func testEachAppIsOneRowOfItsSixAnswers() throws {
        let audits = try OutputFixture.audits()
        let rendered = GFMComment.render(MarkdownReport.render(audits, context: OutputFixture.context))
        let table = try XCTUnwrap(rendered.tables.first)
        XCTAssertEqual(table.count, audits.count + 1, "a header and one row per app")
        XCTAssertTrue(table.allSatisfy { $0.count == 8 }, "\(table)")
        for audit in audits {
            let row = try XCTUnwrap(table.first { $0[0].contains(audit.manifest.name) }, audit.manifest.id)
            XCTAssertEqual(Array(row[2...]), audit.answers.map { MarkdownReport.markBadge($0.mark) }, audit.manifest.id)
            XCTAssertEqual(row[1], MarkdownReport.verdictBadge(audit.verdict))
        }
        XCTAssertEqual(rendered.tables.count, 1, "findings are a list, not a second table")
    }

    /// Every active finding once: severity, location, message, on one line; nothing repeated in a details section.
    func testEachFindingIsListedOnce() throws {
        let audits = try OutputFixture.audits()
        let text = MarkdownReport.render(audits, context: OutputFixture.context)
        let active = audits.flatMap(\.activeFindings)
        XCTAssertEqual(Self.findingLines(text).count, active.count)
        XCTAssertFalse(text.contains("<details>"))
        // `@` gets a zero-width space in text (no mention), invisible to the reader.
        let rendered = GFMComment.render(text).text.replacingOccurrences(of: "\u{200B}", with: "")
        for finding in active {
            let location = "\(OutputFixture.context.repositoryPath(finding.location.file)):\(OutputContext.line(finding.location))"
            let seen = PlainText.message(finding.message).replacingOccurrences(of: "'", with: "")
            XCTAssertEqual(rendered.replacingOccurrences(of: "'", with: "").components(separatedBy: location + " " + seen).count - 1,
                           active.filter { $0.location == finding.location && $0.message == finding.message }.count, location)
        }
        XCTAssertFalse(text.contains("left out"))
    }

    /// Identifiers stay code and text reads as written: no backslash a reader would see, and none
    /// in the Markdown before characters that need no escape where they stand.
    func testMessagesRenderWithoutVisibleEscapes() throws {
        let message = "compare `HKError.Code` instead; \"not authorized\" (code 5) in user_defaults_key, 50% of $x - a #tag: it's fine."
        let audit = try OutputFixture.audit(findings: [OutputFixture.finding(message: message)])
        let text = MarkdownReport.render([audit], context: OutputFixture.context)
        let rendered = GFMComment.render(text)
        XCTAssertTrue(rendered.html.contains("<code>HKError.Code</code>"), rendered.html)
        XCTAssertTrue(rendered.text.contains("compare HKError.Code instead; \"not authorized\" (code 5) in user_defaults_key, 50% of $x - a #tag: it's fine."),
                      rendered.text)
        XCTAssertFalse(rendered.text.contains("\\"), rendered.text)
        let line = try XCTUnwrap(Self.findingLines(text).first)
        XCTAssertTrue(line.contains("`HKError.Code` instead; \"not authorized\" (code 5) in user_defaults_key, 50% of \\$x - a #tag: it's fine."), String(line))
    }

    /// `path:line` links to the line at the audited commit when a forge is known.
    func testLocationsLinkToTheirLineAtTheCommit() throws {
        let audit = try OutputFixture.audit(findings: [OutputFixture.finding(file: "apps/veloride/Velo Ride/Info.plist", line: 12)])
        var context = OutputFixture.context
        context.findingLinks = SourceLinks(template: "https://github.com/octo/app/blob/{commit}/{path}#L{line}",
                                           commit: String(repeating: "a", count: 40), sitePrefix: "Site")
        let html = GFMComment.render(MarkdownReport.render([audit], context: context)).html
        XCTAssertTrue(html.contains("<a href=\"https://github.com/octo/app/blob/\(String(repeating: "a", count: 40))/Site/apps/veloride/Velo%20Ride/Info.plist#L12\">"
                                    + "<code>Site/apps/veloride/Velo Ride/Info.plist:12</code></a>"), html)
        let unlinked = GFMComment.render(MarkdownReport.render([audit], context: OutputFixture.context)).html
        XCTAssertTrue(unlinked.contains("<code>Site/apps/veloride/Velo Ride/Info.plist:12</code>"), unlinked)
        XCTAssertFalse(unlinked.contains("<a href"), unlinked)
    }

    /// GitHub Actions names the repository and commit of the run: links are made from them when
    /// the config gives no `source_url`; anything malformed gives no link rather than a wrong one.
    func testGitHubActionsEnvironmentGivesTheLinks() throws {
        let sha = "0123456789abcdef0123456789abcdef01234567"
        let environment = ["GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "octo/app", "GITHUB_SHA": sha]
        let links = try XCTUnwrap(SourceLinks(gitHubEnvironment: environment, sitePrefix: "Site"))
        XCTAssertEqual(links.url(file: "apps/x/A.swift", line: 7), "https://github.com/octo/app/blob/\(sha)/Site/apps/x/A.swift#L7")
        for broken in [["GITHUB_SHA": ""], ["GITHUB_SHA": "HEAD"], ["GITHUB_REPOSITORY": "octo/app) [x](https://evil.example"],
                       ["GITHUB_SERVER_URL": "javascript:alert(1)//"], ["GITHUB_REPOSITORY": "octo"], ["GITHUB_SERVER_URL": "https://a b"]] {
            XCTAssertNil(SourceLinks(gitHubEnvironment: environment.merging(broken) { $1 }.filter { !$0.value.isEmpty }, sitePrefix: "Site"), "\(broken)")
        }
        XCTAssertNil(SourceLinks(gitHubEnvironment: ["GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "octo/app"], sitePrefix: ""))
    }

    /// Under `--since`, the verdict counts what the change brought in, and never says "passes"
    /// beside answers about the whole app.
    func testUnderAChangeTheVerdictCountsNewFindings() throws {
        var context = OutputFixture.context
        context.changeScope = ChangeScope(outsideByApp: ["veloride": 14])
        let warningOnly = try OutputFixture.audit(findings: [OutputFixture.finding(severity: .warning)])
        let quiet = MarkdownReport.render([warningOnly], context: context)
        let verdict = try XCTUnwrap(quiet.split(separator: "\n").first { $0.hasPrefix("✅") || $0.hasPrefix("❌") || $0.hasPrefix("⚠️") })
        XCTAssertTrue(verdict.hasPrefix("✅ **0 new errors**"), String(verdict))
        XCTAssertTrue(verdict.contains("1 warning") && verdict.contains("14 findings outside the changed lines are not shown"), String(verdict))
        XCTAssertFalse(quiet.contains("passes"), quiet)
        let failing = MarkdownReport.render([try OutputFixture.audit(findings: [OutputFixture.finding(severity: .error)])], context: context)
        XCTAssertTrue(failing.contains("\n❌ **1 new error**"), failing)
    }

    /// With `base_url`, the comment links the site and each app's page.
    func testTheSiteIsLinkedWhenPublished() throws {
        var context = OutputFixture.context
        context.siteURL = "https://octo.example/audit"
        let html = GFMComment.render(MarkdownReport.render(try OutputFixture.audits(), context: context)).html
        XCTAssertTrue(html.contains("<a href=\"https://octo.example/audit/\">"), html)
        XCTAssertTrue(html.contains("<a href=\"https://octo.example/audit/apps/veloride/\">VeloRide</a>"), html)
        XCTAssertFalse(GFMComment.render(MarkdownReport.render(try OutputFixture.audits(), context: OutputFixture.context)).html.contains("octo.example"))
    }

    func testTableCellsCannotBeBrokenByUntrustedText() throws {
        var audit = try OutputFixture.audit(findings: [OutputFixture.finding(message: "a | b \\| c\nd <details> `x|y`", quote: "a | b")])
        audit.manifest.config.name = "Velo | Ride \\| x\n| --- |"
        let text = MarkdownReport.render([audit], context: OutputFixture.context)
        let rendered = GFMComment.render(text)
        XCTAssertEqual(rendered.tables.count, 1)
        XCTAssertTrue(rendered.tables[0].allSatisfy { $0.count == 8 }, "\(rendered.tables)")
        XCTAssertTrue(rendered.tables[0][1][0].contains("Velo | Ride \\| x | --- |"), rendered.tables[0][1][0])
        XCTAssertFalse(rendered.html.contains("<details>"), "raw HTML from a finding is text")
        XCTAssertTrue(rendered.text.contains("a | b \\| c d <details> x|y"), rendered.text)
    }

    func testSuppressedFindingsOnlyWhenAsked() throws {
        let audit = try OutputFixture.audit(findings: [OutputFixture.finding(message: "hidden one", suppressed: .config)])
        XCTAssertFalse(MarkdownReport.render([audit], context: OutputFixture.context).contains("hidden one"))
        var context = OutputFixture.context
        context.showSuppressed = true
        XCTAssertTrue(GFMComment.render(MarkdownReport.render([audit], context: context)).text.contains("hidden one (suppressed, config: accepted for launch)"))
    }

    /// The first line names the audited apps, sorted, so a CI script finds the previous comment of
    /// the same check; it renders to nothing visible.
    func testTheCommentStartsWithAHiddenMarkerOfItsApps() throws {
        let audits = try OutputFixture.audits()
        let text = MarkdownReport.render(audits, context: OutputFixture.context)
        XCTAssertEqual(text.split(separator: "\n").first, "<!-- healthaudit:steady,trainer,veloride -->")
        XCTAssertEqual(MarkdownReport.render(audits.reversed(), context: OutputFixture.context).split(separator: "\n").first,
                       "<!-- healthaudit:steady,trainer,veloride -->", "the order of the config does not change it")
        XCTAssertEqual(MarkdownReport.render([try OutputFixture.audit("trainer")], context: OutputFixture.context).split(separator: "\n").first,
                       "<!-- healthaudit:trainer -->")
        XCTAssertTrue(MarkdownReport.render([], context: OutputFixture.context).hasPrefix("<!-- healthaudit -->\n"))
        // One HTML block of its own (GitHub hides it; the safe renderer here omits it), then the heading.
        XCTAssertTrue(CMarkDocument(markdown: text).html().hasPrefix("<!-- raw HTML omitted -->\n<h2>HealthKit audit</h2>"))
    }

    /// App ids are validated by the config loader, but the marker does not rely on it: nothing in
    /// an id can end the comment or add an app to the list.
    func testAHostileAppIDCannotCloseTheMarker() throws {
        for (id, expected) in [
            ("x --> <img src=x onerror=alert(1)> <!--", "<!-- healthaudit:x%20-%2D%3E%20%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E%20%3C%21-%2D -->"),
            ("a--!>b", "<!-- healthaudit:a-%2D%21%3Eb -->"),
            ("----", "<!-- healthaudit:-%2D-%2D -->"),
            ("evil,steady", "<!-- healthaudit:evil%2Csteady -->"),
            ("my-app", "<!-- healthaudit:my-app -->"),
        ] {
            let line = CommentMarker.line([id])
            XCTAssertEqual(line, expected)
            let inside = line.dropFirst("<!--".count).dropLast("-->".count)
            XCTAssertFalse(inside.contains("--"), line)
            XCTAssertFalse(inside.contains(">") || inside.contains("<") || inside.contains("!"), line)
        }
        var audit = try OutputFixture.audit("steady")
        audit.manifest.config.id = "x-->\n<img src=x onerror=alert(1)>"
        let lines = MarkdownReport.render([audit], context: OutputFixture.context).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines[0], "<!-- healthaudit:x-%2D%3E%0A%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E -->")
        XCTAssertEqual(lines[0].ranges(of: "-->").count, 1, "the comment ends where the marker does")
        XCTAssertEqual(lines[1], "## HealthKit audit")
        XCTAssertTrue(CMarkDocument(markdown: lines.joined(separator: "\n")).html().hasPrefix("<!-- raw HTML omitted -->\n<h2>"))
    }
}
