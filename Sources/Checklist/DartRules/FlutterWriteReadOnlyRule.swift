import Manifest

/// iOS lets apps read, never write, some types; asking to share one raises an exception that the
/// Dart side cannot catch.
struct FlutterWriteReadOnlyRule: Rule {
    static let description = RuleDescription(
        id: "flutter-write-read-only", title: "Write access requested for a type iOS only lets apps read", severity: .error,
        questions: [], reads: [.dart],
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
              await health.requestAuthorization(
                [HealthDataType.STEPS, ↓HealthDataType.EXERCISE_TIME],
                permissions: [HealthDataAccess.READ_WRITE, HealthDataAccess.READ_WRITE],
              );
            }
            """]),
            .flutter(["lib/profile.dart": """
            import 'package:health/health.dart';

            class Profile {
              final Health _health = Health();
              static const types = [HealthDataType.WEIGHT, ↓HealthDataType.APPLE_MOVE_TIME];

              Future<bool> connect() =>
                  _health.requestAuthorization(types, permissions: types.map((t) => HealthDataAccess.READ_WRITE).toList());
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

    /// Judges the types `requestAuthorization` asks to write (`WrapperRequestedTypes`): whether iOS
    /// lets apps share them comes from the catalogue, through the plugin's names.
    func check(_ context: AuditContext) -> [Finding] {
        context.wrapperRequests.compactMap { request -> Finding? in
            guard request.library == .flutterHealth, request.direction == .share, !request.type.isShareable else { return nil }
            return finding("`\(request.written)` is requested with write access (HealthDataAccess.WRITE or READ_WRITE), but iOS only lets apps "
                               + "read it: the whole request fails — the plugin throws before asking, or HealthKit raises NSInvalidArgumentException "
                               + "(\"Authorization to share the following types is disallowed: \(request.type.identifier)\"), which ends the app; ask for READ",
                           at: request.evidence.location, quote: request.evidence.quote, target: context.manifest.id)
        }
    }
}
