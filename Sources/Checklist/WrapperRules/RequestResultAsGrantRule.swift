import Manifest

/// `@kingstinct/react-native-healthkit`'s and `package:health`'s `requestAuthorization` resolve
/// with `true` once the sheet was handled, whatever the person chose; code that decides on that
/// value takes "the request completed" for "access granted".
struct RequestResultAsGrantRule: Rule {
    /// An app's own Capacitor plugin (its Swift in the app) that hands HealthKit's request `success`
    /// to JavaScript as `granted`: the examples' native side.
    static let appPlugin = """
        import Capacitor
        import HealthKit

        @objc(HealthKitPlugin)
        public class HealthKitPlugin: CAPPlugin, CAPBridgedPlugin {
            public let identifier = "HealthKitPlugin"
            public let jsName = "HealthKit"
            public let pluginMethods: [CAPPluginMethod] = [CAPPluginMethod(name: "requestAuthorization", returnType: CAPPluginReturnPromise)]
            private let store = HKHealthStore()

            @objc func requestAuthorization(_ call: CAPPluginCall) {
                guard HKHealthStore.isHealthDataAvailable() else { return call.resolve(["granted": false]) }
                let sleep = HKObjectType.categoryType(forIdentifier: .sleepAnalysis)!
                store.requestAuthorization(toShare: nil, read: [sleep]) { success, error in
                    call.resolve(["granted": success])
                }
            }
        }
        """

    static let description = RuleDescription(
        id: "request-result-as-grant", title: "Authorization request's result taken as the person's answer", severity: .warning,
        questions: [.completionInterpreted], reads: [.javaScript, .dart],
        rationale: """
        The boolean that `requestAuthorization` resolves with — in `@kingstinct/react-native-healthkit` and in \
        Flutter's `package:health` alike — is HealthKit's `success`: the request was handled, not that anything was \
        allowed. It is `true` when the person declined every type, and HealthKit never tells an app whether it may \
        read. Code that branches on it ("permission denied" screens, skipping the data, a stored `granted` flag) \
        tells people who said no that they said yes, and people who said yes that they did not. Request, then query, \
        and treat an empty result as "no data or no access"; for write access ask `authorizationStatusFor` \
        (`hasPermissions` says nothing for reads on iOS).
        """,
        triggering: [
            // Two of the app's functions deep (the request, then `connect()` posting to a server): the screen
            // shows Health as connected once they returned.
            .reactNative(["js/src/composables/useAppleHealth.js": Self.appleHealthComposable, "js/src/components/connectDevices.js": """
            import { ref } from 'vue';
            import { useAppleHealth } from '../composables/useAppleHealth';

            const appleHealth = useAppleHealth();
            const appleHealthConnected = ref(false);
            export const connectAppleHealth = async () => {
              await appleHealth.connect();
              ↓appleHealthConnected.value = true;
            };
            """]),
            // An outcome object whose `success` is true once the request returned; the screen turns it into "granted".
            .reactNative(["js/src/healthClient.ts": """
            import { requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function requestHealthPermissions(): Promise<{ success: boolean; note: string }> {
              try {
                await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'], toShare: [] });
                return { success: true, note: 'Authorization requested.' };
              } catch (error) {
                return { success: false, note: String(error) };
              }
            }
            """, "js/src/permissions.ts": """
            import { requestHealthPermissions } from './healthClient';

            export async function connect(setStatus: (status: 'granted' | 'denied') => void) {
              const result = await ↓requestHealthPermissions();
              setStatus(result.success ? 'granted' : 'denied');
            }
            """]),
            // The app's wrapper hands its callers `authorized: true` once the request returned.
            .reactNative(["js/src/healthkit.ts": """
            import { Health } from '@capgo/capacitor-health';

            export async function requestAuthorization(read: string[]): Promise<{ authorized: boolean; message: string }> {
              await Health.requestAuthorization({ read, write: [] });
              return {
                ↓authorized: true,
                message: 'Authorization requested.',
              };
            }
            """]),
            // The plugin loaded on demand; `true` on the iPhone once the request returned, asked again on Android.
            .reactNative(["js/src/health.ts": """
            import { Capacitor } from '@capacitor/core';

            export async function connect(): Promise<boolean> {
              const { Health } = await import('@capgo/capacitor-health');
              const platform = Capacitor.getPlatform();
              await Health.requestAuthorization({ read: ['steps'], write: [] });
              const ↓granted = platform === 'ios' ? true : (await Health.checkAuthorization({ read: ['steps'] })).readAuthorized.length > 0;
              return granted;
            }
            """]),
            .reactNative(["js/src/connect.ts": """
            import { requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function connect(showDenied: () => void) {
              if (!(await ↓requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] }))) {
                showDenied();
              }
            }
            """]),
            .flutter(["lib/connect.dart": """
            import 'package:health/health.dart';

            final health = Health();

            Future<String> connect() async {
              final authorized = await health.↓requestAuthorization([HealthDataType.STEPS]);
              return authorized ? 'connected' : 'permission denied';
            }
            """]),
            .reactNative(["js/src/store.ts": """
            import HealthKit from '@kingstinct/react-native-healthkit';

            export async function connect(setGranted: (value: boolean) => void) {
              setGranted(await HealthKit.↓requestAuthorization({ toRead: ['HKQuantityTypeIdentifierHeartRate'] }));
            }
            """]),
            // react-native-health: the request's callback records a grant once it returns without an error.
            .reactNative(["js/lib/health.ts": """
            import AppleHealthKit from 'react-native-health';

            let healthKitAuthorized = false;

            export function connect(): Promise<boolean> {
              return new Promise((resolve) => {
                AppleHealthKit.initHealthKit({ permissions: { read: ['StepCount'], write: [] } }, (error) => {
                  if (error) {
                    resolve(false);
                    return;
                  }
                  ↓healthKitAuthorized = true;
                  resolve(true);
                });
              });
            }
            """]),
            // The same request behind the app's own Promise: its caller decides on the resolved value.
            .reactNative(["js/lib/health.ts": """
            import AppleHealthKit from 'react-native-health';

            export function connect(): Promise<boolean> {
              return new Promise((resolve) => {
                AppleHealthKit.initHealthKit({ permissions: { read: ['StepCount'], write: [] } }, (error) => {
                  resolve(!error);
                  if (!error) resolve(true);
                });
              });
            }
            """, "js/screens/Steps.ts": """
            import { connect } from '../lib/health';

            export async function open(showSteps: () => void, showDenied: () => void) {
              if (await ↓connect()) {
                showSteps();
              } else {
                showDenied();
              }
            }
            """]),
            // The app's own function returns `true` once the request completed; its caller decides on it.
            .reactNative(["js/lib/healthkit.ts": """
            import { requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function requestHealthPermissions(): Promise<boolean> {
              try {
                await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierBodyMass'] });
                return true;
              } catch (error) {
                return false;
              }
            }
            """, "js/hooks/useHealth.ts": """
            import { requestHealthPermissions } from '../lib/healthkit';

            export async function enable(setEnabled: (value: boolean) => void) {
              const granted = await ↓requestHealthPermissions();
              if (granted) {
                setEnabled(true);
              }
            }
            """]),
            // Dart: a service method returns the request's value; a settings switch decides on it.
            .flutter(["lib/health_service.dart": """
            import 'package:health/health.dart';

            class HealthService {
              final Health _health = Health();

              Future<bool> requestPermissions() async {
                try {
                  return await _health.requestAuthorization([HealthDataType.WEIGHT], permissions: [HealthDataAccess.READ_WRITE]);
                } catch (_) {
                  return false;
                }
              }
            }
            """, "lib/settings.dart": """
            import 'health_service.dart';

            Future<bool> setSyncEnabled(bool enabled) async {
              if (enabled) {
                final service = HealthService();
                final granted = await service.↓requestPermissions();
                if (!granted) {
                  return false;
                }
              }
              return true;
            }
            """]),
            // The callback request promisified: resolving true only says the request returned.
            .reactNative(["js/lib/connect.ts": """
            import AppleHealthKit from 'react-native-health';

            export async function connectHealth(save: (on: boolean) => Promise<void>): Promise<boolean> {
              const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.Steps], write: [] } };
              const granted = await ↓new Promise<boolean>((resolve, reject) => {
                AppleHealthKit.initHealthKit(permissions, (err) => {
                  if (err) {
                    reject(err);
                  } else {
                    resolve(true);
                  }
                });
              });
              if (granted) {
                await save(true);
              }
              return granted;
            }
            """]),
            // The app's own Capacitor plugin hands HealthKit's `success` to JavaScript as `granted`.
            .reactNative(["Sources/HealthKitPlugin.swift": Self.appPlugin, "js/src/health.ts": """
            import { registerPlugin } from '@capacitor/core';

            const HealthKit = registerPlugin<{ requestAuthorization(): Promise<{ granted: boolean }> }>('HealthKit');

            export async function connectHealth(): Promise<boolean> {
              return (await HealthKit.requestAuthorization()).granted;
            }
            """, "js/src/Readiness.tsx": """
            import { connectHealth } from './health';

            export async function syncSleep(showError: () => void) {
              const granted = await ↓connectHealth();
              if (!granted) { showError(); return; }
            }
            """]),
            .reactNative(["Sources/HealthKitPlugin.swift": Self.appPlugin, "js/src/sync.ts": """
            import { registerPlugin } from '@capacitor/core';

            const HealthKit = registerPlugin('HealthKit');

            export async function connect(): Promise<string> {
              const { granted } = await HealthKit.↓requestAuthorization();
              if (!granted) return 'revoked';
              return 'connected';
            }
            """]),
            // The request returning is recorded as a grant, one app function away.
            .reactNative(["js/lib/healthkit.ts": """
            import { requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function initializeHealthKit(): Promise<void> {
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierDietaryEnergyConsumed'] });
            }
            """, "js/hooks/useNutrition.ts": """
            import { useState } from 'react';
            import { initializeHealthKit } from '../lib/healthkit';

            export function useNutrition() {
              const [isHealthKitAuthorized, setIsHealthKitAuthorized] = useState(false);
              const connect = async () => {
                await initializeHealthKit();
                ↓setIsHealthKitAuthorized(true);
              };
              return { isHealthKitAuthorized, connect };
            }
            """, "js/screens/Nutrition.tsx": """
            import React from 'react';
            import { Button, Text } from 'react-native';
            import { useNutrition } from '../hooks/useNutrition';

            export default function Nutrition() {
              const { isHealthKitAuthorized, connect: connectHealth } = useNutrition();
              return isHealthKitAuthorized ? <Text>Connected</Text> : <Button title="Connect" onPress={connectHealth} />;
            }
            """]),
            .flutter(["lib/health.dart": """
            import 'package:health/health.dart';

            class HealthGate {
              final Health _health = Health();
              bool authorized = false;

              Future<void> connect() async {
                await _health.requestAuthorization([HealthDataType.STEPS]);
                ↓authorized = true;
              }
            }
            """]),
        ],
        nonTriggering: [
            // Beyond the app's first function only calls on a receiver named for Health are followed:
            // the calendar's `connect()` is another service's, whatever the Health code calls its own.
            .reactNative(["js/src/composables/useAppleHealth.js": Self.appleHealthComposable, "js/src/components/calendar.js": """
            import { ref } from 'vue';
            import { useGoogleCalendar } from '../composables/useGoogleCalendar';

            const calendar = useGoogleCalendar();
            const calendarConnected = ref(false);
            export const connectCalendar = async () => {
              await calendar.connect();
              calendarConnected.value = true;
            };
            """]),
            // Health Connect's side of the app: on Android the request's answer is the grant, and an iPhone never runs it.
            .flutter(["lib/steps.dart": """
            import 'dart:io';
            import 'package:health/health.dart';

            final health = Health();

            Future<bool> connect() async {
              if (Platform.isAndroid) {
                final granted = await health.requestAuthorization([HealthDataType.STEPS]);
                return granted;
              } else {
                await health.requestAuthorization([HealthDataType.STEPS]);
                final steps = await health.getTotalStepsInInterval(DateTime.now().subtract(const Duration(days: 1)), DateTime.now());
                return steps != null;
              }
            }
            """]),
            .flutter(["lib/connect.dart": """
            import 'dart:io';
            import 'package:health/health.dart';

            final health = Health();

            Future<bool> connectHealthConnect() async {
              if (!Platform.isAndroid) return false;
              final granted = await health.requestAuthorization([HealthDataType.STEPS]);
              return granted;
            }
            """]),
            // Recording that the request was made is what its returning means.
            .reactNative(["js/lib/healthkit.ts": """
            import { requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function askForHealth(markRequested: (value: boolean) => void): Promise<void> {
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierBodyMass'] });
              markRequested(true);
            }
            """]),
            // Another package's `requestPermission` (location) beside the app's own Health wrapper of that name.
            .flutter(["lib/health_service.dart": """
            import 'package:health/health.dart';

            class HealthService {
              final Health _health = Health();

              Future<bool> requestPermission() async {
                return await _health.requestAuthorization([HealthDataType.STEPS]);
              }
            }
            """, "lib/location_service.dart": """
            import 'package:geolocator/geolocator.dart';

            class LocationService {
              Future<bool> start() async {
                final permission = await Geolocator.requestPermission();
                if (permission == LocationPermission.denied) return false;
                return true;
              }
            }
            """]),
            // The plugin's answer is only logged.
            .reactNative(["Sources/HealthKitPlugin.swift": Self.appPlugin, "js/src/sync.ts": """
            import { registerPlugin } from '@capacitor/core';

            const HealthKit = registerPlugin('HealthKit');

            export async function connect(): Promise<void> {
              const { granted } = await HealthKit.requestAuthorization();
              console.log('health request handled', granted);
            }
            """]),
            // The app's own function hands the outcome back, and its caller only logs it.
            .reactNative(["js/lib/healthkit.ts": """
            import { requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function requestHealthPermissions(): Promise<boolean> {
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierBodyMass'] });
              return true;
            }
            """, "js/screens/Onboarding.ts": """
            import { requestHealthPermissions } from '../lib/healthkit';

            export async function next(go: () => void) {
              const done = await requestHealthPermissions();
              console.log('health request finished', done);
              go();
            }
            """]),
            .reactNative(["js/src/connect.ts": """
            import { requestAuthorization, queryQuantitySamples } from '@kingstinct/react-native-healthkit';

            export async function stepsToday() {
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] });
              return queryQuantitySamples('HKQuantityTypeIdentifierStepCount', { limit: 10 });
            }
            """]),
            // The result only remembers that the request was made, so the app does not ask again.
            .flutter(["lib/health_service.dart": """
            import 'package:health/health.dart';

            class HealthService {
              final Health _health = Health();

              Future<bool> requestPermissions() async {
                try {
                  return await _health.requestAuthorization([HealthDataType.STEPS], permissions: [HealthDataAccess.READ]);
                } catch (_) {
                  return false;
                }
              }
            }
            """, "lib/onboarding.dart": """
            import 'package:shared_preferences/shared_preferences.dart';
            import 'health_service.dart';

            Future<void> _setPermissionsRequested() async {
              final prefs = await SharedPreferences.getInstance();
              await prefs.setBool('health_permissions_requested', true);
            }

            Future<void> requestIfNeeded() async {
              final service = HealthService();
              final granted = await service.requestPermissions();
              if (granted) {
                await _setPermissionsRequested();
              }
            }
            """]),
            // Shown or logged only, as the library's example app does: no decision is made.
            .flutter(["lib/connect.dart": """
            import 'package:health/health.dart';

            final health = Health();

            Future<void> connect() async {
              final response = await health.requestAuthorization([HealthDataType.STEPS]);
              print('response: $response');
            }
            """]),
        ]
    )

    /// The app's composable of two functions around the request (its examples share it).
    static let appleHealthComposable = """
            import { CapacitorHealthkit } from '@perfood/capacitor-healthkit';

            export function useAppleHealth() {
              async function requestAuthorization() {
                await CapacitorHealthkit.requestAuthorization({ all: [], read: ['workouts'], write: [] });
              }
              async function connect() {
                await requestAuthorization();
                await fetch('/integrations/apple-health/connect', { method: 'POST' });
              }
              return { connect };
            }
            """

    func check(_ context: AuditContext) -> [Finding] {
        context.libraryCalls.flatMap { call, file -> [Finding] in
            if call.kind == .authorizationRequest, !call.library.promises, let (promise, name, how) = Self.promisedGrant(call, in: file) {
                // `const granted = await new Promise(r => initHealthKit(p, err => err ? … : r(true)))`.
                return [finding("the Promise around `\(call.method)` resolves true once its callback returns without an error, and `\(name)` \(how), but "
                                    + "the call only says the request was handled: it succeeds whatever the person chose, and HealthKit never discloses "
                                    + "read access; query and treat empty results as no data or no access", at: promise, in: file, target: context.manifest.id)]
            }
            if call.kind == .authorizationRequest, !call.library.promises, let (token, name) = Self.grantInCallback(call, in: file) {
                // A callback library (react-native-health's `initHealthKit`): its success path records a grant.
                return [finding("the callback of `\(call.method)` sets `\(name) = true`, but the call only says the request was handled: it "
                                    + "succeeds whatever the person chose, and HealthKit never discloses read access; query and treat empty "
                                    + "results as no data or no access", at: token, in: file, target: context.manifest.id)]
            }
            if call.kind == .authorizationRequest, let recorded = grantRecordedAfterCompletion(call, in: file, context: context) {
                return [recorded]
            }
            let plugin = call.library.requestResults[call.method]
            guard call.library == .kingstinct || call.library == .flutterHealth || (call.kind == .authorizationRequest && !call.library.promises) || plugin != nil
            else { return [] }
            // The plugin names its result (`granted`): only what the code does with it decides, not its name.
            if let plugin, let how = Self.decision(call, in: file, trustingNames: false) {
                return [finding("`\(plugin.key)` from the app plugin's `\(call.method)` is HealthKit's request `success` (\(plugin.evidence)), and it \(how), but "
                                    + "it only says the request was handled: it is true whatever the person chose, and HealthKit never discloses read access; "
                                    + "query and treat empty results as no data or no access", at: call.token, in: file, target: context.manifest.id)]
            }
            if plugin == nil, call.method == "requestAuthorization", call.library.promises, let how = Self.decision(call, in: file) {
                return [finding("the result of `requestAuthorization` \(how), but it only says the request was handled: it is true whatever "
                                    + "the person chose, and HealthKit never discloses read access; query and treat empty results as no data or no access",
                                at: call.token, in: file, target: context.manifest.id)]
            }
            // The app's own function hands the outcome back: its callers decide on it.
            guard call.kind == .authorizationRequest, call.method == "requestAuthorization" || !call.library.promises || plugin != nil,
                  let wrapper = AppWrapper.around(call, in: file) else { return [] }
            let (files, calls) = call.library == .flutterHealth ? (context.manifest.dartSources, context.dartCalls)
                : (context.manifest.javaScriptSources, context.javaScriptCalls)
            let place = "\(file.path.split(separator: "/").last.map(String.init) ?? file.path):\(file.tokens[call.token].line)"
            return wrapper.callers(in: files, like: call, libraryCalls: calls).compactMap { caller, callerFile in
                guard let how = Self.decision(caller, in: callerFile) else { return nil }
                let origin = plugin.map { "; the plugin's `\($0.key)` is HealthKit's request `success`, \($0.evidence)" } ?? ""
                return finding("`\(wrapper.name)()` returns the outcome of `\(call.method)` (\(place)\(origin)), and its result \(how), but the request "
                                   + "only says it was handled: true whatever the person chose, and HealthKit never discloses read access; query and "
                                   + "treat empty results as no data or no access", at: caller.token, in: callerFile, target: context.manifest.id)
            }
        }
    }

    /// A callback request wrapped in a Promise that resolves `true` from its callback, awaited into a
    /// name that is then kept as a grant or decides a condition: `(new-token, name, how)`.
    static func promisedGrant(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> (Int, String, String)? {
        let tokens = file.tokens
        guard let close = file.partner[call.paren] else { return nil }
        // The executor `(resolve, reject) => …` of the nearest `new Promise(` around the call.
        var open = file.parent[call.token]
        while let o = open, JavaScriptBindings.promiseNew(opening: o, in: file) == nil { open = file.parent[o] }
        guard let executor = open, executor + 1 < tokens.count, let newToken = JavaScriptBindings.promiseNew(opening: executor, in: file) else { return nil }
        let resolver = tokens[executor + 1].isPunctuator("(") ? executor + 2 : executor + 1
        guard resolver < tokens.count, tokens[resolver].kind == .identifier else { return nil }
        let resolve = tokens[resolver].text
        // `resolve(true)` inside the request's own callback.
        guard ((call.paren + 1)..<close).contains(where: { i in
            i + 3 < tokens.count && tokens[i].isIdentifier(resolve) && tokens[i + 1].isPunctuator("(") && tokens[i + 2].isIdentifier("true") && tokens[i + 3].isPunctuator(")")
        }) else { return nil }
        // `const name = await new Promise…`.
        let before = file.index(beforeAwaited: newToken)
        guard before >= 1, tokens[before].isPunctuator("="), tokens[before - 1].kind == .identifier else { return nil }
        let name = tokens[before - 1].text
        let scope = enclosingBody(of: newToken, in: file)
        guard let end = file.partner[executor] else { return nil }
        let later = (end + 1)..<max(end + 1, scope.upperBound)
        if onlyRemembersAsking(name, in: later, of: file) { return nil }
        if GrantNames.says(name) { return (newToken, name, "keeps it as a grant") }
        if later.contains(where: { tokens[$0].isIdentifier(name) && !(tokens[$0 - 1].isPunctuator(".") || tokens[$0 - 1].isPunctuator("?."))
            && decides(start: $0, end: $0, in: file) }) {
            return (newToken, name, "then decides a condition")
        }
        return nil
    }


    /// `await request(…); setAuthorized(true)`: a grant recorded because the request returned — in the
    /// same block, or after an awaited call of the app's own function that awaits the request and
    /// hands nothing back (`await initializeHealthKit(); setIsHealthKitAuthorized(true)`).
    func grantRecordedAfterCompletion(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile, context: AuditContext) -> Finding? {
        guard let close = file.partner[call.paren], Self.isAwaitedStatement(call.token, close: close, in: file) else { return nil }
        if let (token, name) = Self.grantSet(after: close, in: file) {
            return finding("`\(name)` is set to true once `\(call.method)` returns, but returning only says the request was handled: it "
                           + "succeeds whatever the person chose, and HealthKit never discloses read access; query and treat empty results "
                           + "as no data or no access", at: token, in: file, target: context.manifest.id)
        }
        // The app's function that only awaits the request: what its callers record once it returns.
        guard AppWrapper.around(call, in: file) == nil, let function = JavaScriptBindings.enclosingFunction(of: call.token, in: file) else { return nil }
        let isDart = file.path.hasSuffix(".dart")
        let (files, calls) = isDart ? (context.manifest.dartSources, context.dartCalls) : (context.manifest.javaScriptSources, context.javaScriptCalls)
        let place = "\(file.path.split(separator: "/").last.map(String.init) ?? file.path):\(file.tokens[call.token].line)"
        // Followed through up to three of the app's functions, each awaiting the one before as a statement
        // (`requestAuthorization()` inside `connect()`, awaited by a screen): beyond the first, only calls on
        // a receiver named for Health (`appleHealth.connect()`), as names such as `connect` are common.
        // Each function carries the app's functions it awaits down to the request, outermost first, for the message.
        var level: [(function: (name: String, body: Int), file: JavaScriptFile, awaits: [String])] = [(function, file, [])]
        var visited: Set<String> = []
        for depth in 0..<3 where !level.isEmpty {
            var next: [(function: (name: String, body: Int), file: JavaScriptFile, awaits: [String])] = []
            for (wrapped, wrappedFile, awaits) in level where visited.insert(wrappedFile.path + ":\(wrapped.body)").inserted {
                let path = [wrapped.name] + awaits
                let wrapper = AppWrapper(name: wrapped.name, body: wrapped.body, owner: AppWrapper.owningClass(of: wrapped.body, in: wrappedFile))
                for (caller, callerFile) in wrapper.callers(in: files, like: call, libraryCalls: calls) {
                    guard let end = callerFile.partner[caller.paren], Self.isAwaitedStatement(caller.token, close: end, in: callerFile),
                          depth == 0 || Self.isHealthReceiver(caller.token, in: callerFile) else { continue }
                    if let (token, name) = Self.grantSet(after: end, in: callerFile) {
                        let inner = path.dropFirst().map { "`\($0)()`, which awaits " }.joined()
                        return finding("`\(name)` is set to true once `\(path[0])()` returns, which awaits \(inner)`\(call.method)` (\(place)); but the request "
                                       + "returning only says it was handled: it succeeds whatever the person chose, and HealthKit never discloses read "
                                       + "access; query and treat empty results as no data or no access", at: token, in: callerFile, target: context.manifest.id)
                    }
                    if let outer = JavaScriptBindings.enclosingFunction(of: caller.token, in: callerFile), outer.body != wrapped.body {
                        next.append((outer, callerFile, path))
                    }
                }
            }
            level = next
        }
        return nil
    }

    /// `appleHealth.connect()`, `HealthService.connect()`: the call's receiver is named for Health.
    static func isHealthReceiver(_ token: Int, in file: JavaScriptFile) -> Bool {
        let names = file.chain(endingAt: token).names.dropLast()
        return names.contains { $0.lowercased().contains("health") }
    }

    /// `await x.request(…);` as a statement of its own: its value is not bound, tested or returned.
    static func isAwaitedStatement(_ token: Int, close: Int, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        let start = file.chain(endingAt: token).start
        guard start >= 1, tokens[start - 1].isIdentifier("await") else { return false }
        let before = start - 2
        let opensStatement = before < 0 || tokens[before].isPunctuator(";") || tokens[before].isPunctuator("{") || tokens[before].isPunctuator("}")
            || tokens[before].line < tokens[start - 1].line && !tokens[before].isPunctuator("=") && !tokens[before].isPunctuator("(")
                && !tokens[before].isIdentifier("return") && !tokens[before].isPunctuator(",")
        let endsStatement = close + 1 >= tokens.count || tokens[close + 1].isPunctuator(";") || tokens[close + 1].isPunctuator("}")
            || tokens[close + 1].line > tokens[close].line && !tokens[close + 1].isPunctuator(".") && !tokens[close + 1].isPunctuator("?.")
        return opensStatement && endsStatement
    }

    /// `setGranted(true)` or `granted = true` (a grant-named setter or flag) in the next two statements
    /// of the same block after `close`.
    static func grantSet(after close: Int, in file: JavaScriptFile) -> (token: Int, name: String)? {
        let tokens = file.tokens
        let block = file.parent[close]
        var statements = 0
        var k = close + 1
        while k + 2 < tokens.count, statements < 3 {
            let token = tokens[k]
            if let open = block, let end = file.partner[open], k >= end { return nil }
            if file.parent[k] != block { k += 1; continue }
            if token.isPunctuator(";") { statements += 1; k += 1; continue }
            // `return { authorized: true, … }`: the caller is handed a grant.
            if token.isIdentifier("return"), k + 1 < tokens.count, tokens[k + 1].isPunctuator("{") {
                for item in file.items(of: k + 1) where item.count == 3 && tokens[item.lowerBound].kind == .identifier
                    && GrantNames.says(tokens[item.lowerBound].text) && tokens[item.lowerBound + 1].isPunctuator(":") && tokens[item.lowerBound + 2].isIdentifier("true") {
                    return (item.lowerBound, tokens[item.lowerBound].text)
                }
                return nil
            }
            if token.isIdentifier("return") || token.isIdentifier("if") || token.isIdentifier("throw") { return nil }
            // Right after the request returned, a "connected" flag is a grant too (the checklist: "shown as connected").
            if token.kind == .identifier, GrantNames.says(token.text) || GrantNames.saysConnected(token.text),
               !(k >= 1 && tokens[k - 1].isPunctuator(".") && !(k >= 2 && tokens[k - 2].isIdentifier("this"))) {
                if tokens[k + 1].isPunctuator("("), tokens[k + 2].isIdentifier("true"), k + 3 < tokens.count, tokens[k + 3].isPunctuator(")") { return (k, token.text) }
                if tokens[k + 1].isPunctuator("="), tokens[k + 2].isIdentifier("true") || isTrueOnIOS(from: k + 2, in: file) { return (k, token.text) }
                // A Vue ref: `connected.value = true`.
                if k + 4 < tokens.count, tokens[k + 1].isPunctuator("."), tokens[k + 2].isIdentifier("value"), tokens[k + 3].isPunctuator("="),
                   tokens[k + 4].isIdentifier("true") { return (k, token.text) }
            }
            if token.line > tokens[k - 1].line, !tokens[k - 1].isPunctuator(";") { statements += 1 }
            if let partner = file.partner[k], partner > k { k = partner + 1 } else { k += 1 }
        }
        return nil
    }

    /// `platform === 'ios' ? true : await askAndroid()` from `start`: `true` on the iPhone, whatever was chosen.
    static func isTrueOnIOS(from start: Int, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        var k = start
        while k < tokens.count, file.parent[k] == file.parent[start], !tokens[k].isPunctuator("?") {
            if tokens[k].isPunctuator(";") || tokens[k].isPunctuator(",") || (k > start && tokens[k].line > tokens[k - 1].line) { return false }
            if let partner = file.partner[k], partner > k { k = partner }
            k += 1
        }
        guard k + 1 < tokens.count, tokens[k].isPunctuator("?"), let test = PlatformBranches.test(start..<k, in: file) else { return false }
        if test == .holdsOnIOS { return tokens[k + 1].isIdentifier("true") }
        // `platform === 'android' ? await ask() : true`: the value after the `:` of this level.
        var c = k + 1
        while c < tokens.count, !(tokens[c].isPunctuator(":") && file.parent[c] == file.parent[k]) {
            if tokens[c].isPunctuator(";") { return false }
            if let partner = file.partner[c], partner > c { c = partner }
            c += 1
        }
        return c + 1 < tokens.count && tokens[c + 1].isIdentifier("true")
    }

    /// `name = true` for a grant-named `name` in a function handed to the call (its completion).
    static func grantInCallback(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> (token: Int, name: String)? {
        guard let close = file.partner[call.paren] else { return nil }
        let tokens = file.tokens
        for index in (call.paren + 1)..<close where tokens[index].isPunctuator("=") && index + 1 < close && tokens[index + 1].isIdentifier("true") {
            guard index >= 1, tokens[index - 1].kind == .identifier, GrantNames.says(tokens[index - 1].text),
                  !(index >= 2 && tokens[index - 2].isPunctuator(".") && !(index >= 3 && tokens[index - 3].isIdentifier("this"))) else { continue }
            return (index - 1, tokens[index - 1].text)
        }
        return nil
    }

    /// How the resolved value decides something: a condition (`if`, `!`, `? :`, `&&`, `==`)
    /// around the call or the name it is bound to, or a grant-named variable or setter it is stored in.
    static func decision(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile, trustingNames: Bool = true) -> String? {
        guard let close = file.partner[call.paren] else { return nil }
        let start = file.chain(endingAt: call.token).start
        if decides(start: start, end: close, in: file) { return "decides a condition" }
        if let name = call.resultName(in: file) {
            // Uses of the name in the same function (not a property of that name: `res.ok`).
            let scope = Self.enclosingBody(of: call.token, in: file)
            let later = (close + 1)..<max(close + 1, scope.upperBound)
            if onlyRemembersAsking(name, in: later, of: file) { return nil }
            if trustingNames, GrantNames.says(name) { return "is kept as `\(name)`" }
            if later.contains(where: { file.tokens[$0].isIdentifier(name) && !(file.tokens[$0 - 1].isPunctuator(".") || file.tokens[$0 - 1].isPunctuator("?."))
                && decides(start: $0, end: $0, in: file) }) {
                return "is bound to `\(name)`, which then decides a condition"
            }
            // `result.success ? 'granted' : 'denied'`: a key of the outcome object decides.
            if let use = later.first(where: { i in
                i + 2 < file.tokens.count && file.tokens[i].isIdentifier(name) && !(file.tokens[i - 1].isPunctuator(".") || file.tokens[i - 1].isPunctuator("?."))
                    && (file.tokens[i + 1].isPunctuator(".") || file.tokens[i + 1].isPunctuator("?.")) && file.tokens[i + 2].kind == .identifier
                    && (i + 3 >= file.tokens.count || !file.tokens[i + 3].isPunctuator("(")) && decides(start: i, end: i + 2, in: file)
            }) {
                return "is bound to `\(name)`, whose `\(file.tokens[use + 2].text)` then decides a condition"
            }
        }
        // `setGranted(await requestAuthorization(…))`: stored where its name says it is a grant.
        let before = file.index(beforeAwaited: start)
        if before >= 1, file.tokens[before].isPunctuator("("), file.tokens[before - 1].kind == .identifier,
           GrantNames.says(file.tokens[before - 1].text) {
            return "is stored with `\(file.tokens[before - 1].text)`"
        }
        return nil
    }

    /// `if (granted) { await markPermissionsRequested(); }` and nothing else: the result only
    /// remembers that the request was made — which is what a true result means.
    static func onlyRemembersAsking(_ name: String, in range: Range<Int>, of file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        let uses = range.filter { tokens[$0].isIdentifier(name) && !(tokens[$0 - 1].isPunctuator(".") || tokens[$0 - 1].isPunctuator("?.")) }
        guard !uses.isEmpty else { return false }
        return uses.allSatisfy { use in
            // `if (name) {` with `name` the whole condition.
            guard use >= 2, tokens[use - 1].isPunctuator("("), tokens[use - 2].isIdentifier("if"), use + 2 < tokens.count,
                  tokens[use + 1].isPunctuator(")"), tokens[use + 2].isPunctuator("{"), let end = file.partner[use + 2] else { return false }
            let body = (use + 3)..<end
            // Every call and assignment in the block records the asking (`_setPermissionsRequested()`, `asked = true`).
            let acts = body.filter { i in
                tokens[i].kind == .identifier && i + 1 < end && (tokens[i + 1].isPunctuator("(") || tokens[i + 1].isPunctuator("="))
                    && !["await", "if", "this"].contains(tokens[i].text)
            }
            return !acts.isEmpty && acts.allSatisfy { i in
                let word = tokens[i].text.lowercased()
                return GrantNames.requestWords.contains(where: word.contains) || ["setbool", "setitem", "setstring", "set"].contains(word)
                    && body.contains { tokens[$0].kind == .string && GrantNames.requestWords.contains(where: tokens[$0].value.lowercased().contains) }
            }
        }
    }

    /// The tokens of the innermost `{ … }` body around `index` (the whole file at top level).
    static func enclosingBody(of index: Int, in file: JavaScriptFile) -> Range<Int> {
        var open = file.parent[index]
        while let o = open, !file.tokens[o].isPunctuator("{") { open = file.parent[o] }
        guard let o = open, let close = file.partner[o] else { return file.tokens.indices }
        return o..<close
    }

    /// Whether the expression `start...end` is a condition's operand; a `return` is not (the value
    /// is passed on, and its caller decides), nor the right operand of `&&` / `||`
    /// (`available && await request()` decides nothing by itself).
    private static func decides(start: Int, end: Int, in file: JavaScriptFile) -> Bool {
        file.isOperand(start: start, end: end, unwrappingParentheses: true,
                       after: { token in ["!", "==", "===", "!=", "!=="].contains(where: token.isPunctuator) },
                       before: { token in ["&&", "||", "==", "===", "!=", "!==", "?"].contains(where: token.isPunctuator) })
    }
}
