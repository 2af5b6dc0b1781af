@testable import Report
import XCTest

/// Charts that cannot mislead: hidden hours are a labelled band, never bars with a value; numbers
/// read as in the tables; edge labels are not cut.
final class ChartTests: XCTestCase {
    func testHiddenHoursAreOneLabelledBandPerRunAndNoBar() {
        let bars = (0..<24).map { hour in SVGChart.Bar(label: String(format: "%02d", hour), value: (6..<18).contains(hour) ? nil : 120) }
        let svg = SVGChart.bars(bars, title: "Steps", description: "d", unit: "steps")
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
    }
}
