import Foundation
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

/// The keys of a plugin call's options object, and how its awaited result is used afterwards.
enum PluginResult {
    /// Keys of the object literal passed first (`{ read: […], write: […] }` → `read`, `write`), or of
    /// the variable's literal when a name is passed; empty when neither is visible.
    static func arguments(of call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> [String] {
        let tokens = file.tokens
        guard let first = file.items(of: call.paren).first, let open = first.first else { return [] }
        var object = open
        if tokens[open].kind == .identifier, first.count == 1 {
            // `requestAuthorization(options)` with `const options = { … }` earlier in the file.
            let name = tokens[open].text
            guard let declared = tokens.indices.last(where: { $0 + 2 < open && tokens[$0].isIdentifier(name) && tokens[$0 + 1].isPunctuator("=") && tokens[$0 + 2].isPunctuator("{") })
            else { return [] }
            object = declared + 2
        }
        guard tokens[object].isPunctuator("{") else { return [] }
        return file.items(of: object).compactMap { item in item.first.map { tokens[$0] }.flatMap { $0.kind == .identifier || $0.kind == .string ? $0.value : nil } }
    }

    /// Uses of the name the awaited result is bound to (`const result = await Health.x(…)`): the
    /// property read after it, or nil when the whole value is used.
    static func uses(of call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> [(token: Int, property: String?)] {
        let tokens = file.tokens
        var before = file.chain(endingAt: call.token).start - 1
        if before >= 0, tokens[before].isIdentifier("await") { before -= 1 }
        guard before >= 1, tokens[before].isPunctuator("="), tokens[before - 1].kind == .identifier, let close = file.partner[call.paren] else { return [] }
        let name = tokens[before - 1].text
        var uses: [(token: Int, property: String?)] = []
        for index in tokens.indices where index > close {
            if tokens[index].isIdentifier(name), !(index >= 1 && tokens[index - 1].isPunctuator(".")) {
                let property = index + 2 < tokens.count && (tokens[index + 1].isPunctuator(".") || tokens[index + 1].isPunctuator("?.")) ? tokens[index + 2].text : nil
                uses.append((index, property))
            } else if tokens[index].kind == .template {
                // A template literal is one token: its `${result.readAuthorized}` is read from the text.
                uses += templateUses(of: name, in: tokens[index].value).map { (index, $0) }
            }
        }
        return uses
    }

    /// `name` or `name.property` inside a template's `${…}`: the property, or nil for the whole value.
    private static func templateUses(of name: String, in text: String) -> [String?] {
        guard let pattern = try? NSRegularExpression(pattern: "(?<![\\w$.])" + NSRegularExpression.escapedPattern(for: name) + "(?![\\w$])(?:\\??\\.([A-Za-z_$][\\w$]*))?") else { return [] }
        var found: [String?] = []
        var depth = 0, start = text.startIndex, index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("${") {
                if depth == 0 { start = text.index(index, offsetBy: 2) }
                depth += 1
                index = text.index(index, offsetBy: 2)
                continue
            }
            if text[index] == "}", depth > 0 {
                depth -= 1
                if depth == 0 {
                    let expression = String(text[start..<index])
                    let range = NSRange(expression.startIndex..., in: expression)
                    for match in pattern.matches(in: expression, range: range) {
                        found.append(Range(match.range(at: 1), in: expression).map { String(expression[$0]) })
                    }
                }
            }
            index = text.index(after: index)
        }
        return found
    }

    /// The first token on the line of `index`: where a finding about that line's statement points.
    static func lineStart(of index: Int, in file: JavaScriptFile) -> Int {
        var start = index
        while start > 0, file.tokens[start - 1].line == file.tokens[index].line { start -= 1 }
        return start
    }
}
