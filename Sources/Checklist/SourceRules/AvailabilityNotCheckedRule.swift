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
        instead. This rule looks at each target that uses HealthKit — the app, and each widget or extension, which \
        runs without the app's check — and reports one finding per target, at its first HealthKit call, when none of \
        that target's files consults it.
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
            // The app checks; its widget queries on its own without checking.
            .healthApp([
                "Sources/Availability.swift": """
                import HealthKit

                enum Health {
                    static var isAvailable: Bool { HKHealthStore.isHealthDataAvailable() }
                }
                """,
                "Widget/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>]),
                "Widget/Sources/Provider.swift": """
                import HealthKit

                struct StepsProvider {
                    let store = HKHealthStore()

                    func steps() async throws -> Double {
                        let descriptor = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum)
                        return try await descriptor.result(for: store)?.sumQuantity()?.doubleValue(for: .count()) ?? 0
                    }
                }
                """,
            ]),
            // JavaScript: the check only decides what a label shows; the request runs regardless.
            .reactNative(["js/src/Health.ts": """
            import { isHealthDataAvailable, requestAuthorization } from '@kingstinct/react-native-healthkit';

            export const healthLabel = () => (isHealthDataAvailable() ? 'Health ✅' : 'Health ❌');

            export async function connect() {
              await ↓requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] });
            }
            """]),
        ],
        nonTriggering: [
            .reactNative(["js/src/Health.ts": """
            import { isHealthDataAvailable, requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function connect() {
              if (!isHealthDataAvailable()) return false;
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] });
              return true;
            }
            """]),
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

    /// Per target: a widget or watch app that queries HealthKit needs its own check, whatever the app does.
    func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for target in context.usage.targetsUsingHealthKit {
            let sources = context.sources.filter { $0.target == target }
            if sources.contains(where: { $0.tree.mentions(HealthKitVocabulary.availabilityCheck) }) { continue }
            // JavaScript: a check counts only where it decides something (see `JavaScriptHealthKitFacts`).
            if context.usage.facts.contains(where: { $0.target == target && $0.kind == .availabilityCheck }) { continue }
            let facts = context.usage.facts.filter { $0.target == target && $0.kind != .availabilityCheck }
            guard let first = facts.first(where: { $0.kind == .authorizationRequest }) ?? facts.first else { continue }
            let isExtension = first.isExtension
            let message = isExtension
                ? "extension target `\(target)` uses HealthKit but never consults `HKHealthStore.isHealthDataAvailable()` in its own code: "
                    + "an extension runs without the app's check, and on devices without Health every call fails"
                : "HealthKit is used but `HKHealthStore.isHealthDataAvailable()` is never consulted anywhere in the app: "
                    + "on devices without Health (iPad before iPadOS 17, managed devices) every call fails"
            findings.append(Finding(ruleID: Self.description.id, severity: Self.description.severity, message: message,
                                    location: first.evidence.location, quote: first.evidence.quote, target: target))
        }
        return findings
    }
}
