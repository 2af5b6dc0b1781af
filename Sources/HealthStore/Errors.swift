import Foundation

/// HKError.Code (domain `com.apple.healthkit`), raw values 0–15 per spec §2.
public enum HKErrorCode: Int, CaseIterable, Sendable, Hashable {
    case unknownError = 0
    case errorHealthDataUnavailable = 1
    case errorHealthDataRestricted = 2
    case errorInvalidArgument = 3
    case errorAuthorizationDenied = 4
    case errorAuthorizationNotDetermined = 5
    case errorDatabaseInaccessible = 6
    case errorUserCanceled = 7
    case errorAnotherWorkoutSessionStarted = 8
    case errorUserExitedWorkoutSession = 9
    case errorRequiredAuthorizationDenied = 10
    case errorNoData = 11
    case errorWorkoutActivityNotAllowed = 12
    case errorDataSizeExceeded = 13
    case errorBackgroundWorkoutSessionNotAllowed = 14
    case errorNotPermissibleForGuestUserMode = 15

    /// The Swift case name, e.g. "errorAuthorizationNotDetermined".
    public var name: String { "\(self)" }

    /// `localizedDescription` per spec §2: the SDK header wording, or the text seen in logs where known.
    public var defaultDescription: String {
        switch self {
        case .unknownError: return "Unknown error"
        case .errorHealthDataUnavailable: return "HealthKit is not available on this device"
        case .errorHealthDataRestricted: return "HealthKit is restricted on this device"
        case .errorInvalidArgument: return "An invalid argument was provided to the API"
        case .errorAuthorizationDenied: return "Not authorized"
        // App logs (seed 000) show this wording; the daemon string is "Authorization is not determined".
        case .errorAuthorizationNotDetermined: return "Authorization not determined"
        case .errorDatabaseInaccessible: return "Protected health data is inaccessible"
        case .errorUserCanceled: return "The user canceled the operation"
        case .errorAnotherWorkoutSessionStarted: return "Another workout session started"
        case .errorUserExitedWorkoutSession: return "The user exited the app during a workout session"
        case .errorRequiredAuthorizationDenied: return "Required clinical types were denied"
        case .errorNoData: return "Data is unavailable for the requested query and predicate"
        case .errorWorkoutActivityNotAllowed: return "Workout session not allowed for the activity type"
        case .errorDataSizeExceeded: return "Data size exceeds the maximum"
        case .errorBackgroundWorkoutSessionNotAllowed: return "Workout session may not start or prepare in the background"
        case .errorNotPermissibleForGuestUserMode: return "Writes are not allowed in Guest User mode"
        }
    }
}

/// An NSError of domain `com.apple.healthkit` as the app receives it.
public struct HealthKitError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    public static let domain = "com.apple.healthkit"

    public var code: Int
    /// HKError.Code case name, e.g. "errorAuthorizationNotDetermined".
    public var name: String
    /// `localizedDescription`, e.g. "Authorization not determined".
    public var description: String

    public init(_ code: HKErrorCode, description: String? = nil) {
        self.code = code.rawValue
        self.name = code.name
        self.description = description ?? code.defaultDescription
    }

    public var errorDescription: String? { description }

    /// How the error prints in an app's log: `Error Domain=com.apple.healthkit Code=5 "Authorization not determined"`.
    public var logLine: String { "Error Domain=\(HealthKitError.domain) Code=\(code) \"\(description)\"" }

    public static let healthDataUnavailable = HealthKitError(.errorHealthDataUnavailable)
    public static let missingEntitlement = HealthKitError(
        .errorAuthorizationDenied, description: "Missing com.apple.developer.healthkit entitlement.")
    public static let notAuthorized = HealthKitError(.errorAuthorizationDenied)
    public static let notDetermined = HealthKitError(.errorAuthorizationNotDetermined)
    public static let databaseInaccessible = HealthKitError(.errorDatabaseInaccessible)
    public static let noData = HealthKitError(.errorNoData)
    public static func invalidArgument(_ message: String) -> HealthKitError {
        HealthKitError(.errorInvalidArgument, description: message)
    }
}

/// An uncaught Objective-C exception HealthKit raises: the app terminates. The store reports it instead.
public struct HealthKitCrash: Sendable, Hashable, CustomStringConvertible {
    public var exceptionName: String
    public var reason: String

    public init(reason: String, exceptionName: String = "NSInvalidArgumentException") {
        self.exceptionName = exceptionName
        self.reason = reason
    }

    /// The console line a crashing app prints.
    public var description: String {
        "Terminating app due to uncaught exception '\(exceptionName)', reason: '\(reason)'"
    }
}

/// What a HealthKit call hands back — a query's value, an authorization's sheet — or an HKError,
/// or a crash (HealthKit raised an exception).
public enum QueryOutcome<Value: Sendable>: Sendable {
    case success(Value)
    case failure(HealthKitError)
    case crash(HealthKitCrash)

    public var value: Value? {
        if case .success(let v) = self { return v }
        return nil
    }

    public var error: HealthKitError? {
        if case .failure(let e) = self { return e }
        return nil
    }

    public var crash: HealthKitCrash? {
        if case .crash(let c) = self { return c }
        return nil
    }
}

extension QueryOutcome: Equatable where Value: Equatable {}
extension QueryOutcome: Hashable where Value: Hashable {}
