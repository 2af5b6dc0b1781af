import Foundation
import XCTest
@testable import HealthStore

final class QueryTests: XCTestCase {
    private let t0 = at("2026-01-10", 9)

    private func data() -> HealthDataSet {
        tinyData(samples: [
            steps(t0, t0 + 600, 1000, .watch),
            steps(t0 + 60, t0 + 660, 900, .phone),
            steps(t0 + 3600, t0 + 4200, 500, .phone),
            steps(t0 + 7200, t0 + 7800, 40, exampleApp.source),
        ])
    }

    func testRawSamplesAreNotDeduplicated() {
        let s = store(data(), grants: allGranted)
        let all = s.samples(of: .stepCount, from: date(t0 - 3600), to: date(t0 + 86400)).successValue!
        XCTAssertEqual(all.map(\.value), [1000, 900, 500, 40])
        XCTAssertEqual(all.reduce(0) { $0 + $1.value }, 2440, "summing raw samples double-counts")
    }

    func testLimitAndSort() {
        let s = store(data(), grants: allGranted)
        let latest = s.samples(of: .stepCount, from: date(t0 - 3600), to: date(t0 + 86400), limit: 1, ascending: false)
        XCTAssertEqual(latest.successValue?.map(\.value), [40])
        let first2 = s.samples(of: .stepCount, from: date(t0 - 3600), to: date(t0 + 86400), limit: 2)
        XCTAssertEqual(first2.successValue?.map(\.value), [1000, 900])
        let none = s.samples(of: .stepCount, from: date(t0 + 9000), to: date(t0 + 9999))
        XCTAssertEqual(none.successValue, [])
    }

    /// Chosen predicate (unconfirmed): samples overlapping [from, to), half-open.
    func testOverlapRule() {
        let s = store(data(), grants: allGranted)
        // Ends exactly at `from`: excluded; starts exactly at `to`: excluded; overlaps: included.
        let r = s.samples(of: .stepCount, from: date(t0 + 600), to: date(t0 + 3600)).successValue!
        XCTAssertEqual(r.map(\.value), [900])
        let inst = store(tinyData(samples: [heartRate(t0, 60, .watch)]), grants: allGranted)
        XCTAssertEqual(inst.samples(of: .heartRate, from: date(t0), to: date(t0 + 1)).successValue?.count, 1)
        XCTAssertEqual(inst.samples(of: .heartRate, from: date(t0 - 1), to: date(t0)).successValue?.count, 0)
    }

    func testReadDeniedSeesOnlyOwnSamples() {
        let s = store(data(), grants: [.stepCount: .init(read: .denied, share: .granted)])
        let r = s.samples(of: .stepCount, from: date(t0 - 3600), to: date(t0 + 86400))
        XCTAssertEqual(r.successValue?.map(\.value), [40])
        XCTAssertEqual(r.successValue?.first?.source, exampleApp.source)
        let stats = s.statistics(of: .stepCount, from: date(t0 - 3600), to: date(t0 + 86400), options: .cumulativeSum)
        XCTAssertEqual(stats.value?.values.sum, 40)
    }

    func testSaveThenReadBackWhenReadDenied() {
        let s = store(tinyData(), grants: [.bodyMass: .init(read: .denied, share: .granted)])
        let sample = Sample(type: .bodyMass, startTime: t0, endTime: t0, value: 71.2, source: .watch)
        let saved = s.save(sample).successValue
        XCTAssertEqual(saved?.source, exampleApp.source, "the store stamps the app as source")
        let r = s.samples(of: .bodyMass, from: date(t0 - 10), to: date(t0 + 10)).successValue
        XCTAssertEqual(r?.map(\.value), [71.2])
        XCTAssertEqual(s.authorizationStatus(for: .bodyMass), .sharingAuthorized)
    }

    func testSaveValidation() {
        let s = store(grants: allGranted)
        let backwards = Sample(type: .stepCount, startTime: t0, endTime: t0 - 1, value: 1, source: .watch)
        XCTAssertEqual(s.save(backwards).failureValue?.code, 3)
        let characteristic = Sample(type: .dateOfBirth, startTime: t0, endTime: t0, value: 1, source: .watch)
        XCTAssertEqual(s.save(characteristic).failureValue?.code, 3)
        let w = Workout(activityType: .running, startTime: t0, endTime: t0 + 1800, totalEnergyBurned: 300,
                        totalDistance: 5000, source: .watch)
        XCTAssertEqual(s.save(w).successValue?.source, exampleApp.source)
        XCTAssertEqual(s.workouts(from: date(t0), to: date(t0 + 10)).successValue?.count, 1)
    }

    /// Saving while locked fails with 6 (chosen).
    func testSaveWhileLocked() {
        var app = exampleApp
        app.device.locked = true
        let s = store(app: app, grants: allGranted)
        XCTAssertEqual(s.save(heartRate(t0, 60, .watch)).failureValue?.code, 6)
    }

    func testWorkoutsRespectReadDenial() {
        let mine = Workout(activityType: .yoga, startTime: t0, endTime: t0 + 600, totalEnergyBurned: 30,
                           totalDistance: nil, source: exampleApp.source)
        let theirs = Workout(activityType: .cycling, startTime: t0 + 3600, endTime: t0 + 7200, totalEnergyBurned: 500,
                             totalDistance: 30000, source: .watch)
        let d = tinyData(workouts: [theirs, mine])
        XCTAssertEqual(store(d, grants: allGranted).workouts(from: date(t0 - 1), to: date(t0 + 9999)).successValue?
            .map(\.activityType), [.yoga, .cycling])
        XCTAssertEqual(store(d, grants: [.workout: .init(read: .denied)]).workouts(from: date(t0 - 1), to: date(t0 + 9999))
            .successValue?.map(\.activityType), [.yoga])
    }

    func testCharacteristics() {
        let granted = store(grants: allGranted)
        XCTAssertEqual(granted.dateOfBirth().successValue, DateComponents(year: 1988, month: 2, day: 29))
        XCTAssertEqual(granted.biologicalSex().successValue, .female)
        // Denied: notSet without error; date of birth fails with errorNoData (chosen; spec §3 leaves it open).
        let denied = store(grants: [.dateOfBirth: .init(read: .denied), .biologicalSex: .init(read: .denied)])
        XCTAssertEqual(denied.biologicalSex().successValue, .notSet)
        XCTAssertEqual(denied.dateOfBirth().failureValue?.code, 11)
        // Not set in Health: the same answers as denied.
        var data = tinyData()
        data.dateOfBirth = nil
        data.biologicalSex = .notSet
        let unset = store(data, grants: allGranted)
        XCTAssertEqual(unset.biologicalSex().successValue, .notSet)
        XCTAssertEqual(unset.dateOfBirth().failureValue?.code, 11)
    }

    func testTypesAndIdentifiers() {
        XCTAssertEqual(HealthTypeID.stepCount.hkIdentifier, "HKQuantityTypeIdentifierStepCount")
        XCTAssertEqual(HealthTypeID.heartRateVariabilitySDNN.hkIdentifier, "HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
        XCTAssertEqual(HealthTypeID.vo2Max.hkIdentifier, "HKQuantityTypeIdentifierVO2Max")
        XCTAssertEqual(HealthTypeID.sleepAnalysis.hkIdentifier, "HKCategoryTypeIdentifierSleepAnalysis")
        XCTAssertEqual(HealthTypeID.mindfulSession.hkIdentifier, "HKCategoryTypeIdentifierMindfulSession")
        XCTAssertEqual(HealthTypeID.dateOfBirth.hkIdentifier, "HKCharacteristicTypeIdentifierDateOfBirth")
        XCTAssertEqual(HealthTypeID.workout.hkIdentifier, "HKWorkoutTypeIdentifier")
        for t in HealthTypeID.allCases {
            XCTAssertEqual(HealthTypeID(hkIdentifier: t.hkIdentifier), t)
            XCTAssertEqual(t.aggregationStyle != nil, t.kind == .quantity)
            XCTAssertEqual(t.canonicalUnit != nil, t.kind == .quantity)
            XCTAssertFalse(t.displayName.isEmpty)
        }
        XCTAssertEqual(HealthTypeID.stepCount.aggregationStyle, .cumulative)
        XCTAssertEqual(HealthTypeID.heartRate.aggregationStyle, .discreteArithmetic)
        XCTAssertEqual(SleepStage.allCases.map(\.rawValue), [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(SleepStage.allAsleepValues, [.asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM])
        XCTAssertEqual(BiologicalSex(name: "Female"), .female)
    }

    func testUnits() {
        XCTAssertEqual(HealthUnit.kilogram.convert(1, to: .pound)!, 2.2046226, accuracy: 1e-6)
        XCTAssertEqual(HealthUnit.mile.convert(1, to: .kilometer)!, 1.609344, accuracy: 1e-12)
        XCTAssertEqual(HealthUnit.kilocalorie.convert(1, to: .kilojoule)!, 4.184, accuracy: 1e-12)
        XCTAssertEqual(HealthUnit.smallCalorie.convert(1000, to: .kilocalorie)!, 1, accuracy: 1e-12)
        XCTAssertEqual(HealthUnit.millisecond.convert(1500, to: .second)!, 1.5, accuracy: 1e-12)
        XCTAssertEqual(HealthUnit.meter.convert(1500, to: .kilometer)!, 1.5, accuracy: 1e-12)
        XCTAssertNil(HealthUnit.kilogram.convert(1, to: .meter))
        XCTAssertEqual(HealthUnit(symbol: "count/min"), .countPerMinute)
        XCTAssertEqual(HealthUnit(symbol: "Cal"), .kilocalorie)
        XCTAssertEqual(HealthUnit(symbol: "%"), .percent)
        XCTAssertNil(HealthUnit(symbol: "furlong"))
        let q = HealthQuantity(154, .pound)
        XCTAssertEqual(q.doubleValue(for: .kilogram)!, 69.853, accuracy: 1e-3)
        let s = Sample(type: .bodyMass, start: Date(), end: Date(), quantity: q, source: .watch)
        XCTAssertEqual(s?.value ?? 0, 69.853, accuracy: 1e-3)
        XCTAssertNil(Sample(type: .bodyMass, start: Date(), end: Date(), quantity: HealthQuantity(1, .meter), source: .watch))
    }

    func testDayDate() {
        XCTAssertEqual(DayDate("2026-03-29")?.dayNumber, 20541)
        XCTAssertEqual(DayDate(dayNumber: 0), DayDate(year: 1970, month: 1, day: 1))
        XCTAssertNil(DayDate("2026-02-29"))
        XCTAssertNotNil(DayDate("1988-02-29"))
        XCTAssertEqual(DayDate("2026-03-29")?.isoWeekday, 7)
        XCTAssertEqual(DayDate("2026-12-31")?.next, DayDate("2027-01-01"))
        for n in stride(from: -800_000, to: 800_000, by: 997) {
            XCTAssertEqual(DayDate(dayNumber: n).dayNumber, n)
        }
    }
}
