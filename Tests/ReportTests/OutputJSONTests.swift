@testable import Checklist
import Foundation
import Manifest
import Report
import XCTest

final class OutputJSONTests: XCTestCase {
    private var schemaPath: String!

    override func setUpWithError() throws { schemaPath = try OutputFixture.writeTemporary(ReportSchema.text) }
    override func tearDown() { try? FileManager.default.removeItem(atPath: schemaPath) }

    func testSiteReportValidatesAgainstTheShippedSchema() throws {
        let text = JSONReport.render(try OutputFixture.audits(), context: OutputFixture.context)
        XCTAssertEqual(try OutputFixture.schemaErrors(text, schemaPath: schemaPath), [])
    }

    func testSchemaRejectsRenamedFields() throws {
        let text = JSONReport.render(try OutputFixture.audits(), context: OutputFixture.context)
        let renamed = text.replacingOccurrences(of: "\"ruleId\":", with: "\"rule\":")
        XCTAssertFalse(try OutputFixture.schemaErrors(renamed, schemaPath: schemaPath).isEmpty)
        let versioned = text.replacingOccurrences(of: "\"schemaVersion\": 3", with: "\"schemaVersion\": 2")
        XCTAssertFalse(try OutputFixture.schemaErrors(versioned, schemaPath: schemaPath).isEmpty)
    }

    func testDocumentShape() throws {
        let audits = try OutputFixture.audits()
        let root = try OutputFixture.json(JSONReport.render(audits, context: OutputFixture.context))
        XCTAssertEqual(root["schemaVersion"] as? Int, 3)
        XCTAssertEqual((root["tool"] as? [String: Any])?["name"] as? String, "healthaudit")
        let apps = try XCTUnwrap(root["apps"] as? [[String: Any]])
        // The config's order, whatever the demo site lists.
        XCTAssertEqual(apps.map { $0["id"] as? String }, audits.map(\.manifest.id))
        XCTAssertEqual(apps.map { $0["verdict"] as? String }, audits.map(\.verdict.rawValue))
        XCTAssertTrue(apps.allSatisfy { ($0["answers"] as? [Any])?.count == 6 })
        let trainer = try XCTUnwrap(apps.first { $0["id"] as? String == "trainer" }?["findings"] as? [[String: Any]])
        let missing = try XCTUnwrap(trainer.first { $0["ruleId"] as? String == "usage-string-missing" })
        let location = try XCTUnwrap(missing["location"] as? [String: Any])
        XCTAssertEqual(location["path"] as? String, "Site/apps/trainer/Trainer/Info.plist")
        XCTAssertEqual(location["line"] as? Int, try OutputFixture.line(of: "<dict>", in: "apps/trainer/Trainer/Info.plist"), "a missing key is cited at the top-level dict")
        XCTAssertTrue(location["column"] is NSNull, "no column")
        XCTAssertTrue(missing["suppressed"] is NSNull)
        XCTAssertEqual(missing["fingerprint"] as? String, try OutputFixture.audit("trainer").findings.first { $0.ruleID == "usage-string-missing" }?.fingerprint)
        let summary = try XCTUnwrap(root["summary"] as? [String: Any])
        XCTAssertEqual((summary["findings"] as? [String: Any])?["errors"] as? Int, FindingCounts(audits).errors)
        XCTAssertEqual((summary["verdicts"] as? [String: Any])?["passes"] as? Int, audits.filter { $0.verdict == .passes }.count)
    }

    func testSuppressedFindingCarriesItsReasonAndValidates() throws {
        let audit = try OutputFixture.audit(findings: [OutputFixture.finding(message: "tab\there \u{7}", suppressed: .inline)])
        let text = JSONReport.render([audit], context: OutputFixture.context)
        XCTAssertEqual(try OutputFixture.schemaErrors(text, schemaPath: schemaPath), [])
        let finding = try XCTUnwrap(((try OutputFixture.json(text)["apps"] as? [[String: Any]])?[0]["findings"] as? [[String: Any]])?.first)
        let suppressed = try XCTUnwrap(finding["suppressed"] as? [String: Any])
        XCTAssertEqual(suppressed["origin"] as? String, "inline")
        XCTAssertEqual(suppressed["reason"] as? String, "accepted for launch")
        XCTAssertEqual(finding["message"] as? String, "tab\there \u{7}")
    }
}
