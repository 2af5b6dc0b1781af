import Foundation
import Manifest
import TestSupport
import XCTest

/// A config kept in a tooling folder may name an app elsewhere in the same git repository
/// (`root: ../../MyApp`, or the same folder written absolute), never one outside it; run as a
/// user would, with the built binary on a repository written by the test.
final class RepositoryPathsTests: XCTestCase {
    private var repository: String!

    override func setUpWithError() throws {
        repository = Repository.temporaryDirectory("healthaudit-repo")
        try FileManager.default.createDirectory(atPath: repository + "/.git", withIntermediateDirectories: true)
        try write("MyApp/Info.plist", InlineApp.infoPlist(["CFBundleName": "Pace", "NSHealthShareUsageDescription": InlineApp.share]))
        try write("MyApp/App.entitlements", InlineApp.entitlements)
        try write("MyApp/Sources/Steps.swift", """
        import HealthKit

        final class Steps {
            let store = HKHealthStore()

            func ask() async throws {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount)])
            }
        }
        """)
        try write("outside-marker.txt", "the repository's own file\n")
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: repository) }

    private func write(_ path: String, _ text: String) throws {
        let full = repository + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    private func config(root: String) throws {
        try write("tools/audit/healthaudit.yml", """
        title: Pace
        apps:
          - id: pace
            name: Pace
            root: \(root)
            info_plist: Info.plist
            entitlements: App.entitlements
            sources: [Sources]

        """)
    }

    func testAnAppBesideTheToolingFolderIsAudited() throws {
        try HealthAuditBinary.requireBuilt()
        try config(root: "../../MyApp")
        let run = try HealthAuditBinary.run(["check", "--config", "tools/audit/healthaudit.yml", "--format", "json"], in: repository)
        XCTAssertEqual(run.status, 1, run.stderr)
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let app = try XCTUnwrap((report?["apps"] as? [[String: Any]])?.first)
        let findings = try XCTUnwrap(app["findings"] as? [[String: Any]])
        let missing = try XCTUnwrap(findings.first { $0["ruleId"] as? String == "usage-string-missing" })
        XCTAssertEqual((missing["location"] as? [String: Any])?["path"] as? String, "MyApp/Info.plist",
                       "shown from the current folder, as a compiler would")
        XCTAssertEqual(app["requested"] as? [String: [String]], ["read": ["stepCount"], "share": ["workout"]], "the app's code was read")
    }

    func testTheSameFolderWrittenAbsoluteIsAccepted() throws {
        try HealthAuditBinary.requireBuilt()
        try config(root: repository + "/MyApp")
        let run = try HealthAuditBinary.run(["check", "--config", "tools/audit/healthaudit.yml", "--format", "json"], in: repository)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stdout.contains("\"MyApp/Info.plist\""), run.stdout)
    }

    func testAFolderOutsideTheRepositoryIsRefusedAtItsLine() throws {
        try HealthAuditBinary.requireBuilt()
        for root in ["../../../elsewhere", "/etc"] {
            try config(root: root)
            let run = try HealthAuditBinary.run(["check", "--config", "tools/audit/healthaudit.yml"], in: repository)
            XCTAssertEqual(run.status, 2, root)
            XCTAssertTrue(run.stderr.contains("healthaudit.yml:5:"), run.stderr)
            XCTAssertTrue(run.stderr.contains(root.hasPrefix("/") ? "absolute paths are not allowed" : "leaves the repository that holds the config"), run.stderr)
        }
    }

    func testWithoutAGitRepositoryTheConfigsFolderIsTheLimit() throws {
        try FileManager.default.removeItem(atPath: repository + "/.git")
        try config(root: "../../MyApp")
        XCTAssertThrowsError(try ConfigLoader().load(siteDirectory: repository + "/tools/audit")) { error in
            XCTAssertTrue("\(error)".contains("leaves the config's folder (no git repository holds it)"), "\(error)")
        }
    }
}
