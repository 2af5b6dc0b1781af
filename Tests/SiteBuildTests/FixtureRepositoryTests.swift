import Foundation
import XCTest
import TestSupport

/// The first ten minutes on real repository shapes, with nothing but the binary: an `.xcodeproj`
/// app with a widget, an XcodeGen-only app, a Tuist app, an Expo app and a monorepo of two. In
/// each, `check` with no config gives the same answers and findings as a hand-written config, and
/// `init` followed by `build` publishes a site. The binary is a copy in a folder of its own, run
/// from yet another folder.
final class FixtureRepositoryTests: XCTestCase {
    var root: String!
    var binary: String { root + "/bin/healthaudit" }
    var elsewhere: String { root + "/elsewhere" }

    override func setUpWithError() throws {
        try HealthAuditBinary.requireBuilt()
        root = Repository.temporaryPath("healthaudit-fixtures")
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: HealthAuditBinary.path, toPath: binary)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    // MARK: The fixtures

    static func plist(_ keys: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(keys)</dict>\n</plist>\n"
    }
    static let healthEntitlement = plist("    <key>com.apple.developer.healthkit</key>\n    <true/>\n")

    /// Swift that asks to read heart rate and save workouts, and remembers the request as a grant.
    static let swiftHealth = """
    import HealthKit

    final class Health {
        let store = HKHealthStore()
        var isAuthorized = false

        func connect() {
            guard HKHealthStore.isHealthDataAvailable() else { return }
            store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.heartRate)]) { success, _ in
                self.isAuthorized = success
            }
        }
    }
    """

    /// An app target and a widget it embeds; the app's Info.plist lacks the update string.
    static let widgetApp: [String: String] = [
        "Pace.xcodeproj/project.pbxproj": """
        // !$*UTF8*$!
        { archiveVersion = 1; objectVersion = 56; objects = {
            P = {isa = PBXProject; mainGroup = G; targets = (App, Widget); buildConfigurationList = PL;};
            G = {isa = PBXGroup; children = (GA, GW); sourceTree = "<group>";};
            GA = {isa = PBXGroup; children = (FA); path = App; sourceTree = "<group>";};
            GW = {isa = PBXGroup; children = (FW); path = Widget; sourceTree = "<group>";};
            FA = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Health.swift; sourceTree = "<group>";};
            FW = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Provider.swift; sourceTree = "<group>";};
            BA = {isa = PBXBuildFile; fileRef = FA;};
            BW = {isa = PBXBuildFile; fileRef = FW;};
            SA = {isa = PBXSourcesBuildPhase; files = (BA);};
            SW = {isa = PBXSourcesBuildPhase; files = (BW);};
            DW = {isa = PBXTargetDependency; target = Widget;};
            App = {isa = PBXNativeTarget; name = Pace; productType = "com.apple.product-type.application"; buildConfigurationList = AL; buildPhases = (SA); dependencies = (DW);};
            Widget = {isa = PBXNativeTarget; name = PaceWidget; productType = "com.apple.product-type.app-extension"; buildConfigurationList = WL; buildPhases = (SW); dependencies = ();};
            PL = {isa = XCConfigurationList; buildConfigurations = (PR); defaultConfigurationName = Release;};
            PR = {isa = XCBuildConfiguration; name = Release; buildSettings = {};};
            AL = {isa = XCConfigurationList; buildConfigurations = (AR); defaultConfigurationName = Release;};
            AR = {isa = XCBuildConfiguration; name = Release; buildSettings = {INFOPLIST_FILE = App/Info.plist; CODE_SIGN_ENTITLEMENTS = App/Pace.entitlements; PRODUCT_NAME = "$(TARGET_NAME)";};};
            WL = {isa = XCConfigurationList; buildConfigurations = (WR); defaultConfigurationName = Release;};
            WR = {isa = XCBuildConfiguration; name = Release; buildSettings = {INFOPLIST_FILE = Widget/Info.plist; PRODUCT_NAME = "$(TARGET_NAME)";};};
        }; rootObject = P; }
        """,
        "App/Info.plist": plist("    <key>NSHealthShareUsageDescription</key>\n    <string>Pace reads your heart rate to pace your runs.</string>\n"),
        "App/Pace.entitlements": healthEntitlement,
        "App/Health.swift": swiftHealth,
        "Widget/Info.plist": plist("    <key>NSExtension</key>\n    <dict>\n        <key>NSExtensionPointIdentifier</key>\n        <string>com.apple.widgetkit-extension</string>\n    </dict>\n"),
        "Widget/Provider.swift": "import WidgetKit\n\nstruct Provider {}\n",
    ]

    static let xcodeGenApp: [String: String] = [
        "project.yml": """
        name: Rower
        targets:
          Rower:
            type: application
            platform: iOS
            sources: [Rower]
            entitlements:
              path: Rower/Rower.entitlements
              properties:
                com.apple.developer.healthkit: true
            info:
              path: Rower/Info.plist
              properties:
                NSHealthShareUsageDescription: Rower reads your heart rate during a session.
                NSHealthUpdateUsageDescription: Rower saves each session as a workout.
        """,
        "Rower/Health.swift": swiftHealth,
    ]

    static let tuistApp: [String: String] = [
        "Project.swift": """
        import ProjectDescription

        let project = Project(
            name: "Walk",
            targets: [
                .target(
                    name: "Walk",
                    destinations: .iOS,
                    product: .app,
                    bundleId: "org.example.walk",
                    infoPlist: .extendingDefault(with: [
                        "NSHealthShareUsageDescription": "Walk reads your heart rate on walks.",
                    ]),
                    sources: ["Walk/Sources/**"],
                    entitlements: .dictionary(["com.apple.developer.healthkit": true])
                ),
            ]
        )
        """,
        "Walk/Sources/Health.swift": swiftHealth,
    ]

    static let expoApp: [String: String] = [
        "package.json": #"{ "name": "steps", "dependencies": { "expo": "^52.0.0", "react-native": "0.76.0", "@kingstinct/react-native-healthkit": "^9.0.0" } }"#,
        "app.json": """
        { "expo": { "name": "Steps", "slug": "steps", "ios": { "bundleIdentifier": "org.example.steps" },
          "plugins": [["@kingstinct/react-native-healthkit", { "NSHealthShareUsageDescription": "Steps reads your step count to chart your day." }]] } }
        """,
        "src/health.ts": """
        import { requestAuthorization } from '@kingstinct/react-native-healthkit';

        export async function connect(showDenied: () => void) {
          if (!(await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] }))) {
            showDenied();
          }
        }
        """,
    ]

    /// Each fixture, and the config a person would write for it by hand (from a `tools/` folder).
    static let fixtures: [(name: String, files: [String: String], hand: String)] = [
        ("widget-app", widgetApp, "  - id: pace\n    name: Pace\n    root: ..\n    project: Pace.xcodeproj\n"),
        ("xcodegen-app", xcodeGenApp, "  - id: rower\n    name: Rower\n    root: ..\n"),
        ("tuist-app", tuistApp, "  - id: walk\n    name: Walk\n    root: ..\n    tuist: Project.swift\n"),
        ("expo-app", expoApp, "  - id: expo-app\n    name: expo-app\n    kind: react-native\n    root: ..\n"),
        ("monorepo", xcodeGenApp.prefixed("apps/rower/").merging(expoApp.prefixed("apps/steps/")) { $1 },
         "  - id: rower\n    name: Rower\n    root: ../apps/rower\n  - id: steps\n    name: steps\n    kind: react-native\n    root: ../apps/steps\n"),
    ]

    func makeRepository(_ name: String, _ files: [String: String]) throws -> String {
        let repository = root + "/repos/" + name
        for (path, text) in files {
            let full = repository + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: repository + "/.git", withIntermediateDirectories: true)
        return repository
    }

    // MARK: The tests

    func testCheckWithoutAConfigMatchesAHandWrittenOne() throws {
        for fixture in Self.fixtures {
            let repository = try makeRepository(fixture.name, fixture.files)
            let discovered = try check(["check", "--no-fail", "--format", "json", repository])
            try FileManager.default.createDirectory(atPath: repository + "/tools", withIntermediateDirectories: true)
            try "title: Hand\napps:\n\(fixture.hand)".write(toFile: repository + "/tools/healthaudit.yml", atomically: true, encoding: .utf8)
            let hand = try check(["check", "--no-fail", "--format", "json", "--config", repository + "/tools/healthaudit.yml"])
            XCTAssertFalse(discovered.isEmpty, fixture.name)
            XCTAssertEqual(discovered, hand, fixture.name)
            // Every app gets definite answers and at least the finding its code deserves.
            for (id, app) in discovered {
                XCTAssertTrue(app.findings.contains { $0.hasPrefix("request-result-as-grant") || $0.hasPrefix("success-read-as-granted") },
                              "\(fixture.name)/\(id): \(app.findings)")
            }
        }
    }

    func testInitThenBuildPublishesEveryApp() throws {
        for fixture in Self.fixtures {
            let repository = try makeRepository(fixture.name, fixture.files)
            let before = try FileManager.default.subpathsOfDirectory(atPath: repository).sorted()
            let initRun = try HealthAuditBinary.run(["init", repository], in: elsewhere, binary: binary)
            XCTAssertEqual(initRun.status, 0, "\(fixture.name): \(initRun.stderr)")
            XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: repository).sorted(), (before + ["healthaudit.yml"]).sorted(),
                           "\(fixture.name): init writes its config and nothing else")
            let config = try String(contentsOfFile: repository + "/healthaudit.yml", encoding: .utf8)
            XCTAssertTrue(config.contains("    permissions:\n"), "\(fixture.name): \(config)")
            let build = try HealthAuditBinary.run(["build", "--site", repository], in: elsewhere, binary: binary)
            XCTAssertEqual(build.status, 0, "\(fixture.name): \(build.stderr)")
            let ids = try check(["check", "--no-fail", "--format", "json", repository]).keys
            for id in ids {
                XCTAssertTrue(FileManager.default.fileExists(atPath: repository + "/public/apps/\(id)/index.html"), "\(fixture.name): \(id)")
            }
        }
        // The widget app's config names both targets, and grants what the code requests.
        let config = try String(contentsOfFile: root + "/repos/widget-app/healthaudit.yml", encoding: .utf8)
        XCTAssertTrue(config.contains("# Targets audited: Pace, PaceWidget\n"), config)
        XCTAssertTrue(config.contains("      heartRate: { read: granted }\n      workout: { share: granted }\n"), config)
    }

    struct AppResult: Equatable {
        var answers: [String]
        var findings: [String]
    }

    /// Per app id: its answers and findings, as `rule path:line message` lines.
    func check(_ arguments: [String]) throws -> [String: AppResult] {
        let run = try HealthAuditBinary.run(arguments, in: elsewhere, binary: binary)
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stderr)
        var apps: [String: AppResult] = [:]
        for app in report["apps"] as? [[String: Any]] ?? [] {
            let answers = (app["answers"] as? [[String: Any]] ?? []).map { "\($0["question"] ?? "") \($0["status"] ?? "")" }
            let findings = (app["findings"] as? [[String: Any]] ?? []).map { finding -> String in
                let location = finding["location"] as? [String: Any] ?? [:]
                return "\(finding["ruleId"] ?? "") \(location["path"] ?? ""):\(location["line"] ?? "") \(finding["message"] ?? "")"
            }
            apps[app["id"] as? String ?? ""] = AppResult(answers: answers, findings: findings.sorted())
        }
        return apps
    }
}

private extension Dictionary where Key == String, Value == String {
    func prefixed(_ folder: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: map { (folder + $0.key, $0.value) })
    }
}
