import Foundation
import Manifest
import Report
import XCTest
import TestSupport

final class CheckCommandEvidenceTests: XCTestCase {
    var fixture: TestSite!

    override func setUpWithError() throws { fixture = try TestSite() }
    override func tearDown() { fixture.remove() }

    private func evidence(_ app: String, to output: String) throws -> HealthAuditBinary.Run {
        try HealthAuditBinary.run(["evidence", "--app", app, "--output", output], in: fixture.root)
    }

    func testWritesASelfContainedDeterministicFileWithChecksums() throws {
        let run = try evidence("veloride", to: "evidence/veloride.html")
        XCTAssertEqual(run.status, 0, run.stderr)
        let path = fixture.root + "/evidence/veloride.html"
        let first = try Data(contentsOf: URL(fileURLWithPath: path))
        let html = String(decoding: first, as: UTF8.self)
        XCTAssertFalse(html.contains("<script"))
        XCTAssertNil(html.firstMatch(of: /(src|href)="[^"#]/), "no external requests")
        XCTAssertTrue(html.contains("<style>"))
        XCTAssertTrue(html.contains(ToolInfo.currentVersion))
        XCTAssertTrue(html.contains("VeloRide"))
        XCTAssertNotNil(html.firstMatch(of: /<code>apps\/veloride\/VeloRide\/HealthKit\/HealthKitAuthorization\.swift:\d+:\d+<\/code>/), "findings with their places")

        let config = try Data(contentsOf: URL(fileURLWithPath: fixture.site + "/healthaudit.yml"))
        XCTAssertTrue(html.contains("<code>healthaudit.yml</code></td><td><code class=\"digest\">\(SHA256.hex(config))</code>"))
        let plist = try Data(contentsOf: URL(fileURLWithPath: fixture.site + "/apps/veloride/VeloRide/Info.plist"))
        XCTAssertTrue(html.contains("<code>apps/veloride/VeloRide/Info.plist</code></td><td><code class=\"digest\">\(SHA256.hex(plist))</code>"))
        XCTAssertTrue(html.contains("# HealthAudit — the embedded default project."), "the config's text")
        XCTAssertTrue(html.contains("id: veloride"), "this app's entry")
        XCTAssertFalse(html.contains("id: trainer"), "not the other apps' entries")
        XCTAssertTrue(html.contains("other apps omitted: not part of this evidence"))

        XCTAssertEqual(try evidence("veloride", to: "evidence/veloride.html").status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), first, "same inputs, same bytes")
    }

    func testUnknownAppOrMissingOutputIsAUsageError() throws {
        let unknown = try evidence("nope", to: "x.html")
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("unknown app"), unknown.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.root + "/x.html"))
        XCTAssertEqual(try HealthAuditBinary.run(["evidence", "--app", "steady"], in: fixture.root).status, 2)
    }
}
