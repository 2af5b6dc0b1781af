import Foundation
import HealthKit

/// Saves a recorded run as a workout. The write permission is checked right before each save:
/// runners change these switches in Settings at any time.
struct WorkoutSaver {
    enum SaveError: Error {
        case notAllowed
    }

    let store: HKHealthStore

    init(store: HKHealthStore = SharedHealthStore.store) {
        self.store = store
    }

    func saveRun(from start: Date, to end: Date, meters: Double, kilocalories: Double) async throws {
        let workout = HKWorkout(
            activityType: .running,
            start: start,
            end: end,
            workoutEvents: nil,
            totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: kilocalories),
            totalDistance: HKQuantity(unit: .meter(), doubleValue: meters),
            metadata: [HKMetadataKeyIndoorWorkout: false]
        )
        guard store.authorizationStatus(for: HKObjectType.workoutType()) == .sharingAuthorized else {
            throw SaveError.notAllowed
        }
        try await store.save(workout)
    }
}
