import Report
import XCTest

/// Findings over time: runs matched as `--baseline` matches them (rule and fingerprint, as a
/// multiset), an app not recorded in a run keeping its last findings in the site's totals.
final class FindingHistoryTests: XCTestCase {
    private func key(_ rule: String, _ fingerprint: String) -> FindingKey { FindingKey(rule: rule, fingerprint: fingerprint) }

    func testChangeMatchesAsAMultiset() {
        let a = key("timing-band-aid", "a1"), b = key("usage-string-vague", "b1"), c = key("read-status-probed", "c1")
        let change = FindingChange(previous: [a, a, b], current: [a, c])
        XCTAssertEqual(change.unchanged, 1, "one of the two identical findings is still there")
        XCTAssertEqual(change.new, [c])
        XCTAssertEqual(change.fixed, [a, b].sorted())
    }

    func testTrendsPerAppPerRuleAndForTheSite() {
        let probe = key("read-status-probed", "p"), vague = key("usage-string-vague", "v"), sleep = key("timing-band-aid", "s")
        let history = FindingHistory(records: [
            HistoryRecord(stamp: "20260401T120000Z", commit: "a", apps: [("pace", [probe, vague])]),
            HistoryRecord(stamp: "20260401T120000Z", commit: "b", apps: [("trace", [sleep])]),
            // Only pace ran again: trace keeps its finding in the totals.
            HistoryRecord(stamp: "20260402T120000Z", commit: "c", apps: [("pace", [probe, sleep])]),
        ])
        let pace = history.apps["pace"]!
        XCTAssertEqual(pace.map(\.total), [2, 2])
        XCTAssertEqual(pace.map(\.new), [2, 1])
        XCTAssertEqual(pace.map(\.fixed), [0, 1])
        XCTAssertEqual(pace.map(\.unchanged), [0, 1])
        XCTAssertEqual(pace.map(\.isFirst), [true, false])
        XCTAssertEqual(pace.map(\.commit), ["a", "c"])
        XCTAssertEqual(history.apps["trace"]!.count, 1)
        XCTAssertEqual(history.site.map(\.total), [3, 3])
        XCTAssertEqual(history.site.map(\.new), [3, 1])
        XCTAssertEqual(history.site.map(\.fixed), [0, 1])
        XCTAssertEqual(history.rules["usage-string-vague"]!.map(\.total), [1, 0], "fixed everywhere: the trend goes on at zero")
        XCTAssertEqual(history.rules["timing-band-aid"]!.map(\.total), [1, 2])
        XCTAssertEqual(history.rules["timing-band-aid"]!.map(\.new), [1, 1])
        XCTAssertEqual(FindingHistory.date("20260402T120000Z"), "2026-04-02 12:00 UTC")

        // Trace's repository left the fleet: the site's trend is pace's alone, past runs included.
        let paceOnly = FindingHistory(records: [
            HistoryRecord(stamp: "20260401T120000Z", commit: "a", apps: [("pace", [probe, vague])]),
            HistoryRecord(stamp: "20260401T120000Z", commit: "b", apps: [("trace", [sleep])]),
            HistoryRecord(stamp: "20260402T120000Z", commit: "c", apps: [("pace", [probe, sleep])]),
        ], showing: ["pace"])
        XCTAssertEqual(paceOnly.site.map(\.total), [2, 2])
        XCTAssertNil(paceOnly.apps["trace"])
    }
}
