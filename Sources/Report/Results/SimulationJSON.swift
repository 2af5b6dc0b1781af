import HealthStore
import Manifest
import Summary

/// An app's `simulation` block in a result: its daily summaries and scenario timelines as the
/// pages show them, numbers exact, so pages built from a result equal the source build's.
enum SimulationJSON {
    static func simulation(_ simulation: SimulationReport) -> JSONValue {
        .object([
            ("days", .array(simulation.days.map(day))),
            ("scenarios", .array(simulation.scenarios.map(scenario))),
            ("unmodelledTypes", .strings(simulation.unmodelledTypes)),
        ])
    }

    static func read(_ node: JSONNode) throws(ResultFormatError) -> SimulationReport {
        let days = try node.field("days").map(day)
        guard days.count <= DayRange.maxDays else { throw try node.field("days").problem("more than \(DayRange.maxDays) days") }
        return SimulationReport(days: days, scenarios: try node.field("scenarios").map(scenario),
                                unmodelledTypes: try node.field("unmodelledTypes").strings())
    }

    // MARK: - Days

    private static func day(_ day: DaySummary) -> JSONValue {
        .object([
            ("day", .string(day.day.description)),
            ("hours", .number(day.hours)),
            ("metrics", .array(day.metrics.map { row in
                .object([("name", .string(row.name)), ("type", .string(row.type)), ("held", .string(row.held)), ("seen", .string(row.seen)),
                         ("visibility", visibility(row.visibility))])
            })),
            ("workouts", .array(day.workouts.map { row in
                .object([("activity", .string(row.activity)), ("start", .string(row.start)), ("duration", .string(row.duration)),
                         ("energy", .string(row.energy)), ("distance", .string(row.distance))])
            })),
            ("workoutsVisibility", visibility(day.workoutsVisibility)),
            ("stepsByHour", .array(day.stepsByHour.map(JSONValue.optional))),
            ("hourLabels", .array(day.hourLabels.map(JSONValue.string))),
            ("clockTicks", .array(day.clockTicks.map { .object([("x", .number($0.x)), ("label", .string($0.label))]) })),
            ("heartRate", .array(day.heartRate.map { .object([("x", .number($0.x)), ("bpm", .number($0.bpm))]) })),
            ("heartRateVisibility", visibility(day.heartRateVisibility)),
            ("sleep", .array(day.sleep.map { .object([("stage", .string($0.stage)), ("start", .number($0.start)), ("end", .number($0.end))]) })),
            ("sleepVisibility", visibility(day.sleepVisibility)),
            ("stepsSeen", .optional(day.stepsSeen)),
            ("stepsHeld", .number(day.stepsHeld)),
            ("sleepSeenHours", .optional(day.sleepSeenHours)),
            ("sleepHeldHours", .number(day.sleepHeldHours)),
        ])
    }

    private static func day(_ node: JSONNode) throws(ResultFormatError) -> DaySummary {
        let dayNode = try node.field("day")
        guard let date = DayDate(try dayNode.string()) else { throw dayNode.problem("expected a day as YYYY-MM-DD") }
        let metrics = try node.field("metrics").map { row throws(ResultFormatError) in
            MetricRow(name: try row.field("name").string(), held: try row.field("held").string(), seen: try row.field("seen").string(),
                      visibility: try visibility(row.field("visibility")), type: try row.field("type").string())
        }
        let workouts = try node.field("workouts").map { row throws(ResultFormatError) in
            WorkoutRow(activity: try row.field("activity").string(), start: try row.field("start").string(), duration: try row.field("duration").string(),
                       energy: try row.field("energy").string(), distance: try row.field("distance").string())
        }
        let steps = try node.field("stepsByHour").map { hour throws(ResultFormatError) in hour.isNull ? nil : try hour.double() }
        let heart = try node.field("heartRate").map { point throws(ResultFormatError) in (x: try point.field("x").double(), bpm: try point.field("bpm").double()) }
        let sleep = try node.field("sleep").map { span throws(ResultFormatError) in
            SleepSpan(stage: try span.field("stage").string(), start: try span.field("start").double(), end: try span.field("end").double())
        }
        let labels = try node.field("hourLabels").strings()
        let ticks = try node.field("clockTicks").map { tick throws(ResultFormatError) in (x: try tick.field("x").double(), label: try tick.field("label").string()) }
        var summary = DaySummary(day: date, hours: try node.field("hours").double(), metrics: metrics, workouts: workouts,
                          workoutsVisibility: try visibility(node.field("workoutsVisibility")), stepsByHour: steps, heartRate: heart,
                          heartRateVisibility: try visibility(node.field("heartRateVisibility")), sleep: sleep,
                          sleepVisibility: try visibility(node.field("sleepVisibility")),
                          stepsSeen: try node.optionalField("stepsSeen")?.double(), stepsHeld: try node.field("stepsHeld").double(),
                          sleepSeenHours: try node.optionalField("sleepSeenHours")?.double(), sleepHeldHours: try node.field("sleepHeldHours").double())
        summary.hourLabels = labels
        summary.clockTicks = ticks
        return summary
    }

    private static func visibility(_ visibility: Visibility) -> JSONValue {
        .object([("state", .string(visibility.state)), ("error", visibility.error.map(error) ?? .null)])
    }

    private static func visibility(_ node: JSONNode) throws(ResultFormatError) -> Visibility {
        let state = try node.field("state").string()
        guard let visibility = Visibility(state: state, error: try node.optionalField("error").map(error)) else {
            throw node.problem("'\(state)' is not a visibility (visible, readNotGranted, neverAsked or failed with an error, notSet)")
        }
        return visibility
    }

    // MARK: - Scenarios

    private static func scenario(_ scenario: ScenarioReport) -> JSONValue {
        .object([
            ("id", .string(scenario.id)), ("title", .string(scenario.title)), ("summary", .string(scenario.summary)),
            ("steps", .array(scenario.steps.map { step in
                .object([
                    ("index", .int(step.index)), ("action", .string(step.action)), ("outcome", .string(step.outcome)),
                    ("status", .optional(step.status)), ("error", step.error.map(error) ?? .null),
                    ("samplesSeen", .optional(step.samplesSeen)),
                    ("crash", step.crash.map { .object([("exceptionName", .string($0.exceptionName)), ("reason", .string($0.reason))]) } ?? .null),
                    ("skipped", .bool(step.skipped)),
                ])
            })),
        ])
    }

    private static func scenario(_ node: JSONNode) throws(ResultFormatError) -> ScenarioReport {
        let steps = try node.field("steps").map { step throws(ResultFormatError) in
            ScenarioReport.Step(
                index: try step.field("index").int(), action: try step.field("action").string(), outcome: try step.field("outcome").string(),
                status: try step.optionalField("status")?.string(), error: try step.optionalField("error").map(error),
                samplesSeen: try step.optionalField("samplesSeen")?.int(),
                crash: try step.optionalField("crash").map { crash throws(ResultFormatError) in
                    HealthKitCrash(reason: try crash.field("reason").string(), exceptionName: try crash.field("exceptionName").string())
                },
                skipped: try step.field("skipped").bool())
        }
        return ScenarioReport(id: try node.field("id").string(), title: try node.field("title").string(),
                              summary: try node.field("summary").string(), steps: steps)
    }

    private static func error(_ error: HealthKitError) -> JSONValue {
        .object([("code", .int(error.code)), ("name", .string(error.name)), ("description", .string(error.description))])
    }

    private static func error(_ node: JSONNode) throws(ResultFormatError) -> HealthKitError {
        let code = try node.field("code")
        guard let known = HKErrorCode(rawValue: try code.int()) else { throw code.problem("not an HKError code (0–15)") }
        return HealthKitError(known, description: try node.field("description").string())
    }
}
