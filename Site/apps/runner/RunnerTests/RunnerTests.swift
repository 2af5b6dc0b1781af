import XCTest
@testable import Runner

final class RunnerTests: XCTestCase {
    func testEmptyStatsShowNoData() {
        XCTAssertEqual(Formatting.kilometres(RunStats.empty.weekMeters), "No data")
    }
}
