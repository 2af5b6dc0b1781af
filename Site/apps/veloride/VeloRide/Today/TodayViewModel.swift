import Foundation
import HealthKit
import os

/// Builds the numbers behind the Today screen: readiness inputs from last night
/// plus today's activity so far.
@MainActor
final class TodayViewModel: ObservableObject {
    struct Readiness: Equatable {
        var hrvMilliseconds: Double?
        var restingHeartRate: Double?
        var sleepHours: Double?
        var steps: Double?
        var activeKilocalories: Double?
        var ridesThisWeek: Int = 0
    }

    enum Phase: Equatable {
        case idle
        case loading
        case needsHealthAccess
        case loaded(Readiness)
    }

    @Published private(set) var phase: Phase = .idle

    private let auth: HealthKitAuthorization
    private let log = Logger(subsystem: "com.veloride.app", category: "Today")
    private var healthStore: HKHealthStore { auth.healthStore }

    init(auth: HealthKitAuthorization = .shared) {
        self.auth = auth
    }

    func load() async {
        guard auth.isAuthorized else {
            phase = .needsHealthAccess
            return
        }
        phase = .loading

        let calendar = Calendar.current
        let now = Date()
        let startOfDay = calendar.startOfDay(for: now)
        let lastNight = calendar.date(byAdding: .hour, value: -18, to: startOfDay) ?? startOfDay
        let weekAgo = calendar.date(byAdding: .day, value: -7, to: startOfDay) ?? startOfDay

        async let hrv = average(.heartRateVariabilitySDNN, unit: .secondUnit(with: .milli), from: lastNight, to: now)
        async let resting = average(.restingHeartRate, unit: .count().unitDivided(by: .minute()), from: lastNight, to: now)
        async let steps = sum(.stepCount, unit: .count(), from: startOfDay, to: now)
        async let energy = sum(.activeEnergyBurned, unit: .kilocalorie(), from: startOfDay, to: now)
        async let sleep = asleepHours(from: lastNight, to: now)
        async let rides = cyclingWorkoutCount(from: weekAgo, to: now)

        phase = .loaded(Readiness(
            hrvMilliseconds: await hrv,
            restingHeartRate: await resting,
            sleepHours: await sleep,
            steps: await steps,
            activeKilocalories: await energy,
            ridesThisWeek: await rides
        ))
    }

    // MARK: - Queries

    private func sum(_ id: HKQuantityTypeIdentifier, unit: HKUnit, from start: Date, to end: Date) async -> Double? {
        await statistic(id, options: .cumulativeSum, from: start, to: end) { $0.sumQuantity()?.doubleValue(for: unit) }
    }

    private func average(_ id: HKQuantityTypeIdentifier, unit: HKUnit, from start: Date, to end: Date) async -> Double? {
        await statistic(id, options: .discreteAverage, from: start, to: end) { $0.averageQuantity()?.doubleValue(for: unit) }
    }

    private func statistic(
        _ id: HKQuantityTypeIdentifier,
        options: HKStatisticsOptions,
        from start: Date,
        to end: Date,
        value: @escaping (HKStatistics) -> Double?
    ) async -> Double? {
        let predicate = HKQuery.predicateForSamples(withStart: start, end: end)
        return await withCheckedContinuation { continuation in
            let query = HKStatisticsQuery(
                quantityType: HKQuantityType(id),
                quantitySamplePredicate: predicate,
                options: options
            ) { [log] _, statistics, error in
                if let error {
                    log.error("\(id.rawValue, privacy: .public) query failed: \(String(describing: error), privacy: .public)")
                }
                continuation.resume(returning: statistics.flatMap(value))
            }
            healthStore.execute(query)
        }
    }

    private func asleepHours(from start: Date, to end: Date) async -> Double? {
        let predicate = HKQuery.predicateForSamples(withStart: start, end: end)
        let samples: [HKCategorySample] = await withCheckedContinuation { continuation in
            let query = HKSampleQuery(
                sampleType: HKCategoryType(.sleepAnalysis),
                predicate: predicate,
                limit: HKObjectQueryNoLimit,
                sortDescriptors: nil
            ) { _, results, _ in
                continuation.resume(returning: results as? [HKCategorySample] ?? [])
            }
            healthStore.execute(query)
        }
        let asleep = samples.filter { HKCategoryValueSleepAnalysis.allAsleepValues.map(\.rawValue).contains($0.value) }
        guard !asleep.isEmpty else { return nil }
        let seconds = asleep.reduce(0) { $0 + $1.endDate.timeIntervalSince($1.startDate) }
        return seconds / 3600
    }

    private func cyclingWorkoutCount(from start: Date, to end: Date) async -> Int {
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            HKQuery.predicateForSamples(withStart: start, end: end),
            HKQuery.predicateForWorkouts(with: .cycling),
        ])
        return await withCheckedContinuation { continuation in
            let query = HKSampleQuery(
                sampleType: .workoutType(),
                predicate: predicate,
                limit: HKObjectQueryNoLimit,
                sortDescriptors: nil
            ) { _, results, _ in
                continuation.resume(returning: results?.count ?? 0)
            }
            healthStore.execute(query)
        }
    }
}
