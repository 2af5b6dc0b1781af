/// A package known to link HealthKit, and what it does with it, as one library of
/// `HealthKitLibrary.registry` is published in an ecosystem: what `HealthKitDependencies` looks for.
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
    /// Turns on background delivery itself (`enableBackgroundDelivery` in its own collectors), so
    /// the app's entitlement for it is used though the app's code never calls it.
    public let backgroundDelivery: Bool

    public static func named(_ name: String, in ecosystem: Ecosystem) -> HealthKitPackage? {
        byName[ecosystem.rawValue + " " + (ecosystem == .swiftPM ? name.lowercased() : name)]
    }

    /// One package per line, `ecosystem name flags`: w = writes, s = workout session, c = clinical
    /// records, k = an SDK, a = the audit reads the app's calls of it, b = enables background delivery; `pod=` names the pods a plugin
    /// installs, which its Podfile.lock row is folded into. Each flag was read in the package's source
    /// (save calls, `HKWorkoutSession`, `HKClinicalType`); a library lists each ecosystem it is
    /// published in (react-native-health is an npm package whose pod is `RNAppleHealthKit`).
    static func rows(_ text: String) -> [HealthKitPackage] {
        text.split(separator: "\n").map { row in
            let fields = row.split(separator: " ").map(String.init)
            let flags = Set(fields.dropFirst(2))
            return HealthKitPackage(ecosystem: Ecosystem(rawValue: fields[0])!, name: fields[1], writes: flags.contains("w"),
                                    workoutSession: flags.contains("s"), clinical: flags.contains("c"), isSDK: flags.contains("k"), callsAnalysed: flags.contains("a"),
                                    pods: flags.filter { $0.hasPrefix("pod=") }.map { String($0.dropFirst(4)) }.sorted(),
                                    backgroundDelivery: flags.contains("b"))
        }
    }

    /// Every library's packages (`HealthKitLibrary.registry`).
    public static let table: [HealthKitPackage] = HealthKitLibrary.registry.flatMap(\.packages)

    private static let byName = Dictionary(table.map { ($0.ecosystem.rawValue + " " + $0.name, $0) }, uniquingKeysWith: { first, _ in first })
}
