import Foundation
import HealthKit

/// Saves what the person logs in Steady. Every save asks HealthKit for the
/// current write permission right before it writes: people change these
/// switches in Settings at any time.
struct SessionLogger {
    let store: HKHealthStore

    init(store: HKHealthStore = SharedHealthStore.store) {
        self.store = store
    }

    func logMindfulSession(from start: Date, to end: Date) async throws {
        let sample = HKCategorySample(
            type: HKCategoryType(.mindfulSession),
            value: HKCategoryValue.notApplicable.rawValue,
            start: start,
            end: end,
            metadata: [HKMetadataKeyWasUserEntered: true]
        )

        guard store.authorizationStatus(for: HKCategoryType(.mindfulSession)) == .sharingAuthorized else {
            throw HealthAccessError.writeNotAllowed
        }
        do {
            try await store.save(sample)
        } catch {
            throw HealthAccessError(error)
        }
    }

    func logWorkout(_ activity: HKWorkoutActivityType, from start: Date, to end: Date) async throws {
        let workout = HKWorkout(
            activityType: activity,
            start: start,
            end: end,
            workoutEvents: nil,
            totalEnergyBurned: nil,
            totalDistance: nil,
            metadata: [HKMetadataKeyWasUserEntered: true]
        )

        guard store.authorizationStatus(for: HKObjectType.workoutType()) == .sharingAuthorized else {
            throw HealthAccessError.writeNotAllowed
        }
        do {
            try await store.save(workout)
        } catch {
            throw HealthAccessError(error)
        }
    }
}
