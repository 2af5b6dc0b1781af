import Foundation

/// Where a sample came from. The kind decides its default priority in statistics (spec §4.3).
public struct SampleSource: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Int, Sendable, Hashable, Comparable {
        /// Entered by hand in the Health app (highest priority).
        case manual = 0
        /// Apple Watch ranks above iPhone: HealthKit's default list only says "Apple devices"; the watch's sensors
        /// are the better step and heart-rate source, and that is the order Health shows by default.
        case appleWatch = 1
        case iPhone = 2
        /// Other apps and devices, including the audited app itself (lowest).
        case thirdPartyApp = 3

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    public var name: String
    public var bundleIdentifier: String
    public var kind: Kind

    public init(name: String, bundleIdentifier: String, kind: Kind) {
        self.name = name; self.bundleIdentifier = bundleIdentifier; self.kind = kind
    }

    public var description: String { name }

    // The simulated user's sources. Apple devices write with `com.apple.health.<device UUID>` bundle ids.
    public static let watch = SampleSource(
        name: "Apple Watch", bundleIdentifier: "com.apple.health.5C3A9A1E-41D7-4E8B-9F55-0A2C8E6B7D11", kind: .appleWatch)
    public static let phone = SampleSource(
        name: "iPhone", bundleIdentifier: "com.apple.health.0B7E2F64-9C1D-4A53-8E2A-6F4D1C9B3E27", kind: .iPhone)
    public static let manualEntry = SampleSource(name: "Health", bundleIdentifier: "com.apple.Health", kind: .manual)
    public static let scaleApp = SampleSource(
        name: "Smart Scale", bundleIdentifier: "com.example.smartscale", kind: .thirdPartyApp)
    public static let sleepApp = SampleSource(
        name: "Sleep Tracker", bundleIdentifier: "com.example.sleeptracker", kind: .thirdPartyApp)
}

/// One quantity or category sample. Times are seconds since the reference date (2001-01-01 UTC), as in `Date`.
/// Quantity values are in the type's canonical unit; category values are the raw HealthKit values.
public struct Sample: Sendable, Hashable {
    public var type: HealthTypeID
    public var startTime: TimeInterval
    public var endTime: TimeInterval
    public var value: Double
    public var source: SampleSource

    public init(type: HealthTypeID, startTime: TimeInterval, endTime: TimeInterval, value: Double,
                source: SampleSource) {
        self.type = type; self.startTime = startTime; self.endTime = endTime
        self.value = value; self.source = source
    }

    public init(type: HealthTypeID, start: Date, end: Date, value: Double, source: SampleSource) {
        self.init(type: type, startTime: start.timeIntervalSinceReferenceDate,
                  endTime: end.timeIntervalSinceReferenceDate, value: value, source: source)
    }

    /// A quantity sample from a value in any compatible unit; nil if the unit does not fit the type.
    public init?(type: HealthTypeID, start: Date, end: Date, quantity: HealthQuantity, source: SampleSource) {
        guard let unit = type.canonicalUnit, let v = quantity.doubleValue(for: unit) else { return nil }
        self.init(type: type, start: start, end: end, value: v, source: source)
    }

    public var start: Date { Date(timeIntervalSinceReferenceDate: startTime) }
    public var end: Date { Date(timeIntervalSinceReferenceDate: endTime) }
    public var duration: TimeInterval { endTime - startTime }

    public var quantity: HealthQuantity? { type.canonicalUnit.map { HealthQuantity(value, $0) } }

    public var sleepStage: SleepStage? {
        type == .sleepAnalysis ? Int(exactly: value).flatMap(SleepStage.init(rawValue:)) : nil
    }
}

/// An HKWorkout: activity, interval, totals. Energy in kcal, distance in metres.
public struct Workout: Sendable, Hashable {
    public var activityType: WorkoutActivityType
    public var startTime: TimeInterval
    public var endTime: TimeInterval
    public var totalEnergyBurned: Double?
    public var totalDistance: Double?
    public var source: SampleSource

    public init(activityType: WorkoutActivityType, startTime: TimeInterval, endTime: TimeInterval,
                totalEnergyBurned: Double?, totalDistance: Double?, source: SampleSource) {
        self.activityType = activityType; self.startTime = startTime; self.endTime = endTime
        self.totalEnergyBurned = totalEnergyBurned; self.totalDistance = totalDistance; self.source = source
    }

    public var start: Date { Date(timeIntervalSinceReferenceDate: startTime) }
    public var end: Date { Date(timeIntervalSinceReferenceDate: endTime) }
    public var duration: TimeInterval { endTime - startTime }
}

/// The predicate rule for "sample overlaps [a, b)": HealthKit's default `predicateForSamples(withStart:end:options: [])`
/// matches overlapping samples, but its exact boundary handling is unconfirmed (spec §4.1). Chosen: half-open, so a
/// sample touching a boundary lands in one day only; an instantaneous sample belongs to [a, b) when a <= t < b.
@inline(__always)
func overlaps(_ s: Double, _ e: Double, _ a: Double, _ b: Double) -> Bool {
    s < b && (e > a || (s == e && s >= a))
}
