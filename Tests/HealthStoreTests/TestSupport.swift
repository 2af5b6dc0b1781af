import Foundation
import XCTest
@testable import HealthStore

let utc = TimeZone(identifier: "UTC")!
let london = TimeZone(identifier: "Europe/London")!

/// A well-formed app.
let exampleApp = AppContext.example()

/// A small hand-made data set in UTC around 2026-01-10.
func tinyData(samples: [Sample] = [], workouts: [Workout] = []) -> HealthDataSet {
    HealthDataSet(timeZone: utc,
                  startTime: day("2026-01-10").start(in: utc).timeIntervalSinceReferenceDate,
                  endTime: day("2026-01-11").start(in: utc).timeIntervalSinceReferenceDate,
                  dateOfBirth: DateComponents(year: 1988, month: 2, day: 29), biologicalSex: .female,
                  samples: samples, workouts: workouts)
}

func day(_ s: String) -> DayDate { DayDate(s)! }

/// Seconds since the reference date of `hh:mm` on `dayString` in `tz`.
func at(_ dayString: String, _ hour: Int, _ minute: Int = 0, tz: TimeZone = utc) -> Double {
    var cal = Calendar(identifier: .gregorian)
    cal.timeZone = tz
    let c = DateComponents(year: day(dayString).year, month: day(dayString).month, day: day(dayString).day,
                           hour: hour, minute: minute)
    return cal.date(from: c)!.timeIntervalSinceReferenceDate
}

func date(_ t: Double) -> Date { Date(timeIntervalSinceReferenceDate: t) }

func steps(_ s: Double, _ e: Double, _ v: Double, _ source: SampleSource) -> Sample {
    Sample(type: .stepCount, startTime: s, endTime: e, value: v, source: source)
}

func heartRate(_ t: Double, _ v: Double, _ source: SampleSource) -> Sample {
    Sample(type: .heartRate, startTime: t, endTime: t, value: v, source: source)
}

func store(_ data: HealthDataSet = tinyData(), app: AppContext = exampleApp,
           grants: [HealthTypeID: PermissionGrant] = [:]) -> SimulatedHealthStore {
    SimulatedHealthStore(data: data, app: app, grants: grants)
}

/// Every type readable and writable.
let allGranted: [HealthTypeID: PermissionGrant] = Dictionary(
    uniqueKeysWithValues: HealthTypeID.allCases.map { ($0, $0.isShareable ? .grantedBoth : PermissionGrant(read: .granted)) })

extension Result {
    var failureValue: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
    var successValue: Success? {
        if case .success(let v) = self { return v }
        return nil
    }
}

/// One month of realistic data shared by several tests (generated once).
let sharedMonth: HealthDataSet = HealthDataGenerator(
    seed: 42, from: day("2026-03-01"), through: day("2026-03-31"), timeZone: london,
    dateOfBirth: day("1988-02-29"), biologicalSex: .female).generate()
