import Checklist
import Manifest
import TestSupport
import XCTest

/// A Capacitor app audited from its `ios/App` project: the web code beside `capacitor.config.*`
/// is its HealthKit code (the plugin's native side is a dependency), built web assets are not.
final class CapacitorAppTests: XCTestCase {
    var site: TestSite!

    override func tearDown() { site?.remove() }

    static let pbxproj = """
    // !$*UTF8*$!
    { archiveVersion = 1; objectVersion = 56; objects = {
        P = {isa = PBXProject; mainGroup = G; targets = (App); buildConfigurationList = PL;};
        G = {isa = PBXGroup; children = (GA); sourceTree = "<group>";};
        GA = {isa = PBXGroup; children = (FA); path = App; sourceTree = "<group>";};
        FA = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppDelegate.swift; sourceTree = "<group>";};
        BA = {isa = PBXBuildFile; fileRef = FA;};
        SA = {isa = PBXSourcesBuildPhase; files = (BA);};
        App = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = AL; buildPhases = (SA); dependencies = ();};
        PL = {isa = XCConfigurationList; buildConfigurations = (PR); defaultConfigurationName = Release;};
        PR = {isa = XCBuildConfiguration; name = Release; buildSettings = {};};
        AL = {isa = XCConfigurationList; buildConfigurations = (AR); defaultConfigurationName = Release;};
        AR = {isa = XCBuildConfiguration;
            name = Release;
            buildSettings = {INFOPLIST_FILE = App/Info.plist; PRODUCT_NAME = "$(TARGET_NAME)";};
        };
    }; rootObject = P; }
    """

    func audit() throws -> AppAudit {
        let app = "apps/steps/"
        site = try TestSite(files: [
            "healthaudit.yml": "title: Capacitor\napps:\n  - id: steps\n    name: Steps\n    root: apps/steps/ios/App\n    project: App.xcodeproj\n",
            app + "package.json": #"{ "name": "steps", "dependencies": { "@capacitor/core": "^7.0.0", "@capgo/capacitor-health": "^7.2.0" } }"#,
            app + "capacitor.config.json": #"{ "appId": "app.steps", "appName": "Steps", "webDir": "public" }"#,
            app + "src/main.ts": """
                import { Health } from '@capgo/capacitor-health';

                export async function connect(show: (text: string) => void) {
                  const result = await Health.requestAuthorization({ read: ['steps'], write: ['weight'] });
                  show(`Allowed: ${result.readAuthorized.join(', ')}`);
                  const samples = await Health.readSamples({ dataType: 'steps', limit: 10 });
                  show(String(samples.samples.length));
                }

                """,
            // The built copy of the same code, and a dependency: neither is the app's source.
            app + "public/assets/index.js": "import { Health } from '@capgo/capacitor-health';\nHealth.requestAuthorization({ read: ['steps'] }).then(r => show(r));\n",
            app + "node_modules/@capgo/capacitor-health/dist/plugin.js": "export const Health = { requestAuthorization() {} };\n",
            app + "ios/App/App.xcodeproj/project.pbxproj": Self.pbxproj,
            app + "ios/App/App/Info.plist": InlineApp.infoPlist(["CFBundleName": "Steps", "NSHealthShareUsageDescription": InlineApp.share, "NSHealthUpdateUsageDescription": InlineApp.update]),
            app + "ios/App/App/AppDelegate.swift": "import UIKit\nimport Capacitor\n\n@UIApplicationMain\nclass AppDelegate: UIResponder, UIApplicationDelegate {}\n",
        ])
        let config = try ConfigLoader().load(siteDirectory: site.site)
        return Checklist().audit(try ManifestLoader(siteDirectory: site.site).load(config.apps[0]))
    }

    func testTheWebCodeIsTheAppsHealthKitCode() throws {
        let audit = try audit()
        XCTAssertEqual(audit.manifest.javaScriptSources.map(\.path), ["apps/steps/src/main.ts"], "built assets and node_modules are skipped")
        let answers = Dictionary(uniqueKeysWithValues: audit.answers.map { ($0.question, $0) })
        XCTAssertEqual(answers[.availabilityChecked]?.status, .no, answers[.availabilityChecked]?.reason ?? "")
        XCTAssertEqual(answers[.completionInterpreted]?.status, .no, answers[.completionInterpreted]?.reason ?? "")
        let misread = audit.findings.filter { $0.ruleID == "plugin-result-as-grant" }
        XCTAssertEqual(misread.map { "\($0.location.file):\($0.location.line ?? 0)" }, ["apps/steps/src/main.ts:5"])
    }

    /// A plugin developed beside the app (`"file:../health-plugin"`): its Swift is compiled into
    /// the app, so its own availability checks decide question 1 — read as dependency code, with
    /// its tests left out, and a `file:` path that leaves the repository read from nowhere.
    func testALocalPluginsSwiftIsTheAppsDependencyCode() throws {
        let app = "apps/steps/", plugin = "apps/health-plugin/"
        site = try TestSite(files: [
            "healthaudit.yml": "title: Capacitor\napps:\n  - id: steps\n    name: Steps\n    root: apps/steps/ios/App\n    project: App.xcodeproj\n",
            app + "package.json": #"{ "name": "steps", "dependencies": { "@capacitor/core": "^7.0.0", "health-plugin": "file:../health-plugin", "escape": "file:../../../.." } }"#,
            app + "capacitor.config.json": #"{ "appId": "app.steps", "appName": "Steps", "webDir": "public" }"#,
            app + "src/main.ts": """
                import { Health } from 'health-plugin';

                export async function steps() {
                  await Health.requestAuthorization({ read: ['steps'], write: [] });
                  return await Health.readSamples({ dataType: 'steps', limit: 10 });
                }

                """,
            app + "ios/App/App.xcodeproj/project.pbxproj": Self.pbxproj,
            app + "ios/App/App/Info.plist": InlineApp.infoPlist(["CFBundleName": "Steps", "NSHealthShareUsageDescription": InlineApp.share, "NSHealthUpdateUsageDescription": InlineApp.update]),
            app + "ios/App/App/AppDelegate.swift": "import UIKit\nimport Capacitor\n\n@UIApplicationMain\nclass AppDelegate: UIResponder, UIApplicationDelegate {}\n",
            plugin + "package.json": #"{ "name": "health-plugin", "capacitor": { "ios": { "src": "native/ios" } } }"#,
            plugin + "native/ios/Sources/HealthPlugin/Health.swift": """
                import HealthKit

                final class Health {
                    private let healthStore = HKHealthStore()

                    func requestAuthorization(read: Set<HKObjectType>) async throws {
                        guard HKHealthStore.isHealthDataAvailable() else { throw HealthError.unavailable }
                        try await healthStore.requestAuthorization(toShare: [], read: read)
                    }

                    func readSamples(type: HKSampleType) async throws -> [HKSample] {
                        guard HKHealthStore.isHealthDataAvailable() else { throw HealthError.unavailable }
                        let descriptor = HKSampleQueryDescriptor(predicates: [.sample(type: type)], sortDescriptors: [], limit: 50)
                        return try await descriptor.result(for: healthStore)
                    }
                }

                enum HealthError: Error { case unavailable }

                """,
            plugin + "native/ios/Tests/HealthPluginTests/HealthTests.swift": "import HealthKit\nlet store = HKHealthStore()\n",
        ])
        let config = try ConfigLoader().load(siteDirectory: site.site)
        let audit = Checklist().audit(try ManifestLoader(siteDirectory: site.site).load(config.apps[0]))
        let pluginFiles = audit.manifest.main.sources.filter(\.isDependency).map(\.path)
        XCTAssertEqual(pluginFiles, ["apps/health-plugin/native/ios/Sources/HealthPlugin/Health.swift"])
        XCTAssertTrue(audit.manifest.discovery.contains { $0.text == "1 Swift file of the local package health-plugin (apps/health-plugin/native/ios) read as the app's dependency code"
            && $0.location == FileLocation(file: "apps/steps/package.json", line: 1) }, audit.manifest.discovery.map(\.text).joined(separator: "\n"))
        XCTAssertEqual(audit.findings.filter { $0.ruleID == "availability-not-checked" }.map(\.message), [])
        let availability = try XCTUnwrap(audit.answers.first { $0.question == .availabilityChecked })
        XCTAssertNotEqual(availability.status, .no, availability.reason)
    }

    func testAProjectWithoutEntitlementsIsReportedAtTheTargetsBuildSettings() throws {
        let audit = try audit()
        let missing = audit.findings.filter { $0.ruleID == "entitlement-missing" }
        XCTAssertEqual(missing.map { "\($0.location.file):\($0.location.line ?? 0)" }, ["apps/steps/ios/App/App.xcodeproj/project.pbxproj:13"])
        XCTAssertEqual(missing.first?.severity, .error)
        XCTAssertTrue(missing.first?.message.contains("set no CODE_SIGN_ENTITLEMENTS") == true, missing.first?.message ?? "")
    }
}
