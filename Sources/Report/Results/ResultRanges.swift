import HealthStore

/// The range of every number a result may carry, by what it means. `check` never writes a value
/// outside them; a result that does was not written by `check`, and is refused at load naming the
/// field, before any page does arithmetic with the value. Each is also a type, with which
/// `ResultFormat` declares its numbers (`BoundedInt<ResultRanges.Line>`).
enum ResultRanges {
    /// A line or column of an app's file (files are at most a few MiB).
    static let line = 1...100_000_000
    /// Files a target scans.
    static let fileCount = 0...10_000_000
    /// A day's length: 24 hours, 23 or 25 when clocks change, 23.5 or 24.5 on Lord Howe Island.
    static let dayHours = 1.0...48.0
    /// A place across a chart: a fraction of the day, or of the night's window.
    static let fraction = 0.0...1.0
    /// Steps in an hour or a day.
    static let steps = 0.0...1_000_000_000
    static let beatsPerMinute = 0.0...1_000
    /// Hours asleep in one night.
    static let sleepHours = 0.0...48.0
    /// Samples, buckets or workouts one scenario step received.
    static let samples = 0...1_000_000_000
    static let errorCode = HKErrorCode.allCases.map(\.rawValue).min()!...HKErrorCode.allCases.map(\.rawValue).max()!
    /// `schemaVersion`: any integer, only compared with the version this tool reads.
    static let schemaVersion = Int.min...Int.max

    enum Line: IntegerRange { static var range: ClosedRange<Int> { line } }
    enum FileCount: IntegerRange { static var range: ClosedRange<Int> { fileCount } }
    enum Samples: IntegerRange { static var range: ClosedRange<Int> { samples } }
    enum ErrorCode: IntegerRange { static var range: ClosedRange<Int> { errorCode } }
    enum DayHours: RealRange { static var range: ClosedRange<Double> { dayHours } }
    enum Fraction: RealRange { static var range: ClosedRange<Double> { fraction } }
    enum Steps: RealRange { static var range: ClosedRange<Double> { steps } }
    enum BeatsPerMinute: RealRange { static var range: ClosedRange<Double> { beatsPerMinute } }
    enum SleepHours: RealRange { static var range: ClosedRange<Double> { sleepHours } }
}
