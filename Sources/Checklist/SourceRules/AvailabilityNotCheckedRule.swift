import Manifest
import SwiftSyntax

/// An app that uses the store without ever asking `isHealthDataAvailable()` breaks on iPads without HealthKit.
struct AvailabilityNotCheckedRule: Rule {
    static let description = RuleDescription(
        id: "availability-not-checked", title: "Health data availability never checked", severity: .warning,
        questions: [.availabilityChecked],
        rationale: """
        HealthKit is missing on iPads before iPadOS 17 and can be restricted by device management: there every \
        HealthKit call fails with `errorHealthDataUnavailable`. An app should consult \
        `HKHealthStore.isHealthDataAvailable()` before asking for access or querying, and show a fitting state \
        instead. This rule looks at the whole app: one finding, at its first HealthKit call, when no file consults it.
        """,
        triggering: [
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()

                func ask() {
                    store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]) { _, _ in }
                }
            }
            """]),
            .healthApp(["Sources/Steps.swift": """
            import HealthKit

            struct StepsReader {
                let store: HKHealthStore

                func todaysSteps() async throws -> Double {
                    let descriptor = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum)
                    return try await descriptor.result(for: store)?.sumQuantity()?.doubleValue(for: .count()) ?? 0
                }
            }
            """]),
        ],
        nonTriggering: [
            .healthApp([
                "Sources/Availability.swift": """
                import HealthKit

                enum Health {
                    static var isAvailable: Bool { HKHealthStore.isHealthDataAvailable() }
                }
                """,
                "Sources/Access.swift": """
                import HealthKit

                final class Access {
                    let store = HKHealthStore()

                    func ask() async throws {
                        guard Health.isAvailable else { return }
                        try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                    }
                }
                """,
            ]),
            .healthApp(["Sources/Settings.swift": """
            import Foundation

            // No HealthKit call at all: nothing to check.
            struct Settings {
                var units = "metric"
                func save(to defaults: UserDefaults) { defaults.set(units, forKey: "units") }
            }
            """]),
        ]
    )

    /// Calls that only make sense on a HealthKit store, in order of preference for the evidence.
    private static let storeCalls: Set<String> = [
        "execute", "save", "authorizationStatus", "statusForAuthorizationRequest", "getRequestStatusForAuthorization",
        "enableBackgroundDelivery", "dateOfBirthComponents", "biologicalSex", "result", "results",
    ]

    func check(_ context: AuditContext) -> [Finding] {
        let checked = context.sources.contains { $0.tree.mentions(HealthKitVocabulary.availabilityCheck) }
        guard !checked else { return [] }
        let vocabulary = HealthKitVocabulary(sources: context.sources)
        let message = "HealthKit is used but `HKHealthStore.isHealthDataAvailable()` is never consulted anywhere in the app: "
            + "on devices without Health (iPad before iPadOS 17, managed devices) every call fails"
        for source in context.sources {
            if let request = source.tree.calls.first(where: vocabulary.isAuthorizationRequest) {
                return [finding(message, at: request, in: source)]
            }
        }
        for source in context.sources where source.usesHealthKit {
            if let call = source.tree.calls.first(where: { isStoreCall($0, vocabulary) }) {
                return [finding(message, at: call, in: source)]
            }
        }
        return []
    }

    private func isStoreCall(_ call: FunctionCallExprSyntax, _ vocabulary: HealthKitVocabulary) -> Bool {
        guard let name = ExprShape.calledName(call), Self.storeCalls.contains(name) else { return false }
        switch name {
        case "result", "results": return ExprShape.labels(call) == ["for"]
        case "save": return !call.arguments.isEmpty && vocabulary.isStoreReceiver(ExprShape.base(of: call))
        case "execute": return !call.arguments.isEmpty
        default: return true
        }
    }
}
