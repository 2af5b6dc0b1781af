import Foundation

/// HKStatisticsOptions (raw values per spec §4.2).
public struct StatisticsOptions: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let separateBySource = StatisticsOptions(rawValue: 1)
    public static let discreteAverage = StatisticsOptions(rawValue: 2)
    public static let discreteMin = StatisticsOptions(rawValue: 4)
    public static let discreteMax = StatisticsOptions(rawValue: 8)
    public static let cumulativeSum = StatisticsOptions(rawValue: 16)
    public static let mostRecent = StatisticsOptions(rawValue: 32)
    public static let duration = StatisticsOptions(rawValue: 64)

    static let named: [(StatisticsOptions, String)] = [
        (.separateBySource, "HKStatisticsOptionSeparateBySource"),
        (.discreteAverage, "HKStatisticsOptionDiscreteAverage"),
        (.discreteMin, "HKStatisticsOptionDiscreteMin"),
        (.discreteMax, "HKStatisticsOptionDiscreteMax"),
        (.cumulativeSum, "HKStatisticsOptionCumulativeSum"),
        (.mostRecent, "HKStatisticsOptionMostRecent"),
        (.duration, "HKStatisticsOptionDuration"),
    ]

    /// The Objective-C names of the options in the set, in bit order.
    public var names: [String] { StatisticsOptions.named.filter { contains($0.0) }.map(\.1) }
    public var description: String { names.joined(separator: " | ") }

    /// `-[HKQuantityType supportsStatisticOptions:]`: the crash a mismatched option raises, if any (spec §4.2).
    /// mostRecent and duration are not rejected for cumulative types by that check, so they are allowed here too.
    public static func crash(for type: HealthTypeID, options: StatisticsOptions) -> HealthKitCrash? {
        guard let style = type.aggregationStyle else {
            // Statistics queries take an HKQuantityType; building one from another identifier raises.
            return HealthKitCrash(reason: "Invalid HKQuantityType identifier \(type.hkIdentifier)")
        }
        let wrong: StatisticsOptions = style.isCumulative
            ? options.intersection([.discreteAverage, .discreteMin, .discreteMax])
            : options.intersection(.cumulativeSum)
        guard let first = wrong.names.first else { return nil }
        let kind = style.isCumulative ? "cumulative" : "discrete"
        return HealthKitCrash(reason: "Statistics option \(first) is not compatible with \(kind) data type "
                              + type.hkIdentifier)
    }
}

/// The values one statistics computation produced, in the type's canonical unit. A value is nil when its option
/// was not requested or when no sample contributed (HealthKit's `sumQuantity()` is nil for an empty interval).
public struct StatisticValues: Sendable, Hashable {
    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var mostRecent: Double?
    public var mostRecentStart: TimeInterval?
    public var mostRecentEnd: TimeInterval?
    /// Seconds covered by the contributing samples (union, clipped to the interval).
    public var duration: Double?

    public init() {}
}

/// HKStatistics: one interval's merged values, plus per-source values with `.separateBySource`.
public struct Statistics: Sendable, Hashable {
    public var type: HealthTypeID
    public var startTime: TimeInterval
    public var endTime: TimeInterval
    public var values: StatisticValues
    /// Only with `.separateBySource` (HKStatistics.sources is nil otherwise).
    public var bySource: [SampleSource: StatisticValues]?

    public var start: Date { Date(timeIntervalSinceReferenceDate: startTime) }
    public var end: Date { Date(timeIntervalSinceReferenceDate: endTime) }
    public var unit: HealthUnit { type.canonicalUnit ?? .count }

    public var sources: [SampleSource]? { bySource.map { Array($0.keys).sorted { $0.name < $1.name } } }

    public func sumQuantity() -> HealthQuantity? { values.sum.map { HealthQuantity($0, unit) } }
    public func averageQuantity() -> HealthQuantity? { values.average.map { HealthQuantity($0, unit) } }
    public func minimumQuantity() -> HealthQuantity? { values.minimum.map { HealthQuantity($0, unit) } }
    public func maximumQuantity() -> HealthQuantity? { values.maximum.map { HealthQuantity($0, unit) } }
    public func mostRecentQuantity() -> HealthQuantity? { values.mostRecent.map { HealthQuantity($0, unit) } }
}

/// How long each bucket of a statistics collection is.
public enum StatisticsInterval: Sendable, Hashable {
    /// Calendar days in the store's time zone: 23 or 25 hours at DST changes.
    case days(Int)
    /// Fixed hours.
    case hours(Int)

    public static let day = StatisticsInterval.days(1)
    public static let hour = StatisticsInterval.hours(1)
}

/// HKStatisticsCollection: buckets tiled from the anchor, covering the requested range.
public struct StatisticsCollection: Sendable, Hashable {
    public var type: HealthTypeID
    public var buckets: [Statistics]

    /// The bucket that contains `date`, like `statistics(for:)`.
    public func statistics(for date: Date) -> Statistics? {
        let t = date.timeIntervalSinceReferenceDate
        return buckets.first { $0.startTime <= t && t < $0.endTime }
    }
}
