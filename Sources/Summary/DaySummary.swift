import Foundation
import HealthStore
import Manifest

/// Why the app's view of a metric differs from what the store holds.
public enum Visibility: Sendable, Hashable {
    case visible
    /// Read denied: HealthKit answers with an empty result, indistinguishable from "no data".
    case readNotGranted
    /// Never requested: the query fails with code 5.
    case neverAsked(HealthKitError)
    /// Any other error the store returned (locked device, missing entitlement…).
    case failed(HealthKitError)
    /// A characteristic the user never entered.
    case notSet

    public var explanation: String? {
        switch self {
        case .visible: return nil
        case .readNotGranted: return "read not granted — the app receives no samples and cannot tell why"
        case .neverAsked(let error): return "never asked — the query fails with “\(error.description)” (code \(error.code))"
        case .failed(let error): return "the query fails with “\(error.description)” (code \(error.code))"
        case .notSet: return "characteristic not set — the user never entered it"
        }
    }
}

/// One metric of a day: what the store holds beside what the app sees, and why they differ.
public struct MetricRow: Sendable, Hashable {
    public var name: String
    public var held: String
    public var seen: String
    public var visibility: Visibility
    public var type: String

    public var differs: Bool { held != seen }
}

public struct WorkoutRow: Sendable, Hashable {
    public var activity: String
    public var start: String
    public var duration: String
    public var energy: String
    public var distance: String
}

/// A time span within a day's chart, 0…1 across it.
public struct SleepSpan: Sendable, Hashable {
    public var stage: String
    public var start: Double
    public var end: Double
}

public struct DaySummary: Sendable {
    public var day: DayDate
    /// Length of the day in hours: 23 or 25 on DST changes.
    public var hours: Double
    public var metrics: [MetricRow]
    public var workouts: [WorkoutRow]
    public var workoutsVisibility: Visibility
    /// Steps per local hour as the app sees them (nil: hidden from the app).
    public var stepsByHour: [Double?]
    /// The local clock hour each of `stepsByHour` starts at: 23 of them when clocks go forward
    /// (no `02`), 25 when they go back (`01`, then `01′`).
    public var hourLabels: [String] = []
    /// Where local 00:00, 06:00, 12:00, 18:00 and 24:00 fall across the day (0…1): evenly spaced only
    /// on a 24-hour day.
    public var clockTicks: [(x: Double, label: String)] = []
    /// Heart rate over the day as the app sees it: (fraction of day, bpm).
    public var heartRate: [(x: Double, bpm: Double)]
    public var heartRateVisibility: Visibility
    /// The night ending this day, 18:00 the evening before to 12:00.
    public var sleep: [SleepSpan]
    public var sleepVisibility: Visibility
    /// Headline numbers for the overview, as the app sees them (nil when hidden).
    public var stepsSeen: Double?
    public var stepsHeld: Double
    public var sleepSeenHours: Double?
    public var sleepHeldHours: Double
}

public struct AppSummary: Sendable {
    public var appID: String
    public var days: [DaySummary]
    public var timelines: [ScenarioTimeline]
    public var scenarios: [Scenario]
    /// Requested types the simulated store does not model (e.g. clinical records).
    public var unmodelledTypes: [String]
}
