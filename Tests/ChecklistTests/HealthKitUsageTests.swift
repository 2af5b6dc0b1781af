import Checklist
import Manifest
import XCTest

/// Answers cite HealthKit facts only, extracted once per target; an app that declares HealthKit but
/// whose calls are not visible is "cannot tell", never "not applicable".
final class HealthKitUsageTests: XCTestCase {
    func audit(_ files: [String: String], entitlement: Bool = true) throws -> AppAudit {
        var example = RuleExample.healthApp(files)
        if !entitlement {
            example = RuleExample(files: files.merging(["Info.plist": RuleExample.plist(["CFBundleName": "Notes"])]) { $1 }, read: [], share: [])
        }
        return Checklist().audit(try example.load())
    }

    func answer(_ audit: AppAudit, _ question: ReviewQuestion) throws -> Answer {
        try XCTUnwrap(audit.answers.first { $0.question == question })
    }

    func testOtherFrameworksCallsAreNeverHealthKitEvidence() throws {
        let audit = try audit(["Sources/Other.swift": """
        import EventKit
        import UserNotifications
        import HealthKit

        final class Other {
            let events = EKEventStore()
            let health = HKHealthStore()

            func setUp(database: Database) {
                UNUserNotificationCenter.current().requestAuthorization(options: [.alert]) { _, _ in }
                _ = EKEventStore.authorizationStatus(for: .event)
                database.save(Note())
                guard HKHealthStore.isHealthDataAvailable() else { return }
                health.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in })
            }
        }
        """])
        let quotes = audit.answers.flatMap(\.evidence).map(\.quote)
        XCTAssertFalse(quotes.contains { $0.contains("UNUserNotificationCenter") || $0.contains("EKEventStore") || $0.contains("database.save") }, "\(quotes)")
        XCTAssertEqual(try answer(audit, .readStatusProbed).status, .no)
        XCTAssertEqual(try answer(audit, .writeStatusRechecked).status, .notApplicable, "a database save is not a HealthKit write")
        XCTAssertEqual(try answer(audit, .completionInterpreted).status, .cannotTell, "HealthKit is read, but no request is visible")
        XCTAssertEqual(try answer(audit, .availabilityChecked).status, .yes)
    }

    func testDeclaredButInvisibleHealthKitIsCannotTellNotNotApplicable() throws {
        let audit = try audit(["Sources/App.swift": """
        import SwiftUI
        import HealthWrapperKit

        struct Root: View { var body: some View { Text(HealthWrapper.shared.summary) } }
        """])
        for question in [ReviewQuestion.availabilityChecked, .completionInterpreted, .readStatusProbed, .writeStatusRechecked] {
            XCTAssertEqual(try answer(audit, question).status, .cannotTell, "\(question)")
        }
    }

    func testNoHealthKitAtAllIsNotApplicable() throws {
        let audit = try audit(["Sources/App.swift": "struct Notes { func save() {} }\n"], entitlement: false)
        for question in [ReviewQuestion.availabilityChecked, .completionInterpreted, .readStatusProbed, .writeStatusRechecked] {
            XCTAssertEqual(try answer(audit, question).status, .notApplicable, "\(question)")
        }
    }

    /// The app checks availability; its widget queries on its own: Q1 is "no", at the widget's line.
    func testAWidgetWithoutItsOwnAvailabilityCheckAnswersQuestionOneNo() throws {
        let rule = try XCTUnwrap(RuleCatalog.rule(id: "availability-not-checked"))
        let example = try XCTUnwrap(rule.description.triggering.last)
        let audit = Checklist().audit(try example.load())
        let q1 = try answer(audit, .availabilityChecked)
        XCTAssertEqual(q1.status, .no)
        let finding = try XCTUnwrap(audit.activeFindings.first { $0.ruleID == "availability-not-checked" })
        XCTAssertEqual(finding.target, "widget")
        XCTAssertTrue(finding.location.file.hasSuffix("Widget/Sources/Provider.swift"), finding.location.file)
        XCTAssertEqual(finding.location.line, 7, "the widget's first query")
    }
}
