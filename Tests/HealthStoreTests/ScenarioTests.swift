import Foundation
import XCTest
@testable import HealthStore

final class ScenarioTests: XCTestCase {
    private func replay(_ kind: BuiltInScenario, app: AppContext = exampleApp) -> ScenarioTimeline {
        Scenario.builtIn(kind).replay(data: sharedMonth, app: app)
    }

    /// Seed 000: a query before any request fails "not determined", and the cascade follows.
    func testFirstLaunchNeverAsking() {
        let t = replay(.firstLaunchNeverAsking)
        XCTAssertEqual(t.events[1].status, "true")
        XCTAssertEqual(t.events[2].status, "notDetermined")
        let query = t.events[3]
        XCTAssertEqual(query.error?.code, 5)
        XCTAssertEqual(query.error?.description, "Authorization not determined")
        XCTAssertEqual(query.action, "HKSampleQuery(stepCount, today, limit: 1)")
        // Every later read fails the same way (HRV, sleep, workouts, …).
        let reads = t.events.filter { if case .query = $0.step { return true }; return false }
        XCTAssertEqual(reads.count, Scenario.defaultReadTypes.count)
        XCTAssertTrue(reads.allSatisfy { $0.error?.code == 5 })
        XCTAssertEqual(t.events.last?.status, "shouldRequest")
        XCTAssertFalse(t.crashed)
    }

    func testPartialGrant() {
        let t = replay(.partialGrant)
        let request = t.events[2]
        XCTAssertEqual(request.status, "true")
        XCTAssertEqual(request.sheetShown, true)
        // stepCount (read granted) and heartRate (read denied) both read sharingDenied.
        XCTAssertEqual(t.events[3].status, "sharingDenied")
        XCTAssertEqual(t.events[4].status, "sharingDenied")
        let queries = t.events.filter { if case .query = $0.step { return true }; return false }
        XCTAssertTrue(queries.allSatisfy { $0.error == nil })
        XCTAssertGreaterThan(queries[0].samplesSeen ?? 0, 0, "stepCount granted")
        XCTAssertEqual(queries[1].samplesSeen, 0, "heartRate denied looks like no data")
        let save = t.events.first { if case .save = $0.step { return true }; return false }!
        XCTAssertEqual(save.error?.code, 4)
        XCTAssertEqual(t.events[t.events.count - 2].status, "unnecessary")
        XCTAssertEqual(t.events.last?.sheetShown, false)
        XCTAssertEqual(t.events.last?.status, "true")
    }

    func testDeniedThenGrantedInSettings() {
        let t = replay(.deniedThenGrantedInSettings)
        XCTAssertEqual(t.events[2].samplesSeen, 0)
        XCTAssertNil(t.events[2].error)
        XCTAssertEqual(t.events[3].status, "sharingDenied")
        XCTAssertEqual(t.events[4].error?.code, 4)
        XCTAssertTrue(t.events[5].outcome.contains("changes"))
        XCTAssertEqual(t.events[7].status, "unnecessary")
        XCTAssertGreaterThan(t.events[8].samplesSeen ?? 0, 0)
        XCTAssertEqual(t.events[9].status, "sharingAuthorized")
        XCTAssertEqual(t.events[10].status, "saved")
    }

    /// Chosen (unconfirmed): a widget's request shows no sheet and leaves types not determined.
    func testWidgetAsking() {
        let t = replay(.widgetAsking)
        XCTAssertEqual(t.events[1].status, "shouldRequest")
        XCTAssertEqual(t.events[2].status, "true")
        XCTAssertEqual(t.events[2].sheetShown, false)
        XCTAssertEqual(t.events[3].error?.code, 5)
        XCTAssertEqual(t.events[5].sheetShown, true, "the app itself can ask")
        XCTAssertEqual(t.events[7].status, "unnecessary")
        XCTAssertNil(t.events[8].error)
        XCTAssertGreaterThan(t.events[8].samplesSeen ?? 0, 0)
    }

    func testLockedDevice() {
        let t = replay(.lockedDevice)
        XCTAssertEqual(t.events[3].error?.code, 6)
        XCTAssertEqual(t.events[3].error?.description, "Protected health data is inaccessible")
        XCTAssertNil(t.events[5].error)
    }

    func testCrashSkipsStepsUntilRelaunch() {
        var app = exampleApp
        app.shareUsageDescription = "Health data"
        let scenario = Scenario(id: "crash", title: "Crash", steps: [
            .launch(.app),
            .requestAuthorization(share: [], read: [.stepCount], answers: [:]),
            .query(.samples(.stepCount, window: .today, limit: 0)),
            .launch(.app),
            .query(.samples(.stepCount, window: .today, limit: 0)),
        ])
        let t = scenario.replay(data: sharedMonth, app: app)
        XCTAssertEqual(t.events[1].crash?.reason,
                       "The string \"Health data\" is an invalid value for NSHealthShareUsageDescription")
        XCTAssertTrue(t.events[2].skipped)
        XCTAssertFalse(t.events[3].skipped)
        XCTAssertEqual(t.events[4].error?.code, 5, "the crash happened before any sheet")
        XCTAssertTrue(t.crashed)
    }

    func testStatisticsStepsAndSaveConversion() {
        let scenario = Scenario(id: "stats", title: "Stats", steps: [
            .requestAuthorization(share: [.bodyMass], read: [.stepCount, .heartRate, .bodyMass, .biologicalSex,
                                                            .dateOfBirth],
                                  answers: [.stepCount: .grantedBoth, .heartRate: .grantedBoth, .bodyMass: .grantedBoth,
                                            .biologicalSex: .grantedBoth, .dateOfBirth: .grantedBoth]),
            .query(.dailyStatistics(.stepCount, window: .lastDays(7), options: .cumulativeSum)),
            .query(.statistics(.heartRate, window: .today, options: .cumulativeSum)),
            .launch(.app),
            .save(.bodyMass, value: 154, unit: .pound),
            .query(.statistics(.bodyMass, window: .today, options: .mostRecent)),
            .query(.biologicalSex),
            .query(.dateOfBirth),
            .save(.bodyMass, value: 1, unit: .meter),
        ])
        let store = SimulatedHealthStore(data: sharedMonth, app: exampleApp)
        let t = scenario.replay(on: store)
        XCTAssertEqual(t.events[1].samplesSeen, 7)
        XCTAssertGreaterThan(t.events[1].value ?? 0, 0)
        XCTAssertEqual(t.events[2].crash?.reason.contains("HKStatisticsOptionCumulativeSum"), true)
        XCTAssertEqual(t.events[4].status, "saved")
        XCTAssertEqual(t.events[5].value ?? 0, 69.853, accuracy: 1e-3)
        XCTAssertEqual(t.events[6].status, "female")
        XCTAssertEqual(t.events[7].status, "1988-02-29")
        XCTAssertEqual(t.events[8].error?.code, 3)
        XCTAssertEqual(store.grants[.bodyMass], .grantedBoth)
    }

    func testAllBuiltInsReplayWithoutCrashForAWellFormedApp() {
        XCTAssertEqual(Scenario.allBuiltIn.map(\.id), BuiltInScenario.allCases.map(\.rawValue))
        for scenario in Scenario.allBuiltIn {
            let t = scenario.replay(data: sharedMonth, app: exampleApp)
            XCTAssertEqual(t.events.count, scenario.steps.count)
            XCTAssertFalse(t.crashed, scenario.id)
            XCTAssertTrue(t.events.allSatisfy { !$0.outcome.isEmpty && !$0.action.isEmpty })
        }
        // Tailored to an app's own types.
        let custom = Scenario.builtIn(.partialGrant, read: [.bodyMass, .dateOfBirth], share: [.bodyMass])
        let t = custom.replay(data: sharedMonth, app: exampleApp)
        XCTAssertFalse(t.crashed)
    }
}
