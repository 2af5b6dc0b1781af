import Foundation
import Manifest
@testable import Report
@testable import SiteBuild
import TestSupport
import XCTest

/// `build --results` and `--history` on results nobody checked (issue 33): every number and day
/// range-checked at load, colliding history origins refused before anything is written, records
/// that keep only what the trend needs and are bounded per origin, a site that stops at its byte
/// budget while it is rendered, and control and bidi characters escaped on every page. In
/// process, on results written here by the same code as `check --format json`.
final class UntrustedResultsTests: XCTestCase {
    /// The findings site with a scenario and a heart rate the app may read, so every block of the
    /// result has its numbers.
    private static func makeSite() throws -> TestSite {
        let site = try TestSite(files: InlineApp.findingsSite, prefix: "healthaudit-untrusted")
        try site.edit("healthaudit.yml") {
            $0.replacingOccurrences(of: "    name: VeloRide\n", with: "    name: VeloRide\n    scenarios: [partial-grant]\n    permissions:\n      heartRate: {read: granted}\n")
        }
        return site
    }

    /// The site and its audit, made once: the tests only read them (the one that edits the site
    /// makes its own), each writing its results, site and history in a folder of its own.
    private static let audited = SharedFixture { () throws -> (site: TestSite, state: BuildState) in
        let site = try makeSite()
        SharedFixture<Void>.removeAtExit(site.root)
        return (site, try Pipeline.auditAndSimulate.run(site.options))
    }

    private var site: TestSite!
    private var audits: BuildState!
    private var root: String!
    private var results: String { root + "/results" }
    private var output: String { root + "/public" }
    private var history: String { root + "/history" }

    override func setUpWithError() throws {
        (site, audits) = try Self.audited.get()
        root = Repository.temporaryDirectory("healthaudit-untrusted-run")
    }

    override func tearDown() { root.map { try? FileManager.default.removeItem(atPath: $0) } }

    /// The result `check --format json` writes for `apps`, edited by `edit`, as `results/<name>`.
    private func writeResult(_ name: String, apps: [String], edit: (JSONValue) -> JSONValue = { $0 }) throws {
        var context = OutputContext(sitePrefix: "Site", siteDirectory: site.site)
        context.title = "Inline"
        context.source = ResultSource(siteDirectory: site.site, urlTemplate: nil)
        context.summaries = audits.summaries
        let document = JSONReport.document(audits.audits.filter { apps.contains($0.manifest.id) }, context: context)
        try FileManager.default.createDirectory(atPath: results, withIntermediateDirectories: true)
        try Data(edit(document).serialized().utf8).write(to: URL(fileURLWithPath: results + "/" + name))
    }

    private func options(history: Bool = false, budget: Int? = nil, day: Int = 1) -> BuildOptions {
        var options = BuildOptions(siteDirectory: results, outputDirectory: output, clock: FixedClock(DayDate(year: 2026, month: 4, day: day)), log: SilentLog())
        options.resultsDirectory = results
        if history { options.historyDirectory = self.history }
        if let budget { options.outputByteBudget = budget }
        return options
    }

    /// The build's diagnostics as the command line prints them (before the results folder's name).
    private func failure(_ options: BuildOptions, pipeline: Pipeline? = nil) -> BuildFailed? {
        do {
            try (pipeline ?? Pipeline.build(for: options)).run(options)
            XCTFail("the build succeeded")
        } catch let failure as BuildFailed {
            return failure
        } catch {
            XCTFail("not an input error: \(error)")
        }
        return nil
    }

    private func snapshot(_ folder: String) throws -> [String: Data] {
        FileManager.default.fileExists(atPath: folder) ? try site.snapshot(folder) : [:]
    }

    /// Nothing but the output and the given folders beside it: no staging folder was left behind.
    private func assertNoStagingLeft(file: StaticString = #filePath, line: UInt = #line) throws {
        let hidden = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix(".public-") }
        XCTAssertEqual(hidden, [], file: file, line: line)
    }

    // MARK: - Item 7: numbers and days

    /// A number past `Int` made a page trap (exit 132) and two days with one date made two pages
    /// of one name (exit 70): every number and day is checked where it is read, naming the file
    /// and the field, and the previous site stays.
    func testEveryNumberAndDayIsCheckedAtLoadNamingFileAndField() throws {
        try writeResult("good.json", apps: ["veloride", "trainer", "steady"])
        try Pipeline.build(for: options()).run(options())
        let before = try snapshot(output)
        try FileManager.default.removeItem(atPath: results + "/good.json")
        let day = "apps.0.simulation.days."
        let step = "apps.0.simulation.scenarios.0.steps."
        let cases: [(file: String, path: String, value: JSONValue, message: String)] = [
            ("a.json", day + "0.stepsHeld", .number(1e300), "apps[0].simulation.days[0].stepsHeld: 1e+300 is out of range: expected a number from 0 to 1000000000"),
            ("b.json", day + "0.stepsByHour.3", .number(-1), "apps[0].simulation.days[0].stepsByHour[3]: -1 is out of range: expected a number from 0 to 1000000000"),
            ("c.json", day + "1.hours", .number(9.3e18), "apps[0].simulation.days[1].hours: 9.3e+18 is out of range: expected a number from 1 to 48"),
            ("d.json", day + "0.sleep.0.start", .number(2), "apps[0].simulation.days[0].sleep[0].start: 2 is out of range: expected a number from 0 to 1"),
            ("e.json", day + "0.heartRate.0.bpm", .int(Int.max), "apps[0].simulation.days[0].heartRate[0].bpm: 9.223372036854776e+18 is out of range: expected a number from 0 to 1000"),
            ("f.json", day + "2.clockTicks.1.x", .number(-0.5), "apps[0].simulation.days[2].clockTicks[1].x: -0.5 is out of range: expected a number from 0 to 1"),
            ("g.json", day + "0.sleepHeldHours", .number(1e19), "apps[0].simulation.days[0].sleepHeldHours: 1e+19 is out of range: expected a number from 0 to 48"),
            ("h.json", step + "1.index", .int(Int.max), "apps[0].simulation.scenarios[0].steps[1].index: 9223372036854775807 is out of range: expected an integer from 0 to 1000000000"),
            ("hh.json", step + "1.index", .int(7), "apps[0].simulation.scenarios[0].steps[1].index: expected 1: steps are numbered from 0 in order"),
            ("i.json", step + "0.samplesSeen", .number(1e19), "apps[0].simulation.scenarios[0].steps[0].samplesSeen: 1e+19 is out of range: expected an integer from 0 to 1000000000"),
            ("j.json", "apps.0.findings.0.location.line", .int(0), "apps[0].findings[0].location.line: 0 is out of range: expected an integer from 1 to 100000000"),
            ("k.json", "apps.0.findings.0.location.column", .number(1e300), "apps[0].findings[0].location.column: 1e+300 is out of range: expected an integer from 1 to 100000000"),
            ("l.json", "apps.0.declared.targets.0.swiftFiles", .int(-1), "apps[0].declared.targets[0].swiftFiles: -1 is out of range: expected an integer from 0 to 10000000"),
            ("m.json", "apps.0.answers.0.question", .int(Int.min), "apps[0].answers[0].question: -9223372036854775808 is out of range: expected an integer from 1 to 6"),
            ("n.json", day + "0.day", "+202-03-30", "apps[0].simulation.days[0].day: expected a day as YYYY-MM-DD"),
        ]
        for item in cases {
            // The first app whose result has the field (the heart rate is only there when the app may read it).
            let id = try XCTUnwrap(["veloride", "trainer", "steady"].first { id in
                try writeResult(item.file, apps: [id])
                return try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: results + "/" + item.file))).value(at: item.path) != nil
            }, item.path)
            try writeResult(item.file, apps: [id]) { $0.replacing(item.path, with: item.value) }
            let failed = try XCTUnwrap(failure(options()))
            XCTAssertEqual(failed.diagnostics.map(\.description), ["\(item.file): error: [load] not a healthaudit result: \(item.message)"])
            XCTAssertEqual(failed.outcome, "the previous site was left untouched")
            try FileManager.default.removeItem(atPath: results + "/" + item.file)
        }

        // Two days of one date, and days out of order: each day is one page, linked to its neighbours.
        try writeResult("twice.json", apps: ["veloride"]) { result in
            result.replacing(day + "1.day", with: result.value(at: day + "0.day")!)
        }
        try writeResult("order.json", apps: ["trainer"]) { result in
            result.replacing(day + "2.day", with: "2026-03-29")
        }
        let failed = try XCTUnwrap(failure(options()))
        XCTAssertEqual(failed.diagnostics.map(\.description), [
            "order.json: error: [load] not a healthaudit result: apps[0].simulation.days[2].day: 2026-03-29 comes after 2026-03-31: the days are listed in order",
            "twice.json: error: [load] not a healthaudit result: apps[0].simulation.days[1].day: 2026-03-30 is also days[0]: each day is listed once",
        ])
        XCTAssertEqual(try snapshot(output), before, "the previous site stays")
        try assertNoStagingLeft()
    }

    /// The result is decoded as one typed format (`ResultFormat`, issue 36): a member of the
    /// wrong type, a missing one or a value outside its enumeration is refused at load, naming
    /// the file and the member's place in it, and the previous site stays.
    func testEveryMemberIsDecodedByItsTypeNamingFileAndField() throws {
        try writeResult("good.json", apps: ["veloride"])
        try Pipeline.build(for: options()).run(options())
        let before = try snapshot(output)
        try FileManager.default.removeItem(atPath: results + "/good.json")
        let cases: [(path: String, value: JSONValue?, message: String)] = [
            ("apps.0.findings.0.location.line", "7", "apps[0].findings[0].location.line: expected an integer, found a string"),
            ("apps.0.declared.targets.0.swiftFiles", .null, "apps[0].declared.targets[0].swiftFiles: expected an integer, found null"),
            ("apps.0.findings.0.severity", "fatal", "apps[0].findings[0].severity: 'fatal' is not one of note, warning, error"),
            ("apps.0.answers.0.status", .int(3), "apps[0].answers[0].status: expected a string, found a number"),
            ("apps.0.simulation.days.0.sleep", .object([]), "apps[0].simulation.days[0].sleep: expected an array, found an object"),
            ("apps.0.simulation.scenarios.0.steps.0.skipped", "no", "apps[0].simulation.scenarios[0].steps[0].skipped: expected true or false, found a string"),
            ("apps.0.declared.usageStrings.0.origin", "a rumour",
             "apps[0].declared.usageStrings[0].origin: 'a rumour' is not a usage string's origin (Info.plist, build setting, Expo config, translation, absent)"),
            ("apps.0.dependencies", .array([.object([("package", "p")])]), "apps[0].dependencies[0].ecosystem: missing"),
            ("apps.0.name", nil, "apps[0].name: missing"),
            ("title", nil, "title: missing"),
        ]
        for item in cases {
            try writeResult("bad.json", apps: ["veloride"]) { $0.replacing(item.path, with: item.value) }
            let failed = try XCTUnwrap(failure(options()))
            XCTAssertEqual(failed.diagnostics.map(\.description), ["bad.json: error: [load] not a healthaudit result: \(item.message)"], item.path)
            XCTAssertEqual(try snapshot(output), before, "the previous site stays")
        }
        try assertNoStagingLeft()
    }

    // MARK: - Item 13: the output budget, counted while rendering

    /// Pages go to disk as they are rendered, and the first page over the budget stops the others:
    /// far fewer than the plan are ever rendered.
    func testRenderingStopsAtTheBudgetInsteadOfRenderingEverything() throws {
        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func increment() { lock.withLock { value += 1 } }
            var count: Int { lock.withLock { value } }
        }
        let rendered = Counter()
        let plan = (0..<400).map { index in
            PendingFile(path: "pages/\(index).html", key: nil) {
                rendered.increment()
                return Data(repeating: UInt8(ascii: "x"), count: 1_000)
            }
        }
        let staging = try SiteWriter(output: output).begin()
        defer { staging.discard() }
        let outcome = try ParallelRender.write(plan, previous: nil, into: staging, budget: 10_500)
        XCTAssertEqual(outcome.overBudget, 11_000, "stopped at the first page over the budget")
        XCTAssertLessThan(rendered.count, 10 + 2 * ProcessInfo.processInfo.activeProcessorCount + 2, "only the pages in flight when it stopped were rendered")
        let written = try FileManager.default.contentsOfDirectory(atPath: staging.folder + "/pages")
        XCTAssertEqual(written.count, 10, "the pages within the budget")
    }

    func testASiteOverTheBudgetIsAnErrorAndThePreviousSiteStays() throws {
        try writeResult("all.json", apps: ["veloride", "trainer", "steady"])
        try Pipeline.build(for: options()).run(options())
        let before = try snapshot(output)
        try writeResult("all.json", apps: ["veloride", "trainer"])
        let failed = try XCTUnwrap(failure(options(budget: 100_000)))
        XCTAssertEqual(failed.diagnostics.count, 1)
        let message = try XCTUnwrap(failed.diagnostics.first?.description)
        XCTAssertTrue(message.hasPrefix(".: error: [render] the site would be more than "), message)
        XCTAssertTrue(message.hasSuffix(", over the limit of 100000 bytes; audit fewer apps or days"), message)
        XCTAssertEqual(failed.outcome, "the previous site was left untouched")
        XCTAssertEqual(try snapshot(output), before)
        try assertNoStagingLeft()
    }

    // MARK: - Item 14: records hold only what the trend needs, and are bounded

    func testARecordKeepsOnlyTheCommitAppsAndFindingKeys() throws {
        let padding = JSONValue.string(String(repeating: "p", count: 2_000_000))
        try writeResult("fleet.json", apps: ["veloride", "trainer", "steady"]) { result in
            result.replacing("padding", with: padding).replacing("apps.0.padding", with: padding).replacing("apps.0.findings.0.padding", with: padding)
        }
        try Pipeline.build(for: options(history: true)).run(options(history: true))
        let records = try LocalFileSystem().files(under: history)
        XCTAssertEqual(records, ["fleet/20260401T120000Z-nocommit.json"])
        let data = try Data(contentsOf: URL(fileURLWithPath: history + "/" + records[0]))
        let result = try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: results + "/fleet.json")))
        // Exactly the result's active findings as rule and fingerprint pairs, per app, and nothing else.
        let expected = try ResultReader.historyRecord(result, stamp: "20260401T120000Z")
        XCTAssertEqual(try JSONParser.parse(data), HistoryRecordFormat.document(expected))
        XCTAssertEqual(expected.apps.map(\.id), ["veloride", "trainer", "steady"])
        XCTAssertEqual(expected.apps[0].findings.count, 3, "veloride's active findings (its suppressed one is not kept)")
        XCTAssertLessThan(data.count, 2_000, "no padding")
        let readBack = try HistoryRecordFormat.read(data, stamp: "20260401T120000Z")
        XCTAssertEqual(readBack.apps.map(\.id), expected.apps.map(\.id))
        XCTAssertEqual(readBack.apps.map(\.findings), expected.apps.map(\.findings))
    }

    /// Records written by earlier versions (the whole result less its simulation) still read.
    func testARecordOfAnEarlierVersionStillReads() throws {
        try writeResult("fleet.json", apps: ["veloride"])
        let result = try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: results + "/fleet.json")))
        let legacy = result.replacing("apps.0.simulation", with: .null)
        let record = try HistoryRecordFormat.read(Data(legacy.serialized().utf8), stamp: "20260301T120000Z")
        XCTAssertEqual(record.apps.map(\.id), ["veloride"])
        XCTAssertEqual(record.apps[0].findings, try ResultReader.historyRecord(result, stamp: "").apps[0].findings)
    }

    /// Each origin's newest `maxRecordsPerOrigin` records are read; older ones stay, unread (the
    /// damaged ones planted here would fail the build if they were read).
    func testOnlyEachOriginsNewestRecordsAreRead() throws {
        try writeResult("fleet.json", apps: ["veloride"])
        let result = try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: results + "/fleet.json")))
        let record = try ResultReader.historyRecord(result, stamp: "")
        let folder = history + "/fleet"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for day in 0..<3 { try Data("not a record".utf8).write(to: URL(fileURLWithPath: folder + String(format: "/202501%02dT120000Z-nocommit.json", day + 1))) }
        let count = HistoryStore.maxRecordsPerOrigin
        for index in 0..<count {
            // One finding fewer than today's run, so today's adds a record.
            var older = record
            older.apps[0].findings.removeLast()
            let stamp = HistoryStore.stamp(Date(timeIntervalSince1970: 1_767_268_800 + Double(index) * 3_600))
            try HistoryRecordFormat.data(older).write(to: URL(fileURLWithPath: folder + "/" + stamp + "-nocommit.json"))
        }
        let state = try Pipeline.build(for: options(history: true)).run(options(history: true))
        XCTAssertEqual(state.historyListing.entries.count, count)
        XCTAssertEqual(state.historyListing.names["fleet"]?.count, count + 3, "every name is known, for the time stamps")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).count, count + 4, "nothing deleted, today's run added")
        let page = try String(contentsOfFile: output + "/apps/veloride/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("<p class=\"none\">\(count + 1 - HistorySection.shownRuns) earlier runs are not shown.</p>"), page)
    }

    // MARK: - Item 15: origins, and what is checked before the site is replaced

    /// `acme ios.json` and `acme-ios.json` are one origin (as are `Acme.json` and `acme.json` on a
    /// case-insensitive disk): refused at load, naming both files, before anything is written.
    func testCollidingOriginsAreRefusedBeforeAnythingIsWritten() throws {
        try writeResult("acme ios.json", apps: ["veloride"])
        try writeResult("acme-ios.json", apps: ["trainer"])
        try writeResult("Steady.json", apps: ["steady"])
        try Pipeline.build(for: options()).run(options())
        let before = try snapshot(output)
        try FileManager.default.copyItem(atPath: results + "/Steady.json", toPath: results + "/steady.json")
        try FileManager.default.removeItem(atPath: results + "/Steady.json")
        try writeResult("STEADY.json", apps: ["steady"]) { $0.replacing("apps.0.id", with: "steady-2") }
        let failed = try XCTUnwrap(failure(options(history: true)))
        XCTAssertEqual(failed.diagnostics.map(\.description), [
            "acme-ios.json: error: [load] 'acme ios.json' and 'acme-ios.json' would both be kept in the history as 'acme-ios': rename one of them",
            "steady.json: error: [load] 'STEADY.json' and 'steady.json' would both be kept in the history as 'steady': rename one of them",
        ])
        XCTAssertEqual(failed.outcome, "the previous site was left untouched")
        XCTAssertEqual(try snapshot(output), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: history), "nothing recorded")
        try assertNoStagingLeft()
        // Without --history the names are only names.
        try Pipeline.build(for: options()).run(options())
    }

    /// A symlink planted for an origin is found while planning, before the site is replaced.
    func testAPlantedOriginFolderIsRefusedBeforeTheSiteIsReplaced() throws {
        try writeResult("fleet.json", apps: ["veloride"])
        try Pipeline.build(for: options()).run(options())
        let before = try snapshot(output)
        let outside = root + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: history, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: history + "/fleet", withDestinationPath: outside)
        try writeResult("fleet.json", apps: ["veloride", "trainer"])
        let failed = try XCTUnwrap(failure(options(history: true)))
        XCTAssertEqual(failed.diagnostics.map(\.description),
                       ["\(history)/fleet: error: [history] the origin's folder is a symbolic link or a file: records are written only into folders of the history"])
        XCTAssertEqual(try snapshot(output), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [])
    }

    /// When the disk fails after the swap, the message says the new site is in place (never that
    /// the previous one was left untouched), the cache is dropped, and the next build records the run.
    func testAFailureAfterTheSwapSaysTheNewSiteIsInPlace() throws {
        try writeResult("fleet.json", apps: ["veloride"])
        let record = history + "/fleet/20260401T120000Z-nocommit.json"
        // Another build took the record's name between the plan and the write (a folder: `link` fails).
        let race = BuildStep("race") { _, _ in
            try FileManager.default.createDirectory(atPath: record, withIntermediateDirectories: true)
            return "planted"
        }
        let steps = Pipeline.resultsWithHistory.steps
        let pipeline = Pipeline(steps: Array(steps.dropLast()) + [race, steps.last!])
        XCTAssertThrowsError(try pipeline.run(options(history: true))) { error in
            XCTAssertEqual((error as? HistoryWriteFailure)?.description,
                           "\(record): error: cannot write a history record: File exists; the new site is in place, but this run is not in the history yet (the next build records it)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: output + "/apps/veloride/index.html"), "the new site is in place")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output + "/" + BuildCache.fileName), "the next build is not skipped")
        try FileManager.default.removeItem(atPath: record)
        try Pipeline.build(for: options(history: true)).run(options(history: true))
        XCTAssertEqual(try LocalFileSystem().files(under: history), ["fleet/20260401T120000Z-nocommit.json"])

        // An input error after the swap says so too.
        try writeResult("fleet.json", apps: ["trainer"])
        let late = BuildStep("late") { _, _ in throw InputError("late", file: "x") }
        let failed = try XCTUnwrap(failure(options(day: 2), pipeline: Pipeline(steps: Pipeline.results.steps + [late])))
        XCTAssertEqual(failed.outcome, "the new site is in place, but the build did not finish")
    }

    // MARK: - Item 23: control and bidi characters on the pages

    /// NUL and a right-to-left override in every text of a result, and in an app's name and usage
    /// string audited from sources: every page shows them as the text formats do.
    func testControlAndBidiCharactersAreShownEscapedOnEveryPage() throws {
        let hostile = "x\u{0}\u{202E}gnp.exe\u{1B}[31m\u{2066}"
        try writeResult("fleet.json", apps: ["veloride", "trainer"]) { result in
            var edited = result.replacing("title", with: .string("Fleet " + hostile))
            for path in ["apps.0.name", "apps.0.findings.0.message", "apps.0.findings.0.quote", "apps.0.findings.0.location.path",
                         "apps.0.simulation.days.0.metrics.0.name", "apps.0.simulation.days.0.metrics.0.seen", "apps.0.simulation.days.0.hourLabels.0",
                         "apps.0.simulation.scenarios.0.title", "apps.0.simulation.scenarios.0.steps.0.action", "apps.0.declared.inputFiles.0",
                         "apps.1.notes"] {
                let value = edited.value(at: path)
                edited = edited.replacing(path, with: value.flatMap { if case .array = $0 { return .array([.string(hostile)]) } else { return nil } } ?? .string(hostile))
            }
            return edited
        }
        try Pipeline.build(for: options()).run(options())
        let site = try Self.makeSite()
        defer { site.remove() }
        try site.edit("healthaudit.yml") { $0.replacingOccurrences(of: "name: VeloRide", with: "name: \"Velo\\u202ERide\\0\"") }
        try site.edit("apps/veloride/VeloRide/Info.plist") { $0.replacingOccurrences(of: "Pace reads", with: "Pace \u{202E}reads") }
        try site.build()
        var pages = 0
        for (folder, needle) in [(output, "x\u{FFFD}\\u{202E}gnp.exe\\u{001B}[31m\\u{2066}"), (site.output, "Velo\\u{202E}Ride\u{FFFD}")] {
            for (path, data) in try site.snapshot(folder) where path.hasSuffix(".html") {
                let html = String(decoding: data, as: UTF8.self)
                XCTAssertNil(html.unicodeScalars.first(where: VisibleText.isInvisible), "\(folder)/\(path)")
                pages += 1
            }
            let app = try String(contentsOfFile: folder + "/apps/veloride/index.html", encoding: .utf8)
            XCTAssertTrue(app.contains(needle), "\(folder): \(app)")
        }
        XCTAssertGreaterThan(pages, 30)
        XCTAssertTrue(try site.read("apps/veloride/index.html").contains("Pace \\u{202E}reads"), "the usage string")

        // The evidence file, HTML built from an audit by hand.
        var audit = try XCTUnwrap(audits.audits.first)
        audit.findings[0].message = hostile
        audit.findings[0].quote = hostile
        audit.notes = [hostile]
        let evidence = EvidenceReport.render(EvidenceInput(audit: audit, configPath: "healthaudit.yml", configText: "name: " + hostile, inputs: []),
                                             context: OutputContext(sitePrefix: "Site", siteDirectory: site.site))
        XCTAssertNil(evidence.unicodeScalars.first(where: VisibleText.isInvisible))
        XCTAssertTrue(evidence.contains("name: x\u{FFFD}\\u{202E}gnp.exe"), evidence)
    }
}

private extension JSONValue {
    /// The value at a dotted path of object keys and array indices (`apps.0.id`).
    func value(at path: String) -> JSONValue? {
        var current: JSONValue? = self
        for key in path.split(separator: ".").map(String.init) {
            switch current {
            case .object(let members)?: current = members.first { $0.0 == key }?.1
            case .array(let items)?: current = Int(key).flatMap { items.indices.contains($0) ? items[$0] : nil }
            default: return nil
            }
        }
        return current
    }

    /// The document with the value at `path` replaced (or, for an object's missing key, added;
    /// a nil value removes the member).
    func replacing(_ path: String, with value: JSONValue?) -> JSONValue {
        replacing(path.split(separator: ".").map(String.init)[...], with: value) ?? self
    }

    private func replacing(_ path: ArraySlice<String>, with value: JSONValue?) -> JSONValue? {
        guard let key = path.first else { return value }
        switch self {
        case .object(let members):
            guard members.contains(where: { $0.0 == key }) else {
                guard let added = JSONValue.null.replacing(path.dropFirst(), with: value) else { return self }
                return .object(members + [(key, added)])
            }
            return .object(members.compactMap { member in
                guard member.0 == key else { return member }
                return member.1.replacing(path.dropFirst(), with: value).map { (member.0, $0) }
            })
        case .array(var items):
            guard let index = Int(key), items.indices.contains(index) else { return self }
            items[index] = items[index].replacing(path.dropFirst(), with: value) ?? .null
            return .array(items)
        default:
            return self
        }
    }
}
