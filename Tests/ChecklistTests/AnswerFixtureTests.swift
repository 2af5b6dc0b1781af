import Checklist
import Manifest
import XCTest

/// Small apps, one per class of answer the checklist defines, written for these tests.
enum AnswerFixtures {
    static let widgetInfo = RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>])

    /// A save whose error is caught (so no rule reports it) with no status check before it.
    static let uncheckedWrite = RuleExample.healthApp(["Sources/Journal.swift": """
        import HealthKit

        final class Journal {
            let store = HKHealthStore()

            func log(_ sample: HKQuantitySample) async {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                do {
                    try await store.save(sample)
                } catch {
                    print("not saved: \\(error)")
                }
            }
        }
        """])

    /// Two writes, each decided by a fresh status check: one inline, one through a helper.
    static let checkedWrites = RuleExample.healthApp(["Sources/Writer.swift": """
        import HealthKit

        final class Writer {
            let store = HKHealthStore()

            var canWriteWorkouts: Bool { store.authorizationStatus(for: .workoutType()) == .sharingAuthorized }

            func saveWorkout(_ workout: HKWorkout) async throws {
                guard HKHealthStore.isHealthDataAvailable(), canWriteWorkouts else { return }
                try await store.save(workout)
            }

            func saveMindful(_ sample: HKCategorySample) async throws {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                guard store.authorizationStatus(for: HKCategoryType(.mindfulSession)) == .sharingAuthorized else { return }
                try await store.save(sample)
            }
        }
        """], share: ["workout", "mindfulSession"])

    /// A whole app (its `@main` is read): the write it makes is checked through a chain of its own
    /// helpers (`evaluate()` → `canWrite()` → `status()` → `authorizationStatus(for:)`); an old delete
    /// nothing calls is left out, as it never runs.
    static let helperChainAndUncalledDelete = RuleExample.healthApp([
        "Sources/MindfulApp.swift": """
        import SwiftUI

        @main
        struct MindfulApp: App {
            var body: some Scene { WindowGroup { Button("Done") { Task { await Sessions.shared.finish() } } } }
        }
        """,
        "Sources/Sessions.swift": """
        import HealthKit

        final class Sessions {
            static let shared = Sessions()
            let store = HKHealthStore()
            var isAuthorized = false

            func status() -> HKAuthorizationStatus { store.authorizationStatus(for: HKCategoryType(.mindfulSession)) }
            func canWrite() -> Bool { status() == .sharingAuthorized }
            func evaluate() -> Bool { HKHealthStore.isHealthDataAvailable() && canWrite() }

            func finish() async {
                guard evaluate() else { return }
                let now = Date()
                try? await store.save(HKCategorySample(type: HKCategoryType(.mindfulSession), value: 0, start: now, end: now))
            }

            func removeOldSession(_ sample: HKCategorySample) {
                guard isAuthorized else { return }
                store.delete(sample) { _, _ in }
            }
        }
        """,
    ], share: ["mindfulSession"])

    /// The same writer with the second check gone: one write checked, one not.
    static let oneWriteUnchecked = RuleExample.healthApp(["Sources/Writer.swift": """
        import HealthKit

        final class Writer {
            let store = HKHealthStore()

            var canWriteWorkouts: Bool { store.authorizationStatus(for: .workoutType()) == .sharingAuthorized }

            func saveWorkout(_ workout: HKWorkout) async throws {
                guard HKHealthStore.isHealthDataAvailable(), canWriteWorkouts else { return }
                try await store.save(workout)
            }

            func saveMindful(_ sample: HKCategorySample) async throws {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                try await store.save(sample)
            }
        }
        """], share: ["workout", "mindfulSession"])

    /// Status asked about a shared type to show a label; nothing is ever written.
    static let statusShownNeverWritten = RuleExample.healthApp(["Sources/Status.swift": """
        import HealthKit

        final class StatusModel {
            let store = HKHealthStore()
            var label = ""

            func refresh() {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                let status = store.authorizationStatus(for: HKObjectType.workoutType())
                label = status == .sharingAuthorized ? "Workouts are saved to Health" : "Workouts are not saved"
            }

            func steps() {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                store.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in })
            }
        }
        """])

    /// Asks to read only (types built at run time), then takes the write status of what it reads as its answer.
    static let statusOfReadTypesInAnAppThatSharesNothing = RuleExample.healthApp(["Sources/Waves.swift": """
        import HealthKit

        final class Waves {
            let store = HKHealthStore()
            var granted = false

            func ask(_ identifiers: [HKQuantityTypeIdentifier]) async throws {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                let read = Set(identifiers.map { HKQuantityType($0) as HKObjectType })
                try await store.requestAuthorization(toShare: [], read: read)
                granted = read.allSatisfy { type in
                    store.authorizationStatus(for: type) != .notDetermined
                }
            }
        }
        """], read: [], share: [])

    /// The iPhone app reads and shares workouts but never writes (its watch would): the status it asks
    /// of a type it reads stands for reading there.
    static let statusOfAReadTypeInATargetThatNeverWrites = RuleExample.healthApp(["Sources/Gate.swift": """
        import HealthKit

        final class Gate {
            let store = HKHealthStore()
            var locked = false

            func ask() async throws {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKObjectType.workoutType()])
                locked = store.authorizationStatus(for: HKObjectType.workoutType()) == .sharingDenied
            }

            func workouts() {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                store.execute(HKSampleQuery(sampleType: HKObjectType.workoutType(), predicate: nil, limit: 10, sortDescriptors: nil) { _, _, _ in })
            }
        }
        """], read: ["workout"], share: ["workout"])

    /// A wrapper named like HealthKit's own method that nothing in the app calls: the status is never asked.
    static let uncalledStatusWrapper = RuleExample.healthApp(["Sources/StepsApp.swift": """
        import HealthKit
        import SwiftUI

        @main
        struct StepsApp: App {
            let manager = StepsManager()
            var body: some Scene { WindowGroup { Text("Steps").task { try? await manager.ask() } } }
        }

        final class StepsManager {
            let healthStore = HKHealthStore()

            func ask() async throws {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                try await healthStore.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
            }

            func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus {
                healthStore.authorizationStatus(for: type)
            }
        }
        """], read: [], share: [])

    /// A status switch: saved when authorized (checked), and after asking when not determined (no fresh check).
    static let saveAfterAskingWhenNotDetermined = RuleExample.healthApp(["Sources/Water.swift": """
        import HealthKit

        final class Water {
            let store = HKHealthStore()

            func log(_ sample: HKQuantitySample) {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                let state = store.authorizationStatus(for: HKQuantityType(.dietaryWater))
                switch state {
                case .notDetermined:
                    store.requestAuthorization(toShare: [HKQuantityType(.dietaryWater)], read: []) { success, _ in
                        if success { self.store.save(sample) { _, _ in } }
                    }
                case .sharingAuthorized:
                    store.save(sample) { _, _ in }
                default:
                    break
                }
            }

            func logOnce(_ sample: HKQuantitySample) {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                if store.authorizationStatus(for: HKQuantityType(.dietaryWater)) == .notDetermined {
                    store.requestAuthorization(toShare: [HKQuantityType(.dietaryWater)], read: []) { _, _ in
                        self.store.save(sample) { _, _ in }
                    }
                }
            }
        }
        """], read: [], share: ["dietaryWater"])

    /// The app asks; its widget reads steps and never asks.
    static let widgetNeverAsks = RuleExample.healthApp([
        "Sources/Access.swift": """
        import HealthKit

        final class Access {
            let store = HKHealthStore()

            func ask() async throws {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount)])
            }
        }
        """,
        "Widget/Info.plist": widgetInfo,
        "Widget/Sources/Provider.swift": """
        import HealthKit
        import WidgetKit

        struct StepsEntry: TimelineEntry { let date: Date; let steps: Double }

        struct StepsProvider: TimelineProvider {
            let store = HKHealthStore()

            func placeholder(in context: Context) -> StepsEntry { StepsEntry(date: .now, steps: 0) }
            func getSnapshot(in context: Context, completion: @escaping (StepsEntry) -> Void) { completion(placeholder(in: context)) }
            func getTimeline(in context: Context, completion: @escaping (Timeline<StepsEntry>) -> Void) {
                guard HKHealthStore.isHealthDataAvailable() else { return completion(Timeline(entries: [], policy: .atEnd)) }
                let query = HKStatisticsQuery(quantityType: HKQuantityType(.stepCount), quantitySamplePredicate: nil, options: .cumulativeSum) { _, result, _ in
                    let steps = result?.sumQuantity()?.doubleValue(for: .count()) ?? 0
                    completion(Timeline(entries: [StepsEntry(date: .now, steps: steps)], policy: .atEnd))
                }
                store.execute(query)
            }
        }
        """,
    ])

    /// The app checks availability; its widget queries without a check of its own.
    static let widgetUnguarded: RuleExample = {
        var example = widgetNeverAsks
        example.files["Widget/Sources/Provider.swift"] = example.files["Widget/Sources/Provider.swift"]!
            .replacingOccurrences(of: "        guard HKHealthStore.isHealthDataAvailable() else { return completion(Timeline(entries: [], policy: .atEnd)) }\n", with: "")
        return example
    }()

    /// JavaScript on `@kingstinct/react-native-healthkit`: availability decides, the save is caught but unchecked.
    static let javaScriptUncheckedWrite = RuleExample.reactNative(["js/src/health.ts": """
        import { isHealthDataAvailable, requestAuthorization, saveQuantitySample } from '@kingstinct/react-native-healthkit';

        export async function connect() {
          if (!isHealthDataAvailable()) return false;
          await requestAuthorization({ toShare: ['HKQuantityTypeIdentifierBodyMass'] });
          return true;
        }

        export async function logWeight(kg: number) {
          try {
            await saveQuantitySample('HKQuantityTypeIdentifierBodyMass', 'kg', kg);
          } catch (error) {
            showBanner('Not saved to Health');
          }
        }
        """])

    /// Every library call is guarded: `init` checks and throws, the launch awaits it before reading,
    /// and the only other caller of the reader checks first itself.
    static let javaScriptEveryPathChecks = RuleExample.reactNative(["js/src/health.ts": """
        import { isHealthDataAvailable, requestAuthorization, queryQuantitySamples } from '@kingstinct/react-native-healthkit';

        export async function initializeHealthKit() {
          if (!(await isHealthDataAvailable())) throw new Error('Health is not available');
          await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] });
        }

        async function todaysSteps() {
          return queryQuantitySamples('HKQuantityTypeIdentifierStepCount', { limit: 10 });
        }

        export async function launch() {
          await initializeHealthKit();
          return todaysSteps();
        }
        """])

    /// The check two of the app's functions away: the sync awaits `requestPermission`, which awaits
    /// `requestHealthPermissions`, which asks `isAvailable` and returns false without Health
    /// (Kampen's hook around its Capacitor helper).
    static let javaScriptCheckTwoFunctionsAway = RuleExample.reactNative(["js/src/health.ts": """
        import { Health } from '@capgo/capacitor-health';

        export async function requestHealthPermissions(): Promise<boolean> {
          const available = await Health.isAvailable();
          if (!available.available) return false;
          await Health.requestAuthorization({ read: ['steps'], write: [] });
          return true;
        }

        export async function stepsToday(): Promise<number> {
          const result = await Health.queryAggregated({ dataType: 'steps', startDate: new Date().toISOString(), endDate: new Date().toISOString() });
          return result.samples.length;
        }
        """, "js/src/useSteps.ts": """
        import { requestHealthPermissions, stepsToday } from './health';

        export function useSteps() {
          const requestPermission = async (): Promise<boolean> => {
            const asked = await requestHealthPermissions();
            return asked;
          };
          const sync = async () => {
            if (!(await requestPermission())) return null;
            return stepsToday();
          };
          return { sync };
        }
        """])

    /// react-native-health's availability answer kept in a state (Kin's hook): the read returns
    /// early while it is false, and the request runs only in the branch where it is true.
    static let javaScriptAvailabilityInState = RuleExample.reactNative(["js/src/useSteps.ts": """
        import { useCallback, useEffect, useState } from 'react';
        import AppleHealthKit from 'react-native-health';

        const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.StepCount], write: [] } };

        export function useSteps() {
          const [isAvailable, setIsAvailable] = useState(false);
          const [steps, setSteps] = useState<number | null>(null);

          const fetchToday = useCallback(() => {
            if (!isAvailable) {
              return;
            }
            AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (err: string, result: { value: number }) => {
              if (!err) setSteps(result.value);
            });
          }, [isAvailable]);

          useEffect(() => {
            AppleHealthKit.isAvailable((err: string, available: boolean) => {
              setIsAvailable(available);
              if (available) {
                AppleHealthKit.initHealthKit(permissions, () => {});
              }
            });
          }, []);

          return { steps, refresh: fetchToday };
        }
        """])

    /// The availability answer's one field destructured and returned by the app's helper, whose
    /// callers decide on it (Petal's service).
    static let javaScriptDestructuredAvailability = RuleExample.reactNative(["js/src/healthkit.ts": """
        import { Health } from '@capgo/capacitor-health';

        export async function isHealthKitAvailable(): Promise<boolean> {
          const { available } = await Health.isAvailable();
          return available;
        }

        export async function link(): Promise<number | null> {
          if (!(await isHealthKitAvailable())) return null;
          await Health.requestAuthorization({ read: ['steps'], write: [] });
          const result = await Health.readSamples({ dataType: 'steps', limit: 1 });
          return result.samples.length;
        }
        """, "js/src/useSteps.ts": """
        import { useCallback, useEffect, useState } from 'react';
        import { Health } from '@capgo/capacitor-health';
        import { isHealthKitAvailable } from './healthkit';

        export function useSteps() {
          const [isAvailable, setIsAvailable] = useState(false);
          useEffect(() => {
            (async () => {
              const available = await isHealthKitAvailable();
              setIsAvailable(available);
            })();
          }, []);
          const sync = useCallback(async () => {
            if (!isAvailable) return 0;
            const result = await Health.readSamples({ dataType: 'steps', limit: 10 });
            return result.samples.length;
          }, [isAvailable]);
          return { sync };
        }
        """])

    /// The same, and a screen that reads without a check.
    static let javaScriptOneScreenUnchecked = RuleExample.reactNative(["js/src/health.ts": """
        import { isHealthDataAvailable, requestAuthorization, queryQuantitySamples } from '@kingstinct/react-native-healthkit';

        export async function initializeHealthKit() {
          if (!(await isHealthDataAvailable())) throw new Error('Health is not available');
          await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] });
        }

        export async function launch() {
          await initializeHealthKit();
          return todaysSteps();
        }

        export async function todaysSteps() {
          return queryQuantitySamples('HKQuantityTypeIdentifierStepCount', { limit: 10 });
        }
        """, "js/src/Summary.tsx": """
        import { todaysSteps } from './health';

        export function SummaryScreen() {
          const refresh = async () => { setSteps(await todaysSteps()); };
          return <Button onPress={refresh} title="Refresh" />;
        }
        """])

    /// The same save decided by the library's status call right before it.
    static let javaScriptCheckedWrite = RuleExample.reactNative(["js/src/health.ts": """
        import { authorizationStatusFor, isHealthDataAvailable, requestAuthorization, saveQuantitySample, AuthorizationStatus } from '@kingstinct/react-native-healthkit';

        export async function connect() {
          if (!isHealthDataAvailable()) return false;
          await requestAuthorization({ toShare: ['HKQuantityTypeIdentifierBodyMass'] });
          return true;
        }

        export async function logWeight(kg: number) {
          if (authorizationStatusFor('HKQuantityTypeIdentifierBodyMass') !== AuthorizationStatus.sharingAuthorized) return;
          try {
            await saveQuantitySample('HKQuantityTypeIdentifierBodyMass', 'kg', kg);
          } catch (error) {
            showBanner('Not saved to Health');
          }
        }
        """])

    /// Flutter on `package:health`: a write with no status check, and no availability call to make.
    static let dartUncheckedWrite = RuleExample.flutter(["lib/weight.dart": """
        import 'package:health/health.dart';

        final health = Health();

        Future<void> logWeight(double kg) async {
          await health.requestAuthorization([HealthDataType.WEIGHT], permissions: [HealthDataAccess.READ_WRITE]);
          try {
            await health.writeHealthData(value: kg, type: HealthDataType.WEIGHT, startTime: DateTime.now());
          } catch (e) {
            print(e);
          }
        }
        """, "lib/main.dart": """
        import 'weight.dart';

        Future<void> main() async {
          await logWeight(72.5);
        }
        """])

    /// A service that checks availability before asking but not before a later query run (line 13).
    static let availabilityOnOnePath = RuleExample.healthApp(["Sources/Steps.swift": """
        import HealthKit

        final class Steps {
            let store = HKHealthStore()

            func connect() async throws {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
            }

            func refresh() {
                let query = HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in }
                store.execute(query)
            }
        }
        """])

    /// Every path guarded without a check in each function: the store exists only where Health does
    /// (line 5), and the reader's query runs only from a caller that checks (line 20).
    static let availabilityGuardedBySetUpAndCaller = RuleExample.healthApp(["Sources/Health.swift": """
        import HealthKit

        final class Health {
            static let shared = Health()
            let store: HKHealthStore? = HKHealthStore.isHealthDataAvailable() ? HKHealthStore() : nil

            func connect() async throws {
                try await store?.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
            }
        }

        struct Reader {
            let store = HKHealthStore()
            func latest() {
                store.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in })
            }
        }

        func start(_ reader: Reader) {
            if HKHealthStore.isHealthDataAvailable() { reader.latest() }
        }
        """])

    /// A two-target watch app: the WatchKit extension (an app-extension target) runs the watch
    /// app's screens, which ask, and a ClockKit complication that only reads a cache.
    static func watchKitExtension(complicationAsks: Bool) -> RuleExample {
        RuleExample.healthApp([
            "Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()
                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                }
            }
            """,
            "Watch/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.watchkit"] as KeyValuePairs<String, Any>]),
            "Watch/Sources/InterfaceController.swift": """
            import HealthKit
            import WatchKit

            final class InterfaceController: WKInterfaceController {
                let store = HKHealthStore()
                override func willActivate() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)]) { _, _ in }
                }
            }
            """,
            "Watch/Sources/ComplicationController.swift": """
            import ClockKit
            import HealthKit

            final class ComplicationController: NSObject, CLKComplicationDataSource {
                let store = HKHealthStore()
                func getCurrentTimelineEntry(for complication: CLKComplication, withHandler handler: @escaping (CLKComplicationTimelineEntry?) -> Void) {
                    \(complicationAsks ? "guard HKHealthStore.isHealthDataAvailable() else { return handler(nil) }\n        store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)]) { _, _ in handler(nil) }" : "handler(nil)")
                }
            }
            """,
        ])
    }

    /// Availability kept in a flag set from a helper that checks it, and the save gated by the flag (line 17).
    static let availabilityFlag = RuleExample.healthApp(["Sources/Glucose.swift": """
        import HealthKit

        final class Glucose {
            let store = HKHealthStore()
            private var ready = false

            func start() { ready = prepare() }

            private func prepare() -> Bool {
                guard HKHealthStore.isHealthDataAvailable() else { return false }
                return true
            }

            func store(_ sample: HKQuantitySample) {
                guard ready else { return }
                store.save(sample) { _, _ in }
            }
        }
        """])

    /// A manager whose initializer consults availability through its own property: its methods are
    /// set up behind the check.
    static let availabilityInInitializer = RuleExample.healthApp(["Sources/Uploader.swift": """
        import HealthKit

        final class Uploader {
            let store = HKHealthStore()
            var isAvailableOnDevice: Bool { HKHealthStore.isHealthDataAvailable() }

            init() {
                guard isAvailableOnDevice else { return }
            }

            func upload(_ samples: [HKQuantitySample]) async throws {
                try await store.save(samples)
            }
        }
        """])


    /// A type whose initializer decodes a property named like a helper (`end`, as a watch app's `end(…)`
    /// that checks): assigning it asks nothing, so the type is not set up behind a check.
    static let propertyNamedLikeAHelper = RuleExample.healthApp(["Sources/Session.swift": """
        import HealthKit

        final class Session {
            let store = HKHealthStore()
            func end() -> Bool { HKHealthStore.isHealthDataAvailable() }
        }
        """, "Sources/Workout.swift": """
        import HealthKit

        final class Workout {
            var end: Date
            let store = HKHealthStore()

            init(end: Date) {
                self.end = end
            }

            func remove(_ sample: HKWorkout) {
                store.delete(sample) { _, _ in }
            }
        }
        """])

    /// A delegate method whose parameter shares the name of the delegate method that checks, and uses it
    /// (`application.applicationIconBadgeNumber = 0`): the parameter is no check before the save.
    static let parameterNamedLikeAHelper = RuleExample.healthApp(["Sources/AppDelegate.swift": """
        import UIKit
        import HealthKit

        class AppDelegate: UIResponder, UIApplicationDelegate {
            let store = HKHealthStore()

            func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                HKHealthStore.isHealthDataAvailable()
            }

            func application(_ application: UIApplication, performFetchWithCompletionHandler done: @escaping (UIBackgroundFetchResult) -> Void) {
                application.applicationIconBadgeNumber = 0
                store.save(HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1), start: Date(), end: Date())) { _, _ in done(.newData) }
            }
        }
        """], share: ["stepCount"])

    /// No availability check, in an app that requires the `healthkit` device capability.
    static let installedOnlyWithHealth = RuleExample.healthApp(["Sources/Sleep.swift": """
        import HealthKit

        final class Sleep {
            let store = HKHealthStore()

            func ask() async throws {
                try await store.requestAuthorization(toShare: [], read: [HKCategoryType(.sleepAnalysis)])
            }
        }
        """], info: ["CFBundleName": "Sleep", "NSHealthShareUsageDescription": RuleExample.goodShare,
                     "NSHealthUpdateUsageDescription": RuleExample.goodUpdate, "UIRequiredDeviceCapabilities": ["arm64", "healthkit"]],
        read: ["sleepAnalysis"], share: [])

    /// A Flutter app's own method channel (Rosie's AppDelegate): availability is answered in one `case`
    /// of the handler, the request runs from another. The delegate method's parameter `application`
    /// shares the name of the delegate method that holds the check, and is no check.
    static let channelAvailabilityInAnotherCase = RuleExample.healthApp(["Sources/AppDelegate.swift": """
        import UIKit
        import Flutter
        import HealthKit

        @objc class AppDelegate: FlutterAppDelegate {
            lazy var healthStore = HKHealthStore()

            override func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                let channel = FlutterMethodChannel(name: "org.example/health", binaryMessenger: (window?.rootViewController as! FlutterViewController).binaryMessenger)
                channel.setMethodCallHandler({ [weak self] (call: FlutterMethodCall, result: @escaping FlutterResult) -> Void in
                    switch call.method {
                    case "isHealthDataAvailable":
                        result(HKHealthStore.isHealthDataAvailable())
                    case "requestAccess":
                        self?.requestAccess(result: result)
                    default:
                        result(FlutterMethodNotImplemented)
                    }
                })
                return super.application(application, didFinishLaunchingWithOptions: launchOptions)
            }

            func requestAccess(result: @escaping FlutterResult) {
                healthStore.requestAuthorization(toShare: nil, read: [HKQuantityType(.stepCount)]) { success, _ in result(success) }
            }
        }
        """])

    static let all: [(String, RuleExample)] = [
        ("uncheckedWrite", uncheckedWrite), ("checkedWrites", checkedWrites), ("oneWriteUnchecked", oneWriteUnchecked),
        ("statusShownNeverWritten", statusShownNeverWritten), ("statusOfReadTypesInAnAppThatSharesNothing", statusOfReadTypesInAnAppThatSharesNothing),
        ("statusOfAReadTypeInATargetThatNeverWrites", statusOfAReadTypeInATargetThatNeverWrites), ("uncalledStatusWrapper", uncalledStatusWrapper),
        ("saveAfterAskingWhenNotDetermined", saveAfterAskingWhenNotDetermined),
        ("widgetNeverAsks", widgetNeverAsks), ("widgetUnguarded", widgetUnguarded),
        ("javaScriptUncheckedWrite", javaScriptUncheckedWrite), ("javaScriptCheckedWrite", javaScriptCheckedWrite),
        ("dartUncheckedWrite", dartUncheckedWrite), ("availabilityOnOnePath", availabilityOnOnePath),
        ("availabilityGuardedBySetUpAndCaller", availabilityGuardedBySetUpAndCaller),
        ("availabilityFlag", availabilityFlag), ("channelAvailabilityInAnotherCase", channelAvailabilityInAnotherCase), ("propertyNamedLikeAHelper", propertyNamedLikeAHelper), ("installedOnlyWithHealth", installedOnlyWithHealth), ("parameterNamedLikeAHelper", parameterNamedLikeAHelper), ("availabilityInInitializer", availabilityInInitializer), ("watchKitExtension", watchKitExtension(complicationAsks: false)), ("watchKitComplicationAsks", watchKitExtension(complicationAsks: true)),
    ]
}

/// Each of the six answers computed from facts: yes cites what makes it true, no what breaks it,
/// and no rule staying silent ever makes a yes.
final class AnswerFixtureTests: XCTestCase {
    func answers(_ example: RuleExample) throws -> [ReviewQuestion: Answer] {
        let audit = Checklist().audit(try example.load())
        return Dictionary(uniqueKeysWithValues: audit.answers.map { ($0.question, $0) })
    }

    func places(_ answer: Answer?) -> [String] { answer?.evidence.map { "\($0.location.file.split(separator: "/").last!):\($0.location.line ?? 0)" } ?? [] }

    func testAnUncheckedWriteIsNoAndItsReasonCitesTheWrite() throws {
        let answers = try answers(AnswerFixtures.uncheckedWrite)
        let q6 = try XCTUnwrap(answers[.writeStatusRechecked])
        XCTAssertEqual(q6.status, .no, q6.reason)
        XCTAssertTrue(q6.reason.contains("Journal.swift:9"), q6.reason)
        XCTAssertEqual(q6.evidence.first?.quote, "try await store.save(sample)")
        XCTAssertTrue(q6.reason.contains("caught"), "a caught error is worth saying: \(q6.reason)")
        // Question 3 reads the same facts: nothing asks for status, so it cannot say a check guards writes.
        let q3 = try XCTUnwrap(answers[.readStatusProbed])
        XCTAssertEqual(q3.status, .no, q3.reason)
        XCTAssertTrue(q3.reason.hasPrefix("nothing in the code asks for permission status"), q3.reason)
    }

    func testWritesAreYesOnlyWhenEachIsChecked() throws {
        let checked = try answers(AnswerFixtures.checkedWrites)
        let yes = try XCTUnwrap(checked[.writeStatusRechecked])
        XCTAssertEqual(yes.status, .yes, yes.reason)
        XCTAssertEqual(places(yes), ["Writer.swift:9", "Writer.swift:10", "Writer.swift:15", "Writer.swift:16"], yes.reason)
        XCTAssertTrue(yes.reason.contains("Writer.swift:9 before the write at Writer.swift:10"), yes.reason)
        let q3 = try XCTUnwrap(checked[.readStatusProbed])
        XCTAssertEqual(q3.status, .no, q3.reason)
        XCTAssertTrue(q3.reason.contains("decides writes"), q3.reason)

        let partly = try answers(AnswerFixtures.oneWriteUnchecked)
        let no = try XCTUnwrap(partly[.writeStatusRechecked])
        XCTAssertEqual(no.status, .no, no.reason)
        XCTAssertEqual(places(no), ["Writer.swift:15"], "only the unchecked write breaks it: \(no.reason)")
    }

    func testAHelperChainIsAFreshCheckAndAWriteNothingCallsIsLeftOut() throws {
        let answers = try answers(AnswerFixtures.helperChainAndUncalledDelete)
        let q6 = try XCTUnwrap(answers[.writeStatusRechecked])
        XCTAssertEqual(q6.status, .yes, q6.reason)
        XCTAssertTrue(q6.reason.contains("Sessions.swift:13 before the write at Sessions.swift:15"), q6.reason)
        XCTAssertTrue(q6.reason.contains("a function nothing in the app calls: Sessions.swift:20 in the function declared at Sessions.swift:18"), q6.reason)
    }

    /// In a target that never writes, the write status of a type it reads can only be taken for reading.
    func testAStatusAskedWhereNothingIsWrittenIsAboutReading() throws {
        for example in [AnswerFixtures.statusOfReadTypesInAnAppThatSharesNothing, AnswerFixtures.statusOfAReadTypeInATargetThatNeverWrites] {
            let q3 = try XCTUnwrap(try answers(example)[.readStatusProbed])
            XCTAssertEqual(q3.status, .yes, q3.reason)
            XCTAssertTrue(q3.reason.contains("whose code never writes to HealthKit"), q3.reason)
            XCTAssertEqual(places(q3).count, 1, q3.reason)
        }
    }

    /// A save where the status said "not determined" (after asking) has no fresh check; the save in the
    /// `.sharingAuthorized` case has one.
    func testASaveWhereTheStatusWasNotAuthorizedIsUnchecked() throws {
        let q6 = try XCTUnwrap(try answers(AnswerFixtures.saveAfterAskingWhenNotDetermined)[.writeStatusRechecked])
        XCTAssertEqual(q6.status, .no, q6.reason)
        XCTAssertEqual(places(q6), ["Water.swift:12", "Water.swift:25"], "the save in the authorized case (line 14) is checked: \(q6.reason)")
    }

    func testAStatusAskedOnlyInAFunctionNothingCallsIsNeverAsked() throws {
        let q3 = try XCTUnwrap(try answers(AnswerFixtures.uncalledStatusWrapper)[.readStatusProbed])
        XCTAssertEqual(q3.status, .no, q3.reason)
        XCTAssertTrue(q3.reason.hasPrefix("permission status is asked only in functions nothing in the app calls (StepsApp.swift:19); HealthKit is used without asking (StepsApp.swift:15)"), q3.reason)
    }

    func testAStatusCheckThatDecidesNoWriteIsNotSaidToGuardWrites() throws {
        let answers = try answers(AnswerFixtures.statusShownNeverWritten)
        let q3 = try XCTUnwrap(answers[.readStatusProbed])
        XCTAssertEqual(q3.status, .no, q3.reason)
        XCTAssertFalse(q3.reason.contains("write"), q3.reason)
        XCTAssertEqual(places(q3), ["Status.swift:9"], q3.reason)
        XCTAssertTrue(q3.reason.contains("`workout`, which the app asks to share"), q3.reason)
        let q6 = try XCTUnwrap(answers[.writeStatusRechecked])
        XCTAssertEqual(q6.status, .notApplicable, q6.reason)
    }

    /// A plugin's `isAuthorized` asks `authorizationStatus(for:)` about a type the app only asks to
    /// read, through a computed property that builds the read set (seen in a real Capacitor app):
    /// question 3 is yes, citing the status call.
    func testAStatusOnATypeOnlyReadThroughAGetterSetIsYes() throws {
        let example = RuleExample.healthApp(["Sources/HealthKitPlugin.swift": """
        import HealthKit

        final class HealthKitPlugin {
            private let healthStore = HKHealthStore()

            private var readTypes: Set<HKObjectType> {
                var types = Set<HKObjectType>()
                if let restingHR = HKQuantityType.quantityType(forIdentifier: .restingHeartRate) { types.insert(restingHR) }
                if let steps = HKQuantityType.quantityType(forIdentifier: .stepCount) { types.insert(steps) }
                return types
            }

            func requestAuthorization(_ done: @escaping ([String: Any]) -> Void) {
                guard HKHealthStore.isHealthDataAvailable() else { return done(["granted": false]) }
                healthStore.requestAuthorization(toShare: nil, read: readTypes) { success, _ in done(["granted": success]) }
            }

            func isAuthorized(_ done: @escaping ([String: Any]) -> Void) {
                guard HKHealthStore.isHealthDataAvailable() else { return done(["authorized": false]) }
                if let type = HKQuantityType.quantityType(forIdentifier: .restingHeartRate) {
                    let status = healthStore.authorizationStatus(for: type)
                    done(["authorized": status == .sharingAuthorized || status == .notDetermined])
                }
            }
        }
        """], read: [], share: [])
        let q3 = try XCTUnwrap(try answers(example)[.readStatusProbed])
        XCTAssertEqual(q3.status, .yes, q3.reason)
        XCTAssertEqual(places(q3), ["HealthKitPlugin.swift:21"], q3.reason)
        XCTAssertTrue(q3.reason.contains("`restingHeartRate`, which the app only asks to read"), q3.reason)
    }

    func testAWidgetThatNeverAsksIsYesCitingTheWidget() throws {
        let q5 = try XCTUnwrap(try answers(AnswerFixtures.widgetNeverAsks)[.widgetsDoNotRequest])
        XCTAssertEqual(q5.status, .yes, q5.reason)
        XCTAssertEqual(q5.evidence.map(\.location.file), ["apps/example/Widget/Info.plist"], q5.reason)
        XCTAssertTrue(q5.reason.contains("extension `widget`"), q5.reason)
    }

    func testAWatchKitExtensionMakesQuestion5ApplicableAndOnlyItsComplicationsMustNotAsk() throws {
        let quiet = try XCTUnwrap(try answers(AnswerFixtures.watchKitExtension(complicationAsks: false))[.widgetsDoNotRequest])
        XCTAssertEqual(quiet.status, .yes, "the screens' request is the watch app's: \(quiet.reason)")
        XCTAssertEqual(places(quiet), ["Info.plist:5", "ComplicationController.swift:4"], quiet.reason)
        XCTAssertTrue(quiet.reason.contains("`ComplicationController` make no request"), quiet.reason)

        let asking = try XCTUnwrap(try answers(AnswerFixtures.watchKitExtension(complicationAsks: true))[.widgetsDoNotRequest])
        XCTAssertEqual(asking.status, .no, asking.reason)
        XCTAssertEqual(places(asking), ["ComplicationController.swift:8"], asking.reason)
    }

    /// A plugin's availability call whose result is only shown: the check decides nothing, and the
    /// finding says the app calls it only to show it, not that it never calls it.
    func testAnAvailabilityCallOnlyShownIsNamedInTheFinding() throws {
        let example = RuleExample.reactNative(["js/src/main.ts": """
            import { Health } from '@capgo/capacitor-health';

            export async function showAvailability(output: HTMLElement) {
              const result = await Health.isAvailable();
              output.textContent = JSON.stringify(result);
            }

            export async function connect() {
              await Health.requestAuthorization({ read: ['steps'], write: [] });
            }
            """])
        let audit = Checklist().audit(try example.load())
        let finding = try XCTUnwrap(audit.findings.first { $0.ruleID == "availability-not-checked" })
        XCTAssertTrue(finding.message.contains("the app calls `isAvailable` only to show or log the result (main.ts:4)"), finding.message)
        XCTAssertFalse(finding.message.contains("never consulted anywhere"), finding.message)
        XCTAssertEqual(try XCTUnwrap(audit.answers.first { $0.question == .availabilityChecked }).status, .no)
    }

    /// The same with a library function imported bare (kingstinct's `isHealthDataAvailable()`),
    /// called only for a label, and a function of the app's own of that name, which is not it.
    func testABareImportedAvailabilityCallOnlyShownIsNamedInTheFinding() throws {
        let example = RuleExample.reactNative(["js/src/Health.ts": """
            import { isHealthDataAvailable, requestAuthorization } from '@kingstinct/react-native-healthkit';

            export const healthLabel = () => (isHealthDataAvailable() ? 'Health ✅' : 'Health ❌');

            export async function connect() {
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] });
            }
            """, "js/src/App.ts": """
            function isAvailable() { return true; }
            export const shown = isAvailable();
            """])
        let audit = Checklist().audit(try example.load())
        let finding = try XCTUnwrap(audit.findings.first { $0.ruleID == "availability-not-checked" })
        XCTAssertTrue(finding.message.contains("the app calls `isHealthDataAvailable` only to show or log the result (Health.ts:3)"), finding.message)
    }

    /// A watch app that never checks: Health is on every Apple Watch, so the finding is a note
    /// that says so (the checklist still asks each target to check), not a failure predicted.
    func testAWatchAppWithoutACheckGetsANoteSayingWhy() throws {
        let example = RuleExample.healthApp([
            "Watch/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.watchkit"] as KeyValuePairs<String, Any>]),
            "Watch/Sources/Workout.swift": """
            import HealthKit

            final class Workout {
                let store = HKHealthStore()
                func ask() {
                    store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: []) { _, _ in }
                }
            }
            """,
        ])
        let audit = Checklist().audit(try example.load())
        let findings = audit.findings.filter { $0.ruleID == "availability-not-checked" }
        XCTAssertEqual(findings.map { "\($0.location.file):\($0.location.line ?? 0)" }, ["apps/example/Watch/Sources/Workout.swift:6"])
        XCTAssertEqual(findings.first?.severity, .note)
        XCTAssertTrue(findings.first?.message.contains("Health is present on every Apple Watch") == true, findings.first?.message ?? "")
    }

    func testAvailabilityYesCitesTheCheckOfEachTargetAndNoCitesTheUnguardedOne() throws {
        let guarded = try XCTUnwrap(try answers(AnswerFixtures.widgetNeverAsks)[.availabilityChecked])
        XCTAssertEqual(guarded.status, .yes, guarded.reason)
        XCTAssertEqual(places(guarded), ["Access.swift:7", "Provider.swift:12"], guarded.reason)
        XCTAssertTrue(guarded.reason.contains("the app calls `isHealthDataAvailable()`"), guarded.reason)
        XCTAssertTrue(guarded.reason.contains("extension `widget` calls `isHealthDataAvailable()`"), guarded.reason)

        let unguarded = try XCTUnwrap(try answers(AnswerFixtures.widgetUnguarded)[.availabilityChecked])
        XCTAssertEqual(unguarded.status, .no, unguarded.reason)
        XCTAssertEqual(places(unguarded), ["Provider.swift:12"], "the widget's query, its first HealthKit call: \(unguarded.reason)")
    }

    func testAvailabilityIsYesOnlyWhenEveryPathChecks() throws {
        let partly = try XCTUnwrap(try answers(AnswerFixtures.availabilityOnOnePath)[.availabilityChecked])
        XCTAssertEqual(partly.status, .no, "a check before the request does not guard the later query: \(partly.reason)")
        XCTAssertEqual(places(partly), ["Steps.swift:13"], partly.reason)
        XCTAssertTrue(partly.reason.contains("in `refresh`"), partly.reason)

        let decoded = try XCTUnwrap(try answers(AnswerFixtures.propertyNamedLikeAHelper)[.availabilityChecked])
        XCTAssertEqual(decoded.status, .no, "a property set in the initializer is no check through the helper of the same name: \(decoded.reason)")
        XCTAssertEqual(places(decoded), ["Workout.swift:12"], decoded.reason)

        // Installed only where Health exists: still no (the checklist's letter), saying why no finding warns of a failure.
        let required = try XCTUnwrap(try answers(AnswerFixtures.installedOnlyWithHealth)[.availabilityChecked])
        XCTAssertEqual(required.status, .no, required.reason)
        XCTAssertTrue(required.reason.contains("requires the `healthkit` device capability"), required.reason)
        XCTAssertEqual(places(required), ["Sleep.swift:7", "Info.plist:11"], required.reason)

        let parameter = try XCTUnwrap(try answers(AnswerFixtures.parameterNamedLikeAHelper)[.availabilityChecked])
        XCTAssertEqual(parameter.status, .no, "a parameter used under a helper's name is no check: \(parameter.reason)")
        XCTAssertEqual(places(parameter), ["AppDelegate.swift:13"], parameter.reason)

        let channel = try XCTUnwrap(try answers(AnswerFixtures.channelAvailabilityInAnotherCase)[.availabilityChecked])
        XCTAssertEqual(channel.status, .no, "a check in another case of the channel's switch, and a parameter named like its function, guard nothing: \(channel.reason)")
        XCTAssertEqual(places(channel), ["AppDelegate.swift:24"], channel.reason)

        let flagged = try XCTUnwrap(try answers(AnswerFixtures.availabilityFlag)[.availabilityChecked])
        XCTAssertEqual(flagged.status, .yes, "a flag set from a helper that checks availability gates the save: \(flagged.reason)")

        let set = try XCTUnwrap(try answers(AnswerFixtures.availabilityInInitializer)[.availabilityChecked])
        XCTAssertEqual(set.status, .yes, "the initializer asks through the type's own property: \(set.reason)")

        let guarded = try XCTUnwrap(try answers(AnswerFixtures.availabilityGuardedBySetUpAndCaller)[.availabilityChecked])
        XCTAssertEqual(guarded.status, .yes, "the store is created only where Health exists, the reader runs only after a check: \(guarded.reason)")
        XCTAssertEqual(places(guarded), ["Health.swift:5", "Health.swift:20"], guarded.reason)
    }

    func testJavaScriptAvailabilityAndWritesAreReadFromTheSameModel() throws {
        let unchecked = try answers(AnswerFixtures.javaScriptUncheckedWrite)
        let q1 = try XCTUnwrap(unchecked[.availabilityChecked])
        XCTAssertEqual(q1.status, .no, "connect() checks, but logWeight(), an exported entry point, saves with no check before it: \(q1.reason)")
        XCTAssertEqual(places(q1), ["health.ts:11"], q1.reason)
        XCTAssertTrue(q1.reason.contains("in `logWeight`"), q1.reason)
        let no = try XCTUnwrap(unchecked[.writeStatusRechecked])
        XCTAssertEqual(no.status, .no, no.reason)
        XCTAssertEqual(places(no).first, "health.ts:11", no.reason)

        let checked = try answers(AnswerFixtures.javaScriptCheckedWrite)
        let yes = try XCTUnwrap(checked[.writeStatusRechecked])
        XCTAssertEqual(yes.status, .yes, yes.reason)
        XCTAssertEqual(places(yes), ["health.ts:10", "health.ts:12"], yes.reason)
        let q2 = try XCTUnwrap(checked[.completionInterpreted])
        XCTAssertEqual(q2.status, .yes, q2.reason)
        XCTAssertEqual(places(q2), ["health.ts:5"], "the request, whose result is not read: \(q2.reason)")
    }

    /// JavaScript paths: a check in the function, in a function of the app awaited first, or in
    /// every caller guards a call; a screen that reads with none of them does not.
    func testJavaScriptAvailabilityIsYesOnlyWhenEveryPathChecks() throws {
        // Every path guarded: in the function, in one awaited first (or two functions away), by a
        // state holding the answer, or by a helper returning one field of it.
        let guarded: [(String, RuleExample, [String]?)] = [
            ("every path", AnswerFixtures.javaScriptEveryPathChecks, ["health.ts:4"]),
            ("a destructured answer returned", AnswerFixtures.javaScriptDestructuredAvailability, ["healthkit.ts:4"]),
            ("the answer kept in a state", AnswerFixtures.javaScriptAvailabilityInState, nil),
            ("two functions away", AnswerFixtures.javaScriptCheckTwoFunctionsAway, ["health.ts:4"]),
        ]
        for (label, fixture, cited) in guarded {
            let yes = try XCTUnwrap(try answers(fixture)[.availabilityChecked])
            XCTAssertEqual(yes.status, .yes, "\(label): \(yes.reason)")
            if let cited { XCTAssertEqual(places(yes), cited, "\(label): \(yes.reason)") }
        }

        let oneScreen = try answers(AnswerFixtures.javaScriptOneScreenUnchecked)
        let no = try XCTUnwrap(oneScreen[.availabilityChecked])
        XCTAssertEqual(no.status, .no, no.reason)
        XCTAssertEqual(places(no), ["health.ts:14"], "the read in todaysSteps, reached from the Summary screen's refresh handler: \(no.reason)")
        XCTAssertTrue(no.reason.contains("reached from `refresh`"), no.reason)
    }

    func testDartWritesAndAvailabilityAreJudgedLikeSwifts() throws {
        let answers = try answers(AnswerFixtures.dartUncheckedWrite)
        let q6 = try XCTUnwrap(answers[.writeStatusRechecked])
        XCTAssertEqual(q6.status, .no, q6.reason)
        XCTAssertEqual(places(q6).first, "weight.dart:8", q6.reason)
        let q1 = try XCTUnwrap(answers[.availabilityChecked])
        XCTAssertEqual(q1.status, .no, q1.reason)
        XCTAssertEqual(places(q1), ["weight.dart:6"], "the first request, which nothing guards: \(q1.reason)")
    }
}
