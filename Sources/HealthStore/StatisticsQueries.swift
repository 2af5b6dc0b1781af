import Foundation

extension SimulatedHealthStore {
    /// HKStatisticsQuery over [from, to). An option that does not fit the type's aggregation style crashes, as
    /// HealthKit raises when the query is created; access errors come back as failures.
    public func statistics(of type: HealthTypeID, from: Date, to: Date,
                           options: StatisticsOptions) -> QueryOutcome<Statistics> {
        if let crash = StatisticsOptions.crash(for: type, options: options) { return .crash(crash) }
        switch readableSeries(type) {
        case .failure(let e): return .failure(e)
        case .success(let (series, _)):
            let a = from.timeIntervalSinceReferenceDate, b = to.timeIntervalSinceReferenceDate
            return .success(Self.bucket(type, series, a, b, options))
        }
    }

    /// HKStatisticsCollectionQuery: buckets of `interval` tiled in both directions from `anchor` (only the anchor's
    /// time of day matters for days), every bucket that overlaps [from, to), empty buckets included. Day buckets
    /// follow the store's time zone, so they last 23 or 25 hours at DST changes.
    public func statisticsCollection(of type: HealthTypeID, from: Date, to: Date, anchor: Date,
                                     interval: StatisticsInterval = .day,
                                     options: StatisticsOptions) -> QueryOutcome<StatisticsCollection> {
        if let crash = StatisticsOptions.crash(for: type, options: options) { return .crash(crash) }
        switch readableSeries(type) {
        case .failure(let e): return .failure(e)
        case .success(let (series, data)):
            var cal = Calendar(identifier: .gregorian)
            cal.timeZone = data.timeZone
            let edges = Self.bucketEdges(from: from, to: to, anchor: anchor, interval: interval, calendar: cal)
            var buckets: [Statistics] = []
            buckets.reserveCapacity(max(0, edges.count - 1))
            for i in 0..<max(0, edges.count - 1) {
                buckets.append(Self.bucket(type, series, edges[i], edges[i + 1], options))
            }
            return .success(StatisticsCollection(type: type, buckets: buckets))
        }
    }

    /// Daily buckets for whole calendar days `first...last` in the store's time zone (anchor: local midnight).
    public func dailyStatistics(of type: HealthTypeID, from first: DayDate, through last: DayDate,
                                options: StatisticsOptions) -> QueryOutcome<StatisticsCollection> {
        let tz = timeZone
        let start = first.start(in: tz), end = last.next.start(in: tz)
        return statisticsCollection(of: type, from: start, to: end, anchor: start, interval: .day, options: options)
    }

    /// The interval [start, end) of a calendar day in the store's time zone.
    public func interval(of day: DayDate) -> (start: Date, end: Date) {
        let tz = timeZone
        return (day.start(in: tz), day.next.start(in: tz))
    }

    static func bucket(_ type: HealthTypeID, _ series: [SampleSeries], _ a: Double, _ b: Double,
                       _ options: StatisticsOptions) -> Statistics {
        let style = type.aggregationStyle ?? .discreteArithmetic
        let merged = StatisticsEngine.compute(series, style: style, from: a, to: b, options: options)
        var bySource: [SampleSource: StatisticValues]?
        if options.contains(.separateBySource) {
            var map: [SampleSource: StatisticValues] = [:]
            for s in series where !s.candidates(a, b).isEmpty {
                let v = StatisticsEngine.compute([s], style: style, from: a, to: b, options: options)
                if v != StatisticValues() { map[s.source] = v }
            }
            bySource = map
        }
        return Statistics(type: type, startTime: a, endTime: b, values: merged, bySource: bySource)
    }

    /// Bucket edges as doubles, computed with Calendar once per query: the first edge is the last anchor-aligned
    /// boundary at or before `from`, the last is the first boundary at or after `to`.
    static func bucketEdges(from: Date, to: Date, anchor: Date, interval: StatisticsInterval,
                            calendar cal: Calendar) -> [Double] {
        guard to > from else { return [] }
        let step: Int, component: Calendar.Component
        switch interval {
        case .days(let n): step = max(1, n); component = .day
        case .hours(let n): step = max(1, n); component = .hour
        }
        func edge(_ k: Int) -> Date { cal.date(byAdding: component, value: k * step, to: anchor)! }
        // Estimate the index of the bucket containing `from`, then correct it.
        let approx = cal.dateComponents([component], from: anchor, to: from).value(for: component) ?? 0
        var k = approx / step
        while edge(k) > from { k -= 1 }
        while edge(k + 1) <= from { k += 1 }
        var edges: [Double] = [edge(k).timeIntervalSinceReferenceDate]
        let end = to.timeIntervalSinceReferenceDate
        while edges.last! < end {
            k += 1
            edges.append(edge(k).timeIntervalSinceReferenceDate)
        }
        return edges
    }
}
