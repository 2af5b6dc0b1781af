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
        XCTAssertTrue(text.hasPrefix("## HealthKit audit\n\n**\(audits.count) of \(audits.count) apps fail"), String(text.prefix(200)))
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
