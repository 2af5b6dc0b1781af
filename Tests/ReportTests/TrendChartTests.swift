import Foundation
@testable import Report
import SiteBuild
import XCTest
import TestSupport

/// Issue 36, item 7: the summary's trends chart the types the app reads — not always steps and
/// sleep — and an app that reads none of them gets a sentence saying so, not an empty chart.
final class TrendChartTests: XCTestCase {
    /// One app `pace` whose code and config both ask to read `reads` (HealthKit identifiers and
    /// config names), granted as `permissions` says.
    private func site(reads code: String, config: String, permissions: String = "", name: String = "Pace") throws -> TestSite {
        var files = InlineApp.files(id: "pace", name: "Pace")
        files["apps/pace/Pace/Health.swift"] = """
            import HealthKit

            final class Health {
                let store = HKHealthStore()

                func start() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let read: Set<HKObjectType> = [\(code)]
                    try await store.requestAuthorization(toShare: [], read: read)
                }
            }

            """
        files["healthaudit.yml"] = """
            title: Inline
            summaries:
              from: 2026-03-30
              to: 2026-04-01
            apps:
              - id: pace
                name: \(name)
                root: apps/pace
                info_plist: Pace/Info.plist
                entitlements: Pace/Pace.entitlements
                sources: [Pace]
                requested:
                  read: [\(config)]
                  share: []

            """ + (permissions.isEmpty ? "" : "    permissions:\n" + permissions)
        return try TestSite(files: files)
    }

    /// The markup of the trend figure `key`.
    private func figure(_ page: String, _ key: String) -> String? {
        guard let start = page.range(of: "<figure class=\"chart\" id=\"trend-\(key)\">"),
              let end = page.range(of: "</figure>", range: start.upperBound..<page.endIndex) else { return nil }
        return String(page[start.upperBound..<end.lowerBound])
    }

    private func trendKeys(_ page: String) -> [String] {
        page.matches(of: /<figure class="chart" id="trend-([a-z-]+)">/).map { String($0.output.1) }
    }

    func testAnAppReadingSleepAndHeartRateGetsTheirTrendsAndNoSteps() throws {
        let site = try site(reads: "HKCategoryType(.sleepAnalysis), HKQuantityType(.heartRate)", config: "sleepAnalysis, heartRate",
                            permissions: "      sleepAnalysis: {read: granted}\n      heartRate: {read: denied}\n")
        defer { site.remove() }
        try site.build()
        let page = try site.read(SitePaths.summary("pace"))
        XCTAssertEqual(trendKeys(page), ["sleep", "heart-rate"], page)
        XCTAssertFalse(page.contains("Steps per day as Pace sees them"), "steps are not read: no steps chart")
        XCTAssertTrue(page.contains("<title id=\"c" ), "the charts are drawn")
        // Sleep is granted: bars, no hatch. Heart rate is denied: every day one hatched band.
        let sleepChart = try XCTUnwrap(figure(page, "sleep"))
        XCTAssertFalse(sleepChart.contains("hatch"), sleepChart)
        XCTAssertEqual(ChartMarkup.legend(ChartMarkup.wide(sleepChart)), ["hours asleep the app sees"])
        let heartChart = try XCTUnwrap(figure(page, "heart-rate"))
        XCTAssertTrue(heartChart.contains("<title>03-30–04-01: hidden from the app</title>"), heartChart)
        XCTAssertEqual(ChartMarkup.legend(ChartMarkup.narrow(heartChart)), ["hidden from the app"], "no bar: the hatch's entry alone")
        XCTAssertFalse(page.contains("No trend chart"))
    }

    func testAnAppReadingNoChartedTypeDrawsNoChartAndSaysWhy() throws {
        let site = try site(reads: "HKQuantityType(.bodyMass)", config: "bodyMass", name: "\"<b>Scale</b>\"")
        defer { site.remove() }
        try site.build()
        let page = try site.read(SitePaths.summary("pace"))
        XCTAssertEqual(trendKeys(page), [])
        XCTAssertFalse(page.contains("<svg"), "no empty chart")
        XCTAssertTrue(page.contains("<p class=\"hidden-note\">No trend chart: <strong>&lt;b&gt;Scale&lt;/b&gt;</strong> reads none of the types charted here (<code>stepCount</code>, <code>sleepAnalysis</code>, <code>heartRate</code>); it requests to read <code>bodyMass</code>.</p>"), page)
        XCTAssertFalse(page.contains("<b>Scale"), "the app's name is escaped")
    }

    /// The days table labels each cell, so on a phone it stacks into one card per day.
    func testTheDaysTableLabelsItsCells() throws {
        let site = try site(reads: "HKQuantityType(.stepCount)", config: "stepCount", permissions: "      stepCount: {read: granted}\n")
        defer { site.remove() }
        try site.build()
        let page = try site.read(SitePaths.summary("pace"))
        XCTAssertEqual(trendKeys(page), ["steps"])
        XCTAssertTrue(page.contains("<td data-label=\"Day\"><a href=\"2026-03-30.html\">2026-03-30</a></td><td data-label=\"Hours\">"), page)
        XCTAssertTrue(page.contains("<td data-label=\"Hidden from the app\">"))
        // The day page's charts: each drawn wide and narrow, each with a legend.
        let day = try site.read(SitePaths.day("pace", "2026-03-30"))
        let svgs = ChartMarkup.svgs(day)
        XCTAssertGreaterThanOrEqual(svgs.count, 4, "steps by hour and sleep stages, twice each")
        XCTAssertEqual(svgs.filter { $0.contains("class=\"chart-wide\"") }.count, svgs.filter { $0.contains("class=\"chart-narrow\"") }.count)
        for svg in svgs { XCTAssertFalse(ChartMarkup.legend(svg).isEmpty, svg) }
        // A day's workouts table labels its cells too: on a phone it stacks like the days table
        // (at 390 px its five columns overflowed sideways).
        let first = try site.snapshot()
        let workouts = first.filter { $0.key.hasPrefix("apps/pace/summary/2026-") }.map { String(decoding: $0.value, as: UTF8.self) }
            .filter { $0.contains("<table class=\"workouts\">") }
        XCTAssertFalse(workouts.isEmpty, "some day has workouts")
        for page in workouts {
            let table = String(page[page.range(of: "<table class=\"workouts\">")!.lowerBound...])
            let body = String(table[table.range(of: "<tbody>")!.upperBound..<table.range(of: "</tbody>")!.lowerBound])
            XCTAssertTrue(body.hasPrefix("<tr><td data-label=\"Activity\">"), body)
            XCTAssertEqual(body.components(separatedBy: "<td data-label=").count - 1, 5 * (body.components(separatedBy: "<tr>").count - 1), body)
            XCTAssertFalse(body.contains("<td>"), "every cell is labelled")
        }
        let css = try site.read("style.css")
        XCTAssertTrue(css.contains("table.days tr, table.workouts tr { display: block;"), "both tables stack on a phone")
        // Building again gives the same bytes.
        try site.build()
        XCTAssertEqual(try site.snapshot(), first)
    }
}
