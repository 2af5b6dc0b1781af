import Foundation
import HealthKit
import os

/// Single owner of VeloRide's HealthKit permission state.
///
/// Onboarding calls `requestAccess()`; the app calls `checkAfterSettingsReturn()`
/// at launch and every time it comes back to the foreground.
@MainActor
final class HealthKitAuthorization: ObservableObject {
    static let shared = HealthKitAuthorization()

    enum AccessState: Equatable {
        case unknown
        case unavailable
        case authorized
        case notAuthorized
    }

    @Published private(set) var state: AccessState = .unknown
    @Published private(set) var isAuthorized = false
    @Published private(set) var isRequesting = false

    let healthStore = HKHealthStore()
    private let log = Logger(subsystem: "com.veloride.app", category: "HealthAuth")

    /// Everything the readiness score and ride history need.
    static let readTypes: Set<HKObjectType> = [
        HKQuantityType(.stepCount),
        HKQuantityType(.heartRate),
        HKQuantityType(.heartRateVariabilitySDNN),
        HKQuantityType(.restingHeartRate),
        HKCategoryType(.sleepAnalysis),
        HKQuantityType(.activeEnergyBurned),
        HKObjectType.workoutType(),
    ]

    /// Finished rides are written back as cycling workouts.
    static let shareTypes: Set<HKSampleType> = [
        HKObjectType.workoutType(),
    ]

    private init() {}

    // MARK: - Asking

    func requestAccess() async {
        guard HKHealthStore.isHealthDataAvailable() else {
            log.notice("Health data not available on this device")
            state = .unavailable
            return
        }

        // We only ever need to show the sheet once.
        if UserDefaults.standard.bool(forKey: "healthKitAuthorized") {
            log.debug("Rider already authorized Health on an earlier launch, skipping sheet")
            isAuthorized = true
            state = .authorized
            return
        }

        isRequesting = true
        defer { isRequesting = false }

        do {
            try await healthStore.requestAuthorization(toShare: Self.shareTypes, read: Self.readTypes)
            // HealthKit sometimes reports stale values for a moment after the sheet is
            // dismissed (seen on iOS 26 betas). Half a second is enough on every device we own.
            try await Task.sleep(nanoseconds: 500_000_000)
        } catch {
            log.error("requestAuthorization threw: \(String(describing: error), privacy: .public)")
            state = .notAuthorized
            return
        }

        await verifyAccess()
    }

    // MARK: - Re-checking

    func checkAfterSettingsReturn() async {
        if UserDefaults.standard.bool(forKey: "healthKitAuthorized") {
            isAuthorized = true
            state = .authorized
            return
        }
        await verifyAccess()
    }

    private func verifyAccess() async {
        let canRead = await testDataAccess()
        log.info("Data access probe finished, canRead=\(canRead)")
        update(authorized: canRead)
    }

    private func update(authorized: Bool) {
        isAuthorized = authorized
        state = authorized ? .authorized : .notAuthorized
        if authorized {
            UserDefaults.standard.set(true, forKey: "healthKitAuthorized")
        }
    }

    // MARK: - Probe

    /// Runs a one-sample step query for today. HealthKit doesn't tell apps whether
    /// reading was allowed, so we look at what the query says instead.
    private func testDataAccess() async -> Bool {
        let steps = HKQuantityType(.stepCount)
        let midnight = Calendar.current.startOfDay(for: Date())
        let today = HKQuery.predicateForSamples(withStart: midnight, end: Date(), options: .strictStartDate)
        let newestFirst = NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: false)

        return await withCheckedContinuation { continuation in
            let probe = HKSampleQuery(
                sampleType: steps,
                predicate: today,
                limit: 1,
                sortDescriptors: [newestFirst]
            ) { _, samples, error in
                guard let error else {
                    // Either a sample came back or the rider hasn't walked yet today.
                    continuation.resume(returning: true)
                    return
                }
                if error.localizedDescription.lowercased().contains("not authorized")
                    || error.localizedDescription.lowercased().contains("denied") {
                    continuation.resume(returning: false)
                } else {
                    // Not a permission problem (no data yet, phone locked, ...).
                    continuation.resume(returning: true)
                }
            }
            healthStore.execute(probe)
        }
    }
}
