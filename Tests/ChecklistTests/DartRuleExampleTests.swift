import Checklist
import Manifest
import XCTest

/// Runs every Dart rule's own examples as Flutter apps (a `pubspec.yaml` beside `lib/`): each
/// triggering example finds at its markers, each non-triggering one finds nothing.
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

    func testExamples() throws {
        for rule in rules {
            let id = rule.description.id
            for (index, example) in rule.description.triggering.enumerated() {
                let manifest = try example.load()
                XCTAssertFalse(manifest.dartSources.isEmpty, "\(id) example \(index): lib/ is read")
                let found = Checklist(rules: [rule.init()]).audit(manifest).findings.filter { $0.ruleID == id }
                XCTAssertEqual(found.map { "\($0.location.file):\($0.location.line ?? 0):\($0.location.column ?? 0)" },
                               example.markers.map { "apps/example/\($0.file):\($0.line):\($0.column)" }, "\(id) triggering example \(index)")
                XCTAssertEqual(found.map(\.severity), found.map { _ in rule.description.severity })
            }
            for (index, example) in rule.description.nonTriggering.enumerated() {
                let found = Checklist(rules: [rule.init()]).audit(try example.load()).findings.filter { $0.ruleID == id }
                XCTAssertEqual(found.map(\.message), [], "\(id) non-triggering example \(index)")
            }
        }
    }
}
