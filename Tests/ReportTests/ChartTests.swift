@testable import Report
import XCTest

/// Charts that cannot mislead: hidden hours are a labelled band, never bars with a value; numbers
/// read as in the tables; edge labels are not cut.
final class ChartTests: XCTestCase {
    func testHiddenHoursAreOneLabelledBandPerRunAndNoBar() {
        let bars = (0..<24).map { hour in SVGChart.Bar(label: String(format: "%02d", hour), value: (6..<18).contains(hour) ? nil : 120) }
        let svg = ChartMarkup.wide(SVGChart.bars(bars, title: "Steps", description: "d", unit: "steps"))
        XCTAssertEqual(svg.components(separatedBy: "class=\"hidden\"").count - 1, 1, "hours 06–17 are one band")
        XCTAssertTrue(svg.contains("<title>06–17: hidden from the app</title>"))
        XCTAssertTrue(svg.contains(">hidden from the app</text>"), "the band is labelled in the chart")
        XCTAssertEqual(svg.components(separatedBy: "class=\"bar\"").count - 1, 12, "only visible hours are bars")
        XCTAssertEqual(SVGChart.hiddenRuns(bars), [6..<18])
    }

    /// Nothing visible: no scale at all (a 0–1 axis beside a full-height band read as "1 hour of sleep").
    func testAllHiddenDrawsNoScale() {
        let svg = SVGChart.bars((0..<7).map { SVGChart.Bar(label: "d\($0)", value: nil) }, title: "Sleep", description: "d", unit: "h")
        XCTAssertFalse(svg.contains("text-anchor=\"end\">1<"), svg)
        XCTAssertFalse(svg.contains("class=\"unit\""))
        XCTAssertFalse(svg.contains("class=\"bar\""))
    }

    func testTooltipsAndAxesFormatNumbersAsTheTablesDo() {
        let svg = SVGChart.bars([.init(label: "08", value: 11_372.7), .init(label: "09", value: 7.25)], title: "Steps", description: "d", unit: "steps")
        XCTAssertTrue(svg.contains("<title>08: 11,373 steps</title>"), svg)
        XCTAssertTrue(svg.contains("<title>09: 7.3 steps</title>"), svg)
        XCTAssertTrue(svg.contains(">20,000</text>"), "the axis maximum is grouped too")
    }

    func testEdgeLabelsAnchorInsideTheChart() {
        let svg = SVGChart.line([.init(x: 0, y: 60), .init(x: 1, y: 80)], title: "HR", description: "d", unit: "bpm")
        XCTAssertTrue(svg.contains("text-anchor=\"start\">00:00</text>"))
        XCTAssertTrue(svg.contains("text-anchor=\"end\">24:00</text>"))
        let timeline = SVGChart.timeline([], lanes: ["Core"], title: "Sleep", description: "d", axisLabels: ["18:00", "00:00", "12:00"])
        XCTAssertTrue(timeline.contains("text-anchor=\"end\">12:00</text>"))
        for svg in [ChartMarkup.wide(timeline), ChartMarkup.narrow(timeline)] {
            XCTAssertTrue(svg.contains("text-anchor=\"end\">12:00</text>"), svg)
        }
    }
}

/// Issue 36, item 7: every chart has a narrow drawing for phones and a legend; hatching only ever
/// marks data hidden from the app; sleep stages each have their own fill.
final class ChartLayoutTests: XCTestCase {
    /// The fills a drawing defines are the ones its markup names, found in one scan.
    func testReferencedIDsAreTheFillsTheMarkupNames() {
        let markup = #"<rect fill="url(#hatch)"/><rect fill="url(#stage-deep)"/><text>url(</text><rect fill="url(#hatch)"/>"#
        let prefixed = SVGChart.prefixingReferences(markup, with: "c1-")
        XCTAssertEqual(prefixed.used, ["hatch", "stage-deep"])
        XCTAssertEqual(prefixed.markup, #"<rect fill="url(#c1-hatch)"/><rect fill="url(#c1-stage-deep)"/><text>url(</text><rect fill="url(#c1-hatch)"/>"#)
        XCTAssertEqual(SVGChart.prefixingReferences("<rect/>", with: "c1-").used, [])
        // A `(` at either end, one not after `url`, and a reference cut off by the end.
        XCTAssertEqual(SVGChart.prefixingReferences("(#a) x(#b) url(#", with: "c1-").markup, "(#a) x(#b) url(#c1-")
        XCTAssertEqual(SVGChart.prefixingReferences("é url(#p0)(", with: "c1-").markup, "é url(#c1-p0)(")
    }

    static let hours = (0..<24).map { SVGChart.Bar(label: SVGChart.twoDigits($0), value: (6..<12).contains($0) ? nil : Double($0 * 100)) }
    static let stages = ["Core", "Deep", "REM", "Asleep", "Awake", "In bed"]

    /// Every kind of chart, as the pages draw them.
    static var all: [(name: String, markup: String)] {
        [
            ("bars", SVGChart.bars(hours, title: "Steps by hour", description: "d", unit: "steps", series: "steps per hour the app sees")),
            ("line", SVGChart.line([.init(x: 0.1, y: 60), .init(x: 0.9, y: 80)], title: "Heart rate", description: "d", unit: "bpm", minimum: 40, series: "heart rate the app sees")),
            ("timeline", SVGChart.timeline(stages.enumerated().map { .init(lane: $0.element, start: Double($0.offset) / 8, end: Double($0.offset + 1) / 8) },
                                           lanes: stages, title: "Sleep", description: "d", axisLabels: ["18:00", "21:00", "00:00", "03:00", "06:00", "09:00", "12:00"])),
            ("trend", SVGChart.trend((0..<30).map { .init(label: "04-\(SVGChart.twoDigits($0 % 28 + 1))", unchanged: 3, new: $0 % 3, fixed: $0 % 2) }, title: "Findings", description: "d")),
        ]
    }

    func testEveryChartHasAWideAndANarrowDrawingWithTheirOwnIds() throws {
        for (name, markup) in Self.all {
            let svgs = ChartMarkup.svgs(markup)
            XCTAssertEqual(svgs.count, 2, name)
            let wide = svgs[0], narrow = svgs[1]
            XCTAssertTrue(wide.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart-wide\" viewBox=\"0 0 640 "), "\(name): \(wide.prefix(120))")
            XCTAssertTrue(narrow.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart-narrow\" viewBox=\"0 0 340 "), "\(name): \(narrow.prefix(120))")
            // No id is defined twice on the page, and each drawing points at its own patterns.
            let ids = markup.matches(of: /id="([^"]+)"/).map { String($0.output.1) }
            XCTAssertEqual(ids.count, Set(ids).count, "\(name): \(ids)")
            for reference in narrow.matches(of: /url\(#([^)]+)\)/).map({ String($0.output.1) }) {
                XCTAssertTrue(narrow.contains("<pattern id=\"\(reference)\""), "\(name): the narrow drawing defines \(reference)")
            }
            // Text is 11 units and the narrow drawing is at most 340 units across: at a phone's
            // 366 px box it is drawn at 11 px or more.
            XCTAssertTrue(narrow.contains("font-size=\"11\""), name)
            XCTAssertNil(narrow.firstMatch(of: /font-size="(?:[0-9]|10)"/), name)
        }
    }

    /// The narrow drawing shows fewer tick labels where the wide one's would not fit side by side.
    func testTheNarrowDrawingThinsItsTicks() {
        let markup = SVGChart.bars(Self.hours, title: "Steps by hour", description: "d", unit: "steps")
        let wideTicks = ChartMarkup.wide(markup).components(separatedBy: "class=\"tick\"").count - 1
        let narrowTicks = ChartMarkup.narrow(markup).components(separatedBy: "class=\"tick\"").count - 1
        XCTAssertLessThanOrEqual(narrowTicks, wideTicks, "never more tick labels than the wide drawing")
        XCTAssertGreaterThan(narrowTicks, 3)
        // Seven days: all seven, each five characters wide, fit side by side in both.
        let week = SVGChart.bars((26...32).map { SVGChart.Bar(label: "03-\($0)", value: 1) }, title: "Week", description: "d", unit: "steps")
        XCTAssertEqual(ChartMarkup.narrow(week).components(separatedBy: "class=\"tick\"").count - 1, 3 + 7)
        // The sleep axis: seven clock times wide, every other one narrow (its ends kept).
        let sleep = ChartMarkup.narrow(Self.all[2].markup).matches(of: /<text class="tick"[^>]*>([^<]*)<\/text>/).map { String($0.output.1) }
        XCTAssertEqual(sleep, ["18:00", "00:00", "06:00", "12:00"])
        // Tick labels of the narrow drawing never overlap: at most one per 6.5 units a character + 8.
        let trend = ChartMarkup.narrow(Self.all[3].markup)
        let xs = trend.matches(of: /<text class="tick" x="([0-9.]+)" y="194" text-anchor="middle">/).map { Double($0.output.1)! }
        for (a, b) in zip(xs, xs.dropFirst()) { XCTAssertGreaterThanOrEqual(b - a, 5 * 6.5 + 8, "\(xs)") }
    }

    func testEveryChartHasALegendInBothDrawings() {
        let expected: [String: [String]] = [
            "bars": ["steps per hour the app sees", "hidden from the app"],
            "line": ["heart rate the app sees"],
            "timeline": Self.stages,
            "trend": ["unchanged", "new", "fixed (below the line)"],
        ]
        for (name, markup) in Self.all {
            for svg in ChartMarkup.svgs(markup) {
                XCTAssertEqual(ChartMarkup.legend(svg), expected[name], "\(name): \(svg)")
            }
        }
    }

    /// The legend's words are untrusted when a page passes an app's text: escaped.
    func testLegendTextIsEscaped() {
        let markup = SVGChart.bars([.init(label: "<b>", value: 1)], title: "t", description: "d", unit: "u", series: "<script>alert(1)</script>")
        XCTAssertFalse(markup.contains("<script>"))
        XCTAssertFalse(markup.contains("<b>"))
        XCTAssertEqual(ChartMarkup.legend(ChartMarkup.wide(markup)), ["&lt;script&gt;alert(1)&lt;/script&gt;"])
    }

    /// Hatching means "hidden from the app": the hatch pattern is defined and used only where a
    /// value is hidden, never for fixed findings, sleep stages or a day without data.
    func testHatchingMarksOnlyDataHiddenFromTheApp() {
        let hatch = "-hatch\""
        for (name, markup) in Self.all where name != "bars" {
            XCTAssertFalse(markup.contains(hatch), "\(name) hides nothing and is not hatched")
            XCTAssertFalse(markup.contains("rotate(45)"), "\(name): no diagonal lines")
        }
        let bars = Self.all[0].markup
        for svg in ChartMarkup.svgs(bars) {
            let hatched = svg.matches(of: /<rect class="([a-z ]+)"[^>]*fill="url\(#c[0-9a-f]+n?-hatch\)"/).map { String($0.output.1) }
            XCTAssertEqual(hatched, ["hidden", "key"], "the hidden band and its legend swatch only")
        }
        // Fixed findings are dotted, not hatched.
        XCTAssertTrue(Self.all[3].markup.contains("<rect class=\"fixed\""))
        XCTAssertNil(Self.all[3].markup.firstMatch(of: /class="fixed"[^>]*hatch/))
        // A value that is absent but not hidden (no data) is neither a bar nor a band.
        let noData = SVGChart.bars([.init(label: "03-30", value: nil, hidden: false), .init(label: "03-31", value: 70)], title: "HR", description: "d", unit: "bpm")
        XCTAssertFalse(noData.contains("hatch"), noData)
        XCTAssertFalse(noData.contains("hidden from the app"))
        XCTAssertEqual(ChartMarkup.wide(noData).components(separatedBy: "class=\"bar\"").count - 1, 1)
    }

    /// Each stage has its own fill, and no two stages share one; the legend names each.
    func testSleepStagesHaveTheirOwnPatterns() throws {
        let timeline = ChartMarkup.wide(Self.all[2].markup)
        var fills: [String: String] = [:]
        for stage in Self.stages {
            let pattern = try XCTUnwrap(SVGChart.stagePatterns[stage], stage)
            fills[stage] = pattern
            XCTAssertTrue(timeline.contains("<rect class=\"seg \(pattern)\""), "\(stage) is drawn with \(pattern)")
            XCTAssertTrue(timeline.contains("-\(pattern)\" width="), "\(pattern) is defined")
        }
        XCTAssertEqual(Set(fills.values).count, Self.stages.count, "six stages, six fills: \(fills)")
        // Their definitions differ too (not one fill under six names), and none is a hatch.
        let definitions = SVGChart.patterns.filter { Set(fills.values).contains($0.id) }.map(\.markup)
        XCTAssertEqual(Set(definitions).count, Self.stages.count)
        XCTAssertFalse(definitions.contains { $0.contains("rotate(") })
    }

    /// Same inputs, same bytes.
    func testChartsAreDeterministic() {
        XCTAssertEqual(Self.all.map(\.markup), Self.all.map(\.markup))
    }
}

/// Reading the two drawings and the legend out of a chart's markup.
enum ChartMarkup {
    static func svgs(_ markup: String) -> [String] {
        markup.components(separatedBy: "</svg>").dropLast().map { $0[$0.range(of: "<svg")!.lowerBound...] + "</svg>" }
    }

    static func wide(_ markup: String) -> String { svgs(markup).first { $0.contains("class=\"chart-wide\"") } ?? "" }
    static func narrow(_ markup: String) -> String { svgs(markup).first { $0.contains("class=\"chart-narrow\"") } ?? "" }

    /// The words of the legend's entries, in order.
    static func legend(_ svg: String) -> [String] {
        guard let start = svg.range(of: "<g class=\"legend\">"), let end = svg.range(of: "</g>", range: start.upperBound..<svg.endIndex) else { return [] }
        return svg[start.upperBound..<end.lowerBound].matches(of: /<text class="key"[^>]*>([^<]*)<\/text>/).map { String($0.output.1) }
    }
}
