import Checklist
import Foundation
import HealthStore
import Manifest
import Summary

/// The per-app overview of the range and one page per day: what the app sees beside what the
/// store holds, and why they differ.
struct SummaryPages {
    let app: AppReport
    let summary: SimulationReport
    let renderer: SiteRenderer
    let siteTitle: String

    var appID: String { app.id }

    func files() -> [OutputFile] {
        [overview()] + summary.days.enumerated().map { dayPage($0.element, index: $0.offset) }
    }

    /// Set when the app's read requests could not be resolved: what it sees is then unknown.
    ///
    /// The simulation's grants come from the config, which cannot say what the code asks for
    /// here: hatching everything would claim the app sees nothing, and "sees everything" would
    /// claim the opposite. So the pages show what the store holds, unhatched, labelled
    /// "permissions unknown", under a banner naming the requests to resolve.
    var unknownBanner: String? {
        guard app.readRequestsUnknown else { return nil }
        let requests = app.unresolvedRead.phrase(place: MarkdownText.code)
        return MarkdownRenderer.inline("**Permissions unknown.** What **\(MarkdownText.escape(app.name))** reads is \(requests), so these pages show what the store holds and cannot say what the app sees. List the types under `requested:` in the config to compare them.")
    }

    /// The overview's template values.
    struct OverviewModel: TemplateModel {
        var name: String
        var appURL: String
        var days: [DayRow]
        var narrative: String
        var trends: [TrendChart]
        /// Templates copied from an earlier version name these two charts.
        var stepsChart: String
        var sleepChart: String
        /// Why there is no trend chart, when there is none.
        var noTrends: String?
        /// When what the app sees is unknown, the two charts' captions say so.
        var stepsCaption: String?
        var sleepCaption: String?
        var unknownBanner: String?
    }

    /// A day's row of the overview's table.
    struct DayRow: TemplateModel {
        var day: String
        var url: String
        var hours: String
        var stepsSeen: String
        var stepsHeld: String
        var sleepSeen: String
        var sleepHeld: String
        var differs: Bool
        var hiddenText: String
    }

    func overview() -> OutputFile {
        let path = SitePaths.summary(appID)
        let unknown = app.readRequestsUnknown
        let days = summary.days.map { day in
            DayRow(day: day.day.description, url: "\(day.day).html", hours: UnitFormatter.number(day.hours),
                   stepsSeen: unknown ? "unknown" : day.stepsSeen.map { UnitFormatter.number($0) } ?? "hidden",
                   stepsHeld: UnitFormatter.number(day.stepsHeld),
                   sleepSeen: unknown ? "unknown" : day.sleepSeenHours.map { UnitFormatter.number($0, decimals: 1) + " h" } ?? "hidden",
                   sleepHeld: UnitFormatter.number(day.sleepHeldHours, decimals: 1) + " h",
                   differs: day.metrics.contains(where: \.differs),
                   hiddenText: unknown ? "unknown" : day.metrics.contains(where: \.differs) ? "yes" : "no")
        }
        let trends = trendCharts()
        let period = "from \(summary.days.first?.day.description ?? "") to \(summary.days.last?.day.description ?? "")"
        var md = MarkdownWriter()
        md.paragraph(unknown
            ? "Daily summaries of the simulated user's Health data \(period), as the simulated HealthKit store holds them. Which of them **\(MarkdownText.escape(app.name))** sees is unknown."
            : "Daily summaries of the simulated user's Health data \(period), computed through the simulated HealthKit store under the permissions **\(MarkdownText.escape(app.name))** was granted. Hatched bands mark days whose data the store holds but the app's permissions hide.")
        if !summary.unmodelledTypes.isEmpty {
            md.paragraph("Requested types the simulated store does not model: " + summary.unmodelledTypes.map(MarkdownText.code).joined(separator: ", ") + ".")
        }
        let model = OverviewModel(
            name: app.name, appURL: "../index.html", days: days, narrative: MarkdownRenderer.render(md.text).html, trends: trends,
            stepsChart: trends.first { $0.key == "steps" }?.chart ?? "", sleepChart: trends.first { $0.key == "sleep" }?.chart ?? "",
            noTrends: trends.isEmpty ? noTrendsNote : nil,
            stepsCaption: unknown ? "Steps per day the store holds; what the app sees is unknown." : nil,
            sleepCaption: unknown ? "Hours asleep per night the store holds; what the app sees is unknown." : nil,
            unknownBanner: unknown ? unknownBanner : nil)
        return renderer.page("summary", path: path, title: "\(app.name): summaries", model: model, siteTitle: siteTitle)
    }

    /// A chart of the overview's trends: one per charted type the app reads.
    struct TrendChart: TemplateModel {
        var key: String
        var chart: String
        var caption: String
    }

    /// A type the overview can chart per day: the read type's name (as requests and the config
    /// spell it), the chart's key (its figure's id), what the app sees of it each day, and the
    /// words around its chart.
    struct Trend: Sendable {
        let type: String
        let key: String
        /// What the app sees on a day; nil: no bar.
        let seen: @Sendable (DaySummary) -> Double?
        /// Whether a day is hatched as hidden; nil: every day without a value is.
        let hidden: (@Sendable (DaySummary) -> Bool)?
        /// The chart's title, given the app's name.
        let title: @Sendable (String) -> String
        /// The values' unit in the chart's description, then on its axis.
        let unit: (described: String, axis: String)
        let hiddenReason: String
        let series: String
        let caption: String
    }

    /// The types the overview charts, in the order they are shown.
    static let trends: [Trend] = [
        Trend(type: "stepCount", key: "steps", seen: \.stepsSeen, hidden: nil,
              title: { "Steps per day as \($0) sees them" }, unit: ("steps", "steps"), hiddenReason: "steps are hidden from the app",
              series: "steps the app sees", caption: "Steps per day as the app sees them."),
        Trend(type: "sleepAnalysis", key: "sleep", seen: \.sleepSeenHours, hidden: nil,
              title: { "Hours asleep per night as \($0) sees them" }, unit: ("hours", "h"), hiddenReason: "sleep is hidden from the app",
              series: "hours asleep the app sees", caption: "Hours asleep per night as the app sees them."),
        // The mean of the day's hourly averages the app sees; a day it may see without a sample is
        // no bar, and no hatch either (nothing is hidden).
        Trend(type: "heartRate", key: "heart-rate",
              seen: { day in
                  day.heartRateVisibility == .visible && !day.heartRate.isEmpty ? day.heartRate.map(\.bpm).reduce(0, +) / Double(day.heartRate.count) : nil
              },
              hidden: { $0.heartRateVisibility != .visible },
              title: { "Average heart rate per day as \($0) sees it" }, unit: ("bpm", "bpm"), hiddenReason: "heart rate is hidden from the app",
              series: "average heart rate the app sees (mean of hourly averages)",
              caption: "Average heart rate per day as the app sees it (the mean of its hourly averages)."),
    ]

    /// The overview's trends: a chart for each charted type among the app's read requests, as the
    /// app sees it (hatched where hidden). When its read requests are unknown, the store's steps and
    /// sleep, labelled so (never a view the app may not have).
    func trendCharts() -> [TrendChart] {
        let labels = summary.days.map { String($0.day.description.suffix(5)) }
        func bars(_ values: [Double?], hidden: [Bool]? = nil) -> [SVGChart.Bar] {
            values.enumerated().map { SVGChart.Bar(label: labels[$0.offset], value: $0.element, hidden: hidden?[$0.offset]) }
        }
        if app.readRequestsUnknown {
            let steps = summary.days.map { Optional($0.stepsHeld) }, sleep = summary.days.map { Optional($0.sleepHeldHours) }
            return [
                TrendChart(key: "steps", chart: SVGChart.bars(bars(steps), title: "Steps per day the store holds (permissions unknown)",
                                                              description: Self.describe(steps, unit: "steps", hiddenReason: "the store holds no steps"),
                                                              unit: "steps", series: "steps the store holds (what the app sees is unknown)"),
                           caption: "Steps per day the store holds; what the app sees is unknown."),
                TrendChart(key: "sleep", chart: SVGChart.bars(bars(sleep), title: "Hours asleep per night the store holds (permissions unknown)",
                                                              description: Self.describe(sleep, unit: "hours", hiddenReason: "the store holds no sleep"),
                                                              unit: "h", series: "hours asleep the store holds (what the app sees is unknown)"),
                           caption: "Hours asleep per night the store holds; what the app sees is unknown."),
            ]
        }
        let read = Set(app.requestedRead)
        return Self.trends.filter { read.contains($0.type) }.map { trend in
            let values = summary.days.map(trend.seen)
            let chart = SVGChart.bars(bars(values, hidden: trend.hidden.map { summary.days.map($0) }), title: trend.title(app.name),
                                      description: Self.describe(values, unit: trend.unit.described, hiddenReason: trend.hiddenReason),
                                      unit: trend.unit.axis, series: trend.series)
            return TrendChart(key: trend.key, chart: chart, caption: trend.caption)
        }
    }

    /// Why the overview draws no trend: the app reads none of the charted types. HTML, every
    /// name escaped.
    var noTrendsNote: String {
        func code(_ text: String) -> String { "<code>" + HTMLText.escape(text) + "</code>" }
        let charted = Self.trends.map { code($0.type) }.joined(separator: ", ")
        let reads = app.requestedRead.isEmpty ? "it requests to read no type" : "it requests to read " + app.requestedRead.map(code).joined(separator: ", ")
        return "No trend chart: <strong>\(HTMLText.escape(app.name))</strong> reads none of the types charted here (\(charted)); \(reads)."
    }

    /// A day page's template values.
    struct DayModel: TemplateModel {
        var name: String
        var day: String
        var narrative: String
        var metrics: [Metric]
        var hasMetrics: Bool
        var stepsChart: String
        var heartChart: String
        var hasHeart: Bool
        var sleepChart: String
        var workouts: [Workout]
        var hasWorkouts: Bool
        /// Why the app does not see its heart rate, sleep or workouts, when it does not.
        var heartHidden: String?
        var sleepHidden: String?
        var workoutsHidden: String?
        /// The pages of the day before and after, when there are.
        var previous: String?
        var next: String?
        /// When the app's read requests are unknown: what the store holds, in place of the steps chart.
        var stepsUnknown: String?
        var unknownBanner: String?

        struct Metric: TemplateModel {
            var name: String
            var held: String
            var seen: String
            var why: String
            var differs: Bool
        }

        struct Workout: TemplateModel {
            var activity: String
            var start: String
            var duration: String
            var energy: String
            var distance: String
        }
    }

    /// A day of an app whose read requests are unknown: every metric the store holds, what the
    /// app sees marked unknown, and no chart of the app's view (there is none to draw).
    private func unknownDayPage(_ day: DaySummary, path: String, model base: DayModel) -> OutputFile {
        var model = base
        let length = day.hours == 24 ? "" : " This day lasts \(UnitFormatter.number(day.hours)) hours (daylight saving time changes)."
        var md = MarkdownWriter()
        md.paragraph("What the store holds on this day; what the app sees of it is unknown.\(length)")
        model.narrative = MarkdownRenderer.render(md.text).html
        model.metrics = day.metrics.map { DayModel.Metric(name: $0.name, held: $0.held, seen: "unknown", why: "permissions unknown", differs: false) }
        model.hasMetrics = !day.metrics.isEmpty
        model.stepsChart = ""
        model.stepsUnknown = "unknown (permissions unknown); the store holds \(UnitFormatter.number(day.stepsHeld)) steps this day"
        model.hasHeart = false
        model.heartHidden = "what the app sees is unknown (permissions unknown)"
        model.sleepHidden = nil
        model.workoutsHidden = "permissions unknown; the workouts below are the store's"
        model.unknownBanner = unknownBanner
        return renderer.page("day", path: path, title: "\(app.name): \(day.day)", model: model, siteTitle: siteTitle)
    }

    func dayPage(_ day: DaySummary, index: Int) -> OutputFile {
        let path = SitePaths.day(appID, day.day.description)
        // A metric the app never asked for is no loss to it: it is left out of the comparison, and
        // only what the app asked for and did not get counts as hidden.
        let asked = day.metrics.filter { row in
            if case .neverAsked = row.visibility { return false }
            return true
        }
        let hidden = asked.filter(\.differs)
        let unasked = day.metrics.count - asked.count
        var md = MarkdownWriter()
        let length = day.hours == 24 ? "" : " This day lasts \(UnitFormatter.number(day.hours)) hours (daylight saving time changes)."
        if asked.isEmpty {
            // Nothing to compare: saying "sees everything" above an empty table would claim the opposite of the truth.
            md.paragraph("The app was never asked for any of the metrics this page compares (the config's `permissions:` answers none of them), so it sees none of them.\(length)")
        } else if hidden.isEmpty {
            md.paragraph("The app sees everything the store holds for this day.\(length)")
        } else {
            md.paragraph("The store holds more than **\(MarkdownText.escape(app.name))** sees on this day: \(Plural.count(hidden.count, "metric")) differ, and the app cannot tell missing data from denied access.\(length)")
        }
        if unasked > 0 {
            md.paragraph("\(Plural.count(unasked, "metric")) the app never asked for \(unasked == 1 ? "is" : "are") left out of the comparison.")
        }
        let metrics = asked.map { DayModel.Metric(name: $0.name, held: $0.held, seen: $0.seen, why: $0.visibility.explanation ?? "", differs: $0.differs) }
        // Labelled with the local clock: a daylight-saving day has 23 or 25 bars, and its axis says so.
        let hours = day.stepsByHour.enumerated().map { SVGChart.Bar(label: $0.offset < day.hourLabels.count ? day.hourLabels[$0.offset] : SVGChart.twoDigits($0.offset), value: $0.element) }
        let stepsChart = SVGChart.bars(hours, title: "Steps by hour on \(day.day)", description: Self.describe(day.stepsByHour, unit: "steps", hiddenReason: "steps are hidden from the app"), unit: "steps", series: "steps per hour the app sees")
        let heartChart = day.heartRate.isEmpty ? "" : SVGChart.line(day.heartRate.map { .init(x: $0.x, y: $0.bpm) },
            title: "Heart rate on \(day.day)",
            description: "Hourly average heart rate, \(UnitFormatter.number(day.heartRate.map(\.bpm).min() ?? 0)) to \(UnitFormatter.number(day.heartRate.map(\.bpm).max() ?? 0)) bpm.",
            unit: "bpm", minimum: 40, ticks: day.clockTicks, series: "hourly average heart rate the app sees (bpm)")
        let lanes = ["Core", "Deep", "REM", "Asleep", "Awake", "In bed"]
        let sleepChart = SVGChart.timeline(day.sleep.map { .init(lane: Self.lane($0.stage), start: $0.start, end: $0.end) }, lanes: lanes,
            title: "Sleep stages for the night ending \(day.day)",
            description: "Sleep stages from 18:00 the evening before to 12:00, as recorded by the main sleep source; \(Plural.count(day.sleep.count, "segment")).",
            axisLabels: ["18:00", "21:00", "00:00", "03:00", "06:00", "09:00", "12:00"])
        let model = DayModel(
            name: app.name, day: day.day.description, narrative: MarkdownRenderer.render(md.text).html,
            metrics: metrics, hasMetrics: !metrics.isEmpty, stepsChart: stepsChart, heartChart: heartChart, hasHeart: !heartChart.isEmpty,
            sleepChart: sleepChart,
            workouts: day.workouts.map { DayModel.Workout(activity: $0.activity, start: $0.start, duration: $0.duration, energy: $0.energy, distance: $0.distance) },
            hasWorkouts: !day.workouts.isEmpty,
            // Mustache treats an empty string as true: the explanations are set only when there is one.
            heartHidden: day.heartRateVisibility.explanation, sleepHidden: day.sleepVisibility.explanation,
            workoutsHidden: day.workoutsVisibility.explanation,
            previous: index > 0 ? summary.days[index - 1].day.description + ".html" : nil,
            next: index + 1 < summary.days.count ? summary.days[index + 1].day.description + ".html" : nil)
        if app.readRequestsUnknown { return unknownDayPage(day, path: path, model: model) }
        return renderer.page("day", path: path, title: "\(app.name): \(day.day)", model: model, siteTitle: siteTitle)
    }

    static func lane(_ stage: String) -> String {
        stage == "Asleep (no stage)" ? "Asleep" : stage
    }

    static func describe(_ values: [Double?], unit: String, hiddenReason: String) -> String {
        let visible = values.compactMap { $0 }
        guard !visible.isEmpty else { return "No values: \(hiddenReason)." }
        return "\(visible.count) of \(values.count) values visible, from \(UnitFormatter.number(visible.min()!, decimals: 1)) to \(UnitFormatter.number(visible.max()!, decimals: 1)) \(unit)."
    }
}

/// The scenario timelines shown on an app's audit page.
enum ScenarioSection {
    struct Scenario: TemplateModel {
        var title: String
        var summary: String
        var id: String
        var events: [Event]
    }

    struct Event: TemplateModel {
        /// From 1.
        var index: Int
        var action: String
        var outcome: String
        var status: String
        var skipped: Bool
        var anchor: String
        var error: String?
        var crash: String?
        /// "3 samples", when the step received some.
        var seen: String?
    }

    static func scenarios(_ simulation: SimulationReport?) -> [Scenario] {
        (simulation?.scenarios ?? []).map { scenario in
            Scenario(title: scenario.title, summary: scenario.summary, id: scenario.id, events: scenario.steps.map { event in
                Event(index: event.index + 1, action: event.action, outcome: event.outcome, status: event.status ?? "", skipped: event.skipped,
                      anchor: ProblemSummary.stepAnchor(scenario.id, event.index), error: event.error.map { "\($0.name) (\($0.code))" },
                      crash: event.crash?.description, seen: event.samplesSeen.map { Plural.count($0, "sample") })
            })
        }
    }
}
