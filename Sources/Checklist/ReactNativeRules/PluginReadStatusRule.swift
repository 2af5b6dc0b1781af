import Manifest

/// `@capgo/capacitor-health`'s `checkAuthorization` answers for read types too; HealthKit never
/// tells an app whether it may read, so that half of the answer is a guess.
struct PluginReadStatusRule: Rule {
    static let description = RuleDescription(
        id: "plugin-read-status", title: "Read permission asked of a plugin that cannot know it", severity: .warning,
        questions: [.readStatusProbed],
        rationale: """
        HealthKit never discloses whether an app may read a type. `@capgo/capacitor-health`'s `checkAuthorization` \
        nevertheless returns `readAuthorized` / `readDenied` lists for the `read` types it is given: it derives them \
        from `getRequestStatusForAuthorization`, which only says whether the permission sheet was already shown. Once \
        it was, every read type is listed as authorized, whatever the person chose. Asking it about `read` types is an \
        attempt to learn read permission; query the data and treat an empty result as "no data or no access".
        """,
        triggering: [
            .reactNative(["js/src/access.ts": """
            import { Health } from '@capgo/capacitor-health';

            export async function canShowSteps(): Promise<boolean> {
              const status = await Health.↓checkAuthorization({ read: ['steps'], write: [] });
              return status.readAuthorized.includes('steps');
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
            """]),
        ],
        nonTriggering: [
            .reactNative(["js/src/access.ts": """
            import { Health } from '@capgo/capacitor-health';

            export async function canLogWeight(): Promise<boolean> {
              const status = await Health.checkAuthorization({ write: ['weight'] });
              return status.shareAuthorized.includes('weight');
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
            guard call.library == .capacitorHealth, call.method == "checkAuthorization" else { return nil }
            let file = files[call.file]
            guard PluginResult.arguments(of: call, in: file).contains(where: { $0.hasPrefix("read") }) else { return nil }
            return Finding(ruleID: Self.description.id, severity: Self.description.severity,
                           message: "`checkAuthorization` is asked about `read` types: HealthKit never discloses read permission, and the plugin lists "
                               + "every read type as authorized once the sheet was shown; query the data and treat an empty result as no data",
                           location: file.location(of: call.token), quote: file.quote(call.token), target: context.manifest.id)
        }
    }
}
