import Foundation
import Manifest
import TestSupport
import XCTest

/// Issue 37, item 2: the per-file facts cache (`SwiftFileCache`). Same inputs, same output with a
/// cold cache, a warm one or none; a refused file is not scanned or parsed again while its text is
/// unchanged; the cache folder is untrusted (corrupt, foreign, oversized, symlinked entries are
/// ignored and rewritten, a symlinked folder is not used, nothing is written through a symlink).
final class SwiftFileCacheTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws { root = Repository.temporaryDirectory("healthaudit-cache") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    static let junk = "let s = \"\\(" + String(repeating: "[", count: 30) + "1" + String(repeating: "]", count: 30) + ")\"\n"
    static let junkReason = "`[` nested deeper than 12"

    func cache(tool: String = "tool 1") throws -> SwiftFileCache {
        try XCTUnwrap(SwiftFileCache(folder: root + "/cache", tool: tool, settings: "test"))
    }

    func entries(_ cache: SwiftFileCache) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cache.folder).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// A refusal is kept and reproduced without the scan: the same finding text, line and column,
    /// and the same CPU seconds charged to the budget.
    func testARefusalIsReproducedFromTheCache() throws {
        let cache = try cache()
        guard case .refused(let cold) = BoundedSwiftParse.parse(Self.junk, budget: ParseBudget(), cache: cache) else { return XCTFail("junk parsed") }
        XCTAssertEqual(cold.reason, Self.junkReason)
        XCTAssertEqual(try entries(cache).count, 1)
        guard case .refused(let warm) = BoundedSwiftParse.parse(Self.junk, budget: ParseBudget(), cache: cache) else { return XCTFail("junk parsed") }
        XCTAssertEqual(warm, cold)
        XCTAssertEqual(cache.hits, 1)
        // Nothing is kept for a parsed file: it is parsed on every run (its tree is not kept).
        guard case .parsed = BoundedSwiftParse.parse("let x = 1\n", budget: ParseBudget(), cache: cache) else { return XCTFail("not parsed") }
        XCTAssertEqual(try entries(cache).count, 1)
    }

    /// A file whose text changed is read again: the entry of its old text (a refusal) is not its
    /// entry any more, so the new text is scanned and parsed, and a new refusal gets its own entry.
    func testAChangedFileIsReadAgain() throws {
        let cache = try cache()
        guard case .refused = BoundedSwiftParse.parse(Self.junk, budget: ParseBudget(), cache: cache) else { return XCTFail("junk parsed") }
        let fixed = "let s = \"\\(1)\"\n"
        guard case .parsed(let tree) = BoundedSwiftParse.parse(fixed, budget: ParseBudget(), cache: cache) else {
            return XCTFail("the edited file was refused from its old text's entry")
        }
        XCTAssertEqual(tree.description, fixed)
        let movedDown = "\n" + Self.junk
        guard case .refused(let refusal) = BoundedSwiftParse.parse(movedDown, budget: ParseBudget(), cache: cache) else { return XCTFail("junk parsed") }
        XCTAssertEqual(refusal.line, 2, "refused where the new text nests, not where the old entry said")
        XCTAssertEqual(cache.hits, 0)
        XCTAssertEqual(cache.misses, 3)
        XCTAssertEqual(try entries(cache).count, 2)
    }

    /// Another tool (or tool build) never reads this one's entries: its key differs.
    func testAnotherToolDoesNotReadTheEntries() throws {
        _ = BoundedSwiftParse.parse(Self.junk, budget: ParseBudget(), cache: try cache(tool: "tool 1"))
        let other = try cache(tool: "tool 2")
        XCTAssertNil(other.facts(for: Self.junk))
        XCTAssertEqual(other.misses, 1)
    }

    /// Entries that are not the tool's own are ignored, then rewritten by the next run that needs them.
    func testCorruptForeignAndOversizedEntriesAreIgnoredAndRewritten() throws {
        let cache = try cache()
        _ = BoundedSwiftParse.parse(Self.junk, budget: ParseBudget(), cache: cache)
        let name = try XCTUnwrap(try entries(cache).first)
        let path = cache.folder + "/" + name
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        let goodText = String(decoding: good, as: UTF8.self)
        let hostile: [String] = [
            "{not json",
            "",
            goodText.replacingOccurrences(of: "\"format\":1", with: "\"format\":99"),
            goodText.replacingOccurrences(of: "\"key\":\"", with: "\"key\":\"0"),
            // A reason the tool never gives: no cache text reaches a report.
            goodText.replacingOccurrences(of: "nested deeper than 12", with: "nested <script>alert(1)</script>"),
            // A line past the file's end, and a negative charge.
            goodText.replacingOccurrences(of: "\"line\":1", with: "\"line\":40"),
            goodText.replacingOccurrences(of: "\"chargedSeconds\":0", with: "\"chargedSeconds\":-1"),
            goodText + String(repeating: " ", count: 5_000),
        ]
        XCTAssertTrue(goodText.contains("\"format\":1") && goodText.contains("\"line\":1") && goodText.contains("\"chargedSeconds\":0"), goodText)
        for text in hostile {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let budget = ParseBudget()
            guard case .refused(let refusal) = BoundedSwiftParse.parse(Self.junk, budget: budget, cache: cache) else { return XCTFail("junk parsed") }
            XCTAssertEqual(refusal.reason, Self.junkReason, text)
            // Rewritten: an entry that had been trusted would have been left as it was.
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), good, "rewritten after: \(text.prefix(60))")
        }
    }

    /// An entry that is a symlink is not read through, and writing the entry replaces the link
    /// without touching its target; a cache folder that is a symlink is not used at all.
    func testSymlinksAreNeverFollowed() throws {
        let cache = try cache()
        _ = BoundedSwiftParse.parse(Self.junk, budget: ParseBudget(), cache: cache)
        let name = try XCTUnwrap(try entries(cache).first)
        let path = cache.folder + "/" + name
        let outside = root + "/outside.json"
        try FileManager.default.moveItem(atPath: path, toPath: outside)
        let before = try Data(contentsOf: URL(fileURLWithPath: outside))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside)
        XCTAssertNil(cache.facts(for: Self.junk), "read through a symlink")
        _ = BoundedSwiftParse.parse(Self.junk, budget: ParseBudget(), cache: cache)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: outside)), before, "written through a symlink")
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: path), "the link was replaced by an entry")

        try FileManager.default.createDirectory(atPath: root + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/linked", withDestinationPath: root + "/elsewhere")
        XCTAssertNil(SwiftFileCache(folder: root + "/linked", tool: "tool 1", settings: "test"))
        try FileManager.default.createDirectory(atPath: root + "/mine", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/mine/" + SwiftFileCache.subfolderName, withDestinationPath: root + "/elsewhere")
        XCTAssertNil(SwiftFileCache(folder: root + "/mine", tool: "tool 1", settings: "test"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/elsewhere"), [])
    }

    /// The platform's folder: XDG_CACHE_HOME, else ~/.cache on Linux; ~/Library/Caches on macOS.
    func testTheDefaultFolderFollowsThePlatform() {
        #if os(macOS)
        XCTAssertEqual(SwiftFileCache.defaultFolder(environment: ["HOME": "/Users/a"]), "/Users/a/Library/Caches/healthaudit")
        #else
        XCTAssertEqual(SwiftFileCache.defaultFolder(environment: ["HOME": "/home/a", "XDG_CACHE_HOME": "/var/c"]), "/var/c/healthaudit")
        XCTAssertEqual(SwiftFileCache.defaultFolder(environment: ["HOME": "/home/a", "XDG_CACHE_HOME": "relative"]), "/home/a/.cache/healthaudit")
        XCTAssertEqual(SwiftFileCache.defaultFolder(environment: ["HOME": "/home/a"]), "/home/a/.cache/healthaudit")
        #endif
        XCTAssertNil(SwiftFileCache.defaultFolder(environment: [:]))
    }
}

/// The CLI end to end: `check` writes byte-identical reports with a cold cache, a warm one and
/// `--no-cache`, for an app whose files include one refused (reproduced from the cache when warm)
/// and one two targets compile.
final class CheckCacheCLITests: XCTestCase {
    var site: TestSite!

    override func tearDown() { site?.remove() }

    func testReportsAreByteIdenticalColdWarmAndWithoutTheCache() throws {
        try HealthAuditBinary.requireBuilt()
        var files = ["healthaudit.yml": "title: Shared\napps:\n" + ParseOnceTestsFixture.app]
        files.merge(ParseOnceTestsFixture.files) { $1 }
        files["apps/birthday/App/Junk.swift"] = SwiftFileCacheTests.junk
        site = try TestSite(files: files)
        let cache = site.root + "/cache"
        func check(_ extra: [String], _ tag: String) throws -> [String: Data] {
            let outputs = ["json", "sarif", "text"].map { (format: $0, path: site.root + "/\(tag).\($0)") }
            let run = try site.runCLI(["check", "--site", "Site", "--no-fail"] + extra + outputs.flatMap { ["--format", $0.format, "--output", $0.path] },
                                      environment: ["SOURCE_DATE_EPOCH": "1775044800"])
            XCTAssertEqual(run.status, 0, run.output)
            return try Dictionary(uniqueKeysWithValues: outputs.map { ($0.format, try Data(contentsOf: URL(fileURLWithPath: $0.path))) })
        }
        let cold = try check(["--cache-path", cache], "cold")
        // One entry per Swift text: the refused file's, and one for each file a parse worker (the
        // binary's `ParseIsolation`) parsed in time, which a warm run parses with no worker.
        let folder = cache + "/" + SwiftFileCache.subfolderName
        let outcomes = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.map { name -> String in
            let entry = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))) as? [String: Any]
            return ((entry?["facts"] as? [String: Any])?["outcome"] as? String) ?? "?"
        }
        let swiftTexts = Set(files.filter { $0.key.hasSuffix(".swift") }.map(\.value))
        XCTAssertEqual(outcomes.sorted(), Array(repeating: "parsed", count: swiftTexts.count - 1) + ["refused"])
        let warm = try check(["--cache-path", cache], "warm")
        let none = try check(["--no-cache"], "none")
        XCTAssertTrue(String(decoding: cold["text"]!, as: UTF8.self).contains("Junk.swift:1:24: warning: not analysed"))
        for format in ["json", "sarif", "text"] {
            XCTAssertEqual(cold[format], warm[format], "\(format): cold and warm cache differ")
            XCTAssertEqual(cold[format], none[format], "\(format): with and without the cache differ")
        }
        let both = try site.runCLI(["check", "--site", "Site", "--no-cache", "--cache-path", cache])
        XCTAssertEqual(both.status, 2, both.output)
    }
}
