import Checklist
import Manifest
import TestSupport
import XCTest

/// A Cordova app (`kind: cordova`) has no committed iOS project: its usage strings and HealthKit
/// entitlement are what `config.xml`, `package.json` and the plugin make at `cordova prepare`, and
/// its HealthKit code is the web code calling `navigator.health`.
final class CordovaAppTests: XCTestCase {
    var site: TestSite!

    override func tearDown() { site?.remove() }

    static let configXML = """
    <?xml version='1.0' encoding='utf-8'?>
    <widget id="org.example.steps" version="1.0.0" xmlns="http://www.w3.org/ns/widgets" xmlns:cdv="http://cordova.apache.org/ns/1.0">
        <name>Steps</name>
        <platform name="ios">
            <edit-config file="*-Info.plist" mode="merge" target="NSHealthShareUsageDescription">
                <string>Steps reads your step count and heart rate to chart each day's activity.</string>
            </edit-config>
        </platform>
        <plugin name="cordova-plugin-health" spec="^3.0.0" />
    </widget>

    """

    static let healthJS = """
    export function connect(show) {
      navigator.health.requestAuthorization([{ read: ['steps'], write: ['steps'] }], function () {
        show('connected');
      }, function (error) { show(error); });
    }

    export function saveSteps(value) {
      navigator.health.store({ dataType: 'steps', value: value, startDate: new Date(), endDate: new Date() }, function () {}, function () {});
    }

    """

    func audit(packageJSON: String? = nil) throws -> AppAudit {
        var files = [
            "healthaudit.yml": "title: Cordova\napps:\n  - id: steps\n    kind: cordova\n    root: apps/steps\n",
            "apps/steps/config.xml": Self.configXML,
            "apps/steps/www/js/health.js": Self.healthJS,
            "apps/steps/platforms/ios/www/js/health.js": Self.healthJS,
            "apps/steps/plugins/cordova-plugin-health/www/health.js": "navigator.health.requestAuthorization([], function () {});\n",
        ]
        if let packageJSON { files["apps/steps/package.json"] = packageJSON }
        site = try TestSite(files: files)
        let config = try ConfigLoader().load(siteDirectory: site.site)
        return Checklist().audit(try ManifestLoader(siteDirectory: site.site).load(config.apps[0]))
    }

    /// `requestAuthorization`'s `{ read, write }` objects are the app's requested types, through the
    /// plugin's names (its `steps` is HealthKit's `stepCount`).
    func testTheRequestedTypesComeFromTheRequestThroughThePluginsNames() throws {
        let audit = try audit()
        XCTAssertEqual(audit.requestedRead, ["stepCount"])
        XCTAssertEqual(audit.requestedShare, ["stepCount"])
    }

    func testUsageStringsAndEntitlementComeFromConfigXMLAndThePlugin() throws {
        let audit = try audit()
        let info = try XCTUnwrap(audit.manifest.main.infoPlist)
        XCTAssertEqual(info.path, "apps/steps/config.xml")
        XCTAssertEqual(info.location(of: "NSHealthShareUsageDescription").line, 5, "cited at its <edit-config>")
        XCTAssertEqual(audit.manifest.main.entitlements?["com.apple.developer.healthkit"]?.bool, true)
        XCTAssertEqual(audit.manifest.main.entitlements?.location(of: "com.apple.developer.healthkit").line, 9, "added by the plugin")
        // The update string was never set: the plugin writes a blank one, which HealthKit rejects.
        let invalid = audit.findings.filter { $0.ruleID == "usage-string-invalid" }
        XCTAssertEqual(invalid.map { "\($0.location.file):\($0.location.line ?? 0)" }, ["apps/steps/config.xml:9"], "\(audit.findings.map(\.ruleID))")
        XCTAssertEqual(invalid.first?.severity, .error)
    }

    func testTheWebCodeIsTheAppsHealthKitCodeAndGetsDefiniteAnswers() throws {
        let audit = try audit()
        XCTAssertEqual(audit.manifest.javaScriptSources.map(\.path), ["apps/steps/www/js/health.js"], "platforms and plugins are copies")
        let answers = Dictionary(uniqueKeysWithValues: audit.answers.map { ($0.question, $0) })
        for question in ReviewQuestion.allCases where question != .widgetsDoNotRequest {
            XCTAssertNotEqual(answers[question]?.status, .notApplicable, "\(question): \(answers[question]?.reason ?? "")")
            XCTAssertNotEqual(answers[question]?.status, .cannotTell, "\(question): \(answers[question]?.reason ?? "")")
        }
        XCTAssertEqual(answers[.availabilityChecked]?.status, .no, "navigator.health.isAvailable is never asked")
    }

    func testAVariableInPackageJSONIsTheUpdateStringCitedThere() throws {
        let audit = try audit(packageJSON: """
        {
          "name": "steps",
          "cordova": {
            "plugins": {
              "cordova-plugin-health": {
                "HEALTH_WRITE_PERMISSION": "Steps saves the walks you record so they appear in Health."
              }
            }
          }
        }
        """)
        let info = try XCTUnwrap(audit.manifest.main.infoPlist)
        XCTAssertEqual(info["NSHealthUpdateUsageDescription"]?.string, "Steps saves the walks you record so they appear in Health.")
        XCTAssertEqual(info.location(of: "NSHealthUpdateUsageDescription").file, "apps/steps/package.json")
        XCTAssertEqual(info.location(of: "NSHealthUpdateUsageDescription").line, 6)
        XCTAssertEqual(audit.findings.filter { $0.ruleID.hasPrefix("usage-string") && $0.severity == .error }.map(\.message), [])
    }
}
