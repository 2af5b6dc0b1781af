/// The "History" section of the index, an app page and a rule page (`--history`): a chart of the
/// runs, oldest first, and a table, newest first, each run's findings split into new, fixed and
/// unchanged since the run before.
enum HistorySection {
    /// Runs shown; older ones are counted in a line below the table.
    static let shownRuns = 30

    struct Model: TemplateModel {
        var chart: String
        var runs: [Run]
        /// Whether the table has a commit column.
        var commits: Bool
        /// Runs left out of the table, when some are.
        var omitted: Int?
    }

    struct Run: TemplateModel {
        var date: String
        var total: Int
        var new: Int
        var fixed: Int
        var unchanged: Int
        var first: Bool
        /// With a commit column: the run's commit, shortened, or "—".
        var commit: String?
    }

    /// nil when nothing was recorded for the subject (no section at all).
    static func model(_ points: [TrendPoint], subject: String, commits: Bool) -> Model? {
        guard !points.isEmpty else { return nil }
        let shown = Array(points.suffix(shownRuns))
        let bars = shown.map { SVGChart.TrendBar(label: label($0.stamp), unchanged: $0.unchanged, new: $0.new, fixed: $0.fixed) }
        let last = shown.last!
        let chart = SVGChart.trend(bars, title: "Findings per run: \(subject)",
                                   description: "\(shown.count) runs from \(FindingHistory.date(shown.first!.stamp)) to \(FindingHistory.date(last.stamp)); "
                                       + "the latest has \(last.total) findings: \(last.new) new, \(last.fixed) fixed, \(last.unchanged) unchanged.")
        let rows = shown.reversed().map { point in
            Run(date: FindingHistory.date(point.stamp), total: point.total, new: point.new, fixed: point.fixed, unchanged: point.unchanged,
                first: point.isFirst, commit: commits ? point.commit.map { String($0.prefix(12)) } ?? "—" : nil)
        }
        return Model(chart: chart, runs: rows, commits: commits, omitted: points.count > shown.count ? points.count - shown.count : nil)
    }

    /// `20260401T120000Z` → `04-01`, the chart's tick.
    private static func label(_ stamp: String) -> String {
        let date = FindingHistory.date(stamp)
        return date.count > 10 ? String(date.dropFirst(5).prefix(5)) : date
    }
}
