import Foundation

/// HKHealthStore as one app sees it: the user's data, the app's context and the user's answers so far.
/// Thread-safe (state behind a lock); queries compute on a snapshot outside the lock.
public final class SimulatedHealthStore: @unchecked Sendable {
    private let lock = NSLock()
    private var _data: HealthDataSet
    private var _app: AppContext
    private var _authorization: AuthorizationTable

    /// `grants` is the authorization state already answered (e.g. the config's permissions); omitted types
    /// were never put to the user.
    public init(data: HealthDataSet, app: AppContext, grants: [HealthTypeID: PermissionGrant] = [:]) {
        _data = data
        _app = app
        _authorization = AuthorizationTable(grants: grants)
    }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body()
    }

    public var data: HealthDataSet { withLock { _data } }

    /// The app context can change between steps (launch as a widget, lock the device).
    public var app: AppContext {
        get { withLock { _app } }
        set { withLock { _app = newValue } }
    }

    /// The answers recorded so far (never shown to the app by HealthKit; for reports and tests).
    public var grants: [HealthTypeID: PermissionGrant] { withLock { _authorization.grants } }

    public var timeZone: TimeZone { withLock { _data.timeZone } }

    // MARK: Availability and authorization

    public func isHealthDataAvailable() -> Bool { app.device.healthDataAvailable }

    /// `requestAuthorization(toShare:read:)` with the simulated user's `answers` for whatever the sheet shows.
    public func requestAuthorization(toShare share: Set<HealthTypeID>, read: Set<HealthTypeID>,
                                     answers: [HealthTypeID: PermissionGrant] = [:]) -> AuthorizationOutcome {
        withLock {
            // Client-side checks raise before anything reaches the daemon (spec §1.5).
            if let crash = AuthorizationRequestValidation.crash(share: share, read: read, app: _app) {
                return .crash(crash)
            }
            if !_app.device.healthDataAvailable { return .failure(.healthDataUnavailable) }
            if !_app.hasHealthKitEntitlement { return .failure(.missingEntitlement) }
            // Chosen behaviour (unconfirmed): an extension cannot present the sheet; the call completes with
            // success and no sheet, and the types stay not determined (seed 003: "Will silently fail").
            if _app.isExtension { return .success(nil) }
            let sheet = _authorization.pending(share: share, read: read)
            if sheet.readTypes.isEmpty && sheet.shareTypes.isEmpty { return .success(nil) }
            _authorization.apply(sheet, answers: answers)
            return .success(sheet)
        }
    }

    /// `authorizationStatus(for:)`: share status only; never reveals read answers.
    public func authorizationStatus(for type: HealthTypeID) -> AuthorizationStatus {
        withLock { _authorization.status(for: type) }
    }

    /// `statusForAuthorizationRequest(toShare:read:)`: one value for the whole set; a sheet gate, not a grant check.
    public func statusForAuthorizationRequest(toShare share: Set<HealthTypeID>,
                                              read: Set<HealthTypeID>) -> Result<AuthorizationRequestStatus, HealthKitError> {
        withLock {
            if !_app.device.healthDataAvailable { return .failure(.healthDataUnavailable) }
            if !_app.hasHealthKitEntitlement { return .failure(.missingEntitlement) }
            // Daemon message for an empty type set (DEC-HD HDAuthorizationStatus.mm).
            if share.isEmpty && read.isEmpty { return .failure(.invalidArgument("The types argument may not be empty")) }
            let sheet = _authorization.pending(share: share, read: read)
            return .success(sheet.readTypes.isEmpty && sheet.shareTypes.isEmpty ? .unnecessary : .shouldRequest)
        }
    }

    /// The user changes toggles in Settings → Health → Data Access & Devices. Only toggles the app once asked
    /// for exist there; a nil field leaves that toggle alone. Returns the types that changed.
    @discardableResult
    public func changeInSettings(_ changes: [HealthTypeID: PermissionGrant]) -> [HealthTypeID] {
        withLock { _authorization.applySettings(changes) }
    }

    // MARK: Access checks shared by queries and saves

    /// Order: availability (1), entitlement (4), locked device (6), then authorization. The relative order of the
    /// last two is unconfirmed; chosen: a locked database fails before any authorization lookup.
    func readableSeries(_ type: HealthTypeID) -> Result<(series: [SampleSeries], data: HealthDataSet), HealthKitError> {
        withLock {
            if let error = baseError() { return .failure(error) }
            switch _authorization.readAccess(type) {
            // Unconfirmed in HealthKit's docs, settled by seed 000's logs: reading a never-requested type fails.
            case .notDetermined: return .failure(.notDetermined)
            // Read denied: the query succeeds and sees only what the app saved itself (spec §1.1).
            case .denied:
                let own = _app.bundleIdentifier
                return .success((ranked(_data.seriesList(of: type).filter { $0.source.bundleIdentifier == own }), _data))
            case .granted:
                return .success((ranked(_data.seriesList(of: type)), _data))
            }
        }
    }

    /// Must hold the lock.
    private func baseError() -> HealthKitError? {
        if !_app.device.healthDataAvailable { return .healthDataUnavailable }
        if !_app.hasHealthKitEntitlement { return .missingEntitlement }
        if _app.device.locked { return .databaseInaccessible }
        return nil
    }

    /// Must hold the lock. Best source first.
    private func ranked(_ list: [SampleSeries]) -> [SampleSeries] {
        list.sorted { _data.rank(of: $0.source) < _data.rank(of: $1.source) }
    }

    /// Read access for characteristics and workouts (no series).
    func readCheck(_ type: HealthTypeID) -> Result<(access: ReadAccess, data: HealthDataSet, app: AppContext), HealthKitError> {
        withLock {
            if let error = baseError() { return .failure(error) }
            let access = _authorization.readAccess(type)
            if access == .notDetermined { return .failure(.notDetermined) }
            return .success((access, _data, _app))
        }
    }

    /// Save checks, then the write itself under the same lock.
    /// Saving while locked fails with 6 too (chosen; the spec only states reads, §7 reports code 6 for workouts).
    func performSave(_ type: HealthTypeID, _ write: (inout HealthDataSet, SampleSource) -> Void) -> HealthKitError? {
        withLock {
            if let error = baseError() { return error }
            if !type.isShareable {
                return .invalidArgument("Authorization to share the following types is disallowed: \(type.hkIdentifier)")
            }
            switch _authorization.grant(type).share {
            case nil: return .notDetermined
            case .denied?: return .notAuthorized
            case .granted?:
                write(&_data, _app.source)
                return nil
            }
        }
    }
}
