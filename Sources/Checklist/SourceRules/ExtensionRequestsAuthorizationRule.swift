import Manifest
import SwiftSyntax

/// Widgets and other extensions cannot present the permission sheet.
struct ExtensionRequestsAuthorizationRule: Rule {
    static let description = RuleDescription(
        id: "extension-requests-authorization", title: "Extension requests HealthKit authorization", severity: .error,
        questions: [.widgetsDoNotRequest],
        rationale: """
        A widget, its timeline provider or any other app extension cannot show HealthKit's permission sheet: \
        `requestAuthorization` there fails or silently does nothing, and the person is never asked. Extensions rely on \
        what the containing app was granted. Use `statusForAuthorizationRequest(toShare:read:)` to find out whether \
        the app still has to ask, and show an "open the app" state instead.
        """,
        triggering: [
            .healthApp([
                "Widget/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>]),
                "Widget/Sources/Provider.swift": """
                import HealthKit
                import WidgetKit

                struct StepsEntry: TimelineEntry { let date: Date }

                struct Provider: TimelineProvider {
                    let store = HKHealthStore()

                    func placeholder(in context: Context) -> StepsEntry { StepsEntry(date: .now) }

                    func getSnapshot(in context: Context, completion: @escaping (StepsEntry) -> Void) { completion(StepsEntry(date: .now)) }

                    func getTimeline(in context: Context, completion: @escaping (Timeline<StepsEntry>) -> Void) {
                        Task {
                            try? await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                            completion(Timeline(entries: [StepsEntry(date: .now)], policy: .atEnd))
                        }
                    }
                }
                """,
            ]),
            // Provider code compiled into the app target is still a provider.
            .healthApp(["Sources/StepsWidget.swift": """
            import HealthKit
            import WidgetKit

            struct StepsEntry: TimelineEntry { let date: Date }

            struct StepsProvider {
                let healthStore = HKHealthStore()
            }

            extension StepsProvider: TimelineProvider {
                func placeholder(in context: Context) -> StepsEntry { StepsEntry(date: .now) }
                func getSnapshot(in context: Context, completion: @escaping (StepsEntry) -> Void) { completion(StepsEntry(date: .now)) }
                func getTimeline(in context: Context, completion: @escaping (Timeline<StepsEntry>) -> Void) {
                    healthStore.requestAuthorization(toShare: nil, read: [HKQuantityType(.stepCount)]) { _, _ in
                        completion(Timeline(entries: [StepsEntry(date: .now)], policy: .atEnd))
                    }
                }
            }
            """]),
        ],
        nonTriggering: [
            .healthApp([
                "Widget/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>]),
                "Widget/Sources/Provider.swift": """
                import HealthKit
                import WidgetKit

                struct StepsEntry: TimelineEntry { let date: Date; let needsApp: Bool }

                struct Provider: TimelineProvider {
                    let store = HKHealthStore()

                    func placeholder(in context: Context) -> StepsEntry { StepsEntry(date: .now, needsApp: false) }

                    func getSnapshot(in context: Context, completion: @escaping (StepsEntry) -> Void) { completion(placeholder(in: context)) }

                    func getTimeline(in context: Context, completion: @escaping (Timeline<StepsEntry>) -> Void) {
                        Task {
                            guard HKHealthStore.isHealthDataAvailable() else { return }
                            let status = try? await store.statusForAuthorizationRequest(toShare: [], read: [HKQuantityType(.stepCount)])
                            let entry = StepsEntry(date: .now, needsApp: status == .shouldRequest)
                            completion(Timeline(entries: [entry], policy: .atEnd))
                        }
                    }
                }
                """,
            ]),
            .healthApp([
                "Sources/Access.swift": """
                import HealthKit
                import UserNotifications

                final class Access {
                    let store = HKHealthStore()

                    func ask() async throws {
                        guard HKHealthStore.isHealthDataAvailable() else { return }
                        try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                    }
                }
                """,
                "Widget/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>]),
                // Notification permission in an extension is not HealthKit's.
                "Widget/Sources/Reminders.swift": """
                import UserNotifications

                func askForReminders() async throws -> Bool {
                    try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound])
                }
                """,
            ]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let vocabulary = context.vocabulary
        let widgetTypes = Set(context.usage.widgetProviders.map(\.type))
        return context.sources.flatMap { source in
            source.calls(named: "requestAuthorization").filter(vocabulary.isAuthorizationRequest).compactMap { call -> Finding? in
                if source.isExtension {
                    return finding("requestAuthorization in extension target `\(source.target)`: extensions cannot present the HealthKit "
                                   + "permission sheet; ask in the app and use statusForAuthorizationRequest here", at: call, in: source)
                }
                guard let type = SyntaxScope.types(around: call).compactMap(SyntaxScope.typeName).first(where: widgetTypes.contains) else { return nil }
                return finding("requestAuthorization inside `\(type)`, a widget/timeline provider: widgets cannot present the HealthKit "
                               + "permission sheet; ask in the app and use statusForAuthorizationRequest here", at: call, in: source)
            }
        }
    }
}
