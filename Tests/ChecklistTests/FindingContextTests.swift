@testable import Checklist
import Manifest
import XCTest

/// Each finding carries the lines around its quoted one, so a reviewer sees it in its place.
final class FindingContextTests: XCTestCase {
    func testASwiftFindingCarriesTwoLinesEachSide() throws {
        let example = try XCTUnwrap(CachedAuthorizationRule.description.triggering.first)
        let finding = try XCTUnwrap(Checklist(rules: [CachedAuthorizationRule()]).audit(example.load()).findings.first)
        XCTAssertEqual(finding.quote.trimmingCharacters(in: .whitespaces), "try? await healthStore.save(workout)")
        XCTAssertEqual(finding.context, QuoteContext(before: ["    func save(_ workout: HKWorkout) async {",
                                                              "        guard HKHealthStore.isHealthDataAvailable() else { return }"],
                                                     after: ["    }", "}"], indent: "        "))
    }

    func testAMissingKeyHasNoContextAndAPresentOneHas() throws {
        let missing = try XCTUnwrap(UsageStringMissingRule.description.triggering.first)
        let finding = try XCTUnwrap(Checklist(rules: [UsageStringMissingRule()]).audit(missing.load()).findings.first)
        XCTAssertTrue(finding.quote.hasPrefix("missing: "))
        XCTAssertNil(finding.context, "the plist's <dict> line says nothing about a missing key")
        let vague = try XCTUnwrap(UsageStringVagueRule.description.triggering.first)
        let present = try XCTUnwrap(Checklist(rules: [UsageStringVagueRule()]).audit(vague.load()).findings.first)
        XCTAssertEqual(present.context?.before.count, 2, "\(present)")
    }
}
