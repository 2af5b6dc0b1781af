import Manifest

/// `package:health`'s `hasPermissions` cannot know read access on iOS and says so with `null`;
/// `?? false`, `== true` or `!` turn "unknown" into an answer.
struct FlutterPermissionsUnknownRule: Rule {
    static let description = RuleDescription(
        id: "flutter-permissions-unknown", title: "Unknown read permission taken as an answer", severity: .warning,
        questions: [.readStatusProbed], reads: [.dart],
        rationale: """
        On iOS, `package:health`'s `hasPermissions` returns `null` whenever read access is involved: HealthKit never \
        discloses whether an app may read, so the plugin cannot know. Code that decides on it — `?? false`, `== true`, \
        `!`, an `if` — is an attempt to learn read permission, and `?? false` turns "unknown" into "denied": the app \
        asks again and again, or hides data the person allowed. Request authorization when the app needs the data, \
        read, and treat an empty result as "no data or no access".
        """,
        triggering: [
            // Null told apart, then answered anyway: asking again and returning what the request said.
            .flutter(["lib/health_service.dart": """
            import 'package:health/health.dart';

            class HealthService {
              final Health _health = Health();

              Future<bool> requestPermissions() async => await _health.requestAuthorization([HealthDataType.STEPS]);

              Future<bool> hasPermissions() async {
                final result = await _health.↓hasPermissions([HealthDataType.STEPS]);
                if (result == null) {
                  final granted = await requestPermissions();
                  return granted;
                }
                return result;
              }
            }
            """, "lib/profile.dart": """
            import 'health_service.dart';

            Future<String> status() async => await HealthService().hasPermissions() ? 'Connected' : 'Apple Health permissions were revoked';
            """]),
            // The answer bound to a name first, then decided on.
            .flutter(["lib/permissions.dart": """
            import 'package:health/health.dart';

            class HealthService {
              final Health _health = Health();

              Future<bool> hasAccess() async {
                final known = await _health.↓hasPermissions([HealthDataType.STEPS], permissions: [HealthDataAccess.READ]);
                final result = known ?? false;
                return result;
              }
            }
            """, "lib/home.dart": """
            import 'permissions.dart';

            Future<String> greeting() async => await HealthService().hasAccess() ? 'Your steps' : 'Connect Apple Health';
            """]),
            .flutter(["lib/steps.dart": """
            import 'package:health/health.dart';

            final health = Health();

            Future<void> ensureAccess() async {
              final granted = await health.↓hasPermissions([HealthDataType.STEPS]) ?? false;
              if (!granted) {
                await health.requestAuthorization([HealthDataType.STEPS]);
              }
            }
            """]),
            .flutter(["lib/sleep.dart": """
            import 'package:health/health.dart';

            class SleepRepository {
              final Health _health = Health();

              Future<bool> canRead() async {
                return await _health.↓hasPermissions([HealthDataType.SLEEP_ASLEEP], permissions: [HealthDataAccess.READ]) == true;
              }
            }
            """, "lib/sleep_screen.dart": """
            import 'sleep.dart';

            Future<String> title() async {
              return await SleepRepository().canRead() ? 'Sleep' : 'Connect Health';
            }
            """]),
        ],
        nonTriggering: [
            // Decided inside the app's own wrapper, which nothing in the app calls.
            .flutter(["lib/health_service.dart": """
            import 'package:health/health.dart';

            abstract class HealthAccess {
              Future<bool> hasPermissions();
            }

            class HealthService implements HealthAccess {
              final Health _health = Health();

              @override
              Future<bool> hasPermissions() async {
                return await _health.hasPermissions([HealthDataType.STEPS]) ?? false;
              }
            }
            """]),
            .flutter(["lib/steps.dart": """
            import 'package:health/health.dart';

            final health = Health();

            Future<int> todaysSteps() async {
              await health.requestAuthorization([HealthDataType.STEPS]);
              return await health.getTotalStepsInInterval(DateTime.now().subtract(const Duration(days: 1)), DateTime.now()) ?? 0;
            }
            """]),
            // Code that tells iOS's null apart asks when the answer is unknown and never takes it as
            // one (lotti's permission gate, written for Health Connect's definite answers too).
            .flutter(["lib/gate.dart": """
            import 'package:health/health.dart';

            enum Access { granted, denied, undisclosed }

            class Gate {
              final Health _health = Health();

              Future<Access> ensure(List<HealthDataType> types) async {
                final known = await _health.hasPermissions(types);
                if (known ?? false) {
                  return Access.granted;
                }
                final asked = await _health.requestAuthorization(types);
                if (known == null) {
                  return asked ? Access.undisclosed : Access.denied;
                }
                final granted = await _health.hasPermissions(types) ?? false;
                return granted ? Access.granted : Access.denied;
              }
            }
            """]),
            // Another object's hasPermissions is not the plugin's.
            .flutter(["lib/camera.dart": """
            import 'package:health/health.dart';

            Future<bool> cameraReady(CameraService camera) async {
              return await camera.hasPermissions(['camera']) ?? false;
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let files = context.manifest.dartSources
        return context.dartCalls.compactMap { call -> Finding? in
            guard call.method == "hasPermissions" else { return nil }
            let file = files[call.file]
            guard let how = Self.decision(call, in: file), !Self.toldApartFromNull(call, in: file) else { return nil }
            // Decided inside the app's own wrapper that nothing calls: it never runs.
            if let wrapper = AppWrapper.around(call, in: file), wrapper.callers(in: files, like: call, libraryCalls: context.dartCalls).isEmpty { return nil }
            return finding("`hasPermissions` is decided on (\(how)), but on iOS it returns null for read access, which HealthKit never "
                               + "discloses: \"unknown\" is taken as an answer; request when needed and treat empty results as no data or no access",
                           at: call.token, in: file, target: context.manifest.id)
        }
    }

    /// Whether the function around the call tells "undisclosed" apart: it compares a `hasPermissions`
    /// result bound to a name with `null` (`if (known == null) return undisclosed;`). Such code knows
    /// iOS's `null` is no answer; its `?? false` only decides whether to ask (lotti's permission gate,
    /// written for Health Connect's definite answers and HealthKit's none).
    static func toldApartFromNull(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        // The function's body: the outermost enclosing `{` that follows `)` or `async` (a class body follows a name).
        var body: Int?
        var bracket = file.parent[call.token]
        while let open = bracket {
            if tokens[open].isPunctuator("{"), open > 0, tokens[open - 1].isPunctuator(")") || tokens[open - 1].isIdentifier("async") { body = open }
            bracket = file.parent[open]
        }
        guard let open = body, let close = file.partner[open] else { return false }
        // Names bound to a `hasPermissions` result in that body: `final known = await x.hasPermissions(…)`.
        var names: Set<String> = []
        for index in open..<close where tokens[index].isIdentifier("hasPermissions") {
            var start = index - 1
            while start > open, !tokens[start].isPunctuator("=") && !tokens[start].isPunctuator(";") && !tokens[start].isPunctuator("{") { start -= 1 }
            if tokens[start].isPunctuator("="), tokens[start - 1].kind == .identifier { names.insert(tokens[start - 1].text) }
        }
        guard !names.isEmpty else { return false }
        for index in (open + 1)..<max(close - 1, open + 1) where tokens[index].isPunctuator("==") || tokens[index].isPunctuator("!=") {
            let left = tokens[index - 1], right = tokens[index + 1]
            if (right.isIdentifier("null") && left.kind == .identifier && names.contains(left.text))
                || (left.isIdentifier("null") && right.kind == .identifier && names.contains(right.text)),
               !(tokens[index].isPunctuator("==") && answersNull(comparison: index, in: file)) { return true }
        }
        return false
    }

    /// `if (known == null) { final granted = await requestPermissions(); return granted; }`: the
    /// unknown answer is replaced by a plain yes or no (`true`, `false`, or what the request just
    /// returned) — "unknown" still ends up as an answer, so null was not told apart.
    private static func answersNull(comparison: Int, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        guard let paren = file.parent[comparison], tokens[paren].isPunctuator("("), paren >= 1, tokens[paren - 1].isIdentifier("if"),
              let closeParen = file.partner[paren], closeParen + 1 < tokens.count, tokens[closeParen + 1].isPunctuator("{"),
              let end = file.partner[closeParen + 1] else { return false }
        let block = (closeParen + 2)..<end
        for k in block where tokens[k].isIdentifier("return") && k + 2 < end && tokens[k + 2].isPunctuator(";") {
            let value = tokens[k + 1]
            if value.isIdentifier("true") || value.isIdentifier("false") { return true }
            // A name bound in the branch to an awaited call: `final granted = await requestPermissions();`.
            if value.kind == .identifier, block.contains(where: { i in
                tokens[i].isIdentifier(value.text) && i + 2 < end && tokens[i + 1].isPunctuator("=") && tokens[i + 2].isIdentifier("await")
            }) { return true }
        }
        return false
    }

    /// How the result decides something: `?? x`, `== true` / `!= null`, or a condition.
    static func decision(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> String? {
        guard let close = file.partner[call.paren] else { return nil }
        let tokens = file.tokens
        if close + 1 < tokens.count {
            let next = tokens[close + 1]
            if next.isPunctuator("??") { return "`?? \(close + 2 < tokens.count ? tokens[close + 2].text : "…")`" }
            if next.isPunctuator("==") || next.isPunctuator("!=") { return "`\(next.text) \(close + 2 < tokens.count ? tokens[close + 2].text : "…")`" }
        }
        if JavaScriptHealthKitFacts.decides(call, in: file) { return "a condition" }
        // `final known = await h.hasPermissions(…);` then `known ?? false`, `known == true`, `if (known)` in the same function.
        guard let name = call.resultName(in: file) else { return nil }
        let end = Self.functionEnd(around: call.token, in: file) ?? tokens.count
        for index in (close + 1)..<end where tokens[index].isIdentifier(name) && !(index >= 1 && tokens[index - 1].isPunctuator(".")) {
            guard index + 1 < tokens.count else { break }
            let next = tokens[index + 1]
            if next.isPunctuator("="), !(index >= 1 && tokens[index - 1].isPunctuator("==")) { break }  // bound anew
            if next.isPunctuator("??") { return "`\(name) ?? \(index + 2 < tokens.count ? tokens[index + 2].text : "…")`" }
            if next.isPunctuator("==") || next.isPunctuator("!="), index + 2 < tokens.count,
               tokens[index + 2].isIdentifier("true") || tokens[index + 2].isIdentifier("false") {
                return "`\(name) \(next.text) \(tokens[index + 2].text)`"
            }
            if index >= 1, tokens[index - 1].isPunctuator("!") { return "`!\(name)`" }
            if index >= 2, tokens[index - 1].isPunctuator("("), tokens[index - 2].isIdentifier("if"), next.isPunctuator(")") { return "`if (\(name))`" }
        }
        return nil
    }

    /// The `}` closing the outermost function body around `index` (a class body follows a name).
    private static func functionEnd(around index: Int, in file: JavaScriptFile) -> Int? {
        let tokens = file.tokens
        var end: Int?
        var bracket = file.parent[index]
        while let open = bracket {
            if tokens[open].isPunctuator("{"), open > 0, tokens[open - 1].isPunctuator(")") || tokens[open - 1].isIdentifier("async") { end = file.partner[open] }
            bracket = file.parent[open]
        }
        return end
    }
}
