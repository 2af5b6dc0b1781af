import Foundation
import Manifest

/// The HealthKit object types the simulator knows; raw values are the short identifiers used in configs.
public enum HealthTypeID: String, CaseIterable, Sendable, Hashable, Comparable, CustomStringConvertible {
    case stepCount, distanceWalkingRunning, distanceCycling, activeEnergyBurned, basalEnergyBurned
    case heartRate, restingHeartRate, heartRateVariabilitySDNN
    case bodyMass, height, bodyFatPercentage, leanBodyMass, vo2Max
    case sleepAnalysis, mindfulSession
    case dateOfBirth, biologicalSex
    case workout
    /// A correlation: never authorized itself, so it exists here only to be refused as HealthKit does.
    case bloodPressure

    public enum Kind: String, Sendable, Hashable {
        case quantity, category, characteristic, correlation, workout
    }

    /// The catalogue entry the audit knows this type by: kind and identifier come from there, so the
    /// simulator and the checklist cannot spell a type two ways.
    public var catalogued: HealthKitType { HealthKitType.named(rawValue)! }

    public var kind: Kind {
        switch catalogued.kind {
        case .category: return .category
        case .characteristic: return .characteristic
        case .correlation: return .correlation
        case .workout: return .workout
        default: return .quantity
        }
    }

    /// From the catalogue; nil for non-quantity types. Every discrete type is modelled as
    /// `discreteArithmetic`: which discrete sub-style HealthKit uses per type is unconfirmed (spec §4.2),
    /// and the simulator averages arithmetically.
    public var aggregationStyle: AggregationStyle? {
        catalogued.aggregation.map { $0 == .cumulative ? .cumulative : .discreteArithmetic }
    }

    /// The unit values are stored in, from the catalogue; nil for types without a quantity
    /// (category values are raw integers).
    public var canonicalUnit: HealthUnit? { catalogued.unit.flatMap(HealthUnit.init(rawValue:)) }

    public var hkIdentifier: String { catalogued.identifier }

    public init?(hkIdentifier: String) {
        guard let match = HealthTypeID.allCases.first(where: { $0.hkIdentifier == hkIdentifier }) else { return nil }
        self = match
    }

    public var displayName: String {
        switch self {
        case .stepCount: return "Steps"
        case .distanceWalkingRunning: return "Walking + Running Distance"
        case .distanceCycling: return "Cycling Distance"
        case .activeEnergyBurned: return "Active Energy"
        case .basalEnergyBurned: return "Resting Energy"
        case .heartRate: return "Heart Rate"
        case .restingHeartRate: return "Resting Heart Rate"
        case .heartRateVariabilitySDNN: return "Heart Rate Variability"
        case .bodyMass: return "Weight"
        case .height: return "Height"
        case .bodyFatPercentage: return "Body Fat Percentage"
        case .leanBodyMass: return "Lean Body Mass"
        case .vo2Max: return "Cardio Fitness (VO2 max)"
        case .sleepAnalysis: return "Sleep"
        case .mindfulSession: return "Mindful Minutes"
        case .dateOfBirth: return "Date of Birth"
        case .biologicalSex: return "Sex"
        case .workout: return "Workouts"
        case .bloodPressure: return "Blood Pressure"
        }
    }

    /// Whether apps may write it, from the catalogue: characteristics are entered in Health, and
    /// correlations are never authorized themselves (sharing either crashes, §1.5).
    public var isShareable: Bool { catalogued.isShareable }

    /// Whether `requestAuthorization` accepts it at all, for reading too: correlations are refused.
    public var isAuthorizable: Bool { kind != .correlation }

    /// True for types that hold samples in time (everything but characteristics).
    public var isSampleType: Bool { kind != .characteristic }

    public var description: String { rawValue }

    public static func < (a: HealthTypeID, b: HealthTypeID) -> Bool { a.order < b.order }

    /// Position in `allCases`; used to list types in a stable order in messages.
    public var order: Int { HealthTypeID.allCases.firstIndex(of: self)! }
}

/// HKQuantityAggregationStyle (raw values per spec §4.2; the order of 1–3 is unconfirmed).
public enum AggregationStyle: Int, Sendable, Hashable {
    case cumulative = 0
    case discreteArithmetic = 1
    case discreteTemporallyWeighted = 2
    case discreteEquivalentContinuousLevel = 3

    public var isCumulative: Bool { self == .cumulative }
}

/// HKCategoryValueSleepAnalysis.
public enum SleepStage: Int, CaseIterable, Sendable, Hashable {
    case inBed = 0, asleepUnspecified = 1, awake = 2, asleepCore = 3, asleepDeep = 4, asleepREM = 5

    /// `HKCategoryValueSleepAnalysis.allAsleepValues`.
    public static let allAsleepValues: Set<SleepStage> = [.asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM]
    public var isAsleep: Bool { SleepStage.allAsleepValues.contains(self) }

    public var name: String {
        switch self {
        case .inBed: return "inBed"
        case .asleepUnspecified: return "asleepUnspecified"
        case .awake: return "awake"
        case .asleepCore: return "asleepCore"
        case .asleepDeep: return "asleepDeep"
        case .asleepREM: return "asleepREM"
        }
    }
}

/// HKBiologicalSex.
public enum BiologicalSex: Int, CaseIterable, Sendable, Hashable {
    case notSet = 0, female = 1, male = 2, other = 3

    public var name: String {
        switch self {
        case .notSet: return "notSet"
        case .female: return "female"
        case .male: return "male"
        case .other: return "other"
        }
    }

    /// Accepts the names used in configs ("female", "male", "other", "notSet"), case-insensitively.
    public init?(name: String) {
        guard let match = BiologicalSex.allCases.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            return nil
        }
        self = match
    }
}

/// HKWorkoutActivityType (raw values of the SDK enum) for the activities the generator produces.
public enum WorkoutActivityType: UInt, CaseIterable, Sendable, Hashable {
    case cycling = 13
    case hiking = 24
    case running = 37
    case swimming = 46
    case traditionalStrengthTraining = 50
    case walking = 52
    case yoga = 57
    case highIntensityIntervalTraining = 63

    public var name: String {
        switch self {
        case .cycling: return "cycling"
        case .hiking: return "hiking"
        case .running: return "running"
        case .swimming: return "swimming"
        case .traditionalStrengthTraining: return "traditionalStrengthTraining"
        case .walking: return "walking"
        case .yoga: return "yoga"
        case .highIntensityIntervalTraining: return "highIntensityIntervalTraining"
        }
    }
}
