import Checklist
import Manifest
import XCTest

/// The context preparer that resolves `requestAuthorization(toShare:read:)` sets from code.
final class SourceRuleRequestedTypesTests: XCTestCase {
    private func audit(_ code: String, read: [String] = [], share: [String] = [], file: String = "Sources/Access.swift") throws -> AppAudit {
        try Checklist(rules: []).audit(RuleExample.healthApp([file: code], read: read, share: share).load())
    }

    func testResolvesEveryWrittenForm() throws {
        let result = try audit("""
        import HealthKit

        let birthday = HKObjectType.characteristicType(forIdentifier: .dateOfBirth)!

        final class Access {
            let store = HKHealthStore()
            static let quantities: [HKObjectType] = [HKQuantityType(.stepCount), HKObjectType.quantityType(forIdentifier: .heartRate)!]
            private var others: Set<HKObjectType> {
                Set([HKQuantityType.quantityType(forIdentifier: .bodyMass)!, HKCategoryType(.sleepAnalysis),
                     HKCharacteristicType.characteristicType(forIdentifier: .biologicalSex)!, HKWorkoutType.workoutType(), birthday])
            }

            func ask() async throws {
                let share: Set<HKSampleType> = [HKObjectType.workoutType(), .init(.mindfulSession), HKQuantityType(HKQuantityTypeIdentifier.bodyMass)]
                guard let route = HKObjectType.quantityType(forIdentifier: .restingHeartRate) else { return }
                try await store.requestAuthorization(toShare: share, read: Set(Self.quantities).union(others).union([route]))
                try await store.requestAuthorization(toShare: [], read: Set([.height, .vo2Max].map { HKQuantityType($0) }))
            }
        }
        """)
        XCTAssertEqual(result.requestedRead, ["biologicalSex", "bodyMass", "dateOfBirth", "heartRate", "height", "restingHeartRate",
                                              "sleepAnalysis", "stepCount", "vo2Max", "workout"])
        XCTAssertEqual(result.requestedShare, ["bodyMass", "mindfulSession", "workout"])
        XCTAssertEqual(result.notes, [])
    }

    /// SwiftUI's modifier and the per-object request ask as `requestAuthorization` does: their types
    /// are requested, and the same refusals apply (a per-object type is right where it is asked per object).
    func testSwiftUIModifierAndPerObjectRequestsAreRequests() throws {
        let code = """
        import HealthKit
        import SwiftUI

        struct ConnectView: View {
            let store = HKHealthStore()
            @State private var trigger = false

            var body: some View {
                Button("Connect Health") { trigger.toggle() }
                    .healthDataAccessRequest(store: store, shareTypes: [HKQuantityType(.bodyMass)],
                                             readTypes: [HKQuantityType(.stepCount), HKCorrelationType(.bloodPressure)], trigger: trigger) { _ in }
            }

            func glasses() async throws {
                try await store.requestPerObjectReadAuthorization(for: .visionPrescriptionType(), predicate: nil)
            }
        }
        """
        let result = try Checklist().audit(RuleExample.healthApp(["Sources/ConnectView.swift": code], read: [], share: []).load())
        XCTAssertEqual(result.requestedRead, ["bloodPressure", "stepCount", "visionPrescription"])
        XCTAssertEqual(result.requestedShare, ["bodyMass"])
        let refused = result.findings.filter { $0.ruleID == "request-refused-type" }
        XCTAssertEqual(refused.map(\.location.line), [11], "the correlation in the modifier's readTypes, not the per-object vision prescription")
        XCTAssertTrue(refused.first?.message.contains("correlation") == true)
    }

    func testConstantsOfAnotherTypeInAnotherFile() throws {
        let example = RuleExample.healthApp([
            "Sources/Types.swift": """
            import HealthKit
            enum HealthTypes {
                static var read: Set<HKObjectType> { return [HKQuantityType(.stepCount)] }
            }
            """,
            "Sources/Access.swift": """
            import HealthKit
            func ask(_ store: HKHealthStore) {
                store.requestAuthorization(toShare: nil, read: HealthTypes.read) { _, _ in }
            }
            """,
        ], read: [], share: [])
        let result = Checklist(rules: []).audit(try example.load())
        XCTAssertEqual(result.requestedRead, ["stepCount"])
        XCTAssertEqual(result.requestedShare, [])
        XCTAssertEqual(result.notes, [])
    }

    func testUnresolvedSetsAreNotedNotGuessed() throws {
        let result = try audit("""
        import HealthKit

        final class Access {
            let store = HKHealthStore()

            func ask(types allTypes: Set<HKObjectType>) async throws {
                try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: allTypes)
                try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount), customType(), remoteTypes(), HKQuantityType(.appleFutureMetric)])
            }

            func customType() -> HKObjectType { HKQuantityType(.height) }
        }
        """, read: ["heartRate"])
        XCTAssertEqual(result.requestedRead, ["heartRate", "height", "stepCount"], "config types stay; resolved code types (the app's own function's too) are added")
        XCTAssertEqual(result.requestedShare, ["workout"])
        XCTAssertEqual(result.notes, [
            "apps/example/Sources/Access.swift:7: requestAuthorization read set `allTypes` could not be resolved (a parameter of `ask`)",
            "apps/example/Sources/Access.swift:8: requestAuthorization read set `remoteTypes()` could not be resolved",
            "apps/example/Sources/Access.swift:8: requestAuthorization read set asks for `appleFutureMetric`, which the audit does not know",
        ])
    }

    /// The set reaches the request through a parameter: every call in the app that passes it is
    /// followed, with a property assigned earlier in the function and a set filled in a loop.
    func testFollowsParametersIntoTheirCallers() throws {
        let result = Checklist(rules: []).audit(try RuleExample.healthApp([
            "Sources/Kit.swift": """
            import HealthKit

            final class Kit {
                static let shared = Kit()
                let store = HKHealthStore()
                var collected: Set<HKObjectType> = []

                func authorize(forTypes requested: Set<HKObjectType>) {
                    if requested.isEmpty {
                        self.collected = defaults()
                    } else {
                        self.collected = requested
                    }
                    store.requestAuthorization(toShare: nil, read: self.collected) { _, _ in }
                }

                func defaults() -> Set<HKObjectType> {
                    var types: Set<HKObjectType> = [HKObjectType.workoutType()]
                    let identifiers: [HKQuantityTypeIdentifier] = [.stepCount, .heartRate]
                    for identifier in identifiers {
                        types.insert(HKObjectType.quantityType(forIdentifier: identifier)!)
                    }
                    return types
                }
            }

            final class Other {
                func authorize(forTypes requested: Set<HKObjectType>) {}
            }
            """,
            "Sources/Screens.swift": """
            import HealthKit

            func onboarding() {
                Kit.shared.authorize(forTypes: [HKCategoryType(.sleepAnalysis)])
                // Another type's method of the same name passes nothing to Kit.
                Other().authorize(forTypes: [HKQuantityType(.bodyMass)])
                Kit.shared.authorize(requested: [HKQuantityType(.height)])
            }
            """,
        ], read: [], share: []).load())
        XCTAssertEqual(result.requestedRead, ["heartRate", "sleepAnalysis", "stepCount", "workout"],
                       "the default set, filled in a loop, and what the one matching caller passes; not Other's nor a mislabelled call's")
        XCTAssertEqual(result.notes, [])
    }

    /// The forms a review found resolved wrongly: a set built from itself, a `let` assigned in
    /// branches, a local shadowing the parameter, a default argument, a closure's own parameter.
    func testSetsBuiltStepByStep() throws {
        let result = try audit("""
        import HealthKit

        final class Access {
            let store = HKHealthStore()
            var shared: Set<HKSampleType> = [HKObjectType.workoutType()]

            func ask(full: Bool, extra types: Set<HKObjectType> = [HKQuantityType(.bodyMass)]) async throws {
                var read: Set<HKObjectType> = [HKQuantityType(.stepCount)]
                read = read + [HKQuantityType(.heartRate)]
                read = read.union([HKCategoryType(.sleepAnalysis)])
                let more: Set<HKObjectType>
                if full { more = [HKQuantityType(.height)] } else { more = [HKQuantityType(.vo2Max)] }
                var types = types
                types.insert(HKQuantityType(.restingHeartRate))
                self.shared = shared.union([HKQuantityType(.dietaryWater)])
                shared.insert(HKQuantityType(.bodyFatPercentage))
                try await store.requestAuthorization(toShare: self.shared, read: read.union(more).union(types))
            }

            func start() async throws { try await ask(full: true) }
        }
        """)
        XCTAssertEqual(result.requestedRead, ["bodyMass", "heartRate", "height", "restingHeartRate", "sleepAnalysis", "stepCount", "vo2Max"])
        XCTAssertEqual(result.requestedShare, ["bodyFatPercentage", "dietaryWater", "workout"], "a property's insert counts like a local's")
        XCTAssertEqual(result.notes, [])
    }

    /// A computed property whose getter builds the set step by step and returns it at its end (a
    /// Capacitor plugin's `readTypes`, seen in a real app): what the getter puts in is the set. A
    /// getter with several returns is not guessed at.
    func testAGetterThatBuildsItsSetAndReturnsIt() throws {
        let result = try audit("""
        import HealthKit

        final class HealthKitPlugin {
            private let healthStore = HKHealthStore()

            private var readTypes: Set<HKObjectType> {
                var types = Set<HKObjectType>()
                if let restingHR = HKQuantityType.quantityType(forIdentifier: .restingHeartRate) { types.insert(restingHR) }
                if let steps = HKQuantityType.quantityType(forIdentifier: .stepCount) { types.insert(steps) }
                if let sleepType = HKObjectType.categoryType(forIdentifier: .sleepAnalysis) { types.insert(sleepType) }
                return types
            }

            private var shareTypes: Set<HKSampleType> {
                if Bool.random() { return [HKQuantityType(.bodyMass)] }
                return []
            }

            func ask() {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                healthStore.requestAuthorization(toShare: nil, read: readTypes) { _, _ in }
                healthStore.requestAuthorization(toShare: shareTypes, read: []) { _, _ in }
            }
        }
        """)
        XCTAssertEqual(result.requestedRead, ["restingHeartRate", "sleepAnalysis", "stepCount"])
        XCTAssertEqual(result.requestedShare, [])
        XCTAssertEqual(result.notes, ["apps/example/Sources/Access.swift:22: requestAuthorization share set `shareTypes` could not be resolved (no initial value)"])
    }

    /// A type reached through a caller is cited in the caller's file, where it is written.
    func testATypeFromACallerIsCitedInTheCallersFile() throws {
        let rule = try XCTUnwrap(RuleCatalog.rule(id: "request-refused-type"))
        let example = RuleExample.healthApp([
            "Sources/Kit.swift": """
            import HealthKit

            final class Kit {
                static let shared = Kit()
                let store = HKHealthStore()

                func authorize(share: Set<HKSampleType>) {
                    store.requestAuthorization(toShare: share, read: nil) { _, _ in }
                }
            }
            """,
            "Sources/Screens.swift": """
            import HealthKit

            func profile() {
                Kit.shared.authorize(share: [HKQuantityType(.appleExerciseTime)])
            }
            """,
        ], read: [], share: [])
        let found = Checklist(rules: [rule.init()]).audit(try example.load()).findings
        XCTAssertEqual(found.map { "\($0.location.file):\($0.location.line ?? 0):\($0.location.column ?? 0)" }, ["apps/example/Sources/Screens.swift:4:34"])
        XCTAssertEqual(found.first?.quote, "Kit.shared.authorize(share: [HKQuantityType(.appleExerciseTime)])")
    }

    /// A closure parameter of the same name is not the function's parameter, and a method of
    /// another type called through a name declared as that type is not a caller.
    func testClosureParametersAndOtherReceiversAreNotFollowed() throws {
        let result = Checklist(rules: []).audit(try RuleExample.healthApp([
            "Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()

                func request(_ types: Set<HKObjectType>) {
                    store.requestAuthorization(toShare: nil, read: types) { _, _ in }
                    [Set<HKObjectType>()].forEach { types in store.requestAuthorization(toShare: nil, read: types) { _, _ in } }
                }
            }
            """,
            "Sources/Network.swift": """
            import Foundation
            import HealthKit

            final class Session { func request(_ url: URL) {} }

            func load(access: Access) {
                let session = Session()
                session.request(URL(string: "https://example.com")!)
                access.request([HKQuantityType(.stepCount)])
            }
            """,
        ], read: [], share: []).load())
        XCTAssertEqual(result.requestedRead, ["stepCount"])
        XCTAssertEqual(result.notes, ["apps/example/Sources/Access.swift:8: requestAuthorization read set `types` could not be resolved (a closure parameter)"])
    }

    func testAParameterNothingPassesStaysUnresolved() throws {
        let result = try audit("""
        import HealthKit

        func ask(_ store: HKHealthStore, read types: Set<HKObjectType>) async throws {
            try await store.requestAuthorization(toShare: [], read: types)
        }
        """)
        XCTAssertEqual(result.requestedRead, [])
        XCTAssertEqual(result.notes, ["apps/example/Sources/Access.swift:4: requestAuthorization read set `types` could not be resolved (a parameter of `ask`)"])
    }

    func testRequestedTypesDifferNamesBothSides() throws {
        let rule = try XCTUnwrap(RuleCatalog.rule(id: "requested-types-differ"))
        let example = RuleExample.healthApp(["Sources/Access.swift": """
        import HealthKit

        func ask(_ store: HKHealthStore) async throws {
            try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount), HKCategoryType(.sleepAnalysis)])
        }
        """], read: ["stepCount", "heartRate"], share: [])
        let result = Checklist(rules: [rule.init()]).audit(try example.load())
        let messages = result.findings.map(\.message)
        XCTAssertEqual(result.findings.count, 2, messages.joined(separator: "\n"))
        let codeSide = try XCTUnwrap(result.findings.first { $0.message.contains("`sleepAnalysis`") })
        XCTAssertEqual(codeSide.location.file, "apps/example/Sources/Access.swift")
        XCTAssertEqual(codeSide.location.line, 4)
        XCTAssertEqual(codeSide.severity, .note)
        let configSide = try XCTUnwrap(result.findings.first { $0.message.contains("`heartRate`") })
        XCTAssertTrue(configSide.location.file.hasSuffix("healthaudit.yml"), configSide.location.description)
        XCTAssertEqual(configSide.quote, "read: heartRate")
        // A note answers no review question, so the checklist stays unaffected.
        XCTAssertTrue(result.answers.allSatisfy { $0.ruleIDs.isEmpty })
    }
}
