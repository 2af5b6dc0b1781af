import WidgetKit
import HealthKit

struct ReadinessEntry: TimelineEntry {
    enum Content {
        case readiness(hrv: Double?, restingHeartRate: Double?)
        case unavailable
    }

    let date: Date
    let content: Content

    static let sample = ReadinessEntry(date: .now, content: .readiness(hrv: 62, restingHeartRate: 48))
}

/// Feeds the small and medium readiness widgets.
struct ReadinessProvider: TimelineProvider {
    private let healthStore = HKHealthStore()

    private let types: Set<HKObjectType> = [
        HKQuantityType(.heartRateVariabilitySDNN),
        HKQuantityType(.restingHeartRate),
    ]

    func placeholder(in context: Context) -> ReadinessEntry {
        .sample
    }

    func getSnapshot(in context: Context, completion: @escaping (ReadinessEntry) -> Void) {
        if context.isPreview {
            completion(.sample)
            return
        }
        Task {
            completion(await makeEntry(at: .now))
        }
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<ReadinessEntry>) -> Void) {
        Task {
            guard HKHealthStore.isHealthDataAvailable() else {
                completion(Timeline(entries: [ReadinessEntry(date: .now, content: .unavailable)], policy: .never))
                return
            }

            // Riders who skip onboarding never see the sheet in the app, so ask from here too.
            try? await healthStore.requestAuthorization(toShare: [], read: types)

            let entry = await makeEntry(at: .now)
            let nextRefresh = Calendar.current.date(byAdding: .minute, value: 30, to: .now) ?? .now
            completion(Timeline(entries: [entry], policy: .after(nextRefresh)))
        }
    }

    // MARK: - Reading

    private func makeEntry(at date: Date) async -> ReadinessEntry {
        let since = Calendar.current.date(byAdding: .hour, value: -24, to: date) ?? date
        async let hrv = latestAverage(.heartRateVariabilitySDNN, unit: .secondUnit(with: .milli), since: since)
        async let resting = latestAverage(.restingHeartRate, unit: .count().unitDivided(by: .minute()), since: since)
        return ReadinessEntry(date: date, content: .readiness(hrv: await hrv, restingHeartRate: await resting))
    }

    private func latestAverage(_ id: HKQuantityTypeIdentifier, unit: HKUnit, since start: Date) async -> Double? {
        let predicate = HKQuery.predicateForSamples(withStart: start, end: .now)
        return await withCheckedContinuation { continuation in
            let query = HKStatisticsQuery(
                quantityType: HKQuantityType(id),
                quantitySamplePredicate: predicate,
                options: .discreteAverage
            ) { _, statistics, _ in
                continuation.resume(returning: statistics?.averageQuantity()?.doubleValue(for: unit))
            }
            healthStore.execute(query)
        }
    }
}
