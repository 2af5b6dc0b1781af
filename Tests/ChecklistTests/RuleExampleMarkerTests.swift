import Checklist
import Manifest
import XCTest

/// Where a triggering example marks `↓`, the rule's findings are exactly there: a finding on the
/// wrong line, or a second one, fails (SwiftLint's convention).
final class RuleExampleMarkerTests: XCTestCase {
    func testMarkersAreStrippedAndLocated() {
        let example = RuleExample(files: ["js/a.ts": "let x = 1\n  ↓f(x)\n", "Sources/B.swift": "↓g()"])
        XCTAssertEqual(example.files["js/a.ts"], "let x = 1\n  f(x)\n")
        XCTAssertEqual(example.markers.map(\.description), ["Sources/B.swift:1:1", "js/a.ts:2:3"])
    }

    func testEveryMarkedExampleFindsExactlyAtItsMarkers() throws {
        var marked = 0
        for rule in RuleCatalog.all {
            let id = rule.description.id
            for (index, example) in rule.description.triggering.enumerated() where !example.markers.isEmpty {
                marked += 1
                let audit = Checklist(rules: [rule.init()]).audit(try example.load())
                let found = audit.findings.filter { $0.ruleID == id }.map { "\($0.location.file):\($0.location.line ?? 0):\($0.location.column ?? 0)" }
                let expected = example.markers.map { "apps/example/\($0.file.hasPrefix("js/") ? String($0.file.dropFirst(3)) : $0.file):\($0.line):\($0.column)" }
                XCTAssertEqual(found.sorted(), expected.sorted(), "\(id): triggering example \(index)")
            }
        }
        XCTAssertGreaterThan(marked, 0, "some examples carry markers")
    }
}
