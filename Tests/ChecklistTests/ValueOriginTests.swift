@testable import Checklist
import Manifest
import XCTest

/// Rules about values judge a value by where it comes from — a HealthKit or wrapper result — in the
/// code that ships, never by its name: each class of mistake seen on real apps has a fixture here.
final class ValueOriginTests: XCTestCase {
    private func findings(_ rule: String, _ example: RuleExample) throws -> [String] {
        try Checklist().audit(example.load()).findings.filter { $0.ruleID == rule }.map { "\($0.location)" }
    }

    // MARK: Zeros for missing data

    /// An app that reads Health data, so the rule has something to follow.
    private static let reads = """
    import AppleHealthKit, { HealthValue } from 'react-native-health';

    export const readWeight = (done: (kg: number | null) => void) =>
      AppleHealthKit.getLatestWeight({ unit: 'kg' }, (error: string, result: HealthValue) => done(error || !result ? null : result.value));
    """

    func testAFormFieldParsedWithOrZeroIsNotHealthData() throws {
        let example = RuleExample.reactNative(["js/src/health.ts": Self.reads, "js/src/LogFood.tsx": """
        import React, { useState } from 'react';
        import { TextInput } from 'react-native';

        export function LogFood({ onSave }: { onSave: (entry: { calories: number; protein: number }) => void }) {
          const [calories, setCalories] = useState('');
          const [protein, setProtein] = useState('');
          const save = () => onSave({ calories: parseInt(calories, 10) || 0, protein: Number(protein) || 0 });
          return <TextInput value={calories} onChangeText={setCalories} onSubmitEditing={save} />;
        }
        """])
        XCTAssertEqual(try findings("rn-zero-for-missing", example), [])
    }

    func testUIStateAndTheAppsOwnRecordsAreNotHealthData() throws {
        let example = RuleExample.reactNative(["js/src/health.ts": Self.reads, "js/src/Workout.tsx": """
        import React, { useState } from 'react';
        import { Text } from 'react-native';

        type Workout = { id: string; sets: { weight: number; reps: number }[] };

        export function Workout({ workouts, tourStep }: { workouts: Workout[]; tourStep?: number }) {
          const [restTimerEndsAt, setRestTimerEndsAt] = useState<number | null>(null);
          const [stepIndex, setStepIndex] = useState(0);
          const [heartRateZone, setHeartRateZone] = useState(0);
          const step = tourStep ?? 0;
          const remaining = (restTimerEndsAt || 0) - Date.now();
          const volume = workouts.flatMap((w) => w.sets).reduce((sum, set) => sum + set.weight * set.reps, 0);
          const workoutCount = workouts?.length ?? 0;
          const reset = () => { setStepIndex(0); setHeartRateZone(0); };
          return <Text onPress={reset}>{step} {remaining} {volume} {workoutCount} {stepIndex} {heartRateZone}</Text>;
        }
        """])
        XCTAssertEqual(try findings("rn-zero-for-missing", example), [])
    }

    func testAKeyTakenFromASampleDoesNotMakeAValueHealthData() throws {
        let example = RuleExample.reactNative(["js/src/goals.ts": """
        import AppleHealthKit, { HealthValue } from 'react-native-health';

        export function goalsByDay(goals: Record<string, number>, done: (perDay: Record<string, number>) => void) {
          AppleHealthKit.getDailyStepCountSamples({}, (error: string, results: HealthValue[]) => {
            const perDay: Record<string, number> = {};
            for (const sample of results ?? []) {
              const day = sample.startDate.slice(0, 10);
              perDay[day] = goals[day] ?? 0;
            }
            done(perDay);
          });
        }
        """])
        XCTAssertEqual(try findings("rn-zero-for-missing", example), [])
    }

    func testAServerFolderIsNotTheApp() throws {
        let server = """
        import type { HealthValue } from 'react-native-health';

        export const totalSteps = (samples: HealthValue[]): number => samples.reduce((sum, s) => sum + s.value, 0);
        export const heartRateFrom = (body: { heartRate?: string }): number => Number(body.heartRate) || 0;
        """
        let app = RuleExample.reactNative(["js/src/health.ts": Self.reads, "js/server/routes/steps.ts": server])
        XCTAssertEqual(try findings("rn-zero-for-missing", app), [])
        XCTAssertFalse(try app.load().javaScriptSources.contains { $0.path.contains("/server/") }, "the server is not audited as the app")
        // The same code in the app is the app's.
        let inApp = RuleExample.reactNative(["js/src/health.ts": Self.reads, "js/src/steps.ts": server])
        XCTAssertEqual(try findings("rn-zero-for-missing", inApp), ["apps/example/src/steps.ts:3:71"])
    }

    func testAWrapperReadFollowedByAZeroFallbackIsReported() throws {
        let kingstinct = RuleExample.reactNative(["js/src/weight.ts": """
        import { getMostRecentQuantitySample } from '@kingstinct/react-native-healthkit';

        export async function latestWeight(): Promise<number> {
          const sample = await getMostRecentQuantitySample('HKQuantityTypeIdentifierBodyMass', 'kg');
          return sample?.quantity ?? 0;
        }
        """])
        XCTAssertEqual(try findings("rn-zero-for-missing", kingstinct), ["apps/example/src/weight.ts:5:10"])

        let callback = RuleExample.reactNative(["js/src/steps.js": """
        import AppleHealthKit from 'react-native-health';

        export function todaysSteps(show) {
          AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (error, results) => {
            const steps = results ? results.value : undefined;
            show(steps || 0);
          });
        }
        """])
        XCTAssertEqual(try findings("rn-zero-for-missing", callback), ["apps/example/src/steps.js:6:10"])

        let capacitor = RuleExample.reactNative(["js/src/energy.ts": """
        import { Health } from '@capgo/capacitor-health';

        export async function activeEnergyToday(): Promise<number> {
          const { samples } = await Health.readSamples({ dataType: 'calories', startDate: new Date().toISOString() });
          return samples.reduce((total, sample) => total + sample.value, 0);
        }
        """])
        XCTAssertEqual(try findings("rn-zero-for-missing", capacitor), ["apps/example/src/energy.ts:5:18"])
    }

    // MARK: Errors read as denials

    func testALogOnlyErrorBranchGivesNothing() throws {
        // react-native-health's own example app, in this shape.
        let logOnly = RuleExample.reactNative(["js/App.tsx": """
        import AppleHealthKit, { HealthKitPermissions, HealthValue } from 'react-native-health';

        const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.HeartRate], write: [] } } as HealthKitPermissions;

        AppleHealthKit.initHealthKit(permissions, (error: string) => {
          if (error) {
            console.log('[ERROR] Cannot grant permissions!');
          }
          AppleHealthKit.getHeartRateSamples({ startDate: new Date(2020, 1, 1).toISOString() }, (callbackError: string, results: HealthValue[]) => {});
        });

        export async function connect(ask: () => Promise<void>) {
          try {
            await ask();
          } catch (e) {
            console.warn('permission denied?', e); // logged for the developer
          }
        }
        """])
        XCTAssertEqual(try findings("rn-callback-error-as-denial", logOnly), [])

        // Telling the person they declined is a denial, even next to a log line.
        let shown = RuleExample.reactNative(["js/App.tsx": """
        import AppleHealthKit from 'react-native-health';

        const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.HeartRate], write: [] } };

        export function connect(setMessage: (text: string) => void) {
          AppleHealthKit.initHealthKit(permissions, (error: string) => {
            if (error) {
              console.log('[ERROR] Cannot grant permissions!');
              setMessage('You denied access to Apple Health.');
            }
          });
        }
        """])
        XCTAssertEqual(try findings("rn-callback-error-as-denial", shown), ["apps/example/App.tsx:9:7"])
    }

    // MARK: Results read as grants

    func testNotingThatTheRequestWasAnsweredIsNotAGrant() throws {
        let determined = RuleExample.healthApp(["Sources/Store.swift": """
        import HealthKit

        final class Store {
            let healthStore = HKHealthStore()
            private(set) var authorizationDetermined = false

            func authorize() {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                healthStore.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount)]) { completed, _ in
                    if completed {
                        self.authorizationDetermined = true
                        self.log("asked for Health access")
                    }
                }
            }

            func log(_ text: String) { print(text) }
        }
        """])
        XCTAssertEqual(try findings("success-read-as-granted", determined), [])

        let gated = RuleExample.healthApp(["Sources/Store.swift": """
        import HealthKit

        final class Store {
            let healthStore = HKHealthStore()
            var isAuthorized = false

            func authorize() {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                healthStore.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount)]) { success, _ in
                    self.isAuthorized = success
                }
            }

            func refresh() {
                guard isAuthorized else { return }
                healthStore.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 10, sortDescriptors: nil) { _, _, _ in })
            }
        }
        """])
        XCTAssertEqual(try findings("success-read-as-granted", gated), ["apps/example/Sources/Store.swift:10:13"])

        // Shown as connected because the request completed.
        let shown = RuleExample.healthApp(["Sources/Store.swift": """
        import HealthKit

        final class Store {
            enum Link { case unknown, connected }
            let healthStore = HKHealthStore()
            var link = Link.unknown

            func authorize() {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                healthStore.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount)]) { success, _ in
                    if success {
                        self.link = .connected
                    }
                }
            }
        }
        """])
        XCTAssertEqual(try findings("success-read-as-granted", shown), ["apps/example/Sources/Store.swift:11:13"])
    }
}

/// Code that never runs: a service method nothing in the app calls, and one called only from it, make
/// no finding about values; the same code called from a screen does (healthscore, stop 45).
final class UncalledScriptCodeTests: XCTestCase {
    private static let service = """
    import AppleHealthKit from 'react-native-health';

    class HealthService {
      isInitialized = false;

      async initialize(): Promise<boolean> {
        return new Promise((resolve) => {
          AppleHealthKit.initHealthKit({ permissions: { read: ['Steps'], write: [] } }, (error: string) => {
            if (error) {
              this.isInitialized = false;
              resolve(false);
            } else {
              this.isInitialized = true;
              resolve(true);
            }
          });
        });
      }

      async historicalSteps(): Promise<number[]> {
        if (!this.isInitialized) {
          const initialized = await this.initialize();
          if (!initialized) {
            throw new Error('Failed to initialize HealthKit');
          }
        }
        return [];
      }

      async comprehensiveHistory(): Promise<number[][]> {
        return [await this.historicalSteps()];
      }
    }

    export default new HealthService();
    """

    private func grantFindings(_ files: [String: String]) throws -> [String] {
        try Checklist().audit(RuleExample.reactNative(files).load()).findings.filter { $0.ruleID == "request-result-as-grant" }
            .map { "\($0.location.file):\($0.location.line ?? 0)" }
    }

    func testAMethodNothingCallsMakesNoFinding() throws {
        XCTAssertEqual(try grantFindings(["js/src/healthService.ts": Self.service, "js/App.tsx": """
        import React from 'react';
        import { Text } from 'react-native';
        import healthService from './src/healthService';

        export default function App() {
          return <Text onPress={() => healthService.initialize()}>Connect</Text>;
        }
        """]), [])
    }

    /// An export of a module the app's own files import is the app's to call: one nothing names never
    /// runs. A module nothing imports (a route a file router mounts) keeps its exports as entries.
    func testAnExportNothingImportsFromAnImportedModuleMakesNoFinding() throws {
        let module = """
        import AppleHealthKit from 'react-native-health';

        export function connect(onDone: (connected: boolean) => void) {
          AppleHealthKit.initHealthKit({ permissions: { read: ['Steps'], write: [] } }, (error: string) => {
            onDone(!error);
          });
        }

        export async function connectWithFlag(): Promise<void> {
          await new Promise((resolve) => AppleHealthKit.initHealthKit({ permissions: { read: ['Steps'], write: [] } }, resolve));
          globalThis.healthConnected = true;
        }
        """
        let screen = """
        import React from 'react';
        import { Text } from 'react-native';
        import { connect } from './src/health';

        export default function App() {
          return <Text onPress={() => connect(() => {})}>Connect</Text>;
        }
        """
        let imported = try Checklist().audit(RuleExample.reactNative(["js/src/health.ts": module, "js/App.tsx": screen]).load())
        XCTAssertTrue(UncalledScriptFunctions(files: imported.manifest.javaScriptSources).contains(path: "apps/example/src/health.ts", line: 11))
        XCTAssertFalse(UncalledScriptFunctions(files: imported.manifest.javaScriptSources).contains(path: "apps/example/src/health.ts", line: 4))
        // Nothing imports the module (another folder's `health`, or `health.styles`, is another module): its exports stay entries.
        let alone = try Checklist().audit(RuleExample.reactNative(["js/src/health.ts": module, "js/App.tsx": """
        import styles from './src/health.styles';
        import { connect } from './lib/health';

        export default function App() { return connect(styles); }
        """]).load())
        XCTAssertFalse(UncalledScriptFunctions(files: alone.manifest.javaScriptSources).contains(path: "apps/example/src/health.ts", line: 11))
    }

    /// Q1 (JavaScript): a read in an export of an imported module that nothing names is no open path.
    func testAnUncalledExportIsNoUncheckedPathForQuestion1() throws {
        let health = """
        import AppleHealthKit from 'react-native-health';

        export async function isHealthAvailable(): Promise<boolean> {
          return new Promise((resolve) => AppleHealthKit.isAvailable((_error: any, ok: boolean) => resolve(ok)));
        }

        export async function steps(): Promise<number | null> {
          const available = await isHealthAvailable();
          if (!available) return null;
          return new Promise((resolve) => AppleHealthKit.getStepCount({}, (_error: any, result: any) => resolve(result?.value ?? null)));
        }

        export async function heartRate(): Promise<number | null> {
          return new Promise((resolve) => AppleHealthKit.getHeartRateSamples({}, (_error: any, results: any[]) => resolve(results?.[0]?.value ?? null)));
        }
        """
        func q1(_ screen: String) throws -> Answer {
            let audit = Checklist().audit(try RuleExample.reactNative(["js/src/health.ts": health, "js/App.tsx": screen]).load())
            return try XCTUnwrap(audit.answers.first { $0.question == .availabilityChecked })
        }
        let uncalled = try q1("import { steps } from './src/health';\n\nexport default function App() { steps(); return null; }\n")
        XCTAssertEqual(uncalled.status, .yes, uncalled.reason)
        let called = try q1("import { steps, heartRate } from './src/health';\n\nexport default function App() { heartRate(); steps(); return null; }\n")
        XCTAssertEqual(called.status, .no, called.reason)
    }

    func testTheSameMethodCalledFromAScreenIsReported() throws {
        XCTAssertEqual(try grantFindings(["js/src/healthService.ts": Self.service, "js/App.tsx": """
        import React from 'react';
        import { Text } from 'react-native';
        import healthService from './src/healthService';

        export default function App() {
          return <Text onPress={() => healthService.comprehensiveHistory()}>History</Text>;
        }
        """]), ["apps/example/src/healthService.ts:22"])
    }
}
