@testable import Checklist
import Foundation
import Manifest
import Report
import XCTest

final class OutputGitLabTests: XCTestCase {
    private func issues(_ audits: [AppAudit], context: OutputContext = OutputFixture.context) throws -> [[String: Any]] {
        let text = GitLabCodeQuality.render(audits, context: context)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], text)
    }

    func testEachActiveFindingIsOneIssueWithEveryField() throws {
        let audits = try OutputFixture.audits()
        let issues = try issues(audits)
        let active = audits.flatMap(\.activeFindings)
        XCTAssertEqual(issues.count, active.count, "suppressed findings are left out")
        for (issue, finding) in zip(issues, active) {
            XCTAssertEqual(Set(issue.keys), ["description", "check_name", "fingerprint", "severity", "location"])
            XCTAssertEqual(issue["description"] as? String, PlainText.message(finding.message))
            XCTAssertFalse((issue["description"] as? String ?? "").contains("`"), "code spans read as 'quoted' names")
            XCTAssertEqual(issue["check_name"] as? String, finding.ruleID)
            XCTAssertEqual((issue["fingerprint"] as? String)?.count, 64, "SHA-256 in hex")
            XCTAssertEqual((issue["fingerprint"] as? String)?.allSatisfy(\.isHexDigit), true)
            let location = try XCTUnwrap(issue["location"] as? [String: Any])
            XCTAssertEqual(Set(location.keys), ["path", "lines"])
            XCTAssertEqual(location["path"] as? String, "Site/" + finding.location.file)
            XCTAssertEqual((location["lines"] as? [String: Any])?["begin"] as? Int, finding.location.line ?? 1)
        }
        let missing = try XCTUnwrap(issues.first { $0["check_name"] as? String == "usage-string-missing" })
        XCTAssertEqual(missing["severity"] as? String, "critical")
        XCTAssertEqual((missing["location"] as? [String: Any])?["path"] as? String, "Site/apps/trainer/Trainer/Info.plist")
        XCTAssertEqual(((missing["location"] as? [String: Any])?["lines"] as? [String: Any])?["begin"] as? Int,
                       try OutputFixture.line(of: "<dict>", in: "apps/trainer/Trainer/Info.plist"))
    }

    func testSeveritiesMapToGitLabLevels() throws {
        let audit = try OutputFixture.audit(findings: [
            OutputFixture.finding(severity: .error, message: "e"), OutputFixture.finding(severity: .warning, message: "w"),
            OutputFixture.finding(severity: .note, message: "n"),
        ])
        XCTAssertEqual(try issues([audit]).map { $0["severity"] as? String }, ["critical", "major", "info"])
    }

    /// GitLab matches base and head reports by fingerprint: a finding moved by an edit above it keeps
    /// it, and two identical findings in one file get two (GitLab shows one issue per fingerprint).
    func testFingerprintsSurviveLineMovesAndStayUnique() throws {
        let twin = OutputFixture.finding("cached-authorization", file: "apps/veloride/VeloRide/Health.swift", line: 9, quote: "if cached { return }")
        var moved = twin
        moved.location.line = 40
        let before = try issues([try OutputFixture.audit(findings: [twin, OutputFixture.finding(message: "other")])])
        let after = try issues([try OutputFixture.audit(findings: [moved, OutputFixture.finding(message: "other")])])
        XCTAssertEqual(before.map { $0["fingerprint"] as? String }, after.map { $0["fingerprint"] as? String })
        let twins = try issues([try OutputFixture.audit(findings: [twin, moved])])
        XCTAssertEqual(Set(twins.compactMap { $0["fingerprint"] as? String }).count, 2)
        // Another app with the same finding is another issue.
        let elsewhere = try issues([try OutputFixture.audit("trainer", findings: [twin])])
        XCTAssertNotEqual(elsewhere.first?["fingerprint"] as? String, before.first?["fingerprint"] as? String)
    }

    func testOutputIsByteStableAndEmptyIsAnEmptyArray() throws {
        let audits = try OutputFixture.audits()
        XCTAssertEqual(GitLabCodeQuality.render(audits, context: OutputFixture.context), ReportFormat.gitlab.render(audits, context: OutputFixture.context))
        let text = GitLabCodeQuality.render(audits, context: OutputFixture.context)
        XCTAssertTrue(text.hasPrefix("[\n  {\n    \"description\": "), text)
        XCTAssertEqual(GitLabCodeQuality.render([try OutputFixture.audit("steady")], context: OutputFixture.context), "[]\n")
    }
}

/// Messages shown unrendered (terminal, annotations, JUnit, SARIF text, GitLab) quote code as
/// compilers do, and never drop app text that looks like markup.
final class PlainMessageTests: XCTestCase {
    func testCodeSpansBecomeQuotedNamesAndAppTextStays() {
        XCTAssertEqual(PlainText.message("`isAuthorized` is set from `success`"), "'isAuthorized' is set from 'success'")
        XCTAssertEqual(PlainText.message("the value ``a ` b`` is quoted"), "the value 'a ` b' is quoted")
        XCTAssertEqual(PlainText.message("<dict>, <script>x</script> and Health\\_App stay, `x` is quoted"), "<dict>, <script>x</script> and Health\\_App stay, 'x' is quoted")
        XCTAssertEqual(PlainText.message("an unmatched ` stays"), "an unmatched ` stays")
    }
}
