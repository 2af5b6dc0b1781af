/// The HealthKit object types the audit knows by name: what the config, Swift sources and
/// React Native permission constants can request, and what each kind implies for the manifest.
public struct HealthKitType: Hashable, Sendable, Comparable {
    public enum Kind: String, Sendable {
        case quantity, category, characteristic, correlation, workout, clinical, other
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
        case .correlation: return "HKCorrelationTypeIdentifier" + capitalized
        case .workout: return "HKWorkoutTypeIdentifier"
        case .clinical: return "HKClinicalTypeIdentifier" + capitalized
        case .other: return Self.otherIdentifiers[name] ?? "HK" + capitalized
        }
    }

    /// HealthKit lets apps write it. Characteristics are entered in Health, and some samples are
    /// made only by Apple Watch or by Health itself; asking to share one raises "Authorization to
    /// share the following types is disallowed" (an uncaught NSInvalidArgumentException).
    public var isShareable: Bool {
        switch kind {
        case .characteristic, .clinical, .correlation: return false
        default: return !Self.readOnly.contains(name)
        }
    }

    /// Correlations (blood pressure, food) are never authorized themselves: apps ask for the types
    /// they hold (`bloodPressureSystolic` and `bloodPressureDiastolic`).
    public var components: [String] { Self.correlationComponents[name] ?? [] }

    /// Read access is granted per object, through `requestPerObjectReadAuthorization(for:predicate:)`;
    /// `requestAuthorization(toShare:read:)` refuses to read these.
    public var isPerObjectRead: Bool { Self.perObject.contains(name) }

    /// The type whose objects this one belongs to: a route is saved to, and read from, a workout.
    public var companion: String? { name == "workoutRoute" || name == "heartbeat" ? "workout" : nil }

    /// The first iOS that has the type, for types newer than iOS 13.
    public var minimumIOS: Int? { Self.introduced[name] }

    private static let readOnly: Set<String> = [
        "appleExerciseTime", "appleStandTime", "appleMoveTime", "walkingHeartRateAverage", "atrialFibrillationBurden",
        "appleWalkingSteadiness", "highHeartRateEvent", "lowHeartRateEvent", "irregularHeartRhythmEvent", "appleStandHour",
        "lowCardioFitnessEvent", "appleWalkingSteadinessEvent", "electrocardiogram", "activitySummary", "userAnnotatedMedication",
        "appleSleepingWristTemperature",
    ]
    private static let perObject: Set<String> = ["visionPrescription", "userAnnotatedMedication"]
    private static let correlationComponents = [
        "bloodPressure": ["bloodPressureSystolic", "bloodPressureDiastolic"],
        "food": ["dietaryEnergyConsumed", "dietaryWater"],
    ]
    private static let introduced = [
        "electrocardiogram": 14, "appleMoveTime": 14, "appleWalkingSteadiness": 15, "appleWalkingSteadinessEvent": 15,
        "atrialFibrillationBurden": 16, "visionPrescription": 16, "appleSleepingWristTemperature": 16, "runningSpeed": 16, "runningPower": 16, "cyclingPower": 17,
        "cyclingCadence": 17, "stateOfMind": 18, "userAnnotatedMedication": 26,
    ]
    private static let otherIdentifiers = [
        "workoutRoute": "HKWorkoutRouteTypeIdentifier", "electrocardiogram": "HKDataTypeIdentifierElectrocardiogram",
        "audiogram": "HKAudiogramSampleType", "activitySummary": "HKActivitySummaryTypeIdentifier",
        "heartbeat": "HKDataTypeIdentifierHeartbeatSeries", "visionPrescription": "HKVisionPrescriptionTypeIdentifier",
        "stateOfMind": "HKDataTypeStateOfMind", "userAnnotatedMedication": "HKUserAnnotatedMedicationTypeIdentifier",
    ]

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
            "cyclingCadence", "runningSpeed", "runningPower", "appleMoveTime", "atrialFibrillationBurden", "appleWalkingSteadiness",
            "appleSleepingWristTemperature",
        ]
        let categories = [
            "sleepAnalysis", "mindfulSession", "menstrualFlow", "highHeartRateEvent", "lowHeartRateEvent", "appleStandHour",
            "irregularHeartRhythmEvent", "lowCardioFitnessEvent", "appleWalkingSteadinessEvent",
        ]
        let characteristics = ["dateOfBirth", "biologicalSex", "bloodType", "fitzpatrickSkinType", "wheelchairUse", "activityMoveMode"]
        let clinical = [
            "allergyRecord", "clinicalNoteRecord", "conditionRecord", "immunizationRecord", "labResultRecord",
            "medicationRecord", "procedureRecord", "vitalSignRecord", "coverageRecord",
        ]
        return quantities.map { HealthKitType(name: $0, kind: .quantity) }
            + categories.map { HealthKitType(name: $0, kind: .category) }
            + characteristics.map { HealthKitType(name: $0, kind: .characteristic) }
            + clinical.map { HealthKitType(name: $0, kind: .clinical) }
            + ["bloodPressure", "food"].map { HealthKitType(name: $0, kind: .correlation) }
            + [HealthKitType(name: "workout", kind: .workout)]
            + ["workoutRoute", "electrocardiogram", "audiogram", "activitySummary", "heartbeat", "visionPrescription", "stateOfMind",
               "userAnnotatedMedication"].map { HealthKitType(name: $0, kind: .other) }
    }()

    private static let byName: [String: HealthKitType] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
