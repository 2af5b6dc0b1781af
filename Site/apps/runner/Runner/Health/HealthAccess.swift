import Foundation
import HealthKit

/// One store for the app, as Apple recommends.
enum SharedHealthStore {
    static let store = HKHealthStore()
}

/// Shows Health's permission sheet when the runner taps "Connect Apple Health".
@MainActor
final class HealthAccess: ObservableObject {
    enum Phase: Equatable {
        case unavailable
        case needsRequest
        case ready
        case failed(String)
    }

    @Published private(set) var phase: Phase = .needsRequest

    let store: HKHealthStore

    /// Runs are saved as workouts.
    static let shareTypes: Set<HKSampleType> = [HKObjectType.workoutType()]

    /// Steps and distance for the weekly mileage, heart rate for the run summary.
    static let readTypes: Set<HKObjectType> = [
        HKQuantityType(.stepCount),
        HKQuantityType(.distanceWalkingRunning),
        HKQuantityType(.heartRate),
        HKObjectType.workoutType(),
    ]

    init(store: HKHealthStore = SharedHealthStore.store) {
        self.store = store
    }

    func connect() async {
        guard HKHealthStore.isHealthDataAvailable() else {
            phase = .unavailable
            return
        }
        do {
            try await store.requestAuthorization(toShare: Self.shareTypes, read: Self.readTypes)
        } catch {
            // Only system problems land here; declining in the sheet is not an error.
            phase = .failed(error.localizedDescription)
            return
        }
        // The sheet has been answered: declined reads come back empty.
        phase = .ready
    }
}
