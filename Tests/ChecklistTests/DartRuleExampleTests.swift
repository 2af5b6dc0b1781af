import Checklist
import Manifest
import XCTest

/// Dart rules' examples are Flutter apps (a `pubspec.yaml` beside `lib/`); `verifyRule` runs them.
final class DartRuleExampleTests: XCTestCase {
    private var rules: [any Rule.Type] { RuleCatalog.dartRules }

    func testTheRulesAreInTheCatalogueWithFlutterExamples() {
        XCTAssertEqual(rules.map { $0.description.id }, ["flutter-permissions-unknown", "flutter-write-read-only"])
        let all = RuleCatalog.all.map { $0.description.id }
        for rule in rules {
            XCTAssertTrue(all.contains(rule.description.id))
            XCTAssertGreaterThanOrEqual(rule.description.triggering.count, 2)
            XCTAssertGreaterThanOrEqual(rule.description.nonTriggering.count, 2)
            for example in rule.description.triggering + rule.description.nonTriggering {
                XCTAssertNotNil(example.files["pubspec.yaml"], "\(rule.description.id): a Flutter app")
                XCTAssertTrue(example.files.keys.contains { $0.hasPrefix("lib/") && $0.hasSuffix(".dart") })
            }
        }
    }

    /// Beyond `verifyRule`: `lib/` is read as the app's Dart, and every example carries markers.
    func testExamplesAreReadAsDartAndMarked() throws {
        for rule in rules {
            for (index, example) in rule.description.triggering.enumerated() {
                XCTAssertFalse(try example.load().dartSources.isEmpty, "\(rule.description.id) example \(index): lib/ is read")
                XCTAssertFalse(example.markers.isEmpty, "\(rule.description.id) example \(index) marks where it finds")
            }
        }
    }
}
