import Foundation

/// Everything the simulated user's Health database holds: samples per type and source (sorted columns),
/// workouts, characteristics, and the time zone the data was generated in.
public struct HealthDataSet: Sendable {
    public var timeZone: TimeZone
    /// The interval the data was generated for ([start of first day, start of the day after the last)).
    public var startTime: TimeInterval
    public var endTime: TimeInterval
    public var dateOfBirth: DateComponents?
    public var biologicalSex: BiologicalSex
    public private(set) var series: [HealthTypeID: [SampleSeries]] = [:]
    /// Sorted by start time.
    public private(set) var workouts: [Workout] = []
    /// Sources in the order they first wrote data; later third-party sources rank higher (spec §4.3:
    /// "a new source is inserted above other third-party sources").
    public private(set) var sources: [SampleSource] = []

    /// Without `startTime`/`endTime` the interval spans the given samples and workouts.
    public init(timeZone: TimeZone, startTime: TimeInterval? = nil, endTime: TimeInterval? = nil,
                dateOfBirth: DateComponents? = nil, biologicalSex: BiologicalSex = .notSet,
                samples: [Sample] = [], workouts: [Workout] = []) {
        self.timeZone = timeZone
        self.startTime = startTime ?? (samples.map(\.startTime) + workouts.map(\.startTime)).min() ?? 0
        self.endTime = endTime ?? (samples.map(\.endTime) + workouts.map(\.endTime)).max() ?? 0
        self.dateOfBirth = dateOfBirth
        self.biologicalSex = biologicalSex
        for s in samples { appendUnsorted(s.type, s.source, s.startTime, s.endTime, s.value) }
        for w in workouts { appendWorkoutUnsorted(w) }
        finalize()
    }

    /// Adds one sample at its sorted position.
    public mutating func add(_ sample: Sample) {
        register(sample.source)
        var list = series[sample.type] ?? []
        if let i = list.firstIndex(where: { $0.source == sample.source }) {
            list[i].insert(start: sample.startTime, end: sample.endTime, value: sample.value)
        } else {
            var s = SampleSeries(type: sample.type, source: sample.source)
            s.append(start: sample.startTime, end: sample.endTime, value: sample.value)
            list.append(s)
        }
        series[sample.type] = list
    }

    public mutating func add(_ workout: Workout) {
        register(workout.source)
        let i = workouts.firstIndex { $0.startTime > workout.startTime } ?? workouts.endIndex
        workouts.insert(workout, at: i)
    }

    public func seriesList(of type: HealthTypeID) -> [SampleSeries] { series[type] ?? [] }

    public func sampleCount(of type: HealthTypeID) -> Int { seriesList(of: type).reduce(0) { $0 + $1.count } }

    public var sampleCount: Int { series.values.joined().reduce(0) { $0 + $1.count } }

    /// Every sample of a type, all sources, sorted by start (for inspection and tests; queries do not use it).
    public func allSamples(of type: HealthTypeID) -> [Sample] {
        seriesList(of: type).flatMap { s in (0..<s.count).map { s.sample(at: $0) } }
            .sorted { ($0.startTime, $0.endTime) < ($1.startTime, $1.endTime) }
    }

    /// Priority rank: lower is better. Kind first, then newer third-party sources above older ones.
    func rank(of source: SampleSource) -> (Int, Int) {
        let index = sources.firstIndex(of: source) ?? sources.count
        return (source.kind.rawValue, source.kind == .thirdPartyApp ? -index : index)
    }

    // MARK: Bulk building (generator)

    mutating func appendUnsorted(_ type: HealthTypeID, _ source: SampleSource, _ s: Double, _ e: Double, _ v: Double) {
        if series[type] == nil { series[type] = [] }
        if let i = series[type]!.firstIndex(where: { $0.source == source }) {
            series[type]![i].append(start: s, end: e, value: v)
        } else {
            register(source)
            var new = SampleSeries(type: type, source: source)
            new.append(start: s, end: e, value: v)
            series[type]!.append(new)
        }
    }

    mutating func appendWorkoutUnsorted(_ w: Workout) {
        register(w.source)
        workouts.append(w)
    }

    mutating func finalize() {
        for key in Array(series.keys) {
            for i in series[key]!.indices { series[key]![i].sortIfNeeded() }
        }
        workouts.sort { ($0.startTime, $0.endTime) < ($1.startTime, $1.endTime) }
    }

    /// Installs a finished series (the generator builds columns directly).
    mutating func install(_ s: SampleSeries) {
        guard s.count > 0 else { return }
        register(s.source)
        var sorted = s
        sorted.sortIfNeeded()
        var list = series[s.type] ?? []
        list.removeAll { $0.source == s.source }
        list.append(sorted)
        series[s.type] = list
    }

    private mutating func register(_ source: SampleSource) {
        if !sources.contains(source) { sources.append(source) }
    }
}
