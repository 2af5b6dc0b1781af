import Manifest

/// `@capgo/capacitor-health`'s `requestAuthorization` resolves with lists of "authorized" types;
/// its read lists hold every requested read type once the sheet was shown.
struct PluginResultAsGrantRule: Rule {
    static let description = RuleDescription(
        id: "plugin-result-as-grant", title: "Plugin's authorization result used as what was allowed", severity: .warning,
        questions: [.completionInterpreted], reads: [.javaScript],
        rationale: """
        `@capgo/capacitor-health`'s `requestAuthorization` resolves with `readAuthorized`, `readDenied`, \
        `shareAuthorized` and `shareDenied`. The share lists come from `authorizationStatus(for:)` and are right; the \
        read lists cannot be, because HealthKit never discloses read permission: once the sheet was shown every read \
        type is listed as authorized. Showing the result, or deciding on its read lists, tells the person they allowed \
        what they may have declined. Use only `shareAuthorized` / `shareDenied`, and treat empty query results as \
        "no data or no access".
        """,
        triggering: [
            .reactNative(["js/src/onboarding.ts": """
            import { Health } from '@capgo/capacitor-health';

            export async function connect(show: (text: string) => void) {
              const result = await Health.requestAuthorization({ read: ['steps', 'heartRate'], write: ['weight'] });
              ↓show(`Allowed: ${result.readAuthorized.join(', ')}`);
            }
            """]),
            .reactNative(["js/src/onboarding.js": """
            import { Health } from '@capgo/capacitor-health';

            export async function connect(setOutput) {
              const result = await Health.requestAuthorization({ read: ['steps'] });
              ↓setOutput({ result });
            }
            """]),
        ],
        nonTriggering: [
            .reactNative(["js/src/onboarding.ts": """
            import { Health } from '@capgo/capacitor-health';

            export async function connect(): Promise<boolean> {
              const result = await Health.requestAuthorization({ read: ['steps'], write: ['weight'] });
              return result.shareAuthorized.includes('weight');
            }

            export async function ask() {
              await Health.requestAuthorization({ read: ['steps'] });
            }
            """]),
            .reactNative(["js/src/onboarding.js": """
            import { Health } from '@capgo/capacitor-health';

            export async function connect(show) {
              const result = await Health.requestAuthorization({ write: ['weight'] });
              show(`Weight can be saved: ${result.shareAuthorized.includes('weight')}`);
            }
            """]),
        ]
    )

    static let truthful: Set<String> = ["shareAuthorized", "shareDenied"]

    func check(_ context: AuditContext) -> [Finding] {
        let files = context.manifest.javaScriptSources
        return context.javaScriptCalls.compactMap { call -> Finding? in
            guard call.library == .capacitorHealth, call.kind == .authorizationRequest else { return nil }
            let file = files[call.file]
            guard let use = PluginResult.uses(of: call, in: file).first(where: { !Self.truthful.contains($0.property ?? "") }) else { return nil }
            let how = use.property.map { "through `\($0)`" } ?? "as a whole"
            return Finding(ruleID: Self.description.id, severity: Self.description.severity,
                           message: "the result of `\(call.method)` (line \(file.tokens[call.token].line)) is used \(how): its read lists hold every requested "
                               + "read type once the sheet was shown, whatever the person chose; use only shareAuthorized / shareDenied",
                           location: file.location(of: PluginResult.lineStart(of: use.token, in: file)), quote: file.quote(use.token), target: context.manifest.id)
        }
    }
}
