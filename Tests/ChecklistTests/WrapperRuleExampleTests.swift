import Checklist
import Manifest
import XCTest

/// Rules over any HealthKit wrapper carry examples in each language they judge: React Native apps
/// (`js/…`) and Flutter apps (`pubspec.yaml` beside `lib/`); `verifyRule` runs them.
final class WrapperRuleExampleTests: XCTestCase {
    private var rules: [any Rule.Type] { RuleCatalog.wrapperRules }

    func testTheRulesAreInTheCatalogueWithExamplesInBothLanguages() throws {
        XCTAssertEqual(rules.map { $0.description.id }, ["request-result-as-grant", "write-without-request", "type-newer-than-deployment-target"])
        for rule in rules {
            let id = rule.description.id
            for examples in [rule.description.triggering, rule.description.nonTriggering] {
                XCTAssertTrue(examples.contains { $0.isReactNative }, "\(id): a React Native example")
                XCTAssertTrue(examples.contains { $0.files["pubspec.yaml"] != nil }, "\(id): a Flutter example")
            }
            for (index, example) in rule.description.triggering.enumerated() {
                let manifest = try example.load()
                XCTAssertFalse(manifest.javaScriptSources.isEmpty && manifest.dartSources.isEmpty, "\(id) example \(index): its code is read")
                XCTAssertFalse(example.markers.isEmpty, "\(id) example \(index) marks where it finds")
            }
        }
    }
}
