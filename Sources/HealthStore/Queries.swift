import Foundation

extension SimulatedHealthStore {
    /// HKSampleQuery with a date predicate (samples overlapping [from, to)), `limit` (0 = HKObjectQueryNoLimit)
    /// and a start-date sort. Raw samples are not de-duplicated: phone and watch steps both come back.
    public func samples(of type: HealthTypeID, from: Date, to: Date, limit: Int = 0,
                        ascending: Bool = true) -> Result<[Sample], HealthKitError> {
        guard type.kind == .quantity || type.kind == .category else {
            return .failure(.invalidArgument("\(type.hkIdentifier) is not a sample type with quantity or category values"))
        }
        switch readableSeries(type) {
        case .failure(let e): return .failure(e)
        case .success(let (series, _)):
            let a = from.timeIntervalSinceReferenceDate, b = to.timeIntervalSinceReferenceDate
            var merged = SampleMerge.mergedInRange(series, a, b)
            if !ascending { merged.reverse() }
            if limit > 0 && merged.count > limit { merged.removeSubrange(limit...) }
            return .success(merged)
        }
    }

    /// Workouts overlapping [from, to), sorted by start. Read-denied: only the app's own workouts.
    public func workouts(from: Date, to: Date) -> Result<[Workout], HealthKitError> {
        switch readCheck(.workout) {
        case .failure(let e): return .failure(e)
        case .success(let (access, data, app)):
            let a = from.timeIntervalSinceReferenceDate, b = to.timeIntervalSinceReferenceDate
            return .success(data.workouts.filter {
                overlaps($0.startTime, $0.endTime, a, b)
                    && (access == .granted || $0.source.bundleIdentifier == app.bundleIdentifier)
            })
        }
    }

    /// `dateOfBirthComponents()`. Not set or read denied: HealthKit returns nil, which Swift surfaces as a thrown
    /// error whose code is unconfirmed (spec §3); chosen: errorNoData (11).
    public func dateOfBirth() -> Result<DateComponents, HealthKitError> {
        switch readCheck(.dateOfBirth) {
        case .failure(let e): return .failure(e)
        case .success(let (access, data, _)):
            guard access == .granted, let dob = data.dateOfBirth else { return .failure(.noData) }
            return .success(dob)
        }
    }

    /// `biologicalSex()`: not set or read denied → `.notSet` without error (spec §3). Never requested → code 5
    /// (unconfirmed; chosen like sample reads).
    public func biologicalSex() -> Result<BiologicalSex, HealthKitError> {
        switch readCheck(.biologicalSex) {
        case .failure(let e): return .failure(e)
        case .success(let (access, data, _)):
            return .success(access == .granted ? data.biologicalSex : .notSet)
        }
    }

    /// Saves one sample as the app (its source replaces the sample's). Before any request: code 5; denied: code 4.
    @discardableResult
    public func save(_ sample: Sample) -> Result<Sample, HealthKitError> {
        guard sample.type.kind == .quantity || sample.type.kind == .category || sample.type.kind == .characteristic else {
            return .failure(.invalidArgument("Use save(_: Workout) for workouts"))
        }
        if sample.endTime < sample.startTime {
            return .failure(.invalidArgument("The sample's end date is before its start date"))
        }
        var saved = sample
        let error = performSave(sample.type) { data, source in
            saved.source = source
            data.add(saved)
        }
        return error.map { .failure($0) } ?? .success(saved)
    }

    @discardableResult
    public func save(_ workout: Workout) -> Result<Workout, HealthKitError> {
        if workout.endTime < workout.startTime {
            return .failure(.invalidArgument("The workout's end date is before its start date"))
        }
        var saved = workout
        let error = performSave(.workout) { data, source in
            saved.source = source
            data.add(saved)
        }
        return error.map { .failure($0) } ?? .success(saved)
    }
}

enum SampleMerge {
    /// Samples of all `series` overlapping [a, b), merged by (start, end) without re-sorting: each series is
    /// already sorted, so this is a k-way merge (k = number of sources, a handful).
    static func mergedInRange(_ series: [SampleSeries], _ a: Double, _ b: Double) -> [Sample] {
        var lists: [(SampleSeries, [Int])] = []
        var total = 0
        for s in series {
            let idx = s.candidates(a, b).filter { overlaps(s.starts[$0], s.ends[$0], a, b) }
            if !idx.isEmpty { lists.append((s, idx)); total += idx.count }
        }
        var out: [Sample] = []
        out.reserveCapacity(total)
        var heads = [Int](repeating: 0, count: lists.count)
        while out.count < total {
            var best = -1
            for k in lists.indices where heads[k] < lists[k].1.count {
                let i = lists[k].1[heads[k]]
                let key = (lists[k].0.starts[i], lists[k].0.ends[i])
                if best < 0 {
                    best = k
                } else {
                    let j = lists[best].1[heads[best]]
                    if key < (lists[best].0.starts[j], lists[best].0.ends[j]) { best = k }
                }
            }
            out.append(lists[best].0.sample(at: lists[best].1[heads[best]]))
            heads[best] += 1
        }
        return out
    }
}
