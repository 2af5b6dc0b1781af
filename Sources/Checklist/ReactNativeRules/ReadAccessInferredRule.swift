import Manifest

/// "Every read came back empty, so the person must have denied access": read permission inferred
/// from query results. HealthKit answers a denied read exactly like a read with no data.
struct ReadAccessInferredRule: Rule {
    static let description = RuleDescription(
        id: "read-access-inferred", title: "Read access inferred from empty results", severity: .warning,
        questions: [.readStatusProbed], reads: [.javaScript],
        rationale: """
        HealthKit never tells an app whether it may read a type: a denied read returns **no samples, without an error** \
        — exactly what a new phone, a day without a watch, or data that has not synced yet returns. An app that \
        concludes "the person denied access" because its reads came back empty (`permissionLikelyDenied = steps == null \
        && sleep == null`) probes read permission through its queries, which is question 3's anti-pattern: it tells \
        people who allowed everything that they did not, and builds flows on a guess.

        Say what is known instead — "No data from Health yet. If you expected some, check Health › Data Access & \
        Devices" — without deciding that access was denied. Only a name that says access was denied (`…Denied`, \
        `…Revoked`, `noAccess`) given a test of Health values for being empty (`== null`, `=== 0`, `.length === 0`, `!x`) \
        is reported; an error's code is `rn-callback-error-as-denial`'s.
        """,
        triggering: [
            .reactNative(["js/src/hooks/useHealthSync.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            const readSteps = (): Promise<HealthValue[] | null> =>
              new Promise((resolve) => AppleHealthKit.getDailyStepCountSamples({ startDate: new Date(0).toISOString() }, (e: string, r: HealthValue[]) => resolve(e ? null : r)));
            const readSleep = (): Promise<HealthValue[] | null> =>
              new Promise((resolve) => AppleHealthKit.getSleepSamples({ startDate: new Date(0).toISOString() }, (e: string, r: HealthValue[]) => resolve(e ? null : r)));

            export async function syncHealth() {
              const steps = await readSteps();
              const sleep = await readSleep();
              // iOS hides read denial; if everything came back empty the person most likely said no.
              const ↓permissionLikelyDenied =
                steps == null &&
                sleep == null;
              return { steps, sleep, permissionLikelyDenied };
            }
            """]),
            .reactNative(["js/src/heart.ts": """
            import { queryQuantitySamples } from '@kingstinct/react-native-healthkit';

            export async function heartRateLabel(): Promise<string> {
              const samples = await queryQuantitySamples('HKQuantityTypeIdentifierHeartRate', { limit: 1, unit: 'count/min' });
              const ↓healthAccessRevoked = samples.length === 0;
              return healthAccessRevoked ? 'Turn Health access back on in Settings' : `${samples[0].quantity} bpm`;
            }
            """]),
        ],
        nonTriggering: [
            // Empty results shown as "no data", with no conclusion about access.
            .reactNative(["js/src/hooks/useHealthSync.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            const readSteps = (): Promise<HealthValue[] | null> =>
              new Promise((resolve) => AppleHealthKit.getDailyStepCountSamples({ startDate: new Date(0).toISOString() }, (e: string, r: HealthValue[]) => resolve(e ? null : r)));

            export async function syncHealth() {
              const steps = await readSteps();
              const noData = steps == null || steps.length === 0;
              return { steps, noData };
            }
            """]),
            // A denial named from the app's own settings, not from what the reads returned.
            .reactNative(["js/src/settings.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export function load(settings: { healthOptOut?: boolean }, onSteps: (v: number | null) => void) {
              const syncDenied = settings.healthOptOut === true;
              if (syncDenied) return;
              AppleHealthKit.getStepCount({}, (e: string, r: HealthValue) => onSteps(e || !r ? null : r.value));
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let files = context.manifest.javaScriptSources
        guard !files.isEmpty, !context.javaScriptCalls.isEmpty else { return [] }
        let values = HealthValues(files: files, calls: context.javaScriptCalls)
        var findings: [Finding] = []
        for (index, file) in files.enumerated() {
            let tokens = file.tokens
            for (i, token) in tokens.enumerated() where token.kind == .identifier && Self.namesDenial(token.text) {
                // `const NAME =` / `NAME =` (not `==`, not a member `x.NAME =`, not a key `NAME:`).
                guard i + 2 < tokens.count, tokens[i + 1].isPunctuator("="),
                      !(i >= 1 && (tokens[i - 1].isPunctuator(".") || tokens[i - 1].isPunctuator("?."))) else { continue }
                let value = HealthValues.expression(from: i + 2, in: file)
                let tested = Self.emptinessTests(in: value, file).filter { values.carries($0, in: index) }
                guard !tested.isEmpty else { continue }
                let names = tested.prefix(3).map { "`\(file.text(of: $0))`" }.joined(separator: ", ")
                findings.append(finding("`\(token.text)` concludes that access was denied because Health returned nothing (\(names)\(tested.count > 3 ? ", …" : "")): "
                                        + "HealthKit answers a denied read exactly like a read with no data, so this probes read permission through "
                                        + "queries; show \"no data\" and point to Health's settings without deciding why",
                                        at: i, in: file, target: context.manifest.id))
            }
        }
        return findings
    }

    /// `permissionLikelyDenied`, `healthAccessRevoked`, `noReadAccess`: a name that states access was refused.
    static func namesDenial(_ name: String) -> Bool {
        let lower = name.lowercased()
        let refused = ["denied", "denial", "revoked"].contains(where: lower.contains)
            || ["noaccess", "noreadaccess", "nopermission", "missingaccess", "missingpermission", "lacksaccess"].contains(where: lower.contains)
        guard refused else { return false }
        return ["permission", "access", "auth", "health", "read", "likely", "probably"].contains(where: lower.contains)
    }

    /// The operands tested for being empty in an expression: `x == null`, `x === undefined`, `x === 0`,
    /// `x <= 0`, `x.length === 0`, `!x`; only when every operand the expression tests is such a test
    /// (an error's code, a setting or a status compared to a name is something else).
    static func emptinessTests(in range: Range<Int>, _ file: JavaScriptFile) -> [Range<Int>] {
        let tokens = file.tokens
        var tested: [Range<Int>] = []
        var i = range.lowerBound
        var operandStart = range.lowerBound
        while i < range.upperBound {
            let token = tokens[i]
            if token.isPunctuator("&&") || token.isPunctuator("||") { operandStart = i + 1; i += 1; continue }
            if token.isPunctuator("("), let close = file.partner[i], close < range.upperBound, operandStart == i {
                // A parenthesized group: its own tests.
                let inner = emptinessTests(in: (i + 1)..<close, file)
                if inner.isEmpty { return [] }
                tested += inner
                i = close + 1
                operandStart = i
                continue
            }
            if ["==", "===", "<=", "<"].contains(where: token.isPunctuator), i + 1 < range.upperBound {
                let right = tokens[i + 1]
                let empty = right.isIdentifier("null") || right.isIdentifier("undefined")
                    || (right.kind == .number && Double(right.text) == 0 && !token.isPunctuator("<"))
                guard empty, operandStart < i else { return [] }
                var operand = operandStart..<i
                // `x.length === 0` tests `x`.
                if operand.count >= 3, tokens[i - 1].isIdentifier("length"), tokens[i - 2].isPunctuator(".") || tokens[i - 2].isPunctuator("?.") {
                    operand = operandStart..<(i - 2)
                }
                tested.append(operand)
                i += 2
                continue
            }
            if token.isPunctuator("!"), operandStart == i, i + 1 < range.upperBound, tokens[i + 1].kind == .identifier {
                var end = i + 2
                while end + 1 < range.upperBound, tokens[end].isPunctuator(".") || tokens[end].isPunctuator("?."), tokens[end + 1].kind == .identifier { end += 2 }
                tested.append((i + 1)..<end)
                i = end
                continue
            }
            if ["!=", "!==", ">", ">=", "?", ":"].contains(where: token.isPunctuator) { return [] }
            i += 1
        }
        return tested
    }
}
