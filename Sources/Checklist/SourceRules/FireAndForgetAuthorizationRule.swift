import Manifest
import SwiftSyntax

/// A `Task` started in `App.init()` does not hold anything back: the UI renders before it finishes.
struct FireAndForgetAuthorizationRule: Rule {
    static let description = RuleDescription(
        id: "fire-and-forget-authorization", title: "Authorization checked in a fire-and-forget task", severity: .warning,
        questions: [], reads: [.swift],
        rationale: """
        SwiftUI evaluates the `App`'s `body` as soon as `init()` returns. A `Task { }` started in `init()` to check or \
        request HealthKit access runs alongside: the first screens render — and start loading — with whatever \
        authorization state happened to be there, and the result depends on timing. Render from state instead: show a \
        neutral view until the check has completed (for example in a root view's `.task`), then the real UI.
        """,
        triggering: [
            .healthApp(["Sources/StepsApp.swift": """
            import SwiftUI

            @main
            struct StepsApp: App {
                init() {
                    Task { @MainActor in
                        await HealthAccess.shared.checkAuthorization()
                    }
                }

                var body: some Scene {
                    WindowGroup { ContentView() }
                }
            }
            """]),
            .healthApp(["Sources/StepsApp.swift": """
            import HealthKit
            import SwiftUI

            @main
            struct StepsApp: App {
                let store = HKHealthStore()

                init() {
                    let store = self.store
                    Task.detached {
                        guard HKHealthStore.isHealthDataAvailable() else { return }
                        try? await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                    }
                }

                var body: some Scene {
                    WindowGroup { ContentView() }
                }
            }
            """]),
        ],
        nonTriggering: [
            .healthApp(["Sources/StepsApp.swift": """
            import SwiftUI

            @main
            struct StepsApp: App {
                var body: some Scene {
                    WindowGroup { RootView() }
                }
            }

            struct RootView: View {
                @State private var isReady = false

                var body: some View {
                    Group {
                        if isReady {
                            ContentView()
                        } else {
                            ProgressView().task {
                                await HealthAccess.shared.refreshRequestStatus()
                                isReady = true
                            }
                        }
                    }
                }
            }
            """]),
            .healthApp(["Sources/StepsApp.swift": """
            import SwiftUI

            @main
            struct StepsApp: App {
                init() {
                    // Unrelated start-up work may run in the background.
                    Task { await ImageCache.shared.trim() }
                }

                var body: some Scene {
                    WindowGroup { ContentView() }
                }
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        context.sources.flatMap { source -> [Finding] in
            source.tree.collect(InitializerDeclSyntax.self).flatMap { initializer -> [Finding] in
                guard let type = SyntaxScope.types(around: initializer).first, SyntaxScope.inheritedTypes(of: type).contains("App"),
                      let body = initializer.body else { return [] }
                return body.calls.compactMap { call -> Finding? in
                    guard let task = ClosureShape.taskBody(call), touchesAuthorization(task) else { return nil }
                    let name = SyntaxScope.typeName(of: type) ?? "App"
                    return finding("`\(name).init()` starts a fire-and-forget Task that checks HealthKit authorization while the UI renders "
                                   + "regardless; render from state that is set once the check completes", at: call, in: source)
                }
            }
        }
    }

    private func touchesAuthorization(_ closure: ClosureExprSyntax) -> Bool {
        let apis = HealthKitVocabulary.requestStatusChecks.union(["requestAuthorization", HealthKitVocabulary.statusCheck])
        if closure.calls.contains(where: { apis.contains(ExprShape.calledName($0) ?? "") }) { return true }
        return HealthKitVocabulary.isAuthorizationRelated(closure)
    }
}
