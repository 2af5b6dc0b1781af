import Foundation
import Manifest
import XCTest
import TestSupport

/// `build --results` and `--history`, end to end through the CLI: the site assembled from the JSON
/// of several `check` runs (as a CI matrix of repositories would upload them) against the site
/// built from the sources, bad and hostile results, and the trend after two runs.
final class ResultsBuildTests: XCTestCase {
    var fixture: TestSite!

    override func setUpWithError() throws { fixture = try TestSite(prefix: "healthaudit-results") }
    override func tearDown() { fixture.remove() }

    @discardableResult
    private func run(_ arguments: [String], epoch: Int? = nil, expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> HealthAuditBinary.Run {
        let result = try HealthAuditBinary.run(arguments, in: fixture.root, environment: epoch.map { ["SOURCE_DATE_EPOCH": String($0)] } ?? [:])
        XCTAssertEqual(result.status, status, result.stdout + result.stderr, file: file, line: line)
        return result
    }

    /// Two CI jobs: one checks the first two apps of the config, the other the rest.
    private static func checkResults(in root: String) throws {
        for (name, apps) in [("1-bikes", ["veloride", "trainer"]), ("2-rest", ["cos", "runner", "steady"])] {
            let arguments = ["check", "--site", "Site"] + apps.flatMap { ["--app", $0] } + ["--no-fail", "--format", "json", "--output", "results/\(name).json"]
            let result = try HealthAuditBinary.run(arguments, in: root)
            guard result.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(arguments): \(result.stderr)"]) }
        }
    }

    /// The two CI jobs' results on the unchanged demo site, checked once by the binary and copied
    /// into each test that starts from them (the check is deterministic: `DeterminismTests`).
    private static let unchangedResults = SharedFixture { () throws -> [String: Data] in
        let site = try TestSite(prefix: "healthaudit-shared-results")
        defer { site.remove() }
        try checkResults(in: site.root)
        return try TestSite.snapshot(of: site.root + "/results")
    }

    /// The two CI jobs run on the fixture as it is now (after the test changed it).
    private func checkResults() throws { try Self.checkResults(in: fixture.root) }

    /// The two CI jobs' results on the unchanged site, in `results/`.
    private func writeResults() throws {
        for (name, data) in try Self.unchangedResults.get() {
            let path = fixture.root + "/results/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path))
        }
    }

    private func snapshot(_ folder: String) throws -> [String: Data] { try fixture.snapshot(fixture.root + "/" + folder) }

    /// A file below the fixture's root.
    private func read(_ path: String) throws -> String { try String(contentsOfFile: fixture.root + "/" + path, encoding: .utf8) }

    func testSiteFromTheResultsOfTwoChecksEqualsTheSiteFromSources() throws {
        try checkResults()
        try run(["build", "--site", "Site", "--output", "from-sources"])
        let built = try run(["build", "--results", "results", "--output", "from-results", "--base-url", "https://example.org/healthaudit/"])
        XCTAssertTrue(built.stderr.contains("load: 5 apps from 2 results in"), built.stderr)
        let sources = try snapshot("from-sources"), results = try snapshot("from-results")
        // Content pages are the site folder's own: a site built from results has none.
        let pages = Set(sources.keys.filter { $0.hasPrefix("pages/") })
        XCTAssertFalse(pages.isEmpty)
        XCTAssertEqual(Set(results.keys), Set(sources.keys).subtracting(pages))
        var compared = 0
        for (path, data) in results where path != "index.html" && path != ".healthaudit-cache.json" {
            XCTAssertEqual(data, sources[path], "\(path) differs from the source build")
            compared += 1
        }
        XCTAssertGreaterThan(compared, 80, "app, summary, day and rule pages")
        let index = String(decoding: results["index.html"]!, as: UTF8.self)
        let sourceIndex = String(decoding: sources["index.html"]!, as: UTF8.self)
        XCTAssertEqual(index, sourceIndex.replacing(/<h2 id="about">About these reports<\/h2>\n<ul class="pages">.*<\/ul>\n/, with: ""))

        // Same results, same bytes; and a second build with nothing changed does nothing.
        try run(["build", "--results", "results", "--output", "again", "--base-url", "https://example.org/healthaudit/"])
        XCTAssertEqual(try snapshot("again").filter { $0.key != ".healthaudit-cache.json" }, results.filter { $0.key != ".healthaudit-cache.json" })
        XCTAssertTrue(try run(["build", "--results", "results", "--output", "again", "--base-url", "https://example.org/healthaudit/"]).stderr.contains("inputs unchanged since the last build"))
    }

    func testABadResultIsAnErrorNamingItAndThePreviousSiteStays() throws {
        try writeResults()
        try run(["build", "--results", "results", "--output", "site"])
        let before = try snapshot("site")
        try fixture.write("../results/3-broken.json", "{\n  \"schemaVersion\": 3,\n  \"apps\": [,]\n}\n")
        let old = try String(contentsOfFile: fixture.root + "/results/1-bikes.json", encoding: .utf8)
        try fixture.write("../results/4-old.json", old.replacingOccurrences(of: "\"schemaVersion\": 3", with: "\"schemaVersion\": 2"))
        try fixture.write("../results/notes.txt", "not a result: ignored")
        let failed = try run(["build", "--results", "results", "--output", "site"], expect: 2)
        XCTAssertTrue(failed.stderr.contains("results/3-broken.json:3:12: error: [load] not valid JSON: unexpected character where a value was expected"), failed.stderr)
        XCTAssertTrue(failed.stderr.contains("results/4-old.json: error: [load] not a healthaudit result: schemaVersion: schemaVersion 2 is not read by this healthaudit"), failed.stderr)
        XCTAssertFalse(failed.stderr.contains("notes.txt"))
        XCTAssertTrue(failed.stderr.contains("build failed: 2 problems; the previous site was left untouched"), failed.stderr)
        XCTAssertEqual(try snapshot("site"), before)

        // The same app in two results: refused, naming both files.
        try FileManager.default.removeItem(atPath: fixture.root + "/results/3-broken.json")
        try FileManager.default.removeItem(atPath: fixture.root + "/results/4-old.json")
        try fixture.write("../results/5-copy.json", old)
        let duplicate = try run(["build", "--results", "results", "--output", "site"], expect: 2)
        XCTAssertTrue(duplicate.stderr.contains("results/5-copy.json: error: [load] app id 'veloride' is also in 1-bikes.json: give each app an id of its own"), duplicate.stderr)
        XCTAssertEqual(try snapshot("site"), before)
    }

    /// Everything in a result is untrusted: an id must stay a folder name, text is escaped
    /// everywhere, and a link template must be an http(s) URL.
    func testHostileResultsAreContainedAndEscaped() throws {
        try writeResults()
        try FileManager.default.removeItem(atPath: fixture.root + "/results/2-rest.json")
        let path = fixture.root + "/results/1-bikes.json"
        let good = try String(contentsOfFile: path, encoding: .utf8)
        try good.replacingOccurrences(of: "\"id\": \"trainer\"", with: "\"id\": \"../../../escaped\"").write(toFile: path, atomically: true, encoding: .utf8)
        let escaping = try run(["build", "--results", "results", "--output", "site"], expect: 2)
        XCTAssertTrue(escaping.stderr.contains("results/1-bikes.json: error: [load] not a healthaudit result: apps[1].id: '../../../escaped' is not an app id"), escaping.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.root + "/escaped"))

        let payload = "<script>alert(1)</script><img src=x onerror=alert(2)>[x](javascript:alert(3))"
        let hostile = good
            .replacingOccurrences(of: "\"name\": \"VeloRide\"", with: "\"name\": \"\(payload.replacingOccurrences(of: "\"", with: "\\\""))\"")
            .replacing(/"message": "(?:[^"\\]|\\.)*"/, with: "\"message\": \"\(payload)\"")
            .replacing(/"quote": "(?:[^"\\]|\\.)*"/, with: "\"quote\": \"\(payload)\"")
            .replacing(/"path": "Site\/apps\/veloride\/VeloRide\/Info.plist"/, with: "\"path\": \"../<b>evil</b>/Info.plist\"")
        try hostile.write(toFile: path, atomically: true, encoding: .utf8)
        try run(["build", "--results", "results", "--output", "site"])
        var pages = 0
        for (file, data) in try snapshot("site") where file.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            XCTAssertFalse(html.contains("<script>alert"), file)
            XCTAssertFalse(html.contains("<img src=x"), file)
            XCTAssertFalse(html.contains("href=\"javascript:"), file)
            XCTAssertFalse(html.contains("<b>evil</b>"), file)
            pages += 1
        }
        XCTAssertTrue(try read("site/apps/veloride/index.html").contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the name is shown, escaped")
        XCTAssertGreaterThan(pages, 50)

        let linked = good.replacingOccurrences(of: "\"urlTemplate\": null", with: "\"urlTemplate\": \"javascript:alert(1)//{path}\"")
        XCTAssertNotEqual(linked, good)
        try linked.write(toFile: path, atomically: true, encoding: .utf8)
        let link = try run(["build", "--results", "results", "--output", "site"], expect: 2)
        XCTAssertTrue(link.stderr.contains("source.urlTemplate: must be an http(s) URL"), link.stderr)
    }

    /// Steady gains a read-status probe (an error), and trainer its update usage string (one error fixed).
    private func introduceOneFindingAndFixAnother() throws {
        try fixture.write("apps/steady/Steady/Health/AgeProbe.swift", """
            import HealthKit

            final class AgeProbe {
                let store = HKHealthStore()

                func age() throws -> Int? {
                    guard HKHealthStore.isHealthDataAvailable() else { return nil }
                    let type = HKObjectType.characteristicType(forIdentifier: .dateOfBirth)!
                    guard store.authorizationStatus(for: type) == .sharingAuthorized else { return nil }
                    return try store.dateOfBirthComponents().year
                }
            }

            """)
        try fixture.edit("healthaudit.yml") { text in
            text.replacingOccurrences(of: "      PRODUCT_NAME: Trainer\n", with: "      PRODUCT_NAME: Trainer\n      INFOPLIST_KEY_NSHealthUpdateUsageDescription: Trainer saves the body weight you log so your other health apps can chart it.\n")
        }
    }

    /// Two runs with a change between them: the history holds both, and the app, its rule and the
    /// index show what was new, fixed and unchanged.
    func testHistoryAfterTwoRunsShowsNewFixedAndUnchangedFindings() throws {
        try writeResults()
        try fixture.write("../history/README.md", "kept by CI\n")
        try run(["build", "--results", "results", "--history", "history", "--output", "site"], epoch: 1_775_044_800)
        try introduceOneFindingAndFixAnother()
        try checkResults()
        let second = try run(["build", "--results", "results", "--history", "history", "--output", "site"], epoch: 1_775_131_200)
        XCTAssertTrue(second.stderr.contains("history: 2 runs recorded in"), second.stderr)

        let records = try LocalFileSystem().files(under: fixture.root + "/history")
        XCTAssertEqual(records, ["1-bikes/20260401T120000Z-nocommit.json", "1-bikes/20260402T120000Z-nocommit.json",
                                 "2-rest/20260401T120000Z-nocommit.json", "2-rest/20260402T120000Z-nocommit.json", "README.md"])
        XCTAssertEqual(try String(contentsOfFile: fixture.root + "/history/README.md", encoding: .utf8), "kept by CI\n")

        let steady = try read("site/apps/steady/index.html")
        XCTAssertTrue(steady.contains("<h2 id=\"history\">History</h2>"))
        XCTAssertTrue(steady.contains("<tr><td>2026-04-02 12:00 UTC</td><td><code>—</code></td><td>1</td><td>1</td><td>0</td><td>0</td></tr>"), steady)
        XCTAssertTrue(steady.contains("<tr><td>2026-04-01 12:00 UTC (first run)</td><td><code>—</code></td><td>0</td><td>0</td><td>0</td><td>0</td></tr>"))
        let trainer = try read("site/apps/trainer/index.html")
        XCTAssertTrue(trainer.firstMatch(of: /<tr><td>2026-04-02 12:00 UTC<\/td><td><code>—<\/code><\/td><td>\d+<\/td><td>0<\/td><td>1<\/td><td>\d+<\/td><\/tr>/) != nil,
                      "one fixed, none new")
        let rule = try read("site/rules/read-status-probed.html")
        XCTAssertTrue(rule.contains("<h2 id=\"history\">History</h2>"), "the rule's trend")
        let index = try read("site/index.html")
        XCTAssertTrue(index.firstMatch(of: /<tr><td>2026-04-02 12:00 UTC<\/td><td>\d+<\/td><td>1<\/td><td>1<\/td><td>\d+<\/td><\/tr>/) != nil, "1 new, 1 fixed across the site")
        XCTAssertTrue(index.contains("<svg"), "a chart beside the table")

        // The same results again add nothing; the site is the same bytes.
        let before = try snapshot("site")
        let third = try run(["build", "--results", "results", "--history", "history", "--output", "site"], epoch: 1_775_217_600)
        XCTAssertTrue(third.stderr.contains("2 unchanged since the last") || third.stderr.contains("inputs unchanged since the last build"), third.stderr)
        XCTAssertEqual(try LocalFileSystem().files(under: fixture.root + "/history").count, 5)
        XCTAssertEqual(try snapshot("site").filter { $0.key != ".healthaudit-cache.json" }, before.filter { $0.key != ".healthaudit-cache.json" })
    }

    /// The history never writes through a symlink planted for an origin, and two different runs
    /// at one time stamp are refused before anything is written.
    func testHistoryRefusesSymlinksAndRepeatedTimeStamps() throws {
        try writeResults()
        let outside = fixture.root + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: fixture.root + "/history", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fixture.root + "/history/1-bikes", withDestinationPath: outside)
        // Found while planning, before the site is written; there was no site before, and the message says so.
        let planted = try run(["build", "--results", "results", "--history", "history", "--output", "site"], epoch: 1_775_044_800, expect: 2)
        XCTAssertTrue(planted.stderr.contains("history/1-bikes: error: [history] the origin's folder is a symbolic link or a file"), planted.stderr)
        XCTAssertTrue(planted.stderr.hasSuffix("build failed: 1 problem; no site was written\n"), planted.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.root + "/site"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [], "nothing lands outside the history")
        try FileManager.default.removeItem(atPath: fixture.root + "/history/1-bikes")

        try run(["build", "--results", "results", "--history", "history", "--output", "site"], epoch: 1_775_044_800)
        try run(["check", "--site", "Site", "--app", "steady", "--no-fail", "--format", "json", "--output", "results/2-rest.json"])
        let repeated = try run(["build", "--results", "results", "--history", "history", "--output", "site"], epoch: 1_775_044_800, expect: 2)
        XCTAssertTrue(repeated.stderr.contains("give each run its own time (SOURCE_DATE_EPOCH)"), repeated.stderr)
    }

    /// A result filtered by a baseline is not the project's whole audit: refused, naming the file,
    /// before anything is read further.
    func testABaselinedResultIsRefused() throws {
        try run(["check", "--site", "Site", "--app", "trainer", "--no-fail", "--write-baseline", "base.json", "--format", "json", "--output", "ignored.json"])
        try run(["check", "--site", "Site", "--app", "trainer", "--no-fail", "--baseline", "base.json", "--format", "json", "--output", "results/trainer.json"])
        XCTAssertTrue(try read("results/trainer.json").contains("\"baselined\""))
        let refused = try run(["build", "--results", "results", "--output", "site"], expect: 2)
        XCTAssertTrue(refused.stderr.contains("trainer.json") && refused.stderr.contains("--baseline"), refused.stderr)
    }

    /// Issue 33, item 7, as the fleet's job sees it: a number past `Int` in a simulation (it
    /// trapped, exit 132) and two days of one date (exit 70) are input errors naming the file and
    /// the field, exit 2, and the previous site stays.
    func testHostileNumbersAndDatesExitTwoNamingFileAndField() throws {
        try writeResults()
        try run(["build", "--results", "results", "--output", "site"])
        let before = try snapshot("site")
        let bikes = try read("results/1-bikes.json")
        let held = try XCTUnwrap(bikes.firstRange(of: /"stepsHeld": [0-9.]+/))
        try fixture.write("../results/1-bikes.json", bikes.replacingCharacters(in: held, with: "\"stepsHeld\": 1e300"))
        let rest = try read("results/2-rest.json")
        let days = rest.matches(of: /"day": "(\d{4}-\d{2}-\d{2})"/)
        XCTAssertGreaterThan(days.count, 1)
        try fixture.write("../results/2-rest.json", rest.replacingCharacters(in: days[1].range, with: "\"day\": \"\(days[0].1)\""))
        let failed = try run(["build", "--results", "results", "--output", "site"], expect: 2)
        XCTAssertTrue(failed.stderr.contains("results/1-bikes.json: error: [load] not a healthaudit result: apps[0].simulation.days[0].stepsHeld: 1e+300 is out of range: expected a number from 0 to 1000000000\n"), failed.stderr)
        XCTAssertTrue(failed.stderr.contains("results/2-rest.json: error: [load] not a healthaudit result: apps[0].simulation.days[1].day: \(days[0].1) is also days[0]: each day is listed once\n"), failed.stderr)
        XCTAssertTrue(failed.stderr.hasSuffix("build failed: 2 problems; the previous site was left untouched\n"), failed.stderr)
        XCTAssertEqual(try snapshot("site"), before)
    }

    /// Issue 33, item 15: `acme ios.json` and `acme-ios.json` are one history origin. Refused at
    /// load naming both (it used to swap the site in, then fail saying the site was untouched),
    /// exit 2, nothing written anywhere.
    func testCollidingHistoryOriginsExitTwoBeforeAnythingIsWritten() throws {
        try writeResults()
        try run(["build", "--results", "results", "--output", "site"])
        let before = try snapshot("site")
        try FileManager.default.moveItem(atPath: fixture.root + "/results/1-bikes.json", toPath: fixture.root + "/results/acme ios.json")
        try FileManager.default.moveItem(atPath: fixture.root + "/results/2-rest.json", toPath: fixture.root + "/results/acme-ios.json")
        let failed = try run(["build", "--results", "results", "--history", "history", "--output", "site"], epoch: 1_775_044_800, expect: 2)
        XCTAssertEqual(failed.stderr.split(separator: "\n").suffix(2), [
            "results/acme-ios.json: error: [load] 'acme ios.json' and 'acme-ios.json' would both be kept in the history as 'acme-ios': rename one of them",
            "build failed: 1 problem; the previous site was left untouched",
        ])
        XCTAssertEqual(try snapshot("site"), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.root + "/history"))
    }

    /// A build from sources keeps its history too, under `site`.
    func testBuildFromSourcesKeepsAHistory() throws {
        try run(["build", "--site", "Site", "--history", "history", "--output", "site"], epoch: 1_775_044_800)
        try introduceOneFindingAndFixAnother()
        try run(["build", "--site", "Site", "--history", "history", "--output", "site"], epoch: 1_775_131_200)
        XCTAssertEqual(try LocalFileSystem().files(under: fixture.root + "/history"),
                       ["site/20260401T120000Z-nocommit.json", "site/20260402T120000Z-nocommit.json"])
        XCTAssertTrue(try read("site/apps/steady/index.html").contains("<tr><td>2026-04-02 12:00 UTC</td><td><code>—</code></td><td>1</td><td>1</td><td>0</td><td>0</td></tr>"))
        let refused = try run(["build", "--site", "Site", "--history", "site/history", "--output", "site"], expect: 2)
        XCTAssertTrue(refused.stderr.contains("refusing to write the site here: the output folder contains the history folder"), refused.stderr)
    }
}
