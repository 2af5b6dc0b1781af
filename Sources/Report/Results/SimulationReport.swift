import HealthStore
import Summary

/// What the site shows of an app's simulation: its daily summaries and its scenario timelines,
/// as the simulated store produced them (a source build) or as a result carries them.
public struct SimulationReport: Sendable {
    public var days: [DaySummary]
    public var scenarios: [ScenarioReport]
    /// Requested types the simulated store does not model (e.g. clinical records).
    public var unmodelledTypes: [String]

    public init(days: [DaySummary], scenarios: [ScenarioReport], unmodelledTypes: [String]) {
        self.days = days; self.scenarios = scenarios; self.unmodelledTypes = unmodelledTypes
    }

    public init(_ summary: AppSummary) {
        let scenarios = zip(summary.scenarios, summary.timelines).map { scenario, timeline in
            ScenarioReport(id: scenario.id, title: scenario.title, summary: scenario.summary, steps: timeline.events.map(ScenarioReport.Step.init))
        }
        self.init(days: summary.days, scenarios: scenarios, unmodelledTypes: summary.unmodelledTypes)
    }
}

/// One scenario replayed against the simulated store, step by step, as the app page shows it.
public struct ScenarioReport: Sendable, Hashable {
    public struct Step: Sendable, Hashable {
        /// From 0.
        public var index: Int
        public var action: String
        public var outcome: String
        public var status: String?
        public var error: HealthKitError?
        public var samplesSeen: Int?
        public var crash: HealthKitCrash?
        public var skipped: Bool

        public init(index: Int, action: String, outcome: String, status: String?, error: HealthKitError?, samplesSeen: Int?,
                    crash: HealthKitCrash?, skipped: Bool) {
            self.index = index; self.action = action; self.outcome = outcome; self.status = status; self.error = error
            self.samplesSeen = samplesSeen; self.crash = crash; self.skipped = skipped
        }

        init(_ event: ScenarioEvent) {
            self.init(index: event.index, action: event.action, outcome: event.outcome, status: event.status, error: event.error,
                      samplesSeen: event.samplesSeen, crash: event.crash, skipped: event.skipped)
        }
    }

    public var id: String
    public var title: String
    public var summary: String
    public var steps: [Step]

    public init(id: String, title: String, summary: String, steps: [Step]) {
        self.id = id; self.title = title; self.summary = summary; self.steps = steps
    }
}
