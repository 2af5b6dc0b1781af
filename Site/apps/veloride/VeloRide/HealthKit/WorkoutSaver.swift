import Foundation
import HealthKit
import os

/// Writes finished rides to Apple Health as cycling workouts so they count
/// towards the rider's Activity rings.
struct WorkoutSaver {
    enum SaveError: Error, Equatable {
        case healthNotConnected
        case rideTooShort
    }

    private let healthStore: HKHealthStore
    private let log = Logger(subsystem: "com.veloride.app", category: "WorkoutSaver")

    /// Rides under a minute are almost always accidental taps on "Start".
    private let minimumDuration: TimeInterval = 60

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    func exportToHealth(_ ride: CompletedRide) async throws {
        // Health was connected during onboarding, so don't bother HealthKit again here.
        guard UserDefaults.standard.bool(forKey: "healthKitAuthorized") else {
            throw SaveError.healthNotConnected
        }
        guard ride.movingTime >= minimumDuration else {
            throw SaveError.rideTooShort
        }

        let workout = HKWorkout(
            activityType: .cycling,
            start: ride.startedAt,
            end: ride.endedAt,
            duration: ride.movingTime,
            totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: ride.activeKilocalories),
            totalDistance: HKQuantity(unit: .meter(), doubleValue: ride.distanceMeters),
            metadata: metadata(for: ride)
        )

        try await healthStore.save(workout)
        log.info("Saved ride \(ride.id.uuidString, privacy: .public) to Health")
    }

    private func metadata(for ride: CompletedRide) -> [String: Any] {
        var metadata: [String: Any] = [
            HKMetadataKeyIndoorWorkout: ride.isIndoor,
            HKMetadataKeyExternalUUID: ride.id.uuidString,
        ]
        if let elevation = ride.elevationGainMeters {
            metadata[HKMetadataKeyElevationAscended] = HKQuantity(unit: .meter(), doubleValue: elevation)
        }
        if let power = ride.averagePowerWatts {
            metadata["VRAveragePower"] = power
        }
        return metadata
    }
}
