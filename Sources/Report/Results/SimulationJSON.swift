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
        let daysNode = try node.field("days")
        guard try daysNode.array().count <= DayRange.maxDays else { throw daysNode.problem("more than \(DayRange.maxDays) days") }
        let days = try daysNode.map(day)
        try checkOrder(days, daysNode)
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

    /// Each day is one page (`2026-04-01.html`) linked to the day before and after: the days come
    /// in order, each once, as `check` writes them.
    private static func checkOrder(_ days: [DaySummary], _ node: JSONNode) throws(ResultFormatError) {
        let items = try node.array()
        for index in days.indices.dropFirst() where days[index].day <= days[index - 1].day {
            let field = try items[index].field("day")
            if let first = days.firstIndex(where: { $0.day == days[index].day }), first != index {
                throw field.problem("\(days[index].day) is also days[\(first)]: each day is listed once")
            }
            throw field.problem("\(days[index].day) comes after \(days[index - 1].day): the days are listed in order")
        }
    }

    private static func day(_ node: JSONNode) throws(ResultFormatError) -> DaySummary {
        let dayNode = try node.field("day")
        let text = try dayNode.string()
        // Canonical digits only: `DayDate` alone would take `+202-04-01` as the year 202.
        guard let date = DayDate(text), date.description == text else { throw dayNode.problem("expected a day as YYYY-MM-DD") }
        let metrics = try node.field("metrics").map { row throws(ResultFormatError) in
            MetricRow(name: try row.field("name").string(), held: try row.field("held").string(), seen: try row.field("seen").string(),
                      visibility: try visibility(row.field("visibility")), type: try row.field("type").string())
        }
        let workouts = try node.field("workouts").map { row throws(ResultFormatError) in
            WorkoutRow(activity: try row.field("activity").string(), start: try row.field("start").string(), duration: try row.field("duration").string(),
                       energy: try row.field("energy").string(), distance: try row.field("distance").string())
        }
        let steps = try node.field("stepsByHour").map { hour throws(ResultFormatError) in hour.isNull ? nil : try hour.double(in: ResultRanges.steps) }
        let heart = try node.field("heartRate").map { point throws(ResultFormatError) in
            (x: try point.field("x").double(in: ResultRanges.fraction), bpm: try point.field("bpm").double(in: ResultRanges.beatsPerMinute))
        }
        let sleep = try node.field("sleep").map { span throws(ResultFormatError) in
            let start = try span.field("start").double(in: ResultRanges.fraction), endNode = try span.field("end")
            let end = try endNode.double(in: ResultRanges.fraction)
            guard end >= start else { throw endNode.problem("a sleep span ends before it starts") }
            return SleepSpan(stage: try span.field("stage").string(), start: start, end: end)
        }
        let labels = try node.field("hourLabels").strings()
        let ticks = try node.field("clockTicks").map { tick throws(ResultFormatError) in
            (x: try tick.field("x").double(in: ResultRanges.fraction), label: try tick.field("label").string())
        }
        var summary = DaySummary(day: date, hours: try node.field("hours").double(in: ResultRanges.dayHours), metrics: metrics, workouts: workouts,
                          workoutsVisibility: try visibility(node.field("workoutsVisibility")), stepsByHour: steps, heartRate: heart,
                          heartRateVisibility: try visibility(node.field("heartRateVisibility")), sleep: sleep,
                          sleepVisibility: try visibility(node.field("sleepVisibility")),
                          stepsSeen: try node.optionalField("stepsSeen")?.double(in: ResultRanges.steps),
                          stepsHeld: try node.field("stepsHeld").double(in: ResultRanges.steps),
                          sleepSeenHours: try node.optionalField("sleepSeenHours")?.double(in: ResultRanges.sleepHours),
                          sleepHeldHours: try node.field("sleepHeldHours").double(in: ResultRanges.sleepHours))
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
        var position = 0
        let steps = try node.field("steps").map { step throws(ResultFormatError) in
            // Numbered from 0 in order: the number is the step's anchor on the app page.
            let indexNode = try step.field("index")
            guard try indexNode.int(in: ResultRanges.samples) == position else { throw indexNode.problem("expected \(position): steps are numbered from 0 in order") }
            position += 1
            return ScenarioReport.Step(
                index: position - 1, action: try step.field("action").string(), outcome: try step.field("outcome").string(),
                status: try step.optionalField("status")?.string(), error: try step.optionalField("error").map(error),
                samplesSeen: try step.optionalField("samplesSeen")?.int(in: ResultRanges.samples),
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
        guard let known = HKErrorCode(rawValue: try code.int(in: ResultRanges.errorCode)) else { throw code.problem("not an HKError code") }
        return HealthKitError(known, description: try node.field("description").string())
    }
}
