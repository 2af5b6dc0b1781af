import Checklist
import Foundation
import TestSupport
import XCTest

/// The config's JSON Schema (`Site/healthaudit.schema.json`) completes rule ids — the keys of
/// `rules:` and `ignore[].rule` — from a list, which must be the catalogue's.
final class ConfigSchemaRuleTests: XCTestCase {
    func testTheSchemasRuleIdsAreTheCatalogues() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Repository.site + "/healthaudit.schema.json"))
        let schema = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let ids = try XCTUnwrap(((schema["definitions"] as? [String: Any])?["ruleId"] as? [String: Any])?["enum"] as? [String])
        let catalogue = Set(RuleCatalog.all.map { $0.description.id })
        XCTAssertEqual(catalogue.subtracting(ids), [], "rules missing from Site/healthaudit.schema.json")
        XCTAssertEqual(Set(ids).subtracting(catalogue), [], "ids in Site/healthaudit.schema.json that are no rule")
    }
}
