import Checklist
import Manifest
import XCTest

/// Cases the rules' own examples do not show: near misses that must stay quiet, and shapes that must still be seen.
final class SourceRuleEdgeCaseTests: XCTestCase {
    private func ruleIDs(_ code: String, only rule: String? = nil) throws -> [String] {
        let rules = RuleCatalog.sourceRules.filter { rule == nil || $0.description.id == rule }.map { $0.init() }
        let example = RuleExample.healthApp(["Sources/App.swift": code], read: [], share: [])
        return Checklist(rules: rules).audit(try example.load()).findings.map(\.ruleID).filter { $0 != "availability-not-checked" }
    }

    /// A developer probe in `#if DEBUG` code does not ship: reported, as a note that says so
    /// (OpenCircuit's ECG status probe failed the build of a well-made app).
    func testFindingsInDebugOnlyCodeAreNotes() throws {
        let probe = """
            guard store.authorizationStatus(for: HKObjectType.electrocardiogramType()) == .sharingAuthorized else { return }
            _ = HKSampleQuery(sampleType: HKObjectType.electrocardiogramType(), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in }
        """
        func findings(_ body: String) throws -> [Finding] {
            let code = "import HealthKit\n\nfunc calibrate(_ store: HKHealthStore) {\n\(body)\n}\n"
            let rules = RuleCatalog.sourceRules.filter { $0.description.id == "read-status-probed" }.map { $0.init() }
            return Checklist(rules: rules).audit(try RuleExample.healthApp(["Sources/App.swift": code]).load()).findings
        }
        XCTAssertEqual(try findings(probe).map(\.severity), [.error])
        let debug = try findings("#if DEBUG\n" + probe + "\n#else\n    print(\"release\")\n#endif")
        XCTAssertEqual(debug.map(\.severity), [.note])
        XCTAssertEqual(debug.first?.location.line, 5)
        XCTAssertTrue(debug.first?.message.hasSuffix("(in `#if DEBUG` code, which does not ship)") == true, debug.first?.message ?? "")
    }

    /// Windows line endings: the finding's line is the compiler's, and the quote is that line
    /// (splitting on `"\n"` never split `"\r\n"`, a single Character, so quotes came back empty).
    func testCRLFSourcesAreLocatedAndQuotedByLine() throws {
        let code = ["import HealthKit", "", "func calibrate(_ store: HKHealthStore) {",
                    "    guard store.authorizationStatus(for: HKObjectType.electrocardiogramType()) == .sharingAuthorized else { return }",
                    "}", ""].joined(separator: "\r\n")
        let rules = RuleCatalog.sourceRules.filter { $0.description.id == "read-status-probed" }.map { $0.init() }
        let findings = Checklist(rules: rules).audit(try RuleExample.healthApp(["Sources/App.swift": code]).load()).findings
        XCTAssertEqual(findings.map(\.location.line), [4])
        XCTAssertEqual(findings.first?.quote, "guard store.authorizationStatus(for: HKObjectType.electrocardiogramType()) == .sharingAuthorized else { return }")
    }

    func testNotDeterminedGateIsNotAReadProbe() throws {
        XCTAssertEqual(try ruleIDs("""
        import HealthKit
        func start(_ store: HKHealthStore, _ type: HKCharacteristicType) {
            if store.authorizationStatus(for: type) == .notDetermined {
                askForAccess()
            } else {
                loadProfile()
            }
        }
        """, only: "read-status-probed"), [])
    }

    func testStatusGuardingSaveAndReloadIsFine() throws {
        XCTAssertEqual(try ruleIDs("""
        import HealthKit
        func log(_ store: HKHealthStore, _ sample: HKQuantitySample) async throws {
            guard store.authorizationStatus(for: sample.quantityType) == .sharingAuthorized else { return }
            try await store.save(sample)
            await loadHistory()
        }
        """), [])
    }

    func testBoolDerivedFromStatusIsFollowed() throws {
        XCTAssertEqual(try ruleIDs("""
        import HealthKit
        func refresh(_ store: HKHealthStore) {
            let allowed = store.authorizationStatus(for: HKQuantityType(.heartRate)) == .sharingAuthorized
            guard allowed else { return }
            fetchHeartRate()
        }
        """, only: "read-status-probed"), ["read-status-probed"])
    }

    func testOtherStoresSaveIsNotHealthKit() throws {
        XCTAssertEqual(try ruleIDs("""
        import HealthKit
        final class Rides {
            let healthStore = HKHealthStore()
            lazy var rideStore = RideStore(healthStore: healthStore)
            func finish(_ ride: Ride) throws {
                try rideStore.save(ride)
                try context.save()
            }
        }
        """, only: "cached-authorization"), [])
    }

    func testWrapperCompletionFlagIsTheWrappersBusiness() throws {
        XCTAssertEqual(try ruleIDs("""
        func connect() {
            HealthManager.shared.requestAuthorization { granted in
                if granted { self.showDashboard() }
            }
        }
        """, only: "success-read-as-granted"), [])
    }

    func testShorthandAndGuardedFlagStillSeen() throws {
        XCTAssertEqual(try ruleIDs("""
        import HealthKit
        func connect(_ store: HKHealthStore, types: Set<HKSampleType>) {
            store.requestAuthorization(toShare: types, read: nil) { ok, _ in
                guard ok else { return }
                DispatchQueue.main.async { self.beginWorkout() }
            }
        }
        """, only: "success-read-as-granted"), ["success-read-as-granted"])
    }

    func testErrorTextShownToPeopleIsFine() throws {
        XCTAssertEqual(try ruleIDs("""
        import HealthKit
        func report(_ error: Error) {
            print("Health access failed: \\(error.localizedDescription)")
            if (error as? HKError)?.code == .errorAuthorizationDenied { showSettingsHint() }
        }
        """), [])
    }

    func testOAuthRetryIsNotHealthKit() throws {
        XCTAssertEqual(try ruleIDs("""
        func refreshOAuth() async {
            for attempt in 0..<3 {
                try? await Task.sleep(for: .seconds(attempt))
                if await tokenClient.refreshOAuth() { return }
            }
        }
        """), [])
    }

    func testRequestInsideCompletionOfAnotherCallStillRaces() throws {
        XCTAssertEqual(try ruleIDs("""
        import HealthKit
        final class Model {
            let store = HKHealthStore()
            func start() {
                if HKHealthStore.isHealthDataAvailable() {
                    store.requestAuthorization(toShare: nil, read: [HKQuantityType(.stepCount)]) { _, _ in }
                }
                Task { await fetchSteps() }
            }
        }
        """, only: "data-before-authorization"), ["data-before-authorization"])
    }

    func testBrokenSourceDoesNotCrashTheScan() throws {
        _ = try ruleIDs("""
        func (((( { store.requestAuthorization(toShare: , read: ) { success in if success {
        """)
    }
}
