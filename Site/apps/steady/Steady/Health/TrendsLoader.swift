import Foundation
import HealthKit

struct DayTrend: Identifiable, Equatable {
    var id: Date { day }
    let day: Date
    var steps: Double?
    var activeKilocalories: Double?
    var restingKilocalories: Double?
    var walkingKilometers: Double?
    var restingHeartRate: Double?
    var hrvMilliseconds: Double?
    var sleepHours: Double?
}

struct ProfileFacts: Equatable {
    var age: Int?
    var sex: HKBiologicalSex = .notSet
    var latestWeightKilograms: Double?
    var latestHeartRate: Double?
    var workoutsThisWeek = 0
}

/// Reads the last seven days. A declined type simply yields no values,
/// which the UI shows as "No data" rather than as an error.
struct TrendsLoader {
    let store: HKHealthStore
    var calendar = Calendar.current

    init(store: HKHealthStore = SharedHealthStore.store) {
        self.store = store
    }

    func lastSevenDays(endingAt now: Date = .now) async throws -> [DayTrend] {
        let today = calendar.startOfDay(for: now)
        guard let start = calendar.date(byAdding: .day, value: -6, to: today) else { return [] }

        async let steps = daily(.stepCount, .cumulativeSum, unit: .count(), from: start, to: now)
        async let active = daily(.activeEnergyBurned, .cumulativeSum, unit: .kilocalorie(), from: start, to: now)
        async let basal = daily(.basalEnergyBurned, .cumulativeSum, unit: .kilocalorie(), from: start, to: now)
        async let walking = daily(.distanceWalkingRunning, .cumulativeSum, unit: .meterUnit(with: .kilo), from: start, to: now)
        async let resting = daily(.restingHeartRate, .discreteAverage, unit: .count().unitDivided(by: .minute()), from: start, to: now)
        async let hrv = daily(.heartRateVariabilitySDNN, .discreteAverage, unit: .secondUnit(with: .milli), from: start, to: now)
        async let sleep = dailySleepHours(from: start, to: now)

        let (s, a, b, w, r, h, z) = try await (steps, active, basal, walking, resting, hrv, sleep)
        return (0..<7).compactMap { offset in
            guard let day = calendar.date(byAdding: .day, value: offset, to: start) else { return nil }
            return DayTrend(
                day: day,
                steps: s[day], activeKilocalories: a[day], restingKilocalories: b[day],
                walkingKilometers: w[day], restingHeartRate: r[day], hrvMilliseconds: h[day],
                sleepHours: z[day]
            )
        }
    }

    func profile(now: Date = .now) async throws -> ProfileFacts {
        var facts = ProfileFacts()

        // Characteristics: "not set" and "declined" look the same, and that's fine.
        if let birthday = try? store.dateOfBirthComponents(),
           let born = calendar.date(from: birthday) {
            facts.age = calendar.dateComponents([.year], from: born, to: now).year
        }
        facts.sex = (try? store.biologicalSex().biologicalSex) ?? .notSet

        facts.latestWeightKilograms = try await latest(.bodyMass, unit: .gramUnit(with: .kilo))
        facts.latestHeartRate = try await latest(.heartRate, unit: .count().unitDivided(by: .minute()))

        let weekAgo = calendar.date(byAdding: .day, value: -7, to: now) ?? now
        let workouts = HKSampleQueryDescriptor(
            predicates: [.workout(HKQuery.predicateForSamples(withStart: weekAgo, end: now))],
            sortDescriptors: []
        )
        facts.workoutsThisWeek = try await workouts.result(for: store).count
        return facts
    }

    // MARK: - Helpers

    private func daily(
        _ id: HKQuantityTypeIdentifier,
        _ options: HKStatisticsOptions,
        unit: HKUnit,
        from start: Date,
        to end: Date
    ) async throws -> [Date: Double] {
        let range = HKQuery.predicateForSamples(withStart: start, end: end)
        let descriptor = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: HKQuantityType(id), predicate: range),
            options: options,
            anchorDate: start,
            intervalComponents: DateComponents(day: 1)
        )
        let collection = try await descriptor.result(for: store)

        var values: [Date: Double] = [:]
        collection.enumerateStatistics(from: start, to: end) { statistics, _ in
            let quantity = options.contains(.cumulativeSum) ? statistics.sumQuantity() : statistics.averageQuantity()
            if let quantity {
                values[calendar.startOfDay(for: statistics.startDate)] = quantity.doubleValue(for: unit)
            }
        }
        return values
    }

    private func latest(_ id: HKQuantityTypeIdentifier, unit: HKUnit) async throws -> Double? {
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(id))],
            sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)],
            limit: 1
        )
        return try await descriptor.result(for: store).first?.quantity.doubleValue(for: unit)
    }

    /// Time asleep per night, credited to the day the night ends on. Overlapping
    /// samples from several sources are merged so two trackers don't double the total.
    private func dailySleepHours(from start: Date, to end: Date) async throws -> [Date: Double] {
        let windowStart = calendar.date(byAdding: .hour, value: -12, to: start) ?? start
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.categorySample(
                type: HKCategoryType(.sleepAnalysis),
                predicate: HKQuery.predicateForSamples(withStart: windowStart, end: end)
            )],
            sortDescriptors: [SortDescriptor(\.startDate)]
        )
        let asleepValues = Set(HKCategoryValueSleepAnalysis.allAsleepValues.map(\.rawValue))
        let asleep = try await descriptor.result(for: store).filter { asleepValues.contains($0.value) }

        var merged: [DateInterval] = []
        for sample in asleep {
            let interval = DateInterval(start: sample.startDate, end: sample.endDate)
            if let last = merged.last, interval.start <= last.end {
                merged[merged.count - 1] = DateInterval(start: last.start, end: max(last.end, interval.end))
            } else {
                merged.append(interval)
            }
        }

        var hours: [Date: Double] = [:]
        for interval in merged {
            hours[calendar.startOfDay(for: interval.end), default: 0] += interval.duration / 3600
        }
        return hours
    }
}
