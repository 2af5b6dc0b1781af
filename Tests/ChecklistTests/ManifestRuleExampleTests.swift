import Checklist
import Manifest
import XCTest
import TestSupport

/// Manifest rules on small apps (their own examples run through `verifyRule`).
final class ManifestRuleExampleTests: XCTestCase {
    func testRuleIDsAreUniqueAndStable() {
        let ids = RuleCatalog.all.map { $0.description.id }
        XCTAssertEqual(ids.count, Set(ids).count)
        for id in ids { XCTAssertNotNil(id.range(of: "^[a-z][a-z0-9-]+$", options: .regularExpression), id) }
    }

    func testMissingKeyFindingPointsAtRootDict() throws {
        let example = RuleExample.healthApp(info: ["CFBundleName": "Steady", "NSHealthShareUsageDescription": RuleExample.goodShare])
        let audit = Checklist().audit(try example.load())
        let missing = try XCTUnwrap(audit.findings.first { $0.ruleID == "usage-string-missing" })
        XCTAssertEqual(missing.location.file, "apps/example/Info.plist")
        XCTAssertEqual(missing.location.line, 4)
        XCTAssertEqual(missing.quote, "missing: NSHealthUpdateUsageDescription", "the `<dict>` line is where, not what was seen")
        XCTAssertTrue(missing.message.contains("ITMS-90683"), missing.message)
        XCTAssertTrue(missing.message.contains("HKWorkoutTypeIdentifier"), missing.message)
    }

    /// A usage key in `Localizable.xcstrings` is cited at its key's line, also among many keys
    /// whose nested "value" lines come first; a catalog that does not parse changes nothing.
    func testUsageKeyInACatalogIsCitedAtItsLine() throws {
        let entries = (1...300).map { "    \"label \($0)\" : { \"localizations\" : { \"de\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"NSHealthShareUsageDescription\" } } } }," }
        let catalog = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n" + entries.joined(separator: "\n")
            + "\n    \"NSHealthShareUsageDescription\" : { }\n  },\n  \"version\" : \"1.0\"\n}\n"
        let audit = Checklist().audit(try RuleExample.healthApp(["Localizable.xcstrings": catalog, "Broken.xcstrings": "{ not json"]).load())
        let found = audit.findings.filter { $0.ruleID == "usage-key-in-localizable-strings" }
        XCTAssertEqual(found.map { "\($0.location.file):\($0.location.line ?? 0)" }, ["apps/example/Localizable.xcstrings:304"])
        XCTAssertEqual(found.first?.quote, "\"NSHealthShareUsageDescription\"")
    }

    func testConfigIgnoreSuppressesButKeepsFinding() throws {
        let directory = Repository.temporaryPath("ignore")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let example = RuleExample.healthApp(info: ["NSHealthShareUsageDescription": "We need access to your health data.",
                                                   "NSHealthUpdateUsageDescription": RuleExample.goodUpdate])
        try example.write(to: directory)
        let path = directory + "/healthaudit.yml"
        let yaml = try String(contentsOfFile: path, encoding: .utf8)
            + "    ignore:\n      - rule: usage-string-vague\n        reason: Copy approved by legal\n"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader().load(siteDirectory: directory)
        let audit = Checklist().audit(try ManifestLoader(siteDirectory: directory).load(config.apps[0]))
        let vague = try XCTUnwrap(audit.findings.first { $0.ruleID == "usage-string-vague" })
        XCTAssertEqual(vague.suppression?.reason, "Copy approved by legal")
        XCTAssertEqual(vague.suppression?.origin, .config)
        XCTAssertFalse(audit.activeFindings.contains { $0.ruleID == "usage-string-vague" })
    }

    func testAnswersSayCannotTellWithoutSources() throws {
        let audit = Checklist().audit(try RuleExample.healthApp().load())
        for answer in audit.answers where answer.question.needsSources {
            // Question 5 asks about extensions: an app without any has nothing left to tell.
            XCTAssertEqual(answer.status, answer.question == .widgetsDoNotRequest ? .notApplicable : .cannotTell, "question \(answer.question.rawValue)")
        }
        let usage = try XCTUnwrap(audit.answers.first { $0.question == .usageStringsMeaningful })
        XCTAssertEqual(usage.status, .yes)
        XCTAssertEqual(usage.evidence.count, 2)
    }
}
