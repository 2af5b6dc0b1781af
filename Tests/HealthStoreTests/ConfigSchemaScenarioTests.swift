import Foundation
import HealthStore
import XCTest

/// The config's JSON Schema (`Site/healthaudit.schema.json`) completes the built-in scenario names
/// of `scenarios:` from a list, which must be the store's.
final class ConfigSchemaScenarioTests: XCTestCase {
    func testTheSchemasBuiltInScenariosAreTheStores() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Site/healthaudit.schema.json"))
        let schema = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let scenario = try XCTUnwrap((schema["definitions"] as? [String: Any])?["scenario"] as? [String: Any])
        let names = try XCTUnwrap(((scenario["oneOf"] as? [Any])?.first as? [String: Any])?["enum"] as? [String])
        XCTAssertEqual(Set(names), Set(BuiltInScenario.allCases.map(\.rawValue)))
    }
}
