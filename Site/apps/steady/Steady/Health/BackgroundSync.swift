import Foundation
import HealthKit
import WidgetKit
import os

/// Keeps the widget fresh: HealthKit wakes the app when new steps, sleep or
/// mindful minutes arrive, and we ask WidgetKit to reload.
final class BackgroundSync: @unchecked Sendable {
    static let shared = BackgroundSync()

    private let store = SharedHealthStore.store
    private let log = Logger(subsystem: "app.steady", category: "BackgroundSync")
    private let lock = NSLock()
    private var registered = false

    private static let observedTypes: [HKSampleType] = [
        HKQuantityType(.stepCount),
        HKCategoryType(.sleepAnalysis),
        HKCategoryType(.mindfulSession),
    ]

    /// At launch: only register once the person has answered the sheet,
    /// otherwise the observers would fail with "not determined".
    func registerIfAlreadyAsked() {
        guard HKHealthStore.isHealthDataAvailable() else { return }
        store.getRequestStatusForAuthorization(
            toShare: HealthAccess.shareTypes,
            read: HealthAccess.readTypes
        ) { [weak self] status, error in
            if let error {
                self?.log.error("Request status unavailable: \(String(describing: error), privacy: .public)")
                return
            }
            if status == .unnecessary {
                self?.registerObservers()
            }
        }
    }

    func registerObservers() {
        lock.lock()
        defer { lock.unlock() }
        guard !registered else { return }
        registered = true

        for type in Self.observedTypes {
            let query = HKObserverQuery(sampleType: type, predicate: nil) { [log] _, completionHandler, error in
                if let error {
                    log.error("Observer for \(type.identifier, privacy: .public) failed: \(String(describing: error), privacy: .public)")
                } else {
                    WidgetCenter.shared.reloadTimelines(ofKind: "app.steady.steps")
                }
                completionHandler()
            }
            store.execute(query)

            store.enableBackgroundDelivery(for: type, frequency: .hourly) { [log] _, error in
                if let error {
                    log.error("Background delivery for \(type.identifier, privacy: .public) not enabled: \(String(describing: error), privacy: .public)")
                }
            }
        }
    }
}
