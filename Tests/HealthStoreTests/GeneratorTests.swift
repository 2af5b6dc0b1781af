import Foundation
import XCTest
@testable import HealthStore

final class GeneratorTests: XCTestCase {
    private func seriesFingerprint(_ d: HealthDataSet) -> [String: [Double]] {
        var out: [String: [Double]] = [:]
        for (type, list) in d.series {
            for s in list { out["\(type.rawValue)/\(s.source.name)"] = s.starts + s.ends + s.values }
        }
        return out
    }

    func testSameSeedSameData() {
        let config = HealthDataGenerator.Configuration(seed: 99, firstDay: day("2026-03-26"), lastDay: day("2026-04-01"),
                                                       timeZone: london, biologicalSex: .male)
        let a = HealthDataGenerator(config).generate(), b = HealthDataGenerator(config).generate()
        XCTAssertEqual(seriesFingerprint(a), seriesFingerprint(b))
        XCTAssertEqual(a.workouts, b.workouts)
        var other = config
        other.seed = 100
        XCTAssertNotEqual(seriesFingerprint(HealthDataGenerator(other).generate()), seriesFingerprint(a))
    }

    /// A day's data depends only on the seed and the date, not on the range it was generated in.
    func testDaysDoNotDependOnRange() {
        let wide = HealthDataGenerator(seed: 3, from: day("2026-03-20"), through: day("2026-03-31"), timeZone: london)
            .generate()
        let narrow = HealthDataGenerator(seed: 3, from: day("2026-03-28"), through: day("2026-03-29"), timeZone: london)
            .generate()
        // 03-28 and the night ending 03-29 that starts that evening; the next evening's night belongs to 03-30.
        let a = day("2026-03-28").start(in: london).timeIntervalSinceReferenceDate
        let b = day("2026-03-29").start(in: london).timeIntervalSinceReferenceDate
        for type in [HealthTypeID.heartRate, .stepCount, .activeEnergyBurned, .sleepAnalysis] {
            let w = wide.allSamples(of: type).filter { $0.startTime >= a && $0.startTime < b }
            let n = narrow.allSamples(of: type).filter { $0.startTime >= a && $0.startTime < b }
            XCTAssertEqual(w, n, "\(type)")
            XCTAssertFalse(w.isEmpty)
        }
    }

    func testRangeCharacteristicsAndSources() {
        let d = sharedMonth
        XCTAssertEqual(d.startTime, day("2026-03-01").start(in: london).timeIntervalSinceReferenceDate)
        XCTAssertEqual(d.endTime, day("2026-04-01").start(in: london).timeIntervalSinceReferenceDate)
        XCTAssertEqual(d.dateOfBirth, DateComponents(year: 1988, month: 2, day: 29))
        XCTAssertEqual(d.biologicalSex, .female)
        // Correlations are modelled only to be refused; nothing generates them.
        for type in HealthTypeID.allCases where type.isSampleType && type != .workout && type.isAuthorizable {
            XCTAssertGreaterThan(d.sampleCount(of: type), 0, "\(type)")
        }
        XCTAssertEqual(Set(d.seriesList(of: .stepCount).map(\.source)), [.watch, .phone])
        XCTAssertEqual(d.sources.prefix(3), [.watch, .phone, .manualEntry])
        // Columns are sorted by start.
        for list in d.series.values {
            for s in list { XCTAssertEqual(s.starts, s.starts.sorted()) }
        }
        // Values are in canonical units and plausible.
        XCTAssertTrue(d.allSamples(of: .bodyFatPercentage).allSatisfy { $0.value > 0.05 && $0.value < 0.5 })
        XCTAssertTrue(d.allSamples(of: .heartRate).allSatisfy { $0.value >= 38 && $0.value <= 200 })
        XCTAssertTrue(d.allSamples(of: .bodyMass).allSatisfy { $0.value > 40 && $0.value < 120 })
    }

    func testSleepHasAllStagesAndOverlaps() {
        let d = sharedMonth
        let sleep = d.allSamples(of: .sleepAnalysis)
        XCTAssertEqual(Set(sleep.compactMap(\.sleepStage)), Set(SleepStage.allCases))
        // Watch stages never overlap each other and each lies inside the phone's inBed of that night.
        let stages = sleep.filter { $0.source == .watch }
        for (x, y) in zip(stages, stages.dropFirst()) { XCTAssertLessThanOrEqual(x.endTime, y.startTime) }
        let inBed = sleep.filter { $0.source == .phone && $0.sleepStage == .inBed }
        XCTAssertEqual(inBed.count, 31, "one night per day")
        for s in stages {
            XCTAssertTrue(inBed.contains { $0.startTime <= s.startTime && s.endTime <= $0.endTime })
        }
        // Awake only between sleep stages.
        XCTAssertTrue(stages.first?.sleepStage?.isAsleep ?? false)
        // Some nights have a second source overlapping the watch.
        let app = sleep.filter { $0.source == .sleepApp && $0.sleepStage == .asleepUnspecified }
        XCTAssertFalse(app.isEmpty)
        XCTAssertTrue(app.allSatisfy { a in stages.contains { $0.startTime < a.endTime && a.startTime < $0.endTime } })
    }

    func testPhoneAndWatchStepsOverlapAndStatisticsDeduplicate() {
        let s = store(sharedMonth, grants: allGranted)
        let (a, b) = s.interval(of: day("2026-03-10"))
        let raw = s.samples(of: .stepCount, from: a, to: b).successValue!
        let watch = raw.filter { $0.source == .watch }, phone = raw.filter { $0.source == .phone }
        XCTAssertFalse(watch.isEmpty)
        XCTAssertFalse(phone.isEmpty)
        XCTAssertTrue(phone.contains { p in watch.contains { $0.startTime < p.endTime && p.startTime < $0.endTime } })
        let rawSum = raw.reduce(0) { $0 + $1.value }
        let merged = s.statistics(of: .stepCount, from: a, to: b, options: .cumulativeSum).value!.values.sum!
        XCTAssertLessThan(merged, rawSum * 0.8, "raw sums double-count phone and watch")
        XCTAssertGreaterThan(merged, 1500)
    }

    func testHeartRateLowerAsleepDenserInWorkouts() {
        let s = store(sharedMonth, grants: allGranted)
        let d = sharedMonth
        let workout = d.workouts.first { $0.duration >= 1800 }!
        let during = s.samples(of: .heartRate, from: workout.start, to: workout.end).successValue!
        XCTAssertGreaterThan(Double(during.count) / workout.duration * 3600, 60, "about every 35 s in a workout")
        var asleep: [Double] = [], awake: [Double] = []
        for night in d.allSamples(of: .sleepAnalysis) where night.source == .watch && night.sleepStage == .asleepDeep {
            asleep += s.samples(of: .heartRate, from: night.start, to: night.end).successValue!.map(\.value)
        }
        let noon = s.interval(of: day("2026-03-12")).start.addingTimeInterval(11 * 3600)
        awake = s.samples(of: .heartRate, from: noon, to: noon.addingTimeInterval(6 * 3600)).successValue!.map(\.value)
        XCTAssertLessThan(asleep.reduce(0, +) / Double(asleep.count), awake.reduce(0, +) / Double(awake.count))
        let rhr = s.statistics(of: .restingHeartRate, from: date(d.startTime), to: date(d.endTime),
                               options: .discreteAverage).value!.values.average!
        XCTAssertTrue((48...70).contains(rhr))
    }

    func testWorkouts() {
        let d = sharedMonth
        XCTAssertGreaterThan(d.workouts.count, 8)
        for w in d.workouts {
            XCTAssertGreaterThan(w.duration, 15 * 60)
            XCTAssertGreaterThan(w.totalEnergyBurned ?? 0, 0)
            switch w.activityType {
            case .running, .cycling, .walking, .hiking: XCTAssertGreaterThan(w.totalDistance ?? 0, 500)
            default: XCTAssertNil(w.totalDistance)
            }
        }
        if let ride = d.workouts.first(where: { $0.activityType == .cycling }) {
            let s = store(d, grants: allGranted)
            let km = s.statistics(of: .distanceCycling, from: ride.start, to: ride.end, options: .cumulativeSum)
                .value!.values.sum!
            XCTAssertEqual(km, ride.totalDistance!, accuracy: 1)
        }
    }

    func testMinuteResolutionCounts() {
        let d = HealthDataGenerator(seed: 1, from: day("2025-06-01"), through: day("2025-06-07"), timeZone: utc,
                                    resolution: .minute).generate()
        XCTAssertEqual(d.sampleCount(of: .heartRate), 7 * 1440)
        let steps = d.seriesList(of: .stepCount)
        XCTAssertTrue(steps.allSatisfy { s in (0..<s.count).allSatisfy { s.ends[$0] - s.starts[$0] == 60 } })
        // In a DST zone the short day has 1380 minutes.
        let london23 = HealthDataGenerator(seed: 1, from: day("2026-03-29"), through: day("2026-03-29"),
                                           timeZone: london, resolution: .minute).generate()
        XCTAssertEqual(london23.sampleCount(of: .heartRate), 1380)
    }

    /// The benchmark's shape: a year of minute data, daily statistics from sorted columns (no timing asserted).
    func testYearOfMinuteData() throws {
        let d = HealthDataGenerator(seed: 2026, from: day("2025-01-01"), through: day("2025-12-31"), timeZone: utc,
                                    resolution: .minute).generate()
        XCTAssertEqual(d.sampleCount(of: .heartRate), 525_600)
        XCTAssertGreaterThan(d.sampleCount(of: .stepCount), 50_000)
        let s = store(d, grants: allGranted)
        let steps = s.dailyStatistics(of: .stepCount, from: day("2025-01-01"), through: day("2025-12-31"),
                                      options: .cumulativeSum).value!
        XCTAssertEqual(steps.buckets.count, 365)
        let year = s.statistics(of: .stepCount, from: date(d.startTime), to: date(d.endTime), options: .cumulativeSum)
            .value!.values.sum!
        XCTAssertEqual(steps.buckets.reduce(0) { $0 + $1.values.sum! }, year, accuracy: 1e-3)
        let hr = s.dailyStatistics(of: .heartRate, from: day("2025-01-01"), through: day("2025-12-31"),
                                   options: [.discreteMin, .discreteMax, .mostRecent]).value!
        // Read as an app would, through HKStatistics' accessors (count/min, the type's unit).
        for bucket in hr.buckets {
            let low = try XCTUnwrap(bucket.minimumQuantity()), high = try XCTUnwrap(bucket.maximumQuantity())
            let latest = try XCTUnwrap(bucket.mostRecentQuantity())
            XCTAssertLessThan(low.value, high.value)
            XCTAssertTrue((low.value...high.value).contains(latest.value))
            XCTAssertEqual(Set([low.unit, high.unit, latest.unit]), [bucket.unit])
        }
        XCTAssertNil(hr.buckets[0].averageQuantity(), "not asked for")
    }

    func testSplitMix64IsStable() {
        var r = SplitMix64(seed: 0)
        // Reference values of SplitMix64 with seed 0.
        XCTAssertEqual(r.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(r.next(), 0x6E78_9E6A_A1B9_65F4)
        var u = SplitMix64(seed: 1)
        for _ in 0..<1000 {
            let x = u.unit()
            XCTAssertTrue(x >= 0 && x < 1)
        }
    }
}
