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

    func overview() -> OutputFile {
        let path = SitePaths.summary(appID)
        let unknown = app.readRequestsUnknown
        let days = summary.days.map { day -> [String: Any] in
            [
                "day": day.day.description, "url": "\(day.day).html", "hours": UnitFormatter.number(day.hours),
                "stepsSeen": unknown ? "unknown" : day.stepsSeen.map { UnitFormatter.number($0) } ?? "hidden",
                "stepsHeld": UnitFormatter.number(day.stepsHeld),
                "sleepSeen": unknown ? "unknown" : day.sleepSeenHours.map { UnitFormatter.number($0, decimals: 1) + " h" } ?? "hidden",
                "sleepHeld": UnitFormatter.number(day.sleepHeldHours, decimals: 1) + " h",
                "differs": day.metrics.contains(where: \.differs),
                "hiddenText": unknown ? "unknown" : day.metrics.contains(where: \.differs) ? "yes" : "no",
            ]
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
        var context: [String: Any] = [
            "name": app.name, "appURL": "../index.html", "days": days,
            "narrative": MarkdownRenderer.render(md.text).html,
            "trends": trends.map { ["key": $0.key, "chart": $0.chart, "caption": $0.caption] },
            // Templates copied from an earlier version name these two charts.
            "stepsChart": trends.first { $0.key == "steps" }?.chart ?? "", "sleepChart": trends.first { $0.key == "sleep" }?.chart ?? "",
        ]
        if trends.isEmpty { context["noTrends"] = noTrendsNote }
        if unknown {
            context["stepsCaption"] = "Steps per day the store holds; what the app sees is unknown."
            context["sleepCaption"] = "Hours asleep per night the store holds; what the app sees is unknown."
            if let unknownBanner { context["unknownBanner"] = unknownBanner }
        }
        return renderer.page("summary", path: path, title: "\(app.name): summaries", context: context, siteTitle: siteTitle)
    }

    /// A chart of the overview's trends: one per charted type the app reads.
    struct TrendChart {
        let key: String
        let chart: String
        let caption: String
    }

    /// The types the overview can chart per day, in the order they are shown: the read type's
    /// name (as requests and the config spell it) and the chart's key (its figure's id).
    static let trendTypes: [(type: String, key: String)] = [("stepCount", "steps"), ("sleepAnalysis", "sleep"), ("heartRate", "heart-rate")]

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
        return Self.trendTypes.filter { read.contains($0.type) }.map { type in
            switch type.key {
            case "steps":
                let steps = summary.days.map(\.stepsSeen)
                return TrendChart(key: type.key, chart: SVGChart.bars(bars(steps), title: "Steps per day as \(app.name) sees them",
                                                                      description: Self.describe(steps, unit: "steps", hiddenReason: "steps are hidden from the app"),
                                                                      unit: "steps", series: "steps the app sees"),
                                  caption: "Steps per day as the app sees them.")
            case "sleep":
                let sleep = summary.days.map(\.sleepSeenHours)
                return TrendChart(key: type.key, chart: SVGChart.bars(bars(sleep), title: "Hours asleep per night as \(app.name) sees them",
                                                                      description: Self.describe(sleep, unit: "hours", hiddenReason: "sleep is hidden from the app"),
                                                                      unit: "h", series: "hours asleep the app sees"),
                                  caption: "Hours asleep per night as the app sees them.")
            default:
                // The mean of the day's hourly averages the app sees; a day it may see without a
                // sample is no bar, and no hatch either (nothing is hidden).
                let hidden = summary.days.map { $0.heartRateVisibility != .visible }
                let heart: [Double?] = summary.days.map { day in
                    day.heartRateVisibility == .visible && !day.heartRate.isEmpty ? day.heartRate.map(\.bpm).reduce(0, +) / Double(day.heartRate.count) : nil
                }
                return TrendChart(key: type.key, chart: SVGChart.bars(bars(heart, hidden: hidden), title: "Average heart rate per day as \(app.name) sees it",
                                                                      description: Self.describe(heart, unit: "bpm", hiddenReason: "heart rate is hidden from the app"),
                                                                      unit: "bpm", series: "average heart rate the app sees (mean of hourly averages)"),
                                  caption: "Average heart rate per day as the app sees it (the mean of its hourly averages).")
            }
        }
    }

    /// Why the overview draws no trend: the app reads none of the charted types. HTML, every
    /// name escaped.
    var noTrendsNote: String {
        func code(_ text: String) -> String { "<code>" + HTMLText.escape(text) + "</code>" }
        let charted = Self.trendTypes.map { code($0.type) }.joined(separator: ", ")
        let reads = app.requestedRead.isEmpty ? "it requests to read no type" : "it requests to read " + app.requestedRead.map(code).joined(separator: ", ")
        return "No trend chart: <strong>\(HTMLText.escape(app.name))</strong> reads none of the types charted here (\(charted)); \(reads)."
    }

    /// A day of an app whose read requests are unknown: every metric the store holds, what the
    /// app sees marked unknown, and no chart of the app's view (there is none to draw).
    private func unknownDayPage(_ day: DaySummary, path: String, context base: [String: Any]) -> OutputFile {
        var context = base
        let length = day.hours == 24 ? "" : " This day lasts \(UnitFormatter.number(day.hours)) hours (daylight saving time changes)."
        var md = MarkdownWriter()
        md.paragraph("What the store holds on this day; what the app sees of it is unknown.\(length)")
        context["narrative"] = MarkdownRenderer.render(md.text).html
        context["metrics"] = day.metrics.map { row -> [String: Any] in
            ["name": row.name, "held": row.held, "seen": "unknown", "why": "permissions unknown", "differs": false]
        }
        context["hasMetrics"] = !day.metrics.isEmpty
        context["stepsChart"] = ""
        context["stepsUnknown"] = "unknown (permissions unknown); the store holds \(UnitFormatter.number(day.stepsHeld)) steps this day"
        context["hasHeart"] = false
        context["heartHidden"] = "what the app sees is unknown (permissions unknown)"
        context["sleepHidden"] = nil
        context["workoutsHidden"] = "permissions unknown; the workouts below are the store's"
        context["unknownBanner"] = unknownBanner
        return renderer.page("day", path: path, title: "\(app.name): \(day.day)", context: context, siteTitle: siteTitle)
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
        let metrics = asked.map { row -> [String: Any] in
            ["name": row.name, "held": row.held, "seen": row.seen, "why": row.visibility.explanation ?? "", "differs": row.differs]
        }
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
        let previous = index > 0 ? summary.days[index - 1].day.description + ".html" : nil
        let next = index + 1 < summary.days.count ? summary.days[index + 1].day.description + ".html" : nil
        var context: [String: Any] = [
            "name": app.name, "day": day.day.description, "narrative": MarkdownRenderer.render(md.text).html,
            "metrics": metrics, "hasMetrics": !metrics.isEmpty, "stepsChart": stepsChart, "heartChart": heartChart, "hasHeart": !heartChart.isEmpty,
            "sleepChart": sleepChart,
            "workouts": day.workouts.map { ["activity": $0.activity, "start": $0.start, "duration": $0.duration, "energy": $0.energy, "distance": $0.distance] },
            "hasWorkouts": !day.workouts.isEmpty,
        ]
        // Mustache treats an empty string as true: set the explanations only when there is one.
        if let why = day.heartRateVisibility.explanation { context["heartHidden"] = why }
        if let why = day.sleepVisibility.explanation { context["sleepHidden"] = why }
        if let why = day.workoutsVisibility.explanation { context["workoutsHidden"] = why }
        if let previous { context["previous"] = previous }
        if let next { context["next"] = next }
        if app.readRequestsUnknown { return unknownDayPage(day, path: path, context: context) }
        return renderer.page("day", path: path, title: "\(app.name): \(day.day)", context: context, siteTitle: siteTitle)
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
    static func context(_ simulation: SimulationReport?) -> [[String: Any]] {
        (simulation?.scenarios ?? []).map { scenario in
            [
                "title": scenario.title, "summary": scenario.summary, "id": scenario.id,
                "events": scenario.steps.map { event -> [String: Any] in
                    var row: [String: Any] = ["index": event.index + 1, "action": event.action, "outcome": event.outcome,
                                              "status": event.status ?? "", "skipped": event.skipped,
                                              "anchor": ProblemSummary.stepAnchor(scenario.id, event.index)]
                    if let error = event.error { row["error"] = "\(error.name) (\(error.code))" }
                    if let crash = event.crash { row["crash"] = crash.description }
                    if let seen = event.samplesSeen { row["seen"] = Plural.count(seen, "sample") }
                    return row
                },
            ]
        }
    }
}
