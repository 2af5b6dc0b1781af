@testable import Checklist
import Manifest
import TestSupport
import XCTest

/// A write decided through app helpers (`canWrite()` → `isAuthorized()` → `authorizationStatus(for:)`)
/// rests on every status check the helpers make, in source order, however the helpers' evidence is
/// kept while the gates are built (`GateFinder.EvidenceList`).
final class WriteGateHelpersTests: XCTestCase {
    var site: TestSite!

    override func tearDown() { site?.remove() }

    static func checker(_ name: String) -> String {
        """
        import HealthKit

        final class \(name) {
            let store = HKHealthStore()

            func isAuthorized() -> Bool {
                store.authorizationStatus(for: HKQuantityType(.bodyMass)) == .sharingAuthorized
            }
        }

        """
    }

    static let writer = """
        import HealthKit

        final class Writer {
            let healthStore = HKHealthStore()
            let first = First()
            let second = Second()

            func canWrite() -> Bool {
                first.isAuthorized() && second.isAuthorized()
            }

            func saveWeight(_ sample: HKQuantitySample) {
                guard canWrite() else { return }
                healthStore.save(sample) { _, _ in }
            }
        }

        """

    func context() throws -> AuditContext {
        let root = "apps/scale/"
        site = try TestSite(files: [
            "healthaudit.yml": """
                title: Scale
                apps:
                  - id: scale
                    name: Scale
                    root: apps/scale
                    info_plist: Info.plist
                    entitlements: App.entitlements
                    sources: [Shared, App]
                    requested:
                      read: []
                      share: [bodyMass]

                """,
            root + "Info.plist": RuleExample.plist(["CFBundleName": "Scale", "NSHealthShareUsageDescription": RuleExample.goodShare,
                                                    "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            root + "App.entitlements": RuleExample.healthKitEntitlement,
            root + "Shared/First.swift": Self.checker("First"),
            root + "Shared/Second.swift": Self.checker("Second"),
            root + "App/Writer.swift": Self.writer,
            root + "App/Main.swift": "import SwiftUI\n\n@main\nstruct Main: App {\n    var body: some Scene { WindowGroup { Text(\"Hi\") } }\n}\n",
        ])
        let config = try ConfigLoader().load(siteDirectory: site.site)
        return AuditContext(manifest: try ManifestLoader(siteDirectory: site.site).load(config.apps[0]))
    }

    /// Two levels of helpers: the write's gate is the `canWrite()` call, resting on both files'
    /// `authorizationStatus(for:)`, first file first.
    func testAWriteBehindNestedHelpersRestsOnEveryHelpersStatusCheck() throws {
        let context = try context()
        let gates = context.writeGates.filter { $0.write.evidence.location.file.hasSuffix("Writer.swift") }
        XCTAssertEqual(gates.count, 1)
        let gate = try XCTUnwrap(gates.first)
        XCTAssertEqual(gate.check.map { "\($0.location)" }, "apps/scale/App/Writer.swift:13:15")
        let both = ["apps/scale/Shared/First.swift:7:9", "apps/scale/Shared/Second.swift:7:9"]
        // `canWrite()` calls a helper named `isAuthorized` twice: each call adds what the name rests on.
        XCTAssertEqual(gate.statusCalls.map { "\($0.location)" }, both + both)
        XCTAssertEqual(gate.statusCalls.map(\.quote).first, "store.authorizationStatus(for: HKQuantityType(.bodyMass)) == .sharingAuthorized")
    }

    /// The helpers themselves: each name with the checks it rests on, flattened in order.
    func testHelpersKeepTheirEvidenceInOrder() throws {
        let context = try context()
        let helpers = GateFinder.helpers(context.sources).mapValues { $0.flattened.map { "\($0.location)" } }
        let both = ["apps/scale/Shared/First.swift:7:9", "apps/scale/Shared/Second.swift:7:9"]
        XCTAssertEqual(helpers["isAuthorized"], both)
        XCTAssertEqual(helpers["canWrite"], both + both, "one copy per call of a helper named `isAuthorized`")
        XCTAssertEqual(helpers["saveWeight"], both + both)
    }
}
