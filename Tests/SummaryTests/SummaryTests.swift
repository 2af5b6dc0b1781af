import Checklist
import Foundation
import HealthStore
import Manifest
@testable import Summary
import XCTest

final class AgeTests: XCTestCase {
    func day(_ text: String) -> DayDate { DayDate(text)! }

    func testBirthdayOnTheDayItself() {
        XCTAssertEqual(AgeCalculator.age(born: day("1990-06-15"), on: day("2026-06-15")), 36)
        XCTAssertEqual(AgeCalculator.age(born: day("1990-06-15"), on: day("2026-06-14")), 35)
    }

    func testLeapDayBirthdayIsReachedOnFirstMarchInCommonYears() {
        let born = day("1988-02-29")
        XCTAssertEqual(AgeCalculator.age(born: born, on: day("2026-02-28")), 37)
        XCTAssertEqual(AgeCalculator.age(born: born, on: day("2026-03-01")), 38)
        XCTAssertEqual(AgeCalculator.age(born: born, on: day("2028-02-28")), 39)
        XCTAssertEqual(AgeCalculator.age(born: born, on: day("2028-02-29")), 40)
    }

    func testNewYearsEve() {
        XCTAssertEqual(AgeCalculator.age(born: day("2000-12-31"), on: day("2026-12-30")), 25)
        XCTAssertEqual(AgeCalculator.age(born: day("2000-12-31"), on: day("2026-12-31")), 26)
    }
}

final class IntervalTests: XCTestCase {
    func testOverlappingSleepIsMergedNotDoubleCounted() {
        XCTAssertEqual(Intervals.unionLength([(0, 10), (5, 15), (20, 25), (21, 22)]), 20)
        XCTAssertEqual(Intervals.unionLength([(0, 10), (0, 10)]), 10, "two trackers, one night")
        XCTAssertEqual(Intervals.unionLength([(5, 5), (7, 6)]), 0)
    }

    func testNumbersAreFormattedWithoutLocale() {
        XCTAssertEqual(UnitFormatter.number(12345.6), "12,346")
        XCTAssertEqual(UnitFormatter.number(1234567.891, decimals: 2), "1,234,567.89")
        XCTAssertEqual(UnitFormatter.number(0.05, decimals: 1), "0.1")
        XCTAssertEqual(UnitFormatter(.imperial).distance(1609.344), "1.00 mi")
        XCTAssertEqual(UnitFormatter(.metric).mass(72.34), "72.3 kg")
        XCTAssertEqual(UnitFormatter(.imperial).mass(72.34), "159.5 lb")
        XCTAssertEqual(UnitFormatter.duration(7 * 3600 + 5 * 60), "7 h 05 min")
    }
}

/// Summaries built from the real Site/ config and example apps.
final class ScriptedScenarioTests: XCTestCase {
    /// Seed 001 believes a denial comes back as an error; replayed, the denial is silent.
    func testScriptedDenialIsSilentNotAnError() throws {
        let yaml = """
        title: T
        apps:
          - id: cos
            scenarios:
              - name: The user taps Don't Allow
                steps:
                  - launch
                  - request: {read: [stepCount], answers: {stepCount: {read: denied}}}
                  - query: stepCount
                  - status: stepCount
                  - settings: {stepCount: {read: granted}}
                  - return
                  - query: stepCount
        """
        let config = try ConfigLoader().parse(yaml, file: "healthaudit.yml", siteDirectory: "/site")
        guard case .script(let name, let steps, _) = config.apps[0].scenarios[0] else { return XCTFail("not a script") }
        XCTAssertEqual(name, "The user taps Don't Allow")
        let scenario = Scenario(id: "s", title: name, steps: try steps.map(ScriptStep.convert))
        let data = HealthDataGenerator(seed: 3, from: DayDate(year: 2026, month: 3, day: 1), through: DayDate(year: 2026, month: 3, day: 1)).generate()
        let events = scenario.replay(data: data, app: .example()).events
        XCTAssertEqual(events[1].status, "true", "success whatever the user chose")
        XCTAssertNil(events[2].error, "a read denial is never an error")
        XCTAssertEqual(events[2].samplesSeen, 0)
        XCTAssertEqual(events[3].status, AuthorizationStatus.sharingDenied.name, "read-only request reads sharingDenied")
        XCTAssertGreaterThan(events[6].samplesSeen ?? 0, 0, "granted in Settings: samples appear")
    }

    func testUnknownStepAndUnmodelledTypeNameTheirLines() throws {
        let yaml = "apps:\n  - id: a\n    scenarios:\n      - name: x\n        steps:\n          - dance\n"
        XCTAssertThrowsError(try ConfigLoader().parse(yaml, file: "healthaudit.yml", siteDirectory: "/site")) { error in
            XCTAssertEqual((error as? InputError)?.problems.first?.location.line, 6, "\(error)")
        }
        let step = ScenarioStepConfig(action: "query", argument: "allergyRecord", location: FileLocation(file: "healthaudit.yml", line: 12))
        XCTAssertThrowsError(try ScriptStep.convert(step)) { error in
            XCTAssertEqual((error as? InputError)?.problems.first?.location.line, 12)
        }
    }
}

final class SummaryBuilderTests: XCTestCase {
    static let site = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path + "/Site"

    func audit(_ id: String, permissions: [String: PermissionGrant]? = nil) throws -> (ProjectConfig, AppAudit) {
        let config = try ConfigLoader().load(siteDirectory: Self.site)
        var app = config.apps.first { $0.id == id }!
        if let permissions { app.permissions = permissions }
        return (config, Checklist().audit(try ManifestLoader(siteDirectory: Self.site).load(app)))
    }

    func testDSTDaysHave23And25Hours() throws {
        var (config, audit) = try self.audit("steady")
        config.timeZone = "Europe/London"
        let spring = SummaryBuilder(config: config, range: DayRange(from: DayDate("2026-03-28")!, to: DayDate("2026-03-30")!))
        XCTAssertEqual(try spring.summarize(audit).days.map(\.hours), [24, 23, 24])
        let short = try spring.summarize(audit).days[1]
        XCTAssertEqual(short.stepsByHour.count, 23)
        // Bars and axis follow the local clock: London skips 01:00, and noon comes 11 hours in.
        XCTAssertEqual(Array(short.hourLabels.prefix(4)), ["00", "02", "03", "04"])
        XCTAssertEqual(short.clockTicks.map(\.label), ["00:00", "06:00", "12:00", "18:00", "24:00"])
        XCTAssertEqual(short.clockTicks[2].x, 11.0 / 23, accuracy: 1e-9)
        let autumn = SummaryBuilder(config: config, range: DayRange(from: DayDate("2026-10-25")!, to: DayDate("2026-10-25")!))
        let day = try autumn.summarize(audit).days[0]
        XCTAssertEqual(day.hours, 25)
        XCTAssertEqual(day.stepsByHour.count, 25)
        XCTAssertEqual(Array(day.hourLabels.prefix(4)), ["00", "01", "01′", "02"])
        XCTAssertEqual(day.clockTicks[2].x, 13.0 / 25, accuracy: 1e-9)
        // Lord Howe moves its clocks by half an hour: the 23.5-hour day labels its bars by the clock.
        config.timeZone = "Australia/Lord_Howe"
        let howe = SummaryBuilder(config: config, range: DayRange(from: DayDate("2026-10-04")!, to: DayDate("2026-10-04")!))
        let halfHour = try howe.summarize(audit).days[0]
        XCTAssertEqual(halfHour.hours, 23.5)
        XCTAssertEqual(Array(halfHour.hourLabels.prefix(4)), ["00", "01", "02:30", "03:30"])
        // Havana goes forward at midnight: the day starts at 01:00, and so does its axis.
        config.timeZone = "America/Havana"
        let havana = SummaryBuilder(config: config, range: DayRange(from: DayDate("2026-03-08")!, to: DayDate("2026-03-08")!))
        let midnight = try havana.summarize(audit).days[0]
        XCTAssertEqual(midnight.hourLabels.first, "01")
        XCTAssertEqual(midnight.clockTicks.first?.label, "01:00")
    }

    func testStepTotalsMatchTheStoresDeduplicatedStatistics() throws {
        let (config, audit) = try self.audit("steady")
        let builder = SummaryBuilder(config: config, range: config.summaries!)
        let summary = try builder.summarize(audit)
        let store = SimulatedHealthStore(data: builder.data, app: .example(), grants: [.stepCount: PermissionGrant(read: .granted)])
        for day in summary.days {
            let (start, end) = store.interval(of: day.day)
            let merged = try XCTUnwrap(store.statistics(of: .stepCount, from: start, to: end, options: .cumulativeSum).value?.values.sum)
            let raw = try store.samples(of: .stepCount, from: start, to: end).get().reduce(0) { $0 + $1.value }
            XCTAssertEqual(day.stepsHeld, merged, accuracy: 0.001)
            XCTAssertEqual(try XCTUnwrap(day.stepsSeen), merged, accuracy: 0.001, "steady may read steps")
            XCTAssertLessThan(merged, raw, "phone + watch overlap is counted once, so the raw sum is larger")
            XCTAssertEqual(day.stepsByHour.compactMap { $0 }.reduce(0, +), merged, accuracy: 0.5)
        }
    }

    func testAllReadsDeniedShowsNoValueAndExplainsEach() throws {
        let denied = Dictionary(uniqueKeysWithValues: HealthTypeID.allCases.map { ($0.rawValue, PermissionGrant(read: .denied)) })
        let (config, audit) = try self.audit("steady", permissions: denied)
        let summary = try SummaryBuilder(config: config, range: config.summaries!).summarize(audit)
        for day in summary.days {
            XCTAssertNil(day.stepsSeen)
            XCTAssertNil(day.sleepSeenHours)
            XCTAssertTrue(day.heartRate.isEmpty)
            for metric in day.metrics where metric.held != "no data" {
                XCTAssertTrue(["no data", "not set"].contains(metric.seen), "\(metric.name) leaks \(metric.seen)")
                XCTAssertEqual(metric.visibility, .readNotGranted, metric.name)
                XCTAssertNotNil(metric.visibility.explanation)
            }
        }
    }

    func testNeverAskedTypesFailWithNotDetermined() throws {
        let (config, audit) = try self.audit("steady", permissions: [:])
        let day = try SummaryBuilder(config: config, range: config.summaries!).summarize(audit).days[0]
        let steps = try XCTUnwrap(day.metrics.first { $0.name == "Steps" })
        XCTAssertEqual(steps.seen, "error")
        guard case .neverAsked(let error) = steps.visibility else { return XCTFail("\(steps.visibility)") }
        XCTAssertEqual(error.code, 5)
        XCTAssertTrue(steps.visibility.explanation!.contains("never asked"))
    }

    func testSleepExcludesAwakeAndInBedAndMergesSources() throws {
        let (config, audit) = try self.audit("steady")
        let builder = SummaryBuilder(config: config, range: config.summaries!)
        let store = SimulatedHealthStore(data: builder.data, app: .example(), grants: [.sleepAnalysis: PermissionGrant(read: .granted)])
        for day in try builder.summarize(audit).days {
            let night = SleepNight(day: day.day, store: store, timeZone: builder.timeZone)
            let samples = try store.samples(of: .sleepAnalysis, from: night.window.start, to: night.window.end).get()
            let asleep = samples.filter { $0.sleepStage?.isAsleep == true }
            let inBed = samples.filter { $0.sleepStage == .inBed }
            XCTAssertLessThanOrEqual(night.totalAsleep, Intervals.unionLength(inBed.map { ($0.startTime, $0.endTime) }) + 1, "asleep fits in bed")
            XCTAssertLessThanOrEqual(night.totalAsleep, asleep.reduce(0) { $0 + $1.duration } + 0.001)
            XCTAssertEqual(day.sleepHeldHours * 3600, night.totalAsleep, accuracy: 0.001)
            let stages = night.byStage.values.reduce(0, +)
            XCTAssertLessThanOrEqual(stages, night.totalAsleep + 0.001, "stage breakdown of the main source fits in the merged total")
        }
    }

    func testScenariosComeFromConfigAndUnknownNamesAreErrors() throws {
        var (config, audit) = try self.audit("veloride")
        XCTAssertFalse(try SummaryBuilder(config: config, range: config.summaries!).summarize(audit).timelines.isEmpty)
        audit.manifest.config.scenarios = [.builtIn(Located("no-such-scenario", at: FileLocation(file: "Site/healthaudit.yml", line: 9)))]
        config.summaries = DayRange(from: DayDate("2026-03-26")!, to: DayDate("2026-03-26")!)
        XCTAssertThrowsError(try SummaryBuilder(config: config, range: config.summaries!).summarize(audit)) { error in
            XCTAssertEqual((error as? InputError)?.problems.first?.location.line, 9)
        }
    }
}
