import Manifest
import SwiftSyntax

/// A workout route requested without the workout type in the same set: the
/// route is saved to a workout and read through one, so either half alone does nothing.
struct RouteWithoutWorkoutRule: Rule {
    static let description = RuleDescription(
        id: "route-without-workout", title: "Workout route requested without workouts", severity: .warning,
        questions: [], reads: [.swift],
        rationale: """
        Routes (`HKSeriesType.workoutRoute()`) belong to a workout: an app saves a route \
        with `HKWorkoutRouteBuilder` into a workout it may write, and finds routes by querying the workout it \
        may read. Asking for the route without `HKObjectType.workoutType()` in the same direction leaves the \
        permission unusable — saves fail, queries find no workout — and the person is asked for something the \
        app cannot use.
        """,
        triggering: [
            .healthApp(["Sources/Routes.swift": """
            import HealthKit

            final class Routes {
                let store = HKHealthStore()

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [HKObjectType.workoutType(), HKSeriesType.workoutRoute()],
                                                         read: [↓HKSeriesType.workoutRoute()])
                }
            }
            """], read: ["workoutRoute"], share: ["workout", "workoutRoute"]),
            .healthApp(["Sources/Rides.swift": """
            import HealthKit

            final class Rides {
                let store = HKHealthStore()
                private let shared: Set<HKSampleType> = [↓HKSeriesType.workoutRoute(), HKQuantityType(.distanceCycling)]

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: shared, read: [HKObjectType.workoutType()])
                }
            }
            """], read: ["workout"], share: ["workoutRoute", "distanceCycling"]),
        ],
        nonTriggering: [
            // Heartbeat series belong to heart-rate-variability samples: no workout is needed.
            .healthApp(["Sources/Beats.swift": """
            import HealthKit

            final class Beats {
                let store = HKHealthStore()
                private let series: Set<HKSampleType> = [HKSeriesType.heartbeat(), HKQuantityType(.heartRateVariabilitySDNN)]

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [], read: series)
                }
            }
            """], read: ["heartbeat", "heartRateVariabilitySDNN"], share: []),
            .healthApp(["Sources/Routes.swift": """
            import HealthKit

            final class Routes {
                let store = HKHealthStore()

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let types: Set = [HKObjectType.workoutType(), HKSeriesType.workoutRoute()]
                    try await store.requestAuthorization(toShare: types, read: types)
                }
            }
            """], read: ["workout", "workoutRoute"], share: ["workout", "workoutRoute"]),
            // Workouts without routes are fine: the route is the half that needs the other.
            .healthApp(["Sources/Routes.swift": """
            import HealthKit

            final class Routes {
                let store = HKHealthStore()

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKObjectType.workoutType(), HKQuantityType(.heartRate)])
                }
            }
            """], read: ["workout", "heartRate"], share: ["workout"]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        context.resolvedRequests.flatMap { request in
            [("share", request.share), ("read", request.read)].flatMap { direction, set in
                let names = Set(set.names.map(\.name))
                return set.names.compactMap { name, node, source -> Finding? in
                    guard let companion = HealthKitType.named(name)?.companion, !names.contains(companion) else { return nil }
                    let verb = direction == "share" ? "sharing" : "reading"
                    return finding("`\(name)` is asked for \(verb) without `\(companion)`: it belongs to a workout, so without "
                                   + "\(verb) workouts the permission cannot be used", at: node, in: source)
                }
            }
        }
    }
}
