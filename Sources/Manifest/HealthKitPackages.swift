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

    public static func named(_ name: String, in ecosystem: Ecosystem) -> HealthKitPackage? {
        byName[ecosystem.rawValue + " " + (ecosystem == .swiftPM ? name.lowercased() : name)]
    }

    /// `ecosystem name flags`: w = writes, s = workout session, c = clinical records, k = an SDK.
    /// Each flag was read in the package's source (save calls, `HKWorkoutSession`, `HKClinicalType`);
    /// a library appears once per ecosystem it is published in (react-native-health is an npm package
    /// whose pod is `RNAppleHealthKit`). Wrappers that link nothing themselves
    /// (`@awesome-cordova-plugins/health`) are absent: the plugin they wrap is the dependency.
    /// Version-dependent flags are left off (kingstinct ran workout sessions in 8.7.0 and 9.0.0–9.0.7 only).
    private static let rows = """
        npm react-native-health w c
        npm @kingstinct/react-native-healthkit w
        npm @react-native-healthkit/health-records c
        npm rn-apple-healthkit w
        npm react-native-apple-healthkit w
        npm @capgo/capacitor-health w
        npm capacitor-health
        npm @perfood/capacitor-healthkit
        npm cordova-plugin-health w
        npm com.telerik.plugins.healthkit w
        pub health w
        pub health_kit_reporter w c
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
                                workoutSession: flags.contains("s"), clinical: flags.contains("c"), isSDK: flags.contains("k"))
    }

    private static let byName = Dictionary(table.map { ($0.ecosystem.rawValue + " " + $0.name, $0) }, uniquingKeysWith: { first, _ in first })
}
