import Manifest
import SwiftSyntax

/// Permissions change in Settings at any time; a remembered answer goes stale.
struct CachedAuthorizationRule: Rule {
    static let description = RuleDescription(
        id: "cached-authorization", title: "Authorization cached instead of re-checked", severity: .warning,
        questions: [.writeStatusRechecked],
        rationale: """
        People switch HealthKit permissions on and off in Settings › Health whenever they like. An "authorized" flag \
        kept in `UserDefaults` or `@AppStorage` goes stale the moment they do, and code that trusts it skips the sheet \
        for types never asked about or writes after access was withdrawn (`errorAuthorizationDenied`). Ask \
        `authorizationStatus(for:)` right before each save, and `statusForAuthorizationRequest` to decide whether to \
        show the sheet.
        """,
        triggering: [
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()

                func connectIfNeeded() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    if UserDefaults.standard.bool(forKey: "healthKitAuthorized") { return }
                    try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                    UserDefaults.standard.set(true, forKey: "healthKitAuthorized")
                }
            }
            """]),
            .healthApp(["Sources/WorkoutSaver.swift": """
            import HealthKit

            struct WorkoutSaver {
                let healthStore: HKHealthStore

                func save(_ workout: HKWorkout) async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await healthStore.save(workout)
                }
            }
            """]),
            .healthApp(["Sources/SettingsView.swift": """
            import SwiftUI

            struct SettingsView: View {
                @AppStorage("didGrantHealthPermission") private var connected = false

                var body: some View {
                    Text(connected ? "Connected to Health" : "Not connected")
                }
            }
            """]),
        ],
        nonTriggering: [
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
            .healthApp(["Sources/Preferences.swift": """
            import SwiftUI

            struct Preferences: View {
                @AppStorage("units") private var units = "metric"
                @AppStorage("hasSeenHealthIntro") private var hasSeenIntro = false
                // A feature the person switched on in the app, not a HealthKit answer (seen in a real app).
                @AppStorage("womensHealthEnabled") private var cycleTracking = false

                var body: some View {
                    Text(units + (hasSeenIntro ? "" : " — welcome") + (cycleTracking ? " · cycle" : "") + (UserDefaults.standard.string(forKey: "lastSync") ?? ""))
                }
            }
            """]),
        ]
    )

    private static let defaultsReads: Set<String> = ["bool", "object", "string", "integer", "double", "value", "array", "dictionary"]

    func check(_ context: AuditContext) -> [Finding] {
        let vocabulary = context.vocabulary
        let helpers = Self.statusHelpers(context.sources)
        var callsByName: [String: [FunctionCallExprSyntax]] = [:]
        for source in context.sources {
            for call in source.tree.calls { if let name = ExprShape.calledName(call) { callsByName[name, default: []].append(call) } }
        }
        let index = CallIndex(byName: callsByName)
        return context.sources.flatMap { source in
            cachedFlags(source) + uncheckedSaves(source, vocabulary, helpers: helpers, calls: index)
        }
    }

    /// Functions and computed properties whose body asks `authorizationStatus(for:)` (`func canWrite()
    /// -> Bool`, `var isShareAuthorized: Bool`): calling one is a fresh check too.
    static func statusHelpers(_ sources: [ParsedSource]) -> Set<String> {
        var names: Set<String> = []
        for source in sources {
            for function in source.tree.collect(FunctionDeclSyntax.self) where function.body.map(HealthKitVocabulary.checksStatus) == true {
                names.insert(function.name.text)
            }
            for variable in source.tree.collect(VariableDeclSyntax.self) {
                for binding in variable.bindings where binding.accessorBlock.map(HealthKitVocabulary.checksStatus) == true {
                    if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { names.insert(name) }
                }
            }
        }
        return names
    }

    /// `UserDefaults…bool(forKey: "healthKitAuthorized")` and `@AppStorage("…authorized…")`.
    private func cachedFlags(_ source: ParsedSource) -> [Finding] {
        var findings: [Finding] = []
        for call in source.tree.calls {
            guard let name = ExprShape.calledName(call), Self.defaultsReads.contains(name),
                  let base = ExprShape.base(of: call), base.trimmedDescription.lowercased().contains("defaults"),
                  let key = ExprShape.argument(call, label: "forKey"), HealthKitVocabulary.isAuthorizationKey(keyText(key, source)) else { continue }
            findings.append(finding("authorization is read back from UserDefaults (`\(key.trimmedDescription)`) instead of asking HealthKit; "
                                    + "the person may have changed it in Settings since", at: call, in: source))
        }
        for attribute in source.tree.collect(AttributeSyntax.self) where attribute.attributeName.trimmedDescription == "AppStorage" {
            guard let variable = attribute.enclosing(VariableDeclSyntax.self) else { continue }
            let key: String
            if case .argumentList(let arguments) = attribute.arguments, let first = arguments.first?.expression {
                key = keyText(first, source)
            } else {
                key = ""
            }
            let names = variable.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
            guard HealthKitVocabulary.isAuthorizationKey(key) || names.contains(where: HealthKitVocabulary.isAuthorizationKey) else { continue }
            findings.append(finding("authorization is kept in @AppStorage (`\(key.isEmpty ? names.joined() : key)`) and trusted later; it goes stale "
                                    + "when the person changes access in Settings", at: attribute, in: source))
        }
        return findings
    }

    /// Key text: the literal, or the constant's name plus its literal value (`Keys.authorized` → "authorized …").
    private func keyText(_ expr: ExprSyntax, _ source: ParsedSource) -> String {
        if let literal = ExprShape.stringLiteral(expr) { return literal }
        guard let name = ExprShape.referencedName(expr) else { return expr.trimmedDescription }
        let values = source.tree.collect(PatternBindingSyntax.self).filter {
            $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
        }.compactMap { $0.initializer.flatMap { ExprShape.stringLiteral($0.value) } }
        return ([name] + values).joined(separator: " ")
    }

    /// `store.save(x)` with no `authorizationStatus(for:)` before it: in the same function, through a
    /// helper that asks it, or — for a private function — in every one of its callers.
    private func uncheckedSaves(_ source: ParsedSource, _ vocabulary: HealthKitVocabulary, helpers: Set<String>, calls: CallIndex) -> [Finding] {
        source.tree.calls.compactMap { call -> Finding? in
            guard ExprShape.calledName(call) == "save", !call.arguments.isEmpty, vocabulary.isStoreReceiver(ExprShape.base(of: call)) else { return nil }
            guard !isChecked(before: Syntax(call), helpers: helpers, calls: calls, depth: 0) else { return nil }
            return finding("saves to HealthKit without a fresh `authorizationStatus(for:)` check in this function: write access may have been "
                           + "switched off since it was last checked", at: call, in: source)
        }
    }

    /// Every call of the app by called name, to find a function's callers.
    struct CallIndex {
        let byName: [String: [FunctionCallExprSyntax]]
    }

    /// Whether a status check runs before `node` in its function, or every caller of the function
    /// in the app checks before calling it (a writer called only from a guarded flush).
    private func isChecked(before node: Syntax, helpers: Set<String>, calls: CallIndex, depth: Int) -> Bool {
        let function = SyntaxScope.function(of: node)
        let checksHere = function.calls.contains { call in
            call.position < node.position && (HealthKitVocabulary.isStatusCheck(call) || ExprShape.calledName(call).map(helpers.contains) == true)
        } || function.tokens(viewMode: .sourceAccurate).contains { token in
            token.position < node.position && helpers.contains(token.text)
        }
        if checksHere { return true }
        guard depth < 4, let declaration = function.as(FunctionDeclSyntax.self) else { return false }
        let name = declaration.name.text
        let callers = (calls.byName[name] ?? []).filter { !declaration.encloses(Syntax($0)) }
        return !callers.isEmpty && callers.count <= 20
            && callers.allSatisfy { isChecked(before: Syntax($0), helpers: helpers, calls: calls, depth: depth + 1) }
    }
}
