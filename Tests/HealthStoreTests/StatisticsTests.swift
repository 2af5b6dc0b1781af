import Foundation
import XCTest
@testable import HealthStore

final class StatisticsTests: XCTestCase {
    private let t0 = at("2026-01-10", 9)

    private func sum(_ s: SimulatedHealthStore, _ a: Double, _ b: Double, _ type: HealthTypeID = .stepCount) -> Double? {
        s.statistics(of: type, from: date(a), to: date(b), options: .cumulativeSum).value?.values.sum
    }

    func testWatchBeatsPhoneWhereBothHaveData() {
        // Same 10 minutes from both devices: the watch wins, nothing is added twice.
        let s = store(tinyData(samples: [steps(t0, t0 + 600, 1000, .watch), steps(t0, t0 + 600, 900, .phone)]),
                      grants: allGranted)
        XCTAssertEqual(sum(s, t0 - 3600, t0 + 3600), 1000)
    }

    func testLowerSourceCountsWhereHigherHasNoData() {
        // Watch covers the first half of the phone's sample: the phone's second half (prorated) still counts.
        let s = store(tinyData(samples: [steps(t0, t0 + 300, 400, .watch), steps(t0, t0 + 600, 800, .phone),
                                         steps(t0 + 3600, t0 + 4200, 700, .phone)]), grants: allGranted)
        XCTAssertEqual(sum(s, t0 - 3600, t0 + 7200)!, 400 + 400 + 700, accuracy: 1e-9)
    }

    func testManualEntryBeatsDevicesAndThirdPartyComesLast() {
        let s = store(tinyData(samples: [
            steps(t0, t0 + 600, 100, .manualEntry), steps(t0, t0 + 600, 1000, .watch),
            steps(t0, t0 + 600, 900, .phone), steps(t0, t0 + 600, 5000, .scaleApp),
            steps(t0 + 600, t0 + 1200, 50, .scaleApp),
        ]), grants: allGranted)
        XCTAssertEqual(sum(s, t0, t0 + 1200)!, 150, accuracy: 1e-9)
        let bySource = s.statistics(of: .stepCount, from: date(t0), to: date(t0 + 1200),
                                    options: [.cumulativeSum, .separateBySource]).value!
        XCTAssertEqual(bySource.bySource?[.watch]?.sum, 1000)
        XCTAssertEqual(bySource.bySource?[.phone]?.sum, 900)
        XCTAssertEqual(bySource.bySource?[.scaleApp]?.sum, 5050)
        XCTAssertEqual(bySource.sources?.count, 4)
        XCTAssertNil(s.statistics(of: .stepCount, from: date(t0), to: date(t0 + 1200), options: .cumulativeSum)
            .value?.bySource, "sources is nil without separateBySource")
    }

    /// Newer third-party sources rank above older ones (spec §4.3).
    func testNewerThirdPartySourceRanksHigher() {
        var d = tinyData(samples: [steps(t0, t0 + 600, 300, .scaleApp)])
        d.add(steps(t0, t0 + 600, 200, .sleepApp))
        XCTAssertEqual(sum(store(d, grants: allGranted), t0, t0 + 600), 200)
    }

    func testProrationAcrossBoundaries() {
        // A 2-hour sample across midnight splits by time (chosen; unconfirmed in the spec).
        let mid = at("2026-01-11", 0)
        let s = store(tinyData(samples: [steps(mid - 3600, mid + 3600, 1000, .watch)]), grants: allGranted)
        XCTAssertEqual(sum(s, mid - 86400, mid)!, 500, accuracy: 1e-9)
        XCTAssertEqual(sum(s, mid, mid + 86400)!, 500, accuracy: 1e-9)
    }

    func testEmptyIntervalHasNilValues() {
        let s = store(tinyData(samples: [steps(t0, t0 + 600, 1000, .watch)]), grants: allGranted)
        let stats = s.statistics(of: .stepCount, from: date(t0 + 7200), to: date(t0 + 9000), options: .cumulativeSum)
        XCTAssertNotNil(stats.value)
        XCTAssertNil(stats.value?.values.sum)
        XCTAssertNil(stats.value?.sumQuantity())
    }

    func testOnlyRequestedValuesAreFilled() {
        let s = store(tinyData(samples: [heartRate(t0, 60, .watch), heartRate(t0 + 60, 80, .watch)]), grants: allGranted)
        let v = s.statistics(of: .heartRate, from: date(t0), to: date(t0 + 3600), options: .discreteAverage).value!.values
        XCTAssertEqual(v.average, 70)
        XCTAssertNil(v.minimum)
        XCTAssertNil(v.maximum)
        XCTAssertNil(v.mostRecent)
    }

    func testDiscreteStatistics() {
        let s = store(tinyData(samples: [
            heartRate(t0, 60, .watch), heartRate(t0, 99, .phone), // same instant: the watch's reading wins
            heartRate(t0 + 60, 80, .watch), heartRate(t0 + 120, 70, .phone), // the phone alone at t0+120: kept
        ]), grants: allGranted)
        let v = s.statistics(of: .heartRate, from: date(t0), to: date(t0 + 3600),
                             options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]).value!.values
        XCTAssertEqual(v.average!, 70, accuracy: 1e-9)
        XCTAssertEqual(v.minimum, 60)
        XCTAssertEqual(v.maximum, 80)
        XCTAssertEqual(v.mostRecent, 70)
        XCTAssertEqual(v.mostRecentStart, t0 + 120)
        XCTAssertEqual(s.statistics(of: .heartRate, from: date(t0), to: date(t0 + 1), options: .discreteAverage)
            .value?.averageQuantity(), HealthQuantity(60, .countPerMinute))
    }

    func testDurationAndMostRecentOnCumulative() {
        let s = store(tinyData(samples: [steps(t0, t0 + 600, 100, .watch), steps(t0 + 300, t0 + 900, 60, .phone)]),
                      grants: allGranted)
        let v = s.statistics(of: .stepCount, from: date(t0), to: date(t0 + 3600),
                             options: [.cumulativeSum, .mostRecent, .duration]).value!.values
        XCTAssertEqual(v.sum!, 130, accuracy: 1e-9)
        XCTAssertEqual(v.duration!, 900, accuracy: 1e-9)
        XCTAssertEqual(v.mostRecent, 60)
    }

    // MARK: Collections and day boundaries

    func testDailyBucketsFollowLondonSpringForward() {
        let d = HealthDataSet(timeZone: london)
        let s = store(d, grants: allGranted)
        let c = s.dailyStatistics(of: .stepCount, from: day("2026-03-28"), through: day("2026-03-30"),
                                  options: .cumulativeSum).value!
        XCTAssertEqual(c.buckets.map { $0.endTime - $0.startTime }, [86400, 82800, 86400])
        XCTAssertEqual(c.buckets.first?.startTime, at("2026-03-28", 0, tz: london))
        XCTAssertTrue(c.buckets.allSatisfy { $0.values.sum == nil }, "empty buckets are still returned")
    }

    func testDailyBucketsFollowLondonFallBack() {
        let s = store(HealthDataSet(timeZone: london), grants: allGranted)
        let c = s.dailyStatistics(of: .stepCount, from: day("2026-10-24"), through: day("2026-10-26"),
                                  options: .cumulativeSum).value!
        XCTAssertEqual(c.buckets.map { $0.endTime - $0.startTime }, [86400, 90000, 86400])
    }

    func testDailySumsCountEveryMinuteOfShortAndLongDays() {
        // One step per minute from Friday to Monday across both DST changes.
        for (first, last, expected) in [("2026-03-27", "2026-03-30", [1440.0, 1440, 1380, 1440]),
                                        ("2026-10-23", "2026-10-26", [1440.0, 1440, 1500, 1440])] {
            let a = at(first, 0, tz: london), b = day(last).next.start(in: london).timeIntervalSinceReferenceDate
            let samples = stride(from: a, to: b, by: 60).map { steps($0, $0 + 60, 1, .watch) }
            let s = store(HealthDataSet(timeZone: london, samples: samples), grants: allGranted)
            let c = s.dailyStatistics(of: .stepCount, from: day(first), through: day(last), options: .cumulativeSum).value!
            XCTAssertEqual(c.buckets.map { $0.values.sum ?? -1 }, expected)
        }
    }

    func testAnchorTimeOfDayTilesBothWays() {
        let s = store(HealthDataSet(timeZone: london), grants: allGranted)
        // Anchor on a later day at 03:34: only its time of day matters.
        let anchor = date(at("2026-04-10", 3, 34, tz: london))
        let c = s.statisticsCollection(of: .stepCount, from: date(at("2026-03-28", 12, tz: london)),
                                       to: date(at("2026-03-30", 12, tz: london)), anchor: anchor, options: .cumulativeSum)
            .value!
        XCTAssertEqual(c.buckets.map(\.startTime), [at("2026-03-28", 3, 34, tz: london), at("2026-03-29", 3, 34, tz: london),
                                                   at("2026-03-30", 3, 34, tz: london)])
        XCTAssertEqual(c.buckets.last?.endTime, at("2026-03-31", 3, 34, tz: london))
        XCTAssertEqual(c.buckets[0].endTime - c.buckets[0].startTime, 82800, "the bucket containing the change is 23 h")
        XCTAssertNotNil(c.statistics(for: date(at("2026-03-29", 12, tz: london))))
    }

    func testHourlyBuckets() {
        let s = store(tinyData(samples: [steps(t0, t0 + 7200, 120, .watch)]), grants: allGranted)
        let c = s.statisticsCollection(of: .stepCount, from: date(t0), to: date(t0 + 7200), anchor: date(at("2026-01-01", 0)),
                                       interval: .hour, options: .cumulativeSum).value!
        XCTAssertEqual(c.buckets.count, 2)
        XCTAssertEqual(c.buckets.map { $0.values.sum! }, [60, 60])
    }

    func testCollectionEqualsSingleStatisticsPerDay() {
        let s = store(sharedMonth, grants: allGranted)
        let c = s.dailyStatistics(of: .stepCount, from: day("2026-03-01"), through: day("2026-03-31"),
                                  options: .cumulativeSum).value!
        XCTAssertEqual(c.buckets.count, 31)
        for (i, bucket) in c.buckets.enumerated() {
            let (a, b) = s.interval(of: day("2026-03-01").adding(days: i))
            XCTAssertEqual(bucket.startTime, a.timeIntervalSinceReferenceDate)
            XCTAssertEqual(bucket.endTime, b.timeIntervalSinceReferenceDate)
            let single = s.statistics(of: .stepCount, from: a, to: b, options: .cumulativeSum).value!.values.sum
            XCTAssertEqual(bucket.values.sum, single)
        }
        // Daily sums add up to the month's total (the merge is additive over a partition).
        let month = s.statistics(of: .stepCount, from: s.interval(of: day("2026-03-01")).start,
                                 to: s.interval(of: day("2026-03-31")).end, options: .cumulativeSum).value!.values.sum!
        XCTAssertEqual(c.buckets.reduce(0) { $0 + ($1.values.sum ?? 0) }, month, accuracy: 1e-6)
    }
}
