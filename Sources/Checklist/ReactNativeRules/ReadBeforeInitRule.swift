import Manifest

/// Reading Health data before `initHealthKit` has called back races the permission request.
struct ReadBeforeInitRule: Rule {
    static let description = RuleDescription(
        id: "rn-read-before-init", title: "Health data read before initHealthKit finished", severity: .error,
        questions: [], reads: [.javaScript],
        rationale: """
        `initHealthKit` is asynchronous: it shows the permission sheet and calls back when the person has answered. A read \
        started before that callback — right after the call, in a `Promise.all` beside it, or in another `useEffect` of the \
        same screen — runs while the types are still *not determined*: HealthKit fails it ("Authorization not determined", \
        `HKError` code 5) or it returns nothing, and the first launch shows an error or empty data although the person is \
        about to allow everything.

        Read inside the callback, after `await` of a promise that wraps it, or in a `.then` of that promise.
        """,
        triggering: [
            .reactNative(["js/src/Today.js": """
            import AppleHealthKit from 'react-native-health';

            const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.StepCount], write: [] } };

            export function loadToday(setSteps) {
              AppleHealthKit.initHealthKit(permissions, (error) => {
                if (error) {
                  console.warn('Apple Health is not available', error);
                }
              });
              AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (err, result) => {
                if (!err && result) setSteps(result.value);
              });
            }
            """]),
            healthModule(loadDashboard: """
              const [, samples] = await Promise.all([initHealth(), readHeartRate()]);
              return samples;
            """),
            // Asked only the first time, and read right after either way: the first read races the request.
            .reactNative(["js/src/steps.js": """
            import AppleHealthKit from 'react-native-health';

            const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.StepCount], write: [] } };

            export function refresh(asked, onSteps) {
              if (!asked) {
                AppleHealthKit.initHealthKit(permissions, () => {});
              }
              ↓AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (err, result) => onSteps(err ? null : result.value));
            }
            """]),
            .reactNative(["js/src/Sleep.tsx": """
            import React, { useEffect, useState } from 'react';
            import { Text } from 'react-native';
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            const options = { permissions: { read: [AppleHealthKit.Constants.Permissions.SleepAnalysis], write: [] } };

            export function SleepCard() {
              const [nights, setNights] = useState<HealthValue[] | null>(null);

              useEffect(() => {
                AppleHealthKit.initHealthKit(options, () => {});
              }, []);

              useEffect(() => {
                AppleHealthKit.getSleepSamples({ startDate: new Date(Date.now() - 7 * 86400000).toISOString() }, (err, results) => {
                  if (!err) setNights(results);
                });
              }, []);

              return <Text>{nights === null ? 'No sleep data' : `${nights.length} nights`}</Text>;
            }
            """]),
        ],
        nonTriggering: [
            // A `useCallback` read called only from the request's callback and from a button: never before the answer.
            .reactNative(["js/src/useToday.js": """
            import { useCallback, useEffect, useState } from 'react';
            import AppleHealthKit from 'react-native-health';

            const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.StepCount], write: [] } };

            export function useToday() {
              const [steps, setSteps] = useState(null);

              const fetchToday = useCallback(() => {
                AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (err, result) => {
                  if (!err) setSteps(result.value);
                });
              }, []);

              useEffect(() => {
                AppleHealthKit.initHealthKit(permissions, (error) => {
                  if (error) return;
                  fetchToday();
                });
              }, [fetchToday]);

              return { steps, refresh: () => fetchToday() };
            }
            """]),
            // The read waits for a state the init's callback sets: whatever order the effects run in,
            // nothing is read before the answer.
            .reactNative(["js/src/useSteps.js": """
            import { useCallback, useEffect, useState } from 'react';
            import AppleHealthKit from 'react-native-health';

            const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.StepCount], write: [] } };

            export function useSteps() {
              const [asked, setAsked] = useState(false);
              const [steps, setSteps] = useState(null);

              useEffect(() => {
                AppleHealthKit.initHealthKit(permissions, (error) => {
                  if (error) return;
                  setAsked(true);
                });
              }, []);

              const fetchSteps = useCallback(() => {
                if (!asked) {
                  return;
                }
                AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (err, result) => {
                  if (!err) setSteps(result.value);
                });
              }, [asked]);

              useEffect(() => { fetchSteps(); }, [fetchSteps]);
              return steps;
            }
            """]),
            .reactNative(["js/src/Today.js": """
            import AppleHealthKit from 'react-native-health';

            const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.StepCount], write: [] } };

            export function loadToday(setSteps) {
              AppleHealthKit.initHealthKit(permissions, (error) => {
                if (error) {
                  console.warn('Apple Health is not available', error);
                  return;
                }
                AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (err, result) => {
                  setSteps(err || !result ? null : result.value);
                });
              });
            }
            """]),
            healthModule(loadDashboard: """
              await initHealth();
              return readHeartRate();
            """),
            // Asks, or (having asked before) reads: the two never run one after the other here.
            .reactNative(["js/src/steps.js": """
            import AppleHealthKit from 'react-native-health';

            const permissions = { permissions: { read: [AppleHealthKit.Constants.Permissions.StepCount], write: [] } };

            export function refresh(asked, onSteps) {
              if (!asked) {
                AppleHealthKit.initHealthKit(permissions, () => {});
              } else {
                AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (err, result) => onSteps(err ? null : result.value));
              }
            }
            """]),
            // The request awaited through a timeout; the hook's own `load` asks before it reads, from two effects.
            .reactNative(["js/src/health.ts": healthModuleText(loadDashboard: "  return readHeartRate();"), "js/src/useDashboard.ts": """
            import { useCallback, useEffect, useState } from 'react';
            import { AppState } from 'react-native';
            import { initHealth, readHeartRate } from './health';

            const withTimeout = <T,>(promise: Promise<T>, ms: number, fallback: T): Promise<T> =>
              Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms))]);

            export function useDashboard() {
              const [rates, setRates] = useState(null);
              const load = useCallback(async () => {
                const asked = await withTimeout(initHealth().then(() => true), 10000, false);
                if (asked) {
                  setRates(await withTimeout(readHeartRate(), 8000, null));
                }
              }, []);

              useEffect(() => { load(); }, [load]);
              useEffect(() => {
                const subscription = AppState.addEventListener('change', (state) => { if (state === 'active') load(); });
                return () => subscription.remove();
              }, [load]);
              return rates;
            }
            """]),
        ]
    )

    static let effectHooks: Set<String> = ["useEffect", "useLayoutEffect", "useFocusEffect", "useCallback"]

    /// `js/src/health.ts` of the examples: promise wrappers around `initHealthKit` and a read, then `loadDashboard` running `body`.
    private static func healthModule(loadDashboard body: String) -> RuleExample {
        .reactNative(["js/src/health.ts": healthModuleText(loadDashboard: body)])
    }

    private static func healthModuleText(loadDashboard body: String) -> String {
        """
        import AppleHealthKit, { HealthValue } from 'react-native-health';

        const { Permissions } = AppleHealthKit.Constants;

        export const initHealth = (): Promise<void> =>
          new Promise((resolve, reject) => {
            AppleHealthKit.initHealthKit({ permissions: { read: [Permissions.HeartRate], write: [] } }, (error) =>
              error ? reject(new Error(error)) : resolve(),
            );
          });

        export const readHeartRate = (): Promise<HealthValue[]> =>
          new Promise((resolve, reject) => {
            AppleHealthKit.getHeartRateSamples({ startDate: new Date(Date.now() - 86400000).toISOString() }, (error, results) =>
              error ? reject(new Error(error)) : resolve(results),
            );
          });

        export async function loadDashboard(): Promise<HealthValue[]> {
        \(body)
        }
        """
    }

    func check(_ context: AuditContext) -> [Finding] {
        let sources = context.manifest.javaScriptSources
        guard !sources.isEmpty else { return [] }
        let health = HealthFlow(files: sources)
        var findings: [Finding] = []
        for flow in health.flows {
            let file = flow.file
            let inits = file.healthKitMembers(named: { $0 == "initHealthKit" }).filter { file.callParen(after: $0) != nil }
                + flow.calls(named: { health.initWrappers.contains($0) }).map(\.index).filter { !isDeclaration($0, flow) }
            let reads = file.healthKitMembers(named: HealthFlow.isReadMethod)
                + flow.calls(named: { health.readers.contains($0) }).map(\.index).filter { !isDeclaration($0, flow) }
            var reported: Set<Int> = []
            let callbacks = Set(flow.functions.filter { callback in
                callback.start >= 2 && file.tokens[callback.start - 1].isPunctuator("(") && file.tokens[callback.start - 2].isIdentifier("useCallback")
            }.compactMap(\.name))
            for read in reads.sorted() {
                guard let function = flow.function(containing: read) else { continue }
                // 1. In the same function, after an initHealthKit call (or a wrapper) that was not awaited.
                let earlier = inits.filter { $0 < read && flow.function(containing: $0)?.start == function.start && !flow.isAwaitedOrWrapped($0)
                    && !Self.inOtherBranch($0, than: read, flow) }
                if let start = earlier.last, !isInsideCallback(of: start, read, flow) {
                    reported.insert(read)
                    findings.append(finding(
                        "`\(name(read, flow))` starts before `\(file.tokens[start].text)` (line \(file.tokens[start].line)) has called back: the permission request "
                            + "is still open, so the read fails with \"Authorization not determined\" or returns nothing; read in the callback or after `await`",
                        at: file.location(of: file.chain(endingAt: read).start), quote: file.quote(read), target: context.manifest.id))
                    continue
                }
                // 2. In an effect of a component whose other effect asks for access: effects do not wait for each other.
                // A call of the component's own `useCallback` reader is judged at the reads inside it (`calledFromOwnEffect`).
                guard !reported.contains(read), !callbacks.contains(file.tokens[read].text),
                      !inits.contains(where: { flow.function(containing: $0)?.start == function.start }),
                      let effect = effectCall(of: function, flow), let component = flow.function(containing: effect) else { continue }
                let sibling = inits.first { start in
                    guard let other = flow.function(containing: start), other.start != function.start, component.body.contains(other.start),
                          let otherEffect = effectCall(of: other, flow) else { return false }
                    return flow.function(containing: otherEffect)?.start == component.start
                }
                // `if (!isAuthorized) return` before the read, where the init's callback sets `isAuthorized` true:
                // the read waits for the answer, whatever order the effects run in. A `useCallback` runs
                // where it is called: only a call from an effect of its own races the request.
                // The app's own function that asks before it reads (`load()`, called from two effects) waits for its own answer.
                if let sibling, flow.function(containing: sibling)?.name != file.tokens[read].text,
                   !Self.isGated(read, byStateSetIn: sibling, within: component, flow),
                   file.tokens[effect].text != "useCallback" || Self.calledFromOwnEffect(function, besides: sibling, within: component, flow) {
                    findings.append(finding(
                        "`\(name(read, flow))` runs in its own effect while another effect of this component asks for access "
                            + "(`\(file.tokens[sibling].text)`, line \(file.tokens[sibling].line)): effects do not wait for each other, so the read "
                            + "starts before the permission request is answered",
                        at: file.location(of: file.chain(endingAt: read).start), quote: file.quote(read), target: context.manifest.id))
                }
            }
        }
        return findings
    }

    /// Whether `start` and `read` sit in the two branches of one `if` / `else`:
    /// `if (!asked) { requestAuthorization(); } else { fetchSteps(); }` reads only when it did not ask.
    /// (`if (!asked) { requestAuthorization(); }` and a read after it is the race itself.)
    static func inOtherBranch(_ start: Int, than read: Int, _ flow: JSFlow) -> Bool {
        let file = flow.file
        let tokens = file.tokens
        var brace = file.parent[start]
        while let open = brace {
            defer { brace = file.parent[open] }
            guard tokens[open].isPunctuator("{"), let close = file.partner[open], !(open..<close).contains(read), open >= 1 else { continue }
            // The init in the `then` block: the read in the `else` after it.
            if tokens[open - 1].isPunctuator(")"), let paren = file.partner[open - 1], paren >= 1, tokens[paren - 1].isIdentifier("if"),
               close + 1 < tokens.count, tokens[close + 1].isIdentifier("else") {
                let otherwise = flow.statement(at: min(close + 2, tokens.count - 1))
                return otherwise.contains(read)
            }
            // The init in the `else` block: the read in the `then` block before it.
            if tokens[open - 1].isIdentifier("else"), open >= 2, tokens[open - 2].isPunctuator("}"), let thenOpen = file.partner[open - 2] {
                return (thenOpen..<(open - 2)).contains(read)
            }
        }
        return false
    }

    /// Whether the read at `read` only runs once a state the call at `start` sets to true in its
    /// callback (`setIsAuthorized(true)`) is true: inside `if (isAuthorized …) {`, or after
    /// `if (!isAuthorized) return` in a function around it, up to the component.
    static func isGated(_ read: Int, byStateSetIn start: Int, within component: JSFunction, _ flow: JSFlow) -> Bool {
        let file = flow.file
        let tokens = file.tokens
        guard let open = file.callParen(after: start), let close = file.partner[open] else { return false }
        // `setX(true)` in the callback, for a state declared `const [x, setX] = useState(…)`.
        var states: Set<String> = []
        for k in open..<close where tokens[k].kind == .identifier && tokens[k].text.hasPrefix("set") && k + 3 < close
            && tokens[k + 1].isPunctuator("(") && tokens[k + 2].isIdentifier("true") && tokens[k + 3].isPunctuator(")") {
            let setter = tokens[k].text
            // One scan for the `[state, setter]` pair that declares it.
            guard let at = component.body.first(where: { i in
                i + 4 < tokens.count && tokens[i].isPunctuator("[") && tokens[i + 1].kind == .identifier && tokens[i + 2].isPunctuator(",")
                    && tokens[i + 3].isIdentifier(setter) && tokens[i + 4].isPunctuator("]")
            }) else { continue }
            states.insert(tokens[at + 1].text)
        }
        guard !states.isEmpty else { return false }
        var brace = file.parent[read]
        while let block = brace, component.body.contains(block) {
            defer { brace = file.parent[block] }
            guard tokens[block].isPunctuator("{") else { continue }
            // Inside `if (x …) {`.
            if block >= 1, tokens[block - 1].isPunctuator(")"), let paren = file.partner[block - 1], paren >= 1, tokens[paren - 1].isIdentifier("if"),
               ((paren + 1)..<(block - 1)).contains(where: { states.contains(tokens[$0].text) && !tokens[$0 - 1].isPunctuator("!") }) {
                return true
            }
            // `if (!x) return` (or `{ …; return; }`) earlier in this block.
            var k = block + 1
            while k < read {
                if tokens[k].isIdentifier("if"), file.parent[k] == block, k + 4 < read, tokens[k + 1].isPunctuator("("), tokens[k + 2].isPunctuator("!"),
                   states.contains(tokens[k + 3].text), tokens[k + 4].isPunctuator(")"), let closeParen = file.partner[k + 1] {
                    let body = closeParen + 1
                    let exits = tokens[body].isIdentifier("return")
                        || (tokens[body].isPunctuator("{") && file.partner[body].map { end in ((body + 1)..<end).contains { tokens[$0].isIdentifier("return") && file.parent[$0] == body } } == true)
                    if exits { return true }
                }
                if let partner = file.partner[k], partner > k, partner < read { k = partner }
                k += 1
            }
        }
        return false
    }

    /// Whether the `useCallback` function is called, ungated, from an effect of the component other
    /// than the request's (not from the request's callback, nor from an event handler).
    static func calledFromOwnEffect(_ callback: JSFunction, besides request: Int, within component: JSFunction, _ flow: JSFlow) -> Bool {
        let file = flow.file
        let tokens = file.tokens
        // `const fetchSteps = useCallback(() => …)`: the name the hook's result is bound to.
        let start = callback.start
        let bound = start >= 4 && tokens[start - 3].isPunctuator("=") && tokens[start - 4].kind == .identifier ? tokens[start - 4].text : nil
        guard let name = callback.name ?? bound else { return true }
        let requestCall = file.callParen(after: request).flatMap { open in file.partner[open].map { open..<$0 } }
        for index in component.body where tokens[index].isIdentifier(name) && file.callParen(after: index) != nil
            && !(index >= 1 && tokens[index - 1].isPunctuator(".")) {
            guard let caller = flow.function(containing: index), caller.start != callback.start,
                  caller.start >= 2, tokens[caller.start - 1].isPunctuator("("), effectHooks.contains(tokens[caller.start - 2].text),
                  tokens[caller.start - 2].text != "useCallback" else { continue }
            if let requestCall, requestCall.contains(index) { continue }
            if isGated(index, byStateSetIn: request, within: component, flow) { continue }
            return true
        }
        return false
    }

    private func name(_ index: Int, _ flow: JSFlow) -> String {
        flow.file.chain(endingAt: index).names.joined(separator: ".")
    }

    /// `function initHealth()` / `const initHealth = …` is not a call of it.
    private func isDeclaration(_ index: Int, _ flow: JSFlow) -> Bool {
        if index > 0, flow.file.tokens[index - 1].isIdentifier("function") { return true }
        return flow.functions.contains { $0.name == flow.file.tokens[index].text && $0.start == index }
    }

    /// Whether `read` sits inside a callback argument of the call at `start` (its own callback, or `.then(…)` on it).
    private func isInsideCallback(of start: Int, _ read: Int, _ flow: JSFlow) -> Bool {
        let file = flow.file
        guard let open = file.callParen(after: start), let close = file.partner[open] else { return false }
        if open < read && read < close { return true }
        var next = close + 1
        while next + 1 < file.tokens.count, file.tokens[next].isPunctuator("."), let handler = file.callParen(after: next + 1), let end = file.partner[handler] {
            if handler < read && read < end { return true }
            next = end + 1
        }
        return false
    }

    /// The `useEffect(` identifier whose first argument is `function`.
    private func effectCall(of function: JSFunction, _ flow: JSFlow) -> Int? {
        let file = flow.file
        guard function.start >= 2, file.tokens[function.start - 1].isPunctuator("("), file.tokens[function.start - 2].kind == .identifier,
              Self.effectHooks.contains(file.tokens[function.start - 2].text) else { return nil }
        return function.start - 2
    }
}
