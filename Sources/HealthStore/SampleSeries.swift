import Foundation

/// All samples of one type from one source, as parallel arrays sorted by (start, end).
/// Queries find their range by binary search on `starts`; `maxDuration` bounds how far back an overlapping
/// sample can start, so no query ever scans or sorts the whole series.
public struct SampleSeries: Sendable {
    public let type: HealthTypeID
    public let source: SampleSource
    public private(set) var starts: [Double] = []
    public private(set) var ends: [Double] = []
    public private(set) var values: [Double] = []
    public private(set) var maxDuration: Double = 0
    private var isSorted = true

    public init(type: HealthTypeID, source: SampleSource) {
        self.type = type; self.source = source
    }

    public var count: Int { starts.count }

    /// Appends without keeping order; call `sortIfNeeded()` before querying (the data set does).
    mutating func append(start: Double, end: Double, value: Double) {
        if let lastStart = starts.last, let lastEnd = ends.last,
           start < lastStart || (start == lastStart && end < lastEnd) {
            isSorted = false
        }
        starts.append(start); ends.append(end); values.append(value)
        maxDuration = max(maxDuration, end - start)
    }

    mutating func reserveCapacity(_ n: Int) {
        starts.reserveCapacity(n); ends.reserveCapacity(n); values.reserveCapacity(n)
    }

    /// One sort when the data set is built (never per query).
    mutating func sortIfNeeded() {
        guard !isSorted else { return }
        let order = starts.indices.sorted { (starts[$0], ends[$0]) < (starts[$1], ends[$1]) }
        starts = order.map { starts[$0] }
        ends = order.map { ends[$0] }
        values = order.map { values[$0] }
        isSorted = true
    }

    /// Inserts one sample at its sorted position (saves are rare; O(n) move is fine).
    mutating func insert(start: Double, end: Double, value: Double) {
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if (starts[mid], ends[mid]) <= (start, end) { lo = mid + 1 } else { hi = mid }
        }
        starts.insert(start, at: lo); ends.insert(end, at: lo); values.insert(value, at: lo)
        maxDuration = max(maxDuration, end - start)
    }

    /// First index whose start is >= t.
    @inline(__always)
    func lowerBound(_ t: Double) -> Int {
        starts.withUnsafeBufferPointer { p in
            var lo = 0, hi = p.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if p[mid] < t { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
    }

    /// Indices of every sample that may overlap [a, b); callers still apply `overlaps` to each.
    @inline(__always)
    func candidates(_ a: Double, _ b: Double) -> Range<Int> {
        let lo = lowerBound(a - maxDuration)
        let hi = lowerBound(b)
        return lo..<max(lo, hi)
    }

    public func sample(at i: Int) -> Sample {
        Sample(type: type, startTime: starts[i], endTime: ends[i], value: values[i], source: source)
    }
}
