import Foundation
import Manifest
import SiteBuild
import XCTest

/// A site in a temporary folder, built with the real templates on a fixed day, that a test may
/// edit; `remove()` deletes it. Either a copy of the repository's `Site/` (the end-to-end tests),
/// or a small site written inline by the test (Hugo's style), whose facts the test states itself.
public struct TestSite {
    public let root: String
    public var site: String { root + "/Site" }
    public var output: String { site + "/public" }

    public init(prefix: String = "healthaudit-site") throws {
        root = Repository.temporaryDirectory(prefix)
        try FileManager.default.copyItem(atPath: Repository.site, toPath: site)
        // A clean copy: no built site, nor the hidden files a build keeps beside it.
        for entry in try FileManager.default.contentsOfDirectory(atPath: site) where entry == "public" || entry.hasPrefix(".public") {
            try FileManager.default.removeItem(atPath: site + "/" + entry)
        }
    }

    /// A site of exactly `files` (paths relative to the site folder, `healthaudit.yml` included).
    public init(files: [String: String], prefix: String = "healthaudit-inline") throws {
        try self.init(files: files, root: Repository.temporaryDirectory(prefix))
    }

    /// The same, in the folder `root` (its `Site/` holds the files).
    public init(files: [String: String], root: String) throws {
        self.root = root
        for (path, text) in files { try write(path, text) }
    }

    public func remove() { try? FileManager.default.removeItem(atPath: root) }

    public var options: BuildOptions {
        BuildOptions(siteDirectory: site, templatesDirectory: Repository.templates,
                     clock: FixedClock(DayDate(year: 2026, month: 4, day: 1)), log: SilentLog())
    }

    @discardableResult
    public func build() throws -> BuildState { try Pipeline.site.run(options) }

    @discardableResult
    public func audit() throws -> BuildState { try Pipeline.audit.run(options) }

    /// How many apps the copied config lists: tests count from it, not from today's demo site.
    public func appCount() throws -> Int { try ConfigLoader().load(siteDirectory: site).apps.count }

    /// A file of the built site.
    public func read(_ path: String) throws -> String { try String(contentsOfFile: output + "/" + path, encoding: .utf8) }

    public func write(_ path: String, _ text: String) throws {
        let full = site + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// Rewrites a file of the site; an edit that changes nothing fails the test (its premise is gone).
    public func edit(_ path: String, file: StaticString = #filePath, line: UInt = #line, _ transform: (String) -> String) throws {
        let full = site + "/" + path
        let before = try String(contentsOfFile: full, encoding: .utf8)
        let after = transform(before)
        XCTAssertNotEqual(before, after, "edit of \(path) changed nothing", file: file, line: line)
        try after.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// Every file below `folder` (default: the output) with its bytes, keyed by relative path.
    public func snapshot(_ folder: String? = nil) throws -> [String: Data] {
        try Self.snapshot(of: folder ?? output)
    }

    /// Every file below `base` with its bytes, keyed by relative path.
    public static func snapshot(of base: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for file in try LocalFileSystem().files(under: base) {
            result[file] = try Data(contentsOf: URL(fileURLWithPath: base + "/" + file))
        }
        return result
    }

    /// Runs the CLI from `folder` (default: the root); stdout then stderr in `output`.
    public func runCLI(_ arguments: [String], in folder: String? = nil, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let run = try HealthAuditBinary.run(arguments, in: folder ?? root, environment: environment)
        return (run.status, run.stdout + run.stderr)
    }
}

/// Small HealthKit apps written inline, for sites whose every fact the test can see.
public enum InlineApp {
    /// An XML Info.plist of string values, keys in the order given.
    public static func infoPlist(_ entries: KeyValuePairs<String, String>) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(entries.map { "\t<key>\($0.key)</key>\n\t<string>\($0.value)</string>" }.joined(separator: "\n"))
        </dict>
        </plist>

        """
    }

    public static let entitlements = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>com.apple.developer.healthkit</key>
        \t<true/>
        \t<key>com.apple.developer.healthkit.access</key>
        \t<array/>
        </dict>
        </plist>

        """

    public static let share = "Pace reads your steps and heart rate to chart each day's training load."
    public static let update = "Pace saves the workouts you record so they appear in Health."

    /// A native app under `apps/<id>/`: Info.plist, entitlements and one Swift file that asks
    /// for what it reads and checks availability first. `info` replaces the Info.plist entries.
    public static func files(id: String, name: String, info: KeyValuePairs<String, String>? = nil) -> [String: String] {
        let folder = "apps/\(id)/\(name)/"
        return [
            folder + "Info.plist": infoPlist(info ?? ["CFBundleName": name, "NSHealthShareUsageDescription": share, "NSHealthUpdateUsageDescription": update]),
            folder + "\(name).entitlements": entitlements,
            folder + "Health.swift": """
                import HealthKit

                final class Health {
                    let store = HKHealthStore()

                    func start() async throws {
                        guard HKHealthStore.isHealthDataAvailable() else { return }
                        let read: Set = [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]
                        try await store.requestAuthorization(toShare: [HKWorkoutType.workoutType()], read: read)
                    }
                }

                """,
        ]
    }

    /// The app's entry in `healthaudit.yml`.
    public static func config(id: String, name: String) -> String {
        """
          - id: \(id)
            name: \(name)
            root: apps/\(id)
            info_plist: \(name)/Info.plist
            entitlements: \(name)/\(name).entitlements
            sources: [\(name)]
            requested:
              read: [stepCount, heartRate]
              share: [workout]

        """
    }

    /// A whole site of these apps: each `(id, name, info)`, plus `extra` files (content pages).
    public static func site(_ apps: [(id: String, name: String, info: KeyValuePairs<String, String>?)], extra: [String: String] = [:]) -> [String: String] {
        var files = extra
        var yaml = "title: Inline\nsummaries:\n  from: 2026-03-30\n  to: 2026-04-01\napps:\n"
        for app in apps {
            files.merge(Self.files(id: app.id, name: app.name, info: app.info)) { $1 }
            yaml += config(id: app.id, name: app.name)
        }
        files["healthaudit.yml"] = yaml
        return files
    }

    /// A site whose apps have findings of every severity: `veloride` has two warnings of one rule
    /// (with columns), a note and a suppressed iCloud note (it reads steps and syncs routes to CloudKit); `trainer` misses its update string (an
    /// error); `steady` passes.
    public static let findingsSite: [String: String] = {
        var files = InlineApp.site([("veloride", "VeloRide", nil), ("trainer", "Trainer", nil), ("steady", "Steady", nil)])
        files["apps/veloride/VeloRide/VeloRide.entitlements"] = InlineApp.entitlements.replacingOccurrences(of: "</dict>", with: """
            \t<key>com.apple.developer.icloud-services</key>
            \t<array><string>CloudKit</string></array>
            </dict>
            """)
        files["apps/veloride/VeloRide/Health.swift"] = """
            import HealthKit
            import SwiftUI

            final class RideHealth {
                let store = HKHealthStore()

                func connect() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    if UserDefaults.standard.bool(forKey: "healthKitAuthorized") { return }
                    try await store.requestAuthorization(toShare: [HKWorkoutType.workoutType()], read: [HKQuantityType(.stepCount)])
                }
            }

            struct ConnectView: View {
                @AppStorage("didGrantHealthPermission") private var connected = false
                var body: some View { Text(connected ? "Connected" : "Not connected") }
            }

            """
        // Routes go to CloudKit and steps are read from Health: what the iCloud note needs to be given.
        files["apps/veloride/VeloRide/Routes.swift"] = """
            import CloudKit
            import HealthKit

            struct RouteSync {
                let database = CKContainer.default().privateCloudDatabase

                func upload(_ record: CKRecord) async throws {
                    _ = try await database.save(record)
                }
            }

            extension RideHealth {
                func todaySteps() async throws -> Double? {
                    guard HKHealthStore.isHealthDataAvailable() else { return nil }
                    let descriptor = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum)
                    return try await descriptor.result(for: store)?.sumQuantity()?.doubleValue(for: .count())
                }
            }

            """
        files["apps/trainer/Trainer/Info.plist"] = InlineApp.infoPlist(["CFBundleName": "Trainer", "NSHealthShareUsageDescription": InlineApp.share])
        files["healthaudit.yml"] = files["healthaudit.yml"]!.replacingOccurrences(of: "    sources: [VeloRide]\n", with: """
                sources: [VeloRide]
                ignore:
                  - rule: icloud-beside-healthkit
                    path: VeloRide/VeloRide.entitlements
                    reason: CloudKit keeps ride routes only

            """)
        return files
    }()
}
