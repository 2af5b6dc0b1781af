import HealthStore
import Manifest
import Summary

// An app's `simulation` block: the summaries and scenarios as the result format carries them, and
// back. Numbers are kept exact, so pages built from a result equal the source build's.

extension ResultFormat.Simulation {
    init(_ simulation: SimulationReport) {
        self.init(days: simulation.days.map(ResultFormat.Day.init), scenarios: simulation.scenarios.map(ResultFormat.Scenario.init),
                  unmodelledTypes: simulation.unmodelledTypes)
    }
}

extension SimulationReport {
    /// A decoded (so checked) simulation.
    init(_ simulation: ResultFormat.Simulation) {
        self.init(days: simulation.days.map(DaySummary.init), scenarios: simulation.scenarios.map(ScenarioReport.init),
                  unmodelledTypes: simulation.unmodelledTypes)
    }
}

// MARK: - Days

extension ResultFormat.Day {
    init(_ day: DaySummary) {
        self.init(
            day: day.day.description, hours: BoundedDouble(day.hours),
            metrics: day.metrics.map { .init(name: $0.name, type: $0.type, held: $0.held, seen: $0.seen, visibility: .init($0.visibility)) },
            workouts: day.workouts.map { .init(activity: $0.activity, start: $0.start, duration: $0.duration, energy: $0.energy, distance: $0.distance) },
            workoutsVisibility: .init(day.workoutsVisibility),
            stepsByHour: day.stepsByHour.map { $0.map(BoundedDouble.init) },
            hourLabels: day.hourLabels,
            clockTicks: day.clockTicks.map { .init(x: BoundedDouble($0.x), label: $0.label) },
            heartRate: day.heartRate.map { .init(x: BoundedDouble($0.x), bpm: BoundedDouble($0.bpm)) },
            heartRateVisibility: .init(day.heartRateVisibility),
            sleep: day.sleep.map { .init(stage: $0.stage, start: BoundedDouble($0.start), end: BoundedDouble($0.end)) },
            sleepVisibility: .init(day.sleepVisibility),
            stepsSeen: day.stepsSeen.map(BoundedDouble.init), stepsHeld: BoundedDouble(day.stepsHeld),
            sleepSeenHours: day.sleepSeenHours.map(BoundedDouble.init), sleepHeldHours: BoundedDouble(day.sleepHeldHours))
    }
}

extension DaySummary {
    /// A decoded day: its date, visibilities and error codes were checked as it was decoded.
    init(_ day: ResultFormat.Day) {
        self.init(day: DayDate(day.day)!, hours: day.hours.value,
                  metrics: day.metrics.map { MetricRow(name: $0.name, held: $0.held, seen: $0.seen, visibility: $0.visibility.visibility!, type: $0.type) },
                  workouts: day.workouts.map { WorkoutRow(activity: $0.activity, start: $0.start, duration: $0.duration, energy: $0.energy, distance: $0.distance) },
                  workoutsVisibility: day.workoutsVisibility.visibility!, stepsByHour: day.stepsByHour.map { $0?.value },
                  heartRate: day.heartRate.map { (x: $0.x.value, bpm: $0.bpm.value) }, heartRateVisibility: day.heartRateVisibility.visibility!,
                  sleep: day.sleep.map { SleepSpan(stage: $0.stage, start: $0.start.value, end: $0.end.value) },
                  sleepVisibility: day.sleepVisibility.visibility!, stepsSeen: day.stepsSeen?.value, stepsHeld: day.stepsHeld.value,
                  sleepSeenHours: day.sleepSeenHours?.value, sleepHeldHours: day.sleepHeldHours.value)
        hourLabels = day.hourLabels
        clockTicks = day.clockTicks.map { (x: $0.x.value, label: $0.label) }
    }
}

extension ResultFormat.Visibility {
    init(_ visibility: DayVisibility) {
        self.init(state: visibility.state, error: visibility.error.map(ResultFormat.HealthError.init))
    }
}

extension ResultFormat.HealthError {
    init(_ error: HealthKitError) {
        self.init(code: BoundedInt(error.code), name: error.name, description: error.description)
    }
}

// MARK: - Scenarios

extension ResultFormat.Scenario {
    init(_ scenario: ScenarioReport) {
        self.init(id: scenario.id, title: scenario.title, summary: scenario.summary, steps: scenario.steps.map { step in
            ResultFormat.Step(index: BoundedInt(step.index), action: step.action, outcome: step.outcome, status: step.status,
                              error: step.error.map(ResultFormat.HealthError.init), samplesSeen: step.samplesSeen.map(BoundedInt.init),
                              crash: step.crash.map { .init(exceptionName: $0.exceptionName, reason: $0.reason) }, skipped: step.skipped)
        })
    }
}

extension ScenarioReport {
    init(_ scenario: ResultFormat.Scenario) {
        self.init(id: scenario.id, title: scenario.title, summary: scenario.summary, steps: scenario.steps.map { step in
            ScenarioReport.Step(index: step.index.value, action: step.action, outcome: step.outcome, status: step.status, error: step.error?.error,
                                samplesSeen: step.samplesSeen?.value,
                                crash: step.crash.map { HealthKitCrash(reason: $0.reason, exceptionName: $0.exceptionName) }, skipped: step.skipped)
        })
    }
}
