import Foundation
import HealthKit

/// HealthKit failures mapped by error code, never by message text.
enum HealthAccessError: Error, Equatable {
    case unavailable
    case restricted
    case notDetermined
    case denied
    case writeNotAllowed
    case deviceLocked
    case invalidRequest
    case unknown

    init(_ error: Error) {
        guard let healthError = error as? HKError else {
            self = .unknown
            return
        }
        switch healthError.code {
        case .errorHealthDataUnavailable:
            self = .unavailable
        case .errorHealthDataRestricted:
            self = .restricted
        case .errorAuthorizationNotDetermined:
            self = .notDetermined
        case .errorAuthorizationDenied:
            self = .denied
        case .errorDatabaseInaccessible:
            self = .deviceLocked
        case .errorInvalidArgument:
            self = .invalidRequest
        default:
            self = .unknown
        }
    }

    var message: String {
        switch self {
        case .unavailable:
            "Apple Health isn't available on this device."
        case .restricted:
            "Apple Health is restricted on this device, for example by a device management profile."
        case .notDetermined:
            "Steady hasn't asked for access yet. Tap Connect Apple Health first."
        case .denied, .writeNotAllowed:
            "Steady isn't allowed to save this. You can change that in Settings › Health › Data Access & Devices › Steady."
        case .deviceLocked:
            "Health data is protected while your iPhone is locked. Unlock it and try again."
        case .invalidRequest:
            "Something went wrong preparing this for Apple Health."
        case .unknown:
            "Apple Health didn't respond. Try again in a moment."
        }
    }
}
