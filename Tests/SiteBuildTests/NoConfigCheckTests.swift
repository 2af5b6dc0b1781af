import Foundation
import Manifest
import XCTest
import TestSupport

/// `healthaudit check` in a repository with no config: the apps are found the way their
/// toolchains see them, and a config found above the folder is used as SwiftLint's would be.
final class NoConfigCheckTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws {
        root = Repository.temporaryPath("healthaudit-noconfig")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    func write(_ path: String, _ text: String) throws {
        let full = root + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// The least an Xcode project needs to be found as an app: a PBXProject and an application target.
    static func pbxproj(target: String) -> String {
        """
        // !$*UTF8*$!
        { archiveVersion = 1; objectVersion = 56; objects = {
            P = {isa = PBXProject; mainGroup = G; targets = (T); buildConfigurationList = PL;};
            G = {isa = PBXGroup; children = (); sourceTree = "<group>";};
            T = {isa = PBXNativeTarget; name = \(target); productType = "com.apple.product-type.application"; buildConfigurationList = TL; buildPhases = (); dependencies = ();};
            PL = {isa = XCConfigurationList; buildConfigurations = (PR); defaultConfigurationName = Release;};
            PR = {isa = XCBuildConfiguration; name = Release; buildSettings = {};};
            TL = {isa = XCConfigurationList; buildConfigurations = (TR); defaultConfigurationName = Release;};
            TR = {isa = XCBuildConfiguration; name = Release; buildSettings = {PRODUCT_NAME = "$(TARGET_NAME)";};};
        }; rootObject = P; }
        """
    }

    /// A monorepo: a native app, an Expo app, a Flutter app, a Capacitor app, and things that are not apps.
    func makeMonorepo() throws {
        try write("native/Stride.xcodeproj/project.pbxproj", Self.pbxproj(target: "Stride"))
        try write("native/Pods/Pods.xcodeproj/project.pbxproj", Self.pbxproj(target: "Pods"))
        try write("mobile/package.json", #"{ "dependencies": { "expo": "^52.0.0", "react-native": "0.76.0" } }"#)
        try write("mobile/app.json", #"{ "expo": { "name": "Mobile", "slug": "mobile" } }"#)
        try write("mobile/node_modules/lib/package.json", #"{ "dependencies": { "react-native": "*" } }"#)
        try write("library/package.json", #"{ "peerDependencies": { "react-native": "*" } }"#)
        try write("flutter_app/pubspec.yaml", "name: walker\ndependencies:\n  health: ^10.0.0\n")
        try write("flutter_app/ios/Runner.xcodeproj/project.pbxproj", Self.pbxproj(target: "Runner"))
        try write("web/package.json", #"{ "dependencies": { "@capacitor/core": "^7.0.0", "@capacitor/ios": "^7.0.0" } }"#)
        try write("web/ios/App/App.xcodeproj/project.pbxproj", Self.pbxproj(target: "App"))
        try write("study/src-cordova/config.xml", #"<widget id="org.example.study" xmlns="http://www.w3.org/ns/widgets"><name>Study</name></widget>"#)
        try write("study/src-cordova/platforms/ios/Study.xcodeproj/project.pbxproj", Self.pbxproj(target: "Study"))
        try write("generated/project.yml", "name: Rower\ntargets:\n  Rower:\n    type: application\n    platform: iOS\n    sources: [Rower]\n")
        try write("tooling/project.yml", "name: Tools\ntargets:\n  Lint:\n    type: tool\n")
        try write("tuist/Project.swift", "import ProjectDescription\nlet project = Project(name: \"Hiker\", targets: [.target(name: \"Hiker\", destinations: .iOS, product: .app, bundleId: \"h\")])\n")
        try write("helpers/Project.swift", "import ProjectDescription\nimport ProjectDescriptionHelpers\nlet project = Project.framework(name: \"Kit\")\n")
        // An example app inside a native app's folder is an app of its own; a React Native app's ios/ is not.
        try write("native/Examples/Demo/Demo.xcodeproj/project.pbxproj", Self.pbxproj(target: "Demo"))
        try write("mobile/ios/Mobile.xcodeproj/project.pbxproj", Self.pbxproj(target: "Mobile"))
    }

    func testEveryKindOfAppIsFoundAndNothingElse() throws {
        try makeMonorepo()
        let apps = AppDiscovery.find(in: root)
        XCTAssertEqual(apps.map { "\($0.kind) \($0.root) \($0.project ?? "-")" }, [
            "flutter flutter_app -",
            "swift generated -",
            "react-native mobile -",
            "swift . native/Stride.xcodeproj",
            "swift . native/Examples/Demo/Demo.xcodeproj",
            "cordova study/src-cordova -",
            "swift tuist -",
            "swift web/ios/App App.xcodeproj",
        ])
        XCTAssertEqual(Set(apps.map(\.id)).count, apps.count, "unique ids")
        XCTAssertEqual(apps.first { $0.root == "tuist" }?.name, "Hiker", "named after the manifest's application target")
        XCTAssertEqual(apps.first { $0.root == "generated" }?.name, "Rower")
    }

    /// Discovery asks the file system seam (so what it saw is recorded), and a project symlinked
    /// in from outside the searched folder is neither read nor taken for an app.
    func testDiscoveryReadsThroughTheSeamAndStaysInTheFolder() throws {
        try write("inside/native/Stride.xcodeproj/project.pbxproj", Self.pbxproj(target: "Stride"))
        try write("outside/Secret.xcodeproj/project.pbxproj", Self.pbxproj(target: "Secret"))
        try FileManager.default.createSymbolicLink(atPath: root + "/inside/native/Secret.xcodeproj", withDestinationPath: root + "/outside/Secret.xcodeproj")
        XCTAssertEqual(AppDiscovery.find(in: root + "/inside").map(\.name), ["Stride"])
        let recorder = RecordingFileSystem(LocalFileSystem(confinedTo: [root + "/inside"]))
        XCTAssertEqual(AppDiscovery.find(in: root + "/inside", fileSystem: recorder).map(\.name), ["Stride"])
        XCTAssertTrue(recorder.record.contains { $0.hasPrefix("entries \(root!)/inside/native ") }, "\(recorder.record)")
    }

    func testCheckWithoutAConfigAuditsTheDiscoveredApps() throws {
        try makeMonorepo()
        let run = try HealthAuditBinary.run(["check", "--no-fail", "--format", "json"], in: root)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("no healthaudit.yml found; auditing 8 discovered apps"), run.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((report["apps"] as? [[String: Any]])?.count, 8)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/healthaudit.yml"), "the discovered config is never written")

        // Bare `healthaudit` with no config audits the same apps, answers first, and builds nothing.
        let bare = try HealthAuditBinary.run([], in: root)
        XCTAssertTrue(bare.stderr.contains("no healthaudit.yml found; auditing 8 discovered apps"), bare.stderr)
        XCTAssertTrue(bare.stdout.contains(" Q1 ") && bare.stdout.contains("8 apps audited: "), bare.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/Site"))
    }

    func testTheNearestConfigAboveTheFolderIsUsed() throws {
        try write("native/Stride.xcodeproj/project.pbxproj", Self.pbxproj(target: "Stride"))
        try write(".healthaudit.yml", "title: Mine\napps:\n  - id: stride\n    root: native\n    project: Stride.xcodeproj\n")
        try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        let run = try HealthAuditBinary.run(["check", "--no-fail", "--format", "json", "native"], in: root)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("discovered"), run.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((report["apps"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, ["stride"])
    }

    /// `evidence` finds the config as `check` does, under either name, from a folder below it.
    func testEvidenceFindsTheNearestConfig() throws {
        try write("native/Stride.xcodeproj/project.pbxproj", Self.pbxproj(target: "Stride"))
        try write(".healthaudit.yml", "title: Mine\napps:\n  - id: stride\n    root: native\n    project: Stride.xcodeproj\n")
        try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        let run = try HealthAuditBinary.run(["evidence", "--app", "stride", "--output", "-"], in: root + "/native")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("<code>.healthaudit.yml</code>"), "the config it read is named and digested")
    }

    /// A white-label repository (OneBusAway's layout): one XcodeGen spec per app under `Apps/`, its
    /// paths from the repository root, the application type in a shared file it includes, and the
    /// app's code in a framework target of another spec (whose paths are its own folder's).
    func testWhiteLabelXcodeGenSpecsAreFoundWithTheirFrameworks() throws {
        try write("Apps/Shared/app_shared.yml", "targets:\n  App:\n    type: application\n    platform: iOS\n    dependencies:\n      - target: WalkKit\n")
        try write("Apps/Walk/project.yml", "targets:\n  App:\n    sources:\n      - path: Apps/Walk\ninclude:\n  - path: Apps/Shared/app_shared.yml\n  - path: WalkKit/project.yml\n")
        try write("Apps/Walk/AppDelegate.swift", "import UIKit\n")
        try write("WalkKit/project.yml", "targets:\n  WalkKit:\n    type: framework\n    sources:\n      - path: \".\"\n      - path: WalkKit.h\n")
        try write("WalkKit/WalkKit.h", "")
        try write("WalkKit/Health.swift", NoConfigCheckTests.healthSwift)
        let apps = AppDiscovery.find(in: root)
        XCTAssertEqual(apps.map { "\($0.id) \($0.root) \($0.xcodegen ?? "-")" }, ["walk . Apps/Walk/project.yml"])
        try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        let run = try HealthAuditBinary.run(["check", "--no-fail", "--format", "json"], in: root)
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let findings = ((report["apps"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]]) ?? []
        XCTAssertTrue(findings.contains { ($0["location"] as? [String: Any])?["path"] as? String == "WalkKit/Health.swift" },
                      "the framework's code is audited: \(findings)")
    }

    static let healthSwift = """
    import HealthKit

    final class Health {
        let store = HKHealthStore()
        var isAuthorized = false

        func connect() {
            store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)]) { success, _ in
                self.isAuthorized = success
            }
        }
    }
    """

    /// Bare `healthaudit` with no config anywhere is `check`; `build` says how to get a config.
    /// Neither leaves a folder behind.
    func testAFolderWithNoAppSaysSo() throws {
        try write("README.md", "# nothing here\n")
        let run = try HealthAuditBinary.run([], in: root)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("no healthaudit.yml here or above, and no iOS app found"), run.stderr)
        let build = try HealthAuditBinary.run(["build"], in: root)
        XCTAssertEqual(build.status, 2, build.stderr)
        XCTAssertEqual(build.stderr, "error: no healthaudit.yml here or above (up to the repository root), nor Site/healthaudit.yml: "
                       + "run `healthaudit init` to write one for the apps here, or `healthaudit check` to audit them without one\n")
        XCTAssertFalse(build.stderr.contains("previous site"), build.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root).sorted(), ["README.md"], "no Site/ folder made")
    }

    func testInitWritesAConfigThatBuildUsesAndNeverOverwritesIt() throws {
        try write("native/Stride.xcodeproj/project.pbxproj", Self.pbxproj(target: "Stride"))
        let first = try HealthAuditBinary.run(["init"], in: root)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.hasPrefix("wrote healthaudit.yml with 1 app: stride"), first.stdout)
        let config = try String(contentsOfFile: root + "/healthaudit.yml", encoding: .utf8)
        XCTAssertTrue(config.contains("root: \".\"\n    project: \"native/Stride.xcodeproj\""), config)
        let again = try HealthAuditBinary.run(["init"], in: root)
        XCTAssertEqual(again.status, 2)
        XCTAssertTrue(again.stderr.contains("refusing to overwrite an existing config"), again.stderr)
        XCTAssertEqual(try String(contentsOfFile: root + "/healthaudit.yml", encoding: .utf8), config)
        try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        let build = try HealthAuditBinary.run(["build"], in: root + "/native")
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/public/apps/stride/index.html"), "built next to the config found above")
    }
}
