@testable import Checklist
import Foundation
import Manifest
import Report
import XCTest

final class OutputSARIFTests: XCTestCase {
    private func sarif(_ audits: [AppAudit]) throws -> (text: String, run: [String: Any]) {
        let text = SARIFReport.render(audits, context: OutputFixture.context)
        let runs = try XCTUnwrap(try OutputFixture.json(text)["runs"] as? [[String: Any]])
        XCTAssertEqual(runs.count, 1)
        return (text, runs[0])
    }

    func testSiteReportValidatesAgainstTheOfficialSchema() throws {
        let (text, _) = try sarif(try OutputFixture.audits())
        XCTAssertEqual(try OutputFixture.schemaErrors(text, schemaPath: OutputFixture.sarifSchemaPath), [])
    }

    func testSuppressedAndOddFindingsStillValidate() throws {
        let audit = try OutputFixture.audit(findings: [
            OutputFixture.finding(suppressed: .config),
            OutputFixture.finding("cached-authorization", file: "apps/veloride/VeloRide/My Folder/ü#1.swift", line: nil, quote: "",
                                  suppressed: .inline),
            OutputFixture.finding("not-in-catalogue", severity: .note, message: "line\nbreak \"quoted\" \u{1}"),
        ])
        let (text, run) = try sarif([audit])
        XCTAssertEqual(try OutputFixture.schemaErrors(text, schemaPath: OutputFixture.sarifSchemaPath), [])
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        let suppressions = results.map { ($0["suppressions"] as? [[String: Any]])?.first?["kind"] as? String }
        XCTAssertEqual(suppressions, ["external", "inSource", nil])
        XCTAssertEqual((results[0]["suppressions"] as? [[String: Any]])?.first?["justification"] as? String, "accepted for launch")
        let uri = try XCTUnwrap(try Self.physical(results[1])["artifactLocation"] as? [String: Any])["uri"] as? String
        XCTAssertEqual(uri, "Site/apps/veloride/VeloRide/My%20Folder/%C3%BC%231.swift")
        XCTAssertEqual((try Self.physical(results[1])["region"] as? [String: Any])?["startLine"] as? Int, 1, "no line → line 1")
        let rules = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])["rules"] as? [[String: Any]]
        XCTAssertEqual(rules?[results[2]["ruleIndex"] as! Int]["id"] as? String, "not-in-catalogue")
    }

    func testDriverDescribesEveryRuleOfTheCatalogue() throws {
        let (_, run) = try sarif(try OutputFixture.audits())
        let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        XCTAssertEqual(driver["name"] as? String, "healthaudit")
        XCTAssertEqual(driver["version"] as? String, ToolInfo.currentVersion)
        XCTAssertNotNil(driver["informationUri"] as? String)
        let rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.map { $0["id"] as? String }, RuleCatalog.all.map { $0.description.id })
        let missing = try XCTUnwrap(rules.first { $0["id"] as? String == "usage-string-missing" })
        XCTAssertEqual(missing["name"] as? String, "UsageStringMissing")
        XCTAssertEqual((missing["shortDescription"] as? [String: Any])?["text"] as? String, "HealthKit usage string missing")
        let full = try XCTUnwrap((missing["fullDescription"] as? [String: Any])?["text"] as? String)
        XCTAssertTrue(full.contains("App Store upload fails"), full)
        XCTAssertFalse(full.contains("**") || full.contains("`"), "rationale as plain text: \(full)")
        let help = try XCTUnwrap(missing["help"] as? [String: Any])
        XCTAssertTrue((help["markdown"] as? String)?.contains("**App Store upload fails**") == true)
        XCTAssertNotNil(help["text"] as? String)
        XCTAssertEqual(missing["helpUri"] as? String, ToolInfo.homepage + "/blob/main/docs/rules.md?rule=usage-string-missing#rules")
        XCTAssertEqual((missing["defaultConfiguration"] as? [String: Any])?["level"] as? String, "error")
        let properties = try XCTUnwrap(missing["properties"] as? [String: Any])
        XCTAssertEqual(properties["tags"] as? [String], ["healthkit", "privacy", "crash", "q4"])
        XCTAssertEqual(properties["security-severity"] as? String, "7.5", "a missing usage string crashes requestAuthorization")
    }

    /// Short tags code scanning filters on, and a `security-severity` (a number in a string, as
    /// GitHub reads it) on exactly the rules that foretell a crash or a disclosure.
    func testTagsAndSecuritySeverity() throws {
        let (text, run) = try sarif(try OutputFixture.audits())
        XCTAssertEqual(try OutputFixture.schemaErrors(text, schemaPath: OutputFixture.sarifSchemaPath), [])
        let rules = try XCTUnwrap(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        let properties = Dictionary(uniqueKeysWithValues: rules.map { ($0["id"] as! String, $0["properties"] as! [String: Any]) })
        let allowed: Set<String> = ["healthkit", "privacy", "crash", "q1", "q2", "q3", "q4", "q5", "q6"]
        for (id, values) in properties {
            let tags = try XCTUnwrap(values["tags"] as? [String], id)
            XCTAssertEqual(tags.first, "healthkit", id)
            XCTAssertTrue(Set(tags).isSubset(of: allowed) && Set(tags).count == tags.count, "\(id): \(tags)")
            let rule = try XCTUnwrap(RuleCatalog.rule(id: id)?.description, id)
            XCTAssertEqual(tags.filter { $0.hasPrefix("q") }, rule.questions.map { "q\($0.rawValue)" }, id)
            XCTAssertEqual(tags.contains("crash"), rule.predicts == .crash, id)
            XCTAssertEqual(values["security-severity"] as? String, rule.predicts.map { $0 == .crash ? "7.5" : "5.0" }, id)
        }
        XCTAssertEqual(properties["request-refused-type"]?["security-severity"] as? String, "7.5")
        XCTAssertEqual(properties["privacy-manifest-health-tracking"]?["security-severity"] as? String, "5.0")
        XCTAssertEqual(properties["privacy-manifest-health-tracking"]?["tags"] as? [String], ["healthkit", "privacy"])
        XCTAssertNil(properties["authorization-remembered"]?["security-severity"])
        XCTAssertEqual(properties["read-status-probed"]?["tags"] as? [String], ["healthkit", "q3"])
    }

    /// With the config's `base_url`, each rule links to its page on the published site; without
    /// one (or with a path, which is no URI), to its entry in docs/rules.md.
    func testHelpURIPointsAtTheRulePageWhenTheSiteIsPublished() throws {
        var context = OutputFixture.context
        context.baseURL = "https://example.org/audit"
        let text = SARIFReport.render(try OutputFixture.audits(), context: context)
        XCTAssertEqual(try OutputFixture.schemaErrors(text, schemaPath: OutputFixture.sarifSchemaPath), [])
        let runs = try XCTUnwrap(try OutputFixture.json(text)["runs"] as? [[String: Any]])
        let rules = try XCTUnwrap(((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.first { $0["id"] as? String == "cached-authorization" }?["helpUri"] as? String,
                       "https://example.org/audit/rules/cached-authorization.html")
        context.baseURL = "/audit/"
        let relative = try OutputFixture.json(SARIFReport.render(try OutputFixture.audits(), context: context))
        let fallback = (((relative["runs"] as? [[String: Any]])?[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]]
        XCTAssertEqual(fallback?.first { $0["id"] as? String == "cached-authorization" }?["helpUri"] as? String,
                       ToolInfo.homepage + "/blob/main/docs/rules.md?rule=cached-authorization#rules")
    }

    func testResultsPointIntoTheRepositoryWithStableFingerprints() throws {
        let audits = try OutputFixture.audits()
        let (_, run) = try sarif(audits)
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        let findings = audits.flatMap(\.findings)
        XCTAssertEqual(results.count, findings.count)
        let rules = try XCTUnwrap(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        for (result, finding) in zip(results, findings) {
            XCTAssertEqual(result["ruleId"] as? String, finding.ruleID)
            XCTAssertEqual(rules[result["ruleIndex"] as! Int]["id"] as? String, finding.ruleID)
            XCTAssertEqual(result["level"] as? String, finding.severity.rawValue)
            XCTAssertEqual((result["locations"] as? [Any])?.count, 1)
            let physical = try Self.physical(result)
            let artifact = try XCTUnwrap(physical["artifactLocation"] as? [String: Any])
            XCTAssertEqual(artifact["uri"] as? String, "Site/" + finding.location.file)
            XCTAssertEqual(artifact["uriBaseId"] as? String, "%SRCROOT%")
            XCTAssertTrue(FileManager.default.fileExists(atPath: OutputFixture.repository + "/" + (artifact["uri"] as! String)))
            let region = try XCTUnwrap(physical["region"] as? [String: Any])
            XCTAssertGreaterThanOrEqual(region["startLine"] as? Int ?? 0, 1)
            XCTAssertEqual(region["startColumn"] as? Int, finding.location.column)
            XCTAssertEqual((region["snippet"] as? [String: Any])?["text"] as? String, finding.quote)
            XCTAssertEqual((result["partialFingerprints"] as? [String: String])?["healthauditFingerprint/v1"], finding.fingerprint)
        }
    }

    func testFingerprintDoesNotDependOnTheLine() throws {
        let original = OutputFixture.finding(line: 12)
        var moved = original
        moved.location.line = 40
        moved.quote = "   " + original.quote + "  "
        let (_, first) = try sarif([try OutputFixture.audit(findings: [original])])
        let (_, second) = try sarif([try OutputFixture.audit(findings: [moved])])
        let fingerprint = { (run: [String: Any]) in ((run["results"] as? [[String: Any]])?[0]["partialFingerprints"] as? [String: String]) }
        XCTAssertEqual(fingerprint(first), fingerprint(second))
    }

    func testSameInputSameBytes() throws {
        let audits = try OutputFixture.audits()
        XCTAssertEqual(SARIFReport.render(audits, context: OutputFixture.context), SARIFReport.render(audits, context: OutputFixture.context))
    }

    private static func physical(_ result: [String: Any]) throws -> [String: Any] {
        let location = try XCTUnwrap((result["locations"] as? [[String: Any]])?.first)
        return try XCTUnwrap(location["physicalLocation"] as? [String: Any])
    }
}
