/// How each library that wraps HealthKit names its types, mapped onto the one catalogue: a
/// wrapper's name leads to the HealthKit types the library really asks HealthKit for.
public enum HealthKitWrapper: String, Sendable, CaseIterable {
    case reactNativeHealth = "react-native-health"
    case kingstinct = "@kingstinct/react-native-healthkit"
    case flutterHealth = "package:health"
    case capacitorHealth = "@capgo/capacitor-health"
    case cordovaHealth = "cordova-plugin-health"

    /// The catalogue types behind a wrapper's name; nil when the name is not one of the wrapper's
    /// (or names something HealthKit does not have, such as an Android-only type).
    public func types(named name: String) -> [HealthKitType]? {
        switch self {
        case .kingstinct:
            // HealthKit's own identifiers, as strings or as enum members (`HKQuantityTypeIdentifier.stepCount`).
            if let type = HealthKitType.identified(name) ?? HealthKitType.named(name) { return [type] }
            return nil
        default:
            // `-`: a name the library knows but never passes to HealthKit on iOS.
            guard let names = Self.tables[self]?[name] else { return nil }
            if names == ["-"] { return [] }
            let types = names.compactMap(HealthKitType.named)
            return types.isEmpty ? nil : types
        }
    }

    /// Wrapper name → catalogue names, from each library's own type map.
    static let tables: [HealthKitWrapper: [String: [String]]] = [
        .reactNativeHealth: parse(reactNativeHealthTable),
        .flutterHealth: parse(flutterTable),
        .capacitorHealth: parse(capacitorTable),
        .cordovaHealth: parse(cordovaTable),
    ]

    /// `wrapperName=catalogueName[+catalogueName]` (or `-` for none), separated by spaces.
    private static func parse(_ table: String) -> [String: [String]] {
        var map: [String: [String]] = [:]
        for entry in table.split(whereSeparator: \.isWhitespace) {
            let parts = entry.split(separator: "=", maxSplits: 1)
            map[String(parts[0])] = parts[1].split(separator: "+").map(String.init)
        }
        return map
    }

    /// react-native-health's `AppleHealthKit.Constants.Permissions.X` (`src/constants/Permissions.js`
    /// and its native type map).
    private static let reactNativeHealthTable = """
        ActiveEnergyBurned=activeEnergyBurned AppleExerciseTime=appleExerciseTime AppleStandTime=appleStandTime
        BasalEnergyBurned=basalEnergyBurned BiologicalSex=biologicalSex BloodType=bloodType BloodGlucose=bloodGlucose
        BloodPressureDiastolic=bloodPressureDiastolic BloodPressureSystolic=bloodPressureSystolic BodyFatPercentage=bodyFatPercentage
        BodyMass=bodyMass BodyMassIndex=bodyMassIndex BodyTemperature=bodyTemperature DateOfBirth=dateOfBirth
        EnergyConsumed=dietaryEnergyConsumed Water=dietaryWater DistanceCycling=distanceCycling DistanceSwimming=distanceSwimming
        DistanceWalkingRunning=distanceWalkingRunning Electrocardiogram=electrocardiogram FlightsClimbed=flightsClimbed
        HeartRate=heartRate RestingHeartRate=restingHeartRate WalkingHeartRateAverage=walkingHeartRateAverage
        HeartRateVariability=heartRateVariabilitySDNN Height=height LeanBodyMass=leanBodyMass MindfulSession=mindfulSession
        OxygenSaturation=oxygenSaturation RespiratoryRate=respiratoryRate SleepAnalysis=sleepAnalysis StepCount=stepCount
        Steps=stepCount Vo2Max=vo2Max Weight=bodyMass Workout=workout WorkoutRoute=workoutRoute
        AllergyRecord=allergyRecord ConditionRecord=conditionRecord CoverageRecord=coverageRecord
        ImmunizationRecord=immunizationRecord LabResultRecord=labResultRecord MedicationRecord=medicationRecord
        ProcedureRecord=procedureRecord VitalSignRecord=vitalSignRecord ActivitySummary=activitySummary
        BloodAlcoholContent=bloodAlcoholContent Biotin=dietaryBiotin Caffeine=dietaryCaffeine Calcium=dietaryCalcium
        Carbohydrates=dietaryCarbohydrates Chloride=dietaryChloride Cholesterol=dietaryCholesterol Copper=dietaryCopper
        EnvironmentalAudioExposure=environmentalAudioExposure FatMonounsaturated=dietaryFatMonounsaturated
        FatPolyunsaturated=dietaryFatPolyunsaturated FatSaturated=dietaryFatSaturated FatTotal=dietaryFatTotal Fiber=dietaryFiber
        Folate=dietaryFolate HeadphoneAudioExposure=headphoneAudioExposure Iodine=dietaryIodine Iron=dietaryIron
        Magnesium=dietaryMagnesium Manganese=dietaryManganese Molybdenum=dietaryMolybdenum Niacin=dietaryNiacin
        PantothenicAcid=dietaryPantothenicAcid Phosphorus=dietaryPhosphorus Potassium=dietaryPotassium Protein=dietaryProtein
        Riboflavin=dietaryRiboflavin Selenium=dietarySelenium Sodium=dietarySodium Sugar=dietarySugar Thiamin=dietaryThiamin
        VitaminA=dietaryVitaminA VitaminB12=dietaryVitaminB12 VitaminB6=dietaryVitaminB6 VitaminC=dietaryVitaminC
        VitaminD=dietaryVitaminD VitaminE=dietaryVitaminE VitaminK=dietaryVitaminK Zinc=dietaryZinc HeartbeatSeries=heartbeat
        NikeFuel=nikeFuel PeakFlow=peakExpiratoryFlowRate ForcedVitalCapacity=forcedVitalCapacity WaistCircumference=waistCircumference
        """

    /// `package:health`'s `HealthDataType` members on iOS (its `HealthKitTypes` map); the sleep
    /// stages are values of one type, and Android-only members are absent.
    private static let flutterTable = """
        ACTIVE_ENERGY_BURNED=activeEnergyBurned BASAL_ENERGY_BURNED=basalEnergyBurned BLOOD_GLUCOSE=bloodGlucose
        BLOOD_OXYGEN=oxygenSaturation BLOOD_PRESSURE_DIASTOLIC=bloodPressureDiastolic BLOOD_PRESSURE_SYSTOLIC=bloodPressureSystolic
        BODY_FAT_PERCENTAGE=bodyFatPercentage BODY_MASS_INDEX=bodyMassIndex BODY_TEMPERATURE=bodyTemperature
        DIETARY_CARBS_CONSUMED=dietaryCarbohydrates DIETARY_ENERGY_CONSUMED=dietaryEnergyConsumed DIETARY_FATS_CONSUMED=dietaryFatTotal
        DIETARY_PROTEIN_CONSUMED=dietaryProtein DIETARY_CAFFEINE=dietaryCaffeine DIETARY_FIBER=dietaryFiber DIETARY_SUGAR=dietarySugar
        DIETARY_CHOLESTEROL=dietaryCholesterol DIETARY_SODIUM=dietarySodium DIETARY_POTASSIUM=dietaryPotassium
        DIETARY_CALCIUM=dietaryCalcium DIETARY_IRON=dietaryIron ELECTRODERMAL_ACTIVITY=electrodermalActivity
        FORCED_EXPIRATORY_VOLUME=forcedExpiratoryVolume1 HEART_RATE=heartRate HEART_RATE_VARIABILITY_SDNN=heartRateVariabilitySDNN
        HEIGHT=height INSULIN_DELIVERY=insulinDelivery RESPIRATORY_RATE=respiratoryRate PERIPHERAL_PERFUSION_INDEX=peripheralPerfusionIndex
        STEPS=stepCount WAIST_CIRCUMFERENCE=waistCircumference WALKING_HEART_RATE=walkingHeartRateAverage WEIGHT=bodyMass
        LEAN_BODY_MASS=leanBodyMass DISTANCE_WALKING_RUNNING=distanceWalkingRunning DISTANCE_SWIMMING=distanceSwimming
        DISTANCE_CYCLING=distanceCycling FLIGHTS_CLIMBED=flightsClimbed WATER=dietaryWater MINDFULNESS=mindfulSession
        SLEEP_ASLEEP=sleepAnalysis SLEEP_AWAKE=sleepAnalysis SLEEP_IN_BED=sleepAnalysis SLEEP_DEEP=sleepAnalysis
        SLEEP_REM=sleepAnalysis SLEEP_LIGHT=sleepAnalysis SLEEP_CORE=sleepAnalysis SLEEP_UNKNOWN=sleepAnalysis
        SLEEP_AWAKE_IN_BED=sleepAnalysis EXERCISE_TIME=appleExerciseTime WORKOUT=workout HEADACHE_NOT_PRESENT=headache
        HEADACHE_MILD=headache HEADACHE_MODERATE=headache HEADACHE_SEVERE=headache HEADACHE_UNSPECIFIED=headache
        WALKING_SPEED=walkingSpeed WATER_TEMPERATURE=waterTemperature UNDERWATER_DEPTH=underwaterDepth NUTRITION=-
        ELECTROCARDIOGRAM=electrocardiogram GENDER=biologicalSex BLOOD_TYPE=bloodType BIRTH_DATE=dateOfBirth
        APPLE_MOVE_TIME=appleMoveTime APPLE_STAND_HOUR=appleStandHour APPLE_STAND_TIME=appleStandTime
        HIGH_HEART_RATE_EVENT=highHeartRateEvent LOW_HEART_RATE_EVENT=lowHeartRateEvent
        IRREGULAR_HEART_RATE_EVENT=irregularHeartRhythmEvent RESTING_HEART_RATE=restingHeartRate AUDIOGRAM=audiogram
        MENSTRUATION_FLOW=menstrualFlow UV_INDEX=uvExposure ATRIAL_FIBRILLATION_BURDEN=atrialFibrillationBurden
        DIETARY_FAT_MONOUNSATURATED=dietaryFatMonounsaturated DIETARY_FAT_POLYUNSATURATED=dietaryFatPolyunsaturated
        DIETARY_FAT_SATURATED=dietaryFatSaturated DIETARY_VITAMIN_A=dietaryVitaminA DIETARY_THIAMIN=dietaryThiamin
        DIETARY_RIBOFLAVIN=dietaryRiboflavin DIETARY_NIACIN=dietaryNiacin DIETARY_PANTOTHENIC_ACID=dietaryPantothenicAcid
        DIETARY_VITAMIN_B6=dietaryVitaminB6 DIETARY_BIOTIN=dietaryBiotin DIETARY_VITAMIN_B12=dietaryVitaminB12
        DIETARY_VITAMIN_C=dietaryVitaminC DIETARY_VITAMIN_D=dietaryVitaminD DIETARY_VITAMIN_E=dietaryVitaminE
        DIETARY_VITAMIN_K=dietaryVitaminK DIETARY_FOLATE=dietaryFolate DIETARY_CHLORIDE=dietaryChloride
        DIETARY_MAGNESIUM=dietaryMagnesium DIETARY_PHOSPHORUS=dietaryPhosphorus DIETARY_ZINC=dietaryZinc
        DIETARY_CHROMIUM=dietaryChromium DIETARY_COPPER=dietaryCopper DIETARY_IODINE=dietaryIodine
        DIETARY_MANGANESE=dietaryManganese DIETARY_MOLYBDENUM=dietaryMolybdenum DIETARY_SELENIUM=dietarySelenium
        """

    /// `@capgo/capacitor-health`'s `HealthDataType` (its `Health.swift` type map; blood pressure is
    /// asked as its two values).
    private static let capacitorTable = """
        steps=stepCount distance=distanceWalkingRunning calories=activeEnergyBurned heartRate=heartRate weight=bodyMass
        sleep=sleepAnalysis respiratoryRate=respiratoryRate oxygenSaturation=oxygenSaturation restingHeartRate=restingHeartRate
        heartRateVariability=heartRateVariabilitySDNN vo2Max=vo2Max bloodPressure=bloodPressureSystolic+bloodPressureDiastolic
        bloodGlucose=bloodGlucose bodyTemperature=bodyTemperature height=height flightsClimbed=flightsClimbed
        exerciseTime=appleExerciseTime distanceCycling=distanceCycling bodyFat=bodyFatPercentage basalBodyTemperature=basalBodyTemperature
        appleSleepingWristTemperature=appleSleepingWristTemperature basalCalories=basalEnergyBurned
        totalCalories=activeEnergyBurned mindfulness=mindfulSession appleStandHour=appleStandHour
        dietaryWater=dietaryWater dietaryEnergyConsumed=dietaryEnergyConsumed workouts=workout
        """

    /// `cordova-plugin-health`'s data types on iOS (its README's table; blood pressure is asked as
    /// its two values, nutrition as the nutrients it stores).
    private static let cordovaTable = """
        steps=stepCount distance=distanceWalkingRunning+distanceCycling calories=activeEnergyBurned+basalEnergyBurned calories.active=activeEnergyBurned
        calories.basal=basalEnergyBurned activity=workout+sleepAnalysis appleExerciseTime=appleExerciseTime height=height weight=bodyMass
        heart_rate=heartRate heart_rate.resting=restingHeartRate heart_rate.variability=heartRateVariabilitySDNN
        fat_percentage=bodyFatPercentage blood_glucose=bloodGlucose blood_pressure=bloodPressureSystolic+bloodPressureDiastolic
        insulin=insulinDelivery oxygen_saturation=oxygenSaturation temperature=bodyTemperature resp_rate=respiratoryRate
        sleep=sleepAnalysis mindfulness=mindfulSession UVexposure=uvExposure nutrition.water=dietaryWater stairs=flightsClimbed
        bmi=bodyMassIndex vo2max=vo2Max waist_circumference=waistCircumference workout_route=workoutRoute
        blood_pressure_systolic=bloodPressureSystolic blood_pressure_diastolic=bloodPressureDiastolic gender=- date_of_birth=-
        nutrition=dietaryEnergyConsumed+dietaryFatTotal+dietaryFatSaturated+dietaryFatPolyunsaturated+dietaryFatMonounsaturated+dietaryCholesterol+dietarySodium+dietaryPotassium+dietaryCarbohydrates+dietaryFiber+dietarySugar+dietaryProtein+dietaryVitaminA+dietaryVitaminC+dietaryCalcium+dietaryIron+dietaryWater+dietaryCaffeine
        nutrition.fat.saturated=dietaryFatSaturated nutrition.fat.polyunsaturated=dietaryFatPolyunsaturated
        nutrition.fat.monounsaturated=dietaryFatMonounsaturated nutrition.cholesterol=dietaryCholesterol nutrition.potassium=dietaryPotassium
        nutrition.vitamin_a=dietaryVitaminA nutrition.vitamin_c=dietaryVitaminC nutrition.calcium=dietaryCalcium nutrition.iron=dietaryIron
        nutrition.calories=dietaryEnergyConsumed nutrition.protein=dietaryProtein nutrition.fat.total=dietaryFatTotal
        nutrition.carbs.total=dietaryCarbohydrates nutrition.sugar=dietarySugar nutrition.dietary_fiber=dietaryFiber
        nutrition.sodium=dietarySodium nutrition.caffeine=dietaryCaffeine
        """
}
