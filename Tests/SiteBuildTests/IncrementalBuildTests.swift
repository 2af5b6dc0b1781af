import Foundation
import Manifest
@testable import SiteBuild
import XCTest
import TestSupport

/// Incremental builds on a small inline site: one app, two content pages.
final class IncrementalBuildTests: XCTestCase {
    var fixture: TestSite!

    override func setUpWithError() throws {
        fixture = try TestSite(files: InlineApp.site([("pace", "Pace", nil)], extra: [
            "content/about.md": "---\ntitle: About\norder: 1\n---\n# About\n\nWhy this audit exists.\n",
            "content/methodology.md": "# Methodology\n\nHow each answer is reached; see [about](about.md).\n",
        ]))
    }
    override func tearDown() { fixture.remove() }

    func testUnchangedInputsSkipEveryStepAndKeepTheSite() throws {
        try fixture.build()
        let before = try fixture.snapshot()
        let state = try fixture.build()
        XCTAssertTrue(state.upToDate)
        XCTAssertTrue(state.pagePaths.isEmpty, "nothing rendered")
        XCTAssertEqual(try fixture.snapshot(), before)
    }

    /// A no-op rebuild asks the last build's questions again (`FileTrace`) and reads only the files
    /// whose signature changed: the answers, and so the cache key, are those of a full read.
    func testATraceReadsOnlyTheFilesThatChanged() throws {
        let folder = fixture.root + "/traced"
        let paths = ["a.md", "b.md", "c.md"].map { folder + "/" + $0 }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for path in paths { try "# \(path)\n".write(toFile: path, atomically: false, encoding: .utf8) }
        func readAll(_ recorder: RecordingFileSystem) throws {
            _ = try recorder.files(under: folder)
            _ = recorder.contents(ofAll: paths)
        }
        let first = RecordingFileSystem(LocalFileSystem())
        try readAll(first)
        // As if that run started well after the files were written.
        let trace = FileTrace(started: FileTrace.now() + 10_000_000_000, questions: first.trace)
        try "# b, longer now\n".write(toFile: paths[1], atomically: false, encoding: .utf8)

        let counting = CountingFileSystem()
        let again = RecordingFileSystem(counting)
        XCTAssertTrue(trace.replay(into: again, inside: [folder]))
        XCTAssertEqual(counting.reads, [paths[1]], "only the changed file is read")
        let fresh = RecordingFileSystem(LocalFileSystem())
        try readAll(fresh)
        XCTAssertEqual(again.record, fresh.record)
        XCTAssertNotEqual(again.record, first.record)

        // Files changed close to when the traced run started may have been written in the tick of
        // their read, unseen by their signature: they are read again.
        let recent = CountingFileSystem()
        XCTAssertTrue(FileTrace(started: FileTrace.now(), questions: first.trace).replay(into: RecordingFileSystem(recent), inside: [folder]))
        XCTAssertEqual(recent.reads.sorted(), paths)
        // The trace comes from disk: it cannot make a run look outside its folders.
        XCTAssertFalse(trace.replay(into: RecordingFileSystem(CountingFileSystem()), inside: [folder + "/elsewhere"]))
    }

    func testOneChangedPageIsTheOnlyContentPageRendered() throws {
        try fixture.build()
        let before = try fixture.snapshot()
        try fixture.edit("content/about.md") { $0 + "\nOne more sentence.\n" }
        let state = try fixture.build()
        XCTAssertFalse(state.upToDate)
        let rendered = Set(state.pagePaths).subtracting(state.reusedPaths)
        XCTAssertTrue(rendered.contains("pages/about.html"))
        XCTAssertFalse(rendered.contains("pages/methodology.html"), "unchanged content pages are reused")
        XCTAssertFalse(rendered.contains("style.css"))
        let after = try fixture.snapshot()
        XCTAssertNotEqual(after["pages/about.html"], before["pages/about.html"])
        XCTAssertEqual(after["pages/methodology.html"], before["pages/methodology.html"])
        XCTAssertTrue(String(decoding: after["pages/about.html"]!, as: UTF8.self).contains("One more sentence."))
    }

    /// Editing a content page (its title too) re-renders that page and the index that lists it,
    /// nothing else, and audits nothing: the apps' reports are read back from the last build. The
    /// result is byte for byte a clean full build of the edited site, kept reports included.
    func testIncrementalOutputEqualsAFullBuild() throws {
        try fixture.build()
        try fixture.edit("content/about.md") { $0.replacingOccurrences(of: "title: About", with: "title: About us") + "\nChanged.\n" }
        let state = try fixture.build()
        XCTAssertNotNil(state.keptApps, "only content changed: the app is not audited again")
        XCTAssertTrue(state.audits.isEmpty)
        XCTAssertEqual(Set(state.pagePaths).subtracting(state.reusedPaths), ["pages/about.html", "index.html"])
        let incremental = try fixture.snapshot()
        let keptReports = try Data(contentsOf: URL(fileURLWithPath: fixture.output + "/" + AppsCache.fileName))

        var clean = fixture.options
        clean.outputDirectory = fixture.root + "/clean"
        let full = try Pipeline.site.run(clean)
        XCTAssertEqual(full.reusedFiles, 0)
        XCTAssertFalse(full.audits.isEmpty, "a clean build audits")
        let fresh = try fixture.snapshot(clean.outputDirectory)
        XCTAssertEqual(Set(incremental.keys), Set(fresh.keys))
        for (path, data) in fresh { XCTAssertEqual(incremental[path], data, "\(path) differs from a clean build") }
        XCTAssertEqual(keptReports, try Data(contentsOf: URL(fileURLWithPath: clean.outputDirectory + "/" + AppsCache.fileName)))
        XCTAssertTrue(try fixture.read("index.html").contains("About us"))
    }

    /// The kept reports are a file on disk like any other: altered, they are not trusted, and the
    /// build audits again (and still writes the same site).
    func testAlteredKeptReportsAreIgnored() throws {
        try fixture.build()
        let reports = fixture.output + "/" + AppsCache.fileName
        let text = try String(contentsOfFile: reports, encoding: .utf8)
        try text.replacingOccurrences(of: "Pace", with: "Forged").write(toFile: reports, atomically: false, encoding: .utf8)
        XCTAssertNotEqual(try String(contentsOfFile: reports, encoding: .utf8), text, "the test's premise: the file was altered")
        try fixture.edit("content/about.md") { $0 + "\nChanged.\n" }
        let state = try fixture.build()
        XCTAssertNil(state.keptApps)
        XCTAssertFalse(state.audits.isEmpty, "audited again")
        XCTAssertFalse(try fixture.read("apps/pace/index.html").contains("Forged"))
    }

    /// A changed app source is audited again and its pages re-rendered, content pages reused.
    func testAnAppEditIsAuditedAgain() throws {
        try fixture.build()
        try fixture.edit("apps/pace/Pace/Health.swift") { $0.replacingOccurrences(of: "guard HKHealthStore.isHealthDataAvailable() else { return }\n", with: "") }
        let state = try fixture.build()
        XCTAssertNil(state.keptApps)
        XCTAssertFalse(state.audits.isEmpty)
        let rendered = Set(state.pagePaths).subtracting(state.reusedPaths)
        XCTAssertTrue(rendered.contains("apps/pace/index.html"))
        XCTAssertFalse(rendered.contains("pages/about.html"))
    }

    func testTemplateChangeRendersEveryPage() throws {
        let templates = fixture.root + "/Templates"
        try FileManager.default.copyItem(atPath: Repository.root + "/Templates", toPath: templates)
        var options = fixture.options
        options.templatesDirectory = templates
        try Pipeline.site.run(options)
        let layout = templates + "/layout.mustache"
        try (try String(contentsOfFile: layout, encoding: .utf8)).replacingOccurrences(of: "Generated by healthaudit", with: "Built by healthaudit")
            .write(toFile: layout, atomically: true, encoding: .utf8)
        let state = try Pipeline.site.run(options)
        XCTAssertEqual(state.reusedPaths, ["style.css"], "only the unchanged stylesheet is reused")
        XCTAssertTrue(try fixture.read("pages/about.html").contains("Built by healthaudit"))
    }

    func testDeletedOutputIsRebuiltEvenWithAMatchingCache() throws {
        try fixture.build()
        try FileManager.default.removeItem(atPath: fixture.output + "/pages/about.html")
        let state = try fixture.build()
        XCTAssertFalse(state.upToDate)
        XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.output + "/pages/about.html"))
    }

    /// A symlink planted in the previous output (pointing at a secret) must neither make the
    /// output look up to date nor be carried into the new site as an "unchanged" page.
    func testASymlinkPlantedInThePreviousOutputIsNeverReused() throws {
        try fixture.build()
        let secret = fixture.root + "/secret.txt"
        try "TOKEN-3f9a".write(toFile: secret, atomically: true, encoding: .utf8)
        let planted = fixture.output + "/pages/methodology.html"
        try FileManager.default.removeItem(atPath: planted)
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: secret)

        let untouched = try fixture.build()
        XCTAssertFalse(untouched.upToDate, "a symlinked page makes the output stale")
        XCTAssertFalse(untouched.reusedPaths.contains("pages/methodology.html"), "re-rendered, not reused")
        let attributes = try FileManager.default.attributesOfItem(atPath: planted)
        XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeRegular)
        XCTAssertFalse(try fixture.read("pages/methodology.html").contains("TOKEN-3f9a"))
    }
}

/// The local disk, remembering which files were read.
private final class CountingFileSystem: FileSystem, @unchecked Sendable {
    private let base = LocalFileSystem()
    private let lock = NSLock()
    private var paths: [String] = []
    var reads: [String] { lock.withLock { paths } }

    func contents(of path: String) throws -> Data {
        lock.withLock { paths.append(path) }
        return try base.contents(of: path)
    }
    func fileExists(_ path: String) -> Bool { base.fileExists(path) }
    func isDirectory(_ path: String) -> Bool { base.isDirectory(path) }
    func files(under directory: String) throws -> [String] { try base.files(under: directory) }
    func files(under directory: String, skipping folders: Set<String>) throws -> [String] { try base.files(under: directory, skipping: folders) }
    func entries(in directory: String) throws -> [FolderEntry] { try base.entries(in: directory) }
}
