import Manifest

/// A HealthKit save from JavaScript whose rejection nobody handles.
struct WriteErrorUnhandledRule: Rule {
    static let description = RuleDescription(
        id: "write-error-unhandled", title: "HealthKit write with no error handling", severity: .warning,
        questions: [], reads: [.javaScript],
        rationale: """
        Whether the person allowed a write can change at any time in Settings → Health, so a save must either check \
        `authorizationStatus` first or handle its failure. The promise-based libraries (`@kingstinct/react-native-healthkit`, \
        `@capgo/capacitor-health`) reject when the write is not allowed: a save that is neither inside `try` / `catch` \
        nor followed by `.catch(…)` becomes an unhandled promise rejection — the workout is lost and the person is told \
        nothing. Returning the promise leaves the handling to the caller and is not reported.
        """,
        triggering: [
            .reactNative(["js/src/Workouts.tsx": """
            import { saveWorkoutSample, WorkoutActivityType } from '@kingstinct/react-native-healthkit';

            export async function logRide(start: Date, end: Date) {
              const workout = ↓await saveWorkoutSample(WorkoutActivityType.cycling, [], start, end);
              console.log('saved', workout);
            }
            """]),
            .reactNative(["js/src/Pressure.ts": """
            import HealthKit from '@kingstinct/react-native-healthkit';

            export function logPressure(systolic: number, diastolic: number) {
              ↓HealthKit.saveCorrelationSample('HKCorrelationTypeIdentifierBloodPressure', [], new Date(), new Date());
            }
            """]),
        ],
        nonTriggering: [
            .reactNative(["js/src/Workouts.tsx": """
            import { saveWorkoutSample, WorkoutActivityType } from '@kingstinct/react-native-healthkit';

            export async function logRide(start: Date, end: Date) {
              try {
                await saveWorkoutSample(WorkoutActivityType.cycling, [], start, end);
              } catch (error) {
                showBanner('Could not save the ride to Health');
              }
            }
            """]),
            .reactNative(["js/src/More.ts": """
            import { saveWorkoutSample, WorkoutActivityType } from '@kingstinct/react-native-healthkit';

            export function logWalk(start: Date, end: Date) {
              saveWorkoutSample(WorkoutActivityType.walking, [], start, end).catch(() => showBanner('Not saved'));
            }

            export function logRun(start: Date, end: Date) {
              return saveWorkoutSample(WorkoutActivityType.running, [], start, end);
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let files = context.manifest.javaScriptSources
        return context.javaScriptCalls.compactMap { call -> Finding? in
            guard call.kind == .write, call.library.promises else { return nil }
            let file = files[call.file]
            guard !Self.isHandled(call, in: file) else { return nil }
            let start = file.chain(endingAt: call.token).start
            let awaited = start >= 1 && file.tokens[start - 1].isIdentifier("await")
            let at = awaited ? start - 1 : start
            return finding("`\(call.method)` " + (awaited ? "is awaited outside `try` / `catch`" : "is neither awaited nor caught")
                               + ": if the person denied the write, the promise rejects unhandled and nothing tells them the data was not saved",
                           at: at, in: file, target: context.manifest.id)
        }
    }

    /// Inside a `try` block, followed by `.catch(` (or `.then(ok, failed)`), or handed to the caller with `return`.
    static func isHandled(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        var scope = file.parent[call.token]
        while let open = scope {
            if tokens[open].isPunctuator("{"), open >= 1, tokens[open - 1].isIdentifier("try") { return true }
            scope = file.parent[open]
        }
        var start = file.chain(endingAt: call.token).start
        if start >= 1, tokens[start - 1].isIdentifier("await") { start -= 1 }
        if start >= 1, tokens[start - 1].isIdentifier("return") { return true }
        guard var end = file.partner[call.paren] else { return true }
        // Follow `.then(…)` / `.finally(…)` links to a `.catch(` or a two-argument `.then(`.
        while end + 2 < tokens.count, tokens[end + 1].isPunctuator("."), let paren = file.callParen(after: end + 2) {
            let name = tokens[end + 2].text
            if name == "catch" || (name == "then" && file.items(of: paren).count >= 2) { return true }
            guard let close = file.partner[paren] else { return true }
            end = close
        }
        return false
    }
}
