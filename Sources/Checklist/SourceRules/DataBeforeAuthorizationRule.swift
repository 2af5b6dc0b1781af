import Manifest
import SwiftSyntax

/// A completion-handler request returns at once: code after it runs before the person answered.
struct DataBeforeAuthorizationRule: Rule {
    static let description = RuleDescription(
        id: "data-before-authorization", title: "Data accessed before authorization completes", severity: .error,
        questions: [], reads: [.swift],
        rationale: """
        `requestAuthorization(toShare:read:completion:)` returns immediately; the sheet is answered later and the \
        completion runs then. A query executed or a sample saved on the next line races the sheet: it fails with \
        `errorAuthorizationNotDetermined` (code 5) on first launch. Start reading and writing inside the completion, \
        or use the `async` form and `await` it first.
        """,
        triggering: [
            .healthApp(["Sources/Dashboard.swift": """
            import HealthKit

            final class Dashboard {
                let store = HKHealthStore()

                func start() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]) { _, _ in }
                    fetchTodaySteps()
                }

                func fetchTodaySteps() {}
            }
            """]),
            .healthApp(["Sources/Dashboard.swift": """
            import HealthKit

            final class Dashboard {
                let store = HKHealthStore()

                func start() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    if UserDefaults.standard.bool(forKey: "onboarded") {
                        store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]) { _, _ in }
                    }
                    let query = HKSampleQuery(sampleType: HKQuantityType(.heartRate), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in }
                    store.execute(query)
                }
            }
            """]),
        ],
        nonTriggering: [
            .healthApp(["Sources/Dashboard.swift": """
            import HealthKit

            final class Dashboard {
                let store = HKHealthStore()

                func start() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]) { _, error in
                        guard error == nil else { return }
                        self.fetchTodaySteps()
                    }
                }

                func fetchTodaySteps() {}
            }
            """]),
            .healthApp(["Sources/Dashboard.swift": """
            import HealthKit

            final class Dashboard {
                let store = HKHealthStore()

                func start() async {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    do {
                        try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                        await fetchTodaySteps()
                    } catch {
                        print("Health request failed: \\(error)")
                    }
                }

                func fetchTodaySteps() async {}
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let vocabulary = context.vocabulary
        return context.sources.flatMap { source in
            source.calls(named: "requestAuthorization").filter(vocabulary.isAuthorizationRequest).compactMap { request -> Finding? in
                guard ClosureShape.completion(of: request) != nil, !HealthKitVocabulary.isAwaited(request) else { return nil }
                let later = ControlFlow.statementsAfter(request).flatMap(\.calls)
                guard let access = later.first(where: HealthKitVocabulary.isDataAccess) else { return nil }
                let name = access.calledExpression.trimmedText
                return finding("`\(name)(…)` runs right after requestAuthorization (line \(source.lineOf(request))) without waiting for its completion: "
                               + "it races the permission sheet and fails with authorization not determined (code 5); move it into the completion "
                               + "or await the async form", at: access, in: source)
            }
        }
    }
}
