@testable import Checklist
import Foundation
import Manifest
import Report
import XCTest

final class OutputBaselineTests: XCTestCase {
    func testRoundTripIsSortedAndVersioned() throws {
        let audits = try OutputFixture.audits()
        let baseline = Baseline(audits: audits, context: OutputFixture.context)
        XCTAssertEqual(baseline.entries.count, audits.flatMap(\.activeFindings).count)
        XCTAssertEqual(baseline.entries, baseline.entries.sorted())
        let text = baseline.serialized()
        XCTAssertTrue(text.hasPrefix("{\n  \"schemaVersion\": 1,\n  \"findings\": ["), text)
        XCTAssertEqual(try Baseline(json: Data(text.utf8)), baseline)
        XCTAssertTrue(baseline.entries.allSatisfy { !$0.path.hasPrefix("/") && !$0.path.hasPrefix("Site/") }, "paths relative to the site: \(baseline.entries.map(\.path))")
    }

    func testAcceptsKnownFindingsEvenWhenTheyMove() throws {
        let audits = try OutputFixture.audits()
        let baseline = Baseline(audits: audits, context: OutputFixture.context)
        let moved = audits.map { audit -> AppAudit in
            var audit = audit
            audit.findings = audit.findings.map { var f = $0; f.location.line = f.location.line.map { $0 + 7 }; return f }
            return audit
        }
        let comparison = baseline.compare(moved, context: OutputFixture.context)
        XCTAssertEqual(comparison.audits.flatMap(\.activeFindings).count, 0)
        XCTAssertEqual(comparison.absent, [])
        XCTAssertEqual(comparison.matched, baseline.entries.count)
        XCTAssertTrue(comparison.audits.allSatisfy { $0.verdict == .passes })
    }

    func testNewAndDisappearedFindings() throws {
        let known = OutputFixture.finding("cached-authorization", message: "known", quote: "if cached {")
        let gone = OutputFixture.finding("timing-band-aid", message: "gone", quote: "sleep(1)")
        let baseline = Baseline(audits: [try OutputFixture.audit(findings: [known, gone])], context: OutputFixture.context)
        let new = OutputFixture.finding("cached-authorization", message: "new", quote: "if cachedAgain {")
        let suppressed = OutputFixture.finding("usage-string-vague", suppressed: .config)
        let comparison = baseline.compare([try OutputFixture.audit(findings: [known, new, suppressed])], context: OutputFixture.context)
        XCTAssertEqual(comparison.audits[0].findings.map(\.message), ["new", "a message"])
        XCTAssertEqual(comparison.absent.map(\.message), ["gone"])
    }

    func testDuplicateFindingsNeedOneEntryEach() throws {
        let one = OutputFixture.finding(line: 3)
        var twin = one
        twin.location.line = 9
        let baseline = Baseline(audits: [try OutputFixture.audit(findings: [one])], context: OutputFixture.context)
        XCTAssertEqual(baseline.compare([try OutputFixture.audit(findings: [one, twin])], context: OutputFixture.context).audits[0].findings.count, 1)
    }

    func testEntriesOfAppsNotAuditedAreNotReportedAbsent() throws {
        let baseline = Baseline(audits: try OutputFixture.audits(), context: OutputFixture.context)
        let comparison = baseline.compare([try OutputFixture.audit("trainer")], context: OutputFixture.context)
        XCTAssertEqual(comparison.absent, [])
    }

    func testFindingsLocatedInTheConfigMatchFromAnyCheckout() throws {
        let here = OutputFixture.finding("usage-string-missing", file: OutputFixture.site + "/healthaudit.yml", line: 40, quote: "info_plist: (none)")
        var elsewhere = here
        elsewhere.location.file = "/builds/other/Site/healthaudit.yml"
        let baseline = Baseline(audits: [try OutputFixture.audit(findings: [here])], context: OutputFixture.context)
        XCTAssertEqual(baseline.entries.map(\.path), ["healthaudit.yml"])
        let other = OutputContext(sitePrefix: "Site", siteDirectory: "/builds/other/Site")
        XCTAssertEqual(baseline.compare([try OutputFixture.audit(findings: [elsewhere])], context: other).audits[0].findings, [])
        XCTAssertEqual(OutputFixture.context.fingerprint(here), other.fingerprint(elsewhere))
    }

    func testMalformedFilesAreRejected() {
        XCTAssertThrowsError(try Baseline(json: Data("[]".utf8)))
        XCTAssertThrowsError(try Baseline(json: Data(#"{"schemaVersion": 9, "findings": []}"#.utf8))) { error in
            XCTAssertTrue("\(error)".contains("schemaVersion 9"), "\(error)")
        }
        XCTAssertThrowsError(try Baseline(json: Data(#"{"schemaVersion": 1, "findings": [{"ruleId": "x"}]}"#.utf8)))
    }
}
