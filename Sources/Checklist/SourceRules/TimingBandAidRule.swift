import Manifest
import SwiftSyntax

/// Sleeping or retrying until authorization "settles" guesses at timing instead of waiting for the answer.
struct TimingBandAidRule: Rule {
    static let description = RuleDescription(
        id: "timing-band-aid", title: "Delay or retry loop around authorization", severity: .warning,
        questions: [], reads: [.swift],
        rationale: """
        `Task.sleep`, `asyncAfter`, `Thread.sleep` or a loop of attempts around authorization guesses how long the \
        sheet or the first check takes. Slow devices, cold starts and OS updates take longer than any constant, so \
        the bug comes back under other timing. Await the request or the check, and drive the UI from state set when \
        it has completed.
        """,
        triggering: [
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            @MainActor
            final class Access {
                let store = HKHealthStore()
                var isAuthorized = false

                func verify() async {
                    // HealthKit reports stale values for a moment after the sheet closes.
                    try? await Task.sleep(nanoseconds: 500_000_000)
                    isAuthorized = store.authorizationStatus(for: HKObjectType.workoutType()) == .sharingAuthorized
                }
            }
            """]),
            .healthApp(["Sources/Today.swift": """
            import HealthKit

            @MainActor
            final class TodayModel {
                let store = HKHealthStore()
                var isAuthorized = false
                var attempts = 0

                func loadWhenReady() async {
                    while !isAuthorized && attempts < 50 {
                        attempts += 1
                        isAuthorized = store.authorizationStatus(for: HKObjectType.workoutType()) == .sharingAuthorized
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                    await load()
                }

                func load() async {}
            }
            """]),
            .healthApp(["Sources/Onboarding.swift": """
            import UIKit

            final class OnboardingController: UIViewController {
                let access = HealthAccess()

                override func viewDidAppear(_ animated: Bool) {
                    super.viewDidAppear(animated)
                    // The sheet doesn't show if we ask too early.
                    DispatchQueue.main.asyncAfter(deadline: .now() + 0.5) {
                        self.access.requestAuthorization()
                    }
                }
            }
            """]),
            // A wait in the request's completion before reading, "for the permissions to settle".
            .healthApp(["Sources/Steps.swift": """
            import HealthKit

            final class Steps {
                let store = HKHealthStore()

                func connect() {
                    store.requestAuthorization(toShare: nil, read: [HKQuantityType(.stepCount)]) { _, _ in
                        ↓DispatchQueue.main.asyncAfter(deadline: .now() + 1) {
                            self.load()
                        }
                    }
                }

                func load() {}
            }
            """]),
        ],
        nonTriggering: [
            // One awaited request, then a refresh every five minutes: the loop's pause is its period.
            .healthApp(["Sources/StepTracker.swift": """
            import HealthKit
            @MainActor
            final class StepTracker {
                let store = HKHealthStore()
                var steps = 0.0
                private var pollTask: Task<Void, Never>?
                func startPolling() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    pollTask = Task { [weak self] in
                        try? await self?.store.requestAuthorization(toShare: [HKObjectType.workoutType()],
                                                                   read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                        while !Task.isCancelled {
                            await self?.refresh()
                            try? await Task.sleep(for: .seconds(300))
                        }
                    }
                }
                func refresh() async {}
            }
            """]),
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            @MainActor
            final class Access {
                let store = HKHealthStore()
                var needsRequest = true

                func refresh() async {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let status = try? await store.statusForAuthorizationRequest(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount)])
                    needsRequest = status != .unnecessary
                }
            }
            """]),
            // Delays in a function that asks for authorization, before clearing a status line and before
            // reading steps once a Live Activity has started: they wait for something else.
            .healthApp(["Sources/LiveSession.swift": """
            import HealthKit

            final class LiveSession {
                let store = HKHealthStore()
                var status: String?

                func start(onSteps: @escaping (Double) -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    store.requestAuthorization(toShare: [HKObjectType.workoutType()],
                                               read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]) { _, _ in
                        self.startActivity {
                            DispatchQueue.main.asyncAfter(deadline: .now() + 0.5) {
                                self.fetchTodaySteps(onSteps)
                            }
                        }
                    }
                    status = "Started"
                    DispatchQueue.main.asyncAfter(deadline: .now() + 5) { self.status = nil }
                }

                func startActivity(_ done: @escaping () -> Void) { done() }
                func fetchTodaySteps(_ done: @escaping (Double) -> Void) { done(0) }
            }
            """]),
            .healthApp(["Sources/Ticker.swift": """
            import Foundation

            // A delay that has nothing to do with authorization.
            func pulse(_ update: @escaping () -> Void) async {
                for _ in 0..<3 {
                    update()
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let vocabulary = context.vocabulary
        // Only code that asks HealthKit about authorization: delays around EventKit's or a sign-in
        // flow's authorization are not this rule's business.
        func asksHealthKit(_ node: some SyntaxProtocol) -> Bool {
            node.calls.contains { call in
                vocabulary.isAuthorizationRequest(call)
                    || (HealthKitVocabulary.isStatusCheck(call) && vocabulary.isStoreReceiver(ExprShape.base(of: call)))
                    || ExprShape.calledName(call).map(HealthKitVocabulary.requestStatusChecks.contains) == true
                    || (ExprShape.calledName(call) == "requestAuthorization" && Self.isHealthTyped(ExprShape.base(of: call)))
            }
        }
        // The app's own functions that ask the status (`verifyAccess()` after the wait).
        func callsStatusHelper(_ node: some SyntaxProtocol) -> Bool {
            node.calls.contains { ExprShape.calledName($0).map { context.statusHelpers[$0] != nil } == true }
        }
        /// A wait for the answer: what runs after it asks about authorization (its closure, the statements
        /// after a sleep, the statement before it), or it sits right in a request's completion. A delay
        /// before clearing a status text or starting a Live Activity, in the same function, waits for something else.
        func waitsForTheAnswer(_ call: FunctionCallExprSyntax, closure: ClosureExprSyntax?) -> Bool {
            if Self.isInRequestCompletion(call, vocabulary: vocabulary) { return true }
            if let closure { return asksHealthKit(closure) }
            return Self.statementBefore(call).map(asksHealthKit) == true
                || Self.statements(after: call).contains { asksHealthKit($0) || callsStatusHelper($0) }
        }
        return context.sources.flatMap { source -> [Finding] in
            var findings: [Finding] = []
            var flaggedLoops: [Syntax] = []
            for loop in loops(in: source.tree) where isRetryLoop(loop) && asksHealthKit(SyntaxScope.function(of: loop.node)) {
                flaggedLoops.append(loop.node)
                findings.append(finding("retry loop waiting for authorization (`\(loop.header)`): it guesses how long the check takes; "
                                        + "await the check and render from its result", at: loop.node, in: source))
            }
            for call in source.calls(named: ["sleep", "usleep", "asyncAfter"]) where isDelay(call) && !flaggedLoops.contains(where: { $0.encloses(call) }) {
                let function = SyntaxScope.function(of: call)
                let closure = ClosureShape.completion(of: call)
                guard HealthKitVocabulary.isAuthorizationRelated(function) || (closure.map(HealthKitVocabulary.isAuthorizationRelated) ?? false)
                else { continue }
                guard asksHealthKit(function) || (closure.map(asksHealthKit) ?? false), waitsForTheAnswer(call, closure: closure) else { continue }
                // The pause of a loop that asks nothing about authorization is its period (refresh
                // every five minutes after one awaited request), not a wait for the answer.
                if let loop = Self.enclosingLoop(of: call), !asksHealthKit(loop) { continue }
                findings.append(finding("`\(call.calledExpression.trimmedText)` delays around HealthKit authorization: a fixed wait is "
                                        + "wrong on some device; await the request or check instead", at: call, in: source))
            }
            return findings
        }
    }

    /// The statements after the one holding `call`, in its block and in each block around it up to its
    /// function or closure: what runs once a blocking sleep has returned.
    static func statements(after call: FunctionCallExprSyntax) -> [CodeBlockItemSyntax] {
        var result: [CodeBlockItemSyntax] = []
        var node = Syntax(call)
        while let parent = node.parent, !parent.is(FunctionDeclSyntax.self), !parent.is(ClosureExprSyntax.self) {
            if let item = node.as(CodeBlockItemSyntax.self), let list = parent.as(CodeBlockItemListSyntax.self) {
                result += list.filter { $0.position > item.position }
            }
            node = parent
        }
        return result
    }

    /// The statement right before the one holding `call` in its block (`try await store.requestAuthorization(…)`
    /// just before `try await Task.sleep(…)`).
    static func statementBefore(_ call: FunctionCallExprSyntax) -> CodeBlockItemSyntax? {
        guard let item = Syntax(call).ancestors.first(where: { $0.is(CodeBlockItemSyntax.self) })?.as(CodeBlockItemSyntax.self),
              let list = item.parent?.as(CodeBlockItemListSyntax.self) else { return nil }
        return list.last { $0.position < item.position }
    }

    /// Whether the innermost closure around `call` is the completion of a HealthKit authorization request.
    static func isInRequestCompletion(_ call: FunctionCallExprSyntax, vocabulary: HealthKitVocabulary) -> Bool {
        guard let closure = Syntax(call).ancestors.first(where: { $0.is(ClosureExprSyntax.self) }),
              let request = closure.ancestors.first(where: { $0.is(FunctionCallExprSyntax.self) })?.as(FunctionCallExprSyntax.self),
              ClosureShape.completion(of: request).map({ Syntax($0).id == closure.id }) == true else { return false }
        return vocabulary.isAuthorizationRequest(request)
    }

    /// The innermost `while`, `repeat` or `for` around `call`, within its function.
    static func enclosingLoop(of call: FunctionCallExprSyntax) -> Syntax? {
        var node = Syntax(call).parent
        while let current = node, !current.is(FunctionDeclSyntax.self), !current.is(ClosureExprSyntax.self) {
            if current.is(WhileStmtSyntax.self) || current.is(RepeatStmtSyntax.self) || current.is(ForStmtSyntax.self) { return current }
            node = current.parent
        }
        return nil
    }

    /// `access.requestAuthorization()` where `access` is declared in the file as `HealthAccess()` or `: HealthManager`.
    static func isHealthTyped(_ base: ExprSyntax?) -> Bool {
        guard let base, let name = ExprShape.referencedName(base) else { return false }
        return base.root.collect(PatternBindingSyntax.self).contains { binding in
            guard binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name else { return false }
            let declared = (binding.typeAnnotation?.type.trimmedText ?? "") + (binding.initializer?.value.trimmedText ?? "")
            return declared.lowercased().contains("health")
        }
    }

    /// `retryCount` → ["retry", "count"]; `maxAttempts` → ["max", "attempts"].
    static func words(of name: String) -> [String] {
        var words: [String] = [], current = ""
        for character in name {
            if character.isUppercase || character == "_" {
                if !current.isEmpty { words.append(current) }
                current = character == "_" ? "" : String(character).lowercased()
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `Task.sleep`, `Thread.sleep`, `sleep`/`usleep`, `….asyncAfter(deadline:)`.
    private func isDelay(_ call: FunctionCallExprSyntax) -> Bool {
        guard let name = ExprShape.calledName(call) else { return false }
        let base = ExprShape.base(of: call)?.trimmedText
        switch name {
        case "sleep": return base == nil || base == "Task" || base == "Thread"
        case "usleep": return base == nil
        case "asyncAfter": return true
        default: return false
        }
    }

    private struct Loop {
        let node: Syntax
        /// Condition or `for` header as written.
        let header: String
        let condition: Syntax?
        let body: Syntax
    }

    private func loops(in tree: SourceFileSyntax) -> [Loop] {
        tree.collect(WhileStmtSyntax.self).map { Loop(node: Syntax($0), header: $0.conditions.trimmedText, condition: Syntax($0.conditions), body: Syntax($0.body)) }
            + tree.collect(RepeatStmtSyntax.self).map { Loop(node: Syntax($0), header: $0.condition.trimmedText, condition: Syntax($0.condition), body: Syntax($0.body)) }
            + tree.collect(ForStmtSyntax.self).map {
                Loop(node: Syntax($0), header: "for \($0.pattern.trimmedText) in \($0.sequence.trimmedText)", condition: nil, body: Syntax($0.body))
            }
    }

    /// A loop whose condition tests an authorization flag, or a counted retry loop in authorization code.
    private func isRetryLoop(_ loop: Loop) -> Bool {
        if let condition = loop.condition, condition.mentions(HealthKitVocabulary.isAuthorizationFlag) { return true }
        // Whole words of camel-case names: `retryCount` counts, `entries` does not.
        let counted = Syntax(loop.node).mentions { name in
            Self.words(of: name).contains { ["attempt", "attempts", "retry", "retries", "tries"].contains($0) }
        }
        let waits = loop.body.calls.contains(where: isDelay)
        guard counted || waits else { return false }
        return HealthKitVocabulary.isAuthorizationRelated(loop.body)
            || (counted && HealthKitVocabulary.isAuthorizationRelated(SyntaxScope.function(of: loop.node)))
    }
}
