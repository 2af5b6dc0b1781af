import Foundation

/// A short script of what an app and its user do, replayed against a store to show what the app observes.
public struct Scenario: Sendable, Hashable {
    public var id: String
    public var title: String
    /// One or two sentences: what the scenario demonstrates.
    public var summary: String
    public var steps: [ScenarioStep]

    public init(id: String, title: String, summary: String = "", steps: [ScenarioStep]) {
        self.id = id; self.title = title; self.summary = summary; self.steps = steps
    }
}

public enum ScenarioStep: Sendable, Hashable {
    /// The app (or one of its extensions) starts. After a crash, steps are skipped until the next launch.
    case launch(LaunchContext)
    /// `HKHealthStore.isHealthDataAvailable()`.
    case checkAvailability
    /// `requestAuthorization(toShare:read:)`; `answers` is what the simulated user picks on the sheet
    /// (a type the sheet shows without an answer is left off, i.e. denied).
    case requestAuthorization(share: [HealthTypeID], read: [HealthTypeID], answers: [HealthTypeID: PermissionGrant])
    /// `authorizationStatus(for:)`.
    case checkAuthorizationStatus(HealthTypeID)
    /// `statusForAuthorizationRequest(toShare:read:)`.
    case checkRequestStatus(share: [HealthTypeID], read: [HealthTypeID])
    case query(ScenarioQuery)
    /// The user opens Settings → Health and changes toggles (the app goes to the background).
    case openSettings(changes: [HealthTypeID: PermissionGrant])
    /// The user comes back to the app.
    case returnToApp
    /// The app saves one sample of `value` (in `unit`, or the type's canonical unit) ending at "now".
    case save(HealthTypeID, value: Double, unit: HealthUnit?)
    case lockDevice
    case unlockDevice
}

public enum LaunchContext: Sendable, Hashable {
    case app
    /// A widget or other extension: no authorization sheet can be shown from it.
    case appExtension(name: String)
}

public enum ScenarioQuery: Sendable, Hashable {
    case samples(HealthTypeID, window: QueryWindow, limit: Int)
    case statistics(HealthTypeID, window: QueryWindow, options: StatisticsOptions)
    case dailyStatistics(HealthTypeID, window: QueryWindow, options: StatisticsOptions)
    case workouts(window: QueryWindow)
    case dateOfBirth
    case biologicalSex
}

/// A query's time range relative to the scenario's "now" (the end of the data set's last day unless given).
public enum QueryWindow: Sendable, Hashable {
    /// The last day: local midnight to now.
    case today
    /// The last n whole days, ending now.
    case lastDays(Int)
    case between(Date, Date)
}

/// What one step produced.
public struct ScenarioEvent: Sendable, Hashable {
    public var index: Int
    public var step: ScenarioStep
    /// The call as an app would write it, e.g. `requestAuthorization(toShare: [bodyMass], read: [stepCount])`.
    public var action: String
    /// A one-line account of the result.
    public var outcome: String
    /// A returned status or value name: "true", "notDetermined", "shouldRequest", "female", …
    public var status: String?
    public var error: HealthKitError?
    /// Samples, buckets with data, or workouts the app received.
    public var samplesSeen: Int?
    /// A numeric result (a statistic, a day's total).
    public var value: Double?
    public var sheetShown: Bool?
    public var crash: HealthKitCrash?
    /// Not run: the app had crashed and was not relaunched.
    public var skipped: Bool

    public init(index: Int, step: ScenarioStep, action: String, outcome: String, status: String? = nil,
                error: HealthKitError? = nil, samplesSeen: Int? = nil, value: Double? = nil, sheetShown: Bool? = nil,
                crash: HealthKitCrash? = nil, skipped: Bool = false) {
        self.index = index; self.step = step; self.action = action; self.outcome = outcome; self.status = status
        self.error = error; self.samplesSeen = samplesSeen; self.value = value; self.sheetShown = sheetShown
        self.crash = crash; self.skipped = skipped
    }
}

public struct ScenarioTimeline: Sendable, Hashable {
    public var scenarioID: String
    public var events: [ScenarioEvent]

    public var crashes: [HealthKitCrash] { events.compactMap(\.crash) }
    public var errors: [HealthKitError] { events.compactMap(\.error) }
    public var crashed: Bool { !crashes.isEmpty }
}
