import Manifest
import SwiftSyntax

/// An "authorized" answer remembered in UserDefaults or @AppStorage: it goes stale in Settings.
/// Reported on its own (no review question): question 6 is answered by the saves it gates.
struct AuthorizationRememberedRule: Rule {
    static let description = RuleDescription(
        id: "authorization-remembered", title: "Authorization remembered instead of asked", severity: .warning, questions: [], reads: [.swift],
        rationale: """
        People switch HealthKit permissions on and off in Settings › Health whenever they like. An "authorized" flag \
        kept in `UserDefaults` or `@AppStorage` goes stale the moment they do: a screen that says "Connected to Health" \
        keeps saying it after access was withdrawn, and code that trusts the flag skips the sheet for types never asked \
        about. Ask `statusForAuthorizationRequest` to decide whether to show the sheet, and `authorizationStatus(for:)` \
        before saving. A save gated by such a flag is `cached-authorization`.
        """,
        triggering: [
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()

                func connectIfNeeded() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    if ↓UserDefaults.standard.bool(forKey: "healthKitAuthorized") { return }
                    try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                    UserDefaults.standard.set(true, forKey: "healthKitAuthorized")
                }
            }
            """]),
            .healthApp(["Sources/SettingsView.swift": """
            import SwiftUI

            struct SettingsView: View {
                ↓@AppStorage("didGrantHealthPermission") private var connected = false

                var body: some View {
                    Text(connected ? "Connected to Health" : "Not connected")
                }
            }
            """]),
            // A name that may be the person's own switch, here written where the app asks HealthKit.
            .healthApp(["Sources/Sync.swift": """
            import HealthKit

            final class Sync {
                let store = HKHealthStore()

                func connect() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                    UserDefaults.standard.set(true, forKey: "healthKitEnabled")
                }

                var isConnected: Bool { ↓UserDefaults.standard.bool(forKey: "healthKitEnabled") }
            }
            """]),
            // A name for the past, but nothing asks HealthKit now: the latch is all the app knows.
            .healthApp(["Sources/Connect.swift": """
            import HealthKit

            final class Connect {
                let store = HKHealthStore()

                func connectIfNeeded() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    if ↓UserDefaults.standard.bool(forKey: "healthEverAuthorized") { return }
                    try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                    UserDefaults.standard.set(true, forKey: "healthEverAuthorized")
                }
            }
            """]),
        ],
        nonTriggering: [
            // A latch that access was seen once, kept beside a fresh status check to tell "access lost"
            // from "never connected" (seen in a real app's alerts): history, not the current answer.
            .healthApp(["Sources/AccessMonitor.swift": """
            import HealthKit

            final class AccessMonitor {
                let store = HKHealthStore()
                let defaults = UserDefaults.standard

                var healthEverAuthorized: Bool { defaults.bool(forKey: "obs.healthEverAuthorized") }

                func accessLost() -> Bool {
                    guard HKHealthStore.isHealthDataAvailable() else { return false }
                    let authorized = store.authorizationStatus(for: HKQuantityType(.heartRate)) == .sharingAuthorized
                    if authorized { defaults.set(true, forKey: "obs.healthEverAuthorized") }
                    return healthEverAuthorized && !authorized
                }
            }
            """]),
            // The person's own "sync with Health" switch: nothing HealthKit answered is written to it.
            .healthApp(["Sources/SettingsView.swift": """
            import SwiftUI

            struct SettingsView: View {
                @AppStorage("healthKitSyncEnabled") private var healthKitSyncEnabled = true
                var body: some View { Toggle("Sync with Apple Health", isOn: $healthKitSyncEnabled) }
            }
            """]),
            // The same switch, turned on by onboarding once it has asked: still the person's choice,
            // which they turn off in the app's settings (seen in a real app).
            .healthApp(["Sources/Onboarding.swift": """
            import HealthKit
            import SwiftUI

            struct HealthStep: View {
                @AppStorage("healthKitEnabled") private var healthKitEnabled = false
                let store = HKHealthStore()
                var body: some View {
                    Button("Connect Apple Health") {
                        Task {
                            guard HKHealthStore.isHealthDataAvailable() else { return }
                            try? await store.requestAuthorization(toShare: [HKObjectType.workoutType()],
                                                                  read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                            healthKitEnabled = true
                        }
                    }
                }
            }
            """, "Sources/SettingsView.swift": """
            import SwiftUI

            struct SettingsView: View {
                @AppStorage("healthKitEnabled") private var healthKitEnabled = false
                var body: some View { Toggle("Mit Apple Health verbinden", isOn: $healthKitEnabled) }
            }
            """]),
            // Another framework's permission flag (OneBusAway's location service) is not HealthKit's.
            .healthApp(["Sources/LocationService.swift": """
            import CoreLocation

            final class LocationService {
                let userDefaults = UserDefaults.standard

                var canPromptUserForPermission: Bool {
                    userDefaults.bool(forKey: "promptUserForLocationPermission")
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
            .healthApp(["Sources/Onboarding.swift": """
            import SwiftUI

            struct Onboarding: View {
                @AppStorage("onboardingDone") private var done = false
                var body: some View { Text(done ? "Welcome back" : "Welcome") }
            }
            """]),
        ]
    )

    static let defaultsReads: Set<String> = ["bool", "object", "string", "integer", "double", "value", "array", "dictionary"]

    func check(_ context: AuditContext) -> [Finding] {
        let answers = RememberedAnswers(context.sources)
        // One finding per remembered key: the same `@AppStorage` declared in every view that reads it
        // is one stale answer, not one per view.
        var seen: Set<String> = []
        return context.sources.flatMap { cachedFlags($0, answers) }.filter { seen.insert($0.1).inserted }.map(\.0)
    }

    /// Names that hold a remembered answer: `@AppStorage` variables and computed properties that
    /// read one back from UserDefaults. A save whose function consults one trusts the cache.
    static func rememberedNames(_ sources: [ParsedSource], _ answers: RememberedAnswers) -> Set<String> {
        var names: Set<String> = []
        for source in sources {
            for variable in source.tree.collect(VariableDeclSyntax.self) {
                let stored = appStorageAnswer(variable, source, answers) != nil
                for binding in variable.bindings {
                    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                    if stored || binding.accessorBlock.map({ block in block.calls.contains { isDefaultsRead($0, source, answers) } }) == true { names.insert(name) }
                }
            }
        }
        return names
    }

    static func isDefaultsRead(_ call: FunctionCallExprSyntax, _ source: ParsedSource, _ answers: RememberedAnswers) -> Bool {
        guard let name = ExprShape.calledName(call), defaultsReads.contains(name),
              let base = ExprShape.base(of: call), base.trimmedText.lowercased().contains("defaults"),
              let key = ExprShape.argument(call, label: "forKey") else { return false }
        return answers.isAnswer(keyText(key, source))
    }

    /// For an `@AppStorage` variable whose key or name holds an authorization answer: the key as
    /// shown (its names when it has no literal key); nil for any other variable.
    private static func appStorageAnswer(_ variable: VariableDeclSyntax, _ source: ParsedSource, _ answers: RememberedAnswers) -> String? {
        guard let attribute = variable.attributes.lazy.compactMap({ $0.as(AttributeSyntax.self) }).first(where: { $0.attributeName.trimmedText == "AppStorage" })
        else { return nil }
        var key = ""
        if case .argumentList(let arguments) = attribute.arguments, let first = arguments.first?.expression { key = keyText(first, source) }
        let names = variable.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
        guard answers.isAnswer(key) || names.contains(where: answers.isAnswer) else { return nil }
        return key.isEmpty ? names.joined() : key
    }

    /// `UserDefaults…bool(forKey: "healthKitAuthorized")` and `@AppStorage("…authorized…")`.
    /// Each finding with the key it is about (UserDefaults reads are kept one per place read).
    private func cachedFlags(_ source: ParsedSource, _ answers: RememberedAnswers) -> [(Finding, String)] {
        var findings: [(Finding, String)] = []
        for call in source.calls(named: Self.defaultsReads) where Self.isDefaultsRead(call, source, answers) {
            let key = ExprShape.argument(call, label: "forKey")!
            let found = finding("authorization is read back from UserDefaults (`\(key.trimmedText)`) instead of asking HealthKit; "
                                + "the person may have changed it in Settings since", at: call, in: source)
            findings.append((found, "\(found.location.file):\(found.location.line ?? 0):\(key.trimmedText)"))
        }
        for attribute in source.tree.collect(AttributeSyntax.self) where attribute.attributeName.trimmedText == "AppStorage" {
            guard let variable = attribute.enclosing(VariableDeclSyntax.self), let shown = Self.appStorageAnswer(variable, source, answers) else { continue }
            findings.append((finding("authorization is kept in @AppStorage (`\(shown)`) and trusted later; it goes stale "
                                     + "when the person changes access in Settings", at: attribute, in: source), "@AppStorage " + shown))
        }
        return findings
    }

    /// Key text: the literal, or the constant's name plus its literal value (`Keys.authorized` → "authorized …").
    static func keyText(_ expr: ExprSyntax, _ source: ParsedSource) -> String {
        if let literal = ExprShape.stringLiteral(expr) { return literal }
        guard let name = ExprShape.referencedName(expr) else { return expr.trimmedText }
        let values = source.tree.collect(PatternBindingSyntax.self).filter {
            $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
        }.compactMap { $0.initializer.flatMap { ExprShape.stringLiteral($0.value) } }
        return ([name] + values).joined(separator: " ")
    }
}

/// Which remembered keys hold HealthKit's answer. A name that says so (`healthKitAuthorized`,
/// `didGrantHealthPermission`) does; a name that only may (`healthKitSyncEnabled`, `healthConnected`
/// is as often the person's own switch in the app) does only when the app writes it where it asks
/// HealthKit: in a function or completion that requests authorization or reads a status.
struct RememberedAnswers {
    /// Key texts and variable names written beside a HealthKit request or status call.
    private let writtenFromHealthKit: Set<String>
    /// The app asks HealthKit's current status somewhere (`authorizationStatus(for:)`, the request status).
    private let asksCurrentStatus: Bool
    /// Names bound to a switch the person flips (`Toggle(…, isOn: $healthKitEnabled)`): the person's
    /// own choice in the app, whatever the app writes there after asking.
    private let switched: Set<String>

    init(_ sources: [ParsedSource]) {
        switched = Self.switches(in: sources)
        asksCurrentStatus = sources.contains { source in
            !source.calls(named: HealthKitVocabulary.statusCheck).isEmpty || !source.calls(named: HealthKitVocabulary.requestStatusChecks).isEmpty
        }
        var written: Set<String> = []
        for source in sources {
            for call in source.calls(named: "set") {
                guard let key = ExprShape.argument(call, label: "forKey"), Self.asksHealthKit(around: call) else { continue }
                written.insert(AuthorizationRememberedRule.keyText(key, source))
            }
            for assignment in ExprShape.assignments(in: source.tree) {
                guard let name = ExprShape.referencedName(assignment.lhs) ?? assignment.lhs.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
                      HealthKitVocabulary.isAuthorizationKey(name), Self.asksHealthKit(around: assignment.node) else { continue }
                written.insert(name)
            }
        }
        writtenFromHealthKit = written
    }

    /// Names bound to a SwiftUI `Toggle` (`isOn: $healthKitEnabled`) whose name does not itself say
    /// it holds the answer: the person's own switch.
    static func switches(in sources: [ParsedSource]) -> Set<String> {
        var switched: Set<String> = []
        for source in sources where ByteSearch.contains(source.file.text, "isOn:") {
            for call in source.calls(named: "Toggle") {
                guard let binding = ExprShape.argument(call, label: "isOn")?.trimmedText, binding.hasPrefix("$") else { continue }
                let name = String(binding.dropFirst().split(separator: ".").last ?? "")
                if !namesAnAnswer(name) { switched.insert(name) }
            }
        }
        return switched
    }

    func isAnswer(_ text: String) -> Bool {
        guard HealthKitVocabulary.isAuthorizationKey(text) else { return false }
        // A switch in the app's settings, unless its name says it holds the answer itself.
        if switched.contains(text) { return false }
        // `healthEverAuthorized` beside a fresh status check: a latch that access was given once,
        // kept to tell "access lost" from "never asked" — history, not a claim about now.
        if asksCurrentStatus && Self.namesHistory(text) { return false }
        return Self.namesAnAnswer(text) || writtenFromHealthKit.contains(text)
            || writtenFromHealthKit.contains { text.hasPrefix($0 + " ") || $0.hasPrefix(text + " ") }
    }

    /// A name that speaks of the past as such: `healthEverAuthorized`, `was_ever_granted`,
    /// `previouslyAuthorized` — a latch of what happened once, not the current answer.
    static func namesHistory(_ text: String) -> Bool {
        var words: [String] = []
        var word = ""
        for character in text {
            if !character.isLetter && !character.isNumber {
                if !word.isEmpty { words.append(word.lowercased()); word = "" }
                continue
            }
            if character.isUppercase, !word.isEmpty { words.append(word.lowercased()); word = "" }
            word.append(character)
        }
        if !word.isEmpty { words.append(word.lowercased()) }
        return words.contains { $0 == "ever" || $0 == "previously" }
    }

    /// Words that only an authorization answer is named with.
    static func namesAnAnswer(_ text: String) -> Bool {
        let lower = text.lowercased()
        return ["authoriz", "permission", "granted"].contains(where: lower.contains)
    }

    private static func asksHealthKit(around node: some SyntaxProtocol) -> Bool {
        let function = SyntaxScope.function(of: node)
        return function.calls.contains { call in
            let name = ExprShape.calledName(call) ?? ""
            return name == "requestAuthorization" || name == HealthKitVocabulary.statusCheck || HealthKitVocabulary.requestStatusChecks.contains(name)
        }
    }
}
