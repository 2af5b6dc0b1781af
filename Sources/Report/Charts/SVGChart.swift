import Foundation
import Manifest
import Summary

/// Inline SVG charts written by the generator: no JavaScript, no external files, deterministic
/// number formatting, `<title>`/`<desc>` for screen readers, and patterns, labels and a legend so
/// they read without colour.
///
/// Every chart is drawn twice: a wide layout (`chart-wide`, 640 units across) and a narrow one
/// for phones (`chart-narrow`, 340 units across, fewer tick labels, a legend that wraps). The
/// stylesheet shows one of them by the width of the chart's `figure` (a container query), so
/// neither is ever scaled down far: the 11-unit text stays about 11 px.
///
/// Hatching means one thing: data the store holds that the app's permissions hide. No other
/// series is hatched.
public enum SVGChart {
    public struct Bar: Sendable, Hashable {
        public var label: String
        public var value: Double?
        /// No value because the app cannot see it (a hatched band); false for a value that is
        /// simply absent (no data: nothing is drawn).
        public var hidden: Bool
        public init(label: String, value: Double?, hidden: Bool? = nil) {
            self.label = label; self.value = value; self.hidden = hidden ?? (value == nil)
        }
    }

    public struct Point: Sendable, Hashable {
        /// 0…1 across the chart (e.g. fraction of the day).
        public var x: Double
        public var y: Double
        public init(x: Double, y: Double) { self.x = x; self.y = y }
    }

    public struct Segment: Sendable, Hashable {
        public var lane: String
        /// 0…1 across the chart.
        public var start: Double
        public var end: Double
        public init(lane: String, start: Double, end: Double) { self.lane = lane; self.start = start; self.end = end }
    }

    /// One run of a findings trend.
    public struct TrendBar: Sendable, Hashable {
        public var label: String
        public var unchanged: Int
        public var new: Int
        public var fixed: Int
        public init(label: String, unchanged: Int, new: Int, fixed: Int) { self.label = label; self.unchanged = unchanged; self.new = new; self.fixed = fixed }
    }

    /// One entry of a chart's legend: its swatch and its words.
    public struct LegendEntry: Sendable, Hashable {
        public enum Swatch: Sendable, Hashable {
            /// A square filled with one of ``patterns`` (by id).
            case pattern(String)
            /// A square in the site's accent colour (the bars of a bar chart).
            case bar
            /// A short line (a line chart).
            case line
        }
        public var label: String
        public var swatch: Swatch
        public init(_ label: String, _ swatch: Swatch) { self.label = label; self.swatch = swatch }
    }

    /// The geometry of one drawing of a chart.
    struct Layout: Sendable {
        var width: Double, height: Double, left: Double, right: Double, top: Double, bottom: Double
        /// The class the stylesheet switches on, and the id suffix keeping the two drawings' ids apart.
        var name: String, suffix: String
        /// Width of the timeline's lane labels.
        var laneLabels: Double
        var narrow: Bool { name == "chart-narrow" }
        var plotWidth: Double { width - left - right }
        var plotHeight: Double { height - top - bottom }
    }

    static let wide = Layout(width: 640, height: 200, left: 44, right: 8, top: 12, bottom: 24, name: "chart-wide", suffix: "", laneLabels: 90)
    /// 340 units across: at a 390 px phone the chart's box is about 366 px wide, so 11-unit text
    /// is drawn at about 11.8 px.
    static let narrow = Layout(width: 340, height: 200, left: 44, right: 8, top: 12, bottom: 24, name: "chart-narrow", suffix: "n", laneLabels: 56)
    static let layouts = [wide, narrow]

    /// Text is 11 units; a character is at most about this wide (sans-serif, digits and lower case).
    static let characterWidth = 6.5
    static func textWidth(_ text: String) -> Double { Double(text.count) * characterWidth }

    /// What a band hidden from the app says, in the chart and in its legend.
    public static let hiddenLabel = "hidden from the app"

    // MARK: - Patterns

    /// Fills by id. `hatch` (diagonal lines) is kept for data hidden from the app; sleep stages each
    /// have their own fill and texture (solid, dots, stripes, checks, rings, outline), so they tell
    /// apart without colour.
    static let patterns: [(id: String, markup: String)] = [
        ("hatch", "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#8c8c94\" stroke-width=\"2\"/>"),
        ("p0", "width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\"><rect width=\"4\" height=\"4\" fill=\"#2f5fa8\"/>"),
        ("p3", "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><rect width=\"6\" height=\"6\" fill=\"#d0dcf2\"/>"),
        ("fixed", "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><rect width=\"6\" height=\"6\" fill=\"#d3ecd8\"/><circle cx=\"3\" cy=\"3\" r=\"1.4\" fill=\"#2e7d43\"/>"),
        ("deep", "width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\"><rect width=\"4\" height=\"4\" fill=\"#1f3d73\"/>"),
        ("core", "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><rect width=\"6\" height=\"6\" fill=\"#4f7fd1\"/><circle cx=\"3\" cy=\"3\" r=\"1.2\" fill=\"#fff\"/>"),
        ("rem", "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><rect width=\"6\" height=\"6\" fill=\"#2f9aa8\"/><rect y=\"4\" width=\"6\" height=\"2\" fill=\"#fff\"/>"),
        ("asleep", "width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\"><rect width=\"8\" height=\"8\" fill=\"#8f7fd0\"/><rect width=\"4\" height=\"4\" fill=\"#c9c0ec\"/><rect x=\"4\" y=\"4\" width=\"4\" height=\"4\" fill=\"#c9c0ec\"/>"),
        ("awake", "width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\"><rect width=\"8\" height=\"8\" fill=\"#e3a33b\"/><circle cx=\"4\" cy=\"4\" r=\"2\" fill=\"none\" stroke=\"#6b4300\" stroke-width=\"1\"/>"),
        ("inbed", "width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\"><rect width=\"4\" height=\"4\" fill=\"#e4e8f0\"/>"),
    ]

    /// The fill of each sleep stage's lane, by the lane's name.
    public static let stagePatterns: [String: String] = [
        "Core": "core", "Deep": "deep", "REM": "rem", "Asleep": "asleep", "Awake": "awake", "In bed": "inbed",
    ]

    // MARK: - Charts

    /// Vertical bars, one per label. Values the app cannot see are no bars at all: each run of them
    /// is one hatched band labelled "hidden from the app", so nothing reads as a value. A value
    /// that is absent but not hidden (no data) draws nothing.
    /// `series`: the legend's words for the bars (default: the unit).
    public static func bars(_ bars: [Bar], title: String, description: String, unit: String, series: String? = nil) -> String {
        let visible = bars.compactMap(\.value)
        let maximum = niceMaximum(visible.max() ?? 0)
        // Bars only when some are drawn: a chart hidden throughout has the hatch's entry alone.
        var legend = visible.isEmpty ? [] : [LegendEntry(series ?? unit, .bar)]
        if bars.contains(where: \.hidden) { legend.append(LegendEntry(hiddenLabel, .pattern("hatch"))) }
        return chart(title: title, description: description, legend: legend) { layout in
            let slot = layout.plotWidth / Double(max(bars.count, 1))
            // With nothing visible there is no scale to show.
            var body = visible.isEmpty ? baseline(layout) : axes(layout, maximum: maximum, unit: unit)
            for run in hiddenRuns(bars) {
                let x = layout.left + Double(run.lowerBound) * slot, w = Double(run.count) * slot
                body += "<rect class=\"hidden\" x=\"\(f(x))\" y=\"\(f(layout.top))\" width=\"\(f(w))\" height=\"\(f(layout.plotHeight))\" fill=\"url(#hatch)\" opacity=\"0.45\">"
                    + "<title>\(escape(bars[run.lowerBound].label))–\(escape(bars[run.upperBound - 1].label)): \(hiddenLabel)</title></rect>"
                if w >= textWidth(hiddenLabel) + 6 {
                    body += "<text class=\"band\" x=\"\(f(x + w / 2))\" y=\"\(f(layout.top + layout.plotHeight / 2))\" text-anchor=\"middle\">\(hiddenLabel)</text>"
                }
            }
            let step = labelStep(bars.map(\.label), layout: layout)
            for (index, bar) in bars.enumerated() {
                let x = layout.left + Double(index) * slot + slot * 0.15
                if let value = bar.value {
                    let h = maximum > 0 ? value / maximum * layout.plotHeight : 0
                    body += "<rect class=\"bar\" x=\"\(f(x))\" y=\"\(f(layout.top + layout.plotHeight - h))\" width=\"\(f(slot * 0.7))\" height=\"\(f(h))\"><title>\(escape(bar.label)): \(number(value)) \(escape(unit))</title></rect>"
                }
                if index % step == 0 {
                    body += "<text class=\"tick\" x=\"\(f(x + slot * 0.35))\" y=\"\(f(layout.height - 6))\" text-anchor=\"middle\">\(escape(bar.label))</text>"
                }
            }
            return body
        }
    }

    /// Findings per run: unchanged (light) and new (dark) stacked above the line, fixed (dotted)
    /// below it, each part titled with its count, and a legend, so it reads without colour.
    public static func trend(_ bars: [TrendBar], title: String, description: String) -> String {
        let up = Double(bars.map { $0.unchanged + $0.new }.max() ?? 0), down = Double(bars.map(\.fixed).max() ?? 0)
        let legend = [LegendEntry("unchanged", .pattern("p3")), LegendEntry("new", .pattern("p0")), LegendEntry("fixed (below the line)", .pattern("fixed"))]
        return chart(title: title, description: description, legend: legend) { layout in
            let scale = (layout.plotHeight - 6) / max(up + down, 1)
            let zero = layout.top + 6 + up * scale
            let slot = layout.plotWidth / Double(max(bars.count, 1))
            var body = "<line x1=\"\(f(layout.left))\" x2=\"\(f(layout.width - layout.right))\" y1=\"\(f(zero))\" y2=\"\(f(zero))\" stroke=\"#8c8c94\"/>"
            body += "<text class=\"tick\" x=\"\(f(layout.left - 4))\" y=\"\(f(zero + 4))\" text-anchor=\"end\">0</text>"
            if up > 0 { body += "<text class=\"tick\" x=\"\(f(layout.left - 4))\" y=\"\(f(layout.top + 10))\" text-anchor=\"end\">\(Int(up))</text>" }
            let step = labelStep(bars.map(\.label), layout: layout)
            for (index, bar) in bars.enumerated() {
                let w = min(slot * 0.7, 40), x = layout.left + Double(index) * slot + (slot - w) / 2
                let tip = "\(escape(bar.label)): \(bar.unchanged) unchanged, \(bar.new) new, \(bar.fixed) fixed"
                var y = zero
                for (count, fill, kind) in [(bar.unchanged, "p3", "unchanged"), (bar.new, "p0", "new")] where count > 0 {
                    let h = Double(count) * scale
                    y -= h
                    body += "<rect class=\"\(kind)\" x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(w))\" height=\"\(f(h))\" fill=\"url(#\(fill))\"><title>\(tip)</title></rect>"
                }
                if bar.fixed > 0 {
                    body += "<rect class=\"fixed\" x=\"\(f(x))\" y=\"\(f(zero))\" width=\"\(f(w))\" height=\"\(f(Double(bar.fixed) * scale))\" fill=\"url(#fixed)\" stroke=\"#2e7d43\" stroke-width=\"0.5\"><title>\(tip)</title></rect>"
                }
                if index % step == 0 {
                    body += "<text class=\"tick\" x=\"\(f(x + w / 2))\" y=\"\(f(layout.height - 6))\" text-anchor=\"middle\">\(escape(bar.label))</text>"
                }
            }
            return body
        }
    }

    /// Index ranges of consecutive bars hidden from the app.
    static func hiddenRuns(_ bars: [Bar]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        for (index, bar) in bars.enumerated() {
            if bar.hidden { start = start ?? index } else if let open = start { runs.append(open..<index); start = nil }
        }
        if let open = start { runs.append(open..<bars.count) }
        return runs
    }

    /// A line over the x range with dots at each point.
    /// `ticks`: where clock times fall across the x range (a daylight-saving day is 23 or 25 hours
    /// long, so 12:00 is not always in the middle); default every six hours of a 24-hour day.
    /// `series`: the legend's words for the line (default: the unit).
    public static func line(_ points: [Point], title: String, description: String, unit: String, minimum: Double = 0,
                            ticks: [(x: Double, label: String)] = [], series: String? = nil) -> String {
        let maximum = niceMaximum(points.map(\.y).max() ?? 0)
        let ticks = ticks.isEmpty ? stride(from: 0, through: 24, by: 6).map { (x: Double($0) / 24, label: twoDigits($0) + ":00") } : ticks
        return chart(title: title, description: description, legend: [LegendEntry(series ?? unit, .line)]) { layout in
            func position(_ p: Point) -> (Double, Double) {
                let span = max(maximum - minimum, 1)
                return (layout.left + p.x * layout.plotWidth, layout.top + layout.plotHeight - (p.y - minimum) / span * layout.plotHeight)
            }
            var body = axes(layout, maximum: maximum, minimum: minimum, unit: unit) + clockTicks(ticks, layout: layout)
            if !points.isEmpty {
                let path = points.map(position).enumerated().map { "\($0.offset == 0 ? "M" : "L")\(f($0.element.0)) \(f($0.element.1))" }.joined(separator: " ")
                body += "<path class=\"line\" d=\"\(path)\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\"/>"
            }
            return body
        }
    }

    /// Horizontal lanes (e.g. sleep stages) with segments; each lane has its own fill (a sleep
    /// stage's from ``stagePatterns``), its label and a legend entry. `axisLabels` are evenly
    /// spaced; the narrow layout shows every other one when they do not fit.
    public static func timeline(_ segments: [Segment], lanes: [String], title: String, description: String, axisLabels: [String]) -> String {
        let fallback = ["p0", "p3"]
        let fills = lanes.enumerated().map { stagePatterns[$0.element] ?? fallback[$0.offset % fallback.count] }
        let legend = zip(lanes, fills).map { LegendEntry($0, .pattern($1)) }
        return chart(title: title, description: description, legend: legend) { layout in
            let start = layout.laneLabels
            let plotWidth = layout.width - start - layout.right
            let laneHeight = layout.plotHeight / Double(max(lanes.count, 1))
            var body = ""
            for (index, lane) in lanes.enumerated() {
                let y = layout.top + Double(index) * laneHeight
                body += "<text class=\"lane\" x=\"2\" y=\"\(f(y + laneHeight * 0.65))\">\(escape(lane))</text>"
                body += "<line x1=\"\(f(start))\" x2=\"\(f(layout.width - layout.right))\" y1=\"\(f(y + laneHeight))\" y2=\"\(f(y + laneHeight))\" stroke=\"#d9d9de\"/>"
                for segment in segments where segment.lane == lane {
                    let x = start + segment.start * plotWidth
                    body += "<rect class=\"seg \(fills[index])\" x=\"\(f(x))\" y=\"\(f(y + 3))\" width=\"\(f(max((segment.end - segment.start) * plotWidth, 0.5)))\" height=\"\(f(laneHeight - 6))\" fill=\"url(#\(fills[index]))\" stroke=\"#8c8c94\" stroke-width=\"0.5\"/>"
                }
            }
            let last = axisLabels.count - 1
            let needed = axisLabels.map { textWidth($0) + 8 }.reduce(0, +)
            let step = needed > plotWidth ? 2 : 1
            for (index, label) in axisLabels.enumerated() where index % step == 0 || index == last {
                if index != last && index + step > last && step > 1 { continue }
                let x = start + Double(index) / Double(max(last, 1)) * plotWidth
                body += "<text class=\"tick\" x=\"\(f(x))\" y=\"\(f(layout.height - 6))\" text-anchor=\"\(anchor(index, last: last))\">\(escape(label))</text>"
            }
            return body
        }
    }

    // MARK: - Pieces

    /// Both drawings of a chart: the wide one, then the narrow one.
    private static func chart(title: String, description: String, legend: [LegendEntry], body: (Layout) -> String) -> String {
        // The same in every process and never negative (a hash's `abs` traps on Int.min).
        let id = "c" + SHA256.hex(title).prefix(12)
        return layouts.map { layout in
            svg(id: id + layout.suffix, layout: layout, title: title, description: description, legend: legend, body: body(layout))
        }.joined()
    }

    private static func svg(id: String, layout: Layout, title: String, description: String, legend: [LegendEntry], body: String) -> String {
        let (key, keyHeight) = legendMarkup(legend, layout: layout, top: layout.height + 4)
        // Pattern ids are prefixed per drawing (several share one page), and only the fills this
        // drawing uses are defined: both from one pass over the markup.
        let (markup, used) = prefixingReferences(body + key, with: id + "-")
        let defs = patterns.filter { used.contains($0.id) }.map { "<pattern id=\"\(id)-\($0.id)\" \($0.markup)</pattern>" }.joined()
        let height = layout.height + 4 + keyHeight
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"\(layout.name)\" viewBox=\"0 0 \(f(layout.width)) \(f(height))\" role=\"img\" aria-labelledby=\"\(id)-t \(id)-d\" font-family=\"sans-serif\" font-size=\"11\">"
            + "<title id=\"\(id)-t\">\(escape(title))</title><desc id=\"\(id)-d\">\(escape(description))</desc>"
            + (defs.isEmpty ? "" : "<defs>\(defs)</defs>")
            + markup + "</svg>"
    }

    /// The legend below the chart: one swatch and its words per entry, left to right, wrapping
    /// to a new row when the drawing's width runs out.
    static func legendMarkup(_ entries: [LegendEntry], layout: Layout, top: Double) -> (markup: String, height: Double) {
        guard !entries.isEmpty else { return ("", 0) }
        let rowHeight = 16.0
        var x = 4.0, y = top
        var out = "<g class=\"legend\">"
        for entry in entries {
            let width = 14 + textWidth(entry.label) + 14
            if x > 4, x + width > layout.width - 4 { x = 4; y += rowHeight }
            switch entry.swatch {
            case .pattern(let fill):
                out += "<rect class=\"key\" x=\"\(f(x))\" y=\"\(f(y + 2))\" width=\"10\" height=\"10\" fill=\"url(#\(fill))\" stroke=\"#8c8c94\"/>"
            case .bar:
                out += "<rect class=\"key bar\" x=\"\(f(x))\" y=\"\(f(y + 2))\" width=\"10\" height=\"10\"/>"
            case .line:
                out += "<line class=\"key line\" x1=\"\(f(x))\" x2=\"\(f(x + 10))\" y1=\"\(f(y + 7))\" y2=\"\(f(y + 7))\" stroke=\"currentColor\" stroke-width=\"2\"/>"
            }
            out += "<text class=\"key\" x=\"\(f(x + 14))\" y=\"\(f(y + 11))\">\(escape(entry.label))</text>"
            x += width
        }
        return (out + "</g>", y - top + rowHeight + 2)
    }

    /// Every how many labels one is shown: all in the wide layout up to 12 (then about 8), and in
    /// the narrow one no more than in the wide one, and only as many as fit side by side.
    static func labelStep(_ labels: [String], layout: Layout) -> Int {
        guard !labels.isEmpty else { return 1 }
        let wideStep = labels.count <= 12 ? 1 : labels.count / 8 + 1
        if !layout.narrow { return wideStep }
        let widest = labels.map(textWidth).max() ?? 0
        let fitting = max(Int(layout.plotWidth / (widest + 8)), 1)
        return max(Int((Double(labels.count) / Double(fitting)).rounded(.up)), wideStep)
    }

    private static func axes(_ layout: Layout, maximum: Double, minimum: Double = 0, unit: String) -> String {
        let plotHeight = layout.plotHeight, top = layout.top, left = layout.left
        var out = "<line x1=\"\(f(left))\" x2=\"\(f(left))\" y1=\"\(f(top))\" y2=\"\(f(top + plotHeight))\" stroke=\"#8c8c94\"/>"
        out += "<line x1=\"\(f(left))\" x2=\"\(f(layout.width - layout.right))\" y1=\"\(f(top + plotHeight))\" y2=\"\(f(top + plotHeight))\" stroke=\"#8c8c94\"/>"
        for step in 0...2 {
            let value = minimum + (maximum - minimum) * Double(step) / 2
            let y = top + plotHeight - plotHeight * Double(step) / 2
            out += "<text class=\"tick\" x=\"\(f(left - 4))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(number(value))</text>"
        }
        out += "<text class=\"unit\" x=\"\(f(left + 4))\" y=\"\(f(top + 8))\">\(escape(unit))</text>"
        return out
    }

    /// The axes' frame alone, for a chart with no visible value.
    private static func baseline(_ layout: Layout) -> String {
        let y = layout.top + layout.plotHeight
        return "<line x1=\"\(f(layout.left))\" x2=\"\(f(layout.width - layout.right))\" y1=\"\(f(y))\" y2=\"\(f(y))\" stroke=\"#8c8c94\"/>"
    }

    private static func clockTicks(_ ticks: [(x: Double, label: String)], layout: Layout) -> String {
        ticks.enumerated().map { index, tick in
            "<text class=\"tick\" x=\"\(f(layout.left + tick.x * layout.plotWidth))\" y=\"\(f(layout.height - 6))\" text-anchor=\"\(anchor(index, last: ticks.count - 1))\">\(escape(tick.label))</text>"
        }.joined()
    }

    /// The first label starts at its tick and the last ends at it, so neither is cut at the edge.
    static func anchor(_ index: Int, last: Int) -> String { index == 0 ? "start" : index == last ? "end" : "middle" }

    /// The tables' formatting (grouped thousands, at most one decimal), so a tooltip, an axis and
    /// a table cell show one number the same way.
    static func number(_ value: Double) -> String {
        UnitFormatter.number(value, decimals: value.magnitude < 100 && value != value.rounded() ? 1 : 0)
    }

    /// 0, 1, 2, 5 × 10ⁿ above the data, so axes read cleanly.
    static func niceMaximum(_ value: Double) -> Double {
        guard value > 0 else { return 1 }
        let magnitude = pow(10, floor(log10(value)))
        for step in [1.0, 2, 2.5, 5, 10] where step * magnitude >= value { return step * magnitude }
        return 10 * magnitude
    }

    /// Numbers with at most one decimal and no locale: the same bytes on every machine (built from
    /// integer tenths: `String(format:)` cost a tenth of a large site's rendering).
    static func f(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        if tenths % 10 == 0 { return String(tenths / 10) }
        return (tenths < 0 ? "-" : "") + String(tenths.magnitude / 10) + "." + String(tenths.magnitude % 10)
    }

    /// `7` → `07`.
    static func twoDigits(_ number: Int) -> String { number < 10 && number >= 0 ? "0\(number)" : String(number) }

    /// `url(#p0)` → `url(#c123-p0)`: `markup` with `prefix` written after each `url(#`, and the ids so referenced — in one pass
    /// over its bytes (`String.contains` goes through `NSString` on Linux, and per pattern per
    /// drawing it was most of a fleet's render).
    static func prefixingReferences(_ markup: String, with prefix: String) -> (markup: String, used: Set<String>) {
        let insert = Array(prefix.utf8)
        var output: [UInt8] = []
        var used: Set<String> = []
        var markup = markup
        markup.withUTF8 { bytes in
            output.reserveCapacity(bytes.count + 256)
            // Copied in runs between references; each `(` is a candidate (charts have few).
            var copied = 0, index = 0
            while let open = bytes[index...].firstIndex(of: UInt8(ascii: "(")) {
                index = open + 1
                guard open >= 3, open + 1 < bytes.count, bytes[open + 1] == UInt8(ascii: "#"),
                      bytes[open - 3] == UInt8(ascii: "u"), bytes[open - 2] == UInt8(ascii: "r"), bytes[open - 1] == UInt8(ascii: "l") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<open + 2]))
                output += insert
                var end = open + 2
                while end < bytes.count, bytes[end] != UInt8(ascii: ")") { end += 1 }
                used.insert(String(decoding: UnsafeBufferPointer(rebasing: bytes[(open + 2)..<end]), as: UTF8.self))
                copied = open + 2
                index = end
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        }
        return (String(decoding: output, as: UTF8.self), used)
    }

    static func escape(_ text: String) -> String { HTMLText.escape(text) }
}
