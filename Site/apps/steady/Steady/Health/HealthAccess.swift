import Foundation
import HealthKit

/// One store for the whole app, as Apple recommends.
enum SharedHealthStore {
    static let store = HKHealthStore()
}

/// Owns the permission flow. It never tries to guess what the person allowed:
/// it only knows whether the system sheet still has something to ask.
@MainActor
final class HealthAccess: ObservableObject {
    enum Phase: Equatable {
        case checking
        case unavailable
        case needsRequest
        case ready
        case failed(HealthAccessError)
    }

    @Published private(set) var phase: Phase = .checking

    let store: HKHealthStore

    /// What Steady writes: sessions logged in the app.
    static let shareTypes: Set<HKSampleType> = [
        HKCategoryType(.mindfulSession),
        HKObjectType.workoutType(),
    ]

    /// What Steady reads for trends and recovery.
    static let readTypes: Set<HKObjectType> = [
        HKQuantityType(.stepCount),
        HKQuantityType(.heartRate),
        HKQuantityType(.restingHeartRate),
        HKQuantityType(.heartRateVariabilitySDNN),
        HKCategoryType(.sleepAnalysis),
        HKQuantityType(.activeEnergyBurned),
        HKQuantityType(.basalEnergyBurned),
        HKQuantityType(.distanceWalkingRunning),
        HKQuantityType(.bodyMass),
        HKObjectType.characteristicType(forIdentifier: .dateOfBirth)!,
        HKObjectType.characteristicType(forIdentifier: .biologicalSex)!,
        HKObjectType.workoutType(),
    ]

    init(store: HKHealthStore = SharedHealthStore.store) {
        self.store = store
    }

    /// Decides which screen to show. Asks nothing; only checks whether a sheet would appear.
    func refreshRequestStatus() async {
        guard HKHealthStore.isHealthDataAvailable() else {
            phase = .unavailable
            return
        }
        do {
            let status = try await store.statusForAuthorizationRequest(toShare: Self.shareTypes, read: Self.readTypes)
            switch status {
            case .shouldRequest:
                phase = .needsRequest
            case .unnecessary:
                phase = .ready
            case .unknown:
                phase = .failed(.unknown)
            @unknown default:
                phase = .needsRequest
            }
        } catch {
            phase = .failed(HealthAccessError(error))
        }
    }

    /// Shows the system sheet for any type the person hasn't been asked about yet.
    func requestAccess() async {
        guard HKHealthStore.isHealthDataAvailable() else {
            phase = .unavailable
            return
        }
        do {
            try await store.requestAuthorization(toShare: Self.shareTypes, read: Self.readTypes)
        } catch {
            // Only system problems land here (bad request, Health unavailable);
            // declining in the sheet is not an error.
            phase = .failed(HealthAccessError(error))
            return
        }
        // The sheet has been answered. Reads the person declined just come back empty,
        // and every save checks its own write permission first.
        phase = .ready
        BackgroundSync.shared.registerObservers()
    }
}
