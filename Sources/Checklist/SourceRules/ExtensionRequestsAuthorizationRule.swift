import Manifest
import SwiftSyntax

/// Widgets and other extensions cannot present the permission sheet.
struct ExtensionRequestsAuthorizationRule: Rule {
    static let description = RuleDescription(
        id: "extension-requests-authorization", title: "Extension requests HealthKit authorization", severity: .error,
        questions: [.widgetsDoNotRequest], reads: [.swift],
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
        let appFiles = Set(context.manifest.main.sources.map(\.path))
        let reach = ExtensionReach(sources: context.sources, appFiles: appFiles, widgetTypes: widgetTypes)
        return context.sources.flatMap { source in
            source.calls(named: "requestAuthorization").filter(vocabulary.isAuthorizationRequest).compactMap { call -> Finding? in
                if source.isExtension {
                    // A file the app compiles too asks for the app, unless the extension's own code calls into it.
                    if appFiles.contains(source.file.path) && !reach.reaches(call, in: source.target) { return nil }
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

/// Whether code of a file shared by the app and an extension runs in the extension: its function is
/// called, directly or through up to four other functions, from a file only the extension compiles
/// or from a widget provider (calls matched by name, as the app's own functions are).
struct ExtensionReach {
    let sources: [ParsedSource]
    let appFiles: Set<String>
    let widgetTypes: Set<String>

    func reaches(_ node: some SyntaxProtocol, in target: String) -> Bool {
        let own = sources.filter { $0.target == target }
        var names = [calledName(of: node)]
        var seen: Set<String> = []
        for _ in 0..<5 {
            var next: [String?] = []
            for case let name? in names where seen.insert(name).inserted {
                for source in own {
                    for call in source.calls(named: name) {
                        if !appFiles.contains(source.file.path) { return true }
                        if SyntaxScope.types(around: call).compactMap(SyntaxScope.typeName).contains(where: widgetTypes.contains) { return true }
                        next.append(calledName(of: call))
                    }
                }
            }
            if next.contains(where: { $0 == nil }) { return true }
            names = next
            if names.isEmpty { return false }
        }
        return true
    }

    /// The name a caller uses to run the code around `node`: its function's, its type's for an
    /// initializer; nil for code no name reaches (a property's closure, top-level code), taken as run.
    private func calledName(of node: some SyntaxProtocol) -> String? {
        let function = SyntaxScope.function(of: node)
        if let declaration = function.as(FunctionDeclSyntax.self) { return declaration.name.text }
        if function.is(InitializerDeclSyntax.self) { return SyntaxScope.types(around: node).first.flatMap(SyntaxScope.typeName) }
        return nil
    }
}
