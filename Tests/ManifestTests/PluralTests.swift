import Manifest
import XCTest

final class PluralTests: XCTestCase {
    func testOneIsSingularEverythingElsePlural() {
        XCTAssertEqual(Plural.count(1, "app"), "1 app")
        XCTAssertEqual(Plural.count(0, "error"), "0 errors")
        XCTAssertEqual(Plural.count(2, "Swift file"), "2 Swift files")
        XCTAssertEqual(Plural.count(3, "day", "days"), "3 days")
        XCTAssertEqual(Plural.count(2, "child", "children"), "2 children")
    }
}
