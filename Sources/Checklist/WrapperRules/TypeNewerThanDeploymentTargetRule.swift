import Foundation
import Manifest

/// A JavaScript or Dart request names a HealthKit type that does not exist on the oldest iOS the
/// app installs on. Swift cannot make this mistake (the compiler demands `#available`); a string
/// passed through a plugin can, and on the older systems the type is silently missing.
struct TypeNewerThanDeploymentTargetRule: Rule {
    static let description = RuleDescription(
        id: "type-newer-than-deployment-target", title: "Type newer than the deployment target, asked without a version check",
        severity: .warning, questions: [], reads: [.javaScript, .dart],
        rationale: """
        Each HealthKit type first exists in some iOS version (`timeInDaylight` in iOS 17, `stateOfMind` in iOS 18). \
        Swift code cannot name a type newer than `IPHONEOS_DEPLOYMENT_TARGET` without an `#available` check — the \
        compiler refuses — but a plugin receives the type as a string or an enum name and looks it up at run time. \
        On an older system the lookup finds nothing: depending on the plugin the type is silently left out of the \
        request, or the whole call fails, and the feature built on it shows no data with no explanation. \
        Check the system version before asking for the type (`Platform.Version` in React Native, \
        `Platform.operatingSystemVersion` or `device_info_plus` in Flutter), or raise the deployment target.
        """,
        triggering: [
            .reactNative(["js/src/daylight.ts": """
            import { requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function connect() {
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount', ↓'HKQuantityTypeIdentifierTimeInDaylight'] });
            }
            """], buildSettings: ["IPHONEOS_DEPLOYMENT_TARGET": "15.1"]),
            .flutter(["lib/mood.dart": """
            import 'package:health/health.dart';

            Future<void> connect() async {
              await Health().requestAuthorization([HealthDataType.STEPS, ↓HealthDataType.ATRIAL_FIBRILLATION_BURDEN]);
            }
            """], buildSettings: ["IPHONEOS_DEPLOYMENT_TARGET": "14.0"]),
        ],
        nonTriggering: [
            // The deployment target already has the type.
            .reactNative(["js/src/daylight.ts": """
            import { requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function connect() {
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierTimeInDaylight'] });
            }
            """], buildSettings: ["IPHONEOS_DEPLOYMENT_TARGET": "17.0"]),
            // The version is checked before the newer type is asked for.
            .reactNative(["js/src/daylight.ts": """
            import { Platform } from 'react-native';
            import { requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function connect() {
              const daylight = parseInt(String(Platform.Version), 10) >= 17 ? ['HKQuantityTypeIdentifierTimeInDaylight'] : [];
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount', ...daylight] });
            }
            """], buildSettings: ["IPHONEOS_DEPLOYMENT_TARGET": "15.1"]),
            // No deployment target is known: nothing to compare with.
            .flutter(["lib/mood.dart": """
            import 'package:health/health.dart';

            Future<void> connect() async {
              await Health().requestAuthorization([HealthDataType.ATRIAL_FIBRILLATION_BURDEN]);
            }
            """]),
        ]
    )

    /// Words of a system-version check in the file that asks: the request is then taken as guarded.
    static let versionChecks = ["Platform.Version", "osVersion", "systemVersion", "operatingSystemVersion", "getSystemVersion", "DeviceInfoPlugin"]

    func check(_ context: AuditContext) -> [Finding] {
        guard let target = context.deploymentTarget else { return [] }
        let newer = context.wrapperRequests.filter { ($0.type.minimumIOS ?? 0) > target.major }
        guard !newer.isEmpty else { return [] }
        // Files that check the system version anywhere: their requests are taken as guarded.
        let guarded = Set((context.manifest.javaScriptSources + context.manifest.dartSources)
            .filter { file in Self.versionChecks.contains { file.text.contains($0) } }.map(\.path))
        var cited: Set<String> = []
        return newer.compactMap { request -> Finding? in
            let location = request.evidence.location
            guard let introduced = request.type.minimumIOS, !guarded.contains(location.file),
                  cited.insert("\(location.file):\(location.line ?? 0) \(request.type.name)").inserted else { return nil }
            let range = introduced - 1 == target.major ? "iOS \(target.major)" : "iOS \(target.major)–\(introduced - 1)"
            return finding("`\(request.written)` (\(request.type.name)) first exists in iOS \(introduced), but the app installs on iOS \(target.written) "
                           + "(IPHONEOS_DEPLOYMENT_TARGET\(target.origin.map { " at \($0)" } ?? "")): on \(range) HealthKit has no such type, "
                           + "so \(request.library.rawValue) cannot ask for it; check the system version first or raise the deployment target",
                           at: location, quote: request.evidence.quote, target: context.manifest.id)
        }
    }
}
