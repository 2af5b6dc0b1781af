import Manifest

/// A plugin writes to HealthKit, and nothing in the app ever asks for authorization: HealthKit
/// refuses every save with "Authorization not determined" and the person is never asked.
struct WriteWithoutRequestRule: Rule {
    static let description = RuleDescription(
        id: "write-without-request", title: "Data written without ever asking for authorization", severity: .warning,
        questions: [], reads: [.javaScript, .dart],
        rationale: """
        HealthKit saves only what the person allowed the app to share, and only the permission sheet asks. A plugin \
        call that writes (`writeHealthData`, `saveQuantitySample`, `store`) in an app that never calls the plugin's \
        `requestAuthorization` (nor HealthKit's, in its own Swift) fails every time with `HKError.errorAuthorizationNotDetermined`: \
        nothing reaches Health, and the person is never asked. Wrappers make this easy to miss because their \
        Android side may not need the same call. Request the types before the first write.
        """,
        triggering: [
            .flutter(["lib/log_walk.dart": """
            import 'package:health/health.dart';

            final health = Health();

            Future<bool> logWalk(double metres, DateTime start, DateTime end) {
              return health.↓writeHealthData(value: metres, type: HealthDataType.DISTANCE_WALKING_RUNNING, startTime: start, endTime: end);
            }
            """]),
            .reactNative(["js/src/weight.ts": """
            import { saveQuantitySample } from '@kingstinct/react-native-healthkit';

            export async function logWeight(kilograms: number) {
              await ↓saveQuantitySample('HKQuantityTypeIdentifierBodyMass', 'kg', kilograms);
            }
            """]),
        ],
        nonTriggering: [
            .flutter(["lib/log_walk.dart": """
            import 'package:health/health.dart';

            final health = Health();

            Future<bool> logWalk(double metres, DateTime start, DateTime end) {
              return health.writeHealthData(value: metres, type: HealthDataType.DISTANCE_WALKING_RUNNING, startTime: start, endTime: end);
            }
            """, "lib/onboarding.dart": """
            import 'package:health/health.dart';

            Future<void> connect() async {
              await Health().requestAuthorization([HealthDataType.DISTANCE_WALKING_RUNNING], permissions: [HealthDataAccess.READ_WRITE]);
            }
            """]),
            .reactNative(["js/src/weight.ts": """
            import { requestAuthorization, saveQuantitySample } from '@kingstinct/react-native-healthkit';

            export async function logWeight(kilograms: number) {
              await requestAuthorization({ toShare: ['HKQuantityTypeIdentifierBodyMass'] });
              await saveQuantitySample('HKQuantityTypeIdentifierBodyMass', 'kg', kilograms);
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        // Any request anywhere — Swift, any plugin, react-native-health's initHealthKit — may come first.
        guard context.usage.facts(.authorizationRequest).isEmpty, context.manifest.reactNativeHealth?.requests.isEmpty ?? true else { return [] }
        return context.libraryCalls.compactMap { call, file -> Finding? in
            guard call.library != .reactNativeHealth, call.kind == .write, !call.method.hasPrefix("delete") else { return nil }
            return finding("`\(call.method)` writes to HealthKit, but the app never asks for authorization (no `requestAuthorization` anywhere): "
                               + "every save fails with \"Authorization not determined\" and the person is never asked",
                           at: call.token, in: file, target: context.manifest.id)
        }
    }
}
