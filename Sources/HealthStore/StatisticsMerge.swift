import Foundation

/// Statistics over one interval with HealthKit's source merge: sources are visited best first; each sample only
/// counts where no better source has data (spec §4.3). The exact algorithm is unconfirmed; the simulator's rules:
/// - cumulative: a sample counts for the part of its time not covered by better sources, prorated by time
///   (value × uncovered seconds / duration); the part outside the interval is prorated away the same way
///   (splitting samples across bucket boundaries proportionally is also unconfirmed, §4.4);
///   an instantaneous sample counts whole unless a better source covers its instant.
/// - discrete: a sample is kept whole or dropped: dropped when it overlaps a better source's sample
///   (for instants, touching counts, so phone and watch readings at the same instant keep only the watch's).
enum StatisticsEngine {
    /// `series` must be ordered best source first.
    static func compute(_ series: [SampleSeries], style: AggregationStyle, from a: Double, to b: Double,
                        options: StatisticsOptions) -> StatisticValues {
        style.isCumulative
            ? cumulative(series, a, b, options)
            : discrete(series, a, b, options)
    }

    private struct Recent {
        var end = -Double.infinity, start = -Double.infinity, value = 0.0, found = false
        mutating func offer(_ s: Double, _ e: Double, _ v: Double) {
            if !found || e > end || (e == end && s > start) {
                end = e; start = s; value = v; found = true
            }
        }
    }

    private static func cumulative(_ series: [SampleSeries], _ a: Double, _ b: Double,
                                   _ options: StatisticsOptions) -> StatisticValues {
        var coverage = IntervalUnion()
        var sum = 0.0
        var any = false
        var recent = Recent()
        var own: [(Double, Double)] = []
        for s in series {
            let range = s.candidates(a, b)
            if range.isEmpty { continue }
            own.removeAll(keepingCapacity: true)
            s.starts.withUnsafeBufferPointer { starts in
                s.ends.withUnsafeBufferPointer { ends in
                    s.values.withUnsafeBufferPointer { values in
                        for i in range {
                            let st = starts[i], en = ends[i]
                            guard overlaps(st, en, a, b) else { continue }
                            any = true
                            let v = values[i]
                            if en == st {
                                if !coverage.contains(st) { sum += v; recent.offer(st, en, v) }
                            } else {
                                let cs = Swift.max(st, a), ce = Swift.min(en, b)
                                let free = (ce - cs) - coverage.coveredLength(cs, ce)
                                if free > 0 {
                                    sum += v * free / (en - st)
                                    recent.offer(st, en, v)
                                }
                                own.append((cs, ce))
                            }
                        }
                    }
                }
            }
            coverage.formUnion(sorted: own)
        }
        var out = StatisticValues()
        guard any else { return out }
        if options.contains(.cumulativeSum) { out.sum = sum }
        if options.contains(.duration) { out.duration = coverage.totalLength }
        if options.contains(.mostRecent), recent.found {
            out.mostRecent = recent.value; out.mostRecentStart = recent.start; out.mostRecentEnd = recent.end
        }
        return out
    }

    private static func discrete(_ series: [SampleSeries], _ a: Double, _ b: Double,
                                 _ options: StatisticsOptions) -> StatisticValues {
        var coverage = ClosedCoverage()
        var spanned = IntervalUnion()
        let wantsDuration = options.contains(.duration)
        var count = 0, total = 0.0
        var lo = Double.infinity, hi = -Double.infinity
        var recent = Recent()
        var own: [(Double, Double)] = []
        var ownClipped: [(Double, Double)] = []
        for s in series {
            let range = s.candidates(a, b)
            if range.isEmpty { continue }
            own.removeAll(keepingCapacity: true)
            ownClipped.removeAll(keepingCapacity: true)
            s.starts.withUnsafeBufferPointer { starts in
                s.ends.withUnsafeBufferPointer { ends in
                    s.values.withUnsafeBufferPointer { values in
                        for i in range {
                            let st = starts[i], en = ends[i]
                            guard overlaps(st, en, a, b) else { continue }
                            own.append((st, en))
                            if wantsDuration && en > st { ownClipped.append((Swift.max(st, a), Swift.min(en, b))) }
                            if coverage.collides(st, en) { continue }
                            let v = values[i]
                            count += 1; total += v
                            if v < lo { lo = v }
                            if v > hi { hi = v }
                            recent.offer(st, en, v)
                        }
                    }
                }
            }
            coverage.formUnion(sorted: own)
            if wantsDuration { spanned.formUnion(sorted: ownClipped) }
        }
        var out = StatisticValues()
        guard count > 0 else { return out }
        if options.contains(.discreteAverage) { out.average = total / Double(count) }
        if options.contains(.discreteMin) { out.minimum = lo }
        if options.contains(.discreteMax) { out.maximum = hi }
        if options.contains(.mostRecent) {
            out.mostRecent = recent.value; out.mostRecentStart = recent.start; out.mostRecentEnd = recent.end
        }
        if wantsDuration { out.duration = spanned.totalLength }
        return out
    }
}

/// Walks the intervals `los`/`his` and `new` (each sorted; `takeOld(old, new)` says which comes first) in merged
/// order, letting `add` fold each one into the output lists.
@inline(__always)
private func mergeSorted(
    _ los: [Double], _ his: [Double], _ new: [(Double, Double)],
    takeOld: ((Double, Double), (Double, Double)) -> Bool,
    add: (_ s: Double, _ e: Double, _ outLo: inout [Double], _ outHi: inout [Double]) -> Void
) -> ([Double], [Double]) {
    var outLo: [Double] = [], outHi: [Double] = []
    outLo.reserveCapacity(los.count + new.count); outHi.reserveCapacity(los.count + new.count)
    var i = 0, j = 0
    while i < los.count || j < new.count {
        let s: Double, e: Double
        if j >= new.count || (i < los.count && takeOld((los[i], his[i]), new[j])) {
            s = los[i]; e = his[i]; i += 1
        } else {
            s = new[j].0; e = new[j].1; j += 1
        }
        add(s, e, &outLo, &outHi)
    }
    return (outLo, outHi)
}

/// A union of half-open intervals [lo, hi), kept sorted and merged (touching intervals merge).
struct IntervalUnion {
    private(set) var los: [Double] = []
    private(set) var his: [Double] = []

    var totalLength: Double {
        var t = 0.0
        for i in los.indices { t += his[i] - los[i] }
        return t
    }

    /// First index whose hi > t.
    @inline(__always)
    private func firstEnding(after t: Double) -> Int {
        var lo = 0, hi = his.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if his[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    func contains(_ t: Double) -> Bool {
        let i = firstEnding(after: t)
        return i < los.count && los[i] <= t
    }

    func coveredLength(_ x: Double, _ y: Double) -> Double {
        var i = firstEnding(after: x)
        var total = 0.0
        while i < los.count && los[i] < y {
            total += Swift.min(his[i], y) - Swift.max(los[i], x)
            i += 1
        }
        return total
    }

    /// Adds intervals sorted by lower bound (linear merge of two sorted lists).
    mutating func formUnion(sorted new: [(Double, Double)]) {
        if new.isEmpty { return }
        (los, his) = mergeSorted(los, his, new, takeOld: { $0.0 <= $1.0 }) { s, e, outLo, outHi in
            if let last = outHi.last, s <= last {
                if e > last { outHi[outHi.count - 1] = e }
            } else {
                outLo.append(s); outHi.append(e)
            }
        }
    }
}

/// Better sources' sample intervals as closed intervals, for the discrete keep-or-drop rule. Overlapping intervals
/// merge; an instant merges only when strictly inside an interval, so touching never bridges two intervals.
struct ClosedCoverage {
    private var los: [Double] = []
    private var his: [Double] = []

    /// Do [x, y] and [s, e] collide? Positive overlap, or touching when either is an instant.
    @inline(__always)
    static func collide(_ x: Double, _ y: Double, _ s: Double, _ e: Double) -> Bool {
        if x == y || s == e { return x <= e && s <= y }
        return x < e && s < y
    }

    func collides(_ x: Double, _ y: Double) -> Bool {
        // his is non-decreasing: find the first entry ending at or after x.
        var lo = 0, hi = his.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if his[mid] < x { lo = mid + 1 } else { hi = mid }
        }
        var i = lo
        while i < los.count && los[i] <= y {
            if ClosedCoverage.collide(x, y, los[i], his[i]) { return true }
            i += 1
        }
        return false
    }

    /// Adds intervals sorted by (lower, upper).
    mutating func formUnion(sorted new: [(Double, Double)]) {
        if new.isEmpty { return }
        (los, his) = mergeSorted(los, his, new, takeOld: { $0 <= $1 }) { s, e, outLo, outHi in
            if let lastLo = outLo.last, let lastHi = outHi.last {
                if s == e {
                    if (lastLo < s && s < lastHi) || (lastLo == s && lastHi == s) { return }
                } else if lastLo < lastHi && s < lastHi {
                    if e > lastHi { outHi[outHi.count - 1] = e }
                    return
                }
            }
            outLo.append(s); outHi.append(e)
        }
    }
}
