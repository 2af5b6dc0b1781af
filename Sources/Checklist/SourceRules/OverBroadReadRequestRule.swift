import Manifest
import SwiftSyntax

/// One request that asks to read a large share of everything HealthKit holds: the sheet becomes a
/// wall of switches, and App Review asks apps to request only the data their features use.
struct OverBroadReadRequestRule: Rule {
    /// Distinct types in one read set from which a request counts as asking for "everything".
    /// Dashboards that chart a dozen metrics stay well below; "collect all types" code is above.
    static let threshold = 40

    /// 39 quantity identifiers on one line (an example's list; one short of the threshold).
    static let dashboardIdentifiers = """
        .stepCount, .distanceWalkingRunning, .distanceCycling, .distanceSwimming, .activeEnergyBurned, \
        .basalEnergyBurned, .flightsClimbed, .appleExerciseTime, .appleStandTime, .heartRate, \
        .restingHeartRate, .walkingHeartRateAverage, .heartRateVariabilitySDNN, .oxygenSaturation, \
        .respiratoryRate, .bodyTemperature, .bloodPressureSystolic, .bloodPressureDiastolic, .bloodGlucose, \
        .bodyMass, .bodyMassIndex, .bodyFatPercentage, .leanBodyMass, .height, .waistCircumference, \
        .vo2Max, .dietaryEnergyConsumed, .dietaryWater, .dietaryCaffeine, .dietaryProtein, \
        .dietaryFatTotal, .dietaryCarbohydrates, .dietarySugar, .dietaryFiber, .dietarySodium, \
        .walkingSpeed, .walkingStepLength, .sixMinuteWalkTestDistance, .pushCount,
        """

    static let description = RuleDescription(
        id: "over-broad-read-request", title: "One request asks to read a large share of HealthKit", severity: .note,
        questions: [], reads: [.swift],
        rationale: """
        Apple asks apps to request authorization only for the data they need, when they need it, and App Review \
        (guideline 5.1.1) rejects apps that collect health data beyond their features. A single request for \
        \(threshold) or more types shows the person a long sheet of switches, most of which the app never uses; \
        many turn them all off, and the reviewer compares the list with the usage text. The set is often built \
        far from the request — a framework's "all types" default chosen when the app passes an empty set — so \
        the finding is placed where the app's own code starts the request, and names the path to it. Ask for \
        each feature's types when that feature first needs them.
        """,
        triggering: [
            .healthApp(["Sources/Collector.swift": """
            import HealthKit

            final class Collector {
                let store = HKHealthStore()

                func allTypes() -> Set<HKObjectType> {
                    var types: Set<HKObjectType> = [HKObjectType.workoutType()]
                    let quantities: [HKQuantityTypeIdentifier] = [
                        \(OverBroadReadRequestRule.dashboardIdentifiers)
                    ]
                    for identifier in quantities {
                        types.insert(HKObjectType.quantityType(forIdentifier: identifier)!)
                    }
                    types.insert(HKObjectType.categoryType(forIdentifier: .sleepAnalysis)!)
                    return types
                }

                func connect() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await ↓store.requestAuthorization(toShare: [], read: allTypes())
                }
            }
            """], read: [], share: []),
            // The framework picks "everything" when the app passes an empty set: the finding is at the app's call.
            .healthApp([
                "Packages/StudyKit/StudyKit.swift": """
                import HealthKit

                public final class StudyKit {
                    public static let shared = StudyKit()
                    let store = HKHealthStore()
                    var types: Set<HKObjectType> = []

                    /// The framework's public entry point forwards to the request: the app's call is the second caller.
                    public func start(with types: Set<HKObjectType>) {
                        authorize(forTypes: types) { _ in }
                    }

                    func authorize(forTypes requested: Set<HKObjectType>, _ done: @escaping (Bool) -> Void) {
                        guard HKHealthStore.isHealthDataAvailable() else { return done(false) }
                        if requested.isEmpty {
                            self.types = everything()
                        } else {
                            self.types = requested
                        }
                        store.requestAuthorization(toShare: nil, read: self.types) { _, _ in done(true) }
                    }

                    func everything() -> Set<HKObjectType> {
                        let identifiers: [HKQuantityTypeIdentifier] = [
                            \(OverBroadReadRequestRule.dashboardIdentifiers) .uvExposure,
                        ]
                        return Set(identifiers.map { HKQuantityType($0) })
                    }
                }
                """,
                "Sources/Onboarding.swift": """
                import HealthKit
                import StudyKit

                final class Onboarding {
                    private var typesToRead: Set<HKObjectType> = []

                    func askForHealth() {
                        ↓StudyKit.shared.start(with: typesToRead)
                    }
                }
                """,
            ], read: [], share: []),
        ],
        nonTriggering: [
            // What one screen charts, asked for when it opens.
            .healthApp(["Sources/Activity.swift": """
            import HealthKit

            final class Activity {
                let store = HKHealthStore()

                func open() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let read: Set<HKObjectType> = [HKQuantityType(.stepCount), HKQuantityType(.heartRate), HKQuantityType(.activeEnergyBurned),
                                                   HKCategoryType(.sleepAnalysis), HKObjectType.workoutType()]
                    try await store.requestAuthorization(toShare: [], read: read)
                }
            }
            """], read: [], share: []),
            // One short of the threshold: a full dashboard of 39 types.
            .healthApp(["Sources/Dashboard.swift": """
            import HealthKit

            func connectDashboard(_ store: HKHealthStore) async throws {
                let identifiers: [HKQuantityTypeIdentifier] = [
                    \(OverBroadReadRequestRule.dashboardIdentifiers)
                ]
                guard HKHealthStore.isHealthDataAvailable() else { return }
                try await store.requestAuthorization(toShare: [], read: Set(identifiers.map { HKQuantityType($0) }))
            }
            """], read: [], share: []),
            // Many types across several requests, each one a feature's own.
            .healthApp(["Sources/Features.swift": """
            import HealthKit

            final class Features {
                let store = HKHealthStore()

                func ask(for feature: [HKQuantityTypeIdentifier]) async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [], read: Set(feature.map { HKQuantityType($0) }))
                }

                func nutrition() async throws {
                    try await ask(for: [.dietaryEnergyConsumed, .dietaryWater, .dietaryCaffeine, .dietaryProtein, .dietaryFatTotal])
                }

                func vitals() async throws {
                    try await ask(for: [.heartRate, .restingHeartRate, .oxygenSaturation, .respiratoryRate, .bodyTemperature])
                }
            }
            """], read: [], share: []),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        context.resolvedRequests.compactMap { request -> Finding? in
            let names = request.read.distinctNames
            guard names.count >= Self.threshold else { return nil }
            let shown = names.prefix(5).map { "`\($0)`" }.joined(separator: ", ")
            let asks = "asks to read \(names.count) types (\(shown), and \(names.count - 5) more)"
            let advice = "Apple asks apps to request only the data they need, when they need it, and App Review compares the list with "
                + "the app's features and usage text; ask for each feature's types when it first needs them"
            // In a dependency, the place to change is the app's own call that leads there.
            if request.source.isDependency, let entry = request.read.callers.first(where: { !$0.source.isDependency }) {
                let at = request.source.location(of: request.call)
                return finding("this call to `\(entry.function)` leads to a HealthKit request that \(asks), made at \(at.file):\(at.line ?? 0); "
                               + advice, at: entry.call, in: entry.source)
            }
            return finding("this request \(asks); " + advice, at: request.call, in: request.source)
        }
    }
}
