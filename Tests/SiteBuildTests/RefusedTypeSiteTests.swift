import Foundation
import Manifest
import SiteBuild
import XCTest
import TestSupport

/// A correlation asked for sharing is caught twice, as a reviewer wants it: by `check`, before the
/// app ever runs, and by the simulated store, whose replay ends in the exception HealthKit raises.
final class RefusedTypeSiteTests: XCTestCase {
    func testBloodPressureToShareIsAnErrorAndTheReplayEndsInHealthKitsException() throws {
        var files = InlineApp.site([("pace", "Pace", nil)])
        files["apps/pace/Pace/Health.swift"] = """
            import HealthKit

            final class Health {
                let store = HKHealthStore()

                func start() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let share: Set = [HKWorkoutType.workoutType(), HKCorrelationType(.bloodPressure)]
                    try await store.requestAuthorization(toShare: share, read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                }
            }

            """
        files["healthaudit.yml"] = files["healthaudit.yml"]!
            .replacingOccurrences(of: "      share: [workout]\n", with: "      share: [workout, bloodPressure]\n    scenarios: [partial-grant]\n")
        let site = try TestSite(files: files)
        defer { site.remove() }

        let state = try site.build()
        let finding = try XCTUnwrap(state.audits.first?.activeFindings.first { $0.ruleID == "request-refused-type" })
        XCTAssertEqual(finding.severity, .error)
        XCTAssertEqual(finding.location.file, "apps/pace/Pace/Health.swift")
        XCTAssertEqual(finding.location.line, 8)
        XCTAssertTrue(finding.quote.contains("HKCorrelationType(.bloodPressure)"), finding.quote)
        let page = try site.read("apps/pace/index.html")
        XCTAssertTrue(page.contains("Authorization to share the following types is disallowed: HKCorrelationTypeIdentifierBloodPressure"),
                      "the replay ends in HealthKit's exception")
    }
}
