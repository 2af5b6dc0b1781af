import Checklist
import Foundation
import Manifest
import SiteBuild
import XCTest
import TestSupport

/// Hostile inputs through the whole audit: the build must report them, never crash on them.
final class AuditHardeningTests: XCTestCase {
    var site: TestSite!

    override func setUpWithError() throws { site = try TestSite() }
    override func tearDown() { site.remove() }

    func steady(_ state: BuildState) throws -> AppAudit {
        try XCTUnwrap(state.audits.first { $0.manifest.id == "steady" })
    }

    func testUsageStringThatIsABooleanIsAnInvalidUsageStringFinding() throws {
        try site.edit("apps/steady/Steady/Info.plist") {
            $0.replacingOccurrences(of: "<string>Steady reads your steps, heart rate, sleep, activity, weight, age and sex to show daily trends and estimate your recovery.</string>", with: "<true/>")
        }
        let audit = try steady(try site.audit())
        let finding = try XCTUnwrap(audit.findings.first { $0.ruleID == "usage-string-invalid" })
        XCTAssertEqual(finding.location.file, "apps/steady/Steady/Info.plist")
        let plist = try String(contentsOfFile: site.site + "/apps/steady/Steady/Info.plist", encoding: .utf8).components(separatedBy: "\n")
        let value = try XCTUnwrap(plist.lastIndex { $0.contains("<true/>") })
        XCTAssertTrue(plist[value - 1].contains("<key>NSHealth"), plist[value - 1])
        XCTAssertEqual(finding.location.line, value, "cited at the key (the line above its value)")
        XCTAssertTrue(finding.quote.contains("<true/>"), finding.quote)
    }

    /// Seen in a real app: the generated Info.plist's purpose string is `$(SHARE_TEXT)`, set in the
    /// `.xcconfig` the target is based on. What ships is the setting's text, so no finding; a text
    /// the `.xcconfig` leaves at one character is still the crash it is.
    func testAPurposeStringFromAnXcconfigIsJudgedAsItShips() throws {
        try site.write("apps/fuzz/Fuzz.xcodeproj/project.pbxproj", try Corpus.text("xcode/xcconfig-based.pbxproj"))
        try site.write("apps/fuzz/Fuzz/App.swift", "import HealthKit\nlet store = HKHealthStore()\n")
        try site.edit("healthaudit.yml") { $0 + "\n  - id: fuzz\n    name: Fuzz\n    root: apps/fuzz\n    project: Fuzz.xcodeproj\n" }
        func invalid() throws -> [Finding] {
            let audit = try XCTUnwrap(try site.audit().audits.first { $0.manifest.id == "fuzz" })
            return audit.findings.filter { $0.ruleID == "usage-string-invalid" }
        }
        try site.write("apps/fuzz/Fuzz.xcconfig", "SHARE_TEXT = Fuzz reads your steps to chart them every day.\n")
        XCTAssertEqual(try invalid().map(\.message), [])
        try site.write("apps/fuzz/Fuzz.xcconfig", "SHARE_TEXT = S\n")
        XCTAssertEqual(try invalid().map(\.message), [#"NSHealthShareUsageDescription is a single character ("S"): HealthKit raises NSInvalidArgumentException ("The string S is an invalid value for NSHealthShareUsageDescription")"#])
    }

    func testATenMegabyteUsageStringFailsTheBuildWithTheSizeLimit() throws {
        let path = site.site + "/apps/steady/Steady/Info.plist"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "Steady reads your steps", with: String(repeating: "steps ", count: 10 * 1024 * 1024 / 6))
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try site.audit()) { error in
            let failed = error as? BuildFailed
            XCTAssertEqual(failed?.diagnostics.count, 1)
            XCTAssertEqual(failed?.diagnostics.first?.step, "load")
            XCTAssertEqual(failed?.diagnostics.first?.problem.location.file.hasSuffix("apps/steady/Steady/Info.plist"), true)
            XCTAssertEqual(failed?.diagnostics.first?.problem.message, "file is \(text.utf8.count) bytes, over the 8388608-byte limit")
        }
    }

    func testSwiftThatDoesNotParseStillAuditsAndIsNoted() throws {
        try site.write("apps/steady/Steady/Broken.swift", """
            import HealthKit
            func broken( {
                let store = HKHealthStore(
                store.requestAuthorization(toShare: nil, read: [ { _, _ in }
            class }}} struct <script> 
            """)
        let audit = try steady(try site.audit())
        XCTAssertTrue(audit.notes.contains { $0.contains("Steady/Broken.swift does not parse as Swift") }, "\(audit.notes)")
        try site.build()
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.output + "/apps/steady/index.html"))
    }

    func testSymlinkLoopsInASourceRootDoNotHangTheBuild() throws {
        try FileManager.default.createSymbolicLink(atPath: site.site + "/apps/steady/Steady/Views/loop", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: site.site + "/apps/steady/Steady/self", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: site.site + "/apps/steady/Steady/Secret.swift", withDestinationPath: "/etc/hostname")
        let audit = try steady(try site.audit())
        let files = audit.manifest.main.sources.map(\.path)
        XCTAssertFalse(files.contains { $0.contains("loop") || $0.contains("self") || $0.contains("Secret") }, "\(files)")
        XCTAssertTrue(files.contains { $0.hasSuffix("Steady/Views/RootView.swift") })
    }

    func testContentPageWithHostileMarkdownBuilds() throws {
        try site.write("content/hostile.md", try Corpus.text("markdown/raw-html.md"))
        try site.write("content/links.md", try Corpus.text("markdown/javascript-links.md"))
        try site.write("content/deep.md", "---\ntitle: Deep\n---\n" + String(repeating: "> ", count: 10_000) + "# Deep\n")
        try site.build()
        for page in ["pages/hostile.html", "pages/links.html", "pages/deep.html"] {
            let html = try String(contentsOfFile: site.output + "/" + page, encoding: .utf8)
            XCTAssertFalse(html.contains("alert(1)</script>"), page)
            XCTAssertFalse(html.lowercased().contains("href=\"javascript:"), page)
        }
    }
}
