import Checklist
import Manifest
import TestSupport
import XCTest

/// A watch app is a target of the audit in its own right: it may ask for access (question 5 is
/// about extensions only), its code counts for every answer, and it needs its own entitlement.
final class WatchTargetAuditTests: XCTestCase {
    var site: TestSite!

    override func tearDown() { site?.remove() }

    func audit(watchEntitlements: String, extraWatchFiles: [String: String] = [:]) throws -> AppAudit {
        var files = InlineApp.site([("pace", "Pace", nil)])
        files["healthaudit.yml"]! += """
                extensions:
                  - id: pace-watch
                    name: Pace Watch App
                    kind: watch
                    entitlements: Watch/Watch.entitlements
                    sources: [Watch]

            """
        files["apps/pace/Watch/Watch.entitlements"] = watchEntitlements
        files["apps/pace/Watch/WorkoutManager.swift"] = """
            import HealthKit

            final class WorkoutManager {
                let healthStore = HKHealthStore()

                func start() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await healthStore.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.heartRate)])
                    let builder = HKWorkoutBuilder(healthStore: healthStore, configuration: HKWorkoutConfiguration(), device: nil)
                    try await builder.beginCollection(at: .now)
                }
            }

            """
        for (name, text) in extraWatchFiles { files["apps/pace/Watch/" + name] = text }
        site = try TestSite(files: files)
        let config = try ConfigLoader().load(siteDirectory: site.site)
        return Checklist().audit(try ManifestLoader(siteDirectory: site.site).load(config.apps[0]))
    }

    /// A type of the watch app with its own store and no check: Health is on every Apple Watch, so the
    /// checklist's gap is a note that says so, not a warning that its calls fail (JustWalk's watch).
    func testAnUnguardedStoreOwnerInAWatchAppIsANoteThatSaysWhy() throws {
        let audit = try audit(watchEntitlements: InlineApp.entitlements, extraWatchFiles: ["Profile.swift": """
            import HealthKit

            final class Profile {
                let store = HKHealthStore()

                func birthday() throws -> DateComponents {
                    try store.dateOfBirthComponents()
                }
            }

            """])
        let found = audit.findings.filter { $0.ruleID == "availability-not-checked" && $0.location.file.hasSuffix("Watch/Profile.swift") }
        XCTAssertEqual(found.map(\.severity), [.note], "\(audit.findings.map { "\($0.ruleID) \($0.location)" })")
        XCTAssertTrue(found.first?.message.contains("Health is present on every Apple Watch") == true, found.first?.message ?? "")
    }

    /// An iPhone app that never asks (its plist `iPhone`), and a watch app with its own plist
    /// (`watch`) whose workout manager asks to share workouts and read heart rate.
    func watchOnlySite(iPhone: KeyValuePairs<String, String>, watch: KeyValuePairs<String, String>, iPhoneEntitled: Bool = true) throws -> AppAudit {
        var files = InlineApp.site([("pace", "Pace", iPhone)])
        if !iPhoneEntitled {
            files["apps/pace/Pace/Pace.entitlements"] = InlineApp.entitlements.replacingOccurrences(of: "com.apple.developer.healthkit</key>\n\t<true/>", with: "com.apple.developer.associated-domains</key>\n\t<array/>")
            XCTAssertFalse(files["apps/pace/Pace/Pace.entitlements"]!.contains("healthkit</key>\n\t<true/>"))
        }
        files["apps/pace/Pace/Health.swift"] = "import SwiftUI\n\nstruct Home: View {\n    var body: some View { Text(\"Intervals\") }\n}\n"
        files["healthaudit.yml"] = files["healthaudit.yml"]!.replacingOccurrences(of: "    requested:\n      read: [stepCount, heartRate]\n      share: [workout]\n", with: "") + """
                extensions:
                  - id: pace-watch
                    name: Pace Watch App
                    kind: watch
                    info_plist: Watch/Info.plist
                    entitlements: Watch/Watch.entitlements
                    sources: [Watch]

            """
        files["apps/pace/Watch/Info.plist"] = InlineApp.infoPlist(watch)
        files["apps/pace/Watch/Watch.entitlements"] = InlineApp.entitlements
        files["apps/pace/Watch/WorkoutManager.swift"] = """
            import HealthKit

            final class WorkoutManager {
                let healthStore = HKHealthStore()

                func start() async throws {
                    try await healthStore.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.heartRate)])
                }
            }

            """
        site = try TestSite(files: files)
        let config = try ConfigLoader().load(siteDirectory: site.site)
        return Checklist().audit(try ManifestLoader(siteDirectory: site.site).load(config.apps[0]))
    }

    func testAWatchAppAskingForItselfIsNotAnExtensionAsking() throws {
        let audit = try audit(watchEntitlements: InlineApp.entitlements)
        let q5 = try XCTUnwrap(audit.answers.first { $0.question == .widgetsDoNotRequest })
        XCTAssertEqual(q5.status, .notApplicable, q5.reason)
        XCTAssertFalse(audit.findings.contains { $0.ruleID == "extension-requests-authorization" || $0.ruleID == "extension-declares-healthkit-usage" })
        let q1 = try XCTUnwrap(audit.answers.first { $0.question == .availabilityChecked })
        XCTAssertTrue(q1.reason.contains("pace-watch"), "the watch app is one of the targets that use HealthKit: \(q1.reason)")
        XCTAssertFalse(audit.findings.contains { $0.ruleID == "entitlement-missing" })
    }

    /// Only the watch app uses HealthKit: it asks with its own Info.plist and signs with its own
    /// entitlements, so the iPhone app, which has neither and needs neither, is not missing them.
    func testAnIPhoneAppWhoseWatchAppAloneUsesHealthKitNeedsNoKeysOfItsOwn() throws {
        let audit = try watchOnlySite(iPhone: ["CFBundleName": "Pace"], watch: ["CFBundleName": "Pace Watch", "NSHealthShareUsageDescription": InlineApp.share,
                                                                             "NSHealthUpdateUsageDescription": InlineApp.update], iPhoneEntitled: false)
        let misplaced = audit.findings.filter { ["usage-string-missing", "entitlement-missing"].contains($0.ruleID) }
        XCTAssertEqual(misplaced.map(\.message), [])
        let q4 = try XCTUnwrap(audit.answers.first { $0.question == .usageStringsMeaningful })
        XCTAssertEqual(q4.status, .yes, "the watch app's own Info.plist has both keys: \(q4.reason)")
        XCTAssertEqual(q4.evidence.map { "\($0.location.file.split(separator: "/").last!):\($0.location.line ?? 0)" }.count, 2, q4.reason)
        XCTAssertTrue(q4.reason.contains("watch app `pace-watch` sets `NSHealthShareUsageDescription`"), q4.reason)
    }

    /// The iPhone app carries usage strings but never asks; its watch app asks and writes workouts:
    /// the watch's own Info.plist is what its sheet shows, so it is judged — here a plist file
    /// without the update key, which build settings might still add: cannot tell, citing the watch.
    func testTheWatchAppsPlistIsJudgedWhenOnlyTheWatchAsks() throws {
        let audit = try watchOnlySite(iPhone: ["CFBundleName": "Pace", "NSHealthShareUsageDescription": InlineApp.share, "NSHealthUpdateUsageDescription": InlineApp.update],
                                      watch: ["CFBundleName": "Pace Watch", "NSHealthShareUsageDescription": InlineApp.share])
        let q4 = try XCTUnwrap(audit.answers.first { $0.question == .usageStringsMeaningful })
        XCTAssertEqual(q4.status, .cannotTell, q4.reason)
        XCTAssertTrue(q4.reason.contains("watch app `pace-watch`'s Info.plist file does not set `NSHealthUpdateUsageDescription`"), q4.reason)
    }

    func testAWatchAppWithoutItsOwnEntitlementIsAnError() throws {
        let unentitled = InlineApp.entitlements.replacingOccurrences(of: "com.apple.developer.healthkit</key>\n\t<true/>", with: "com.apple.developer.healthkit</key>\n\t<false/>")
        XCTAssertNotEqual(unentitled, InlineApp.entitlements)
        let audit = try audit(watchEntitlements: unentitled)
        let missing = audit.findings.filter { $0.ruleID == "entitlement-missing" }
        XCTAssertEqual(missing.map(\.location.file), ["apps/pace/Watch/Watch.entitlements"])
        XCTAssertEqual(missing.first?.severity, .error)
        XCTAssertTrue(missing.first?.message.hasPrefix("watch app pace-watch calls HealthKit (apps/pace/Watch/WorkoutManager.swift:") == true, missing.first?.message ?? "")
    }
}
