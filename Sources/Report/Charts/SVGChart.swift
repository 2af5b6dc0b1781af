import Foundation
import Manifest
import Summary

/// Inline SVG charts written by the generator: no JavaScript, no external files, deterministic
/// number formatting, `<title>`/`<desc>` for screen readers, and patterns plus labels so they
/// read without colour.
public enum SVGChart {
    public struct Bar: Sendable, Hashable {
        public var label: String
        public var value: Double?
        public init(label: String, value: Double?) { self.label = label; self.value = value }
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

    static let width = 640.0, height = 200.0, left = 44.0, bottom = 24.0, top = 12.0, right = 8.0

    /// Vertical bars, one per label. Values the app cannot see are no bars at all: each run of them
    /// is one hatched band labelled "hidden from the app", so nothing reads as a value.
    public static func bars(_ bars: [Bar], title: String, description: String, unit: String) -> String {
        let visible = bars.compactMap(\.value)
        let maximum = niceMaximum(visible.max() ?? 0)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let slot = plotWidth / Double(max(bars.count, 1))
        // With nothing visible there is no scale to show.
        var body = visible.isEmpty ? baseline() : axes(maximum: maximum, unit: unit)
        for run in hiddenRuns(bars) {
            let x = left + Double(run.lowerBound) * slot, w = Double(run.count) * slot
            body += "<rect class=\"hidden\" x=\"\(f(x))\" y=\"\(f(top))\" width=\"\(f(w))\" height=\"\(f(plotHeight))\" fill=\"url(#hatch)\" opacity=\"0.45\">"
                + "<title>\(escape(bars[run.lowerBound].label))–\(escape(bars[run.upperBound - 1].label)): hidden from the app</title></rect>"
            if w >= 70 {
                body += "<text class=\"band\" x=\"\(f(x + w / 2))\" y=\"\(f(top + plotHeight / 2))\" text-anchor=\"middle\">hidden from the app</text>"
            }
        }
        for (index, bar) in bars.enumerated() {
            let x = left + Double(index) * slot + slot * 0.15
            if let value = bar.value {
                let h = maximum > 0 ? value / maximum * plotHeight : 0
                body += "<rect class=\"bar\" x=\"\(f(x))\" y=\"\(f(top + plotHeight - h))\" width=\"\(f(slot * 0.7))\" height=\"\(f(h))\"><title>\(escape(bar.label)): \(number(value)) \(escape(unit))</title></rect>"
            }
            if bars.count <= 12 || index % (bars.count / 8 + 1) == 0 {
                body += "<text class=\"tick\" x=\"\(f(x + slot * 0.35))\" y=\"\(f(height - 6))\" text-anchor=\"middle\">\(escape(bar.label))</text>"
            }
        }
        return svg(title: title, description: description, body: body)
    }

    /// Findings per run: unchanged (light) and new (dark) stacked above the line, fixed (hatched)
    /// below it, each part titled with its count, and a legend, so it reads without colour.
    public static func trend(_ bars: [TrendBar], title: String, description: String) -> String {
        let up = Double(bars.map { $0.unchanged + $0.new }.max() ?? 0), down = Double(bars.map(\.fixed).max() ?? 0)
        let plotWidth = width - left - right, plotHeight = height - top - bottom - 14
        let scale = plotHeight / max(up + down, 1)
        let zero = top + 14 + up * scale
        let slot = plotWidth / Double(max(bars.count, 1))
        var body = "<line x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(zero))\" y2=\"\(f(zero))\" stroke=\"#8c8c94\"/>"
        body += "<text class=\"tick\" x=\"\(f(left - 4))\" y=\"\(f(zero + 4))\" text-anchor=\"end\">0</text>"
        if up > 0 { body += "<text class=\"tick\" x=\"\(f(left - 4))\" y=\"\(f(top + 18))\" text-anchor=\"end\">\(Int(up))</text>" }
        for (index, (name, fill)) in [("unchanged", "p3"), ("new", "p0"), ("fixed (below the line)", "hatch")].enumerated() {
            let x = left + Double(index) * 150
            body += "<rect x=\"\(f(x))\" y=\"\(f(top - 2))\" width=\"10\" height=\"10\" fill=\"url(#\(fill))\" stroke=\"#8c8c94\"/>"
            body += "<text class=\"unit\" x=\"\(f(x + 14))\" y=\"\(f(top + 7))\">\(name)</text>"
        }
        for (index, bar) in bars.enumerated() {
            let w = min(slot * 0.7, 40), x = left + Double(index) * slot + (slot - w) / 2
            let tip = "\(escape(bar.label)): \(bar.unchanged) unchanged, \(bar.new) new, \(bar.fixed) fixed"
            var y = zero
            for (count, fill, kind) in [(bar.unchanged, "p3", "unchanged"), (bar.new, "p0", "new")] where count > 0 {
                let h = Double(count) * scale
                y -= h
                body += "<rect class=\"\(kind)\" x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(w))\" height=\"\(f(h))\" fill=\"url(#\(fill))\"><title>\(tip)</title></rect>"
            }
            if bar.fixed > 0 {
                body += "<rect class=\"fixed\" x=\"\(f(x))\" y=\"\(f(zero))\" width=\"\(f(w))\" height=\"\(f(Double(bar.fixed) * scale))\" fill=\"url(#hatch)\"><title>\(tip)</title></rect>"
            }
            if bars.count <= 12 || index % (bars.count / 8 + 1) == 0 {
                body += "<text class=\"tick\" x=\"\(f(x + w / 2))\" y=\"\(f(height - 6))\" text-anchor=\"middle\">\(escape(bar.label))</text>"
            }
        }
        return svg(title: title, description: description, body: body)
    }

    /// Index ranges of consecutive bars without a value.
    static func hiddenRuns(_ bars: [Bar]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        for (index, bar) in bars.enumerated() {
            if bar.value == nil { start = start ?? index } else if let open = start { runs.append(open..<index); start = nil }
        }
        if let open = start { runs.append(open..<bars.count) }
        return runs
    }

    /// A line over the x range with dots at each point.
    /// `ticks`: where clock times fall across the x range (a daylight-saving day is 23 or 25 hours
    /// long, so 12:00 is not always in the middle); default every six hours of a 24-hour day.
    public static func line(_ points: [Point], title: String, description: String, unit: String, minimum: Double = 0,
                            ticks: [(x: Double, label: String)] = []) -> String {
        let maximum = niceMaximum(points.map(\.y).max() ?? 0)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func position(_ p: Point) -> (Double, Double) {
            let span = max(maximum - minimum, 1)
            return (left + p.x * plotWidth, top + plotHeight - (p.y - minimum) / span * plotHeight)
        }
        let ticks = ticks.isEmpty ? stride(from: 0, through: 24, by: 6).map { (x: Double($0) / 24, label: twoDigits($0) + ":00") } : ticks
        var body = axes(maximum: maximum, minimum: minimum, unit: unit) + clockTicks(ticks)
        if !points.isEmpty {
            let path = points.map(position).enumerated().map { "\($0.offset == 0 ? "M" : "L")\(f($0.element.0)) \(f($0.element.1))" }.joined(separator: " ")
            body += "<path class=\"line\" d=\"\(path)\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\"/>"
        }
        return svg(title: title, description: description, body: body)
    }

    /// Horizontal lanes (e.g. sleep stages) with segments; each lane has its own pattern and label.
    public static func timeline(_ segments: [Segment], lanes: [String], title: String, description: String, axisLabels: [String]) -> String {
        let plotWidth = width - 90 - right
        let laneHeight = (height - top - bottom) / Double(max(lanes.count, 1))
        var body = ""
        for (index, lane) in lanes.enumerated() {
            let y = top + Double(index) * laneHeight
            body += "<text class=\"lane\" x=\"4\" y=\"\(f(y + laneHeight * 0.65))\">\(escape(lane))</text>"
            body += "<line x1=\"90\" x2=\"\(f(width - right))\" y1=\"\(f(y + laneHeight))\" y2=\"\(f(y + laneHeight))\" stroke=\"#d9d9de\"/>"
            for segment in segments where segment.lane == lane {
                let x = 90 + segment.start * plotWidth
                body += "<rect class=\"seg lane\(index)\" x=\"\(f(x))\" y=\"\(f(y + 3))\" width=\"\(f(max((segment.end - segment.start) * plotWidth, 0.5)))\" height=\"\(f(laneHeight - 6))\" fill=\"url(#p\(index % 4))\"/>"
            }
        }
        for (index, label) in axisLabels.enumerated() {
            let x = 90 + Double(index) / Double(max(axisLabels.count - 1, 1)) * plotWidth
            body += "<text class=\"tick\" x=\"\(f(x))\" y=\"\(f(height - 6))\" text-anchor=\"\(anchor(index, last: axisLabels.count - 1))\">\(escape(label))</text>"
        }
        return svg(title: title, description: description, body: body)
    }

    // MARK: - Pieces

    private static func svg(title: String, description: String, body: String) -> String {
        // The same in every process and never negative (a hash's `abs` traps on Int.min).
        let id = "c" + SHA256.hex(title).prefix(12)
        // Pattern ids are prefixed per chart: several charts share one page.
        let body = prefixingReferences(body, with: id + "-")
        return """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(f(width)) \(f(height))" role="img" aria-labelledby="\(id)-t \(id)-d" font-family="sans-serif" font-size="11"><title id="\(id)-t">\(escape(title))</title><desc id="\(id)-d">\(escape(description))</desc><defs><pattern id="\(id)-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#8c8c94" stroke-width="2"/></pattern><pattern id="\(id)-p0" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="4" height="4" fill="#2f5fa8"/></pattern><pattern id="\(id)-p1" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" fill="#6d8fd0"/><circle cx="3" cy="3" r="1.2" fill="#fff"/></pattern><pattern id="\(id)-p2" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#9fb8e6"/><line x1="0" y1="0" x2="0" y2="6" stroke="#fff" stroke-width="1.5"/></pattern><pattern id="\(id)-p3" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" fill="#d0dcf2"/></pattern></defs>\(body)</svg>
        """
    }

    private static func axes(maximum: Double, minimum: Double = 0, unit: String) -> String {
        let plotHeight = height - top - bottom
        var out = "<line x1=\"\(f(left))\" x2=\"\(f(left))\" y1=\"\(f(top))\" y2=\"\(f(top + plotHeight))\" stroke=\"#8c8c94\"/>"
        out += "<line x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(top + plotHeight))\" y2=\"\(f(top + plotHeight))\" stroke=\"#8c8c94\"/>"
        for step in 0...2 {
            let value = minimum + (maximum - minimum) * Double(step) / 2
            let y = top + plotHeight - plotHeight * Double(step) / 2
            out += "<text class=\"tick\" x=\"\(f(left - 4))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(number(value))</text>"
        }
        out += "<text class=\"unit\" x=\"\(f(left + 4))\" y=\"\(f(top + 8))\">\(escape(unit))</text>"
        return out
    }

    /// The axes' frame alone, for a chart with no visible value.
    private static func baseline() -> String {
        let plotHeight = height - top - bottom
        return "<line x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(top + plotHeight))\" y2=\"\(f(top + plotHeight))\" stroke=\"#8c8c94\"/>"
    }

    private static func clockTicks(_ ticks: [(x: Double, label: String)]) -> String {
        let plotWidth = width - left - right
        return ticks.enumerated().map { index, tick in
            "<text class=\"tick\" x=\"\(f(left + tick.x * plotWidth))\" y=\"\(f(height - 6))\" text-anchor=\"\(anchor(index, last: ticks.count - 1))\">\(escape(tick.label))</text>"
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

    /// `url(#p0)` → `url(#c123-p0)`, by bytes.
    static func prefixingReferences(_ body: String, with prefix: String) -> String {
        let bytes = Array(body.utf8), needle = Array("url(#".utf8), insert = Array(prefix.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 256)
        var index = 0
        while index < bytes.count {
            if bytes[index] == needle[0], index + needle.count <= bytes.count, bytes[index..<index + needle.count].elementsEqual(needle) {
                output += needle
                output += insert
                index += needle.count
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func escape(_ text: String) -> String { HTMLText.escape(text) }
}
