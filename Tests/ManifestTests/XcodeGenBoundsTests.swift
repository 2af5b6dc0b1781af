import Foundation
@testable import Manifest
import XCTest
import TestSupport

/// An XcodeGen spec and its includes are read within a budget (issue 33, item 12): each file once,
/// at most 2 MiB and 100,000 YAML values in all, whether discovery starts from a config or from the
/// folder alone. A file included 100 times was parsed 100 times (past 120 s and 900 MB), and an
/// 8 MiB spec took 13–26 s; over the budget is now an input error naming the file.
final class XcodeGenBoundsTests: XCTestCase {
    var site: String!

    override func setUpWithError() throws {
        site = Repository.temporaryPath("healthaudit-xcodegen-bounds")
        try write("healthaudit.yml", "title: T\napps:\n  - id: walk\n    name: Walk\n    root: app\n")
        try write("app/Sources/App.swift", "import HealthKit\nlet store = HKHealthStore()\n")
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: site) }

    func write(_ path: String, _ text: String) throws {
        let full = site + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    func load(_ fileSystem: FileSystem = LocalFileSystem()) throws -> AppManifest {
        let config = try ConfigLoader().load(siteDirectory: site)
        return try ManifestLoader(siteDirectory: site, fileSystem: fileSystem).load(config.apps[0])
    }

    static let spec = """
        name: Walk
        targets:
          Walk:
            type: application
            sources: [Sources]
            info:
              properties:
                NSHealthShareUsageDescription: Walk reads your steps to chart them.

        """

    /// `lines` settings of a framework target, about 40 bytes and 2 values each.
    static func settings(_ lines: Int) -> String {
        "targets:\n  Kit:\n    type: framework\n    settings:\n      base:\n"
            + (0..<lines).map { "        SETTING_\($0): \"a value for setting \($0)\"\n" }.joined()
    }

    /// The same file included 100 times, under three spellings of its path, is read and parsed
    /// once, from a config and from the folder alone (`check` with no config).
    func testAFileIncludedAHundredTimesIsReadOnce() throws {
        let includes = (0..<100).map { ["  - extra.yml", "  - path: ./extra.yml", "  - path: Sources/../extra.yml"][$0 % 3] }
        try write("app/project.yml", Self.spec + "include:\n" + includes.joined(separator: "\n") + "\n")
        try write("app/extra.yml", Self.settings(2_000) + "  Walk:\n    info:\n      properties:\n        NSHealthUpdateUsageDescription: Walk saves workouts.\n")
        let counter = ReadCounter()
        let manifest = try load(counter)
        XCTAssertEqual(manifest.usageString("NSHealthUpdateUsageDescription")?.location, FileLocation(file: "app/extra.yml", line: 2_009))
        XCTAssertTrue(manifest.discovery.contains { $0.text == "XcodeGen target Walk in app/project.yml (2 spec files with its includes)" },
                      "\(manifest.discovery.map(\.text))")
        XCTAssertEqual(counter.reads(of: "/app/extra.yml"), 1)

        let discovering = ReadCounter()
        XCTAssertEqual(AppDiscovery.find(in: site + "/app", fileSystem: discovering).map(\.name), ["Walk"])
        XCTAssertEqual(discovering.reads(of: "/app/extra.yml"), 1)
    }

    /// A spec of 2.9 MB (under the 8 MiB file limit) is refused before YAML reads it. Without a
    /// config its folder is still found as an app, so `check` says why it cannot be read.
    func testASpecOverTwoMegabytesIsRefusedNamingIt() throws {
        let text = Self.spec + "    settings:\n      base:\n" + String(repeating: "        PAD: \"" + String(repeating: "x", count: 60) + "\"\n", count: 40_000)
        try write("app/project.yml", text)
        let errors = Self.inputErrors { _ = try load() }
        XCTAssertEqual(errors.map(\.description),
                       ["app/project.yml:1: error: this XcodeGen spec and the files it includes come to \(text.utf8.count) bytes with this file, over the 2097152-byte limit; not read"])
        XCTAssertEqual(AppDiscovery.find(in: site + "/app").map(\.name), ["app"])
    }

    /// Includes of 630 KB each (mostly comments, which cost YAML little): the fourth brings the
    /// spec past 2 MiB, and the error names it.
    func testIncludesPastTheBudgetAreRefusedNamingTheFileThatCrossesIt() throws {
        let head = Self.spec + "include: [a.yml, b.yml, c.yml, d.yml]\n"
        try write("app/project.yml", head)
        let part = "targets:\n  Kit:\n    type: framework\n" + String(repeating: "# " + String(repeating: "x", count: 98) + "\n", count: 6_300)
        for name in ["a", "b", "c", "d"] { try write("app/\(name).yml", part) }
        XCTAssertLessThan(head.utf8.count + 3 * part.utf8.count, InputLimits.maxYAMLBytes)
        let errors = Self.inputErrors { _ = try load() }
        XCTAssertEqual(errors.map(\.description),
                       ["app/d.yml:1: error: this XcodeGen spec and the files it includes come to \(head.utf8.count + 4 * part.utf8.count) bytes with this file, over the 2097152-byte limit; not read"])
    }

    /// Values are bounded across the files too. The spec holds 22 values (mappings, keys, scalars,
    /// the include list) and a.yml 2,007; b.yml's 60,000 settings are 120,007 more, counted by libyaml
    /// before any tree is built, and its 97,972nd value (the key on its line 48,986) is the 100,001st.
    func testIncludesPastTheValueBudgetAreRefusedAtTheLineThatCrossesIt() throws {
        try write("app/project.yml", Self.spec + "include: [a.yml, b.yml]\n")
        func settings(_ count: Int) -> String { "targets:\n  Kit:\n    settings:\n" + (0..<count).map { "      S\($0): 1\n" }.joined() }
        try write("app/a.yml", settings(1_000))
        try write("app/b.yml", settings(60_000))
        let errors = Self.inputErrors { _ = try load() }
        XCTAssertEqual(errors.map(\.description),
                       ["app/b.yml:48986: error: this XcodeGen spec and the files it includes hold more than 100000 YAML values (scalars, lists and mappings) by this line; not read"])
    }

    /// A healthaudit.yml (or any YAML the tool reads) over the limit is refused the same way.
    func testAConfigOverTheYAMLLimitIsRefused() throws {
        let text = "title: T\n" + String(repeating: "# " + String(repeating: "x", count: 100) + "\n", count: 21_000) + "apps: []\n"
        XCTAssertThrowsError(try ConfigLoader().parse(text, file: "healthaudit.yml", siteDirectory: site)) { error in
            XCTAssertEqual((error as? InputError)?.problems.map(\.description),
                           ["healthaudit.yml:1: error: YAML file is \(text.utf8.count) bytes, over the 2097152-byte limit; not read"])
        }
    }

    /// Runs `body`, which must throw an `InputError`; its problems.
    static func inputErrors(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> [InputProblem] {
        do {
            try body()
            XCTFail("expected an input error", file: file, line: line)
        } catch let error as InputError {
            return error.problems
        } catch {
            XCTFail("expected an InputError, got \(error)", file: file, line: line)
        }
        return []
    }
}

/// Counts the reads of each file, to show a file is read once however often it is named.
final class ReadCounter: FileSystem, @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private let base = LocalFileSystem()

    /// Reads of the paths ending with `suffix`.
    func reads(of suffix: String) -> Int { lock.withLock { counts.filter { $0.key.hasSuffix(suffix) }.values.reduce(0, +) } }

    func contents(of path: String) throws -> Data {
        lock.withLock { counts[path, default: 0] += 1 }
        return try base.contents(of: path)
    }
    func fileExists(_ path: String) -> Bool { base.fileExists(path) }
    func isDirectory(_ path: String) -> Bool { base.isDirectory(path) }
    func files(under directory: String) throws -> [String] { try base.files(under: directory) }
    func entries(in directory: String) throws -> [FolderEntry] { try base.entries(in: directory) }
}
