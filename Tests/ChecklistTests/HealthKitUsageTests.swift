@testable import Checklist
import Manifest
import SwiftParser
import SwiftSyntax
import XCTest

/// Answers cite HealthKit facts only, extracted once per target; an app that declares HealthKit but
/// whose calls are not visible is "cannot tell", never "not applicable".
final class HealthKitUsageTests: XCTestCase {
    func audit(_ files: [String: String], entitlement: Bool = true) throws -> AppAudit {
        var example = RuleExample.healthApp(files)
        if !entitlement {
            example = RuleExample(files: files.merging(["Info.plist": RuleExample.plist(["CFBundleName": "Notes"])]) { $1 }, read: [], share: [])
        }
        return Checklist().audit(try example.load())
    }

    func answer(_ audit: AppAudit, _ question: ReviewQuestion) throws -> Answer {
        try XCTUnwrap(audit.answers.first { $0.question == question })
    }

    func testOtherFrameworksCallsAreNeverHealthKitEvidence() throws {
        let audit = try audit(["Sources/Other.swift": """
        import EventKit
        import UserNotifications
        import HealthKit

        final class Other {
            let events = EKEventStore()
            let health = HKHealthStore()

            func setUp(database: Database) {
                UNUserNotificationCenter.current().requestAuthorization(options: [.alert]) { _, _ in }
                _ = EKEventStore.authorizationStatus(for: .event)
                database.save(Note())
                guard HKHealthStore.isHealthDataAvailable() else { return }
                health.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in })
            }
        }
        """])
        let quotes = audit.answers.flatMap(\.evidence).map(\.quote)
        XCTAssertFalse(quotes.contains { $0.contains("UNUserNotificationCenter") || $0.contains("EKEventStore") || $0.contains("database.save") }, "\(quotes)")
        XCTAssertEqual(try answer(audit, .readStatusProbed).status, .no)
        XCTAssertEqual(try answer(audit, .writeStatusRechecked).status, .notApplicable, "a database save is not a HealthKit write")
        XCTAssertEqual(try answer(audit, .completionInterpreted).status, .cannotTell, "HealthKit is read, but no request is visible")
        XCTAssertEqual(try answer(audit, .availabilityChecked).status, .yes)
    }

    /// The app's own wrapper with methods named like the store's (HealthVaults' `store.save(sample, of:
    /// type)`): only a call whose arguments fit an `HKHealthStore` method is HealthKit's; the
    /// wrapper's body holds the real call, behind its own availability check.
    func testAWrappersMethodNamedLikeTheStoresIsNotAHealthKitCall() throws {
        let audit = try audit(["Sources/HealthService.swift": """
        import HealthKit

        final class HealthService {
            static var isAvailable: Bool { HKHealthStore.isHealthDataAvailable() }
            private let healthStore = HKHealthStore()

            func save(_ sample: HKObject, of type: HKObjectType) async throws {
                guard Self.isAvailable else { return }
                try await healthStore.save(sample)
            }

            func execute(_ query: HKQuery, on queue: DispatchQueue) {
                guard Self.isAvailable else { return }
                healthStore.execute(query)
            }
        }
        """, "Sources/WeightLog.swift": """
        import HealthKit

        struct WeightLog {
            let store: HealthService

            func log(_ sample: HKQuantitySample) async throws {
                try await store.save(sample, of: HKQuantityType(.bodyMass))
                store.execute(HKSampleQuery(sampleType: HKQuantityType(.bodyMass), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in }, on: .main)
            }
        }
        """])
        let availability = try answer(audit, .availabilityChecked)
        XCTAssertEqual(availability.status, .yes, availability.reason)
        let writes = try answer(audit, .writeStatusRechecked)
        XCTAssertEqual(Set(writes.evidence.map(\.location.file)), ["apps/example/Sources/HealthService.swift"], "the wrapper's own save is the write: \(writes.reason)")
        XCTAssertFalse(audit.answers.flatMap(\.evidence).contains { $0.quote.contains("of: HKQuantityType") })
    }

    func testDeclaredButInvisibleHealthKitIsCannotTellNotNotApplicable() throws {
        let audit = try audit(["Sources/App.swift": """
        import SwiftUI
        import HealthWrapperKit

        struct Root: View { var body: some View { Text(HealthWrapper.shared.summary) } }
        """])
        for question in [ReviewQuestion.availabilityChecked, .completionInterpreted, .readStatusProbed, .writeStatusRechecked] {
            XCTAssertEqual(try answer(audit, question).status, .cannotTell, "\(question)")
        }
    }

    func testNoHealthKitAtAllIsNotApplicable() throws {
        let audit = try audit(["Sources/App.swift": "struct Notes { func save() {} }\n"], entitlement: false)
        for question in [ReviewQuestion.availabilityChecked, .completionInterpreted, .readStatusProbed, .writeStatusRechecked] {
            XCTAssertEqual(try answer(audit, question).status, .notApplicable, "\(question)")
        }
    }

    /// The app checks availability; its widget queries on its own: Q1 is "no", at the widget's line.
    func testAWidgetWithoutItsOwnAvailabilityCheckAnswersQuestionOneNo() throws {
        let rule = try XCTUnwrap(RuleCatalog.rule(id: "availability-not-checked"))
        let example = try XCTUnwrap(rule.description.triggering.first { $0.files.keys.contains { $0.hasPrefix("Widget/") } })
        let audit = Checklist().audit(try example.load())
        let q1 = try answer(audit, .availabilityChecked)
        XCTAssertEqual(q1.status, .no)
        let finding = try XCTUnwrap(audit.activeFindings.first { $0.ruleID == "availability-not-checked" })
        XCTAssertEqual(finding.target, "widget")
        XCTAssertTrue(finding.location.file.hasSuffix("Widget/Sources/Provider.swift"), finding.location.file)
        XCTAssertEqual(finding.location.line, 7, "the widget's first query")
    }

    /// A Capacitor app whose HealthKit comes from a plugin: the app uses HealthKit, so missing usage
    /// strings are a finding citing the dependency, and the code questions are "cannot tell".
    func testAHealthKitPluginDependencyMeansTheAppUsesHealthKit() throws {
        let example = RuleExample(files: [
            "Info.plist": RuleExample.plist(["CFBundleName": "Capped"]),
            "package.json": "{\n  \"dependencies\": {\n    \"@capacitor/core\": \"^7.0.0\",\n    \"@capgo/capacitor-health\": \"^7.2.0\"\n  }\n}\n",
        ], read: [], share: [])
        let audit = Checklist().audit(try example.load())
        XCTAssertEqual(audit.manifest.healthKitDependencies.map(\.package), ["@capgo/capacitor-health"])
        XCTAssertEqual(audit.manifest.healthKitDependencies.first?.location.line, 4)
        let missing = audit.activeFindings.filter { $0.ruleID == "usage-string-missing" }
        XCTAssertEqual(missing.count, 2)
        XCTAssertTrue(missing.allSatisfy { $0.message.contains("`@capgo/capacitor-health`") }, "\(missing.map(\.message))")
        XCTAssertEqual(try answer(audit, .usageStringsMeaningful).status, .no)
        XCTAssertEqual(try answer(audit, .completionInterpreted).status, .cannotTell)
    }

    func testAFlutterHealthDependencyIsFound() {
        let pubspec = "name: walker\ndependencies:\n  flutter:\n    sdk: flutter\n  health: ^10.2.0\n  provider: ^6.0.0\n"
        let found = HealthKitDependencies.scan(pubspec, file: "pubspec.yaml", dart: true)
        XCTAssertEqual(found.map(\.package), ["health"])
        XCTAssertEqual(found.first?.location.line, 5)
        XCTAssertEqual(HealthKitDependencies.scan("name: health\n", file: "pubspec.yaml", dart: true).count, 0, "the package's own name is not a dependency")
    }

    /// @kingstinct/react-native-healthkit's Expo plugin writes the usage strings it is given: a
    /// placeholder left in app.json is what the permission sheet shows.
    func testTheKingstinctExpoPluginsUsageStringsAreAudited() throws {
        let appJSON = """
        {
          "expo": {
            "name": "Pulse",
            "slug": "pulse",
            "ios": { "bundleIdentifier": "com.example.pulse" },
            "plugins": [
              ["@kingstinct/react-native-healthkit", {
                "NSHealthShareUsageDescription": "Your own custom usage description",
                "NSHealthUpdateUsageDescription": false
              }]
            ]
          }
        }
        """
        let example = RuleExample(files: ["js/app.json": appJSON, "js/package.json": "{ \"dependencies\": { \"@kingstinct/react-native-healthkit\": \"^9.0.0\" } }\n"],
                                  read: [], share: [])
        let audit = Checklist().audit(try example.load())
        let ids = Set(audit.activeFindings.map(\.ruleID))
        XCTAssertTrue(ids.contains("usage-string-placeholder"), "the README's example text: \(ids)")
        XCTAssertTrue(ids.contains("usage-string-missing"), "update string dropped by `false` while the plugin adds the entitlement: \(ids)")
        XCTAssertEqual(try answer(audit, .usageStringsMeaningful).status, .no)
    }
}

/// A reason states what the code shows: a JavaScript app's availability call is named as written.
final class AvailabilityReasonTests: XCTestCase {
    func testTheReasonNamesTheLibrarysAvailabilityCall() throws {
        let example = RuleExample.reactNative(["js/src/health.ts": """
        import AppleHealthKit from 'react-native-health';

        export function connect() {
          AppleHealthKit.isAvailable((err: any, available: boolean) => {
            if (!available) return;
            AppleHealthKit.initHealthKit({ permissions: { read: ['StepCount'], write: [] } }, (error) => console.log(error));
          });
        }
        """])
        let audit = Checklist().audit(try example.load())
        let answer = try XCTUnwrap(audit.answers.first { $0.question == .availabilityChecked })
        XCTAssertEqual(answer.status, .yes)
        XCTAssertTrue(answer.reason.hasPrefix("the app calls `isAvailable()`"), answer.reason)
        XCTAssertEqual(answer.evidence.map(\.location.line), [4])
    }
}

/// A function's callers are the calls that can reach it: a notification center's
/// `requestAuthorization(options:)` is not a caller of the app's own `requestAuthorization()`.
final class GateCallerTests: XCTestCase {
    func testOnlyCallsThatFitTheFunctionAreItsCallers() throws {
        let example = RuleExample.healthApp(["Sources/WalkingSpeed.swift": """
        import HealthKit
        import UserNotifications

        protocol WalkingSpeedProviding {
            var isAvailable: Bool { get }
            func requestAuthorization() async throws
        }

        struct HealthWalkingSpeed: WalkingSpeedProviding {
            private let healthStore = HKHealthStore()
            var isAvailable: Bool { HKHealthStore.isHealthDataAvailable() }

            func requestAuthorization() async throws {
                try await healthStore.requestAuthorization(toShare: [], read: [HKQuantityType(.walkingSpeed)])
            }
        }

        final class WalkingSpeedManager {
            private let provider: WalkingSpeedProviding = HealthWalkingSpeed()

            func connect() async {
                guard provider.isAvailable else { return }
                try? await provider.requestAuthorization()
            }
        }

        final class Notifications {
            func ask() async throws {
                _ = try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert])
            }
        }
        """])
        let audit = Checklist().audit(try example.load())
        let answer = try XCTUnwrap(audit.answers.first { $0.question == .availabilityChecked })
        XCTAssertEqual(answer.status, .yes, answer.reason)
    }

    /// A helper that asks through a property helper (`promptAvailable()` reading `Self.isAvailable`)
    /// is a check too, as one calling a function helper is.
    func testAFunctionReadingAnAvailabilityPropertyIsACheck() throws {
        let example = RuleExample.healthApp(["Sources/Writer.swift": """
        import HealthKit

        final class Writer {
            static var isAvailable: Bool { HKHealthStore.isHealthDataAvailable() }
            private let store = HKHealthStore()

            func promptAvailable() async -> Bool {
                guard Self.isAvailable else { return false }
                return (try? await store.statusForAuthorizationRequest(toShare: [HKObjectType.workoutType()], read: [])) == .shouldRequest
            }

            func requestAuthorization() async throws {
                try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.heartRate)])
            }
        }

        final class Screen {
            let writer = Writer()

            func connect() async {
                guard await writer.promptAvailable() else { return }
                try? await writer.requestAuthorization()
            }
        }
        """])
        let audit = Checklist().audit(try example.load())
        let answer = try XCTUnwrap(audit.answers.first { $0.question == .availabilityChecked })
        XCTAssertEqual(answer.status, .yes, answer.reason)
    }

    /// The same text parsed as two files: a node of one is never inside a node of the other.
    func testANodeOfAnotherFileIsNeverEnclosed() throws {
        let text = "func requestAuthorization() async throws {\n    try await provider.requestAuthorization()\n}\n"
        let first = Parser.parse(source: text), second = Parser.parse(source: text)
        let function = try XCTUnwrap(first.collect(FunctionDeclSyntax.self).first)
        let sameFile = try XCTUnwrap(first.calls.first), otherFile = try XCTUnwrap(second.calls.first)
        XCTAssertTrue(function.encloses(sameFile))
        XCTAssertFalse(function.encloses(otherFile))
    }
}

/// Found by the XcodeGen fuzz target: a usage string repeating an undefined `$(X)` 10,000 times
/// (150 KB) gave 10,000 findings, each quoting the whole value (106 s of CPU). Each undefined
/// name is reported once per key, the first four by name, the rest in one finding.
final class UndefinedVariableBoundsTests: XCTestCase {
    func testARepeatedUndefinedVariableIsOneFindingAndManyAreFive() throws {
        let value = "Reads your steps for $(A)" + String(repeating: " $(A)", count: 10_000) + " $(B) $(C) $(D) $(E) $(F)"
        let example = RuleExample(files: ["Info.plist": RuleExample.plist(["CFBundleName": "Steps", "NSHealthShareUsageDescription": value]),
                                          "Sources/App.swift": "import HealthKit\nlet store = HKHealthStore()\n"],
                                  read: ["stepCount"], share: [])
        let findings = Checklist().audit(try example.load()).findings.filter { $0.ruleID == "unresolved-build-variable" }
        XCTAssertEqual(findings.map(\.message), [
            "$(A) in NSHealthShareUsageDescription is not defined in build_settings",
            "$(B) in NSHealthShareUsageDescription is not defined in build_settings",
            "$(C) in NSHealthShareUsageDescription is not defined in build_settings",
            "$(D) in NSHealthShareUsageDescription is not defined in build_settings",
            "NSHealthShareUsageDescription uses more variables not defined in build_settings than the 4 named",
        ])
    }
}

/// Q1 and Q6 read the same facts: a HealthKit call in a function nothing in the app calls never
/// runs, so neither answer rests on it (Q1 said "no" for the write Q6 left out as never running).
final class UncalledCodeAnswerTests: XCTestCase {
    func testAnUncalledFunctionsCallDecidesNeitherAvailabilityNorWrites() throws {
        let example = RuleExample.healthApp(["Sources/RunApp.swift": """
        import HealthKit
        import SwiftUI

        @main
        struct RunApp: App {
            var body: some Scene { WindowGroup { Text("Runs") } }
        }

        final class RunStore {
            let store = HKHealthStore()

            func connect() async throws {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount)])
            }

            func saveRun(_ workout: HKWorkout) async throws {
                try await store.save(workout)
            }
        }

        let runs = RunStore()
        let connecting = Task { try await runs.connect() }
        """])
        let audit = Checklist().audit(try example.load())
        let availability = try XCTUnwrap(audit.answers.first { $0.question == .availabilityChecked })
        XCTAssertEqual(availability.status, .yes, availability.reason)
        let writes = try XCTUnwrap(audit.answers.first { $0.question == .writeStatusRechecked })
        XCTAssertEqual(writes.status, .notApplicable, writes.reason)
    }
}

/// Q4 as `checklist-answers.md` fixes it: the update string is needed when the app writes. A
/// read-only app without it answers yes; the App Store upload risk (ITMS-90683) is a warning.
final class ReadOnlyUsageStringTests: XCTestCase {
    func testAReadOnlyAppWithoutTheUpdateStringAnswersYesWithAWarning() throws {
        let example = RuleExample.healthApp(["Sources/Steps.swift": """
        import HealthKit

        final class Steps {
            let store = HKHealthStore()

            func connect() async throws {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
            }
        }
        """], info: ["CFBundleName": "Steps", "NSHealthShareUsageDescription": RuleExample.goodShare], read: ["stepCount"], share: [])
        let audit = Checklist().audit(try example.load())
        let missing = audit.findings.filter { $0.ruleID == "usage-string-missing" }
        XCTAssertEqual(missing.map(\.severity), [.warning])
        XCTAssertTrue(missing.first?.message.hasSuffix("the app never writes or asks to share, so HealthKit itself does not ask for it") == true, missing.first?.message ?? "")
        let answer = try XCTUnwrap(audit.answers.first { $0.question == .usageStringsMeaningful })
        XCTAssertEqual(answer.status, .yes, answer.reason)
        XCTAssertTrue(answer.reason.contains("`NSHealthUpdateUsageDescription` is not needed"), answer.reason)
    }
}
