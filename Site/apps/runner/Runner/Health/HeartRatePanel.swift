import Foundation
import HealthKit

/// The heart-rate panel under a finished run: average and peak beats per minute.
struct HeartRatePanelLoader {
    struct Figures: Equatable {
        var average: Double
        var peak: Double
    }

    enum Panel: Equatable {
        case figures(Figures)
        case noData
        case turnedOff
    }

    let store: HKHealthStore

    init(store: HKHealthStore = SharedHealthStore.store) {
        self.store = store
    }

    func panel(for run: HKWorkout) async throws -> Panel {
        guard HKHealthStore.isHealthDataAvailable() else { return .noData }
        let heartRate = HKQuantityType(.heartRate)
        // Show "Heart rate is turned off in Health" instead of an empty panel.
        guard store.authorizationStatus(for: heartRate) == .sharingAuthorized else { return .turnedOff }

        let during = HKQuery.predicateForSamples(withStart: run.startDate, end: run.endDate)
        let query = HKStatisticsQueryDescriptor(
            predicate: .quantitySample(type: heartRate, predicate: during),
            options: [.discreteAverage, .discreteMax]
        )
        guard let statistics = try await query.result(for: store),
              let average = statistics.averageQuantity(),
              let peak = statistics.maximumQuantity() else { return .noData }
        let bpm = HKUnit.count().unitDivided(by: .minute())
        return .figures(Figures(average: average.doubleValue(for: bpm), peak: peak.doubleValue(for: bpm)))
    }
}
