import Foundation
import HealthStore
import Manifest

/// The metrics of one day, each queried from both stores.
struct DayReport {
    let day: DayDate
    let held: SimulatedHealthStore
    let seen: SimulatedHealthStore
    let grants: [HealthTypeID: PermissionGrant]
    let formatter: UnitFormatter

    var interval: (start: Date, end: Date) { held.interval(of: day) }

    func summary() -> DaySummary {
        let (start, end) = interval
        let steps = sum(.stepCount)
        let sleep = SleepNight(day: day, store: held, timeZone: held.timeZone)
        let sleepSeen = SleepNight(day: day, store: seen, timeZone: held.timeZone)
        var metrics: [MetricRow] = [
            row("Steps", .stepCount, steps.held.map { UnitFormatter.number($0) }, steps.seen.map { UnitFormatter.number($0) }, steps.visibility),
            quantity("Distance walking and running", .distanceWalkingRunning, .cumulativeSum) { formatter.distance($0.sum ?? 0) },
            quantity("Distance cycling", .distanceCycling, .cumulativeSum) { formatter.distance($0.sum ?? 0) },
            quantity("Active energy", .activeEnergyBurned, .cumulativeSum) { formatter.energy($0.sum ?? 0) },
            quantity("Resting energy", .basalEnergyBurned, .cumulativeSum) { formatter.energy($0.sum ?? 0) },
            quantity("Heart rate (min / average / max)", .heartRate, [.discreteMin, .discreteAverage, .discreteMax]) {
                "\(UnitFormatter.number($0.minimum ?? 0)) / \(UnitFormatter.number($0.average ?? 0)) / \(UnitFormatter.number($0.maximum ?? 0)) bpm"
            },
            quantity("Resting heart rate", .restingHeartRate, .discreteAverage) { "\(UnitFormatter.number($0.average ?? 0)) bpm" },
            quantity("Heart rate variability (SDNN)", .heartRateVariabilitySDNN, .discreteAverage) { "\(UnitFormatter.number($0.average ?? 0)) ms" },
            quantity("Weight", .bodyMass, .mostRecent) { formatter.mass($0.mostRecent ?? 0) },
        ]
        let sleepVisibility = visibility(of: .sleepAnalysis, sleepSeen.error)
        metrics.append(row("Time asleep (night ending this day)", .sleepAnalysis, sleep.totalText, sleepSeen.totalText, sleepVisibility))
        for stage in SleepNight.stages {
            metrics.append(row("— \(SleepNight.label(stage))", .sleepAnalysis, sleep.text(for: stage), sleepSeen.text(for: stage), sleepVisibility))
        }
        metrics.append(age())

        let workouts = seen.workouts(from: start, to: end)
        let heldWorkouts = (try? held.workouts(from: start, to: end).get()) ?? []
        let hourly = hourlySteps()
        let heart = heartRateLine()
        var summary = DaySummary(
            day: day, hours: end.timeIntervalSince(start) / 3600, metrics: metrics,
            workouts: heldWorkouts.map(workoutRow), workoutsVisibility: visibility(of: .workout, workouts.failure),
            stepsByHour: hourly, heartRate: heart.points, heartRateVisibility: heart.visibility,
            sleep: sleep.spans, sleepVisibility: sleepVisibility,
            stepsSeen: steps.seen, stepsHeld: steps.held ?? 0,
            sleepSeenHours: sleepSeen.error == nil && grants[.sleepAnalysis]?.read == .granted ? sleepSeen.totalAsleep / 3600 : nil,
            sleepHeldHours: sleep.totalAsleep / 3600)
        (summary.hourLabels, summary.clockTicks) = clock(from: start, to: end)
        return summary
    }

    // MARK: - Metrics

    private func sum(_ type: HealthTypeID) -> (held: Double?, seen: Double?, visibility: Visibility) {
        let (start, end) = interval
        let heldValue = held.statistics(of: type, from: start, to: end, options: .cumulativeSum).value?.values.sum
        let outcome = seen.statistics(of: type, from: start, to: end, options: .cumulativeSum)
        let visibility = visibility(of: type, outcome.error)
        return (heldValue, visibility == .visible ? outcome.value?.values.sum ?? 0 : nil, visibility)
    }

    private func quantity(_ name: String, _ type: HealthTypeID, _ options: StatisticsOptions, _ format: (StatisticValues) -> String) -> MetricRow {
        let (start, end) = interval
        let heldStats = held.statistics(of: type, from: start, to: end, options: options).value?.values
        let outcome = seen.statistics(of: type, from: start, to: end, options: options)
        let visibility = visibility(of: type, outcome.error)
        func text(_ values: StatisticValues?) -> String? {
            guard let values, values.sum != nil || values.average != nil || values.mostRecent != nil else { return nil }
            return format(values)
        }
        return row(name, type, text(heldStats), visibility == .visible ? text(outcome.value?.values) : nil, visibility)
    }

    private func row(_ name: String, _ type: HealthTypeID, _ held: String?, _ seen: String?, _ visibility: Visibility) -> MetricRow {
        let heldText = held ?? "no data"
        let seenText: String
        switch visibility {
        case .visible, .readNotGranted: seenText = seen ?? "no data"
        case .neverAsked, .failed: seenText = "error"
        case .notSet: seenText = "not set"
        }
        return MetricRow(name: name, held: heldText, seen: seenText, visibility: visibility, type: type.rawValue)
    }

    /// Read denial never surfaces as an error: the app just gets fewer (its own) samples.
    private func visibility(of type: HealthTypeID, _ error: HealthKitError?) -> Visibility {
        if let error { return error.code == HKErrorCode.errorAuthorizationNotDetermined.rawValue ? .neverAsked(error) : .failed(error) }
        return grants[type]?.read == .granted ? .visible : .readNotGranted
    }

    private func age() -> MetricRow {
        let heldDOB = try? held.dateOfBirth().get()
        let seenResult = seen.dateOfBirth()
        func years(_ dob: DateComponents?) -> String? {
            guard let dob, let y = dob.year, let m = dob.month, let d = dob.day else { return nil }
            return "\(AgeCalculator.age(born: DayDate(year: y, month: m, day: d), on: DayDate(year: day.year, month: day.month, day: day.day))) years"
        }
        let visibility: Visibility
        switch seenResult {
        case .failure(let error) where error.code == HKErrorCode.errorAuthorizationNotDetermined.rawValue: visibility = .neverAsked(error)
        case .failure where heldDOB == nil: visibility = .notSet
        case .failure: visibility = grants[.dateOfBirth]?.read == .denied ? .readNotGranted : .failed(seenResult.failure!)
        case .success: visibility = .visible
        }
        var row = row("Age (from date of birth)", .dateOfBirth, years(heldDOB), years(try? seenResult.get()), visibility)
        if heldDOB == nil { row.held = "not set" }
        if case .readNotGranted = visibility { row.seen = "not set" }
        return row
    }

    private func workoutRow(_ workout: Workout) -> WorkoutRow {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = held.timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: workout.start)
        return WorkoutRow(
            activity: workout.activityType.name,
            start: String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0),
            duration: UnitFormatter.duration(workout.endTime - workout.startTime),
            energy: workout.totalEnergyBurned.map(formatter.energy) ?? "—",
            distance: workout.totalDistance.map(formatter.distance) ?? "—")
    }

    /// Hour labels and clock-time tick positions for the day's real length, read from the local
    /// clock: a half-hour shift (Lord Howe) shows as `02:30`, a day that starts at 01:00 (clocks
    /// going forward at midnight) starts its axis at `01:00`.
    private func clock(from start: Date, to end: Date) -> (labels: [String], ticks: [(x: Double, label: String)]) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = held.timeZone
        func local(_ date: Date, minutesAlways: Bool) -> String {
            let parts = calendar.dateComponents([.hour, .minute], from: date)
            let hour = (parts.hour ?? 0) < 10 ? "0\(parts.hour ?? 0)" : "\(parts.hour ?? 0)"
            let minute = parts.minute ?? 0
            return minutesAlways || minute != 0 ? hour + ":" + (minute < 10 ? "0\(minute)" : "\(minute)") : hour
        }
        var labels: [String] = []
        var moment = start
        while moment < end {
            let label = local(moment, minutesAlways: false)
            labels.append(labels.contains(label) ? label + "′" : label)
            moment += 3600
        }
        let length = end.timeIntervalSince(start)
        var ticks: [(x: Double, label: String)] = [(0, local(start, minutesAlways: true))]
        for hour in [6, 12, 18] {
            guard let date = calendar.date(bySettingHour: hour, minute: 0, second: 0, of: start), date > start, date < end else { continue }
            ticks.append((date.timeIntervalSince(start) / length, local(date, minutesAlways: true)))
        }
        ticks.append((1, "24:00"))
        return (labels, ticks)
    }

    private func hourlySteps() -> [Double?] {
        let (start, end) = interval
        let heldBuckets = held.statisticsCollection(of: .stepCount, from: start, to: end, anchor: start, interval: .hour, options: .cumulativeSum)
            .value?.buckets ?? []
        let outcome = seen.statisticsCollection(of: .stepCount, from: start, to: end, anchor: start, interval: .hour, options: .cumulativeSum)
        guard visibility(of: .stepCount, outcome.error) == .visible, let buckets = outcome.value?.buckets else {
            return heldBuckets.map { _ in nil }
        }
        return buckets.map { $0.values.sum ?? 0 }
    }

    private func heartRateLine() -> (points: [(x: Double, bpm: Double)], visibility: Visibility) {
        let (start, end) = interval
        let outcome = seen.statisticsCollection(of: .heartRate, from: start, to: end, anchor: start, interval: .hour, options: .discreteAverage)
        let visibility = visibility(of: .heartRate, outcome.error)
        guard visibility == .visible, let buckets = outcome.value?.buckets else { return ([], visibility) }
        let length = end.timeIntervalSince(start)
        let points = buckets.compactMap { bucket -> (x: Double, bpm: Double)? in
            guard let average = bucket.values.average else { return nil }
            let middle = (bucket.startTime + bucket.endTime) / 2 - start.timeIntervalSinceReferenceDate
            return (middle / length, average)
        }
        return (points, visibility)
    }
}

extension Result {
    var failure: Failure? { if case .failure(let error) = self { return error } else { return nil } }
}

/// Age on a day, counting a 29 February birthday as reached on 1 March in common years (the
/// rule UK law uses; other countries use 28 February).
public enum AgeCalculator {
    public static func age(born: DayDate, on day: DayDate) -> Int {
        var birthday = (month: born.month, day: born.day)
        if born.month == 2, born.day == 29, DayDate.daysIn(month: 2, year: day.year) == 28 { birthday = (3, 1) }
        let reached = (day.month, day.day) >= birthday
        return day.year - born.year - (reached ? 0 : 1)
    }
}
