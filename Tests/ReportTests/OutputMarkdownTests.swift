@testable import Checklist
import Foundation
import Manifest
import Report
import XCTest

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

    func testFiveThousandFindingsStayUnderTheCommentLimitWithSummaryFirst() throws {
        let audits = try manyFindings()
        let text = MarkdownReport.render(audits, context: OutputFixture.context)
        XCTAssertLessThan(text.count, 65_000)
        XCTAssertLessThan(text.utf8.count, 65_000)
        XCTAssertTrue(text.hasPrefix("<!-- healthaudit:steady,trainer,veloride -->\n## HealthKit audit\n\n**\(audits.count) of \(audits.count) apps fail"),
                      String(text.prefix(200)))
        let summary = try XCTUnwrap(text.range(of: "| App | Verdict |")), table = try XCTUnwrap(text.range(of: "### Findings"))
        XCTAssertLessThan(summary.lowerBound, table.lowerBound)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| error |") || $0.hasPrefix("| warning |") }
        XCTAssertGreaterThan(rows.count, 50)
        let total = audits.count * 1700
        let leftOut = try XCTUnwrap(text.firstMatch(of: /_(\d+) of (\d+) findings were left out/))
        XCTAssertEqual(Int(leftOut.2), total)
        XCTAssertEqual(Int(leftOut.1), total - rows.count)
        XCTAssertEqual(text.components(separatedBy: "<details>").count, text.components(separatedBy: "</details>").count)
    }

    func testTableCellsCannotBeBrokenByUntrustedText() throws {
        let audit = try OutputFixture.audit(findings: [
            OutputFixture.finding(message: "a | b \\| c\nd <details> `x|y`", quote: "a | b"),
        ])
        let text = MarkdownReport.render([audit], context: OutputFixture.context)
        let row = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("| warning |") })
        XCTAssertEqual(Self.unescapedPipes(row), 6, String(row))
        XCTAssertFalse(text.contains("<details> `x"), "raw HTML from a finding is escaped")
        XCTAssertEqual(text.components(separatedBy: "<details>").count, 2)
    }

    func testSiteReportHasSummaryTableFindingsAndDetails() throws {
        let audits = try OutputFixture.audits()
        let text = MarkdownReport.render(audits, context: OutputFixture.context)
        XCTAssertTrue(text.contains("| Steady (`steady`) | ✅ passes | 0 | 0 | 0 | 0 |"), text)
        XCTAssertEqual(text.components(separatedBy: "<details>").count - 1, audits.count)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| error |") || $0.hasPrefix("| warning |") || $0.hasPrefix("| note |") }
        XCTAssertEqual(rows.count, audits.flatMap(\.activeFindings).count)
        XCTAssertFalse(text.contains("left out"))
        XCTAssertTrue(rows.allSatisfy { Self.unescapedPipes($0) == 6 })
    }

    func testSuppressedFindingsOnlyWhenAsked() throws {
        let audit = try OutputFixture.audit(findings: [OutputFixture.finding(message: "hidden one", suppressed: .config)])
        XCTAssertFalse(MarkdownReport.render([audit], context: OutputFixture.context).contains("hidden one"))
        var context = OutputFixture.context
        context.showSuppressed = true
        XCTAssertTrue(MarkdownReport.render([audit], context: context).contains("*suppressed (config): accepted for launch*"))
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

    /// `|` not preceded by a backslash: what GFM splits cells on.
    static func unescapedPipes(_ row: Substring) -> Int {
        var count = 0, escaped = false
        for character in row {
            if character == "|" && !escaped { count += 1 }
            escaped = character == "\\" && !escaped
        }
        return count
    }
}
