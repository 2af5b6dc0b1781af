import Foundation
import Manifest
import Report
import XCTest

final class OutputGitHubTests: XCTestCase {
    func testWorkflowCommandsPerSeverity() throws {
        let audits = try OutputFixture.audits()
        let lines = GitHubAnnotations.render(audits, context: OutputFixture.context).split(separator: "\n")
        XCTAssertEqual(lines.count, audits.flatMap(\.activeFindings).count)
        let dict = try OutputFixture.line(of: "<dict>", in: "apps/trainer/Trainer/Info.plist")
        XCTAssertTrue(lines.contains { $0.hasPrefix("::error file=Site/apps/trainer/Trainer/Info.plist,line=\(dict),title=") })
        XCTAssertFalse(lines.contains { $0.contains("VeloRide.entitlements") }, "the suppressed iCloud note is not annotated")
        let note = try OutputFixture.audit(findings: [OutputFixture.finding("icloud-beside-healthkit", severity: .note, message: "n",
                                                                            file: "apps/x/X.entitlements", line: 2, column: nil, quote: "q")])
        XCTAssertTrue(GitHubAnnotations.render([note], context: OutputFixture.context).hasPrefix("::notice file=Site/apps/x/X.entitlements,line=2"))
        XCTAssertTrue(lines.contains { $0.hasPrefix("::warning file=") && $0.contains(",col=") })
    }

    func testEscapingOfMessagesAndProperties() throws {
        XCTAssertEqual(GitHubAnnotations.escapeData("100% done\r\nnext: a, b"), "100%25 done%0D%0Anext: a, b")
        XCTAssertEqual(GitHubAnnotations.escapeProperty("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae")
        let audit = try OutputFixture.audit(findings: [
            OutputFixture.finding(message: "50% of ::error:: lines\nsecond", file: "apps/x/we,ird:name.plist", line: 3, column: 7, quote: "q"),
        ])
        let text = GitHubAnnotations.render([audit], context: OutputFixture.context)
        XCTAssertEqual(text, "::warning file=Site/apps/x/we%2Cird%3Aname.plist,line=3,col=7,"
                       + "title=HealthKit usage string is vague [usage-string-vague]::50%25 of ::error:: lines%0Asecond%0Aq\n")
        XCTAssertEqual(text.split(separator: "\n").count, 1, "one command per finding, whatever the message holds")
    }

    func testSuppressedFindingsAreNotAnnotated() throws {
        let audit = try OutputFixture.audit(findings: [OutputFixture.finding(suppressed: .config)])
        XCTAssertEqual(GitHubAnnotations.render([audit], context: OutputFixture.context), "")
    }
}
