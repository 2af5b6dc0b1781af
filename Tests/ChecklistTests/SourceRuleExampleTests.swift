import Checklist
import Manifest
import XCTest

/// What only source rules promise beyond `verifyRule`: two examples of each kind, clean
/// non-triggering code, findings that point at the call.
final class SourceRuleExampleTests: XCTestCase {
    private var sourceRuleIDs: Set<String> { Set(RuleCatalog.sourceRules.map { $0.description.id }) }

    func testEverySourceRuleHasTwoExamplesOfEachKind() {
        XCTAssertFalse(RuleCatalog.sourceRules.isEmpty)
        for rule in RuleCatalog.sourceRules {
            let id = rule.description.id
            XCTAssertGreaterThanOrEqual(rule.description.triggering.count, 2, "\(id) needs at least two triggering examples")
            XCTAssertGreaterThanOrEqual(rule.description.nonTriggering.count, 2, "\(id) needs at least two non-triggering examples")
        }
    }

    /// Non-triggering examples show the right way, so no other source rule may object to them either.
    func testNonTriggeringExamplesAreCleanCode() throws {
        let rules = RuleCatalog.sourceRules.map { $0.init() }
        for rule in RuleCatalog.sourceRules {
            for (index, example) in rule.description.nonTriggering.enumerated() {
                let audit = Checklist(rules: rules).audit(try example.load())
                XCTAssertEqual(audit.findings.map { "\($0.ruleID) at \($0.location): \($0.message)" }, [],
                               "\(rule.description.id): non-triggering example \(index) is not clean")
            }
        }
    }

    func testSourceRulesAreInTheCatalogue() {
        let all = Set(RuleCatalog.all.map { $0.description.id })
        XCTAssertTrue(sourceRuleIDs.isSubset(of: all))
        XCTAssertEqual(sourceRuleIDs, [
            "read-status-probed", "success-read-as-granted", "extension-requests-authorization", "data-before-authorization",
            "availability-not-checked", "authorization-from-error-text", "cached-authorization", "fire-and-forget-authorization",
            "timing-band-aid", "requested-types-differ", "authorization-remembered", "request-refused-type", "route-without-workout",
            "own-samples-as-read-access", "over-broad-read-request", "read-probed-with-motion", "read-probed-with-query",
        ])
    }

    func testFindingPointsAtTheCallAndQuotesItsLine() throws {
        let example = RuleExample.healthApp(["Sources/Probe.swift": """
        import HealthKit

        func age(_ store: HKHealthStore) throws -> DateComponents? {
            let type = HKObjectType.characteristicType(forIdentifier: .dateOfBirth)!
            guard store.authorizationStatus(for: type) == .sharingAuthorized else { return nil }
            return try store.dateOfBirthComponents()
        }
        """])
        let audit = Checklist(rules: [ReadStatusProbedRuleProbe.rule()]).audit(try example.load())
        let finding = try XCTUnwrap(audit.findings.first)
        XCTAssertEqual(finding.location.file, "apps/example/Sources/Probe.swift")
        XCTAssertEqual(finding.location.line, 5)
        XCTAssertEqual(finding.location.column, 11)
        XCTAssertEqual(finding.quote, "guard store.authorizationStatus(for: type) == .sharingAuthorized else { return nil }")
        XCTAssertTrue(finding.message.contains("dateOfBirth"), finding.message)
        XCTAssertEqual(finding.target, "example")
    }

    func testInlineCommentSuppressesASourceFinding() throws {
        let code = """
        import HealthKit

        struct Saver {
            let store: HKHealthStore

            func save(_ workout: HKWorkout) async {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                // healthaudit:disable-next-line cached-authorization -- the caller checks the status right before
                try? await store.save(workout)
            }
        }
        """
        let audit = Checklist(rules: RuleCatalog.sourceRules.map { $0.init() }).audit(try RuleExample.healthApp(["Sources/Saver.swift": code]).load())
        let finding = try XCTUnwrap(audit.findings.first { $0.ruleID == "cached-authorization" })
        XCTAssertEqual(finding.location.line, 9)
        XCTAssertEqual(finding.suppression?.origin, .inline)
        XCTAssertEqual(finding.suppression?.reason, "the caller checks the status right before")
        XCTAssertTrue(audit.activeFindings.isEmpty, audit.activeFindings.map(\.message).joined(separator: "\n"))

        // Without a reason the comment suppresses nothing.
        let unreasoned = code.replacingOccurrences(of: " -- the caller checks the status right before", with: "")
        let again = Checklist(rules: RuleCatalog.sourceRules.map { $0.init() }).audit(try RuleExample.healthApp(["Sources/Saver.swift": unreasoned]).load())
        XCTAssertTrue(again.activeFindings.contains { $0.ruleID == "cached-authorization" })
    }

    func testAnswersUseSourceFindings() throws {
        let rule = try XCTUnwrap(RuleCatalog.rule(id: "success-read-as-granted"))
        let audit = Checklist().audit(try rule.description.triggering[0].load())
        let answer = try XCTUnwrap(audit.answers.first { $0.question == .completionInterpreted })
        XCTAssertEqual(answer.status, .no)
        XCTAssertTrue(answer.ruleIDs.contains("success-read-as-granted"))
        XCTAssertFalse(answer.evidence.isEmpty)
    }

    /// Question 3 keeps the checklist's wording, where "yes" is the anti-pattern: its mark says so.
    func testQuestionThreeIsWordedAsTheChecklistAndMarkedByWhatIsGood() throws {
        let rule = try XCTUnwrap(RuleCatalog.rule(id: "read-status-probed"))
        XCTAssertEqual(ReviewQuestion.readStatusProbed.text, "Is there any attempt to determine read permission status?")
        let probing = Checklist().audit(try rule.description.triggering[0].load())
        let bad = try XCTUnwrap(probing.answers.first { $0.question == .readStatusProbed })
        XCTAssertEqual(bad.status, .yes)
        XCTAssertEqual(bad.mark, .fail)
        XCTAssertEqual(bad.ruleIDs, ["read-status-probed"])
        let clean = Checklist().audit(try RuleExample.healthApp(["Sources/Steps.swift": """
        import HealthKit
        func steps(store: HKHealthStore) {
            store.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in })
        }
        """]).load())
        let good = try XCTUnwrap(clean.answers.first { $0.question == .readStatusProbed })
        XCTAssertEqual(good.status, .no)
        XCTAssertEqual(good.mark, .pass)
        let completion = try XCTUnwrap(probing.answers.first { $0.question == .availabilityChecked })
        XCTAssertNotEqual(completion.mark, .fail, "other questions keep yes = good")
    }

    func testNotificationPermissionIsNotHealthKit() throws {
        let example = RuleExample.healthApp(["Sources/Reminders.swift": """
        import UserNotifications

        func ask() {
            UNUserNotificationCenter.current().requestAuthorization(options: [.alert]) { granted, _ in
                if granted { scheduleReminders() }
            }
            scheduleReminders()
        }
        """])
        let audit = Checklist(rules: RuleCatalog.sourceRules.map { $0.init() }).audit(try example.load())
        XCTAssertEqual(audit.findings.map(\.ruleID), [])
    }
}

/// Looks the rule up by id, so tests do not depend on internal type names.
private enum ReadStatusProbedRuleProbe {
    static func rule() -> any Rule { RuleCatalog.rule(id: "read-status-probed")!.init() }
}
