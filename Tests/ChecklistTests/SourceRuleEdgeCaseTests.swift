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

    /// An app written in Swift 2 spells `HKHealthStore`'s methods the old way
    /// (`requestAuthorizationToShareTypes(_:readTypes:completion:)`, `saveObject(_:withCompletion:)`,
    /// `authorizationStatusForType(_:)`): the same request, writes and status check, with the types
    /// it asks for read from its arguments.
    func testSwift2SpellingsAreTheSameCalls() throws {
        let code = """
            import HealthKit

            class SleepStore {
                let hkHealthStore = HKHealthStore()
                let sleepType = HKCategoryType.categoryTypeForIdentifier(HKCategoryTypeIdentifierSleepAnalysis)!

                func connect(completion: Bool -> Void) {
                    hkHealthStore.requestAuthorizationToShareTypes(Set([sleepType]), readTypes: nil) { success, _ in
                        completion(success)
                    }
                }

                func save(sample: HKCategorySample) {
                    hkHealthStore.saveObject(sample) { _, _ in }
                }

                func remove(sample: HKCategorySample) {
                    hkHealthStore.deleteObject(sample) { _, _ in }
                }

                func lastNight(completion: [HKSample] -> Void) {
                    if hkHealthStore.authorizationStatusForType(sleepType) == HKAuthorizationStatus.SharingAuthorized {
                        let query = HKSampleQuery(sampleType: sleepType, predicate: nil, limit: 1, sortDescriptors: nil) { _, samples, _ in
                            completion(samples ?? [])
                        }
                        hkHealthStore.executeQuery(query)
                    }
                }
            }

            """
        let audit = Checklist().audit(try RuleExample.healthApp(["Sources/SleepStore.swift": code], read: [], share: []).load())
        XCTAssertEqual(audit.requestedShare, ["sleepAnalysis"])
        XCTAssertEqual(audit.requestedRead, [])
        let writes = try XCTUnwrap(audit.answers.first { $0.question == .writeStatusRechecked })
        XCTAssertEqual(writes.status, .no, writes.reason)
        XCTAssertEqual(writes.evidence.map(\.location.line), [14, 18], writes.reason)
        let probed = try XCTUnwrap(audit.answers.first { $0.question == .readStatusProbed })
        XCTAssertEqual(probed.status, .yes, probed.reason)
        XCTAssertEqual(probed.evidence.first?.location.line, 22, probed.reason)
    }

    /// A check in a sibling closure of a view's body (`.refreshable { … }` beside `.onReceive { … }`)
    /// runs at another time, if ever: it does not guard the request in the other closure (Sanpo's
    /// authorization service). The same check inside that closure does.
    func testAnAvailabilityCheckInASiblingClosureDoesNotGuard() throws {
        func availability(_ onReceive: String) throws -> Answer {
            let code = """
                import HealthKit
                import SwiftUI

                final class Steps: ObservableObject {
                    let store = HKHealthStore()
                    @Published var asked = false

                    func load() async {
                        if HKHealthStore.isHealthDataAvailable() {
                            _ = try? await HKStatisticsQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum).result(for: store)
                        }
                    }

                    func ask() {
                        store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)]) { _, _ in }
                    }
                }

                struct HomeView: View {
                    @StateObject var steps = Steps()

                    var body: some View {
                        Text("Steps")
                            .refreshable { await steps.load() }
                            .onReceive(steps.$asked) { asked in
                \(onReceive)
                            }
                    }
                }

                """
            let audit = Checklist().audit(try RuleExample.healthApp(["Sources/Home.swift": code], read: [], share: []).load())
            return try XCTUnwrap(audit.answers.first { $0.question == .availabilityChecked })
        }
        let sibling = try availability("                if !asked { steps.ask() }")
        XCTAssertEqual(sibling.status, .no, sibling.reason)
        XCTAssertEqual(sibling.evidence.first.map { "\($0.location.file):\($0.location.line ?? 0)" }, "apps/example/Sources/Home.swift:15", sibling.reason)
        let inside = try availability("                if !asked && HKHealthStore.isHealthDataAvailable() { steps.ask() }")
        XCTAssertEqual(inside.status, .yes, inside.reason)
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
        // A simulator-only branch does not ship either: an App Store build runs on devices.
        let simulator = try findings("#if targetEnvironment(simulator)\n" + probe + "\n#endif")
        XCTAssertEqual(simulator.map(\.severity), [.note])
        XCTAssertTrue(simulator.first?.message.hasSuffix("(in `#if targetEnvironment(simulator)` code, which does not ship)") == true, simulator.first?.message ?? "")
        XCTAssertEqual(try findings("#if !targetEnvironment(simulator)\n" + probe + "\n#endif").map(\.severity), [.error], "device-only code ships")
    }

    /// OpenCircuit's ECG probe sits in a calibration screen whose one entry is a DEBUG button: the
    /// sheet's flag is set only in `#if DEBUG` code, so the probe is softened one step and says where
    /// it is reached from. A flag a release button also sets, or a function also called from release
    /// code, keeps the error.
    func testFindingsReachedOnlyFromDebugCodeAreSoftened() throws {
        let manager = """
            import HealthKit

            final class CalibrationManager {
                let store = HKHealthStore()
                func begin() { checkECG() }
                private func checkECG() {
                    let ok = store.authorizationStatus(for: HKObjectType.electrocardiogramType()) == .sharingAuthorized
                    print(ok)
                }
            }
            """
        let screen = """
            import SwiftUI

            struct CalibrationView: View {
                let manager: CalibrationManager
                var body: some View { Button("Start") { manager.begin() } }
            }
            """
        func content(releaseSets: Bool) -> String {
            """
            import SwiftUI

            struct ContentView: View {
                @State private var showCalibration = false
                let manager = CalibrationManager()
                var body: some View {
                    List {
                        \(releaseSets ? "Button(\"Calibrate\") { showCalibration = true }" : "Text(\"Today\")")
                        #if DEBUG
                        Button("Calibrate") { showCalibration = true }
                        #endif
                    }
                    .sheet(isPresented: $showCalibration, onDismiss: { showCalibration = false }) {
                        CalibrationView(manager: manager)
                    }
                }
            }
            """
        }
        func findings(_ files: [String: String]) throws -> [Finding] {
            let rules = RuleCatalog.sourceRules.filter { $0.description.id == "read-status-probed" }.map { $0.init() }
            return Checklist(rules: rules).audit(try RuleExample.healthApp(files).load()).findings
        }
        let debugOnly = try findings(["Sources/Calibration.swift": manager, "Sources/CalibrationView.swift": screen,
                                      "Sources/ContentView.swift": content(releaseSets: false)])
        XCTAssertEqual(debugOnly.map(\.severity), [.warning])
        XCTAssertEqual(debugOnly.first?.location.line, 7)
        XCTAssertTrue(debugOnly.first?.message.hasSuffix("(reached only from `#if DEBUG` code, at apps/example/Sources/ContentView.swift:10)") == true,
                      debugOnly.first?.message ?? "")

        let shipped = try findings(["Sources/Calibration.swift": manager, "Sources/CalibrationView.swift": screen,
                                    "Sources/ContentView.swift": content(releaseSets: true)])
        XCTAssertEqual(shipped.map(\.severity), [.error])

        // Called from release code as well (a same-named call counts: the cautious answer).
        let alsoCalled = try findings(["Sources/Calibration.swift": manager, "Sources/CalibrationView.swift": screen,
                                       "Sources/ContentView.swift": content(releaseSets: false),
                                       "Sources/Onboarding.swift": "func onboard(_ manager: CalibrationManager) {\n    manager.begin()\n}\n"])
        XCTAssertEqual(alsoCalled.map(\.severity), [.error])

        // Never used at all is not "used only in DEBUG" (with DEBUG code elsewhere, so the search runs).
        XCTAssertEqual(try findings(["Sources/Calibration.swift": manager, "Sources/Log.swift": "#if DEBUG\nlet verbose = true\n#endif\n"]).map(\.severity), [.error])

        // The presented content setting its own flag (a close button) neither loops nor counts.
        let selfClosing = content(releaseSets: false).replacingOccurrences(of: "CalibrationView(manager: manager)", with: "CalibrationView(manager: manager).onDisappear { showCalibration = true }")
        XCTAssertEqual(try findings(["Sources/Calibration.swift": manager, "Sources/CalibrationView.swift": screen, "Sources/ContentView.swift": selfClosing]).map(\.severity), [.warning])

        // A flag that starts true (onboarding shown at first launch) is set by shipping code.
        let startsTrue = content(releaseSets: false).replacingOccurrences(of: "showCalibration = false\n", with: "showCalibration = true\n")
        XCTAssertEqual(try findings(["Sources/Calibration.swift": manager, "Sources/CalibrationView.swift": screen, "Sources/ContentView.swift": startsTrue]).map(\.severity), [.error])

        // A screen used only by its preview does not ship either.
        let previewOnly = try findings(["Sources/Calibration.swift": manager, "Sources/CalibrationView.swift": screen + """

            #Preview {
                CalibrationView(manager: CalibrationManager())
            }
            """])
        XCTAssertEqual(previewOnly.map(\.severity), [.warning])
        XCTAssertTrue(previewOnly.first?.message.hasSuffix("at apps/example/Sources/CalibrationView.swift:7)") == true, previewOnly.first?.message ?? "")
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
