import Manifest

/// A plugin's status call asked about reading: `@capgo/capacitor-health`'s `checkAuthorization`
/// and `cordova-plugin-health`'s `isAuthorized` with `read` types, or kingstinct's
/// `authorizationStatusFor` on a type the app only reads, react-native-health's `getAuthStatus` with
/// read types, or kingstinct's `getRequestStatusForAuthorization`
/// kept as a grant. HealthKit never tells an app whether it may read, so the answer is a guess
/// (Capacitor: "authorized" once asked; Cordova: never; kingstinct: "asked already").
struct PluginReadStatusRule: Rule {
    static let description = RuleDescription(
        id: "plugin-read-status", title: "Read permission asked of a plugin that cannot know it", severity: .warning,
        questions: [.readStatusProbed], reads: [.javaScript],
        rationale: """
        HealthKit never discloses whether an app may read a type. `@capgo/capacitor-health`'s `checkAuthorization` \
        nevertheless returns `readAuthorized` / `readDenied` lists for the `read` types it is given: it derives them \
        from `getRequestStatusForAuthorization`, which only says whether the permission sheet was already shown. Once \
        it was, every read type is listed as authorized, whatever the person chose. `cordova-plugin-health`'s \
        `isAuthorized` answers from `authorizationStatus(for:)`, which only knows sharing: read types are always "not \
        authorized", so an app that waits for `true` asks forever; `react-native-health`'s `getAuthStatus` does the same \
        for the `read` list of its permissions. `@kingstinct/react-native-healthkit`'s \
        `authorizationStatusFor` is that same sharing status: for a type the app only reads it is never \
        `sharingAuthorized`, and its `getRequestStatusForAuthorization` (the status `useHealthkitAuthorization` \
        returns) is `unnecessary` once the sheet was shown: right for "load the data now", wrong when kept as \
        `isAuthorized`. Asking any of them about reading is an attempt to learn read permission; query the data \
        and treat an empty result as "no data or no access".
        """,
        triggering: [
            // Asked about the one permission it only reads, by its constant.
            .reactNative(["js/src/useSteps.ts": """
            import { useEffect, useState } from 'react';
            import AppleHealthKit from 'react-native-health';

            const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.StepCount], write: [] } };

            export function useStepAccess() {
              const [isAuthorized, setIsAuthorized] = useState(false);
              useEffect(() => {
                AppleHealthKit.initHealthKit(permissions, () => {
                  AppleHealthKit.↓getAuthStatus(AppleHealthKit.Constants.Permissions.StepCount, (error: string, status: number) => {
                    setIsAuthorized(!error && status === AppleHealthKit.Constants.AuthorizationStatus.Authorized);
                  });
                });
              }, []);
              return isAuthorized;
            }
            """]),
            // The app's own status function answers with the sharing status; a screen skips the read on it.
            .reactNative(["js/lib/healthkit.ts": """
            import { authorizationStatusFor, queryQuantitySamples, AuthorizationStatus } from '@kingstinct/react-native-healthkit';

            export async function getAuthorizationStatus(): Promise<string> {
              const status = authorizationStatusFor('HKQuantityTypeIdentifierActiveEnergyBurned');
              if (status === AuthorizationStatus.sharingDenied) return 'sharingDenied';
              return status === AuthorizationStatus.sharingAuthorized ? 'sharingAuthorized' : 'notDetermined';
            }

            export async function latestWeight(): Promise<number | null> {
              const samples = await queryQuantitySamples('HKQuantityTypeIdentifierBodyMass', { limit: 1, unit: 'kg' });
              return samples[0]?.quantity ?? null;
            }
            """, "js/screens/Profile.ts": """
            import { getAuthorizationStatus, latestWeight } from '../lib/healthkit';

            export async function prefill(openSettings: () => void, show: (kg: number | null) => void) {
              const status = await ↓getAuthorizationStatus();
              if (status === 'sharingDenied') {
                openSettings();
                return;
              }
              show(await latestWeight());
            }
            """]),
            .reactNative(["js/src/access.ts": """
            import { Health } from '@capgo/capacitor-health';

            export async function canShowSteps(): Promise<boolean> {
              const status = await Health.↓checkAuthorization({ read: ['steps'], write: [] });
              return status.readAuthorized.includes('steps');
            }
            """]),
            // react-native-health's permissions object, as its example app passes it to both calls.
            .reactNative(["js/src/App.tsx": """
            import AppleHealthKit from 'react-native-health';

            const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.HeartRate], write: [] } };

            export function showStatus(setAuthStatus) {
              AppleHealthKit.↓getAuthStatus(permissions, (err, result) => { setAuthStatus(result); });
            }
            """]),
            // The options in a variable, as the plugin's own example app writes it.
            .reactNative(["js/src/example.js": """
            import { Health } from '@capgo/capacitor-health';

            async function check(types) {
              const options = { read: types, write: [] };
              const result = await Health.↓checkAuthorization(options);
              document.getElementById('output').textContent = JSON.stringify(result);
            }

            document.getElementById('check').addEventListener('click', () => check(['steps']));
            """]),
            .reactNative(["js/www/health.js": """
            export function ensureAccess(onReady, onDenied) {
              navigator.health.↓isAuthorized({ read: ['steps'] }, function (authorized) {
                if (authorized) { onReady(); } else { onDenied(); }
              }, onDenied);
            }
            """]),
            .reactNative(["js/src/steps.ts": """
            import { requestAuthorization, authorizationStatusFor, AuthorizationStatus } from '@kingstinct/react-native-healthkit';

            export async function canShowSteps(): Promise<boolean> {
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] });
              return ↓authorizationStatusFor('HKQuantityTypeIdentifierStepCount') === AuthorizationStatus.sharingAuthorized;
            }
            """]),
            // The hook's status, recorded as a grant.
            .reactNative(["js/src/HealthScreen.tsx": """
            import { useEffect, useState } from 'react';
            import { useHealthkitAuthorization, AuthorizationRequestStatus } from '@kingstinct/react-native-healthkit';

            export function useHealthAccess() {
              const [status, request] = useHealthkitAuthorization(['HKQuantityTypeIdentifierStepCount']);
              const [isAuthorized, setIsAuthorized] = useState(false);
              useEffect(() => {
                ↓setIsAuthorized(status === AuthorizationRequestStatus.unnecessary);
              }, [status]);
              return { isAuthorized, request };
            }
            """]),
            .reactNative(["js/src/health.ts": """
            import { getRequestStatusForAuthorization, AuthorizationRequestStatus } from '@kingstinct/react-native-healthkit';

            export async function hasHealthPermission(): Promise<boolean> {
              const status = await getRequestStatusForAuthorization({ toRead: ['HKQuantityTypeIdentifierHeartRate'] });
              ↓return status === AuthorizationRequestStatus.unnecessary;
            }
            """]),
            .reactNative(["js/src/health.js": """
            import HealthKit, { AuthorizationRequestStatus } from '@kingstinct/react-native-healthkit';

            let granted = false;

            export async function refresh() {
              const status = await HealthKit.getRequestStatusForAuthorization({ toRead: ['HKQuantityTypeIdentifierHeartRate'] });
              if (status === AuthorizationRequestStatus.unnecessary) {
                ↓granted = true;
              }
            }
            """]),
            // Returned true from a function named as a grant, past an `if` block; a typed constant.
            .reactNative(["js/src/access.ts": """
            import { getRequestStatusForAuthorization, AuthorizationRequestStatus } from '@kingstinct/react-native-healthkit';

            export async function hasHealthAccess(): Promise<boolean> {
              const status = await getRequestStatusForAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] });
              if (status === AuthorizationRequestStatus.unnecessary) {
                ↓return true;
              }
              return false;
            }
            """]),
            .reactNative(["js/src/typed.ts": """
            import { getRequestStatusForAuthorization, AuthorizationRequestStatus } from '@kingstinct/react-native-healthkit';

            export async function load(): Promise<boolean> {
              const status = await getRequestStatusForAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] });
              const ↓hasAccess: boolean = status === AuthorizationRequestStatus.unnecessary;
              return hasAccess;
            }
            """]),
            // A status string for the screens, from the request status (seen in a step counter).
            .reactNative(["js/src/permission.ts": """
            import Healthkit, { HKAuthorizationRequestStatus, HKQuantityTypeIdentifier } from '@kingstinct/react-native-healthkit';

            export async function stepPermission() {
              const status = await Healthkit.getRequestStatusForAuthorization([HKQuantityTypeIdentifier.stepCount]);
              if (status === HKAuthorizationRequestStatus.unnecessary) {
                ↓return 'granted';
              }
              return 'undetermined';
            }
            """]),
        ],
        nonTriggering: [
            // The same function only decides whether to ask: `notDetermined` says the sheet was never shown.
            .reactNative(["js/lib/healthkit.ts": """
            import { authorizationStatusFor, queryQuantitySamples, requestAuthorization, AuthorizationStatus } from '@kingstinct/react-native-healthkit';

            export async function getAuthorizationStatus(): Promise<string> {
              const status = authorizationStatusFor('HKQuantityTypeIdentifierActiveEnergyBurned');
              return status === AuthorizationStatus.notDetermined ? 'notDetermined' : 'sharingAuthorized';
            }

            export async function latestWeight(): Promise<number | null> {
              const samples = await queryQuantitySamples('HKQuantityTypeIdentifierBodyMass', { limit: 1, unit: 'kg' });
              return samples[0]?.quantity ?? null;
            }

            export async function ask(): Promise<void> {
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierBodyMass'], toShare: ['HKQuantityTypeIdentifierActiveEnergyBurned'] });
            }
            """, "js/screens/Profile.ts": """
            import { ask, getAuthorizationStatus, latestWeight } from '../lib/healthkit';

            export async function prefill(show: (kg: number | null) => void) {
              const status = await getAuthorizationStatus();
              if (status === 'notDetermined') {
                await ask();
              }
              show(await latestWeight());
            }
            """]),
            // Asking about the types it writes is what the status can answer.
            .reactNative(["js/src/weight.ts": """
            import { requestAuthorization, authorizationStatusFor, AuthorizationStatus } from '@kingstinct/react-native-healthkit';

            export async function canLogWeight(): Promise<boolean> {
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierBodyMass'], toShare: ['HKQuantityTypeIdentifierBodyMass'] });
              return authorizationStatusFor('HKQuantityTypeIdentifierBodyMass') === AuthorizationStatus.sharingAuthorized;
            }
            """]),
            .reactNative(["js/src/access.ts": """
            import { Health } from '@capgo/capacitor-health';

            export async function canLogWeight(): Promise<boolean> {
              const status = await Health.checkAuthorization({ write: ['weight'] });
              return status.shareAuthorized.includes('weight');
            }
            """]),
            // Asking only about written types is what the sharing status answers.
            .reactNative(["js/src/weight.js": """
            import AppleHealthKit from 'react-native-health';

            export function canLogWeight(done) {
              AppleHealthKit.getAuthStatus({ permissions: { read: [], write: [AppleHealthKit.Constants.Permissions.Weight] } }, (err, result) => done(result));
            }
            """]),
            // "Asked already, load the data" is what the request status means.
            .reactNative(["js/src/Workouts.tsx": """
            import { useEffect } from 'react';
            import { useHealthkitAuthorization, AuthorizationRequestStatus, queryWorkoutSamples } from '@kingstinct/react-native-healthkit';

            export function Workouts({ onLoad }) {
              const [status, requestAuth] = useHealthkitAuthorization(['HKWorkoutTypeIdentifier']);
              const shouldQuery = status === AuthorizationRequestStatus.unnecessary;
              useEffect(() => {
                if (status === AuthorizationRequestStatus.unnecessary) { queryWorkoutSamples({ limit: 10 }).then(onLoad); }
              }, [status]);
              return shouldQuery ? null : requestAuth;
            }
            """]),
            .reactNative(["js/src/health.ts": """
            import { getRequestStatusForAuthorization, AuthorizationRequestStatus } from '@kingstinct/react-native-healthkit';

            export async function alreadyAsked(): Promise<boolean> {
              const status = await getRequestStatusForAuthorization({ toRead: ['HKQuantityTypeIdentifierHeartRate'] });
              return status === AuthorizationRequestStatus.unnecessary;
            }

            // The comparison picks a title; "…Seen" and "…Done" record the asking.
            export async function labels(setPermissionButtonTitle: (t: string) => void, setPermissionSheetSeen: (v: boolean) => void) {
              const status = await getRequestStatusForAuthorization({ toRead: ['HKQuantityTypeIdentifierHeartRate'] });
              setPermissionButtonTitle(status === AuthorizationRequestStatus.unnecessary ? 'Open Settings' : 'Connect');
              setPermissionSheetSeen(status === AuthorizationRequestStatus.unnecessary);
              const permissionFlowDone = status === AuthorizationRequestStatus.unnecessary;
              return permissionFlowDone;
            }

            export async function stage() {
              const status = await getRequestStatusForAuthorization({ toRead: ['HKQuantityTypeIdentifierHeartRate'] });
              if (status === AuthorizationRequestStatus.unnecessary) {
                return 'requested';
              }
              return 'not-requested';
            }

            export async function needsPrompt(setShouldRequest: (v: boolean) => void) {
              const status = await getRequestStatusForAuthorization({ toRead: ['HKQuantityTypeIdentifierHeartRate'] });
              setShouldRequest(status === AuthorizationRequestStatus.shouldRequest);
            }
            """]),
            // Another library's `checkAuthorization` is not this plugin's.
            .reactNative(["js/src/calendar.ts": """
            import { Calendar } from './calendar-plugin';

            export async function canReadEvents() {
              return (await Calendar.checkAuthorization({ read: ['events'] })).granted;
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let files = context.manifest.javaScriptSources
        return context.javaScriptCalls.compactMap { call -> Finding? in
            let file = files[call.file]
            if let record = RequestStatusRecord.find(call, in: file) {
                return finding("`\(call.method)` (line \(file.tokens[call.token].line)) is kept as `\(record.record)`: its `unnecessary` only says the "
                                   + "permission sheet was shown, whatever the person chose, and HealthKit never discloses read access; use it to "
                                   + "decide whether to ask, and treat empty query results as no data or no access",
                               at: record.sink, in: file, target: context.manifest.id)
            }
            guard let message = Self.problem(call, in: file, context: context) else { return nil }
            return finding(message, at: call.token, in: file, target: context.manifest.id)
        } + StatusWrapperDecidesRead.find(context).map { decided in
            finding("`\(decided.wrapper)()` answers with the sharing status of `authorizationStatusFor` (\(decided.status)), and its answer decides "
                        + "whether to read (\(decided.read)): sharing status says nothing about reading, and HealthKit never discloses read "
                        + "permission; read, and treat an empty result as no data or no access", at: decided.caller, in: decided.file,
                    target: context.manifest.id)
        }
    }

    static func problem(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile, context: AuditContext) -> String? {
        switch (call.library, call.method) {
        case (.capacitorHealth, "checkAuthorization"):
            guard PluginResult.arguments(of: call, in: file).contains(where: { $0.hasPrefix("read") }) else { return nil }
            return "`checkAuthorization` is asked about `read` types: HealthKit never discloses read permission, and the plugin lists "
                + "every read type as authorized once the sheet was shown; query the data and treat an empty result as no data"
        case (.cordovaHealth, "isAuthorized"):
            // With `write` too, the answer may be about the written types' sharing status, which is real.
            let keys = PluginResult.arguments(of: call, in: file)
            guard keys.contains("read"), !keys.contains("write") else { return nil }
            return "`isAuthorized` is asked about `read` types: on iOS the plugin answers from the sharing status, so read types are never "
                + "authorized, whatever the person chose; query the data and treat an empty result as no data"
        case (.reactNativeHealth, "getAuthStatus"):
            // Asked about one permission (`Permissions.StepCount`) the app only reads: the same question.
            if let argument = file.items(of: call.paren).first, let last = argument.last, file.tokens[last].kind == .identifier,
               argument.count >= 3, file.tokens[last - 1].isPunctuator("."), file.tokens[last - 2].isIdentifier("Permissions"),
               let types = HealthKitWrapper.reactNativeHealth.types(named: file.tokens[last].text), !types.isEmpty,
               // Only read: by the requests, or because nothing in the app writes at all.
               (context.wrapperRequestsComplete && types.allSatisfy({ context.requestedRead.contains($0.name) && !context.requestedShare.contains($0.name) }))
                || !context.javaScriptCalls.contains(where: { $0.kind == .write }) {
                return "`getAuthStatus` is asked about `\(file.tokens[last].text)`, which the app only reads: react-native-health answers from "
                    + "`authorizationStatus(for:)`, the sharing status, never authorized for a type the app does not write, and HealthKit never "
                    + "discloses read permission; read, and treat an empty query result as no data"
            }
            guard PluginResult.permissionLists(of: call, in: file).contains("read") else { return nil }
            return "`getAuthStatus` is asked about the `read` types of its permissions: react-native-health answers them from "
                + "`authorizationStatus(for:)`, the sharing status, so a read type is never shown as authorized whatever the person "
                + "chose, and HealthKit never discloses read permission; ask only about written types, and treat an empty query result as no data"
        case (.kingstinct, "authorizationStatusFor"):
            // The type asked about, when the app only ever asks to read it (or HealthKit never lets apps write it).
            guard let argument = file.items(of: call.paren).first, let name = file.writtenName(argument),
                  let type = HealthKitWrapper.kingstinct.types(named: name)?.first else { return nil }
            let onlyRead = context.wrapperRequestsComplete && context.requestedRead.contains(type.name) && !context.requestedShare.contains(type.name)
            guard !type.isShareable || onlyRead else { return nil }
            return "`authorizationStatusFor` is asked about `\(type.name)`, which the app only reads: it is the sharing status, never "
                + "`sharingAuthorized` for a type the app does not write, and HealthKit never discloses read permission; query the data "
                + "and treat an empty result as no data"
        default:
            return nil
        }
    }
}
