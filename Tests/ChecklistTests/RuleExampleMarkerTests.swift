import Checklist
import Manifest
import XCTest

/// `↓` markers are stripped from the example and located as if they were not there; `verifyRule`
/// then requires the rule's findings exactly at them (SwiftLint's convention).
final class RuleExampleMarkerTests: XCTestCase {
    func testMarkersAreStrippedAndLocated() {
        let example = RuleExample(files: ["js/a.ts": "let x = 1\n  ↓f(x)\n", "Sources/B.swift": "↓g()"])
        XCTAssertEqual(example.files["js/a.ts"], "let x = 1\n  f(x)\n")
        XCTAssertEqual(example.markers.map(\.description), ["Sources/B.swift:1:1", "js/a.ts:2:3"])
    }

    func testSomeExamplesOfEveryLanguageCarryMarkers() {
        let marked = RuleCatalog.all.flatMap { $0.description.triggering }.filter { !$0.markers.isEmpty }
        for language in ["swift", "ts", "dart"] {
            XCTAssertTrue(marked.contains { $0.markers.contains { $0.file.hasSuffix("." + language) } }, language)
        }
    }
}
