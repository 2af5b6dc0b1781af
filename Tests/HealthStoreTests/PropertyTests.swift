import Foundation
import XCTest
@testable import HealthStore

/// Seeded random permission sets and data, checked against brute-force computations on an integer time grid.
final class PropertyTests: XCTestCase {
    private let sources: [SampleSource] = [.manualEntry, .watch, .phone, .scaleApp, .sleepApp, exampleApp.source]

    /// Random samples with integer times in [-200, 2200): a quarter instantaneous, touching and overlapping freely.
    private func randomData(_ rng: inout SplitMix64) -> HealthDataSet {
        var samples: [Sample] = []
        for type in [HealthTypeID.stepCount, .heartRate] {
            for source in sources where rng.chance(0.8) {
                for _ in 0..<rng.int(0...25) {
                    let s = Double(rng.int(-200...2199))
                    let d = rng.chance(0.25) ? 0 : Double(rng.int(1...150))
                    samples.append(Sample(type: type, startTime: s, endTime: s + d, value: Double(rng.int(1...100)),
                                          source: source))
                }
            }
        }
        // Shuffle the source registration order too.
        var shuffled = samples
        for i in stride(from: shuffled.count - 1, to: 0, by: -1) { shuffled.swapAt(i, rng.int(0...i)) }
        return HealthDataSet(timeZone: utc, samples: shuffled)
    }

    private func randomGrants(_ rng: inout SplitMix64) -> [HealthTypeID: PermissionGrant] {
        let answers: [PermissionAnswer?] = [nil, .granted, .denied]
        var grants: [HealthTypeID: PermissionGrant] = [:]
        for t in HealthTypeID.allCases {
            let g = PermissionGrant(read: answers[rng.int(0...2)], share: t.isShareable ? answers[rng.int(0...2)] : nil)
            if g.wasAsked { grants[t] = g }
        }
        return grants
    }

    /// Visible samples of `type`, best source first (brute force; independent of the store's columns).
    private func visible(_ data: HealthDataSet, _ type: HealthTypeID, _ access: PermissionAnswer) -> [[Sample]] {
        let all = data.allSamples(of: type).filter { access == .granted || $0.source == exampleApp.source }
        let bySource = Dictionary(grouping: all, by: \.source)
        return bySource.keys.sorted { data.rank(of: $0) < data.rank(of: $1) }.map { bySource[$0]! }
    }

    private func isIn(_ s: Sample, _ a: Double, _ b: Double) -> Bool {
        s.startTime < b && (s.endTime > a || (s.startTime == s.endTime && s.startTime >= a))
    }

    /// Per-second sweep: a second belongs to the best source with a sample covering it.
    private func bruteSum(_ ranked: [[Sample]], _ a: Double, _ b: Double) -> Double? {
        var total = 0.0
        var any = false
        for (p, samples) in ranked.enumerated() {
            let better = ranked[..<p].joined().filter { $0.endTime > $0.startTime }
            for s in samples where isIn(s, a, b) {
                any = true
                if s.startTime == s.endTime {
                    if !better.contains(where: { $0.startTime <= s.startTime && s.startTime < $0.endTime }) { total += s.value }
                    continue
                }
                var free = 0
                var x = max(s.startTime, a)
                while x < min(s.endTime, b) {
                    if !better.contains(where: { $0.startTime <= x && x < $0.endTime }) { free += 1 }
                    x += 1
                }
                total += s.value * Double(free) / s.duration
            }
        }
        return any ? total : nil
    }

    /// Keep-or-drop: a sample is dropped when it collides with any better source's sample in the interval.
    private func bruteKept(_ ranked: [[Sample]], _ a: Double, _ b: Double) -> [Double] {
        var kept: [Double] = []
        for (p, samples) in ranked.enumerated() {
            let better = ranked[..<p].joined().filter { isIn($0, a, b) }
            for s in samples where isIn(s, a, b) {
                let dropped = better.contains { o in
                    if s.duration == 0 || o.duration == 0 {
                        return s.startTime <= o.endTime && o.startTime <= s.endTime
                    }
                    return s.startTime < o.endTime && o.startTime < s.endTime
                }
                if !dropped { kept.append(s.value) }
            }
        }
        return kept
    }

    func testRandomPermissionsAndData() {
        var rng = SplitMix64(seed: 7)
        for trial in 0..<120 {
            let data = randomData(&rng)
            let grants = randomGrants(&rng)
            let s = store(data, grants: grants)
            for _ in 0..<6 {
                let a = Double(rng.int(-300...2100)), b = a + Double(rng.int(1...900))
                for type in [HealthTypeID.stepCount, .heartRate] {
                    let raw = s.samples(of: type, from: date(a), to: date(b))
                    let opts: StatisticsOptions = type == .stepCount
                        ? .cumulativeSum : [.discreteAverage, .discreteMin, .discreteMax]
                    let stats = s.statistics(of: type, from: date(a), to: date(b), options: opts)
                    guard let access = grants[type]?.read else {
                        XCTAssertEqual(raw.failureValue?.code, 5, "trial \(trial)")
                        XCTAssertEqual(stats.error?.code, 5, "trial \(trial)")
                        continue
                    }
                    let ranked = visible(data, type, access)
                    let expectedRaw = ranked.joined().filter { isIn($0, a, b) }
                    let got = raw.successValue!
                    // Read denied ⇒ only the app's own samples; granted ⇒ everything overlapping.
                    XCTAssertEqual(got.count, expectedRaw.count, "trial \(trial)")
                    if access == .denied { XCTAssertTrue(got.allSatisfy { $0.source == exampleApp.source }) }
                    XCTAssertEqual(got.map(\.startTime), got.map(\.startTime).sorted(), "ascending by start")
                    let v = stats.value!.values
                    if type == .stepCount {
                        let expected = bruteSum(ranked, a, b)
                        XCTAssertEqual(v.sum == nil, expected == nil, "trial \(trial)")
                        if let e = expected, let g = v.sum { XCTAssertEqual(g, e, accuracy: 1e-6, "trial \(trial)") }
                        // De-duplicated sums never exceed the raw (prorated) sum, let alone the plain raw sum.
                        let prorated = expectedRaw.reduce(0.0) { t, x in
                            x.duration == 0 ? t + x.value
                                : t + x.value * (min(x.endTime, b) - max(x.startTime, a)) / x.duration
                        }
                        XCTAssertLessThanOrEqual(v.sum ?? 0, prorated + 1e-9)
                        XCTAssertLessThanOrEqual(v.sum ?? 0, got.reduce(0) { $0 + $1.value } + 1e-9)
                    } else {
                        let kept = bruteKept(ranked, a, b)
                        XCTAssertEqual(v.minimum, kept.min(), "trial \(trial)")
                        XCTAssertEqual(v.maximum, kept.max(), "trial \(trial)")
                        if kept.isEmpty { XCTAssertNil(v.average) } else {
                            XCTAssertEqual(v.average!, kept.reduce(0, +) / Double(kept.count), accuracy: 1e-9)
                        }
                    }
                }
            }
        }
    }

    func testShareStatusNeverLeaksReadStatus() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<300 {
            var grants = randomGrants(&rng)
            let type = HealthTypeID.allCases[rng.int(0...(HealthTypeID.allCases.count - 1))]
            let share = grants[type]?.share
            grants[type] = PermissionGrant(read: .granted, share: share)
            let statusGranted = store(grants: grants).authorizationStatus(for: type)
            grants[type] = PermissionGrant(read: .denied, share: share)
            let statusDenied = store(grants: grants).authorizationStatus(for: type)
            XCTAssertEqual(statusGranted, statusDenied)
            let expected: AuthorizationStatus = share == .granted ? .sharingAuthorized : .sharingDenied
            XCTAssertEqual(statusGranted, expected)
            // Request status cannot tell either.
            let a = store(grants: grants).statusForAuthorizationRequest(toShare: [], read: [type]).successValue
            grants[type] = PermissionGrant(read: .granted, share: share)
            let b = store(grants: grants).statusForAuthorizationRequest(toShare: [], read: [type]).successValue
            XCTAssertEqual(a, .unnecessary)
            XCTAssertEqual(a, b)
        }
    }

    func testReadDeniedMakesEveryRealDataQueryEmpty() {
        let denied = Dictionary(uniqueKeysWithValues: HealthTypeID.allCases.map { ($0, PermissionGrant(read: .denied)) })
        let s = store(sharedMonth, grants: denied)
        let (a, b) = (date(sharedMonth.startTime), date(sharedMonth.endTime))
        for type in HealthTypeID.allCases {
            switch type.kind {
            case .quantity:
                XCTAssertEqual(s.samples(of: type, from: a, to: b).successValue, [], "\(type)")
                let opts: StatisticsOptions = type.aggregationStyle!.isCumulative ? .cumulativeSum : .discreteAverage
                let c = s.dailyStatistics(of: type, from: day("2026-03-01"), through: day("2026-03-31"), options: opts).value!
                XCTAssertEqual(c.buckets.count, 31)
                XCTAssertTrue(c.buckets.allSatisfy { $0.values == StatisticValues() }, "\(type)")
            case .category:
                XCTAssertEqual(s.samples(of: type, from: a, to: b).successValue, [], "\(type)")
            case .workout:
                XCTAssertEqual(s.workouts(from: a, to: b).successValue, [])
            case .characteristic, .correlation:
                break
            }
        }
        XCTAssertEqual(s.biologicalSex().successValue, .notSet)
        XCTAssertEqual(s.dateOfBirth().failureValue?.code, 11)
        // With everything granted the same queries see data.
        let open = store(sharedMonth, grants: allGranted)
        XCTAssertGreaterThan(open.samples(of: .heartRate, from: a, to: b).successValue!.count, 1000)
    }

    func testStatisticsAreAdditiveOverRandomPartitions() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<40 {
            let data = randomData(&rng)
            let s = store(data, grants: allGranted)
            var cuts = (0..<rng.int(1...6)).map { _ in Double(rng.int(-250...2250)) }
            cuts += [-300, 2400]
            cuts = Array(Set(cuts)).sorted()
            let whole = s.statistics(of: .stepCount, from: date(-300), to: date(2400), options: .cumulativeSum)
                .value!.values.sum ?? 0
            var parts = 0.0
            for i in 0..<(cuts.count - 1) {
                parts += s.statistics(of: .stepCount, from: date(cuts[i]), to: date(cuts[i + 1]), options: .cumulativeSum)
                    .value!.values.sum ?? 0
            }
            XCTAssertEqual(parts, whole, accuracy: 1e-6)
        }
    }
}
