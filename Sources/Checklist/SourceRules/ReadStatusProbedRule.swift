import Manifest
import SwiftSyntax

/// `authorizationStatus(for:)` reports whether the app may *save* a type. Using it to decide
/// whether data can be read shows nothing or hides data the user allowed.
struct ReadStatusProbedRule: Rule {
    static let description = RuleDescription(
        id: "read-status-probed", title: "Write status used to decide reading", severity: .error,
        questions: [.readStatusProbed], reads: [.swift],
        rationale: """
        `authorizationStatus(for:)` only answers whether the app may **save** a type. HealthKit never tells an app \
        whether it may read: a type requested for reading only reports `.sharingDenied` even when reading was allowed, \
        and characteristic types (date of birth, biological sex) can never be shared, so their status is never \
        `.sharingAuthorized`. Code that reads only when the status is `.sharingAuthorized` hides data the person \
        allowed. Read unconditionally and treat empty results as "no data or no access"; keep the status check for saves.
        """,
        triggering: [
            // The app's own function asks the status once the sheet closed and hands it to its completion;
            // its caller reads only when that answer says authorized.
            .healthApp(["Sources/SleepStore.swift": """
            import HealthKit

            final class SleepStore {
                let store = HKHealthStore()

                func isAuthorized() -> Bool {
                    store.authorizationStatus(for: HKCategoryType(.sleepAnalysis)) == .sharingAuthorized
                }

                func authorize(_ completion: @escaping (Bool) -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return completion(false) }
                    store.requestAuthorization(toShare: [HKCategoryType(.sleepAnalysis)], read: [HKCategoryType(.sleepAnalysis)]) { _, _ in
                        completion(self.isAuthorized())
                    }
                }

                func lastNight(_ done: @escaping ([HKSample]) -> Void) {
                    ↓authorize { authorized in
                        if authorized {
                            let query = HKSampleQuery(sampleType: HKCategoryType(.sleepAnalysis), predicate: nil, limit: 1, sortDescriptors: nil) { _, samples, _ in
                                done(samples ?? [])
                            }
                            self.store.execute(query)
                        }
                    }
                }
            }
            """], read: ["sleepAnalysis"], share: ["sleepAnalysis"]),
            // An error made from the status, returned early from before the query.
            .healthApp(["Sources/WaterStore.swift": """
            import HealthKit

            final class WaterStore {
                enum Problem: Error { case notAuthorized }
                let store = HKHealthStore()

                func checkAccess() -> Problem? {
                    store.authorizationStatus(for: HKQuantityType(.dietaryWater)) == .sharingDenied ? .notAuthorized : nil
                }

                func today() -> Problem? {
                    guard HKHealthStore.isHealthDataAvailable() else { return nil }
                    if let problem = ↓checkAccess() { return problem }
                    let query = HKStatisticsQuery(quantityType: HKQuantityType(.dietaryWater), quantitySamplePredicate: nil, options: .cumulativeSum) { _, _, _ in }
                    store.execute(query)
                    return nil
                }
            }
            """], read: ["dietaryWater"], share: ["dietaryWater"]),
            // A property set from the write status decides a read elsewhere (TetraTrack's settings).
            .healthApp(["Sources/HealthManager.swift": statusManager(marker: "↓"), "Sources/Settings.swift": """
            final class Settings {
                let health = HealthManager.shared

                func appear() async {
                    health.checkAuthorizationStatus()
                    if health.isAuthorized {
                        await health.updateProfile()
                    }
                }
            }
            """], read: ["bodyMass"], share: ["workout"]),
            .healthApp(["Sources/Profile.swift": """
            import HealthKit

            struct ProfileLoader {
                let store: HKHealthStore

                func age() throws -> Int? {
                    guard HKHealthStore.isHealthDataAvailable() else { return nil }
                    let birthday = HKCharacteristicType(.dateOfBirth)
                    guard store.authorizationStatus(for: birthday) == .sharingAuthorized else { return nil }
                    let components = try store.dateOfBirthComponents()
                    return Calendar.current.dateComponents([.year], from: components.date ?? .now, to: .now).year
                }
            }
            """]),
            .healthApp(["Sources/HeartView.swift": """
            import HealthKit

            final class HeartModel {
                let store = HKHealthStore()
                var rates: [Double] = []

                func refresh() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let status = store.authorizationStatus(for: HKQuantityType(.heartRate))
                    if status == .sharingDenied {
                        rates = []
                    } else {
                        fetchHeartRates()
                    }
                }

                func fetchHeartRates() {}
            }
            """]),
            .healthApp(["Sources/Steps.swift": """
            import HealthKit

            final class StepsModel {
                let store = HKHealthStore()

                func load() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    switch store.authorizationStatus(for: HKQuantityType(.stepCount)) {
                    case .sharingAuthorized:
                        let query = HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 10, sortDescriptors: nil) { _, _, _ in }
                        store.execute(query)
                    default:
                        break
                    }
                }
            }
            """]),
            // The app's own method around the query, one call away (and in another type's file, two away).
            .healthApp(["Sources/HeartModel.swift": """
            import HealthKit

            final class HeartModel {
                let store = HKHealthStore()
                let history = HeartHistory()

                func refresh() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    if ↓store.authorizationStatus(for: HKQuantityType(.heartRate)) == .sharingAuthorized {
                        history.updateRates()
                    }
                }
            }
            """, "Sources/HeartHistory.swift": """
            import HealthKit

            final class HeartHistory {
                let store = HKHealthStore()

                func updateRates() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    runQuery()
                }

                private func runQuery() {
                    let query = HKSampleQuery(sampleType: HKQuantityType(.heartRate), predicate: nil, limit: 10, sortDescriptors: nil) { _, _, _ in }
                    store.execute(query)
                }
            }
            """], read: ["heartRate"]),
            // The app's own computed property around the status decides a read elsewhere.
            .healthApp(["Sources/GlucoseStore.swift": """
            import HealthKit

            final class GlucoseStore {
                let store = HKHealthStore()

                var isAuthorized: Bool {
                    let status = store.authorizationStatus(for: HKQuantityType(.bloodGlucose))
                    return ↓status == .sharingAuthorized
                }

                func read() {
                    let query = HKSampleQuery(sampleType: HKQuantityType(.bloodGlucose), predicate: nil, limit: 12, sortDescriptors: nil) { _, _, _ in }
                    store.execute(query)
                }
            }
            """, "Sources/Startup.swift": """
            import HealthKit

            final class Startup {
                let glucose = GlucoseStore()

                func start() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await glucose.store.requestAuthorization(toShare: [HKQuantityType(.bloodGlucose)], read: [HKQuantityType(.bloodGlucose)])
                    if glucose.isAuthorized {
                        glucose.read()
                    }
                }
            }
            """], read: ["bloodGlucose"], share: ["bloodGlucose"]),
            // Read-only types: ECG availability decided from its write status (seen in a real app).
            .healthApp(["Sources/ECG.swift": """
            import HealthKit

            final class ECGAvailability {
                let healthStore = HKHealthStore()
                var available = false

                func refresh() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let type = HKObjectType.electrocardiogramType()
                    let status = healthStore.authorizationStatus(for: type)
                    available = status == .sharingAuthorized || status == .notDetermined
                }
            }
            """]),
            // `.unnecessary` (the sheet was shown) reported as read access, as a HealthKit plugin's
            // `readAuthorized` list did.
            .healthApp(["Sources/ReadAccess.swift": """
            import HealthKit

            final class ReadAccessReporter {
                let healthStore = HKHealthStore()

                func readAccess(for types: Set<HKObjectType>, completion: @escaping ([String]) -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return completion([]) }
                    healthStore.getRequestStatusForAuthorization(toShare: [], read: types) { status, _ in
                        var authorized: [String] = []
                        switch status {
                        case .unnecessary:
                            ↓authorized.append(contentsOf: types.map(\\.identifier))
                        default:
                            break
                        }
                        completion(authorized)
                    }
                }
            }
            """]),
            .healthApp(["Sources/StepsAccess.swift": """
            import HealthKit

            @MainActor final class StepsAccess {
                let healthStore = HKHealthStore()
                var hasReadAccess = false

                func refresh() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let status = try await healthStore.statusForAuthorizationRequest(toShare: [], read: [HKQuantityType(.stepCount)])
                    if status == .unnecessary {
                        ↓hasReadAccess = true
                    }
                }
            }
            """]),
            // The same answer returned by a function that says it answers whether reading is allowed.
            .healthApp(["Sources/StepsAccess.swift": """
            import HealthKit

            final class StepsAccess {
                let healthStore = HKHealthStore()

                /// Returns true if we can read step data.
                func isCurrentlyAuthorized() async -> Bool {
                    guard HKHealthStore.isHealthDataAvailable() else { return false }
                    do {
                        let status = try await healthStore.statusForAuthorizationRequest(toShare: [], read: [HKQuantityType(.stepCount)])
                        ↓return status == .unnecessary
                    } catch {
                        return false
                    }
                }
            }
            """]),
        ],
        nonTriggering: [
            // Returned by a function named for the asking: whether the sheet was already shown.
            .healthApp(["Sources/StepsAccess.swift": """
            import HealthKit

            final class StepsAccess {
                let healthStore = HKHealthStore()

                func permissionSheetShown() async throws -> Bool {
                    guard HKHealthStore.isHealthDataAvailable() else { return false }
                    let status = try await healthStore.statusForAuthorizationRequest(toShare: [], read: [HKQuantityType(.stepCount)])
                    return status == .unnecessary
                }
            }
            """]),
            // The same answer deciding only whether to show the sheet is what it is for.
            .healthApp(["Sources/StepsAccess.swift": """
            import HealthKit

            @MainActor final class StepsAccess {
                let healthStore = HKHealthStore()
                var needsRequest = true

                func refresh() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let status = try await healthStore.statusForAuthorizationRequest(toShare: [], read: [HKQuantityType(.stepCount)])
                    if status == .unnecessary {
                        needsRequest = false
                    }
                }
            }
            """]),
            // The app's own method behind the guard writes: deciding a write is what the status is for.
            .healthApp(["Sources/WeightModel.swift": """
            import HealthKit

            final class WeightModel {
                let store = HKHealthStore()

                func sync(_ sample: HKQuantitySample) {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    if store.authorizationStatus(for: HKQuantityType(.bodyMass)) == .sharingAuthorized {
                        upload(sample)
                    }
                }

                func upload(_ sample: HKQuantitySample) {
                    let query = HKSampleQuery(sampleType: HKQuantityType(.bodyMass), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in }
                    store.execute(query)
                    store.save(sample) { _, _ in }
                }
            }
            """], read: ["bodyMass"], share: ["bodyMass"]),
            // The app's function that asks the status deciding only a save, through its completion.
            .healthApp(["Sources/SleepLog.swift": """
            import HealthKit

            final class SleepLog {
                let store = HKHealthStore()

                func isAuthorized() -> Bool {
                    store.authorizationStatus(for: HKQuantityType(.bodyMass)) == .sharingAuthorized
                }

                func authorize(_ completion: @escaping (Bool) -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return completion(false) }
                    store.requestAuthorization(toShare: [HKQuantityType(.bodyMass)], read: [HKQuantityType(.bodyMass)]) { _, _ in
                        completion(self.isAuthorized())
                    }
                }

                func log(_ sample: HKQuantitySample) {
                    authorize { authorized in
                        if authorized {
                            self.store.save(sample) { _, _ in }
                        }
                    }
                }
            }
            """], read: ["bodyMass"], share: ["bodyMass"]),
            // The same property deciding only a write is what write status is for.
            .healthApp(["Sources/HealthManager.swift": statusManager(marker: ""), "Sources/Settings.swift": """
            import HealthKit

            final class Settings {
                let health = HealthManager.shared

                func save(_ workout: HKWorkout) async throws {
                    health.checkAuthorizationStatus()
                    if health.isAuthorized {
                        try await health.store.save(workout)
                    }
                }
            }
            """], read: ["bodyMass"], share: ["workout"]),
            .healthApp(["Sources/WorkoutLogger.swift": """
            import HealthKit

            struct WorkoutLogger {
                let store: HKHealthStore

                func log(_ workout: HKWorkout) async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    guard store.authorizationStatus(for: HKObjectType.workoutType()) == .sharingAuthorized else { return }
                    try await store.save(workout)
                }
            }
            """]),
            .healthApp(["Sources/HeartView.swift": """
            import HealthKit

            final class HeartModel {
                let store = HKHealthStore()
                var rates: [Double] = []

                // Reads are attempted unconditionally: a declined type just returns no samples.
                func refresh() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.heartRate))], sortDescriptors: [])
                    let samples = try await descriptor.result(for: store)
                    rates = samples.map { $0.quantity.doubleValue(for: .count().unitDivided(by: .minute())) }
                }
            }
            """]),
        ]
    )

    /// Samples only Apple Watch or Health write (the catalogue's unshareable samples): no app can be
    /// granted sharing, so their share status says nothing about reading them.
    static let readOnlyTypes = HealthKitType.all.filter { !$0.isShareable && [.quantity, .category, .other].contains($0.kind) }.map(\.name)

    /// The read-only type an argument names: directly (`HKObjectType.electrocardiogramType()`,
    /// `HKQuantityType(.appleExerciseTime)`) or through a local constant initialised so.
    static func readOnlyType(_ argument: ExprSyntax, in scope: Syntax) -> String? {
        var texts = [argument.trimmedText]
        if let name = ExprShape.referencedName(argument) {
            texts += scope.collect(PatternBindingSyntax.self).filter { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }
                .compactMap { $0.initializer?.value.trimmedText }
        }
        // The words first (cheap), the exact spelling only for a type among them.
        let words = Set(texts.flatMap { $0.split { !$0.isLetter && !$0.isNumber }.map(String.init) })
        return readOnlyTypes.first { type in
            (words.contains(type) || words.contains(type + "Type"))
                && texts.contains { $0.contains(type + "Type()") || $0.contains("." + type + ")") || $0.contains("." + type + ",") }
        }
    }

    /// A manager whose `isAuthorized` comes from the write status, for the examples that use it
    /// to decide a read (flagged) and a write (fine); `marker` marks the assignment.
    private static func statusManager(marker: String) -> String {
        """
        import HealthKit

        final class HealthManager {
            static let shared = HealthManager()
            let store = HKHealthStore()
            var isAuthorized = false

            func checkAuthorizationStatus() {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                let status = store.authorizationStatus(for: HKObjectType.workoutType())
                let hasWriteAccess = status == .sharingAuthorized
                \(marker)isAuthorized = hasWriteAccess
            }

            func fetchBodyMass() async {
                _ = try? await HKSampleQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.bodyMass))], sortDescriptors: []).result(for: store)
            }

            func updateProfile() async {
                await fetchBodyMass()
            }
        }
        """
    }

    func check(_ context: AuditContext) -> [Finding] {
        let resolver = context.typeResolver
        let readers = context.appReaders
        return context.sources.flatMap { source in
            source.calls(named: HealthKitVocabulary.statusCheck).compactMap { call in
                probe(call, source, resolver, readers).map { finding($0, at: call, in: source) }
            }
        } + RequestStatusAsGrant.findings(context).map { grant in
            finding("`.\(grant.answer)` from `\(grant.request)` is recorded as read access (`\(grant.record)`): it only says the permission sheet "
                    + "was already shown, whatever the person chose, and HealthKit never discloses read permission; query and treat an empty "
                    + "result as no data", at: grant.sink, in: grant.source)
        } + StatusHelperDecidesRead.findings(context).map { decided in
            finding("`\(decided.helper)()` asks `authorizationStatus(for:)` (\(decided.statusPlace)), which reports write permission only, and its "
                    + "answer decides whether to read (`\(decided.read)(…)`, line \(decided.readLine)); read unconditionally and treat empty results as no data",
                    at: decided.call, in: decided.source)
        } + StatusDerivedProperty.findings(context).map { derived in
            var result = finding("`\(derived.property)` is set from the write status of `authorizationStatus(for:)` (line \(derived.statusLine)) and decides "
                                 + "whether to read at \(derived.decision): write status says nothing about reading; read unconditionally and treat "
                                 + "empty results as no data", at: derived.assignment, in: derived.source)
            // The property lives on: what its readers do with it decides the harm, as for a returned flag.
            result.severity = .warning
            return result
        }
    }

    private func probe(_ call: FunctionCallExprSyntax, _ source: ParsedSource, _ resolver: RequestedTypeResolver, _ readers: AppReadingFunctions) -> String? {
        let scope = SyntaxScope.function(of: call)
        // A characteristic's status compared with a sharing answer can only be an attempt to learn about reading
        // (comparing with `.notDetermined` merely asks whether the sheet was shown).
        if let argument = call.arguments.first?.expression, scope.mentions(anyOf: ["sharingAuthorized", "sharingDenied"]),
           let characteristic = resolver.types(of: argument, in: source).names.first(where: { HealthKitType.named($0.name)?.kind == .characteristic }) {
            return "`authorizationStatus(for:)` on the characteristic type `\(characteristic.name)`: characteristics can only be read, so this "
                + "write status is never `.sharingAuthorized` and says nothing about reading; read the value and handle an empty result"
        }
        // Types HealthKit lets apps read but never write (ECG, Apple's exercise and stand minutes, the
        // heart events): their write status is `.sharingDenied` whatever the person allowed to read.
        if let argument = call.arguments.first?.expression, scope.mentions(anyOf: ["sharingAuthorized", "sharingDenied"]),
           let readOnly = Self.readOnlyType(argument, in: scope) {
            return "`authorizationStatus(for:)` on `\(readOnly)`, which apps may read but never write: its status is `.sharingDenied` even when "
                + "reading was allowed, so it says nothing about reading; query and treat an empty result as no data"
        }
        let tracked = StatusTracking(call: call)
        // Sorted: a dictionary's order changes from run to run, and the name reaches the finding's text.
        if let readFlag = tracked.flags.keys.sorted().first(where: { $0.lowercased().contains("read") }) {
            return "`\(readFlag)` is derived from `authorizationStatus(for:)`, which reports write permission only; read permission is never disclosed"
        }
        let regions = ControlFlow.regions(within: scope, want: .holds, condition: tracked.polarity,
                                          switchSubject: tracked.isStatus, casePolarity: tracked.casePolarity)
        for (statement, region) in regions where statement.endPosition > call.position {
            let calls = region.flatMap(\.calls)
            guard !calls.contains(where: HealthKitVocabulary.isWrite) else { continue }
            if let read = calls.first(where: HealthKitVocabulary.isRead) {
                return "`authorizationStatus(for:)` decides whether to read (`\(read.calledExpression.trimmedText)(…)`, line \(source.lineOf(read))), "
                    + "but it reports write permission only; read unconditionally and treat empty results as no data"
            }
            // The app's own method around the query, one or two calls away.
            if let own = calls.first(where: { readers.read(reachedBy: $0) != nil }), let read = readers.read(reachedBy: own) {
                let name = source.file.path.split(separator: "/").last.map(String.init) ?? source.file.path
                return "`authorizationStatus(for:)` decides whether to call `\(own.calledExpression.trimmedText)(…)` (\(name):\(source.lineOf(own))), "
                    + "which reads HealthKit (\(read.place)), but it reports write permission only; read unconditionally and treat empty results as no data"
            }
        }
        return nil
    }
}

/// `getRequestStatusForAuthorization` / `statusForAuthorizationRequest` answer `.unnecessary` once the
/// sheet was shown, whatever the person chose: a branch on that answer which records the types as
/// authorized reports a denied read as granted (the capacitor-health plugin's `readAuthorized` list).
private struct RequestStatusAsGrant {
    let source: ParsedSource
    let sink: Syntax
    let request: String
    let answer: String
    /// The name the grant is recorded in (`authorized`, `hasReadAccess`).
    let record: String

    static func findings(_ context: AuditContext) -> [RequestStatusAsGrant] {
        context.sources.flatMap { source in
            source.calls(named: HealthKitVocabulary.requestStatusChecks).compactMap { call -> RequestStatusAsGrant? in
                guard context.vocabulary.isStoreReceiver(ExprShape.base(of: call)), let name = ExprShape.calledName(call),
                      let read = ExprShape.argument(call, label: "read"), read.as(ArrayExprSyntax.self)?.elements.isEmpty != true,
                      let (status, scope) = statusName(of: call) else { return nil }
                for branch in unnecessaryBranches(of: status, in: scope) {
                    if let (sink, record) = grantRecorded(in: branch) {
                        return RequestStatusAsGrant(source: source, sink: sink, request: name, answer: "unnecessary", record: record)
                    }
                }
                if let (sink, record) = returnedAsGrant(status, in: scope) {
                    return RequestStatusAsGrant(source: source, sink: sink, request: name, answer: "unnecessary", record: record)
                }
                return nil
            }
        }
    }

    /// The name holding the answer and where it is in scope: the completion's first parameter, or
    /// `let status = try await store.statusForAuthorizationRequest(…)` in its function.
    private static func statusName(of call: FunctionCallExprSyntax) -> (String, Syntax)? {
        if let closure = ClosureShape.completion(of: call), let first = ClosureShape.parameterNames(closure).first, first != "_" {
            return (first, Syntax(closure.statements))
        }
        guard let binding = call.enclosing(PatternBindingSyntax.self), let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { return nil }
        return (name, SyntaxScope.function(of: call))
    }

    /// The code that runs when the answer is `.unnecessary` (`case .unnecessary:`, `if status == .unnecessary`,
    /// the `else` of `!=`, what follows a `guard`).
    private static func unnecessaryBranches(of status: String, in scope: Syntax) -> [Syntax] {
        let regions = ControlFlow.regions(within: scope, want: .holds, condition: { operand in
            guard let (left, op, right) = operand.binary, left.trimmedText == status, right.trimmedText == ".unnecessary" else { return nil }
            return op == "==" ? .holds : op == "!=" ? .fails : nil
        }, switchSubject: { $0.trimmedText == status }, casePolarity: { label in
            label.caseItems.contains { $0.pattern.trimmedText == ".unnecessary" } ? .holds : nil
        })
        return regions.flatMap(\.region)
    }

    /// `return status == .unnecessary` from a function whose name says it answers whether access was
    /// granted (`isCurrentlyAuthorized()`, `hasHealthAccess()`): the sheet having been shown, handed
    /// on as the grant. A function named for the asking (`shouldRequestAuthorization()`) is not one.
    private static func returnedAsGrant(_ status: String, in scope: Syntax) -> (Syntax, String)? {
        guard let function = scope.as(FunctionDeclSyntax.self), GrantNames.says(function.name.text) else { return nil }
        for statement in scope.collect(ReturnStmtSyntax.self) {
            guard let value = statement.expression, let (left, op, right) = Operand(items: [value]).binary,
                  op == "==", left.trimmedText == status, right.trimmedText == ".unnecessary" else { continue }
            return (Syntax(statement), function.name.text + "()")
        }
        return nil
    }

    /// `authorized.append(…)` or `hasReadAccess = true` in the branch (not `completion(true)`: "no
    /// need to ask" is what `.unnecessary` means).
    private static func grantRecorded(in branch: Syntax) -> (Syntax, String)? {
        for call in branch.calls {
            if ["append", "insert", "formUnion"].contains(ExprShape.calledName(call) ?? ""), let base = ExprShape.base(of: call),
               let record = ExprShape.referencedName(base), GrantNames.says(record) {
                return (Syntax(base), record)
            }
        }
        for (lhs, rhs, _) in ExprShape.assignments(in: branch) where rhs.single?.trimmedText == "true" {
            if let record = ExprShape.referencedName(lhs), GrantNames.says(record) { return (Syntax(lhs), record) }
        }
        return nil
    }
}

/// One status call and the names that carry its value: `let status = store.authorizationStatus(for: t)`
/// or `let allowed = store.authorizationStatus(for: t) == .sharingAuthorized`.
private struct StatusTracking {
    let call: FunctionCallExprSyntax
    var statusNames: Set<String> = []
    /// Bool names and whether they hold when the status is authorized.
    var flags: [String: Polarity] = [:]

    init(call: FunctionCallExprSyntax) {
        self.call = call
        if let binding = call.enclosing(PatternBindingSyntax.self), let value = binding.initializer?.value, value.encloses(call),
           let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            track(name, value)
        } else if let assignment = ExprShape.assignments(in: SyntaxScope.body(of: call)).first(where: { $0.rhs.encloses(call) }),
                  let name = ExprShape.referencedName(assignment.lhs) {
            if let single = assignment.rhs.single { track(name, single) }
        }
    }

    private mutating func track(_ name: String, _ value: ExprSyntax) {
        if ExprShape.stripped(value).id == call.id { statusNames.insert(name); return }
        if let parts = ExprShape.conjuncts(value), parts.count == 1, let p = comparison(parts[0]) { flags[name] = p }
    }

    func isStatus(_ expr: ExprSyntax) -> Bool {
        let e = ExprShape.stripped(expr)
        if e.id == call.id { return true }
        if let ref = e.as(DeclReferenceExprSyntax.self) { return statusNames.contains(ref.baseName.text) }
        if let member = e.as(MemberAccessExprSyntax.self), member.base?.trimmedText == "self" {
            return statusNames.contains(member.declName.baseName.text)
        }
        return false
    }

    /// `status == .sharingAuthorized` holds when authorized; `status == .sharingDenied` fails.
    private func comparison(_ operand: Operand) -> Polarity? {
        guard let (lhs, op, rhs) = operand.binary, ["==", "!=", "===", "!=="].contains(op) else { return nil }
        for (side, other) in [(lhs, rhs), (rhs, lhs)] where isStatus(side) {
            guard let value = ExprShape.memberName(other) else { return nil }
            let equal: Polarity
            switch value {
            case "sharingAuthorized": equal = .holds
            // `.notDetermined` only tells whether the sheet was shown; both other answers follow either branch.
            case "sharingDenied": equal = .fails
            default: return nil
            }
            return op.hasPrefix("=") ? equal : (equal == .holds ? .fails : .holds)
        }
        return nil
    }

    func polarity(_ operand: Operand) -> Polarity? {
        if let p = comparison(operand) { return p }
        for (name, meaning) in flags.sorted(by: { $0.key < $1.key }) {
            if let p = ControlFlow.flagPolarity(operand, names: [name]) { return p == .holds ? meaning : (meaning == .holds ? .fails : .holds) }
        }
        return nil
    }

    func casePolarity(_ label: SwitchCaseLabelSyntax) -> Polarity? {
        let names = Set(label.identifierNames)
        if names.contains("sharingAuthorized") { return .holds }
        if names.contains("sharingDenied") { return .fails }
        return nil
    }
}

/// A property the app sets from `authorizationStatus(for:)` (`isAuthorized = hasWriteAccess ||
/// connected`), which another place then uses to decide whether to read (TetraTrack's settings
/// read the person's weight and birthday only `if healthKit.isAuthorized`).
private struct StatusDerivedProperty {
    let property: String
    /// Where the property gets its value: an assignment, or a computed property's `return`.
    let assignment: Syntax
    let source: ParsedSource
    let statusLine: Int
    /// Where a read depends on it: `file:line` and the read.
    let decision: String

    /// A property of a type: `isAuthorized` of `HealthKitManager`, not of a photo service.
    private struct OwnedProperty: Hashable {
        let name: String
        let owner: String
    }

    static func findings(_ context: AuditContext) -> [StatusDerivedProperty] {
        var candidates: [(property: OwnedProperty, assignment: Syntax, source: ParsedSource, statusLine: Int)] = []
        // HealthKit's own checks only (not `PHPhotoLibrary.authorizationStatus(for:)`): the usage facts decided that once.
        let healthKitChecks = Set(context.usage.facts.filter { $0.kind == .statusCheck }.map(\.evidence.location))
        for source in context.sources {
            for call in source.calls(named: HealthKitVocabulary.statusCheck) where healthKitChecks.contains(source.location(of: call)) {
                let function = SyntaxScope.function(of: Syntax(call))
                // The app's own wrapper: a computed property whose value is the status compared
                // (`var isAuthorized: Bool { … return statuses[.glucose] == .sharingAuthorized }`).
                if let computed = computedProperty(around: call), let owner = SyntaxScope.types(around: call).first.flatMap(SyntaxScope.typeName(of:)) {
                    candidates.append((OwnedProperty(name: computed.name, owner: owner), computed.value, source, source.lineOf(call)))
                    continue
                }
                // Most checks assign no authorization-named property: decide that before tracing anything.
                let assignments = ExprShape.assignments(in: function).filter { assignment in
                    guard assignment.node.position > call.position || assignment.rhs.encloses(call),
                          let name = ExprShape.referencedName(assignment.lhs) else { return false }
                    let lower = name.lowercased()
                    return HealthKitVocabulary.isAuthorizationFlag(name) && !lower.contains("write") && !lower.contains("share")
                }
                guard !assignments.isEmpty, let owner = SyntaxScope.types(around: call).first.flatMap(SyntaxScope.typeName(of:)) else { continue }
                // The status and the locals computed from it, in order (`status`, then `hasWriteAccess`).
                let bindings = function.collect(PatternBindingSyntax.self)
                var derived = StatusTracking(call: call).statusNames
                for binding in bindings where binding.position > call.position {
                    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value,
                          value.encloses(call) || value.mentions(anyOf: derived) else { continue }
                    derived.insert(name)
                }
                let locals = Set(bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text })
                for assignment in assignments {
                    guard assignment.rhs.encloses(call) || assignment.rhs.items.contains(where: { $0.mentions(anyOf: derived) }),
                          let name = ExprShape.referencedName(assignment.lhs), !locals.contains(name), !derived.contains(name) else { continue }
                    candidates.append((OwnedProperty(name: name, owner: owner), Syntax(assignment.node), source, source.lineOf(call)))
                }
            }
        }
        guard !candidates.isEmpty else { return [] }
        let readers = readingFunctions(context)
        // Properties that decide no read are left out.
        var decisions: [OwnedProperty: String] = [:]
        for property in Set(candidates.map(\.property)) {
            decisions[property] = firstReadDecided(by: property, readers: readers, context)
        }
        // Once per assignment and target: a file two targets compile is one tree, read for each.
        struct Seen: Hashable { var assignment: SyntaxIdentifier; var target: String }
        var seen: Set<Seen> = []
        return candidates.compactMap { candidate in
            guard let decision = decisions[candidate.property],
                  seen.insert(Seen(assignment: candidate.assignment.id, target: candidate.source.target)).inserted else { return nil }
            return StatusDerivedProperty(property: candidate.property.name, assignment: candidate.assignment, source: candidate.source,
                                         statusLine: candidate.statusLine, decision: decision)
        }
    }

    /// The authorization-named computed property whose getter holds `call` and returns the status
    /// compared with a sharing answer: its name and the returned comparison.
    private static func computedProperty(around call: FunctionCallExprSyntax) -> (name: String, value: Syntax)? {
        // The nearest property with a getter, past the getter's own locals (`let status = …`), not past a function or closure.
        var found: PatternBindingSyntax?
        for ancestor in call.ancestors {
            if ancestor.is(FunctionDeclSyntax.self) || ancestor.is(ClosureExprSyntax.self) { return nil }
            if let binding = ancestor.as(PatternBindingSyntax.self), binding.accessorBlock != nil { found = binding; break }
        }
        guard let binding = found, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
        let lower = name.lowercased()
        guard HealthKitVocabulary.isAuthorizationFlag(name), !lower.contains("write"), !lower.contains("share"), let accessors = binding.accessorBlock
        else { return nil }
        var returns = accessors.collect(ReturnStmtSyntax.self).compactMap(\.expression)
        // A getter of one expression returns it.
        if returns.isEmpty, case .getter(let items) = accessors.accessors, items.count == 1, let single = items.first?.item.as(ExprSyntax.self) { returns = [single] }
        guard let value = returns.first(where: { $0.mentions(anyOf: ["sharingAuthorized", "sharingDenied"]) }) else { return nil }
        return (name, Syntax(value))
    }

    /// The first `if X.property { … read … }` (or `guard`) in the app whose branch reads HealthKit
    /// and writes nothing, directly or through an app function that reads.
    private static func firstReadDecided(by property: OwnedProperty, readers: Set<String>, _ context: AuditContext) -> String? {
        for source in context.sources where source.file.text.contains(property.name) {
            // The owner's property: bare inside the owner, or on something that holds the owner
            // (`healthKit.isAuthorized` with `let healthKit: HealthKitManager`), not a photo service's.
            func holdsOwner(_ base: ExprSyntax?, at node: some SyntaxProtocol) -> Bool {
                guard let base, base.trimmedText != "self" else {
                    return SyntaxScope.types(around: node).first.flatMap(SyntaxScope.typeName(of:)) == property.owner
                }
                if base.trimmedText.lowercased().contains("health") || base.trimmedText.hasPrefix(property.owner) { return true }
                guard let name = ExprShape.referencedName(base) else { return false }
                return source.tree.collect(PatternBindingSyntax.self).contains { binding in
                    binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
                        && ((binding.typeAnnotation?.type.trimmedText.contains(property.owner) ?? false)
                            || (binding.initializer?.value.trimmedText.hasPrefix(property.owner) ?? false))
                }
            }
            let condition = { (operand: Operand) in
                ControlFlow.flagPolarity(operand) { e in
                    if let ref = e.as(DeclReferenceExprSyntax.self) { return ref.baseName.text == property.name && holdsOwner(nil, at: ref) }
                    if let member = e.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text == property.name && holdsOwner(member.base, at: member) }
                    return false
                }
            }
            for (statement, region) in ControlFlow.regions(within: source.tree, want: .holds, condition: condition) {
                let calls = region.flatMap(\.calls)
                guard !calls.contains(where: HealthKitVocabulary.isWrite),
                      let read = calls.first(where: { HealthKitVocabulary.isRead($0) || ExprShape.calledName($0).map(readers.contains) == true }) else { continue }
                return "\(source.file.path):\(source.lineOf(statement)) (`\(read.calledExpression.trimmedText)(…)`)"
            }
        }
        return nil
    }

    /// App functions whose body reads: HealthKit itself, or the app's own `fetch…` / `load…` reads
    /// (`updateProfileFromHealthKit` awaiting `fetchBodyMeasurements()`), one call deep.
    private static func readingFunctions(_ context: AuditContext) -> Set<String> {
        var names: Set<String> = []
        for source in context.sources {
            for function in source.tree.collect(FunctionDeclSyntax.self) where function.body?.calls.contains(where: HealthKitVocabulary.isRead) == true {
                names.insert(function.name.text)
            }
        }
        return names
    }
}
