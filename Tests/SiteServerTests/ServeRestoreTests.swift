import Foundation
import SiteBuild
import SiteServer
import XCTest

/// Issue 33, case 19, for `serve`: a build killed between its two renames left no output and the
/// last good site in `.public-old-…`. `serve` writes the output too, so it puts that site back
/// first: with the config now broken, it serves the last good site, as it says.
final class ServeRestoreTests: XCTestCase {
    func testServePutsBackTheSiteAKilledBuildMovedAside() async throws {
        let fixture = try ServerFixture()
        let retired = fixture.site + "/.public-old-dead"
        try FileManager.default.createDirectory(atPath: retired, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: retired + "/" + OutputClaim.markerName))
        try Data("<html><body>last good</body></html>".utf8).write(to: URL(fileURLWithPath: retired + "/index.html"))
        try fixture.edit("Site/healthaudit.yml") { $0.replacingOccurrences(of: "units: metric", with: "units: metric\nbogus_key: 1") }

        let url = try await fixture.server.start()
        let port = try XCTUnwrap(URL(string: url)?.port.flatMap(UInt16.init))
        let page = try await RawHTTP.get(port: port, "/")
        await fixture.stop()

        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains("last good"), page.text)
        XCTAssertTrue(fixture.reports.all.contains { $0.hasSuffix("build failed: 1 problem; still serving the last good site") }, "\(fixture.reports.all)")
    }
}
