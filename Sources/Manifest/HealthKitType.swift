/// The HealthKit object types the audit knows by name: what the config, Swift sources and
/// React Native permission constants can request, and what each kind implies for the manifest.
public struct HealthKitType: Hashable, Sendable, Comparable {
    public enum Kind: String, Sendable {
        case quantity, category, characteristic, workout, clinical, other
    }

    /// Short identifier as written in Swift (`.stepCount`) and the config (`stepCount`).
    public let name: String
    public let kind: Kind

    /// The full identifier string HealthKit uses in messages, e.g. `HKQuantityTypeIdentifierStepCount`.
    public var identifier: String {
        switch kind {
        case .quantity: return "HKQuantityTypeIdentifier" + capitalized
        case .category: return "HKCategoryTypeIdentifier" + capitalized
        case .characteristic: return "HKCharacteristicTypeIdentifier" + capitalized
        case .workout: return "HKWorkoutTypeIdentifier"
        case .clinical: return "HKClinicalTypeIdentifier" + capitalized
        case .other: return "HK" + capitalized
        }
    }

    /// HealthKit's spelling after the prefix: the short name capitalized, except where Apple spells it otherwise.
    private var capitalized: String { Self.irregular[name] ?? name.prefix(1).uppercased() + name.dropFirst() }

    private static let irregular = ["vo2Max": "VO2Max"]

    public static func < (a: HealthKitType, b: HealthKitType) -> Bool { a.name < b.name }

    public static func named(_ name: String) -> HealthKitType? { byName[name] }

    public static let all: [HealthKitType] = {
        let quantities = [
            "stepCount", "distanceWalkingRunning", "distanceCycling", "distanceSwimming", "activeEnergyBurned",
            "basalEnergyBurned", "flightsClimbed", "appleExerciseTime", "appleStandTime", "heartRate", "restingHeartRate",
            "walkingHeartRateAverage", "heartRateVariabilitySDNN", "oxygenSaturation", "respiratoryRate", "bodyTemperature",
            "bloodPressureSystolic", "bloodPressureDiastolic", "bloodGlucose", "bodyMass", "bodyMassIndex", "height",
            "bodyFatPercentage", "leanBodyMass", "vo2Max", "dietaryEnergyConsumed", "dietaryWater", "cyclingPower",
            "cyclingCadence", "runningSpeed", "runningPower",
        ]
        let categories = ["sleepAnalysis", "mindfulSession", "menstrualFlow", "highHeartRateEvent", "lowHeartRateEvent", "appleStandHour"]
        let characteristics = ["dateOfBirth", "biologicalSex", "bloodType", "fitzpatrickSkinType", "wheelchairUse", "activityMoveMode"]
        let clinical = [
            "allergyRecord", "clinicalNoteRecord", "conditionRecord", "immunizationRecord", "labResultRecord",
            "medicationRecord", "procedureRecord", "vitalSignRecord", "coverageRecord",
        ]
        return quantities.map { HealthKitType(name: $0, kind: .quantity) }
            + categories.map { HealthKitType(name: $0, kind: .category) }
            + characteristics.map { HealthKitType(name: $0, kind: .characteristic) }
            + clinical.map { HealthKitType(name: $0, kind: .clinical) }
            + [HealthKitType(name: "workout", kind: .workout), HealthKitType(name: "workoutRoute", kind: .other),
               HealthKitType(name: "electrocardiogram", kind: .other), HealthKitType(name: "audiogram", kind: .other)]
    }()

    private static let byName: [String: HealthKitType] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
