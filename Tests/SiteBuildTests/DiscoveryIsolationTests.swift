import Checklist
import Foundation
@testable import Manifest
import Report
@testable import SiteBuild
import TestSupport
import XCTest

/// `check` with no config on repositories as real ones are: one app whose project cannot be read
/// is reported as such while the others are audited; project formats are read as their toolchains
/// read them; local code is the app's; and an app whose HealthKit use could not be read never passes.
final class DiscoveryIsolationTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws {
        root = Repository.temporaryPath("healthaudit-isolation")
        try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    func write(_ path: String, _ text: String) throws {
        let full = root + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// The audit `check` runs with no config, in-process: the discovered config laid over the folder.
    func auditDiscovered() throws -> BuildState {
        let apps = AppDiscovery.find(in: root)
        var options = BuildOptions(siteDirectory: root, log: SilentLog())
        options.fileSystem = OverlayFileSystem(LocalFileSystem(confinedTo: [root]),
                                               files: [root + "/" + ConfigLoader.fileName: Data(AppDiscovery.config(for: apps, title: "Repo").utf8)])
        options.discoveredApps = true
        return try Pipeline.audit.run(options)
    }

    /// `check` with no config, by the built binary: every format written (text on stdout), each app
    /// of the JSON report by id. No output of it cites `healthaudit.yml`, which does not exist; only
    /// the banner on stderr says none was found.
    func checkByBinary(file: StaticString = #filePath, line: UInt = #line) throws -> (apps: [String: [String: Any]], run: HealthAuditBinary.Run) {
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/" + ConfigLoader.fileName), file: file, line: line)
        let out = Repository.temporaryDirectory("healthaudit-isolation-out")
        defer { try? FileManager.default.removeItem(atPath: out) }
        var arguments = ["check"]
        for format in ReportFormat.allCases where format != .text { arguments += ["--format", format.rawValue, "--output", out + "/report." + format.rawValue] }
        let run = try HealthAuditBinary.run(arguments + ["--format", "text"], in: root)
        XCTAssertTrue(run.stderr.contains("no \(ConfigLoader.fileName) found; auditing"), run.stderr, file: file, line: line)
        var outputs = ["stdout": run.stdout, "stderr": run.stderr.replacingOccurrences(of: "no \(ConfigLoader.fileName) found", with: "")]
        for format in ReportFormat.allCases where format != .text {
            var text = try String(contentsOfFile: out + "/report." + format.rawValue, encoding: .utf8)
            if format == .sarif, var sarif = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] {
                // The rules' own documentation (`tool.driver.rules`) explains the config's keys; the results are the app's.
                sarif["runs"] = (sarif["runs"] as? [[String: Any]] ?? []).map { $0.filter { $0.key != "tool" } }
                text = String(decoding: try JSONSerialization.data(withJSONObject: sarif), as: UTF8.self)
            }
            outputs[format.rawValue] = text
        }
        for (name, text) in outputs.sorted(by: { $0.key < $1.key }) {
            XCTAssertFalse(text.contains(ConfigLoader.fileName), "\(name) cites a config that does not exist: \(text)", file: file, line: line)
        }
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outputs["json"]!.utf8)) as? [String: Any], file: file, line: line)
        let apps = try XCTUnwrap(report["apps"] as? [[String: Any]], file: file, line: line)
        return (Dictionary(uniqueKeysWithValues: apps.map { ($0["id"] as! String, $0) }), run)
    }

    /// An app of the JSON report: the status of question `number`, and its active findings' rules.
    static func status(_ app: [String: Any]?, _ number: Int) -> String? {
        (app?["answers"] as? [[String: Any]])?.first { $0["question"] as? Int == number }?["status"] as? String
    }

    static func rules(_ app: [String: Any]?) -> [String] {
        ((app?["findings"] as? [[String: Any]]) ?? []).filter { $0["suppressed"] is NSNull || $0["suppressed"] == nil }.compactMap { $0["ruleId"] as? String }
    }

    // MARK: Fixtures

    typealias Target = XcodeProjectFixture.Target

    static func pbxproj(_ targets: [Target], folders: [String] = []) -> String { XcodeProjectFixture.pbxproj(targets, folders: folders) }

    static let entitlements = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    \t<key>com.apple.developer.healthkit</key>
    \t<true/>
    </dict>
    </plist>
    """

    /// Writes body mass and checks availability first, but never re-checks the status before the write.
    static let healthWriter = """
    import HealthKit

    public final class BodyLog {
        let store = HKHealthStore()

        public func save(kilograms: Double) {
            guard HKHealthStore.isHealthDataAvailable() else { return }
            let type = HKQuantityType(.bodyMass)
            store.requestAuthorization(toShare: [type], read: []) { _, _ in
                let sample = HKQuantitySample(type: type, quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: kilograms), start: Date(), end: Date())
                self.store.save(sample) { _, _ in }
            }
        }
    }
    """

    static let healthSettings = [
        "GENERATE_INFOPLIST_FILE": "YES",
        "INFOPLIST_KEY_NSHealthShareUsageDescription": "Scales reads your weight history to chart your progress.",
        "INFOPLIST_KEY_NSHealthUpdateUsageDescription": "Scales saves each weigh-in to Health so your other apps see it.",
    ]

    /// Three Flutter examples and a native app. Two examples' project folders have no project.pbxproj:
    /// the one that depends on the `health` plugin is an app that could not be loaded; the other
    /// (a plugin with nothing of HealthKit) is skipped with why.
    func makeMonorepoWithABrokenApp() throws {
        for name in ["steps", "broken", "foreground"] {
            let health = name == "broken" ? "  health: ^10.2.0\n" : ""
            try write("packages/\(name)/example/pubspec.yaml", "name: \(name)_example\ndependencies:\n  flutter:\n    sdk: flutter\n" + health)
            try write("packages/\(name)/example/lib/main.dart", "void main() {}\n")
        }
        try write("packages/foreground/example/ios/Runner.xcodeproj/project.xcworkspace/contents.xcworkspacedata",
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace version = \"1.0\"></Workspace>\n")
        try write("packages/foreground/example/ios/Runner/Info.plist", "<plist version=\"1.0\"><dict><key>CFBundleName</key><string>foreground</string></dict></plist>\n")
        try write("packages/foreground/example/ios/Runner/AppDelegate.swift", "import UIKit\nimport Flutter\n")
        try write("packages/steps/example/ios/Runner.xcodeproj/project.pbxproj", Self.pbxproj([Target(name: "Runner", sources: ["Runner/AppDelegate.swift"])]))
        try write("packages/steps/example/ios/Runner/AppDelegate.swift", "import UIKit\n")
        // Only the workspace is committed: Xcode cannot open this project, nor can the audit.
        try write("packages/broken/example/ios/Runner.xcodeproj/project.xcworkspace/contents.xcworkspacedata",
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace version = \"1.0\"></Workspace>\n")
        try write("Scales/Scales.xcodeproj/project.pbxproj",
                  Self.pbxproj([Target(name: "Scales", sources: ["BodyLog.swift"], settings: Self.healthSettings.merging(["CODE_SIGN_ENTITLEMENTS": "Scales.entitlements"]) { $1 })]))
        try write("Scales/BodyLog.swift", Self.healthWriter)
        try write("Scales/Scales.entitlements", Self.entitlements)
    }

    // MARK: 1–2. One app's failure is that app's, cited at its own files

    func testAnAppThatCannotBeLoadedIsReportedWhileTheOthersAreAudited() throws {
        try makeMonorepoWithABrokenApp()
        let state = try auditDiscovered()
        XCTAssertEqual(state.audits.map(\.manifest.id).sorted(), ["broken-example", "scales", "steps-example"], "Flutter apps named by their pubspec")
        let broken = try XCTUnwrap(state.audits.first { !$0.manifest.loadProblems.isEmpty })
        XCTAssertEqual(broken.manifest.config.rootInSite, "packages/broken/example")
        XCTAssertEqual(broken.manifest.loadProblems.map(\.location.file), ["packages/broken/example/ios/Runner.xcodeproj"])
        XCTAssertTrue(broken.manifest.loadProblems[0].message.contains("holds no project.pbxproj"), broken.manifest.loadProblems[0].message)
        XCTAssertEqual(broken.answers.map(\.status), Array(repeating: .cannotTell, count: 6))
        XCTAssertTrue(broken.answers.allSatisfy { $0.reason.contains("could not be loaded") && $0.reason.contains("(packages/broken/example/ios/Runner.xcodeproj)") },
                      "each answer names the folder it rests on: \(broken.answers[0].reason)")
        XCTAssertEqual(broken.verdict, .incomplete)
        XCTAssertEqual(broken.activeFindings.map(\.ruleID), ["app-not-loaded"])
        let others = state.audits.filter { $0.manifest.loadProblems.isEmpty }
        XCTAssertEqual(others.count, 2)
        let scales = try XCTUnwrap(others.first { $0.manifest.id == "scales" })
        XCTAssertTrue(scales.findings.contains { $0.location.file == "Scales/BodyLog.swift" }, "the healthy apps are audited: \(scales.findings.map(\.ruleID))")

        // Every format shows the app that could not be loaded, and no message cites a config that does not exist.
        let context = OutputContext(sitePrefix: "", siteDirectory: root, showSuppressed: false, failOn: .error, verbose: false)
        for format in ReportFormat.allCases {
            let rendered = format.render(state.audits, context: context)
            XCTAssertTrue(rendered.contains("app-not-loaded"), "\(format) names the rule")
            XCTAssertTrue(rendered.contains("packages/broken/example/ios/Runner.xcodeproj"), "\(format) cites the project folder")
            XCTAssertFalse(rendered.contains(ConfigLoader.fileName + ":") || rendered.contains("\"" + ConfigLoader.fileName + "\""), "\(format) cites no in-memory config")
        }
        XCTAssertTrue(ReportFormat.markdown.render(state.audits, context: context).contains("incomplete"))

        // The site built from the JSON result shows it too.
        let results = root + "/results"
        try FileManager.default.createDirectory(atPath: results, withIntermediateDirectories: true)
        try ReportFormat.json.render(state.audits, context: context).write(toFile: results + "/run.json", atomically: true, encoding: .utf8)
        var site = BuildOptions(siteDirectory: results, outputDirectory: root + "/public", log: SilentLog())
        site.resultsDirectory = results
        try Pipeline.results.run(site)
        let page = try String(contentsOfFile: root + "/public/apps/\(broken.manifest.id)/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("incomplete") && page.contains("could not be loaded"), "the app's page says why")
    }

    /// The binary itself: every report written, then exit status 2 and the reason on stderr.
    func testCheckWritesEveryReportThenExitsTwo() throws {
        try makeMonorepoWithABrokenApp()
        let (apps, run) = try checkByBinary()
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(apps.keys.sorted(), ["broken-example", "scales", "steps-example"])
        XCTAssertEqual(apps["broken-example"]?["verdict"] as? String, "incomplete")
        XCTAssertEqual(Self.rules(apps["broken-example"]), ["app-not-loaded"])
        XCTAssertEqual(Self.status(apps["scales"], 6), "no", "the others are audited")
        XCTAssertTrue(run.stdout.contains("packages/broken/example/ios/Runner.xcodeproj:1: error: broken_example could not be loaded and was not audited"), run.stdout)
        XCTAssertTrue(run.stdout.contains("Scales/BodyLog.swift"), "the other apps are reported: \(run.stdout)")
        XCTAssertTrue(run.stderr.contains("check incomplete: 1 app could not be loaded (broken-example); the others were audited"), run.stderr)
        XCTAssertTrue(run.stderr.contains("skipped packages/foreground/example/ios/Runner.xcodeproj — no project.pbxproj in it (not committed?), "
                                          + "and nothing in packages/foreground/example asks for HealthKit"), run.stderr)
        XCTAssertFalse((run.stdout + run.stderr).contains(ConfigLoader.fileName + ":"), "no message cites the in-memory config: \(run.stderr)")
    }

    /// A Capacitor app at the top of the repository: what discovery says of its web code names the
    /// folder as the repository's own (`.`), never the path it was checked out at.
    func testACapacitorAppAtTheTopIsShownRelativeToTheRepository() throws {
        try write("package.json", "{ \"name\": \"scales\", \"dependencies\": { \"@capacitor/ios\": \"6.0.0\" } }\n")
        try write("capacitor.config.json", "{ \"appId\": \"org.example.scales\", \"webDir\": \"dist\" }\n")
        try write("ios/App/App.xcodeproj/project.pbxproj", Self.pbxproj([Target(name: "App", sources: ["App/AppDelegate.swift"], settings: Self.healthSettings)]))
        try write("ios/App/App/AppDelegate.swift", "import UIKit\n")
        try write("src/main.js", "console.log('scales');\n")
        let audit = try XCTUnwrap(try auditDiscovered().audits.first)
        let facts = audit.manifest.discovery.map(\.text).filter { $0.contains("web code file") }
        XCTAssertEqual(facts, ["1 web code file of the Capacitor app in . scanned (native projects, node_modules, built web assets and tests skipped)"])
    }

    // MARK: 3. Project formats as their toolchains read them

    /// A monorepo's example of a plugin with nothing of HealthKit, committed without its project file,
    /// is skipped with why; the same folder with one sign of HealthKit (a usage key, the entitlement,
    /// an import, a HealthKit package) stays an app that could not be loaded.
    func testAnUncommittedFlutterProjectIsSkippedOnlyWithoutASignOfHealthKit() throws {
        try makeMonorepoWithABrokenApp()
        var survey = AppDiscovery.survey(in: root)
        XCTAssertEqual(survey.apps.map(\.root).sorted(), [".", "packages/broken/example", "packages/steps/example"])
        XCTAssertEqual(survey.skipped.map(\.path), ["packages/foreground/example/ios/Runner.xcodeproj"])
        let signs = [
            ("ios/Runner/Info.plist", "<plist version=\"1.0\"><dict><key>NSHealthShareUsageDescription</key><string>Steps</string></dict></plist>\n"),
            ("ios/Runner/Runner.entitlements", "<plist version=\"1.0\"><dict><key>com.apple.developer.healthkit</key><true/></dict></plist>\n"),
            ("ios/Runner/AppDelegate.swift", "import UIKit\nimport HealthKit\n"),
            ("pubspec.yaml", "name: foreground_example\ndependencies:\n  health: ^10.2.0\n"),
        ]
        for (file, text) in signs {
            let path = "packages/foreground/example/" + file
            let before = try? String(contentsOfFile: root + "/" + path, encoding: .utf8)
            try write(path, text)
            survey = AppDiscovery.survey(in: root)
            XCTAssertTrue(survey.apps.contains { $0.root == "packages/foreground/example" }, "\(file) is a sign of HealthKit")
            XCTAssertTrue(survey.skipped.isEmpty, "\(file): \(survey.skipped)")
            if let before { try write(path, before) } else { try FileManager.default.removeItem(atPath: root + "/" + path) }
        }
    }

    func testAProjectFolderWithoutItsProjectFileIsSkippedWithWhy() throws {
        try write("Old/Old.xcodeproj/project.xcworkspace/contents.xcworkspacedata", "<Workspace version = \"1.0\"></Workspace>\n")
        try write("Scales/Scales.xcodeproj/project.pbxproj", Self.pbxproj([Target(name: "Scales", sources: [])]))
        let survey = AppDiscovery.survey(in: root)
        XCTAssertEqual(survey.apps.map(\.name), ["Scales"])
        XCTAssertEqual(survey.skipped.map(\.path), ["Old/Old.xcodeproj"])
        XCTAssertTrue(survey.skipped[0].reason.contains("no project.pbxproj"), survey.skipped[0].reason)
    }

    /// A folder named with a line break holds an app like any other; its problems cite it as named.
    func testAFolderWithALineBreakInItsNameIsAnAppLikeAnyOther() throws {
        try write("Body\nScales/Scales.xcodeproj/project.pbxproj", Self.pbxproj([Target(name: "Scales", sources: ["BodyLog.swift"], settings: Self.healthSettings)]))
        try write("Body\nScales/BodyLog.swift", Self.healthWriter)
        try write("Broken\nApp/pubspec.yaml", "name: broken_app\ndependencies:\n  health: ^10.2.0\n")
        try write("Broken\nApp/ios/Runner.xcodeproj/project.xcworkspace/contents.xcworkspacedata", "<Workspace version = \"1.0\"></Workspace>\n")
        let state = try auditDiscovered()
        XCTAssertEqual(state.audits.map(\.manifest.name).sorted(), ["Scales", "broken_app"])
        let scales = try XCTUnwrap(state.audits.first { $0.manifest.name == "Scales" })
        XCTAssertTrue(scales.manifest.main.sources.map(\.path).contains("Body\nScales/BodyLog.swift"))
        let broken = try XCTUnwrap(state.audits.first { $0.manifest.name == "broken_app" })
        XCTAssertEqual(broken.manifest.loadProblems.map(\.location.file), ["Broken\nApp/ios/Runner.xcodeproj"])
    }

    func testAProjectFileOverTheSizeLimitIsReportedNotDropped() throws {
        let big = Self.pbxproj([Target(name: "Huge", sources: [])]) + "\n// " + String(repeating: "x", count: InputLimits.maxFileBytes)
        try write("Huge/Huge.xcodeproj/project.pbxproj", big)
        let state = try auditDiscovered()
        let audit = try XCTUnwrap(state.audits.first)
        XCTAssertEqual(audit.manifest.name, "Huge")
        XCTAssertEqual(audit.verdict, .incomplete)
        XCTAssertEqual(audit.manifest.loadProblems.first?.location.file, "Huge/Huge.xcodeproj/project.pbxproj")
    }

    /// An XcodeGen spec beside a committed project folder that lacks project.pbxproj, written as
    /// real specs are: anchors and merge keys, an included file, a target template, usage strings in
    /// `settings.base`, and a watch application.
    func testAnXcodeGenSpecWithAnchorsIncludesAndTemplatesIsReadAsXcodeGenReadsIt() throws {
        try write("Scales.xcodeproj/project.xcworkspace/contents.xcworkspacedata", "<Workspace version = \"1.0\"></Workspace>\n")
        try write("project.yml", """
        name: Scales
        include:
          - path: shared/legacy.yml
            enable: false
          - shared/base.yml
        settings: &shared
          base:
            INFOPLIST_KEY_NSHealthShareUsageDescription: Scales reads your weight history to chart your progress.
        targets:
          Scales:
            templates: [HealthApp]
            settings:
              <<: *shared
              configs:
                Release:
                  INFOPLIST_KEY_NSHealthUpdateUsageDescription: Scales saves your weight to Health after each weigh-in.
          ScalesWatch:
            type: application
            platform: watchOS
            sources: [Watch]
            settings: *shared
        """)
        try write("shared/base.yml", """
        targetTemplates:
          HealthApp:
            type: application
            platform: iOS
            sources:
              - ${target_name}
            entitlements:
              path: ${target_name}/${target_name}.entitlements
              properties:
                com.apple.developer.healthkit: true
        """)
        // Left out as XcodeGen leaves it (`enable: false`): its template would make Scales a framework.
        try write("shared/legacy.yml", "targetTemplates:\n  HealthApp:\n    type: framework\n    platform: iOS\n")
        try write("Scales/BodyLog.swift", Self.healthWriter)
        try write("Watch/WatchApp.swift", "import HealthKit\n\nlet watchStore = HKHealthStore()\n")
        XCTAssertEqual(AppDiscovery.find(in: root).map(\.name), ["Scales"])
        let state = try auditDiscovered()
        let audit = try XCTUnwrap(state.audits.first)
        XCTAssertEqual(audit.manifest.loadProblems.map(\.message), [])
        XCTAssertEqual(audit.manifest.usageString("NSHealthShareUsageDescription")?.location, FileLocation(file: "project.yml", line: 8))
        XCTAssertEqual(audit.manifest.usageString("NSHealthUpdateUsageDescription")?.location.line, 16)
        XCTAssertEqual(audit.manifest.main.entitlements?["com.apple.developer.healthkit"]?.bool, true, "from the template")
        XCTAssertEqual(audit.manifest.main.entitlements?.location(of: "com.apple.developer.healthkit"), FileLocation(file: "shared/base.yml", line: 10),
                       "cited in the file that writes it")
        XCTAssertEqual(audit.manifest.main.sources.map(\.path), ["Scales/BodyLog.swift"], "`${target_name}` substituted")
        XCTAssertEqual(audit.manifest.extensions.map { "\($0.name) \($0.kind.rawValue)" }, ["ScalesWatch watch"])
        XCTAssertEqual(audit.manifest.extensions.first?.sources.map(\.path), ["Watch/WatchApp.swift"])
        XCTAssertEqual(audit.answers.first { $0.question == .usageStringsMeaningful }?.status, .yes)

        let (apps, run) = try checkByBinary()
        XCTAssertNotEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("XcodeGen app (project.yml with an application target)"), run.stderr)
        XCTAssertEqual(Self.status(apps["scales"], 4), "yes", "usage strings from settings.base and a merge key")
        XCTAssertEqual(Self.status(apps["scales"], 6), "no", "the template's sources read: the write is found")
        let targets = ((apps["scales"]?["declared"] as? [String: Any])?["targets"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        XCTAssertEqual(targets, ["Scales", "ScalesWatch"])
    }

    func testAnAliasBombIsRefusedBeforeItExpands() throws {
        var spec = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...8 { spec += "l\(level): &l\(level) [" + Array(repeating: level == 1 ? "*a" : "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        XCTAssertThrowsError(try YAMLReader.composeExpanding(spec, file: "project.yml")) { error in
            XCTAssertTrue("\(error)".contains("once its aliases are expanded"), "\(error)")
        }
        let merged = try YAMLReader.composeExpanding("base: &b {k: 1, own: 0}\nuse:\n  <<: *b\n  own: 2\n", file: "project.yml")
        XCTAssertEqual(merged.mapping?["use"]?.mapping?["k"]?.string, "1")
        XCTAssertEqual(merged.mapping?["use"]?.mapping?["own"]?.string, "2", "the key written in the mapping wins")
    }

    // MARK: 4. Local code is the app's code

    /// XcodeGen `packages:` with `path:`: the package's write is found, its availability check counted.
    func testHealthKitCodeInALocalPackageIsTheApps() throws {
        try write("project.yml", """
        name: Scales
        packages:
          BodyKit:
            path: Packages/BodyKit
        targets:
          Scales:
            type: application
            platform: iOS
            sources: [Scales]
            dependencies:
              - package: BodyKit
            entitlements:
              path: Scales/Scales.entitlements
              properties:
                com.apple.developer.healthkit: true
            info:
              path: Scales/Info.plist
              properties:
                NSHealthUpdateUsageDescription: Scales saves each weigh-in to Health so your other apps see it.
        """)
        try write("Scales/App.swift", "import BodyKit\n\nlet log = BodyLog()\n")
        try write("Packages/BodyKit/Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription
        let package = Package(name: "BodyKit", products: [.library(name: "BodyKit", targets: ["BodyKit"])], targets: [
            .target(name: "BodyKit"),
        ])
        """)
        try write("Packages/BodyKit/Sources/BodyKit/BodyLog.swift", Self.healthWriter)
        let audit = try XCTUnwrap(try auditDiscovered().audits.first)
        XCTAssertTrue(audit.manifest.main.sources.contains { $0.path == "Packages/BodyKit/Sources/BodyKit/BodyLog.swift" && $0.isDependency })
        XCTAssertEqual(audit.answers.first { $0.question == .writeStatusRechecked }?.status, .no, "the package's write is the app's")
        XCTAssertFalse(audit.findings.contains { $0.ruleID == "availability-not-checked" }, "the package's availability check counts")

        let (apps, run) = try checkByBinary()
        XCTAssertNotEqual(run.status, 2, run.stderr)
        XCTAssertEqual(Self.status(apps["scales"], 6), "no", "the package's write is the app's")
        XCTAssertEqual(Self.status(apps["scales"], 1), "yes", "the package's availability check counts")
        XCTAssertFalse(Self.rules(apps["scales"]).contains("availability-not-checked"))
    }

    /// A Tuist app in a folder of its own linking the repository's package above it
    /// (`packages: [.local(path: "../")]`): the package is still the repository's, and the app's code.
    func testALocalPackageAboveATuistAppIsTheApps() throws {
        try write("Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"BodyKit\", targets: [.target(name: \"BodyKit\")])\n")
        try write("Sources/BodyKit/BodyLog.swift", Self.healthWriter)
        try write("ScalesApp/Project.swift", """
        import ProjectDescription

        let project = Project(
            name: "Scales",
            packages: [.local(path: "../")],
            targets: [
                .target(name: "Scales", destinations: .iOS, product: .app, bundleId: "org.example.scales",
                        sources: ["Scales/**"], entitlements: "Scales/Scales.entitlements", dependencies: [.package(product: "BodyKit")]),
            ]
        )
        """)
        try write("ScalesApp/Scales/App.swift", "import BodyKit\n")
        try write("ScalesApp/Scales/Scales.entitlements", Self.entitlements)
        let audit = try XCTUnwrap(try auditDiscovered().audits.first)
        XCTAssertEqual(audit.manifest.loadProblems.map(\.message), [])
        XCTAssertTrue(audit.manifest.main.sources.contains { $0.path == "Sources/BodyKit/BodyLog.swift" && $0.isDependency },
                      "\(audit.manifest.main.sources.map(\.path))")
        XCTAssertEqual(audit.answers.first { $0.question == .writeStatusRechecked }?.status, .no)
    }

    /// A local package added to the project as a folder, its product linked with no package reference.
    func testALocalPackageAddedAsAFolderIsTheApps() throws {
        try write("Scales.xcodeproj/project.pbxproj", Self.pbxproj([
            Target(name: "Scales", sources: ["App.swift"], settings: Self.healthSettings.merging(["CODE_SIGN_ENTITLEMENTS": "Scales.entitlements"]) { $1 },
                   packageProducts: ["BodyKit"]),
        ], folders: ["Packages/BodyKit"]))
        try write("App.swift", "import BodyKit\n")
        try write("Scales.entitlements", Self.entitlements)
        try write("Packages/BodyKit/Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"BodyKit\", targets: [.target(name: \"BodyKit\")])\n")
        try write("Packages/BodyKit/Sources/BodyKit/BodyLog.swift", Self.healthWriter)
        let audit = try XCTUnwrap(try auditDiscovered().audits.first)
        XCTAssertTrue(audit.manifest.main.sources.contains { $0.path == "Packages/BodyKit/Sources/BodyKit/BodyLog.swift" && $0.isDependency },
                      "\(audit.manifest.main.sources.map(\.path))")
        XCTAssertEqual(audit.answers.first { $0.question == .writeStatusRechecked }?.status, .no)
        XCTAssertFalse(audit.findings.contains { $0.ruleID == "availability-not-checked" })
    }

    /// The product of the `Package.swift` beside the project, linked with no package reference.
    func testThePackageBesideTheProjectIsTheApps() throws {
        try write("Scales.xcodeproj/project.pbxproj", Self.pbxproj([
            Target(name: "Scales", sources: ["App.swift"], settings: Self.healthSettings.merging(["CODE_SIGN_ENTITLEMENTS": "Scales.entitlements"]) { $1 },
                   packageProducts: ["ScalesShared"]),
        ]))
        try write("App.swift", "import ScalesShared\n")
        try write("Scales.entitlements", Self.entitlements)
        try write("Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"ScalesShared\", products: [.library(name: \"ScalesShared\", targets: [\"ScalesShared\"])], targets: [.target(name: \"ScalesShared\", path: \"Shared\")])\n")
        try write("Shared/BodyLog.swift", Self.healthWriter)
        let audit = try XCTUnwrap(try auditDiscovered().audits.first)
        XCTAssertTrue(audit.manifest.main.sources.contains { $0.path == "Shared/BodyLog.swift" && $0.isDependency }, "\(audit.manifest.main.sources.map(\.path))")
    }

    /// A package reference to `../<name>` from a project at the repository's top is the repository
    /// itself cloned under that name (HealthVaults: `../health-vaults` in the `health-bank`
    /// repository), when its own `Package.swift` can make the product — here by computed names. Its
    /// library target is the app's code; its executable targets (another app) are not.
    func testAPackageReferenceToTheRepositoryUnderAnotherNameIsTheApps() throws {
        try write("Scales.xcodeproj/project.pbxproj", Self.pbxproj([
            Target(name: "Scales", sources: ["App/App.swift"], settings: Self.healthSettings.merging(["CODE_SIGN_ENTITLEMENTS": "Scales.entitlements"]) { $1 },
                   packageProducts: ["ScalesShared"], localPackage: "../scales-app"),
        ]))
        try write("App/App.swift", "import ScalesShared\n")
        try write("Scales.entitlements", Self.entitlements)
        try write("Package.swift", """
        // swift-tools-version:6.0
        import PackageDescription

        enum Module {
            static let name = "Scales"
            static let shared = "\\(name)Shared"
            static let widgets = "\\(name)Widgets"
        }

        let package = Package(
            name: Module.name,
            products: [.library(name: Module.shared, targets: [Module.shared])],
            targets: [
                .target(name: Module.shared, dependencies: [.product(name: "Charts", package: "charts")], path: "Shared"),
                .executableTarget(name: Module.widgets, dependencies: [.target(name: Module.shared)], path: "Widgets"),
            ]
        )
        """)
        try write("Shared/BodyLog.swift", Self.healthWriter)
        try write("Widgets/Widget.swift", "import HealthKit\n\nlet widgetStore = HKHealthStore()\n")
        let audit = try XCTUnwrap(try auditDiscovered().audits.first)
        let paths = audit.manifest.main.sources.map(\.path)
        XCTAssertTrue(audit.manifest.main.sources.contains { $0.path == "Shared/BodyLog.swift" && $0.isDependency }, "\(paths)")
        XCTAssertFalse(paths.contains("Widgets/Widget.swift"), "an executable target is not linked")
        XCTAssertTrue(audit.manifest.discovery.contains { $0.isNote && $0.text.contains("'../scales-app' names a folder beside the repository") })
        XCTAssertEqual(audit.answers.first { $0.question == .writeStatusRechecked }?.status, .no)
        XCTAssertFalse(audit.findings.contains { $0.ruleID == "availability-not-checked" })

        // A package the repository's manifest cannot make (a sibling checkout of another package) is not read.
        try write("Scales.xcodeproj/project.pbxproj", Self.pbxproj([
            Target(name: "Scales", sources: ["App/App.swift"], settings: Self.healthSettings.merging(["CODE_SIGN_ENTITLEMENTS": "Scales.entitlements"]) { $1 },
                   packageProducts: ["OtherKit"], localPackage: "../other-kit"),
        ]))
        try write("Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Scales\", products: [.library(name: \"ScalesShared\", targets: [\"ScalesShared\"])], targets: [.target(name: \"ScalesShared\", path: \"Shared\")])\n")
        let other = try XCTUnwrap(try auditDiscovered().audits.first)
        XCTAssertFalse(other.manifest.main.sources.contains { $0.path == "Shared/BodyLog.swift" })
        XCTAssertTrue(other.manifest.discovery.contains { $0.isNote && $0.text.contains("'../other-kit' is outside the app folder") })
    }

    /// A framework built by another project of the repository is the app's code; that project's
    /// example app is the library's, not another app.
    func testAWorkspaceSiblingFrameworkIsReadAsTheAppsCode() throws {
        try write("App/Scales.xcodeproj/project.pbxproj", Self.pbxproj([
            Target(name: "Scales", sources: ["App.swift"], frameworks: ["BodyKit"], settings: Self.healthSettings.merging(["CODE_SIGN_ENTITLEMENTS": "Scales.entitlements"]) { $1 }),
        ]))
        try write("App/App.swift", "import BodyKit\n")
        try write("App/Scales.entitlements", Self.entitlements)
        try write("BodyKit/BodyKit.xcodeproj/project.pbxproj", Self.pbxproj([
            Target(name: "BodyKit", type: "com.apple.product-type.framework", sources: ["BodyKit/BodyLog.swift"]),
            Target(name: "BodyKit Example", sources: ["Example/ExampleApp.swift"], frameworks: ["BodyKit"]),
        ]))
        try write("BodyKit/BodyKit/BodyLog.swift", Self.healthWriter)
        try write("BodyKit/Example/ExampleApp.swift", "import BodyKit\n")
        let survey = AppDiscovery.survey(in: root)
        XCTAssertEqual(survey.apps.map(\.name), ["Scales"])
        XCTAssertEqual(survey.skipped.map(\.path), ["BodyKit/BodyKit.xcodeproj"])
        let audit = try XCTUnwrap(try auditDiscovered().audits.first)
        XCTAssertTrue(audit.manifest.main.sources.contains { $0.path == "BodyKit/BodyKit/BodyLog.swift" && $0.isDependency })
        XCTAssertEqual(audit.answers.first { $0.question == .writeStatusRechecked }?.status, .no)

        let (apps, run) = try checkByBinary()
        XCTAssertNotEqual(run.status, 2, run.stderr)
        XCTAssertEqual(apps.keys.sorted(), ["scales"], "the framework project's example app is not another app")
        XCTAssertEqual(Self.status(apps["scales"], 6), "no", "the sibling framework's write is the app's")
        XCTAssertEqual(Self.status(apps["scales"], 1), "yes")
    }

    // MARK: 5. Declared but unread never passes

    /// With nothing declaring HealthKit beside it either, the unread code still cannot pass.
    func testAnAppWhoseCodeCouldNotBeFoundIsIncompleteNotApplicable() throws {
        try writeTuistHelpers()
        try write("Project.swift", "import ProjectDescription\nimport ProjectDescriptionHelpers\n\nlet project = Project.app(name: \"Scales\")\n")
        let audit = try XCTUnwrap(try auditDiscovered().audits.first)
        XCTAssertEqual(audit.verdict, .incomplete)
        XCTAssertEqual(audit.answers.first { $0.question == .writeStatusRechecked }?.status, .cannotTell)
        XCTAssertTrue(audit.answers.first { $0.question == .writeStatusRechecked }?.reason.contains("no code of the app was read") == true)
    }

    func writeTuistHelpers() throws {
        try write("Tuist/ProjectDescriptionHelpers/Project+App.swift", """
        import ProjectDescription

        extension Project {
            public static func app(name: String) -> Project {
                Project(name: name, targets: [.target(name: name, destinations: .iOS, product: .app, bundleId: "org.example.\\(name)")])
            }
        }
        """)
    }

    /// A Tuist workspace whose manifests are all built by helpers: the app's (`.app(…)`, whose
    /// helper writes `sources: "Sources/**"`) and a feature module's (`.feature(…)`, a framework the
    /// app's manifest names). With no config the module is no second app, the app's sources and the
    /// module's are read, and the answers are those of a config naming the same files.
    func testAHelperBuiltTuistWorkspaceAgreesWithAConfig() throws {
        try write("Workspace.swift", "import ProjectDescription\n\nlet workspace = Workspace(name: \"Scales\", projects: [\"Projects/App\"])\n")
        try write("Tuist/ProjectDescriptionHelpers/Project+Templates.swift", """
        import ProjectDescription

        public extension Project {
            static func makeModule(name: String, targets: [Target]) -> Project {
                Project(name: name, organizationName: "org.example", targets: targets)
            }
        }
        """)
        try write("Tuist/ProjectDescriptionHelpers/Target+Templates.swift", """
        import ProjectDescription

        public enum Feature: String { case BodyKit }

        public extension TargetDependency {
            static func feature(_ feature: Feature) -> TargetDependency {
                .project(target: feature.rawValue, path: .relativeToRoot("Projects/Feature/\\(feature.rawValue)"))
            }
        }

        public extension [Target] {
            static func app(name: String, entitlements: Entitlements? = nil, dependencies: [TargetDependency] = [],
                            infoPlist: [String: Plist.Value] = [:]) -> [Target] {
                [Target.target(name: name, destinations: [.iPhone], product: .app, bundleId: "org.example.\\(name)",
                               infoPlist: .extendingDefault(with: infoPlist), sources: "Sources/**", resources: "Resources/**",
                               entitlements: entitlements, dependencies: dependencies)]
            }

            static func feature(_ feature: Feature, product: Product = .framework, dependencies: [TargetDependency] = []) -> [Target] {
                [Target.target(name: feature.rawValue, destinations: [.iPhone], product: product, bundleId: "org.example.\\(feature.rawValue)",
                               sources: "Sources/**", dependencies: dependencies),
                 Target.target(name: "\\(feature.rawValue)Tests", destinations: [.iPhone], product: .unitTests, bundleId: "org.example.tests",
                               sources: "Tests/**", dependencies: [.target(name: feature.rawValue)])]
            }
        }
        """)
        try write("Projects/App/Project.swift", """
        import ProjectDescription
        import ProjectDescriptionHelpers

        let project = Project.makeModule(
            name: "Scales",
            targets: .app(name: "Scales", entitlements: .file(path: "Scales.entitlements"), dependencies: [.feature(.BodyKit)])
        )
        """)
        try write("Projects/App/Scales.entitlements", Self.entitlements)
        try write("Projects/App/Sources/App.swift", "import BodyKit\n\nlet log = BodyLog()\n")
        try write("Projects/Feature/BodyKit/Project.swift", """
        import ProjectDescription
        import ProjectDescriptionHelpers

        let project = Project.makeModule(name: "BodyKit", targets: .feature(.BodyKit))
        """)
        try write("Projects/Feature/BodyKit/Sources/BodyLog.swift", Self.healthWriter)
        try write("Projects/Feature/BodyKit/Tests/BodyLogTests.swift", "import HealthKit\n\nlet testStore = HKHealthStore()\n")

        XCTAssertEqual(AppDiscovery.find(in: root).map(\.name), ["Scales"], "the feature module is not a second app")
        let (discovered, run) = try checkByBinary()
        XCTAssertNotEqual(run.status, 2, run.stderr)
        let app = try XCTUnwrap(discovered["scales"], "\(discovered.keys)")
        XCTAssertEqual(Self.status(app, 6), "no", "the module's write is the app's")
        XCTAssertEqual(Self.status(app, 1), "yes", "the module's availability check counts")
        XCTAssertNotEqual(app["verdict"] as? String, "incomplete")

        try write(ConfigLoader.fileName, """
        title: Repo
        apps:
          - id: scales
            name: Scales
            root: .
            tuist: Projects/App/Project.swift
            entitlements: Projects/App/Scales.entitlements
            sources: [Projects/App/Sources, Projects/Feature/BodyKit/Sources]
        """)
        let configured = try HealthAuditBinary.run(["check", "--no-fail", "--format", "json"], in: root)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(configured.stdout.utf8)) as? [String: Any], configured.stderr)
        let hand = try XCTUnwrap((report["apps"] as? [[String: Any]])?.first)
        XCTAssertEqual((1...6).map { Self.status(app, $0) }, (1...6).map { Self.status(hand, $0) }, "no config and a config agree")
        XCTAssertEqual(app["verdict"] as? String, hand["verdict"] as? String)
        XCTAssertEqual(Set(Self.rules(app)), Set(Self.rules(hand)))
    }

    func testATuistManifestBuiltByHelpersIsIncompleteNeverPasses() throws {
        try write("Tuist/ProjectDescriptionHelpers/Project+App.swift", """
        import ProjectDescription

        extension Project {
            public static func app(name: String) -> Project {
                Project(name: name, targets: [.target(name: name, destinations: .iOS, product: .app, bundleId: "org.example.\\(name)",
                                                      sources: ["Targets/\\(name)/Sources/**"], entitlements: "Targets/\\(name)/\\(name).entitlements")])
            }
        }
        """)
        try write("Project.swift", "import ProjectDescription\nimport ProjectDescriptionHelpers\n\nlet project = Project.app(name: \"Scales\")\n")
        try write("Targets/Scales/Scales.entitlements", Self.entitlements)
        try write("Targets/Scales/Sources/BodyLog.swift", Self.healthWriter)
        XCTAssertEqual(AppDiscovery.find(in: root).count, 1)
        let audit = try XCTUnwrap(try auditDiscovered().audits.first)
        XCTAssertEqual(audit.verdict, .incomplete)
        XCTAssertTrue(audit.activeFindings.contains { $0.ruleID == "healthkit-use-unread" && $0.message.contains("not read") }, "\(audit.findings.map(\.message))")
        for question in [ReviewQuestion.availabilityChecked, .completionInterpreted, .readStatusProbed, .writeStatusRechecked] {
            XCTAssertEqual(audit.answers.first { $0.question == question }?.status, .cannotTell, "\(question)")
        }

        let (apps, run) = try checkByBinary()
        XCTAssertNotEqual(run.status, 2, run.stderr)
        XCTAssertEqual(apps.count, 1)
        let app = apps.values.first
        XCTAssertEqual(app?["verdict"] as? String, "incomplete")
        XCTAssertTrue(Self.rules(app).contains("healthkit-use-unread"), "\(Self.rules(app))")
        for number in [1, 2, 3, 6] { XCTAssertEqual(Self.status(app, number), "cannot tell", "Q\(number)") }
    }
}

