import Foundation
import Manifest
@testable import SiteBuild
import XCTest
import TestSupport

/// The cache key is what the build read: an input reached only through the Xcode project (an
/// `.xcconfig`, a source file), a localization, or the day a summary ends on each rebuild.
final class CacheInputsTests: XCTestCase {
    var fixture: TestSite!

    override func setUpWithError() throws { fixture = try TestSite() }
    override func tearDown() { fixture.remove() }

    /// Runner's usage string moves from the target's settings into an `.xcconfig` the project names.
    func useAnXcconfig() throws {
        let project = "apps/runner/Runner.xcodeproj/project.pbxproj"
        try fixture.write("apps/runner/Runner/Base.xcconfig", "INFOPLIST_KEY_NSHealthShareUsageDescription = Runner reads your heart rate during runs\n")
        try fixture.edit(project) { text in
            text.replacingOccurrences(of: "\t\t\t\tINFOPLIST_KEY_NSHealthShareUsageDescription = \"$(PRODUCT_NAME) uses Health data.\";\n", with: "")
                .replacingOccurrences(of: "/* End PBXFileReference section */", with:
                    "\t\t2A0000000000000000000099 /* Base.xcconfig */ = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = Runner/Base.xcconfig; sourceTree = SOURCE_ROOT; };\n/* End PBXFileReference section */")
                .replacingOccurrences(of: "\t\t\tisa = XCBuildConfiguration;\n", with:
                    "\t\t\tisa = XCBuildConfiguration;\n\t\t\tbaseConfigurationReference = 2A0000000000000000000099 /* Base.xcconfig */;\n")
        }
    }

    /// Each edit rebuilds, and the page shows the new text: nothing is served from a stale cache.
    /// Nothing else changes: every output file outside `changes` keeps its bytes.
    func assertRebuilds(after edit: () throws -> Void, page: String, shows text: String, changes: (String) -> Bool,
                        file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try fixture.snapshot()
        try edit()
        let state = try fixture.build()
        XCTAssertFalse(state.upToDate, "the edit must invalidate the cache", file: file, line: line)
        XCTAssertTrue(try fixture.read(page).contains(text), "\(page) shows \(text)", file: file, line: line)
        let after = try fixture.snapshot()
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        XCTAssertFalse(changed.isEmpty, file: file, line: line)
        XCTAssertEqual(changed.filter { !changes($0) }, [], "only the affected pages change", file: file, line: line)
        XCTAssertTrue(try fixture.build().upToDate, "and the next build is up to date again", file: file, line: line)
    }

    /// The pages an app's input can change: its own, and the site-wide pages that list its findings.
    static func appPages(_ id: String) -> (String) -> Bool {
        { $0.hasPrefix("apps/\(id)/") || !$0.hasPrefix("apps/") && !$0.hasPrefix("pages/") }
    }

    func testAnXcconfigEditRebuilds() throws {
        try useAnXcconfig()
        try fixture.build()
        XCTAssertTrue(try fixture.read("apps/runner/index.html").contains("Runner reads your heart rate during runs"))
        try assertRebuilds(after: {
            try fixture.write("apps/runner/Runner/Base.xcconfig", "INFOPLIST_KEY_NSHealthShareUsageDescription = Runner reads your cadence during runs\n")
        }, page: "apps/runner/index.html", shows: "Runner reads your cadence during runs", changes: Self.appPages("runner"))
    }

    func testALocalizationEditRebuilds() throws {
        try fixture.build()
        try assertRebuilds(after: {
            try fixture.edit("apps/veloride/VeloRide/de.lproj/InfoPlist.strings") {
                $0.replacingOccurrences(of: "\"NSHealthShareUsageDescription\" = \"", with: "\"NSHealthShareUsageDescription\" = \"Neu: ")
            }
        }, page: "apps/veloride/index.html", shows: "Neu: ", changes: Self.appPages("veloride"))
    }

    /// `Shared/Formatting.swift` is found only through Runner's project (a `SOURCE_ROOT` reference).
    func testASourceFileReachedOnlyThroughTheProjectRebuilds() throws {
        try fixture.build()
        try assertRebuilds(after: {
            try fixture.edit("apps/runner/Shared/Formatting.swift") {
                $0 + "\nfunc probe(store: HKHealthStore) -> Bool { store.authorizationStatus(for: HKCharacteristicType(.dateOfBirth)) == .sharingAuthorized }\n"
            }
        }, page: "apps/runner/index.html", shows: "Formatting.swift", changes: Self.appPages("runner"))
    }

    /// Same size, same modification time (a restored backup, a same-second save): the page's
    /// content is the key, so the edit still shows. Keyed by size and mtime it was missed.
    func testAContentEditThatKeepsSizeAndModificationTimeRebuilds() throws {
        try fixture.build()
        let page = fixture.site + "/content/about.md"
        var before = stat()
        XCTAssertEqual(stat(page, &before), 0)
        let text = try String(contentsOfFile: page, encoding: .utf8)
        let word = try XCTUnwrap(text.firstMatch(of: /[a-z]{6,}/)).output
        try assertRebuilds(after: {
            try text.replacingOccurrences(of: word, with: String(word.uppercased()), options: [], range: text.range(of: word))
                .write(toFile: page, atomically: false, encoding: .utf8)
            var times = Self.times(before)
            XCTAssertEqual(utimensat(AT_FDCWD, page, &times, 0), 0)
            var after = stat()
            XCTAssertEqual(stat(page, &after), 0)
            XCTAssertEqual(after.st_size, before.st_size)
            XCTAssertEqual(Self.times(after).map { [Int($0.tv_sec), Int($0.tv_nsec)] }, Self.times(before).map { [Int($0.tv_sec), Int($0.tv_nsec)] })
        }, page: "pages/about.html", shows: String(word.uppercased()), changes: { $0 == "pages/about.html" })
    }

    static func times(_ info: stat) -> [timespec] {
        #if os(Linux)
        [info.st_atim, info.st_mtim]
        #else
        [info.st_atimespec, info.st_mtimespec]
        #endif
    }

    /// With no `summaries:` range the week ends today: tomorrow's build is not last week's site.
    func testTheDayIsPartOfTheKeyWhenTheConfigNamesNoRange() throws {
        try fixture.edit("healthaudit.yml") { $0.replacingOccurrences(of: "summaries:\n  from: 2026-03-26\n  to: 2026-04-01\n", with: "") }
        var options = fixture.options
        options.clock = FixedClock(DayDate(year: 2026, month: 4, day: 1))
        try Pipeline.site.run(options)
        XCTAssertTrue(try Pipeline.site.run(options).upToDate, "same day: up to date")
        options.clock = FixedClock(DayDate(year: 2026, month: 4, day: 2))
        let nextDay = try Pipeline.site.run(options)
        XCTAssertFalse(nextDay.upToDate, "the next day rebuilds")
        XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.output + "/apps/steady/summary/2026-04-02.html"), "the new day's summary")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.output + "/apps/steady/summary/2026-03-26.html"), "the dropped day is gone")
    }

    /// A rebuilt binary (same version string) has another fingerprint, so `serve` and `build` rebuild.
    func testTheToolFingerprintFollowsTheBinary() throws {
        let binary = fixture.root + "/tool"
        try Data("one".utf8).write(to: URL(fileURLWithPath: binary))
        let before = ToolFingerprint.of(binary: binary)
        try Data("two, longer".utf8).write(to: URL(fileURLWithPath: binary))
        XCTAssertNotEqual(ToolFingerprint.of(binary: binary), before)
        XCTAssertEqual(BuildOptions(siteDirectory: fixture.site, templatesDirectory: fixture.site).toolFingerprint, ToolFingerprint.current(),
                       "every command's options, serve's included, default to the running binary")
    }
}
