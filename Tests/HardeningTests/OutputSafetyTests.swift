import Foundation
import Manifest
import SiteBuild
import XCTest
import TestSupport

/// The build replaces only folders it wrote, writes nothing beside them, and two builds into one
/// output never mix.
final class OutputSafetyTests: XCTestCase {
    var site: TestSite!

    override func setUpWithError() throws { site = try TestSite() }
    override func tearDown() { site.remove() }

    func options(output: String) -> BuildOptions {
        var options = site.options
        options.outputDirectory = output
        return options
    }

    /// The refusal names the folder and why, and nothing at all was written or removed.
    func assertRefused(_ output: String, because reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try everything(under: site.root)
        let errors = inputErrors({ try Pipeline.site.run(options(output: output)) }, file: file, line: line)
        let failure = errors.first
        XCTAssertEqual(failure?.location.file, output, file: file, line: line)
        XCTAssertTrue(failure?.message.contains(reason) == true, "\(failure?.message ?? "no error")", file: file, line: line)
        XCTAssertEqual(try everything(under: site.root), before, "nothing written or removed", file: file, line: line)
    }

    func testTheSiteItsParentsAndTheRepositoryAreRefused() throws {
        try assertRefused(site.site, because: "is the site folder")
        try assertRefused(site.root, because: "contains the site folder")
        try assertRefused("/", because: "is the file system root")
        // In a git checkout, the repository root is refused as such.
        try FileManager.default.createDirectory(atPath: site.root + "/.git", withIntermediateDirectories: true)
        try assertRefused(site.root, because: "is the repository root")
    }

    /// What a user types: each dangerous `--output` exits 2 before any work, naming the folder and
    /// why, and every file (the app, the config, the home folder's) is as it was.
    func testTheCommandLineRefusesDangerousOutputsWithExitTwo() throws {
        let home = site.root + "/home"
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
        try "key".write(toFile: home + "/.ssh/id_ed25519", atomically: false, encoding: .utf8)
        let cases: [(output: String, folder: String, home: String, reason: String)] = [
            (home, site.root, home, "is your home folder"),
            (site.root, site.root, home, "contains your home folder"),
            ("/", site.root, home, "is the file system root"),
            (".", site.site, home, "is the site folder"),
            (site.root, site.root, "/nonexistent", "contains the site folder"),
        ]
        for (output, folder, home, reason) in cases {
            let before = try everything(under: site.root)
            let result = try site.runCLI(["build", "--site", site.site, "--output", output], in: folder, environment: ["HOME": home])
            XCTAssertEqual(result.status, 2, "\(output): \(result.output)")
            XCTAssertTrue(result.output.contains(reason), "\(output): \(result.output)")
            XCTAssertFalse(result.output.contains("[2/6]"), "refused before any work: \(result.output)")
            XCTAssertEqual(try everything(under: site.root), before, "\(output): nothing written or removed")
        }
        XCTAssertEqual(try String(contentsOfFile: home + "/.ssh/id_ed25519", encoding: .utf8), "key")
    }

    func testAFolderWithOtherFilesIsRefusedAndKept() throws {
        let output = site.root + "/notes"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try "my untracked work".write(toFile: output + "/draft.txt", atomically: false, encoding: .utf8)
        try assertRefused(output, because: "holds 1 item healthaudit did not write (draft.txt)")
        XCTAssertEqual(try String(contentsOfFile: output + "/draft.txt", encoding: .utf8), "my untracked work")
    }

    func testAFileOrASymlinkIsRefused() throws {
        try "x".write(toFile: site.root + "/report.html", atomically: false, encoding: .utf8)
        try assertRefused(site.root + "/report.html", because: "is a file, not a folder")
        try FileManager.default.createDirectory(atPath: site.root + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site.root + "/link", withDestinationPath: site.root + "/real")
        try assertRefused(site.root + "/link", because: "is a symbolic link")
    }

    func testEmptyOrMissingFoldersAreClaimedAndTheSiteIsMarkedAsOurs() throws {
        let output = site.root + "/deploy/site"
        try Pipeline.site.run(options(output: output))
        XCTAssertEqual(try String(contentsOfFile: output + "/" + OutputClaim.markerName, encoding: .utf8),
                       "This folder was written by healthaudit; every build replaces all of it.\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: output + "/.healthaudit-cache.json"), "the cache lives inside the output")
        // Nothing else appeared beside the output.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: site.root + "/deploy"), ["site"])
        // A site it wrote is replaced by the next build, even after a change.
        try site.edit("healthaudit.yml") { $0.replacingOccurrences(of: "title: HealthAudit", with: "title: Rebuilt HealthAudit") }
        try Pipeline.site.run(options(output: output))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: site.root + "/deploy"), ["site"])

        let empty = site.root + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        XCTAssertNoThrow(try Pipeline.site.run(options(output: empty)))
        XCTAssertTrue(FileManager.default.fileExists(atPath: empty + "/index.html"))
    }

    func testTheSiteFolderHoldsOnlyTheOutputAfterABuild() throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: site.site).sorted()
        try site.build()
        try site.edit("healthaudit.yml") { $0.replacingOccurrences(of: "title: HealthAudit", with: "title: Again HealthAudit") }
        try site.build()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: site.site).sorted(), (before + ["public"]).sorted())
    }

    /// A folder of `files` at the output, and a legacy cache beside it holding `cache`.
    func plantLegacy(files: [String], cache: String) throws {
        for file in files {
            let path = site.output + "/" + file
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "<html>old</html>".write(toFile: path, atomically: false, encoding: .utf8)
        }
        try cache.write(toFile: site.site + "/.public.cache.json", atomically: false, encoding: .utf8)
    }

    static func legacyCache(_ files: [String]) -> String {
        #"{"version":1,"inputDigest":"0123456789abcdef","keys":{},"files":["# + files.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
    }

    /// Sites written before the marker existed kept their cache beside the output: adopted once
    /// when that cache lists exactly the folder's files, cache removed.
    func testALegacySiteIsAdoptedAndItsOutsideCacheRemoved() throws {
        let files = ["index.html", "apps/steady/index.html", "style.css"]
        try plantLegacy(files: files, cache: Self.legacyCache(files))
        try site.build()
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.site + "/.public.cache.json"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.output + "/" + OutputClaim.markerName))
    }

    /// Issue 33, case 17: a `.public.cache.json` of any content beside a foreign folder made the
    /// build delete that folder. It proves the folder is a legacy site only when it decodes as
    /// one and lists exactly the folder's files; otherwise nothing is written or removed.
    func testALegacyCacheThatDoesNotDescribeTheFolderAdoptsNothing() throws {
        let files = ["index.html", "notes/draft.txt"]
        let shown = "holds 2 items (index.html, notes) that the .public.cache.json beside it does not list as the site an earlier healthaudit wrote; "
            + "give a new or empty folder — a build replaces the whole folder"
        let caches = [
            "{}",                                                        // any content
            "not json",
            #"{"version":2,"inputDigest":"x","keys":{},"files":["index.html","notes/draft.txt"]}"#, // another version
            Self.legacyCache(["index.html"]),                            // a file it does not list
            Self.legacyCache(["index.html", "notes/draft.txt", "gone.html"]), // a file that is not there
            Self.legacyCache(["index.html", "notes/../notes/draft.txt"]), // not a path a site writes
            Self.legacyCache([]),
        ]
        for cache in caches {
            try plantLegacy(files: files, cache: cache)
            try assertRefused(site.output, because: shown)
            XCTAssertEqual(try String(contentsOfFile: site.output + "/notes/draft.txt", encoding: .utf8), "<html>old</html>", cache)
        }
        // A symbolic link was never part of a site a build wrote.
        try FileManager.default.removeItem(atPath: site.output + "/notes/draft.txt")
        try FileManager.default.createSymbolicLink(atPath: site.output + "/notes/draft.txt", withDestinationPath: "../index.html")
        try plantLegacy(files: ["index.html"], cache: Self.legacyCache(files))
        try assertRefused(site.output, because: shown)
    }

    /// The same through the command line: exit 2, the folder named, nothing removed.
    func testTheCommandRefusesAForeignFolderBesideAJunkCache() throws {
        try HealthAuditBinary.requireBuilt()
        try plantLegacy(files: ["draft.txt"], cache: "{}")
        let result = try site.runCLI(["build", "--site", site.site, "--templates", Repository.templates])
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertTrue(result.output.contains("Site/public: error: [output] refusing to write the site here: the output folder holds 1 item (draft.txt) "
                                             + "that the .public.cache.json beside it does not list as the site an earlier healthaudit wrote"), result.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.output + "/draft.txt"))
    }

    func testAnOutputThatCannotBeWrittenIsAnOutputFailureNotAnInputError() throws {
        try "not a folder".write(toFile: site.root + "/file", atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try Pipeline.site.run(options(output: site.root + "/file/public"))) { error in
            guard let failure = error as? OutputFailure else { return XCTFail("expected OutputFailure, got \(error)") }
            XCTAssertEqual(failure.description,
                           "\(site.root)/file: error: cannot create the folder: Not a directory; no site was written", "there was no previous site")
        }
    }

    /// A first build that fails leaves no folder it made behind (an empty `out/deep/` for the
    /// output `out/deep/public`), and does not claim a previous site it never had; a folder that
    /// was there stays.
    func testAFailedFirstBuildLeavesNoFolderAndClaimsNoPreviousSite() throws {
        try site.edit("healthaudit.yml") { $0 + "bogus_key: 1\n" }
        XCTAssertThrowsError(try Pipeline.site.run(options(output: site.root + "/out/deep/public"))) { error in
            guard let failure = error as? BuildFailed else { return XCTFail("expected BuildFailed, got \(error)") }
            XCTAssertEqual(failure.outcome, "no site was written")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.root + "/out"), "the folders made for the output are removed again")
        try FileManager.default.createDirectory(atPath: site.root + "/kept", withIntermediateDirectories: false)
        XCTAssertThrowsError(try Pipeline.site.run(options(output: site.root + "/kept/public")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.root + "/kept"), "a folder the build did not make stays")
    }

    /// While one build holds the output, a second one waits for it (and says so) instead of mixing.
    func testASecondBuildWaitsForTheLock() throws {
        let folder = site.root + "/locked"
        let first = try OutputLock(folder: folder) { _ in XCTFail("the first lock never waits") }
        let waited = Flag(), acquired = Flag()
        let thread = Thread {
            let second = try? OutputLock(folder: folder) { _ in waited.set() }
            acquired.set()
            second?.release()
        }
        thread.start()
        let deadline = Date().addingTimeInterval(10)
        while !waited.isSet, Date() < deadline { usleep(1000) }
        XCTAssertTrue(waited.isSet, "the second build reported that it waits")
        usleep(100_000)
        XCTAssertFalse(acquired.isSet, "and does not proceed while the first holds the lock")
        first.release()
        while !acquired.isSet, Date() < deadline { usleep(1000) }
        XCTAssertTrue(acquired.isSet)
        // The lock creates no file, and the folder it made is removed once every build left it empty.
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder))
    }

    /// Two real processes building into one output at once: both succeed, the result is one whole site.
    func testConcurrentBuildsIntoOneOutputNeverMix() throws {
        try HealthAuditBinary.requireBuilt()
        for index in 1...300 {
            try site.write("content/generated/p\(index).md", "# Page \(index)\n\nText.\n")
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: site.site)
        let processes = try (0..<2).map { _ in try run(["build", "--site", site.site, "--templates", Repository.root + "/Templates"]) }
        for process in processes { process.waitUntilExit() }
        XCTAssertEqual(processes.map(\.terminationStatus), [0, 0])
        let built = try site.snapshot()
        XCTAssertTrue(built.keys.contains { $0.hasSuffix("p300.html") || $0.hasSuffix("p300/index.html") }, "the generated pages are there")
        let siblings = try FileManager.default.contentsOfDirectory(atPath: site.site).sorted()
        XCTAssertEqual(siblings, (before + ["public"]).sorted(), "the built site and no staging debris")
    }

    func run(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Repository.binary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func everything(under folder: String) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var paths: [String] = []
        // Names and contents: a file rewritten in place must show too.
        while let path = enumerator?.nextObject() as? String {
            let contents = FileManager.default.contents(atPath: folder + "/" + path)
            paths.append(path + (contents.map { " \($0.count) \($0.hashValue)" } ?? ""))
        }
        return paths.sorted()
    }
}

final class Flag: @unchecked Sendable {
    private var value = false
    private let lock = NSLock()
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
