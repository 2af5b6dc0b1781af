import Manifest
import SwiftSyntax

/// Permissions change in Settings at any time; a remembered answer goes stale.
struct CachedAuthorizationRule: Rule {
    static let description = RuleDescription(
        id: "cached-authorization", title: "Authorization cached instead of re-checked", severity: .warning,
        questions: [.writeStatusRechecked],
        rationale: """
        People switch HealthKit permissions on and off in Settings › Health whenever they like. A save gated by a \
        remembered "authorized" flag (`UserDefaults`, `@AppStorage`) goes on trusting it after access was withdrawn, \
        and a save whose failure is dropped (`try?`, a completion handler that ignores its error) loses the data \
        without a word. Ask `authorizationStatus(for:)` right before each save, or at least catch the save's error and \
        tell the person. A save whose error is caught or thrown on is not reported.
        """,
        triggering: [
            .healthApp(["Sources/WorkoutSaver.swift": """
            import HealthKit

            struct WorkoutSaver {
                let healthStore: HKHealthStore

                func save(_ workout: HKWorkout) async {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try? await ↓healthStore.save(workout)
                }
            }
            """]),
            .healthApp(["Sources/Journal.swift": """
            import HealthKit

            final class Journal {
                let store = HKHealthStore()
                var healthConnected: Bool { UserDefaults.standard.bool(forKey: "healthKitAuthorized") }

                func log(_ sample: HKQuantitySample) {
                    guard HKHealthStore.isHealthDataAvailable(), healthConnected else { return }
                    ↓store.save(sample) { success, error in
                        if let error { print("not saved: \\(error)") }
                    }
                }
            }
            """]),
            // Gated by a flag read back right there, the error thrown on: the flag is what is trusted.
            .healthApp(["Sources/RideExport.swift": """
            import HealthKit

            struct RideExport {
                let store: HKHealthStore

                func export(_ workout: HKWorkout) async throws {
                    guard UserDefaults.standard.bool(forKey: "healthKitAuthorized") else { return }
                    try await ↓store.save(workout)
                }
            }
            """]),
            .healthApp(["Sources/Mindful.swift": """
            import HealthKit

            let store = HKHealthStore()

            func logSession(_ sample: HKCategorySample) {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                ↓store.save(sample) { _, _ in }
            }
            """]),
        ],
        nonTriggering: [
            // The failure is seen: caught, or thrown on to the caller (the real apps' usual writers).
            .healthApp(["Sources/WorkoutSaver.swift": """
            import HealthKit

            struct WorkoutSaver {
                let healthStore: HKHealthStore

                func save(_ workout: HKWorkout) async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await healthStore.save(workout)
                }

                func saveAll(_ samples: [HKSample]) async -> Bool {
                    do {
                        try await healthStore.save(samples)
                        return true
                    } catch {
                        return false
                    }
                }
            }
            """]),
            .healthApp(["Sources/WorkoutSaver.swift": """
            import HealthKit

            struct WorkoutSaver {
                let healthStore: HKHealthStore

                func save(_ workout: HKWorkout) async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    guard healthStore.authorizationStatus(for: .workoutType()) == .sharingAuthorized else { return }
                    try await healthStore.save(workout)
                }
            }
            """]),
            // Checked through a helper, and in the only caller of a private writer (seen in real apps).
            .healthApp(["Sources/Writer.swift": """
            import HealthKit

            final class Writer {
                let store = HKHealthStore()

                var canWriteSleep: Bool { store.authorizationStatus(for: HKCategoryType(.sleepAnalysis)) == .sharingAuthorized }

                func flush(_ samples: [HKCategorySample]) async {
                    guard HKHealthStore.isHealthDataAvailable(), canWriteSleep else { return }
                    await writeAll(samples)
                }

                private func writeAll(_ samples: [HKCategorySample]) async {
                    try? await store.save(samples)
                }
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let vocabulary = context.vocabulary
        let helpers = Self.statusHelpers(context.sources)
        let index = CallIndex(context.sources)
        let remembered = AuthorizationRememberedRule.rememberedNames(context.sources)
        return context.sources.flatMap { source in
            uncheckedSaves(source, vocabulary, helpers: helpers, calls: index, remembered: remembered)
        }
    }

    /// Functions and computed properties whose body asks `authorizationStatus(for:)` (`func canWrite()
    /// -> Bool`, `var isShareAuthorized: Bool`): calling one is a fresh check too.
    static func statusHelpers(_ sources: [ParsedSource]) -> Set<String> {
        var names: Set<String> = []
        for source in sources {
            // Every function or accessor around a status check, found from the checks up.
            for check in source.calls(named: HealthKitVocabulary.statusCheck) {
                for ancestor in check.ancestors {
                    if let function = ancestor.as(FunctionDeclSyntax.self), let body = function.body, body.encloses(check) {
                        names.insert(function.name.text)
                    } else if let binding = ancestor.as(PatternBindingSyntax.self), let accessors = binding.accessorBlock, accessors.encloses(check),
                              binding.parent?.parent?.is(VariableDeclSyntax.self) == true,
                              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                        names.insert(name)
                    }
                }
            }
        }
        return names
    }

    /// `store.save(x)` with no `authorizationStatus(for:)` before it — in the same function, through a
    /// helper that asks it, or, for a private function, in every one of its callers — that either
    /// trusts a remembered flag instead or swallows the failure (`try?`, a completion that ignores
    /// its error). A save whose error is caught or thrown on is not reported: the failure is seen.
    private func uncheckedSaves(_ source: ParsedSource, _ vocabulary: HealthKitVocabulary, helpers: Set<String>, calls: CallIndex,
                                remembered: Set<String>) -> [Finding] {
        source.calls(named: "save").compactMap { call -> Finding? in
            guard !call.arguments.isEmpty, vocabulary.isStoreReceiver(ExprShape.base(of: call)) else { return nil }
            guard !isChecked(before: Syntax(call), helpers: helpers, calls: calls, depth: 0) else { return nil }
            let function = SyntaxScope.function(of: Syntax(call))
            if let read = function.calls.first(where: { $0.position < call.position && AuthorizationRememberedRule.isDefaultsRead($0, source) }) {
                return finding("saves to HealthKit trusting an answer read back from UserDefaults (line \(source.lineOf(read))) instead of a fresh "
                               + "`authorizationStatus(for:)` check: write access may have been switched off in Settings since", at: call, in: source)
            }
            if let flag = function.tokens(viewMode: .sourceAccurate).first(where: { $0.position < call.position && remembered.contains($0.text) }) {
                return finding("saves to HealthKit trusting the remembered `\(flag.text)` instead of a fresh `authorizationStatus(for:)` check: "
                               + "write access may have been switched off in Settings since", at: call, in: source)
            }
            guard let swallowed = Self.swallowedFailure(of: call) else { return nil }
            return finding("saves to HealthKit without a fresh `authorizationStatus(for:)` check and \(swallowed): if write access was "
                           + "switched off, the data is lost and nobody is told", at: call, in: source)
        }
    }

    /// How a save's failure is dropped, or nil when it is caught or thrown on.
    static func swallowedFailure(of call: FunctionCallExprSyntax) -> String? {
        var node = Syntax(call).parent
        while let current = node, !current.is(CodeBlockItemSyntax.self) {
            if let attempt = current.as(TryExprSyntax.self), attempt.questionOrExclamationMark != nil {
                return "drops its error with `try\(attempt.questionOrExclamationMark!.text)`"
            }
            node = current.parent
        }
        let closure = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self)
        guard let closure else { return nil }
        let parameters = closure.signature?.parameterClause.map { clause -> [String] in
            if let list = clause.as(ClosureShorthandParameterListSyntax.self) { return list.map(\.name.text) }
            if let list = clause.as(ClosureParameterClauseSyntax.self) { return list.parameters.map { ($0.secondName ?? $0.firstName).text } }
            return []
        } ?? []
        let used = Set(closure.statements.tokens(viewMode: .sourceAccurate).map(\.text))
        if parameters.isEmpty { return used.contains("$1") ? nil : "ignores the error its completion handler receives" }
        return parameters.contains(where: { $0 != "_" && used.contains($0) }) ? nil : "ignores the success and error its completion handler receives"
    }

    /// Every call of the app by called name, to find a function's callers; merged from the files'
    /// own indexes the first time a save's function has to be traced to its callers.
    final class CallIndex {
        private let sources: [ParsedSource]
        init(_ sources: [ParsedSource]) { self.sources = sources }

        lazy var byName: [String: [FunctionCallExprSyntax]] = {
            var merged: [String: [FunctionCallExprSyntax]] = [:]
            for source in sources {
                for (name, calls) in source.callsByName { merged[name, default: []].append(contentsOf: calls) }
            }
            return merged
        }()
    }

    /// Whether a status check runs before `node` in its function, or every caller of the function
    /// in the app checks before calling it (a writer called only from a guarded flush).
    private func isChecked(before node: Syntax, helpers: Set<String>, calls: CallIndex, depth: Int) -> Bool {
        let function = SyntaxScope.function(of: node)
        let checksHere = function.calls.contains { call in
            call.position < node.position && (HealthKitVocabulary.isStatusCheck(call) || ExprShape.calledName(call).map(helpers.contains) == true)
        } || (!helpers.isEmpty && function.tokens(viewMode: .sourceAccurate).contains { token in
            token.position < node.position && helpers.contains(token.text)
        })
        if checksHere { return true }
        guard depth < 4, let declaration = function.as(FunctionDeclSyntax.self) else { return false }
        let name = declaration.name.text
        let callers = (calls.byName[name] ?? []).filter { !declaration.encloses(Syntax($0)) }
        return !callers.isEmpty && callers.count <= 20
            && callers.allSatisfy { isChecked(before: Syntax($0), helpers: helpers, calls: calls, depth: depth + 1) }
    }
}
