import Manifest

/// With HealthKit, "no samples" may mean "not allowed": showing 0 presents a denial as a measurement.
struct ZeroForMissingRule: Rule {
    static let description = RuleDescription(
        id: "rn-zero-for-missing", title: "Zero shown where Health returned nothing", severity: .warning,
        questions: [],
        rationale: """
        HealthKit hides read permission: a type the person declined returns **no samples, without an error** — exactly \
        like a day with no data. An app that turns "nothing came back" into `0` (`steps: 0` defaults, `value ?? 0`, \
        `useState(0)`, summing an empty array from 0) tells someone who declined heart rate that their heart rate is 0, \
        and someone who walked all day with their phone in a drawer that they took 0 steps.

        Keep "no value" distinct (`null`) and show "No data — check Health access in Settings" instead of a number. \
        Fallbacks of values that are not health data (layout, counters) are not flagged.
        """,
        triggering: [
            .reactNative(["js/src/services/health.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export type Today = { steps: number; sleepHours: number; error: string | null };

            export const EMPTY_TODAY: Today = {
              steps: 0,
              sleepHours: 0,
              error: null,
            };

            export const readSteps = (): Promise<number> =>
              new Promise((resolve) => {
                AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (err: string, result: HealthValue) => {
                  resolve(result?.value ?? 0);
                });
              });
            """]),
            .reactNative(["js/src/StepsCard.js": """
            import React, { useState } from 'react';
            import { Text } from 'react-native';

            export function StepsCard() {
              const [steps, setSteps] = useState(0);
              return <Text>{steps.toLocaleString()} steps</Text>;
            }
            """]),
            .reactNative(["js/src/energy.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export const activeCalories = (samples: HealthValue[]): number =>
              Math.round(samples.reduce((sum, sample) => sum + sample.value, 0));
            """]),
        ],
        nonTriggering: [
            .reactNative(["js/src/services/health.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export type Today = { steps: number | null; sleepHours: number | null; error: string | null };

            export const EMPTY_TODAY: Today = {
              steps: null,
              sleepHours: null,
              error: null,
            };

            export const readSteps = (): Promise<number | null> =>
              new Promise((resolve) => {
                AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (err: string, result: HealthValue) => {
                  resolve(err || !result ? null : result.value);
                });
              });

            const styles = { card: { padding: 0, marginTop: 0 } };
            """]),
            .reactNative(["js/src/energy.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export const activeCalories = (samples: HealthValue[]): number | null =>
              samples.length === 0 ? null : Math.round(samples.reduce((sum, sample) => sum + sample.value, 0));

            export function StepsLabel({ steps }: { steps: number | null }) {
              const [page, setPage] = useState(0);
              return steps === null ? 'No data' : `${steps} steps`;
            }
            """]),
        ]
    )

    /// Words that name health data in identifiers (`steps`, `heartRate`, `caloriesBurned`).
    static let healthWords = [
        "step", "heart", "bpm", "pulse", "sleep", "calori", "kcal", "energy", "distance", "weight", "bodymass", "hrv", "oxygen", "spo2",
        "glucose", "workout", "flights", "floors", "exercise", "mindful", "respirat", "temperature", "vo2",
    ]
    /// Names of raw HealthKit results (`result.value`, `samples`), meaningful in files that use react-native-health.
    static let resultWords = ["value", "result", "sample", "quantity"]

    static func namesHealth(_ name: String) -> Bool {
        let text = name.lowercased()
        return healthWords.contains(where: text.contains)
    }

    func check(_ context: AuditContext) -> [Finding] {
        context.manifest.javaScriptSources.flatMap { file -> [Finding] in
            let flow = JSFlow(file)
            let healthFile = file.usesHealthKit
            var findings: [Finding] = []
            func add(_ message: String, at index: Int) {
                findings.append(finding(message, at: file.location(of: index), quote: file.quote(index), target: context.manifest.id))
            }
            let tokens = file.tokens
            for (index, token) in tokens.enumerated() where Self.isZero(token) {
                guard index >= 1 else { continue }
                let previous = tokens[index - 1]
                // `x ?? 0`, `x || 0`
                if previous.isPunctuator("??") || previous.isPunctuator("||") {
                    let operand = self.operand(before: index - 1, file)
                    let names = operand.filter { tokens[$0].kind == .identifier }.map { tokens[$0].text }
                    if names.contains(where: Self.namesHealth) || (healthFile && names.contains { name in Self.resultWords.contains { name.lowercased().contains($0) } }) {
                        add("`\(file.text(of: operand.lowerBound..<(index + 1)))` turns \"nothing came back\" into 0; a denied read also returns nothing, "
                            + "so the app shows 0 where it should say \"no data\"", at: operand.lowerBound)
                    }
                    continue
                }
                // `useState(0)` for a health value: `const [steps, setSteps] = useState(0)`.
                if previous.isPunctuator("("), index + 1 < tokens.count, tokens[index + 1].isPunctuator(")") {
                    let callee = index - 2
                    guard callee >= 0 else { continue }
                    if let hook = hookName(before: index - 1, file), hook == "useState", let state = stateName(of: index - 1, file), Self.namesHealth(state) {
                        add("`\(state)` starts at 0 before Health answers and stays 0 when nothing comes back — which is also what a denied read "
                            + "looks like; start at null and show \"no data\"", at: index)
                        continue
                    }
                    if tokens[callee].kind == .identifier, tokens[callee].text.hasPrefix("set"), Self.namesHealth(tokens[callee].text) {
                        add("`\(tokens[callee].text)(0)` shows 0 for a health value when nothing came back (or on failure); a denied read looks the same, "
                            + "so keep null and show \"no data\"", at: callee)
                    }
                    continue
                }
                // `.reduce((sum, s) => sum + s.value, 0)` without an emptiness check.
                if previous.isPunctuator(","), healthFile, let open = file.parent[index], tokens[open].isPunctuator("("), open >= 1,
                   tokens[open - 1].isIdentifier("reduce"), file.partner[open] == index + 1,
                   let root = flow.receiverRoot(of: open - 1) {
                    let name = tokens[root].text
                    guard Self.namesHealth(name) || Self.resultWords.contains(where: name.lowercased().contains) else { continue }
                    let scope = flow.function(containing: open).map(\.body) ?? 0..<tokens.count
                    let checksEmpty = scope.contains { i in
                        tokens[i].isIdentifier(name) && i + 2 < tokens.count && tokens[i + 1].isPunctuator(".") && tokens[i + 2].isIdentifier("length")
                    }
                    if !checksEmpty {
                        add("summing `\(name)` from 0 shows 0 when Health returned no samples — also what a denied read returns; check "
                            + "`\(name).length` and show \"no data\"", at: open - 1)
                    }
                    continue
                }
            }
            // `{ steps: 0, sleepHours: 0 }` in a file that reads Health data: one finding per object.
            if healthFile {
                for (open, token) in tokens.enumerated() where token.isPunctuator("{") && file.partner[open] != nil {
                    let zeroed = file.items(of: open).filter { item in
                        item.count == 3 && (tokens[item.lowerBound].kind == .identifier || tokens[item.lowerBound].kind == .string)
                            && tokens[item.lowerBound + 1].isPunctuator(":") && Self.isZero(tokens[item.lowerBound + 2])
                            && Self.namesHealth(tokens[item.lowerBound].value)
                    }
                    guard let first = zeroed.first else { continue }
                    let keys = zeroed.map { "`\(tokens[$0.lowerBound].value)`" }.joined(separator: ", ")
                    let owner = declaredName(of: open, file).map { "`\($0)` gives " } ?? "this object gives "
                    add(owner + keys + " the value 0: when nothing comes back from Health — which is also what a denied read looks like — "
                        + "they read as measured zeros instead of \"no data\"", at: first.lowerBound)
                }
            }
            return findings
        }
    }

    private static func isZero(_ token: JSToken) -> Bool {
        token.kind == .number && (Double(token.text.replacingOccurrences(of: "_", with: "")) ?? 1) == 0
    }

    /// The operand left of a binary operator at `operatorIndex`, up to the nearest boundary.
    private func operand(before operatorIndex: Int, _ file: JavaScriptFile) -> Range<Int> {
        var start = operatorIndex
        var i = operatorIndex - 1
        let boundaries: Set<String> = [",", "=", ":", "?", ";", "=>", "&&", "||", "??", "return", "(", "[", "{"]
        while i >= 0 {
            let token = file.tokens[i]
            if token.isCloser, let open = file.partner[i] { start = open; i = open - 1; continue }
            if (token.kind == .punctuator || token.isIdentifier("return")) && boundaries.contains(token.text) { break }
            start = i
            i -= 1
        }
        return start..<operatorIndex
    }

    private func hookName(before open: Int, _ file: JavaScriptFile) -> String? {
        var i = open - 1
        if i >= 0, file.tokens[i].isPunctuator(">") {
            while i > 0, !file.tokens[i].isPunctuator("<") { i -= 1 }
            i -= 1
        }
        guard i >= 0, file.tokens[i].kind == .identifier else { return nil }
        return file.tokens[i].text
    }

    /// `const [steps, setSteps] = useState(…)` → `steps`.
    private func stateName(of open: Int, _ file: JavaScriptFile) -> String? {
        var i = open - 1
        while i > 0, !file.tokens[i].isPunctuator("=") { if file.tokens[i].isPunctuator(";") { return nil }; i -= 1 }
        guard i > 0, file.tokens[i - 1].isPunctuator("]"), let bracket = file.partner[i - 1], bracket + 1 < file.tokens.count,
              file.tokens[bracket + 1].kind == .identifier else { return nil }
        return file.tokens[bracket + 1].text
    }

    /// `const EMPTY_METRICS: DailyMetrics = {` → `EMPTY_METRICS`.
    private func declaredName(of open: Int, _ file: JavaScriptFile) -> String? {
        var i = open - 1
        guard i >= 1, file.tokens[i].isPunctuator("=") else { return nil }
        i -= 1
        var steps = 0
        while i >= 1, steps < 20 {
            if file.tokens[i].kind == .identifier, ["const", "let", "var"].contains(file.tokens[i - 1].text) { return file.tokens[i].text }
            i -= 1; steps += 1
        }
        return nil
    }
}
