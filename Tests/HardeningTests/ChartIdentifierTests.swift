import Foundation
import Manifest
import Report
import SiteBuild
import XCTest
import TestSupport

/// Issue 33, case 8: a chart's id was `abs(hash)` of its title, and for the app named
/// ``D^`_OONN[Z[Ia`` the title "Steps per day as D^`_OONN[Z[Ia sees them" hashed to `Int.min`,
/// whose `abs` traps: `build` crashed. Ids are now a prefix of the title's SHA-256.
final class ChartIdentifierTests: XCTestCase {
    static let name = "D^`_OONN[Z[Ia"

    func testTheTitleThatHashedToIntMinDrawsAChart() {
        let title = "Steps per day as \(Self.name) sees them"
        let svg = SVGChart.bars([.init(label: "03-31", value: 1200), .init(label: "04-01", value: nil)], title: title, description: "d", unit: "steps")
        let id = "c" + SHA256.hex(title).prefix(12)
        XCTAssertTrue(svg.contains("aria-labelledby=\"\(id)-t \(id)-d\""), svg)
        XCTAssertTrue(svg.contains("<title id=\"\(id)-t\">Steps per day as D^`_OONN[Z[Ia sees them</title>"), svg)
        XCTAssertNotNil(svg.firstMatch(of: /id="c[0-9a-f]{12}-t"/))
    }

    /// The whole build, with that app: it succeeds and its summary page carries the chart.
    func testASiteWithThatAppBuilds() throws {
        var files = InlineApp.site([("odd", "Odd", nil)])
        files["healthaudit.yml"] = files["healthaudit.yml"]!.replacingOccurrences(of: "    name: Odd\n", with: "    name: \"\(Self.name)\"\n")
        let site = try TestSite(files: files)
        defer { site.remove() }
        try site.build()
        let page = try site.read("apps/odd/summary/index.html")
        let id = "c" + SHA256.hex("Steps per day as \(Self.name) sees them").prefix(12)
        XCTAssertTrue(page.contains("<title id=\"\(id)-t\">Steps per day as D^`_OONN[Z[Ia sees them</title>"), page)
    }

    /// No `abs` on a hash anywhere: `abs(Int.min)` traps.
    func testNoSourceTakesTheAbsoluteValueOfAHash() throws {
        var found: [String] = []
        let sources = Repository.root + "/Sources"
        for file in try LocalFileSystem().files(under: sources) where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            guard text.contains("abs(") || text.contains(".magnitude") else { continue }
            for (number, line) in text.components(separatedBy: "\n").enumerated()
            where (line.contains("abs(") || line.contains(".magnitude")) && line.lowercased().contains("hash") {
                found.append("\(file):\(number + 1): \(line)")
            }
        }
        XCTAssertEqual(found, [])
    }
}
