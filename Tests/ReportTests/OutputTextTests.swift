import Foundation
import Manifest
import Report
import XCTest

final class OutputTextTests: XCTestCase {
    func testCompilerStyleLinesAndSummary() throws {
        let audits = try OutputFixture.audits()
        let lines = TextReport.render(audits, context: OutputFixture.context).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, audits.flatMap(\.activeFindings).count + 1)
        let dict = try OutputFixture.line(of: "<dict>", in: "apps/trainer/Trainer/Info.plist")
        XCTAssertTrue(lines.contains { $0.hasPrefix("Site/apps/trainer/Trainer/Info.plist:\(dict): error: NSHealthUpdateUsageDescription is missing") && $0.hasSuffix(" [usage-string-missing]") })
        for line in lines.dropLast() {
            XCTAssertNotNil(line.firstMatch(of: /^Site\/[^:]+:\d+(:\d+)?: (error|warning|note): .+ \[[a-z0-9-]+\]$/), line)
        }
        XCTAssertGreaterThan(audits.count, 1)
        XCTAssertTrue(lines.last!.hasPrefix("\(audits.count) apps audited: "), lines.last!)
    }

    func testSuppressedOnlyWithShowSuppressedAndMessagesStayOnOneLine() throws {
        let audit = try OutputFixture.audit(findings: [
            OutputFixture.finding(message: "first\nsecond", line: 4, column: 2),
            OutputFixture.finding(message: "quiet", suppressed: .inline),
        ])
        var context = OutputFixture.context
        XCTAssertEqual(TextReport.render([audit], context: context).split(separator: "\n").first,
                       "Site/apps/veloride/VeloRide/Info.plist:4:2: warning: first second [usage-string-vague]")
        XCTAssertFalse(TextReport.render([audit], context: context).contains("quiet"))
        context.showSuppressed = true
        XCTAssertTrue(TextReport.render([audit], context: context).contains("warning: quiet [usage-string-vague] (suppressed, inline: accepted for launch)"))
    }

    func testPathsRelativeToTheSiteWhenRunInsideIt() throws {
        let finding = OutputFixture.finding(file: OutputFixture.site + "/healthaudit.yml", line: 3)
        XCTAssertTrue(TextReport.line(finding, context: OutputFixture.context).hasPrefix("Site/healthaudit.yml:3: "))
        let inside = OutputContext(sitePrefix: "", siteDirectory: OutputFixture.site)
        XCTAssertTrue(TextReport.line(finding, context: inside).hasPrefix("healthaudit.yml:3: "))
    }
}
