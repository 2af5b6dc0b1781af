import Manifest

/// react-native-health calls back with success whatever the person chose; an error means HealthKit
/// could not ask at all. Reading the callback as "granted" / "denied" is seed 001's misunderstanding.
struct CallbackErrorAsDenialRule: Rule {
    static let description = RuleDescription(
        id: "rn-callback-error-as-denial", title: "initHealthKit's callback read as the user's answer", severity: .error,
        questions: [.completionInterpreted], reads: [.javaScript],
        rationale: """
        `AppleHealthKit.initHealthKit(permissions, callback)` shows the permission sheet and then calls back. The callback's \
        **error** means the request could not be made — HealthKit unavailable (iPad, a managed device), a malformed \
        `permissions` object, a missing usage string — never "the user said no": react-native-health calls back with \
        success (`callback(null, true)`) whatever the person chose. And HealthKit never reports a *read* denial at all: \
        the app simply receives no samples.

        So code that rejects with "user denied access" on an error, or resolves "access granted" on success, shows the \
        wrong screen to everyone who declined (the data stays empty, no error ever comes) and a "permission denied" \
        message to people whose device cannot use HealthKit. Treat success as "the sheet was answered", show \
        "no data" states for empty reads, and word errors as "Apple Health is not available".
        """,
        triggering: [
            .reactNative(["js/src/services/health.ts": """
            import AppleHealthKit, { HealthKitPermissions } from 'react-native-health';

            const permissions: HealthKitPermissions = {
              permissions: {
                read: [AppleHealthKit.Constants.Permissions.StepCount],
                write: [],
              },
            };

            export const requestHealthAccess = (): Promise<boolean> =>
              new Promise((resolve, reject) => {
                AppleHealthKit.initHealthKit(permissions, (error: string) => {
                  if (error) {
                    ↓reject(error); // user denied access
                    return;
                  }
                  ↓resolve(true); // access granted
                });
              });
            """]),
            .reactNative(["js/App.js": """
            import React, { useEffect, useState } from 'react';
            import { Text } from 'react-native';
            import AppleHealthKit from 'react-native-health';

            const options = { permissions: { read: [AppleHealthKit.Constants.Permissions.HeartRate], write: [] } };

            export default function App() {
              const [authorized, setAuthorized] = useState(false);
              const [message, setMessage] = useState(null);

              useEffect(() => {
                AppleHealthKit.initHealthKit(options, (err) => {
                  if (err) {
                    ↓setMessage('You denied access to Apple Health.');
                    return;
                  }
                  ↓setAuthorized(true);
                });
              }, []);

              return <Text>{authorized ? "Connected" : message}</Text>;
            }
            """]),
            .reactNative(["js/src/health.ts": """
            import AppleHealthKit from 'react-native-health';

            const { Permissions } = AppleHealthKit.Constants;

            export function initHealth(): Promise<void> {
              return new Promise((resolve, reject) => {
                AppleHealthKit.initHealthKit({ permissions: { read: [Permissions.SleepAnalysis], write: [] } }, (error) =>
                  error ? reject(new Error(error)) : resolve(),
                );
              });
            }

            export async function loadSleep(): Promise<string> {
              try {
                await initHealth();
                return 'ready';
              } catch (e) {
                // The user declined Health access.
                return 'permission-denied';
              }
            }
            """]),
        ],
        nonTriggering: [
            // The wrapper settles its own error and always resolves: the caller's catch never runs.
            .reactNative(["js/src/health.ts": """
            import AppleHealthKit from 'react-native-health';

            const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.StepCount], write: [] } };

            export type Health = { askForSteps: () => Promise<boolean> };

            export const askForSteps = (): Promise<boolean> =>
              new Promise((resolve) => {
                AppleHealthKit.initHealthKit(permissions, (error: string) => {
                  if (error) {
                    console.warn('HealthKit could not ask', error);
                  }
                  resolve(!error);
                });
              });
            """, "js/src/Onboarding.tsx": """
            import { Alert } from 'react-native';
            import { askForSteps } from './health';

            export async function connect(next: () => void) {
              try {
                await askForSteps();
                next();
              } catch (error) {
                Alert.alert('Permission denied', 'Allow Steps in Settings > Health.');
              }
            }

            export function connectLater(next: () => void) {
              askForSteps().then(next).catch(() => Alert.alert('Permission denied', 'Allow Steps in Settings > Health.'));
            }
            """]),
            // The flag set after the awaited request is decided by another permission's answer (notifications).
            .reactNative(["js/src/Onboarding.tsx": """
            import React, { useState } from 'react';
            import { Button } from 'react-native';
            import notifee, { AuthorizationStatus } from '@notifee/react-native';
            import AppleHealthKit from 'react-native-health';

            const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.SleepAnalysis], write: [] } };

            const initHealthKit = () =>
              new Promise<void>((resolve) => AppleHealthKit.initHealthKit(permissions, () => resolve()));

            export function Onboarding() {
              const [permissionsGranted, setPermissionsGranted] = useState(false);

              async function grantPermissions() {
                const { authorizationStatus } = await notifee.requestPermission();
                await initHealthKit();
                if (authorizationStatus === AuthorizationStatus.AUTHORIZED) {
                  setPermissionsGranted(true);
                }
              }

              return <Button title={permissionsGranted ? 'Continue' : 'Allow'} onPress={grantPermissions} />;
            }
            """]),
            // A branch that only logs shows and stores nothing, whatever its message says.
            .reactNative(["js/src/health.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.HeartRate], write: [] } };

            export function startHealth(onSamples: (samples: HealthValue[]) => void): void {
              AppleHealthKit.initHealthKit(permissions, (error: string) => {
                if (error) {
                  console.log('[ERROR] Cannot grant permissions!');
                  return;
                }
                AppleHealthKit.getHeartRateSamples({ startDate: new Date(2024, 0, 1).toISOString() }, (readError: string, results: HealthValue[]) => {
                  if (!readError) onSamples(results);
                });
              });
            }

            export const askForHealth = (): Promise<void> =>
              new Promise((resolve, reject) => AppleHealthKit.initHealthKit(permissions, (error: string) => (error ? reject(new Error(error)) : resolve())));

            export function connect(): void {
              askForHealth().catch((e) => console.warn('Health permission denied?', e));
            }
            """]),
            .reactNative(["js/src/services/health.ts": """
            import AppleHealthKit, { HealthKitPermissions } from 'react-native-health';

            const permissions: HealthKitPermissions = {
              permissions: {
                read: [AppleHealthKit.Constants.Permissions.StepCount],
                write: [],
              },
            };

            /** Resolves once the sheet was answered; declined reads simply come back empty later. */
            export const askForHealth = (): Promise<void> =>
              new Promise((resolve, reject) => {
                AppleHealthKit.initHealthKit(permissions, (error: string) => {
                  if (error) {
                    // HealthKit is not available here, or the request itself was malformed.
                    reject(new Error(`Apple Health is not available: ${error}`));
                    return;
                  }
                  resolve();
                });
              });
            """]),
            .reactNative(["js/App.js": """
            import React, { useEffect, useState } from 'react';
            import { Text } from 'react-native';
            import AppleHealthKit from 'react-native-health';

            const options = { permissions: { read: [AppleHealthKit.Constants.Permissions.HeartRate], write: [] } };

            export default function App() {
              const [phase, setPhase] = useState('asking');

              useEffect(() => {
                AppleHealthKit.initHealthKit(options, (err) => {
                  if (err) {
                    setPhase('unavailable');
                    return;
                  }
                  setPhase('asked');
                });
              }, []);

              return <Text>{phase === 'unavailable' ? "Apple Health isn't available on this device." : "Heart rate appears here when Health has samples."}</Text>;
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let sources = context.manifest.javaScriptSources
        guard !sources.isEmpty else { return [] }
        let health = HealthFlow(files: sources)
        var findings: [Finding] = []
        // A catch whose try can never reject (the wrapper handles its own error and always resolves) never runs.
        let unreachable = UnreachableCatch(flows: health.flows)
        for (fileIndex, flow) in health.flows.enumerated() {
            for index in flow.file.healthKitMembers(named: { $0 == "initHealthKit" }) {
                findings += callbackFindings(flow, initAt: index)
            }
            findings += wrapperFindings(flow, health: health, cannotRun: { unreachable.contains($0, in: fileIndex) },
                                        neverRejects: { unreachable.cannotReject(appFunction: $0) })
        }
        return findings.map { finding in
            var finding = finding
            finding.target = context.manifest.id
            return finding
        }
    }

    /// A finding at a JavaScript location, quoting its line; the target is set by `check`.
    private func make(_ message: String, at location: FileLocation, in flow: JSFlow) -> Finding {
        finding(message, at: location, quote: flow.file.lineText(location.line ?? 0), target: "")
    }

    private static let deniedMessage = "an error from initHealthKit is treated as the user denying access: it only means HealthKit could not ask "
        + "(unavailable, malformed permissions); a denial is never reported — reads just return no samples"
    private static let grantedMessage = "initHealthKit calling back without an error is treated as access granted: react-native-health reports success "
        + "whatever the person chose, and read denials stay invisible"

    // MARK: The callback of initHealthKit

    private func callbackFindings(_ flow: JSFlow, initAt index: Int) -> [Finding] {
        let file = flow.file
        guard let open = file.callParen(after: index) else { return [] }
        let arguments = file.items(of: open)
        guard arguments.count >= 2, let callback = flow.function(startingAt: arguments[1]) else { return [] }
        let errorName = callback.parameters.first
        let resultName = callback.parameters.count > 1 ? callback.parameters[1] : nil
        var errorBranches: [Range<Int>] = []
        if let errorName {
            for (condition, then, otherwise) in flow.conditionals(in: callback.body) {
                let mentions = condition.contains { file.tokens[$0].isIdentifier(errorName) }
                guard mentions else { continue }
                let negated = condition.contains { i in
                    file.tokens[i].isIdentifier(errorName) && i > condition.lowerBound && file.tokens[i - 1].isPunctuator("!")
                } || condition.contains { file.tokens[$0].isIdentifier("null") || file.tokens[$0].isIdentifier("undefined") }
                if negated { if let otherwise { errorBranches.append(otherwise) } } else { errorBranches.append(then) }
            }
            // `error ? reject(error) : resolve()`
            for i in callback.body where file.tokens[i].isIdentifier(errorName) && i + 1 < callback.body.upperBound && file.tokens[i + 1].isPunctuator("?") {
                var j = i + 2
                while j < callback.body.upperBound, !file.tokens[j].isPunctuator(":") {
                    if file.tokens[j].isOpener, let match = file.partner[j] { j = match }
                    j += 1
                }
                errorBranches.append((i + 2)..<j)
            }
        }
        var findings: [Finding] = []
        for branch in errorBranches {
            // `if (error) { console.log('Cannot grant permissions!') }` shows and stores nothing.
            let logging = flow.loggingCalls(in: branch)
            if flow.onlyLogs(branch, logging: logging) { continue }
            if let location = flow.firstMention(of: GrantNames.denyWords, in: branch, skipping: logging) {
                findings.append(make(Self.deniedMessage, at: location, in: flow))
            }
        }
        // The success path: what runs outside the error branches.
        let success = callback.body.filter { i in !errorBranches.contains { $0.contains(i) } }
        let grantedValues: Set<String> = Set(["true"] + (resultName.map { [$0] } ?? []))
        for i in success where file.tokens[i].kind == .identifier {
            let token = file.tokens[i]
            // `setAuthorized(true)`, `resolve(true)`, `cb(null, results)`
            if let open = file.callParen(after: i), open == i + 1, let last = file.items(of: open).last,
               last.count == 1, grantedValues.contains(file.tokens[last.lowerBound].text) {
                let name = token.text
                let comment = file.comments(onLine: token.line).map(\.text).joined(separator: " ")
                let enclosing = flow.namedFunction(containing: i)?.name ?? ""
                let grants = GrantNames.says(name)
                    || (["resolve", "callback", "cb", "done", "onSuccess", "next"].contains(name)
                        && (GrantNames.mentionsGrant(enclosing) || GrantNames.mentionsGrant(comment)))
                if grants {
                    findings.append(make(Self.grantedMessage + " (`\(flow.file.lineText(token.line))`)", at: file.location(of: i), in: flow))
                }
                continue
            }
            // `authorized = true`, `{ hasPermission: true }`
            if i + 2 < file.tokens.count, file.tokens[i + 1].isPunctuator("=") || file.tokens[i + 1].isPunctuator(":"),
               grantedValues.contains(file.tokens[i + 2].text), success.contains(i + 2), GrantNames.says(token.text) {
                findings.append(make(Self.grantedMessage + " (`\(flow.file.lineText(token.line))`)", at: file.location(of: i), in: flow))
            }
        }
        return findings
    }

    // MARK: Code around a wrapper of initHealthKit

    /// `try { await initHealth() } catch { …denied… }`, `initHealth().catch(() => setDenied(true))`,
    /// and `await initHealth(); setAuthorized(true)`.
    private func wrapperFindings(_ flow: JSFlow, health: HealthFlow, cannotRun: (Int) -> Bool, neverRejects: (String) -> Bool) -> [Finding] {
        let file = flow.file
        var findings: [Finding] = []
        for (index, open) in flow.calls(named: { health.directWrappers.contains($0) }) {
            guard let close = file.partner[open] else { continue }
            // Not the wrapper's own declaration.
            if flow.functions.contains(where: { $0.name == file.tokens[index].text && $0.start > index && $0.start <= close + 1 }) { continue }
            // try { … wrapper() … } catch (e) { … }
            var scope = file.parent[index]
            while let brace = scope {
                if file.tokens[brace].isPunctuator("{"), brace > 0, file.tokens[brace - 1].isIdentifier("try"), let end = file.partner[brace],
                   end + 1 < file.tokens.count, file.tokens[end + 1].isIdentifier("catch") {
                    var body = end + 2
                    if body < file.tokens.count, file.tokens[body].isPunctuator("("), let match = file.partner[body] { body = match + 1 }
                    if body < file.tokens.count, file.tokens[body].isPunctuator("{"), let bodyEnd = file.partner[body], !cannotRun(body + 1),
                       let location = denial(in: body..<(bodyEnd + 1), flow) {
                        findings.append(make("the catch around `\(file.tokens[index].text)()`, which wraps initHealthKit, treats its failure as a denial: "
                                             + "initHealthKit only fails when HealthKit cannot ask, never because the user said no", at: location, in: flow))
                    }
                    break
                }
                scope = file.parent[brace]
            }
            // wrapper().catch(handler) / wrapper().then(handler)
            var next = close + 1
            while next + 2 < file.tokens.count, file.tokens[next].isPunctuator("."), file.tokens[next + 1].kind == .identifier,
                  let handlerOpen = file.callParen(after: next + 1), let handlerClose = file.partner[handlerOpen] {
                let method = file.tokens[next + 1].text
                let body = (handlerOpen + 1)..<handlerClose
                if method == "catch", !neverRejects(file.tokens[index].text), let location = denial(in: body, flow) {
                    findings.append(make("`.catch` on `\(file.tokens[index].text)()`, which wraps initHealthKit, treats its failure as a denial: "
                                         + "initHealthKit only fails when HealthKit cannot ask, never because the user said no", at: location, in: flow))
                }
                if method == "then", let grant = grantAssignment(in: body, flow: flow) {
                    findings.append(make(Self.grantedMessage + " (`\(file.lineText(file.tokens[grant].line))`)", at: file.location(of: grant), in: flow))
                }
                next = handlerClose + 1
            }
            // await wrapper(); setAuthorized(true)
            if flow.isAwaited(index), let function = flow.function(containing: index) {
                let after = (close + 1)..<function.body.upperBound
                if let grant = grantAssignment(in: after, flow: flow), flow.function(containing: grant)?.start == function.start,
                   !Self.isDecidedByACondition(grant, after: close, in: file) {
                    findings.append(make(Self.grantedMessage + " (`\(file.lineText(file.tokens[grant].line))` after `await \(file.tokens[index].text)()`)",
                                         at: file.location(of: grant), in: flow))
                }
            }
        }
        return findings
    }

    /// `if (notificationStatus === AUTHORIZED) { setPermissionsGranted(true) }` after the awaited request:
    /// a grant that a condition written after the request decides (in its block, or right after its
    /// `)`), not the request returning.
    static func isDecidedByACondition(_ grant: Int, after start: Int, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        func opensIf(_ close: Int) -> Bool {
            tokens[close].isPunctuator(")") && file.partner[close].map { $0 >= 1 && $0 > start && tokens[$0 - 1].isIdentifier("if") } == true
        }
        if grant >= 1, opensIf(grant - 1) { return true }
        var brace = file.parent[grant]
        while let open = brace, open > start {
            if tokens[open].isPunctuator("{"), open >= 1, opensIf(open - 1) { return true }
            brace = file.parent[open]
        }
        return false
    }

    /// Where a failure handler speaks of a denial, in what it does rather than what it logs; nil for one that only logs.
    private func denial(in handler: Range<Int>, _ flow: JSFlow) -> FileLocation? {
        var body = handler
        // `(e) => console.warn('denied', e)`: the handler's body, past its parameters.
        if let function = flow.function(startingAt: handler) { body = function.body }
        let logging = flow.loggingCalls(in: body)
        if flow.onlyLogs(body, logging: logging) { return nil }
        return flow.firstMention(of: GrantNames.denyWords, in: handler, skipping: logging)
    }

    /// `setAuthorized(true)` / `authorized = true` with a name that records a grant.
    private func grantAssignment(in range: Range<Int>, flow: JSFlow) -> Int? {
        let file = flow.file
        for i in range where file.tokens[i].kind == .identifier && GrantNames.says(file.tokens[i].text) {
            if let open = file.callParen(after: i), open == i + 1, let first = file.items(of: open).first, first.count == 1, file.tokens[first.lowerBound].isIdentifier("true") {
                return i
            }
            if i + 2 < range.upperBound, file.tokens[i + 1].isPunctuator("=") || file.tokens[i + 1].isPunctuator(":"), file.tokens[i + 2].isIdentifier("true") {
                return i
            }
        }
        return nil
    }
}
