import Manifest
import SwiftSyntax

/// `success` from `requestAuthorization` means the request was processed, not that anything was allowed.
struct SuccessReadAsGrantedRule: Rule {
    static let description = RuleDescription(
        id: "success-read-as-granted", title: "Request result taken as permission", severity: .error,
        questions: [.completionInterpreted], reads: [.swift],
        rationale: """
        The `success` flag of `requestAuthorization(toShare:read:completion:)` is `true` whenever the request was \
        processed — whatever the person chose in the sheet — and the `async` form returns normally in the same case. \
        Neither says access was granted. Code that starts a workout, saves, or records "authorized" because of it \
        misbehaves for everyone who declined. Check `authorizationStatus(for:)` before writing and treat empty reads \
        as "no data or no access". The other way round, a request that *throws* could not be made (a missing usage \
        string, a type the app may not ask for): recording that as "denied" tells the person they refused what they \
        were never asked (a warning).
        """,
        triggering: [
            // The app's wrapper shares HealthKit's name and hands the flag on; the screen reads only when it is true.
            .healthApp(["Sources/StepsModel.swift": """
            import HealthKit

            final class StepsModel {
                let store = HKHealthStore()

                func requestAuthorization(completion: @escaping (Bool) -> Void) {
                    store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)]) { success, _ in
                        completion(success)
                    }
                }

                func loadToday() {
                    let query = HKStatisticsQuery(quantityType: HKQuantityType(.stepCount), quantitySamplePredicate: nil, options: .cumulativeSum) { _, _, _ in }
                    store.execute(query)
                }
            }
            """, "Sources/HomeView.swift": """
            import SwiftUI

            struct HomeView: View {
                let model = StepsModel()

                var body: some View {
                    Text("Steps").onAppear {
                        model.requestAuthorization { isSuccess in
                            ↓if isSuccess == true {
                                model.loadToday()
                            }
                        }
                    }
                }
            }
            """]),
            // The app's own method channel hands the request's flag to Dart as "granted".
            .healthApp(["Sources/AppDelegate.swift": """
            import Flutter
            import HealthKit
            import UIKit

            @main
            @objc class AppDelegate: FlutterAppDelegate {
                let healthStore = HKHealthStore()

                func requestAuthorization(result: @escaping FlutterResult) {
                    healthStore.requestAuthorization(toShare: nil, read: [HKObjectType.workoutType()]) { success, error in
                        if success {
                            ↓result(true)
                        } else {
                            result(false)
                        }
                    }
                }
            }
            """]),
            // An async wrapper resumes with the request's flag; a second passes it on; the Settings
            // toggle turns Health import on when it is true (W8Trackr's shape).
            .healthApp(["Sources/HealthStore.swift": """
            import HealthKit

            final class HealthStore {
                let store = HKHealthStore()

                func requestAuthorization() async throws -> Bool {
                    guard HKHealthStore.isHealthDataAvailable() else { return false }
                    return try await withCheckedThrowingContinuation { continuation in
                        store.requestAuthorization(toShare: [], read: [HKQuantityType(.bodyMass)]) { success, error in
                            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: success) }
                        }
                    }
                }
            }
            """, "Sources/HealthSync.swift": """
            import Foundation

            final class HealthSync {
                let health = HealthStore()
                var isHealthImportEnabled = false

                func requestImportAccess() async throws -> Bool {
                    try await health.requestAuthorization()
                }
            }
            """, "Sources/Settings.swift": """
            import Foundation

            final class Settings {
                let sync = HealthSync()

                func turnOnImport() async {
                    let success = (try? await sync.requestImportAccess()) ?? false
                    if success {
                        ↓sync.isHealthImportEnabled = true
                    }
                }
            }
            """]),
            // Through the app's own function that passes the flag on (CardinalKit's getHealthKitAuth).
            .healthApp(["Sources/HealthManager.swift": """
            import HealthKit

            final class HealthManager {
                static let shared = HealthManager()
                let store = HKHealthStore()

                func getHealthKitAuth(forTypes types: Set<HKSampleType>, _ completion: @escaping (Bool, Error?) -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return completion(false, nil) }
                    store.requestAuthorization(toShare: nil, read: types) { success, error in
                        completion(success, error)
                    }
                }
            }
            """, "Sources/Activity.swift": """
            import HealthKit

            final class Activity {
                var hasGrantedAuth = false

                func connect() {
                    HealthManager.shared.getHealthKitAuth(forTypes: [HKQuantityType(.stepCount)]) { [weak self] success, _ in
                        ↓self?.hasGrantedAuth = success
                    }
                }
            }
            """]),
            .healthApp(["Sources/Recorder.swift": """
            import HealthKit

            final class Recorder {
                let store = HKHealthStore()

                func connect() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let types: Set = [HKObjectType.workoutType()]
                    store.requestAuthorization(toShare: types, read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]) { success, error in
                        ↓if success {
                            self.startRecordingWorkout()
                        }
                    }
                }

                func startRecordingWorkout() {
                    let configuration = HKWorkoutConfiguration()
                    configuration.activityType = .running
                    let session = try? HKWorkoutSession(healthStore: store, configuration: configuration)
                    session?.startActivity(with: Date())
                }
            }
            """]),
            // The wrapper's own completion runs only when the flag is true, and its callers save in it, through a
            // second wrapper that hands its completion on (Iron's `requestShareWorkoutPermission { … save … }`).
            .healthApp(["Sources/HealthManager.swift": """
            import HealthKit

            final class HealthManager {
                let healthStore = HKHealthStore()

                private func requestPermissions(toShare share: Set<HKSampleType>?, completion: @escaping () -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    healthStore.requestAuthorization(toShare: share, read: nil) { success, error in
                        ↓guard success else { return }
                        completion()
                    }
                }

                func requestShareWorkoutPermission(completion: @escaping () -> Void) {
                    requestPermissions(toShare: [HKObjectType.workoutType()], completion: completion)
                }

                func saveWorkout(_ workout: HKWorkout) {
                    requestShareWorkoutPermission {
                        self.healthStore.save(workout) { _, _ in }
                    }
                }
            }
            """], share: ["workout"]),
            // Through the app's own method that starts the reads (seen in a real step counter).
            .healthApp(["Sources/StepsModel.swift": """
            import HealthKit

            final class StepsModel {
                let store = HKHealthStore()

                init() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]) { success, _ in
                        ↓if success {
                            self.startObservingSteps()
                        }
                    }
                }

                private func startObservingSteps() {
                    let query = HKObserverQuery(sampleType: HKQuantityType(.stepCount), predicate: nil) { _, _, _ in }
                    store.execute(query)
                }
            }
            """], share: []),
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()
                var isAuthorized = false

                func ask() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]) { success, _ in
                        ↓self.isAuthorized = success
                    }
                }
            }
            """]),
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            @MainActor
            final class Access {
                enum State { case unknown, authorized, failed }
                let store = HKHealthStore()
                var state = State.unknown
                var showsWorkouts: Bool { state == .authorized }

                func ask() async {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    do {
                        try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                        state = .authorized
                    } catch {
                        state = .failed
                    }
                }
            }
            """]),
            // Stored across launches as granted: `@AppStorage` keeps what it is set to, read or not.
            .healthApp(["Sources/Onboarding.swift": """
            import HealthKit
            import SwiftUI

            struct Onboarding: View {
                @AppStorage("healthAuthorized") private var authorized = false
                let store = HKHealthStore()

                var body: some View {
                    Button("Connect Health") {
                        Task {
                            guard HKHealthStore.isHealthDataAvailable() else { return }
                            try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                            ↓authorized = true
                        }
                    }
                }
            }
            """], read: ["stepCount"], share: []),
            // A request that could not be made, shown as the person's refusal.
            .healthApp(["Sources/Waves.swift": """
            import HealthKit

            @MainActor
            final class Waves {
                enum State { case unknown, asked, denied }
                let store = HKHealthStore()
                var state = State.unknown

                func ask() async {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    do {
                        try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                        state = .asked
                    } catch {
                        ↓state = .denied
                    }
                }
            }
            """]),
            // A wrapper that answers `true` whenever the request did not throw (seen in a real watch app).
            .healthApp(["Sources/WorkoutManager.swift": """
            import HealthKit

            final class WorkoutManager {
                let healthStore = HKHealthStore()

                func requestAuthorization() async -> Bool {
                    guard HKHealthStore.isHealthDataAvailable() else { return false }
                    do {
                        try await healthStore.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                        return true
                    } catch {
                        return false
                    }
                }
            }
            """]),
        ],
        nonTriggering: [
            // A failed request leaves the app not authorized, truly; a save beside the request can throw a real refusal;
            // a typed catch of `errorAuthorizationDenied` is one.
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            @MainActor
            final class Access {
                enum State { case unknown, asked, notAuthorized, denied }
                let store = HKHealthStore()
                var state = State.unknown
                var canShow: Bool { state == .asked }

                func ask() async {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    do {
                        try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                    } catch {
                        state = .notAuthorized
                    }
                }

                func askAndSave(_ sample: HKQuantitySample) async {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    do {
                        try await store.requestAuthorization(toShare: [HKQuantityType(.stepCount)], read: [])
                        guard store.authorizationStatus(for: HKQuantityType(.stepCount)) == .sharingAuthorized else { return }
                        try await store.save(sample)
                    } catch {
                        state = .denied
                    }
                }

                func askTyped() async {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    do {
                        try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                    } catch HKError.errorAuthorizationDenied {
                        state = .denied
                    } catch {
                        state = .notAuthorized
                    }
                }
            }
            """], read: ["stepCount"], share: ["stepCount"]),
            // Another type's method of the same name: its caller's save does not hang on this wrapper's flag.
            .healthApp(["Sources/Steps.swift": """
            import HealthKit

            final class Steps {
                let store = HKHealthStore()

                func ask(completion: @escaping () -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    store.requestAuthorization(toShare: nil, read: [HKQuantityType(.stepCount)]) { success, _ in
                        guard success else { return }
                        completion()
                    }
                }

                func onboardingFinished() {
                    ask { print("asked") }
                }
            }
            """, "Sources/Journal.swift": """
            import HealthKit

            final class Journal {
                let store = HKHealthStore()

                func ask(completion: @escaping () -> Void) {
                    completion()
                }

                func log(_ sample: HKQuantitySample) {
                    ask {
                        guard self.store.authorizationStatus(for: HKQuantityType(.bodyMass)) == .sharingAuthorized else { return }
                        self.store.save(sample) { _, _ in }
                    }
                    ask {
                        self.store.delete(sample) { _, _ in }
                    }
                }
            }
            """], read: ["stepCount"], share: []),
            // The wrapper's completion runs only on success, but its caller asks the status before it saves.
            .healthApp(["Sources/Workouts.swift": """
            import HealthKit

            final class Workouts {
                let healthStore = HKHealthStore()

                func ask(completion: @escaping () -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    healthStore.requestAuthorization(toShare: [HKObjectType.workoutType()], read: nil) { success, _ in
                        guard success else { return }
                        completion()
                    }
                }

                func save(_ workout: HKWorkout) {
                    ask {
                        guard self.healthStore.authorizationStatus(for: .workoutType()) == .sharingAuthorized else { return }
                        self.healthStore.save(workout) { _, _ in }
                    }
                }
            }
            """], read: [], share: ["workout"]),
            // The wrapper's completion runs only on success, but its callers only note that the sheet was answered.
            .healthApp(["Sources/Permissions.swift": """
            import HealthKit

            final class Permissions {
                let healthStore = HKHealthStore()
                var askedOnce = false

                func ask(completion: @escaping () -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    healthStore.requestAuthorization(toShare: nil, read: [HKQuantityType(.stepCount)]) { success, _ in
                        guard success else { return }
                        completion()
                    }
                }

                func onboardingFinished() {
                    ask { self.askedOnce = true }
                }
            }
            """], read: ["stepCount"], share: []),
            // A flag set once the request returns that nothing ever reads misleads no one.
            .healthApp(["Sources/Manager.swift": """
            import HealthKit

            @MainActor
            final class Manager {
                let store = HKHealthStore()
                private var isAuthorized = false

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                    isAuthorized = true
                }
            }
            """], read: ["stepCount"], share: []),
            // Published or not (Walkable's `@Published public var isAuthorized`, which no view shows).
            .healthApp(["Sources/Manager.swift": """
            import HealthKit

            @MainActor
            final class Manager: ObservableObject {
                let store = HKHealthStore()
                @Published public var isAuthorized = false

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                    isAuthorized = true
                }
            }
            """], read: ["stepCount"], share: []),
            // Noting that the request was answered, and asking each store again, take nothing as
            // granted (Loop and LoopKit do both).
            .healthApp(["Sources/SampleStore.swift": """
            import HealthKit

            final class SampleStore {
                let healthStore = HKHealthStore()
                let sampleType = HKQuantityType(.dietaryCarbohydrates)
                private(set) var authorizationDetermined = false

                func authorize(_ completion: @escaping (Bool) -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return completion(false) }
                    healthStore.requestAuthorization(toShare: [sampleType], read: [sampleType]) { completed, error in
                        if completed {
                            self.authorizationDetermined = true
                            print("Health sheet answered")
                        }
                        completion(error == nil)
                    }
                }
            }
            """, "Sources/DataManager.swift": """
            import HealthKit

            final class DataManager {
                let carbStore = SampleStore()
                let glucoseStore = SampleStore()

                func authorizeAll() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    carbStore.healthStore.requestAuthorization(toShare: [carbStore.sampleType], read: [carbStore.sampleType]) { success, _ in
                        if success {
                            self.carbStore.authorize { _ in }
                            self.glucoseStore.authorize { _ in }
                        }
                    }
                }
            }
            """], read: ["dietaryCarbohydrates"], share: ["dietaryCarbohydrates"]),
            // Another framework's request of the same name as the app's wrapper is not HealthKit's.
            .healthApp(["Sources/HealthManager.swift": """
            import HealthKit
            import UserNotifications

            final class HealthManager {
                static let shared = HealthManager()
                let store = HKHealthStore()
                var notificationsAuthorized = false

                func requestAuthorization(_ completion: @escaping (Bool) -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return completion(false) }
                    store.requestAuthorization(toShare: nil, read: [HKQuantityType(.stepCount)]) { success, _ in
                        completion(success)
                    }
                }

                func askForReminders() {
                    UNUserNotificationCenter.current().requestAuthorization(options: [.alert]) { granted, _ in
                        self.notificationsAuthorized = granted
                    }
                    HealthManager.shared.requestAuthorization { done in
                        print("health sheet finished: \\(done)")
                    }
                }
            }
            """], read: ["stepCount"], share: []),
            // A property holding the request as a closure is not a flag (seen in a real app).
            .healthApp(["Sources/Service.swift": """
            import HealthKit

            struct HealthService {
                let healthStore = HKHealthStore()

                var requestReadAuthorization: () async throws -> Void {
                    { [healthStore] in
                        guard HKHealthStore.isHealthDataAvailable() else { return }
                        try await healthStore.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                    }
                }

                var requestAuthorizationNow: () async throws -> Void = {
                    try await HKHealthStore().requestAuthorization(toShare: [], read: [HKQuantityType(.heartRate)])
                }
            }
            """], share: []),
            .healthApp(["Sources/Recorder.swift": """
            import HealthKit

            final class Recorder {
                let store = HKHealthStore()

                func connect() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let workoutType = HKObjectType.workoutType()
                    store.requestAuthorization(toShare: [workoutType], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]) { success, error in
                        if success {
                            if self.store.authorizationStatus(for: workoutType) == .sharingAuthorized {
                                self.startRecordingWorkout()
                            }
                        }
                    }
                }

                func startRecordingWorkout() {}
            }
            """]),
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            @MainActor
            final class Access {
                enum Phase { case checking, ready, failed }
                let store = HKHealthStore()
                var phase = Phase.checking

                func ask() async {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    do {
                        try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                    } catch {
                        phase = .failed
                        return
                    }
                    // The sheet was answered; declined reads simply come back empty.
                    phase = .ready
                    await loadSummary()
                }

                func loadSummary() async {}
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let vocabulary = context.vocabulary
        let functions = AppFunctions(context.sources, vocabulary)
        // The person's own switches (`Toggle(isOn: $healthKitEnabled)`) turned on once the request returns.
        let switches = RememberedAnswers.switches(in: context.sources)
        var findings: [Finding] = []
        // Completions that receive HealthKit's flag: the request's own, then those of the app's
        // functions that pass it on to their caller (`getHealthKitAuth { success, _ in … }`).
        var completions: [(closure: ClosureExprSyntax, flagIndex: Int, source: ParsedSource, via: [String])] = []
        for source in context.sources {
            for call in source.calls(named: "requestAuthorization") where isHealthKitRequest(call, vocabulary) {
                if let closure = ClosureShape.completion(of: call) { completions.append((closure, 0, source, [])) }
                else if HealthKitVocabulary.isAwaited(call) {
                    findings += asyncUses(call, source, switches: switches, sources: context.sources)
                    if let denial = Self.denialInCatch(of: call) {
                        var result = finding("`\(denial.trimmedText)` when `requestAuthorization` throws: a request throws when it could not be made "
                                             + "(a missing usage string, a type it may not ask for), never because the person declined; show the failure, "
                                             + "not a refusal", at: denial, in: source)
                        result.severity = .warning
                        findings.append(result)
                    }
                }
            }
        }
        findings += asyncWrapperUses(context.sources, vocabulary)
        var seenWrappers: Set<String> = []
        var next = 0
        while next < completions.count {
            let completion = completions[next]
            next += 1
            findings += completionUses(completion.closure, completion.source, flagIndex: completion.flagIndex, via: completion.via, functions: functions,
                                       sources: context.sources)
            // Three levels of passing on are plenty (CardinalKit: request → manager → app facade).
            guard completion.via.count < 3, let wrapper = ForwardingWrapper(completion.closure, flagIndex: completion.flagIndex),
                  seenWrappers.insert(wrapper.name + "#\(wrapper.parameterIndex)").inserted else { continue }
            for source in context.sources {
                for call in source.calls(named: wrapper.name) where wrapper.isCall(call, vocabulary) {
                    if let closure = wrapper.completion(of: call) {
                        completions.append((closure, wrapper.flagIndex, source, completion.via + [wrapper.name]))
                    }
                }
            }
        }
        return findings
    }

    /// An app function whose completion parameter is called with the request's flag: its callers'
    /// closures receive that flag, and trusting it there is the same mistake.
    private struct ForwardingWrapper {
        let function: FunctionDeclSyntax
        var name: String { function.name.text }
        /// Which of the function's parameters is the completion, and which of its arguments the flag.
        let parameterIndex: Int
        let flagIndex: Int

        init?(_ closure: ClosureExprSyntax, flagIndex: Int) {
            let parameters = ClosureShape.parameterNames(closure)
            let flag = flagIndex < parameters.count ? parameters[flagIndex] : "$\(flagIndex)"
            guard flag != "_", let function = closure.enclosing(FunctionDeclSyntax.self) else { return nil }
            let declared = Array(function.signature.parameterClause.parameters)
            for call in closure.calls {
                guard let called = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
                      let index = declared.firstIndex(where: { $0.localName == called }),
                      let position = call.arguments.firstIndex(where: { $0.expression.trimmedText == flag }) else { continue }
                self.function = function
                self.parameterIndex = index
                self.flagIndex = call.arguments.distance(from: call.arguments.startIndex, to: position)
                return
            }
            return nil
        }

        /// A call of this function (not the call inside it, and not another framework's same-named request).
        func isCall(_ call: FunctionCallExprSyntax, _ vocabulary: HealthKitVocabulary) -> Bool {
            if function.encloses(call) { return false }
            // The app's wrapper shares HealthKit's name (`viewModel.requestAuthorization { ok in … }`); another
            // framework's request of that name (`PHPhotoLibrary.requestAuthorization { status in … }`) is not it.
            if name == "requestAuthorization" && !vocabulary.isAuthorizationRequest(call) && HealthKitVocabulary.isOtherFrameworkReceiver(ExprShape.base(of: call)) { return false }
            let labels = Set(function.signature.parameterClause.parameters.map(\.firstName.text))
            return ExprShape.labels(call).allSatisfy { $0.isEmpty || labels.contains($0) }
        }

        /// The closure the call passes for the completion parameter.
        func completion(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
            call.argument(for: parameterIndex, of: function)?.as(ClosureExprSyntax.self)
        }
    }

    /// HealthKit's own request, not an app wrapper: a wrapper's flag may already mean something else.
    private func isHealthKitRequest(_ call: FunctionCallExprSyntax, _ vocabulary: HealthKitVocabulary) -> Bool {
        guard vocabulary.isAuthorizationRequest(call) else { return false }
        return HealthKitVocabulary.isFrameworkRequest(call) || vocabulary.isStoreReceiver(ExprShape.base(of: call))
    }

    // MARK: Completion form

    private func completionUses(_ closure: ClosureExprSyntax, _ source: ParsedSource, flagIndex: Int, via wrappers: [String],
                                functions: AppFunctions, sources: [ParsedSource]) -> [Finding] {
        let parameters = ClosureShape.parameterNames(closure)
        let flag = flagIndex < parameters.count ? parameters[flagIndex] : "$\(flagIndex)"
        guard flag != "_" else { return [] }
        // Through a wrapper the flag is what the wrapper handed on (`completion(success)`): recorded, handed to Dart, or deciding a read or write.
        let origin = wrappers.isEmpty ? "requestAuthorization"
            : "requestAuthorization (passed on by " + wrappers.map { "`\($0)(…)`" }.joined(separator: " → ") + ")"
        var findings: [Finding] = []
        // `isAuthorized = success`
        for assignment in ExprShape.assignments(in: closure) where assignment.rhs.mentions(flag) {
            guard let name = ExprShape.referencedName(assignment.lhs), Self.recordsGrant(name) else { continue }
            findings.append(finding("`\(name)` is set from the `\(flag)` flag of \(origin), which only says the request was processed, "
                                    + "not that access was granted", at: assignment.node, in: source))
        }
        // `result(success)`, or `if success { result(true) }`: the flag handed to Dart through the app's
        // own method channel as the request's answer (a grant, whatever the person chose).
        let holding = ControlFlow.regions(within: closure, want: .holds, condition: { ControlFlow.flagPolarity($0, names: [flag]) }).flatMap(\.region)
        for call in closure.calls where Self.isFlutterResult(call) {
            guard let argument = call.arguments.first?.expression else { continue }
            let handsFlag = argument.trimmedText == flag
            let handsTrue = holding.contains { $0.encloses(call) } && (ExprShape.isBool(argument, true)
                || argument.as(DictionaryExprSyntax.self)?.content.as(DictionaryElementListSyntax.self)?.contains { ExprShape.isBool($0.value, true) } == true)
            guard handsFlag || handsTrue else { continue }
            findings.append(finding("the `\(flag)` flag of \(origin) is handed to Dart as the method's answer (`\(call.trimmedText)`): it only says the "
                                    + "request was processed, so the Flutter side hears \"granted\" whatever the person chose", at: call, in: source))
        }
        // `update(authorized: success)`, `defaults.set(success, forKey: "healthAuthorized")`
        for call in closure.calls where wrappers.isEmpty && call.arguments.contains(where: { $0.expression.trimmedText == flag }) {
            let labels = ExprShape.labels(call)
            let key = ExprShape.argument(call, label: "forKey")?.trimmedText ?? ""
            guard labels.contains(where: HealthKitVocabulary.isAuthorizationFlag) || HealthKitVocabulary.isAuthorizationKey(key) else { continue }
            findings.append(finding("the `\(flag)` flag of requestAuthorization is recorded as authorization; it only says the request was processed",
                                    at: call, in: source))
        }
        // `if success { startWorkout() }` without a status check in the branch, also where the app's own
        // function handed the flag on (`requestAuthorization { ok in if ok { query } }`): the checklist's
        // "gates reads or writes". Only what reads or writes HealthKit, or records a grant, rests on the
        // flag: asking again, logging, or noting that the request was answered (`authorizationDetermined
        // = true`) takes nothing as granted.
        for (statement, region) in ControlFlow.regions(within: closure, want: .holds, condition: { ControlFlow.flagPolarity($0, names: [flag]) }) {
            guard !region.contains(where: HealthKitVocabulary.checksStatus) else { continue }
            let calls = region.flatMap(\.calls)
            let action = calls.first { functions.readsOrWrites($0) }
            let grants = region.flatMap { ExprShape.assignments(in: $0) }.first { assignment in
                guard HealthKitVocabulary.isGrantedValue(assignment.rhs) else { return false }
                // `isAuthorized = true`, `state = .authorized`; not `authorizationDetermined = true`.
                if let name = ExprShape.referencedName(assignment.lhs), HealthKitVocabulary.isAuthorizationFlag(name) { return Self.recordsGrant(name) }
                return ExprShape.memberName(assignment.rhs.single!) != nil
            }
            // `guard success else { return }; completion()`: the wrapper's own completion runs only then, and the
            // closures its callers pass read or write (Iron's `requestShareWorkoutPermission { … save … }`).
            let handedOn = action == nil && grants == nil
                ? Self.gatedCompletion(in: calls, of: closure, outside: Set(region.flatMap(\.calls).map(\.id)), sources: sources, functions: functions) : nil
            guard action != nil || grants != nil || handedOn != nil else { continue }
            if let handedOn {
                findings.append(finding("`\(handedOn.call)` runs only when `\(flag)` is true, and the app's callers read or write HealthKit in it "
                                        + "(\(handedOn.place)), but `\(flag)` only means the request was processed; check "
                                        + "`authorizationStatus(for:)` before writing and expect empty reads", at: statement, in: source))
                continue
            }
            let what = action.map { "`\($0.calledExpression.trimmedText)(…)`" } ?? "`\(grants!.node.trimmedText)`"
            let passed = wrappers.isEmpty ? "" : " (the flag of \(origin))"
            findings.append(finding("\(what) runs because `\(flag)`\(passed) is true, but `\(flag)` only means the request was processed; check "
                                    + "`authorizationStatus(for:)` before writing and expect empty reads", at: statement, in: source))
        }
        return findings
    }

    /// A completion parameter of the function around the request's closure, called in `calls`
    /// (`completion()`), whose callers pass closures that read or write HealthKit: the call, and the
    /// first such read or write as `File.swift:line`.
    private static func gatedCompletion(in calls: [FunctionCallExprSyntax], of closure: ClosureExprSyntax, outside region: Set<SyntaxIdentifier>,
                                        sources: [ParsedSource], functions: AppFunctions) -> (call: String, place: String)? {
        guard let function = closure.enclosing(FunctionDeclSyntax.self) else { return nil }
        let parameters = Array(function.signature.parameterClause.parameters)
        for call in calls {
            guard let called = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
                  let index = parameters.firstIndex(where: { $0.localName == called }) else { continue }
            // Called on the failure path too (`if success { completion() } else { completion() }`): not only when true.
            let elsewhere = closure.calls.contains { other in
                !region.contains(other.id) && other.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == called
            }
            if elsewhere { continue }
            for (passed, source) in passedClosures(for: function, parameter: index, sources: sources, depth: 0) {
                // A caller that asks the status before it saves (`guard …authorizationStatus(for:) == .sharingAuthorized`) does right.
                guard !HealthKitVocabulary.checksStatus(passed), let action = passed.calls.first(where: functions.readsOrWrites) else { continue }
                return (call.trimmedText, "\(source.file.path.split(separator: "/").last ?? ""):\(source.location(of: action).line ?? 0)")
            }
        }
        return nil
    }

    /// The closures the app passes for parameter `index` of `function`, also through callers that hand on
    /// their own parameter (`requestPermissions(…, completion: completion)`), three levels deep.
    private static func passedClosures(for function: FunctionDeclSyntax, parameter index: Int, sources: [ParsedSource],
                                       depth: Int) -> [(ClosureExprSyntax, ParsedSource)] {
        guard depth < 3 else { return [] }
        // Calls compiled with the function (a watch app's `requestPermissions` is not the phone's of the same name).
        let targets = Set(sources.filter { $0.tree.id == function.root.id }.map(\.target))
        let owner = SyntaxScope.types(around: function).first.flatMap(SyntaxScope.typeName)
        var found: [(ClosureExprSyntax, ParsedSource)] = []
        for source in sources where targets.contains(source.target) {
            for call in source.calls(named: function.name.text) where !function.encloses(call) && ExprShape.fits(call, function) {
                // `ask { … }` or `self.ask { … }` calls the caller's own type's method: another type's `ask` is not this one.
                let base = ExprShape.base(of: call)?.trimmedDescription
                if base == nil || base == "self" || base == "Self",
                   let owner, SyntaxScope.types(around: call).first.flatMap(SyntaxScope.typeName) != owner { continue }
                guard let argument = call.argument(for: index, of: function) else { continue }
                if let closure = argument.as(ClosureExprSyntax.self) { found.append((closure, source)); continue }
                // The caller's own completion handed on: the closures its callers pass.
                guard let name = argument.as(DeclReferenceExprSyntax.self)?.baseName.text, let caller = call.enclosing(FunctionDeclSyntax.self),
                      let position = Array(caller.signature.parameterClause.parameters).firstIndex(where: { $0.localName == name })
                else { continue }
                found += passedClosures(for: caller, parameter: position, sources: sources, depth: depth + 1)
            }
        }
        return found
    }

    /// A call of a Flutter method call's `result` callback: a `FlutterResult` parameter of the function
    /// around it, or the second parameter of a `setMethodCallHandler` closure.
    static func isFlutterResult(_ call: FunctionCallExprSyntax) -> Bool {
        guard let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
        for ancestor in call.ancestors {
            if let function = ancestor.as(FunctionDeclSyntax.self) {
                return function.signature.parameterClause.parameters.contains { $0.localName == name && $0.type.trimmedText.contains("FlutterResult") }
            }
            if let closure = ancestor.as(ClosureExprSyntax.self), ClosureShape.parameterNames(closure).dropFirst().first == name,
               let owner = closure.parent?.as(FunctionCallExprSyntax.self) ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self),
               ExprShape.calledName(owner) == "setMethodCallHandler" {
                return true
            }
        }
        return false
    }

    // MARK: Async wrappers

    /// The app's async functions that hand back the request's flag as their result: a continuation
    /// resumed with the completion's flag (`continuation.resume(returning: success)`), and, up to
    /// three levels, functions that return such a function's result (`try await store.requestAuthorization()`).
    private func asyncFlagWrappers(_ sources: [ParsedSource], _ vocabulary: HealthKitVocabulary) -> [String: FunctionDeclSyntax] {
        var wrappers: [String: FunctionDeclSyntax] = [:]
        for source in sources {
            for call in source.calls(named: "requestAuthorization") where isHealthKitRequest(call, vocabulary) {
                guard let closure = ClosureShape.completion(of: call), let flag = ClosureShape.parameterNames(closure).first, flag != "_",
                      closure.calls.contains(where: { ExprShape.calledName($0) == "resume" && ExprShape.argument($0, label: "returning")?.trimmedText == flag }),
                      let function = call.enclosing(FunctionDeclSyntax.self), Self.returnsBool(function) else { continue }
                wrappers[function.name.text] = function
            }
        }
        for _ in 0..<3 {
            var added: [String: FunctionDeclSyntax] = [:]
            for source in sources {
                for function in source.tree.collect(FunctionDeclSyntax.self) where wrappers[function.name.text] == nil && Self.returnsBool(function) {
                    guard let body = function.body, body.statements.count == 1, let only = body.statements.first else { continue }
                    // `try await store.requestAuthorization()` alone, or `return` of it.
                    let value = only.item.as(ReturnStmtSyntax.self)?.expression ?? only.item.as(ExprSyntax.self)
                    guard let value, let call = ExprShape.stripped(value).as(FunctionCallExprSyntax.self),
                          let name = ExprShape.calledName(call), wrappers[name] != nil, call.arguments.isEmpty else { continue }
                    added[function.name.text] = function
                }
            }
            if added.isEmpty { break }
            wrappers.merge(added) { first, _ in first }
        }
        return wrappers
    }

    private static func returnsBool(_ function: FunctionDeclSyntax) -> Bool {
        function.signature.effectSpecifiers?.asyncSpecifier != nil && function.signature.returnClause?.type.trimmedText == "Bool"
    }

    /// `let success = try await healthSync.requestAuthorization()` then `if success { isHealthImportEnabled = true }`:
    /// a grant recorded because the wrapper handed back the request's flag. Through a wrapper only what is
    /// recorded counts, as for completions passed on.
    private func asyncWrapperUses(_ sources: [ParsedSource], _ vocabulary: HealthKitVocabulary) -> [Finding] {
        let wrappers = asyncFlagWrappers(sources, vocabulary)
        guard !wrappers.isEmpty else { return [] }
        var findings: [Finding] = []
        for source in sources {
            for (name, declaration) in wrappers.sorted(by: { $0.key < $1.key }) {
                for call in source.calls(named: name) where !declaration.encloses(call) && !HealthKitVocabulary.isFrameworkRequest(call) && call.arguments.isEmpty {
                    guard let binding = call.enclosing(PatternBindingSyntax.self), binding.initializer?.value.encloses(call) == true,
                          let flag = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                          let scope = binding.enclosing(CodeBlockSyntax.self) else { continue }
                    for (_, region) in ControlFlow.regions(within: scope, want: .holds, condition: { ControlFlow.flagPolarity($0, names: [flag]) }) {
                        guard let grant = region.flatMap({ ExprShape.assignments(in: $0) }).first(where: { assignment in
                            guard HealthKitVocabulary.isGrantedValue(assignment.rhs), let recorded = ExprShape.referencedName(assignment.lhs)
                                ?? assignment.lhs.as(MemberAccessExprSyntax.self)?.declName.baseName.text else { return false }
                            return Self.recordsGrant(recorded)
                        }) else { continue }
                        findings.append(finding("`\(grant.node.trimmedText)` runs because `\(flag)`, the value `\(name)()` hands back from requestAuthorization's "
                                                + "completion, is true — but it only means the request was processed, not that access was granted",
                                                at: grant.node, in: source))
                    }
                }
            }
        }
        return findings
    }

    /// A name that holds the answer (`isAuthorized`, `healthAccessGranted`), not one that notes the
    /// asking (`authorizationDetermined`, `authorizationRequested`, `didAskForHealthAccess`).
    static func recordsGrant(_ name: String) -> Bool {
        let lower = name.lowercased()
        return HealthKitVocabulary.isAuthorizationFlag(name) && !GrantNames.requestWords.contains(where: lower.contains)
    }

    // MARK: Async form

    private func asyncUses(_ call: FunctionCallExprSyntax, _ source: ParsedSource, switches: Set<String>, sources: [ParsedSource]) -> [Finding] {
        // `let granted = (try? await store.requestAuthorization(…)) != nil`
        // Not `var requestReadAuthorization: () async throws -> Void = { … requestAuthorization(…) }`:
        // a property holding a closure that asks is a function, not a flag.
        let insideClosureValue = call.enclosing(ClosureExprSyntax.self).map { closure in
            call.enclosing(PatternBindingSyntax.self)?.initializer?.value.encloses(closure) == true
        } ?? false
        if !insideClosureValue, let binding = call.enclosing(PatternBindingSyntax.self), binding.initializer?.value.encloses(call) == true,
           let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, HealthKitVocabulary.isAuthorizationFlag(name) {
            return [finding("`\(name)` is derived from requestAuthorization returning, which only means the request was processed", at: binding, in: source)]
        }
        for item in ControlFlow.statementsAfter(call) {
            // A fresh status check from here on decides; nothing after it rests on the request alone.
            if HealthKitVocabulary.checksStatus(item) { break }
            for assignment in ExprShape.assignments(in: item) where HealthKitVocabulary.isGrantedValue(assignment.rhs) {
                let name = ExprShape.referencedName(assignment.lhs) ?? ""
                if !name.isEmpty, !Self.recordsGrant(name) || switches.contains(name), HealthKitVocabulary.isAuthorizationFlag(name) { continue }
                guard Self.recordsGrant(name) || ExprShape.memberName(assignment.rhs.single!) != nil,
                      !isInsideCatch(assignment.node),
                      // A flag nothing reads (set, never tested, shown or stored) misleads no one.
                      name.isEmpty || Self.isEverRead(name, in: sources) else { continue }
                return [finding("`\(assignment.node.trimmedText)` right after `requestAuthorization` returned: returning only means the request "
                                + "was processed, not that access was granted", at: assignment.node, in: source)]
            }
            // `func requestAuthorization() async -> Bool { try await store.requestAuthorization(…); return true }`:
            // callers get `true` whatever the person chose. A warning: what callers do with it decides the harm.
            for statement in item.collect(ReturnStmtSyntax.self) where !isInsideCatch(statement) {
                guard let value = statement.expression, ExprShape.isBool(value, true),
                      let function = statement.enclosing(FunctionDeclSyntax.self), function.encloses(call),
                      function.signature.returnClause?.type.trimmedText == "Bool" else { continue }
                var result = finding("`\(function.name.text)()` returns `true` once `requestAuthorization` returns, which only means the request was "
                                     + "processed: its callers take it as access granted; check `authorizationStatus(for:)` before writing",
                                     at: statement, in: source)
                result.severity = .warning
                return [result]
            }
        }
        return []
    }

    /// Whether a property's attribute keeps its value for readers elsewhere (`@AppStorage("key")` stores it for
    /// whoever reads the key, an app's own wrapper may too); a `@Published` or `@State` value is read only
    /// where it is referenced (a view showing `health.isAuthorized`).
    static func keepsValue(_ element: AttributeListSyntax.Element) -> Bool {
        guard let attribute = element.as(AttributeSyntax.self) else { return true }
        let name = attribute.attributeName.trimmedText
        return !["Published", "State", "ObservationIgnored", "MainActor", "objc", "nonobjc", "Observable", "available"].contains(name)
    }

    /// Whether `name` is used anywhere other than where it is declared or assigned (`isAuthorized = true`).
    /// A property whose wrapper keeps its value (`keepsValue`) or with a `didSet` is read whenever it is set,
    /// and `$name` is a use.
    static func isEverRead(_ name: String, in sources: [ParsedSource]) -> Bool {
        for source in sources where ByteSearch.contains(source.file.text, name) {
            let index = SyntaxIndex.shared.identifiers(in: Syntax(source.tree))
            if index["$" + name]?.isEmpty == false { return true }
            for position in index[name] ?? [] {
                guard let token = source.tree.token(at: position) else { continue }
                if let pattern = token.parent?.as(IdentifierPatternSyntax.self) {
                    let binding = pattern.parent?.as(PatternBindingSyntax.self)
                    let observed = binding?.accessorBlock?.accessors.as(AccessorDeclListSyntax.self)?.contains {
                        $0.accessorSpecifier.tokenKind == .keyword(.didSet) || $0.accessorSpecifier.tokenKind == .keyword(.willSet)
                    } ?? false
                    let attributes = binding?.parent?.parent?.as(VariableDeclSyntax.self)?.attributes ?? []
                    if observed || attributes.contains(where: Self.keepsValue) { return true }
                    continue
                }
                guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { return true }
                var expression = ExprSyntax(reference)
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { expression = ExprSyntax(member) }
                // `name = …` (or `self.name = …`): the left of an assignment in its sequence.
                if let list = expression.parent?.as(ExprListSyntax.self), let index = list.firstIndex(where: { $0.id == expression.id }),
                   list.index(after: index) != list.endIndex, list[list.index(after: index)].is(AssignmentExprSyntax.self) {
                    continue
                }
                return true
            }
        }
        return false
    }

    /// In the `catch` of the `do` around an awaited request: a refusal recorded (`state = .denied`,
    /// `isDenied = true`, `setAuthState(.denied, …)`), not a log line.
    static func denialInCatch(of call: FunctionCallExprSyntax) -> Syntax? {
        guard let statement = call.ancestors.first(where: { $0.is(DoStmtSyntax.self) })?.as(DoStmtSyntax.self), statement.body.encloses(call),
              // Only the request can throw there: a save beside it throws `errorAuthorizationDenied` when the person did refuse.
              statement.body.collect(TryExprSyntax.self).allSatisfy({ $0.expression.encloses(call) }) else { return nil }
        func refuses(_ text: String) -> Bool { let lower = text.lowercased(); return GrantNames.refusalWords.contains(where: lower.contains) }
        // An untyped catch: `catch HKError.errorAuthorizationDenied` is a catch of a refusal, by its own type.
        for clause in statement.catchClauses where clause.catchItems.isEmpty {
            for (lhs, rhs, node) in ExprShape.assignments(in: Syntax(clause.body)) {
                guard let value = rhs.single else { continue }
                if let member = ExprShape.stripped(value).as(MemberAccessExprSyntax.self), member.base == nil, refuses(member.declName.baseName.text) { return Syntax(node) }
                if ExprShape.isBool(value, true), let name = ExprShape.referencedName(lhs), refuses(name) { return Syntax(node) }
            }
            for inner in clause.body.collect(FunctionCallExprSyntax.self) {
                if inner.arguments.contains(where: { argument in
                    argument.expression.as(MemberAccessExprSyntax.self).map { $0.base == nil && refuses($0.declName.baseName.text) } ?? false
                }) { return Syntax(inner) }
            }
        }
        return nil
    }

    /// A grant set in a later `catch` does not come from the request returning.
    private func isInsideCatch(_ node: some SyntaxProtocol) -> Bool {
        node.ancestors.contains { $0.is(CatchClauseSyntax.self) }
    }
}

/// The app's own functions by name, to tell what a call in a branch does: one that reads or writes
/// HealthKit (directly or through the app's functions it calls) rests on the flag; one that asks for
/// authorization again, or does neither, does not.
struct AppFunctions {
    private let byName: [String: [FunctionDeclSyntax]]
    private let vocabulary: HealthKitVocabulary

    init(_ sources: [ParsedSource], _ vocabulary: HealthKitVocabulary) {
        var byName: [String: [FunctionDeclSyntax]] = [:]
        for source in sources {
            for function in source.tree.collect(FunctionDeclSyntax.self) where function.body != nil {
                byName[function.name.text, default: []].append(function)
            }
        }
        self.byName = byName
        self.vocabulary = vocabulary
    }

    /// Whether the call reads or writes HealthKit: a framework read or write, or an app function
    /// whose body does (three calls deep). A function the app does not declare is judged by the
    /// framework's names and the app's naming (`fetchSteps`, `saveWorkout`).
    func readsOrWrites(_ call: FunctionCallExprSyntax) -> Bool {
        var visited: Set<String> = []
        return readsOrWrites(call, depth: 0, visited: &visited)
    }

    private func readsOrWrites(_ call: FunctionCallExprSyntax, depth: Int, visited: inout Set<String>) -> Bool {
        if vocabulary.isAuthorizationRequest(call) { return false }
        guard let name = ExprShape.calledName(call), let declared = byName[name] else {
            // Inside the app's functions only HealthKit's own calls count; in the branch itself, the
            // app's naming too (a `fetchSteps()` of a service the audit did not read).
            return depth == 0 ? HealthKitVocabulary.isRead(call) || HealthKitVocabulary.isWrite(call) : Self.isFrameworkReadOrWrite(call)
        }
        guard depth < 3, visited.insert(name).inserted else { return false }
        for function in declared {
            guard let calls = function.body?.calls else { continue }
            // Asking again (Loop's `authorize()` per store) is not using a grant.
            if calls.contains(where: vocabulary.isAuthorizationRequest) { continue }
            if calls.contains(where: { readsOrWrites($0, depth: depth + 1, visited: &visited) }) { return true }
        }
        return false
    }

    /// HealthKit's reads and writes: `execute(query)`, `HKSampleQuery(…)`, `result(for:)`, characteristics,
    /// `save(_:)` / `delete(_:)`, workout sessions and builders.
    static func isFrameworkReadOrWrite(_ call: FunctionCallExprSyntax) -> Bool {
        guard let name = ExprShape.calledName(call) else { return false }
        if HealthKitVocabulary.characteristicReads.contains(name) { return true }
        if ["execute", "save", "delete"].contains(name) { return !call.arguments.isEmpty }
        if name.hasPrefix("HK") { return name.hasSuffix("Query") || name.hasSuffix("QueryDescriptor") || name.hasPrefix("HKWorkout") || name.hasPrefix("HKLiveWorkout") }
        if (name == "result" || name == "results") && ExprShape.labels(call) == ["for"] { return true }
        return ["beginCollection", "finishWorkout", "startActivity"].contains(name)
    }
}
