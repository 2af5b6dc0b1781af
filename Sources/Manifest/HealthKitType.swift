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
    /// (Heartbeat series belong to heart-rate-variability samples, not to workouts.)
    public var companion: String? { name == "workoutRoute" ? "workout" : nil }

    /// The first iOS that has the type, for types newer than iOS 13.
    public var minimumIOS: Int? { Self.introduced[name] }

    private static let readOnly: Set<String> = [
        "appleExerciseTime", "appleStandTime", "appleMoveTime", "walkingHeartRateAverage", "atrialFibrillationBurden",
        "appleWalkingSteadiness", "highHeartRateEvent", "lowHeartRateEvent", "irregularHeartRhythmEvent", "appleStandHour",
        "lowCardioFitnessEvent", "appleWalkingSteadinessEvent", "electrocardiogram", "activitySummary", "userAnnotatedMedication",
        "appleSleepingWristTemperature", "estimatedWorkoutEffortScore",
        // Not listed, though Apple Watch computes them: appleSleepingBreathingDisturbances and sleepApneaEvent. No
        // first-party source says sharing them is refused, and a wrong entry here would be an error-level false alarm.
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
        "walkingSpeed": 14, "walkingDoubleSupportPercentage": 14, "walkingAsymmetryPercentage": 14, "walkingStepLength": 14,
        "sixMinuteWalkTestDistance": 14, "stairAscentSpeed": 14, "stairDescentSpeed": 14, "environmentalAudioExposureEvent": 14,
        "headphoneAudioExposureEvent": 14, "handwashingEvent": 14, "pregnancy": 14, "lactation": 14, "contraceptive": 14,
        "lowCardioFitnessEvent": 14, "numberOfAlcoholicBeverages": 15, "pregnancyTestResult": 15, "progesteroneTestResult": 15,
        "persistentIntermenstrualBleeding": 16, "prolongedMenstrualPeriods": 16, "irregularMenstrualCycles": 16,
        "infrequentMenstrualCycles": 16, "runningStrideLength": 16, "runningVerticalOscillation": 16, "runningGroundContactTime": 16,
        "underwaterDepth": 16, "waterTemperature": 16, "heartRateRecoveryOneMinute": 16, "environmentalSoundReduction": 16,
        "timeInDaylight": 17, "physicalEffort": 17, "cyclingSpeed": 17, "cyclingFunctionalThresholdPower": 17,
        "appleSleepingBreathingDisturbances": 18, "sleepApneaEvent": 18, "bleedingDuringPregnancy": 18, "bleedingAfterPregnancy": 18,
        "distanceRowing": 18, "rowingSpeed": 18, "distancePaddleSports": 18, "paddleSportsSpeed": 18, "distanceCrossCountrySkiing": 18,
        "crossCountrySkiingSpeed": 18, "distanceSkatingSports": 18, "workoutEffortScore": 18, "estimatedWorkoutEffortScore": 18,
        // Symptoms arrived in iOS 13.6, these six in iOS 14.
        "bladderIncontinence": 14, "drySkin": 14, "hairLoss": 14, "memoryLapse": 14, "nightSweats": 14, "vaginalDryness": 14,
    ]
    private static let otherIdentifiers = [
        "workoutRoute": "HKWorkoutRouteTypeIdentifier", "electrocardiogram": "HKDataTypeIdentifierElectrocardiogram",
        "audiogram": "HKAudiogramSampleType", "activitySummary": "HKActivitySummaryTypeIdentifier",
        "heartbeat": "HKDataTypeIdentifierHeartbeatSeries", "visionPrescription": "HKVisionPrescriptionTypeIdentifier",
        "stateOfMind": "HKDataTypeStateOfMind", "userAnnotatedMedication": "HKUserAnnotatedMedicationTypeIdentifier",
    ]

    /// HealthKit's spelling after the prefix: the short name capitalized, except where Apple spells it otherwise.
    private var capitalized: String { Self.irregular[name] ?? name.prefix(1).uppercased() + name.dropFirst() }

    private static let irregular = ["vo2Max": "VO2Max", "uvExposure": "UVExposure"]

    public static func < (a: HealthKitType, b: HealthKitType) -> Bool { a.name < b.name }

    public static func named(_ name: String) -> HealthKitType? { byName[name] }

    /// The type HealthKit spells `identifier` (`HKQuantityTypeIdentifierStepCount`), as wrappers that
    /// pass HealthKit's own strings write it.
    public static func identified(_ identifier: String) -> HealthKitType? { byIdentifier[identifier] }

    /// How HealthKit sums a quantity over an interval: added up, or averaged (nil for non-quantities).
    public enum Aggregation: String, Sendable { case cumulative, discrete }

    /// The catalogue as data: one row per quantity type with its canonical unit (HealthKit's unit
    /// string) and aggregation, then the other kinds by name.
    public var aggregation: Aggregation? { Self.quantityRows[name]?.aggregation }
    public var unit: String? { Self.quantityRows[name]?.unit }

    /// `name unit c|d`, one per line: c = cumulative, d = discrete.
    private static let quantityTable = """
        stepCount count c; distanceWalkingRunning m c; distanceCycling m c; distanceSwimming m c; distanceWheelchair m c
        distanceDownhillSnowSports m c; distanceRowing m c; distancePaddleSports m c; distanceCrossCountrySkiing m c
        distanceSkatingSports m c; pushCount count c; swimmingStrokeCount count c; flightsClimbed count c; nikeFuel count c
        activeEnergyBurned kcal c; basalEnergyBurned kcal c; appleExerciseTime min c; appleStandTime min c; appleMoveTime min c
        timeInDaylight min c; numberOfTimesFallen count c; inhalerUsage count c; insulinDelivery IU c; numberOfAlcoholicBeverages count c
        heartRate count/min d; restingHeartRate count/min d; walkingHeartRateAverage count/min d; heartRateVariabilitySDNN ms d
        heartRateRecoveryOneMinute count/min d; atrialFibrillationBurden % d; oxygenSaturation % d; respiratoryRate count/min d
        bodyTemperature degC d; basalBodyTemperature degC d; appleSleepingWristTemperature degC d; appleSleepingBreathingDisturbances count d
        bloodPressureSystolic mmHg d; bloodPressureDiastolic mmHg d; bloodGlucose mg/dL d; bloodAlcoholContent % d
        peripheralPerfusionIndex % d; electrodermalActivity S d; forcedVitalCapacity L d; forcedExpiratoryVolume1 L d
        peakExpiratoryFlowRate L/min d; environmentalAudioExposure dBASPL d; headphoneAudioExposure dBASPL d
        environmentalSoundReduction dBASPL d; uvExposure count d; bodyMass kg d; bodyMassIndex count d; height m d
        bodyFatPercentage % d; leanBodyMass kg d; waistCircumference m d; vo2Max ml/(kg*min) d; walkingSpeed m/s d
        walkingDoubleSupportPercentage % d; walkingAsymmetryPercentage % d; walkingStepLength m d; sixMinuteWalkTestDistance m d
        stairAscentSpeed m/s d; stairDescentSpeed m/s d; appleWalkingSteadiness % d; runningStrideLength m d
        runningVerticalOscillation cm d; runningGroundContactTime ms d; runningPower W d; runningSpeed m/s d; cyclingSpeed m/s d
        cyclingPower W d; cyclingFunctionalThresholdPower W d; cyclingCadence count/min d; rowingSpeed m/s d; paddleSportsSpeed m/s d
        crossCountrySkiingSpeed m/s d; underwaterDepth m d; waterTemperature degC d; physicalEffort kcal/(kg*hr) d
        workoutEffortScore appleEffortScore d; estimatedWorkoutEffortScore appleEffortScore d
        dietaryEnergyConsumed kcal c; dietaryWater mL c; dietaryFatTotal g c; dietaryFatPolyunsaturated g c
        dietaryFatMonounsaturated g c; dietaryFatSaturated g c; dietaryCholesterol mg c; dietarySodium mg c; dietaryCarbohydrates g c
        dietaryFiber g c; dietarySugar g c; dietaryProtein g c; dietaryVitaminA mcg c; dietaryVitaminB6 mg c; dietaryVitaminB12 mcg c
        dietaryVitaminC mg c; dietaryVitaminD mcg c; dietaryVitaminE mg c; dietaryVitaminK mcg c; dietaryCalcium mg c; dietaryIron mg c
        dietaryThiamin mg c; dietaryRiboflavin mg c; dietaryNiacin mg c; dietaryFolate mcg c; dietaryBiotin mcg c
        dietaryPantothenicAcid mg c; dietaryPhosphorus mg c; dietaryIodine mcg c; dietaryMagnesium mg c; dietaryZinc mg c
        dietarySelenium mcg c; dietaryCopper mg c; dietaryManganese mg c; dietaryChromium mcg c; dietaryMolybdenum mcg c
        dietaryChloride mg c; dietaryPotassium mg c; dietaryCaffeine mg c
        """

    /// The table's rows in order, parsed once.
    private static let quantityList: [(name: String, unit: String, aggregation: Aggregation)] =
        quantityTable.split(whereSeparator: { $0 == ";" || $0 == "\n" }).map { row in
            let fields = row.split(separator: " ")
            return (String(fields[0]), String(fields[1]), fields[2] == "c" ? .cumulative : .discrete)
        }

    private static let quantityRows = Dictionary(uniqueKeysWithValues: quantityList.map { ($0.name, (unit: $0.unit, aggregation: $0.aggregation)) })

    private static let categoryNames = """
        sleepAnalysis mindfulSession menstrualFlow intermenstrualBleeding cervicalMucusQuality ovulationTestResult sexualActivity
        contraceptive pregnancy lactation pregnancyTestResult progesteroneTestResult persistentIntermenstrualBleeding
        prolongedMenstrualPeriods irregularMenstrualCycles infrequentMenstrualCycles bleedingDuringPregnancy bleedingAfterPregnancy
        highHeartRateEvent lowHeartRateEvent irregularHeartRhythmEvent lowCardioFitnessEvent appleStandHour appleWalkingSteadinessEvent
        environmentalAudioExposureEvent headphoneAudioExposureEvent handwashingEvent toothbrushingEvent sleepApneaEvent
        abdominalCramps acne appetiteChanges bladderIncontinence bloating breastPain chestTightnessOrPain chills constipation coughing
        diarrhea dizziness drySkin fainting fatigue fever generalizedBodyAche hairLoss headache heartburn hotFlashes lossOfSmell
        lossOfTaste lowerBackPain memoryLapse moodChanges nausea nightSweats pelvicPain rapidPoundingOrFlutteringHeartbeat runnyNose
        shortnessOfBreath sinusCongestion skippedHeartbeat sleepChanges soreThroat vaginalDryness vomiting wheezing
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    public static let all: [HealthKitType] = {
        let characteristics = ["dateOfBirth", "biologicalSex", "bloodType", "fitzpatrickSkinType", "wheelchairUse", "activityMoveMode"]
        let clinical = [
            "allergyRecord", "clinicalNoteRecord", "conditionRecord", "immunizationRecord", "labResultRecord",
            "medicationRecord", "procedureRecord", "vitalSignRecord", "coverageRecord",
        ]
        return quantityList.map { HealthKitType(name: $0.name, kind: .quantity) }
            + categoryNames.map { HealthKitType(name: $0, kind: .category) }
            + characteristics.map { HealthKitType(name: $0, kind: .characteristic) }
            + clinical.map { HealthKitType(name: $0, kind: .clinical) }
            + ["bloodPressure", "food"].map { HealthKitType(name: $0, kind: .correlation) }
            + [HealthKitType(name: "workout", kind: .workout)]
            + ["workoutRoute", "electrocardiogram", "audiogram", "activitySummary", "heartbeat", "visionPrescription", "stateOfMind",
               "userAnnotatedMedication"].map { HealthKitType(name: $0, kind: .other) }
    }()

    private static let byName: [String: HealthKitType] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    private static let byIdentifier: [String: HealthKitType] = Dictionary(all.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
}
