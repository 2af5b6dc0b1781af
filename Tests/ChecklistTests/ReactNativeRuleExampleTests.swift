import Checklist
import Foundation
import Manifest
import XCTest
import TestSupport

/// Runs every React Native rule's own triggering and non-triggering examples, like the manifest
/// and source rules' example tests, and checks the rules on the CoS example of Site/.
final class ReactNativeRuleExampleTests: XCTestCase {
    private var rules: [any Rule.Type] { RuleCatalog.reactNativeRules }

    func testTheRulesAreInTheCatalogue() {
        XCTAssertEqual(rules.map { $0.description.id }, ["rn-callback-error-as-denial", "rn-read-before-init", "rn-zero-for-missing", "write-error-unhandled",
                                                   "plugin-read-status", "plugin-result-as-grant", "read-access-inferred"])
        let all = RuleCatalog.all.map { $0.description.id }
        for rule in rules { XCTAssertTrue(all.contains(rule.description.id)) }
    }

    func testEveryRuleHasTwoExamplesOfEachKindWrittenAsReactNativeApps() {
        for rule in rules {
            let id = rule.description.id
            XCTAssertGreaterThanOrEqual(rule.description.triggering.count, 2, "\(id) needs at least two triggering examples")
            XCTAssertGreaterThanOrEqual(rule.description.nonTriggering.count, 2, "\(id) needs at least two non-triggering examples")
            for example in rule.description.triggering + rule.description.nonTriggering {
                XCTAssertTrue(example.isReactNative, "\(id): examples hold js/ files")
            }
        }
    }

    /// Beyond `verifyRule`: the examples load as React Native apps, and findings name the app's target.
    func testTriggeringExamplesAreReactNativeAppsFindingInTheirTarget() throws {
        for rule in rules {
            let id = rule.description.id
            for (index, example) in rule.description.triggering.enumerated() {
                let manifest = try example.load()
                XCTAssertEqual(manifest.config.kind, .reactNative)
                let findings = Checklist(rules: [rule.init()]).audit(manifest).findings.filter { $0.ruleID == id }
                XCTAssertFalse(findings.isEmpty, "\(id): triggering example \(index) found nothing")
                for finding in findings {
                    XCTAssertEqual(finding.severity, rule.description.severity)
                    XCTAssertEqual(finding.target, "example")
                }
            }
        }
    }

    /// Non-triggering examples show the right way, so no other React Native rule may object to them either.
    func testNonTriggeringExamplesAreCleanCode() throws {
        let all = rules.map { $0.init() }
        for rule in rules {
            for (index, example) in rule.description.nonTriggering.enumerated() {
                let audit = Checklist(rules: all).audit(try example.load())
                XCTAssertEqual(audit.findings.map { "\($0.ruleID) at \($0.location): \($0.message)" }, [],
                               "\(rule.description.id): non-triggering example \(index) is not clean")
            }
        }
    }

    func testTypesAskedForInJavaScriptReachTheChecklist() throws {
        let example = RuleExample.reactNative(["js/src/health.js": """
        import AppleHealthKit from 'react-native-health';

        const { Permissions } = AppleHealthKit.Constants;
        const base = [Permissions.StepCount /* , Permissions.Weight */];

        AppleHealthKit.initHealthKit({ permissions: { read: [...base, Permissions.HeartRate], write: [Permissions.Workout, 'Nope'] } }, () => {});
        """])
        let audit = Checklist().audit(try example.load())
        XCTAssertEqual(audit.requestedRead, ["heartRate", "stepCount"])
        XCTAssertEqual(audit.requestedShare, ["workout"])
        XCTAssertEqual(audit.notes, ["apps/example/src/health.js:6: `permissions.write` names `Nope`, which is not a react-native-health permission (the library silently drops it)"])
    }

    func testMissingUpdateStringIsFoundFromJavaScriptWrites() throws {
        let example = RuleExample.reactNative(["js/src/health.js": """
        import AppleHealthKit from 'react-native-health';
        AppleHealthKit.initHealthKit({ permissions: { read: [], write: [AppleHealthKit.Constants.Permissions.Weight] } }, () => {});
        """], read: [], share: [])
        var files = example.files
        files["Info.plist"] = RuleExample.plist(["NSHealthShareUsageDescription": RuleExample.goodShare])
        let audit = Checklist().audit(try RuleExample(files: files).load())
        let missing = try XCTUnwrap(audit.findings.first { $0.ruleID == "usage-string-missing" })
        XCTAssertTrue(missing.message.contains("HKQuantityTypeIdentifierBodyMass"), missing.message)
    }

    // MARK: The CoS example of Site/ (seed 001)

    func testCoSGetsTheManifestAndReactNativeFindings() throws {
        let site = Repository.root + "/Site"
        let config = try ConfigLoader().load(siteDirectory: site)
        let app = try XCTUnwrap(config.apps.first { $0.id == "cos" })
        let audit = Checklist().audit(try ManifestLoader(siteDirectory: site).load(app))
        let found = audit.findings.map { "\($0.ruleID) \($0.location)" }
        XCTAssertEqual(found, [
            "rn-callback-error-as-denial apps/cos/src/services/health.ts:59:9",
            "rn-callback-error-as-denial apps/cos/src/services/health.ts:62:7",
            "rn-callback-error-as-denial apps/cos/src/services/health.ts:128:5",
            // CoS only reads: the missing update string is the upload's risk, a warning.
            "usage-string-missing apps/cos/ios/CoS/Info.plist:4",
            "unresolved-build-variable apps/cos/ios/CoS/Info.plist:36",
            "usage-key-in-localizable-strings apps/cos/ios/CoS/en.lproj/Localizable.strings:12",
            "rn-zero-for-missing apps/cos/src/services/health.ts:18:3",
            "availability-not-checked apps/cos/src/services/health.ts:57:20",
            "rn-zero-for-missing apps/cos/src/services/health.ts:87:21",
            "rn-zero-for-missing apps/cos/src/services/health.ts:107:6",
            "rn-zero-for-missing apps/cos/src/services/health.ts:113:29",
            // react-native-health ships clinical-record queries; CoS never asks for records.
            "dependency-clinical-records apps/cos/package.json:18",
        ])
        let denied = try XCTUnwrap(audit.findings.first { $0.ruleID == "rn-callback-error-as-denial" })
        XCTAssertEqual(denied.quote, "reject(error); // user denied access")
        XCTAssertEqual(audit.requestedRead, ["activeEnergyBurned", "heartRate", "sleepAnalysis", "stepCount"])
        XCTAssertEqual(audit.requestedShare, [])
        let completion = try XCTUnwrap(audit.answers.first { $0.question == .completionInterpreted })
        XCTAssertEqual(completion.status, .no)
        XCTAssertEqual(completion.ruleIDs, ["rn-callback-error-as-denial"])
    }
}
