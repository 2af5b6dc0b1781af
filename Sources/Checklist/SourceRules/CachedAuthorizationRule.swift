import Manifest
import SwiftSyntax

/// Permissions change in Settings at any time; a remembered answer goes stale.
struct CachedAuthorizationRule: Rule {
    static let description = RuleDescription(
        id: "cached-authorization", title: "Authorization cached instead of re-checked", severity: .warning,
        questions: [.writeStatusRechecked], reads: [.swift],
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

    /// Reads the app's write gates (see `WriteGates`): the saves no status check decides.
    func check(_ context: AuditContext) -> [Finding] {
        let answers = RememberedAnswers(context.sources)
        let remembered = AuthorizationRememberedRule.rememberedNames(context.sources, answers)
        let sources = Dictionary(context.sources.map { ($0.file.path, $0) }) { first, _ in first }
        return context.writeGates.compactMap { gate -> Finding? in
            guard !gate.isChecked, case .syntax(let node)? = gate.write.site, let call = node.as(FunctionCallExprSyntax.self),
                  ExprShape.calledName(call) == "save", let source = sources[gate.write.evidence.location.file] else { return nil }
            return uncheckedSave(call, source, remembered: remembered, answers: answers)
        }
    }

    /// A save with no `authorizationStatus(for:)` before it — in the same function, through a helper
    /// that asks it, or, for a function the app calls, in every one of its callers — that either
    /// trusts a remembered flag instead or swallows the failure (`try?`, a completion that ignores
    /// its error). A save whose error is caught or thrown on is not reported: the failure is seen.
    private func uncheckedSave(_ call: FunctionCallExprSyntax, _ source: ParsedSource, remembered: Set<String>, answers: RememberedAnswers) -> Finding? {
        let function = SyntaxScope.function(of: Syntax(call))
        if let read = function.calls.first(where: { $0.position < call.position && AuthorizationRememberedRule.isDefaultsRead($0, source, answers) }) {
            return finding("saves to HealthKit trusting an answer read back from UserDefaults (line \(source.lineOf(read))) instead of a fresh "
                           + "`authorizationStatus(for:)` check: write access may have been switched off in Settings since", at: call, in: source)
        }
        if let flag = function.tokens(viewMode: .sourceAccurate).first(where: { $0.position < call.position && remembered.contains($0.text) }) {
            return finding("saves to HealthKit trusting the remembered `\(flag.text)` instead of a fresh `authorizationStatus(for:)` check: "
                           + "write access may have been switched off in Settings since", at: call, in: source)
        }
        guard let swallowed = FailureHandling.swallowed(by: call) else { return nil }
        return finding("saves to HealthKit without a fresh `authorizationStatus(for:)` check and \(swallowed): if write access was "
                       + "switched off, the data is lost and nobody is told", at: call, in: source)
    }
}
