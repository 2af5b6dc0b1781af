import Foundation
import Manifest
import Report
@testable import SiteBuild
import XCTest
import TestSupport

final class SiteBuildTests: XCTestCase {
    var fixture: SiteCopy!

    override func setUpWithError() throws { fixture = try SiteCopy() }
    override func tearDown() { fixture.remove() }

    func testBuildsIndexLinkingEveryAppAuditPage() throws {
        try fixture.build()
        let index = try fixture.read("index.html")
        for app in ["veloride", "trainer", "cos", "steady"] {
            XCTAssertTrue(index.contains("href=\"apps/\(app)/index.html\""), "index links \(app)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.output + "/apps/\(app)/index.html"))
        }
        XCTAssertTrue(try fixture.read("apps/steady/index.html").contains("No findings"))
        XCTAssertTrue(try fixture.read("apps/trainer/index.html").contains("usage-string-missing"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.output + "/pages/about.html"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.output + "/style.css"))
    }

    func testEveryInternalLinkIsRelativeAndResolves() throws {
        try fixture.build()
        for (path, data) in try fixture.snapshot() where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            let hrefs = html.matches(of: /(?:href|src)="([^"]*)"/).map { String($0.1) }
            for href in hrefs where !href.hasPrefix("http") && !href.hasPrefix("#") {
                XCTAssertFalse(href.hasPrefix("/"), "\(path) has absolute link \(href)")
                let target = String(href.split(separator: "#").first ?? "")
                let resolved = ((fixture.output + "/" + path) as NSString).deletingLastPathComponent + "/" + target
                XCTAssertTrue(FileManager.default.fileExists(atPath: (resolved as NSString).standardizingPath), "\(path) → \(href) is broken")
            }
        }
    }

    func testFailedBuildLeavesPreviousSiteUntouched() throws {
        try fixture.build()
        let before = try fixture.snapshot()
        try fixture.edit("healthaudit.yml") { $0.replacingOccurrences(of: "units: metric", with: "units: metric\nbogus_key: 1") }
        try fixture.edit("apps/veloride/VeloRide/Info.plist") { String($0.prefix(200)) }
        XCTAssertThrowsError(try fixture.build()) { error in
            let failure = error as! BuildFailed
            XCTAssertEqual(failure.diagnostics.count, 1, "config errors stop the build before manifests are read: \(failure)")
            XCTAssertTrue(failure.description.contains("healthaudit.yml:"), failure.description)
            XCTAssertTrue(failure.description.contains("[load]"), failure.description)
        }
        XCTAssertEqual(try fixture.snapshot(), before)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: fixture.site)
        XCTAssertFalse(siblings.contains { $0.hasPrefix(".public-") }, "no staging folders left: \(siblings)")
    }

    func testAllManifestErrorsAreReportedTogether() throws {
        try fixture.edit("apps/veloride/VeloRide/Info.plist") { String($0.prefix(200)) }
        try fixture.edit("apps/steady/Steady/Info.plist") { $0.replacingOccurrences(of: "</dict>", with: "") }
        XCTAssertThrowsError(try fixture.build()) { error in
            let files = (error as! BuildFailed).diagnostics.map(\.problem.location.file)
            XCTAssertEqual(files, ["apps/veloride/VeloRide/Info.plist", "apps/steady/Steady/Info.plist"])
        }
    }

    func testInterruptedBuildLeftoversAreCleanedAndLastSiteRestored() throws {
        try fixture.build()
        let before = try fixture.snapshot()
        // A build killed between the two renames: staging half-written, old site moved aside.
        try FileManager.default.createDirectory(atPath: fixture.site + "/.public-tmp-dead", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: fixture.output, toPath: fixture.site + "/.public-old-dead")
        SiteWriter(output: fixture.output).removeLeftovers()
        XCTAssertEqual(try fixture.snapshot(), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: fixture.site).filter { $0.hasPrefix(".public-") }, [])
    }

    func testOutputPathsCannotLeaveTheOutputFolder() {
        for path in ["../x.html", "/etc/passwd", "a/../../b", "", "a//b", "./a"] {
            XCTAssertThrowsError(try SiteWriter.validate(path), path)
        }
        XCTAssertNoThrow(try SiteWriter.validate("apps/x/index.html"))
    }

    func testInjectedUsageStringIsShownAsLiteralText() throws {
        let payload = "<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(2)>"
        try fixture.edit("apps/veloride/VeloRide/Info.plist") { plist in
            plist.replacingOccurrences(of: "<key>NSHealthShareUsageDescription</key>", with: "<key>NSHealthShareUsageDescription</key>\n\t<string>\(payload.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;"))</string>\n\t<key>Unused</key>")
        }
        try fixture.build()
        let html = try fixture.read("apps/veloride/index.html")
        XCTAssertFalse(html.contains("<script"), "no script element")
        XCTAssertFalse(html.contains("href=\"javascript:"), "no javascript link")
        XCTAssertFalse(html.contains("<img"), "no image element")
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the payload is shown as text")
        XCTAssertTrue(html.contains("[x](javascript:alert(1))"), "the Markdown link is shown as text")
    }

    func testContentLinksAreRewrittenToPages() throws {
        try fixture.build()
        let methodology = try fixture.read("pages/methodology.html")
        XCTAssertTrue(methodology.contains("href=\"about.html\""), "about.md became about.html")
        XCTAssertFalse(methodology.contains(".md\""))
    }
}
