import Foundation
import XCTest
@testable import HealthStore

final class AuthorizationTests: XCTestCase {
    func testStatusIsShareOnly() {
        let s = store()
        XCTAssertEqual(s.authorizationStatus(for: .stepCount), .notDetermined)
        let outcome = s.requestAuthorization(toShare: [.bodyMass], read: [.stepCount, .bodyMass],
                                             answers: [.stepCount: .init(read: .granted),
                                                       .bodyMass: .init(read: .granted, share: .granted)])
        XCTAssertEqual(outcome, .success(AuthorizationSheet(readTypes: [.stepCount, .bodyMass],
                                                                   shareTypes: [.bodyMass])))
        // Asked for reading only and granted: still sharingDenied.
        XCTAssertEqual(s.authorizationStatus(for: .stepCount), .sharingDenied)
        XCTAssertEqual(s.authorizationStatus(for: .bodyMass), .sharingAuthorized)
        XCTAssertEqual(s.authorizationStatus(for: .heartRate), .notDetermined)
    }

    func testSuccessWhateverTheUserChose() {
        let s = store()
        let outcome = s.requestAuthorization(toShare: [], read: [.heartRate], answers: [.heartRate: .deniedBoth])
        XCTAssertTrue(outcome.succeeded)
        XCTAssertTrue(outcome.sheetShown)
        XCTAssertEqual(s.grants[.heartRate], PermissionGrant(read: .denied))
    }

    func testUnansweredToggleIsDenied() {
        let s = store()
        _ = s.requestAuthorization(toShare: [.bodyMass], read: [.stepCount], answers: [:])
        XCTAssertEqual(s.grants[.stepCount], PermissionGrant(read: .denied))
        XCTAssertEqual(s.grants[.bodyMass], PermissionGrant(share: .denied))
    }

    func testSheetOnlyForNeverAskedTypes() {
        let s = store(grants: [.stepCount: .init(read: .denied)])
        let first = s.requestAuthorization(toShare: [], read: [.stepCount], answers: [.stepCount: .init(read: .granted)])
        XCTAssertEqual(first, .success(nil))
        XCTAssertEqual(s.grants[.stepCount]?.read, .denied, "an answered type is never re-asked")
        let second = s.requestAuthorization(toShare: [], read: [.stepCount, .heartRate],
                                            answers: [.stepCount: .init(read: .granted), .heartRate: .init(read: .granted)])
        XCTAssertEqual(second, .success(AuthorizationSheet(readTypes: [.heartRate], shareTypes: [])))
        XCTAssertEqual(s.grants[.stepCount]?.read, .denied)
        XCTAssertEqual(s.grants[.heartRate]?.read, .granted)
    }

    /// Unconfirmed point (spec §1.3), chosen: a share toggle can be asked later for a type asked for reading.
    func testLaterRequestAddsShareToggleOnly() {
        let s = store(grants: [.bodyMass: .init(read: .granted)])
        let outcome = s.requestAuthorization(toShare: [.bodyMass], read: [.bodyMass],
                                             answers: [.bodyMass: .init(read: .denied, share: .granted)])
        XCTAssertEqual(outcome, .success(AuthorizationSheet(readTypes: [], shareTypes: [.bodyMass])))
        XCTAssertEqual(s.grants[.bodyMass], PermissionGrant(read: .granted, share: .granted))
    }

    func testRequestStatusIsASheetGateForTheWholeSet() {
        let s = store()
        XCTAssertEqual(s.statusForAuthorizationRequest(toShare: [], read: [.stepCount]).successValue, .shouldRequest)
        _ = s.requestAuthorization(toShare: [], read: [.stepCount], answers: [.stepCount: .init(read: .denied)])
        // Denied, yet unnecessary: no sheet would appear.
        XCTAssertEqual(s.statusForAuthorizationRequest(toShare: [], read: [.stepCount]).successValue, .unnecessary)
        XCTAssertEqual(s.statusForAuthorizationRequest(toShare: [], read: [.stepCount, .heartRate]).successValue,
                       .shouldRequest)
        XCTAssertEqual(s.statusForAuthorizationRequest(toShare: [.stepCount], read: [.stepCount]).successValue,
                       .shouldRequest)
        XCTAssertEqual(s.statusForAuthorizationRequest(toShare: [], read: []).failureValue?.code, 3)
    }

    func testSettingsChangesOnlyAskedToggles() {
        let s = store(grants: [.stepCount: .init(read: .denied), .bodyMass: .init(share: .denied)])
        let changed = s.changeInSettings([.stepCount: .grantedBoth, .bodyMass: .grantedBoth, .heartRate: .grantedBoth])
        XCTAssertEqual(changed, [.stepCount, .bodyMass])
        XCTAssertEqual(s.grants[.stepCount], PermissionGrant(read: .granted))
        XCTAssertEqual(s.grants[.bodyMass], PermissionGrant(share: .granted))
        XCTAssertNil(s.grants[.heartRate])
        XCTAssertEqual(s.authorizationStatus(for: .bodyMass), .sharingAuthorized)
    }

    /// Chosen behaviour (unconfirmed): an extension's request completes with success and no sheet.
    func testExtensionCannotPresentSheet() {
        var app = exampleApp
        app.isExtension = true
        let s = store(app: app)
        let outcome = s.requestAuthorization(toShare: [], read: [.stepCount], answers: [.stepCount: .grantedBoth])
        XCTAssertEqual(outcome, .success(nil))
        XCTAssertFalse(outcome.sheetShown)
        XCTAssertTrue(s.grants.isEmpty)
        XCTAssertEqual(s.authorizationStatus(for: .stepCount), .notDetermined)
        XCTAssertEqual(s.samples(of: .stepCount, from: date(0), to: date(1e9)).failureValue?.code, 5)
        XCTAssertEqual(s.statusForAuthorizationRequest(toShare: [], read: [.stepCount]).successValue, .shouldRequest)
    }

    func testPurposeStringRule() {
        XCTAssertFalse(PurposeString.isValid(""))
        XCTAssertFalse(PurposeString.isValid("Health"))
        XCTAssertFalse(PurposeString.isValid("for testing"), "10 alphanumerics: HealthKit rejects it")
        XCTAssertFalse(PurposeString.isValid("   ...   !!!"))
        XCTAssertTrue(PurposeString.isValid("Reads your steps to show a daily summary."))
        XCTAssertTrue(PurposeString.isValid("abcdefghijkl"))
        XCTAssertFalse(PurposeString.isValid("abcdefghijk"))
    }
}

final class ErrorPathTests: XCTestCase {
    private let window = (date(at("2026-01-10", 0)), date(at("2026-01-11", 0)))

    // Code 1: no HealthKit on the device.
    func testHealthDataUnavailable() {
        var app = exampleApp
        app.device = .iPadOS16
        let s = store(app: app, grants: allGranted)
        XCTAssertFalse(s.isHealthDataAvailable())
        let request = s.requestAuthorization(toShare: [], read: [.stepCount])
        XCTAssertEqual(request.error, HealthKitError(.errorHealthDataUnavailable))
        XCTAssertEqual(request.error?.code, 1)
        XCTAssertEqual(request.error?.name, "errorHealthDataUnavailable")
        XCTAssertEqual(s.samples(of: .stepCount, from: window.0, to: window.1).failureValue?.code, 1)
        XCTAssertEqual(s.statistics(of: .stepCount, from: window.0, to: window.1, options: .cumulativeSum).error?.code, 1)
        XCTAssertEqual(s.dateOfBirth().failureValue?.code, 1)
        XCTAssertEqual(s.statusForAuthorizationRequest(toShare: [], read: [.stepCount]).failureValue?.code, 1)
    }

    // Code 4: missing entitlement.
    func testMissingEntitlement() {
        var app = exampleApp
        app.hasHealthKitEntitlement = false
        let s = store(app: app)
        let outcome = s.requestAuthorization(toShare: [], read: [.stepCount], answers: [.stepCount: .grantedBoth])
        XCTAssertEqual(outcome.error?.code, 4)
        XCTAssertEqual(outcome.error?.description, "Missing com.apple.developer.healthkit entitlement.")
        XCTAssertEqual(outcome.error?.logLine,
                       "Error Domain=com.apple.healthkit Code=4 \"Missing com.apple.developer.healthkit entitlement.\"")
        XCTAssertFalse(outcome.sheetShown)
        XCTAssertTrue(s.grants.isEmpty)
        XCTAssertEqual(s.samples(of: .stepCount, from: window.0, to: window.1).failureValue?.code, 4)
    }

    // Code 4: saving after a denial.
    func testSaveAfterDenial() {
        let s = store(grants: [.bodyMass: .init(share: .denied)])
        let sample = Sample(type: .bodyMass, startTime: at("2026-01-10", 8), endTime: at("2026-01-10", 8),
                            value: 70, source: .watch)
        let error = s.save(sample).failureValue
        XCTAssertEqual(error?.code, 4)
        XCTAssertEqual(error?.name, "errorAuthorizationDenied")
        XCTAssertEqual(error?.description, "Not authorized")
    }

    // Code 5: reading and saving before any request.
    func testNotDetermined() {
        let s = store()
        let error = s.samples(of: .stepCount, from: window.0, to: window.1, limit: 1).failureValue
        XCTAssertEqual(error?.code, 5)
        XCTAssertEqual(error?.name, "errorAuthorizationNotDetermined")
        XCTAssertEqual(error?.description, "Authorization not determined")
        XCTAssertEqual(error?.localizedDescription, "Authorization not determined")
        XCTAssertEqual(s.statistics(of: .heartRate, from: window.0, to: window.1, options: .discreteAverage).error?.code, 5)
        XCTAssertEqual(s.workouts(from: window.0, to: window.1).failureValue?.code, 5)
        XCTAssertEqual(s.dateOfBirth().failureValue?.code, 5)
        XCTAssertEqual(s.biologicalSex().failureValue?.code, 5)
        let sample = Sample(type: .bodyMass, startTime: at("2026-01-10", 8), endTime: at("2026-01-10", 8),
                            value: 70, source: .watch)
        XCTAssertEqual(s.save(sample).failureValue?.code, 5)
    }

    /// Share answered, read never asked: reading is still not determined.
    func testShareOnlyTypeReadIsNotDetermined() {
        let s = store(grants: [.workout: .init(share: .granted)])
        XCTAssertEqual(s.workouts(from: window.0, to: window.1).failureValue?.code, 5)
        XCTAssertEqual(s.authorizationStatus(for: .workout), .sharingAuthorized)
    }

    // Code 6: locked device.
    func testLockedDevice() {
        var app = exampleApp
        app.device = .lockedIPhone
        let s = store(app: app, grants: allGranted)
        XCTAssertTrue(s.isHealthDataAvailable())
        let error = s.samples(of: .stepCount, from: window.0, to: window.1).failureValue
        XCTAssertEqual(error?.code, 6)
        XCTAssertEqual(error?.name, "errorDatabaseInaccessible")
        XCTAssertEqual(error?.description, "Protected health data is inaccessible")
        XCTAssertEqual(s.statisticsCollection(of: .stepCount, from: window.0, to: window.1, anchor: window.0,
                                              options: .cumulativeSum).error?.code, 6)
        XCTAssertEqual(s.biologicalSex().failureValue?.code, 6)
        XCTAssertEqual(s.workouts(from: window.0, to: window.1).failureValue?.code, 6)
        // Locked beats not-determined (chosen order).
        let fresh = store(app: app)
        XCTAssertEqual(fresh.samples(of: .stepCount, from: window.0, to: window.1).failureValue?.code, 6)
    }

    func testErrorCodesAndNames() {
        XCTAssertEqual(HKErrorCode.allCases.map(\.rawValue), Array(0...15))
        XCTAssertEqual(HKErrorCode.errorNotPermissibleForGuestUserMode.name, "errorNotPermissibleForGuestUserMode")
        XCTAssertEqual(HKErrorCode.errorDatabaseInaccessible.defaultDescription, "Protected health data is inaccessible")
        XCTAssertEqual(HealthKitError(.errorNoData).description,
                       "Data is unavailable for the requested query and predicate")
        XCTAssertEqual(HealthKitError.domain, "com.apple.healthkit")
    }
}

final class CrashTests: XCTestCase {
    private func request(_ app: AppContext, share: Set<HealthTypeID>, read: Set<HealthTypeID>) -> HealthKitCrash? {
        store(app: app).requestAuthorization(toShare: share, read: read).crash
    }

    func testEmptyRequest() {
        let crash = request(exampleApp, share: [], read: [])
        XCTAssertEqual(crash?.exceptionName, "NSInvalidArgumentException")
        XCTAssertEqual(crash?.reason, "Must request authorization for at least one data type")
        XCTAssertEqual(crash?.description, "Terminating app due to uncaught exception 'NSInvalidArgumentException', "
                       + "reason: 'Must request authorization for at least one data type'")
    }

    func testSharingACharacteristic() {
        XCTAssertEqual(request(exampleApp, share: [.dateOfBirth, .biologicalSex], read: [])?.reason,
                       "Authorization to share the following types is disallowed: "
                       + "HKCharacteristicTypeIdentifierDateOfBirth, HKCharacteristicTypeIdentifierBiologicalSex")
    }

    func testMissingUpdateString() {
        var app = exampleApp
        app.updateUsageDescription = nil
        XCTAssertEqual(request(app, share: [.bodyMass, .workout], read: [.stepCount])?.reason,
                       "NSHealthUpdateUsageDescription must be set in the app's Info.plist in order to request write "
                       + "authorization for the following types: HKQuantityTypeIdentifierBodyMass, HKWorkoutTypeIdentifier")
        // Reading only needs the share string.
        XCTAssertNil(request(app, share: [], read: [.stepCount]))
    }

    func testMissingShareString() {
        var app = exampleApp
        app.shareUsageDescription = nil
        XCTAssertEqual(request(app, share: [], read: [.stepCount, .sleepAnalysis])?.reason,
                       "NSHealthShareUsageDescription must be set in the app's Info.plist in order to request read "
                       + "authorization for the following types: HKQuantityTypeIdentifierStepCount, "
                       + "HKCategoryTypeIdentifierSleepAnalysis")
        XCTAssertNil(request(app, share: [.bodyMass], read: []))
    }

    func testInvalidStrings() {
        var app = exampleApp
        app.updateUsageDescription = ""
        XCTAssertEqual(request(app, share: [.bodyMass], read: [])?.reason,
                       "The string \"\" is an invalid value for NSHealthUpdateUsageDescription")
        app = exampleApp
        app.shareUsageDescription = "Health"
        XCTAssertEqual(request(app, share: [], read: [.stepCount])?.reason,
                       "The string \"Health\" is an invalid value for NSHealthShareUsageDescription")
        app.shareUsageDescription = "for testing"
        XCTAssertEqual(request(app, share: [], read: [.stepCount])?.reason,
                       "The string \"for testing\" is an invalid value for NSHealthShareUsageDescription")
    }

    /// Order (spec §1.5): arguments, then the write string, then the read string; crashes come before errors.
    func testCheckOrder() {
        var app = AppContext(bundleIdentifier: "x", name: "X", hasHealthKitEntitlement: false,
                             shareUsageDescription: nil, updateUsageDescription: nil, device: .iPadOS16)
        XCTAssertEqual(request(app, share: [.bodyMass], read: [.stepCount])?.reason.hasPrefix("NSHealthUpdateUsageDescription"),
                       true)
        XCTAssertEqual(request(app, share: [.dateOfBirth], read: [.stepCount])?.reason.hasPrefix("Authorization to share"),
                       true)
        app.updateUsageDescription = "Saves your weight to the Health app."
        XCTAssertEqual(request(app, share: [.bodyMass], read: [.stepCount])?.reason.hasPrefix("NSHealthShareUsageDescription"),
                       true)
        app.shareUsageDescription = "Reads your steps for the daily summary."
        let outcome = store(app: app).requestAuthorization(toShare: [.bodyMass], read: [.stepCount])
        XCTAssertEqual(outcome.error?.code, 1, "only a valid request reaches the availability check")
    }

    func testStatisticsOptionMismatch() {
        let s = store(grants: allGranted)
        let (a, b) = (date(at("2026-01-10", 0)), date(at("2026-01-11", 0)))
        XCTAssertEqual(s.statistics(of: .stepCount, from: a, to: b, options: .discreteAverage).crash?.reason,
                       "Statistics option HKStatisticsOptionDiscreteAverage is not compatible with cumulative data type "
                       + "HKQuantityTypeIdentifierStepCount")
        XCTAssertEqual(s.statistics(of: .activeEnergyBurned, from: a, to: b, options: [.discreteMax]).crash?.reason,
                       "Statistics option HKStatisticsOptionDiscreteMax is not compatible with cumulative data type "
                       + "HKQuantityTypeIdentifierActiveEnergyBurned")
        XCTAssertEqual(s.statistics(of: .heartRate, from: a, to: b, options: .cumulativeSum).crash?.reason,
                       "Statistics option HKStatisticsOptionCumulativeSum is not compatible with discrete data type "
                       + "HKQuantityTypeIdentifierHeartRate")
        XCTAssertEqual(s.statisticsCollection(of: .bodyMass, from: a, to: b, anchor: a,
                                              options: [.discreteAverage, .cumulativeSum]).crash?.exceptionName,
                       "NSInvalidArgumentException")
        XCTAssertEqual(s.statistics(of: .sleepAnalysis, from: a, to: b, options: .cumulativeSum).crash?.reason,
                       "Invalid HKQuantityType identifier HKCategoryTypeIdentifierSleepAnalysis")
        // Not rejected: mostRecent and duration on cumulative types, separateBySource anywhere.
        XCTAssertNil(s.statistics(of: .stepCount, from: a, to: b, options: [.cumulativeSum, .mostRecent, .duration]).crash)
        XCTAssertNil(s.statistics(of: .heartRate, from: a, to: b, options: [.discreteMin, .separateBySource]).crash)
    }

    /// The crash is raised even when reading would fail: the option check happens when the query is built.
    func testOptionCrashBeatsAuthorizationError() {
        let s = store()
        let (a, b) = (date(at("2026-01-10", 0)), date(at("2026-01-11", 0)))
        XCTAssertNotNil(s.statistics(of: .stepCount, from: a, to: b, options: .discreteMin).crash)
    }
}
