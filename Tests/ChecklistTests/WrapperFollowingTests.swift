import Checklist
import Manifest
import XCTest

/// The app's own wrappers are followed: the library reached through a dynamic import, an alias, a
/// function of the app that hands the module back, or a module of the app that re-exports it; a
/// status check guarding the app's own query method; and Swift wrapper frameworks (SpeziHealthKit).
final class WrapperFollowingTests: XCTestCase {
    func answers(_ example: RuleExample) throws -> [ReviewQuestion: Answer] {
        let audit = Checklist().audit(try example.load())
        return Dictionary(uniqueKeysWithValues: audit.answers.map { ($0.question, $0) })
    }

    func places(_ answer: Answer?) -> [String] { answer?.evidence.map { "\($0.location.file.split(separator: "/").last!):\($0.location.line ?? 0)" } ?? [] }

    /// kingstinct loaded with `await import(…)` into a cache that an app function returns.
    static let dynamicImport = RuleExample.reactNative(["js/lib/healthkit.ts": """
        type HealthKitModule = typeof import('@kingstinct/react-native-healthkit');

        let cachedModule: HealthKitModule | null = null;

        async function getHealthKit(): Promise<HealthKitModule | null> {
          if (cachedModule) return cachedModule;
          try {
            cachedModule = await import('@kingstinct/react-native-healthkit');
            return cachedModule;
          } catch {
            return null;
          }
        }

        export async function connect(): Promise<void> {
          const hk = await getHealthKit();
          if (!hk || !hk.isHealthDataAvailable()) return;
          await hk.requestAuthorization({ toRead: ['HKQuantityTypeIdentifierBodyMass'], toShare: ['HKQuantityTypeIdentifierBodyMass'] });
        }

        export async function logWeight(kg: number): Promise<void> {
          const hk = await getHealthKit();
          if (!hk) return;
          try {
            await hk.saveQuantitySample('HKQuantityTypeIdentifierBodyMass', 'kg', kg);
          } catch (error) {
            console.warn(error);
          }
        }
        """])

    func testADynamicImportReturnedByTheAppsOwnFunctionIsFollowed() throws {
        let answers = try answers(Self.dynamicImport)
        // Through the module the app's function hands back, connect() checks and logWeight() saves
        // with no check on its path (an exported entry point no code calls).
        let q1 = try XCTUnwrap(answers[.availabilityChecked])
        XCTAssertEqual(q1.status, .no, q1.reason)
        XCTAssertEqual(places(q1), ["healthkit.ts:25"], q1.reason)
        XCTAssertTrue(q1.reason.contains("in `logWeight`"), q1.reason)
        let q6 = try XCTUnwrap(answers[.writeStatusRechecked])
        XCTAssertEqual(q6.status, .no, q6.reason)
        XCTAssertEqual(places(q6).first, "healthkit.ts:25", q6.reason)
        for question in ReviewQuestion.allCases {
            XCTAssertNotEqual(answers[question]?.status, .cannotTell, "\(question): \(answers[question]?.reason ?? "")")
        }
    }

    /// The dependency is used: the app is not told its code "never reads, writes or asks".
    func testADynamicallyImportedDependencyIsNotReportedUnused() throws {
        var example = Self.dynamicImport
        example.files["package.json"] = "{\n  \"dependencies\": {\n    \"@kingstinct/react-native-healthkit\": \"^9.0.0\"\n  }\n}\n"
        let audit = Checklist().audit(try example.load())
        XCTAssertEqual(audit.manifest.healthKitDependencies.map(\.package), ["@kingstinct/react-native-healthkit"])
        XCTAssertEqual(audit.activeFindings.filter { $0.ruleID == "dependency-without-health-feature" }.map(\.message), [])
    }

    /// react-native-health through `require`, an alias of its default export, and a getter function.
    static let requiredAlias = RuleExample.reactNative(["js/lib/health.js": """
        let AppleHealthKit = null;
        try {
          const hkModule = require('react-native-health');
          AppleHealthKit = hkModule.default || hkModule;
        } catch (e) {
          AppleHealthKit = null;
        }

        function getAppleHealthKit() {
          return AppleHealthKit;
        }

        export function connect(done) {
          const healthKit = getAppleHealthKit();
          if (!healthKit) return;
          healthKit.isAvailable((error, available) => {
            if (!available) return;
            healthKit.initHealthKit({ permissions: { read: ['StepCount'], write: [] } }, (err) => done(!err));
          });
        }
        """])

    func testARequiredModuleReachedThroughAnAliasAndAGetterIsFollowed() throws {
        let answers = try answers(Self.requiredAlias)
        let q1 = try XCTUnwrap(answers[.availabilityChecked])
        XCTAssertNotEqual(q1.status, .cannotTell, q1.reason)
        XCTAssertTrue(places(q1).allSatisfy { $0.hasPrefix("health.js:") }, q1.reason)
        let q6 = try XCTUnwrap(answers[.writeStatusRechecked])
        XCTAssertEqual(q6.status, .notApplicable, "the app asks and reads, never writes: \(q6.reason)")
    }

    /// A module of the app re-exports the libraries; the app imports them from it.
    static let reExport = RuleExample.reactNative([
        "js/src/health/index.ts": """
        export * from '@kingstinct/react-native-healthkit';
        export { default as HealthKit } from '@kingstinct/react-native-healthkit';
        """,
        "js/src/screens/Weight.tsx": """
        import { isHealthDataAvailable, saveQuantitySample } from '../health';
        import { HealthKit } from '@/src/health';

        export async function logWeight(kg: number) {
          if (!isHealthDataAvailable()) return;
          await HealthKit.requestAuthorization({ toShare: ['HKQuantityTypeIdentifierBodyMass'] });
          try {
            await saveQuantitySample('HKQuantityTypeIdentifierBodyMass', 'kg', kg);
          } catch (error) {
            console.warn(error);
          }
        }
        """,
    ])

    func testAModuleThatReExportsTheLibraryIsFollowed() throws {
        let answers = try answers(Self.reExport)
        let q1 = try XCTUnwrap(answers[.availabilityChecked])
        XCTAssertEqual(q1.status, .yes, q1.reason)
        XCTAssertEqual(places(q1), ["Weight.tsx:5"], q1.reason)
        let q2 = try XCTUnwrap(answers[.completionInterpreted])
        XCTAssertEqual(places(q2), ["Weight.tsx:6"], q2.reason)
        let q6 = try XCTUnwrap(answers[.writeStatusRechecked])
        XCTAssertEqual(q6.status, .no, q6.reason)
        XCTAssertEqual(places(q6).first, "Weight.tsx:8", q6.reason)
    }

    /// Dart: the service returns the name the request's value is bound to; a provider keeps it as a grant.
    func testADartServiceReturningTheBoundResultIsFollowedToItsCaller() throws {
        let example = RuleExample.flutter([
            "lib/health_service.dart": """
            import 'package:health/health.dart';

            class HealthService {
              final Health _health = Health();

              Future<bool> requestPermissions() async {
                try {
                  final result = await _health.requestAuthorization([HealthDataType.STEPS]);
                  print('permission result: $result');
                  return result;
                } catch (e) {
                  return false;
                }
              }
            }
            """,
            "lib/health_provider.dart": """
            import 'health_service.dart';

            class HealthProvider {
              final HealthService _service = HealthService();
              bool _hasPermissions = false;

              Future<void> connect() async {
                _hasPermissions = await _service.requestPermissions();
              }
            }
            """,
        ])
        let q2 = try XCTUnwrap(try answers(example)[.completionInterpreted])
        XCTAssertEqual(q2.status, .no, q2.reason)
        XCTAssertEqual(places(q2).first, "health_provider.dart:8", q2.reason)
        XCTAssertTrue(q2.reason.contains("health_service.dart:8"), q2.reason)
    }

    /// Dart: a status call in another method of the service (its own wrapper) does not check a write.
    func testADartStatusCallInAnotherMethodDoesNotCheckAWrite() throws {
        let example = RuleExample.flutter(["lib/health_service.dart": """
            import 'package:health/health.dart';

            class HealthService {
              final Health _health = Health();

              Future<bool> canWrite() async {
                return await _health.hasPermissions([HealthDataType.WEIGHT], permissions: [HealthDataAccess.WRITE]) == true;
              }

              Future<void> writeWeight(double kg) async {
                await _health.requestAuthorization([HealthDataType.WEIGHT], permissions: [HealthDataAccess.READ_WRITE]);
                try {
                  await _health.writeHealthData(value: kg, type: HealthDataType.WEIGHT, startTime: DateTime.now());
                } catch (_) {}
              }
            }
            """, "lib/main.dart": """
            import 'health_service.dart';

            Future<void> main() async {
              await HealthService().writeWeight(70);
            }
            """])
        let q6 = try XCTUnwrap(try answers(example)[.writeStatusRechecked])
        XCTAssertEqual(q6.status, .no, q6.reason)
        XCTAssertEqual(places(q6).first, "health_service.dart:13", q6.reason)
    }

    /// A module of the app exports its getter of the library; another file awaits it, and a third
    /// loads the library with `import(…).then(…)`.
    func testAnExportedGetterAndAThenCallbackAreFollowed() throws {
        let example = RuleExample.reactNative([
            "js/src/health.js": """
            let module = null;

            export async function loadHealth() {
              if (!module) module = require('react-native-health');
              return module;
            }
            """,
            "js/src/Steps.js": """
            import { loadHealth } from './health';

            export async function connect() {
              const health = await loadHealth();
              health.initHealthKit({ permissions: { read: ['StepCount'], write: [] } }, () => {});
            }
            """,
            "js/src/Weight.js": """
            export function logWeight(value) {
              import('react-native-health').then((health) => {
                health.saveWeight({ value }, (error) => console.log(error));
              });
            }
            """,
        ])
        let answers = try answers(example)
        let q2 = try XCTUnwrap(answers[.completionInterpreted])
        XCTAssertEqual(places(q2), ["Steps.js:5"], q2.reason)
        let q6 = try XCTUnwrap(answers[.writeStatusRechecked])
        XCTAssertEqual(q6.status, .no, q6.reason)
        XCTAssertEqual(places(q6).first, "Weight.js:3", q6.reason)
    }

    /// A type-only import (`typeof import(…)`) binds nothing: the app never calls the library.
    func testATypeOnlyDynamicImportIsNotACall() throws {
        let example = RuleExample.reactNative(["js/lib/types.ts": """
            type HealthKitModule = typeof import('@kingstinct/react-native-healthkit');

            export function describe(module: HealthKitModule | null): string {
              return module ? 'loaded' : 'missing';
            }
            """])
        let answers = try answers(example)
        let q2 = try XCTUnwrap(answers[.completionInterpreted])
        XCTAssertNotEqual(q2.status, .yes, q2.reason)
        XCTAssertTrue(places(q2).allSatisfy { !$0.hasPrefix("types.ts") }, q2.reason)
    }

    /// The status check guards the app's own method, whose query is in another file.
    func testAStatusGuardAroundTheAppsOwnQueryMethodIsReportedUnderQuestion3() throws {
        let rule = try XCTUnwrap(RuleCatalog.sourceRules.first { $0.description.id == "read-status-probed" })
        let example = try XCTUnwrap(rule.description.triggering.first { $0.files["Sources/HeartHistory.swift"] != nil })
        let q3 = try XCTUnwrap(try answers(example)[.readStatusProbed])
        XCTAssertEqual(q3.status, .yes, q3.reason)
        // Evidence at the guard, at the app's call, and at the query that call reaches.
        XCTAssertEqual(places(q3), ["HeartModel.swift:9", "HeartModel.swift:10", "HeartHistory.swift:12"], q3.reason)
    }

    /// The guarded method reads and then hands the data to the app's own writer: the status decides a write too.
    func testAStatusGuardAroundAMethodThatAlsoWritesIsNotAReadProbe() throws {
        let example = RuleExample.healthApp(["Sources/StepsSync.swift": """
            import HealthKit

            final class StepsSync {
                let store = HKHealthStore()

                func sync() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    if store.authorizationStatus(for: HKQuantityType(.stepCount)) == .sharingAuthorized {
                        mirror()
                    }
                }

                func mirror() {
                    let query = HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 10, sortDescriptors: nil) { _, _, _ in }
                    store.execute(query)
                    push()
                }

                func push() {
                    let sample = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1), start: .now, end: .now)
                    store.save(sample) { _, _ in }
                }
            }
            """], read: ["stepCount"], share: ["stepCount"])
        let q3 = try XCTUnwrap(try answers(example)[.readStatusProbed])
        XCTAssertNotEqual(q3.status, .yes, q3.reason)
    }

    /// Stanford Spezi's HealthKit module: configured with collectors, asked through `askForAuthorization()`.
    static let spezi = RuleExample.healthApp([
        "Sources/AppDelegate.swift": """
        import Spezi
        import SpeziHealthKit

        final class AppDelegate: SpeziAppDelegate {
            override var configuration: Configuration {
                Configuration(standard: AppStandard()) {
                    HealthKit {
                        CollectSamples(.stepCount)
                        CollectSamples(.heartRate)
                    }
                }
            }
        }
        """,
        "Sources/Permissions.swift": """
        import SpeziHealthKit
        import SwiftUI

        struct Permissions: View {
            @Environment(HealthKit.self) private var healthKit

            var body: some View {
                Button("Allow") {
                    Task {
                        do {
                            try await healthKit.askForAuthorization()
                        } catch {
                            print("Could not request HealthKit permissions.")
                        }
                    }
                }
            }
        }
        """,
    ], read: ["stepCount", "heartRate"], share: [])

    func testSpeziHealthKitCallsAreTheAppsHealthKitUse() throws {
        let answers = try answers(Self.spezi)
        let q1 = try XCTUnwrap(answers[.availabilityChecked])
        XCTAssertEqual(q1.status, .cannotTell, q1.reason)
        XCTAssertTrue(q1.reason.contains("SpeziHealthKit"), q1.reason)
        XCTAssertEqual(places(q1), ["Permissions.swift:11", "AppDelegate.swift:8"], q1.reason)
        let q2 = try XCTUnwrap(answers[.completionInterpreted])
        XCTAssertEqual(q2.status, .yes, q2.reason)
        XCTAssertTrue(places(q2).contains("Permissions.swift:11"), q2.reason)
        XCTAssertEqual(answers[.readStatusProbed]?.status, .no, answers[.readStatusProbed]?.reason ?? "")
        XCTAssertEqual(answers[.writeStatusRechecked]?.status, .notApplicable, answers[.writeStatusRechecked]?.reason ?? "")
    }

    /// A `query` of something else in a file that imports SpeziHealthKit is not a HealthKit read.
    func testAGenericNameOnAnotherReceiverIsNotAWrapperCall() throws {
        let example = RuleExample.healthApp(["Sources/Store.swift": """
            import SpeziHealthKit

            struct Store {
                let database: Database

                func rows() async throws -> [Row] {
                    try await database.query("SELECT * FROM rows")
                }
            }
            """])
        let answers = try answers(example)
        XCTAssertEqual(answers[.readStatusProbed]?.status, .cannotTell, answers[.readStatusProbed]?.reason ?? "")
    }
}
