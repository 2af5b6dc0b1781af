/// A package known to link HealthKit, and what it does with it: the maintained table behind
/// `HealthKitDependencies`. Each flag was read from the package's own source (see `table`).
public struct HealthKitPackage: Sendable, Hashable {
    public enum Ecosystem: String, Sendable, CaseIterable {
        case npm, pub, cocoapods = "CocoaPods", swiftPM = "SwiftPM"
    }

    public let ecosystem: Ecosystem
    /// As the ecosystem's lockfile writes it (SwiftPM: the package identity, lower-cased).
    public let name: String
    /// Saves samples (`HKHealthStore.save`, workout builders).
    public let writes: Bool
    /// Runs `HKWorkoutSession` / `HKLiveWorkoutBuilder`.
    public let workoutSession: Bool
    /// References clinical records (`HKClinicalType`), which App Review treats as a Health Records app.
    public let clinical: Bool
    /// A framework an app builds on (ResearchKit, CareKit, Spezi) rather than a plugin whose calls
    /// are the app's own: its HealthKit use is whatever the app configures.
    public let isSDK: Bool
    /// The audit reads the app's calls of this package (react-native-health, kingstinct, Capacitor's
    /// and Cordova's plugins, `package:health`): only then can it say the app never uses it.
    public let callsAnalysed: Bool
    /// The pods an npm or pub plugin installs: the same library seen from its iOS side.
    public let pods: [String]

    public static func named(_ name: String, in ecosystem: Ecosystem) -> HealthKitPackage? {
        byName[ecosystem.rawValue + " " + (ecosystem == .swiftPM ? name.lowercased() : name)]
    }

    /// `ecosystem name flags`: w = writes, s = workout session, c = clinical records, k = an SDK,
    /// a = the audit reads the app's calls of it;
    /// `pod=` names the pods a plugin installs, which its Podfile.lock row is folded into.
    /// Each flag was read in the package's source (save calls, `HKWorkoutSession`, `HKClinicalType`);
    /// a library appears once per ecosystem it is published in (react-native-health is an npm package
    /// whose pod is `RNAppleHealthKit`). Wrappers that link nothing themselves
    /// (`@awesome-cordova-plugins/health`) are absent: the plugin they wrap is the dependency.
    /// Version-dependent flags are left off (kingstinct ran workout sessions in 8.7.0 and 9.0.0–9.0.7 only).
    private static let rows = """
        npm react-native-health w c a pod=RNAppleHealthKit
        npm @kingstinct/react-native-healthkit w a pod=ReactNativeHealthkit pod=kingstinct-react-native-healthkit
        npm @react-native-healthkit/health-records c pod=ReactNativeHealthkitHealthRecords
        npm rn-apple-healthkit w pod=RCTAppleHealthKit
        npm react-native-apple-healthkit w
        npm @capgo/capacitor-health w a pod=CapgoCapacitorHealth
        npm capacitor-health pod=CapacitorHealth
        npm @perfood/capacitor-healthkit pod=PerfoodCapacitorHealthkit pod=CapacitorHealthkit
        npm cordova-plugin-health w a
        npm com.telerik.plugins.healthkit w
        pub health w a pod=health
        pub health_kit_reporter w c pod=health_kit_reporter pod=HealthKitReporter
        CocoaPods RNAppleHealthKit w c
        CocoaPods ReactNativeHealthkit w
        CocoaPods kingstinct-react-native-healthkit w
        CocoaPods ReactNativeHealthkitHealthRecords c
        CocoaPods RCTAppleHealthKit w
        CocoaPods CapgoCapacitorHealth w
        CocoaPods CapacitorHealth
        CocoaPods PerfoodCapacitorHealthkit
        CocoaPods CapacitorHealthkit
        CocoaPods health w
        CocoaPods health_kit_reporter w c
        CocoaPods HealthKitReporter w c
        CocoaPods ResearchKit c k
        CocoaPods CareKit k
        CocoaPods CardinalKit k
        SwiftPM spezihealthkit c k
        SwiftPM healthkitonfhir c k
        SwiftPM carekit w c k
        SwiftPM healthkitreporter w c
        SwiftPM capacitor-health w
        """

    public static let table: [HealthKitPackage] = rows.split(separator: "\n").map { row in
        let fields = row.split(separator: " ").map(String.init)
        let flags = Set(fields.dropFirst(2))
        return HealthKitPackage(ecosystem: Ecosystem(rawValue: fields[0])!, name: fields[1], writes: flags.contains("w"),
                                workoutSession: flags.contains("s"), clinical: flags.contains("c"), isSDK: flags.contains("k"), callsAnalysed: flags.contains("a"),
                                pods: flags.filter { $0.hasPrefix("pod=") }.map { String($0.dropFirst(4)) }.sorted())
    }

    private static let byName = Dictionary(table.map { ($0.ecosystem.rawValue + " " + $0.name, $0) }, uniquingKeysWith: { first, _ in first })
}
