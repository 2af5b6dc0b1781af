import WidgetKit
import HealthKit

struct StepsEntry: TimelineEntry {
    enum Content: Equatable {
        case steps(Double?)
        case openApp
        case unavailable
    }

    let date: Date
    let content: Content

    static let preview = StepsEntry(date: .now, content: .steps(6_480))
}

/// Widgets can't show the permission sheet. If the app still has to ask,
/// the widget says so and links into the app instead.
struct StepsProvider: TimelineProvider {
    private let store = HKHealthStore()

    private static let readTypes: Set<HKObjectType> = [
        HKQuantityType(.stepCount),
    ]

    func placeholder(in context: Context) -> StepsEntry {
        .preview
    }

    func getSnapshot(in context: Context, completion: @escaping (StepsEntry) -> Void) {
        guard !context.isPreview else {
            completion(.preview)
            return
        }
        Task { completion(await entry(at: .now)) }
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<StepsEntry>) -> Void) {
        Task {
            let current = await entry(at: .now)
            let next = Calendar.current.date(byAdding: .minute, value: 30, to: .now) ?? .now
            completion(Timeline(entries: [current], policy: .after(next)))
        }
    }

    private func entry(at date: Date) async -> StepsEntry {
        guard HKHealthStore.isHealthDataAvailable() else {
            return StepsEntry(date: date, content: .unavailable)
        }

        let requestStatus = try? await store.statusForAuthorizationRequest(toShare: [], read: Self.readTypes)
        if requestStatus == .shouldRequest {
            return StepsEntry(date: date, content: .openApp)
        }

        // Access was asked for in the app. A declined read just shows up as no steps.
        return StepsEntry(date: date, content: .steps(await stepsToday(until: date)))
    }

    private func stepsToday(until now: Date) async -> Double? {
        let midnight = Calendar.current.startOfDay(for: now)
        let descriptor = HKStatisticsQueryDescriptor(
            predicate: .quantitySample(
                type: HKQuantityType(.stepCount),
                predicate: HKQuery.predicateForSamples(withStart: midnight, end: now)
            ),
            options: .cumulativeSum
        )
        let statistics = try? await descriptor.result(for: store)
        return statistics?.sumQuantity()?.doubleValue(for: .count())
    }
}
