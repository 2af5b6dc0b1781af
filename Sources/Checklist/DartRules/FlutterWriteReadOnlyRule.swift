import Manifest

/// iOS lets apps read, never write, some types; asking to share one raises an exception that the
/// Dart side cannot catch.
struct FlutterWriteReadOnlyRule: Rule {
    static let description = RuleDescription(
        id: "flutter-write-read-only", title: "Write access requested for a type iOS only lets apps read", severity: .error,
        questions: [],
        rationale: """
        HealthKit lets third-party apps read, but never write, characteristics (sex, blood type, date of birth), \
        Apple's exercise, move and stand time, walking heart rate, ECGs and the heart-rate events. `package:health`'s \
        `requestAuthorization` turns `HealthDataAccess.WRITE` or `READ_WRITE` into a request to share the type, and \
        HealthKit answers it with an `NSInvalidArgumentException` ("Authorization to share the following types is \
        disallowed") that ends the app before Dart sees an error. The plugin's own example asks for `READ` only for \
        these types; do the same.
        """,
        triggering: [
            .flutter(["lib/health_service.dart": """
            import 'package:health/health.dart';

            final health = Health();

            Future<void> connect() async {
              await health.↓requestAuthorization(
                [HealthDataType.STEPS, HealthDataType.EXERCISE_TIME],
                permissions: [HealthDataAccess.READ_WRITE, HealthDataAccess.READ_WRITE],
              );
            }
            """]),
            .flutter(["lib/profile.dart": """
            import 'package:health/health.dart';

            class Profile {
              final Health _health = Health();
              static const types = [HealthDataType.WEIGHT, HealthDataType.BIRTH_DATE];

              Future<bool> connect() =>
                  _health.↓requestAuthorization(types, permissions: types.map((t) => HealthDataAccess.READ_WRITE).toList());
            }
            """]),
        ],
        nonTriggering: [
            .flutter(["lib/health_service.dart": """
            import 'package:health/health.dart';

            final health = Health();
            const types = [HealthDataType.STEPS, HealthDataType.EXERCISE_TIME, HealthDataType.WORKOUT];

            Future<void> connect() async {
              await health.requestAuthorization(types);
              await health.requestAuthorization(
                [HealthDataType.STEPS, HealthDataType.EXERCISE_TIME],
                permissions: [HealthDataAccess.READ_WRITE, HealthDataAccess.READ],
              );
            }
            """]),
            // The plugin example's pattern: READ for the read-only types, READ_WRITE for the rest.
            .flutter(["lib/example.dart": """
            import 'package:health/health.dart';

            final health = Health();
            const types = [HealthDataType.STEPS, HealthDataType.GENDER];

            List<HealthDataAccess> get permissions => types
                .map((type) => [HealthDataType.GENDER].contains(type) ? HealthDataAccess.READ : HealthDataAccess.READ_WRITE)
                .toList();

            Future<void> connect() => health.requestAuthorization(types, permissions: permissions);
            """]),
        ]
    )

    /// The plugin's own list of types iOS only lets apps read (its example app's comment).
    static let readOnly: Set<String> = [
        "GENDER", "BLOOD_TYPE", "BIRTH_DATE", "APPLE_MOVE_TIME", "APPLE_STAND_HOUR", "APPLE_STAND_TIME", "WALKING_HEART_RATE",
        "ELECTROCARDIOGRAM", "HIGH_HEART_RATE_EVENT", "LOW_HEART_RATE_EVENT", "IRREGULAR_HEART_RATE_EVENT", "EXERCISE_TIME",
    ]

    func check(_ context: AuditContext) -> [Finding] {
        let files = context.manifest.dartSources
        return context.dartCalls.compactMap { call -> Finding? in
            guard call.method == "requestAuthorization" else { return nil }
            let file = files[call.file]
            let items = file.items(of: call.paren)
            guard let typesItem = items.first, let permissionsItem = items.first(where: { file.tokens[$0.lowerBound].isIdentifier("permissions") }),
                  let types = Self.types(typesItem, in: file, all: files) else { return nil }
            let access = Self.access((permissionsItem.lowerBound + 2)..<permissionsItem.upperBound, in: file, count: types.count)
            guard let bad = zip(types, access).first(where: { Self.readOnly.contains($0.0) && ($0.1 == "WRITE" || $0.1 == "READ_WRITE") }) else { return nil }
            return Finding(ruleID: Self.description.id, severity: Self.description.severity,
                           message: "`HealthDataType.\(bad.0)` is requested with `HealthDataAccess.\(bad.1)`, but iOS only lets apps read it: HealthKit raises "
                               + "an exception the app cannot catch (\"Authorization to share the following types is disallowed\"); ask for READ",
                           location: file.location(of: call.token), quote: file.quote(call.token), target: context.manifest.id)
        }
    }

    /// `HealthDataType.X` names of a literal list, or of the list a name is bound to in the app.
    static func types(_ item: Range<Int>, in file: JavaScriptFile, all files: [JavaScriptFile]) -> [String]? {
        let tokens = file.tokens
        if tokens[item.lowerBound].isPunctuator("[") { return dataTypes(in: item, of: file) }
        guard item.count == 1, tokens[item.lowerBound].kind == .identifier else { return nil }
        let name = tokens[item.lowerBound].text
        // `types = [ … ]` or `get types => [ … ]`, in any file of the app.
        for other in files {
            if let open = other.literal(boundTo: name, opener: "["), let close = other.partner[open] { return dataTypes(in: open..<(close + 1), of: other) }
        }
        return nil
    }

    private static func dataTypes(in range: Range<Int>, of file: JavaScriptFile) -> [String] {
        let t = file.tokens
        return range.compactMap { i in i + 2 < t.count && t[i].isIdentifier("HealthDataType") && t[i + 1].isPunctuator(".") ? t[i + 2].text : nil }
    }

    /// The access per type: a literal list, or one value for all (`types.map((t) => HealthDataAccess.X)`);
    /// empty when a conditional decides it.
    static func access(_ range: Range<Int>, in file: JavaScriptFile, count: Int) -> [String] {
        let t = file.tokens
        guard !range.isEmpty, !range.contains(where: { t[$0].isPunctuator("?") }) else { return [] }
        let values = range.compactMap { i in i + 2 < t.count && t[i].isIdentifier("HealthDataAccess") && t[i + 1].isPunctuator(".") ? t[i + 2].text : nil }
        if t[range.lowerBound].isPunctuator("[") { return values }
        return Set(values).count == 1 ? Array(repeating: values[0], count: count) : []
    }
}
