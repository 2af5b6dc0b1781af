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

    /// The case's name, as results write it.
    public var state: String {
        switch self {
        case .visible: "visible"
        case .readNotGranted: "readNotGranted"
        case .neverAsked: "neverAsked"
        case .failed: "failed"
        case .notSet: "notSet"
        }
    }

    public var error: HealthKitError? {
        switch self {
        case .neverAsked(let error), .failed(let error): error
        default: nil
        }
    }

    /// The visibility `state` names; `neverAsked` and `failed` need their error.
    public init?(state: String, error: HealthKitError?) {
        switch (state, error) {
        case ("visible", nil): self = .visible
        case ("readNotGranted", nil): self = .readNotGranted
        case ("notSet", nil): self = .notSet
        case ("neverAsked", let error?): self = .neverAsked(error)
        case ("failed", let error?): self = .failed(error)
        default: return nil
        }
    }

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

    public init(name: String, held: String, seen: String, visibility: Visibility, type: String) {
        self.name = name; self.held = held; self.seen = seen; self.visibility = visibility; self.type = type
    }
}

public struct WorkoutRow: Sendable, Hashable {
    public var activity: String
    public var start: String
    public var duration: String
    public var energy: String
    public var distance: String

    public init(activity: String, start: String, duration: String, energy: String, distance: String) {
        self.activity = activity; self.start = start; self.duration = duration; self.energy = energy; self.distance = distance
    }
}

/// A time span within a day's chart, 0…1 across it.
public struct SleepSpan: Sendable, Hashable {
    public var stage: String
    public var start: Double
    public var end: Double

    public init(stage: String, start: Double, end: Double) { self.stage = stage; self.start = start; self.end = end }
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

    public init(day: DayDate, hours: Double, metrics: [MetricRow], workouts: [WorkoutRow], workoutsVisibility: Visibility,
                stepsByHour: [Double?], heartRate: [(x: Double, bpm: Double)], heartRateVisibility: Visibility,
                sleep: [SleepSpan], sleepVisibility: Visibility, stepsSeen: Double?, stepsHeld: Double, sleepSeenHours: Double?, sleepHeldHours: Double) {
        self.day = day; self.hours = hours; self.metrics = metrics; self.workouts = workouts; self.workoutsVisibility = workoutsVisibility
        self.stepsByHour = stepsByHour; self.heartRate = heartRate; self.heartRateVisibility = heartRateVisibility
        self.sleep = sleep; self.sleepVisibility = sleepVisibility; self.stepsSeen = stepsSeen; self.stepsHeld = stepsHeld
        self.sleepSeenHours = sleepSeenHours; self.sleepHeldHours = sleepHeldHours
    }
}

public struct AppSummary: Sendable {
    public var appID: String
    public var days: [DaySummary]
    public var timelines: [ScenarioTimeline]
    public var scenarios: [Scenario]
    /// Requested types the simulated store does not model (e.g. clinical records).
    public var unmodelledTypes: [String]
}
