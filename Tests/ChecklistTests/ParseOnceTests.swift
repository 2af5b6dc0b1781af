@testable import Checklist
import Manifest
import TestSupport
import XCTest

/// Issue 37, item 1: a Swift file compiled by several targets (or apps) is parsed and indexed once
/// per run, and what the rules find in it is still reported for each target that compiles it.
final class ParseOnceTests: XCTestCase {
    var site: TestSite!

    override func tearDown() { site?.remove() }

    /// An error-level finding (`read-status-probed`, line 9) and a HealthKit read, in a file the app
    /// and its widget both compile.
    static let shared = """
        import HealthKit

        final class BirthdayReader {
            let store = HKHealthStore()

            func age() throws -> Int? {
                guard HKHealthStore.isHealthDataAvailable() else { return nil }
                let birthday = HKCharacteristicType(.dateOfBirth)
                guard store.authorizationStatus(for: birthday) == .sharingAuthorized else { return nil }
                let components = try store.dateOfBirthComponents()
                return Calendar.current.dateComponents([.year], from: components.date ?? .now, to: .now).year
            }
        }

        """

    static func app(_ id: String) -> String {
        """
          - id: \(id)
            name: \(id.capitalized)
            root: apps/\(id)
            info_plist: Info.plist
            entitlements: App.entitlements
            sources: [Shared, App]
            requested:
              read: [dateOfBirth]
              share: []
            extensions:
              - id: \(id)-widget
                name: Widget
                info_plist: Widget/Info.plist
                sources: [Shared, Widget]

        """
    }

    static func files(for id: String) -> [String: String] {
        let root = "apps/\(id)/"
        return [
            root + "Info.plist": RuleExample.plist(["CFBundleName": id, "NSHealthShareUsageDescription": RuleExample.goodShare,
                                                    "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            root + "App.entitlements": RuleExample.healthKitEntitlement,
            root + "Widget/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>]),
            root + "Shared/BirthdayReader.swift": shared,
            root + "App/Main.swift": "import SwiftUI\n\n@main\nstruct Main: App {\n    var body: some Scene { WindowGroup { Text(\"Hi\") } }\n}\n",
            root + "Widget/Provider.swift": "import WidgetKit\n\nstruct Entry: TimelineEntry { let date: Date }\n",
        ]
    }

    func manifest(_ id: String, in state: TestSite) throws -> AppManifest {
        try ManifestLoader(siteDirectory: state.site).load(try ConfigLoader().load(siteDirectory: state.site).apps.first { $0.id == id }!)
    }

    /// One parse for the two targets: both sources of the shared file hold the same parse, and the
    /// finding in it is reported once for each target, at the same place.
    func testAFileTwoTargetsCompileIsParsedOnceAndReportedForEach() throws {
        site = try TestSite(files: ["healthaudit.yml": "title: Shared\napps:\n" + Self.app("birthday")].merging(Self.files(for: "birthday")) { $1 })
        let manifest = try manifest("birthday", in: site)
        let context = AuditContext(manifest: manifest)
        let shared = context.sources.filter { $0.file.path.hasSuffix("Shared/BirthdayReader.swift") }
        XCTAssertEqual(shared.map(\.target), ["birthday", "birthday-widget"])
        XCTAssertEqual(Set(shared.map { ObjectIdentifier($0.parsed) }).count, 1, "one parse shared by both targets")
        XCTAssertEqual(Set(shared.map { $0.tree.id }).count, 1)
        // The facts of the file, walked once, stand for each target.
        let reads = context.usage.facts(.read).filter { $0.evidence.location.file.hasSuffix("BirthdayReader.swift") }
        XCTAssertEqual(reads.map(\.target), ["birthday", "birthday-widget"])
        XCTAssertEqual(reads.map(\.isExtension), [false, true])
        XCTAssertEqual(Set(reads.map { "\($0.evidence.location)" }).count, 1)

        let audit = Checklist().audit(manifest)
        let probed = audit.findings.filter { $0.ruleID == "read-status-probed" }.map { "\($0.target) \($0.location)" }
        let path = "apps/birthday/Shared/BirthdayReader.swift:9:15"
        XCTAssertEqual(probed, ["birthday \(path)", "birthday-widget \(path)"])
    }

    /// Two apps of one run that compile the same file (a shared folder): parsed once for the run,
    /// and each app's audit still reports it.
    func testAFileTwoAppsCompileIsParsedOncePerRun() throws {
        var files: [String: String] = ["healthaudit.yml": "title: Shared\napps:\n" + Self.app("one") + Self.app("two")]
        files.merge(Self.files(for: "one")) { $1 }
        files.merge(Self.files(for: "two")) { $1 }
        site = try TestSite(files: files)
        // The second app compiles the first app's file (same path, same text).
        var two = try manifest("two", in: site)
        let one = try manifest("one", in: site)
        let oneShared = try XCTUnwrap(one.targets[0].sources.first { $0.path.hasSuffix("BirthdayReader.swift") })
        let shareIt = { (sources: [SourceFile]) in sources.map { $0.path.hasSuffix("BirthdayReader.swift") ? oneShared : $0 } }
        two.main.sources = shareIt(two.main.sources)
        for index in two.extensions.indices { two.extensions[index].sources = shareIt(two.extensions[index].sources) }
        let parses = ParsedFiles(manifests: [one, two])
        let audits = Checklist().audit([one, two], files: parses)
        // Six distinct files (Shared, App and Widget of each app) less the one the second app shares.
        XCTAssertEqual(parses.parseCount, 5)
        for audit in audits {
            let probed = audit.findings.filter { $0.ruleID == "read-status-probed" }.map { "\($0.target) \($0.location)" }
            let id = audit.manifest.id
            XCTAssertEqual(probed, ["\(id) \(oneShared.path):9:15", "\(id)-widget \(oneShared.path):9:15"])
        }
    }
}

/// The one-app fixture for tests elsewhere.
enum ParseOnceTestsFixture {
    static var app: String { ParseOnceTests.app("birthday") }
    static var files: [String: String] { ParseOnceTests.files(for: "birthday") }
}
