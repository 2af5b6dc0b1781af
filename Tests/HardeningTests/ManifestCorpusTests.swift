import Foundation
@testable import Manifest
import XCTest
import TestSupport

/// Malformed and hostile manifests from the corpus, each with the exact error it must give.
final class PlistCorpusTests: XCTestCase {
    let path = "App/Info.plist"

    func errors(_ name: String) throws -> [InputProblem] {
        let data = try Corpus.data("plist/" + name)
        return inputErrors { _ = try PropertyListDocument.parse(data, path: path) }
    }

    func testTruncatedXML() throws {
        assertErrors(try errors("truncated.plist"), ["App/Info.plist:1: error: malformed XML property list: Encountered unexpected EOF"])
    }

    func testMismatchedTagsNameTheirLine() throws {
        assertErrors(try errors("mismatched-tags.plist"),
                     ["App/Info.plist:6: error: malformed XML property list: Close tag on line 6 does not match open tag string"])
    }

    func testEmptyAndNonDictionaryRoots() throws {
        assertErrors(try errors("empty.plist"), ["App/Info.plist:1: error: property list is empty"])
        assertErrors(try errors("root-array.plist"), ["App/Info.plist:1: error: property list root must be a <dict>"])
    }

    func testEntityExpansionIsRefused() throws {
        assertErrors(try errors("entity-bomb.plist"),
                     ["App/Info.plist:2: error: malformed XML property list: Encountered unexpected character [ on line 2 while parsing DTD"])
    }

    func testNestingDeeperThan64LevelsIsAClearError() throws {
        assertErrors(try errors("deep-array.plist"), ["App/Info.plist:1: error: property list nests deeper than 64 levels"])
        // 60 levels are fine.
        let ok = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>A</key>\n" + String(repeating: "<array>", count: 60)
            + String(repeating: "</array>", count: 60) + "\n</dict>\n</plist>\n"
        XCTAssertNotNil(try PropertyListDocument.parse(Data(ok.utf8), path: path)["A"])
    }

    /// As deep as the size limit allows (1 MiB).
    func testSixtyThousandNestedArraysDoNotOverflowTheStack() throws {
        let deep = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>A</key>\n" + String(repeating: "<array>", count: 60_000)
            + String(repeating: "</array>", count: 60_000) + "\n</dict>\n</plist>\n"
        // On a secondary thread with a small stack, as a build's worker threads have.
        let errors = try onSmallStack { inputErrors { _ = try PropertyListDocument.parse(Data(deep.utf8), path: self.path) } }
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?.location, FileLocation(file: path, line: 5))
        XCTAssertTrue(errors.first?.message.hasPrefix("malformed XML property list:") == true, errors.first?.message ?? "")
    }

    func testUsageStringAsBooleanParsesWithItsType() throws {
        let document = try PropertyListDocument.parse(try Corpus.data("plist/usage-true.plist"), path: path)
        XCTAssertEqual(document["NSHealthShareUsageDescription"], .bool(true))
        XCTAssertEqual(document.location(of: "NSHealthShareUsageDescription"), FileLocation(file: path, line: 7))
        XCTAssertEqual(document.quote("NSHealthShareUsageDescription"), "<key>NSHealthShareUsageDescription</key> <true/>")
    }

    /// The real binary Info.plist of Trainer, with its trailer and offset table corrupted.
    func testCorruptBinaryPlistsAreErrorsWithoutALine() throws {
        let real = try Data(contentsOf: URL(fileURLWithPath: Repository.root + "/Site/apps/trainer/Trainer/Info.plist"))
        XCTAssertEqual(try PropertyListDocument.parse(real, path: path).format, .binary)
        for name in ["binary-table-offset-out-of-range.plist", "binary-object-offsets-out-of-range.plist", "binary-truncated-trailer.plist",
                     "binary-object-count-huge.plist", "binary-top-object-out-of-range.plist"] {
            assertErrors(try errors(name), ["App/Info.plist: error: malformed binary property list: its trailer, offset table or an object is corrupt"])
        }
    }

    /// Found by the fuzzer: one flipped byte turns Trainer's root dictionary into a set (marker 0xCB), and
    /// Foundation on Linux trapped bridging it. Refused before Foundation reads it now.
    func testBinaryPlistHoldingASetIsAnErrorNotATrap() throws {
        assertErrors(try errors("binary-set.plist"),
                     ["App/Info.plist: error: malformed binary property list: it holds a set (object 0), which an app's property list never does"])
        var uid = try Data(contentsOf: URL(fileURLWithPath: Repository.root + "/Site/apps/trainer/Trainer/Info.plist"))
        uid[8] = 0x80 // the root object becomes a one-byte keyed-archiver UID
        assertErrors(inputErrors { _ = try PropertyListDocument.parse(uid, path: path) },
                     ["App/Info.plist: error: malformed binary property list: it holds a keyed-archiver UID (object 0), which an app's property list never does"])
    }

    func testEveryTruncationOfTheBinaryPlistIsAnError() throws {
        let real = try Data(contentsOf: URL(fileURLWithPath: Repository.root + "/Site/apps/trainer/Trainer/Info.plist"))
        for length in stride(from: 1, to: real.count, by: 7) {
            let errors = inputErrors { _ = try PropertyListDocument.parse(real.prefix(length), path: path) }
            XCTAssertEqual(errors.first?.location.file, path)
        }
    }

    func testFilesOverTheSizeLimitAreRefusedBeforeReading() throws {
        let folder = Repository.temporaryPath("healthaudit-huge")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let huge = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>NSHealthShareUsageDescription</key>\n<string>"
            + String(repeating: "a", count: 10 * 1024 * 1024) + "</string>\n</dict>\n</plist>\n"
        try huge.write(toFile: folder + "/Info.plist", atomically: false, encoding: .utf8)
        let errors = inputErrors { _ = try LocalFileSystem().contents(of: folder + "/Info.plist") }
        XCTAssertEqual(InputLimits.maxFileBytes, 8 * 1024 * 1024)
        assertErrors(errors, ["\(folder)/Info.plist: error: file is \(huge.utf8.count) bytes, over the 8388608-byte limit"])
    }
}

final class StringsCorpusTests: XCTestCase {
    let path = "App/de.lproj/InfoPlist.strings"

    func testEveryEncodingReadsTheSameEntriesOnTheSameLines() throws {
        let expected: [(file: String, encoding: String)] = [
            ("utf8.strings", "UTF-8"), ("utf8-bom.strings", "UTF-8"), ("utf16le-bom.strings", "UTF-16LE"),
            ("utf16be-bom.strings", "UTF-16BE"), ("utf16le-no-bom.strings", "UTF-16LE"), ("utf16be-no-bom.strings", "UTF-16BE"),
        ]
        for (file, encoding) in expected {
            let strings = try StringsFile.parse(try Corpus.data("strings/" + file), path: path)
            XCTAssertEqual(strings.encoding, encoding, file)
            XCTAssertEqual(strings.locale, "de")
            XCTAssertEqual(strings.entries.map(\.key), ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"], file)
            XCTAssertEqual(strings.entries.map(\.line), [2, 3], file)
            XCTAssertEqual(strings.entry("NSHealthUpdateUsageDescription")?.value, "Hostile saves workouts you log — «é» ✓.", file)
            XCTAssertEqual(strings.quote(line: 2), "\"NSHealthShareUsageDescription\" = \"Hostile reads your steps and heart rate to chart your recovery.\";", file)
        }
    }

    func testNonUTF8NonUTF16IsAnError() throws {
        let errors = inputErrors { _ = try StringsFile.parse(try Corpus.data("strings/latin1.strings"), path: path) }
        assertErrors(errors, ["App/de.lproj/InfoPlist.strings:1: error: strings file is neither UTF-8 nor UTF-16 text"])
    }

    func testSyntaxErrorsNameTheirLine() throws {
        func errors(_ name: String) throws -> [InputProblem] {
            let data = try Corpus.data("strings/" + name)
            return inputErrors { _ = try StringsFile.parse(data, path: path) }
        }
        assertErrors(try errors("unterminated-string.strings"), ["App/de.lproj/InfoPlist.strings:3: error: unterminated string"])
        assertErrors(try errors("missing-semicolon.strings"), ["App/de.lproj/InfoPlist.strings:3: error: expected ';', found '\"'"])
        assertErrors(try errors("unterminated-comment.strings"), ["App/de.lproj/InfoPlist.strings:2: error: unterminated /* comment"])
    }

    func testUTF16WithAnOddTrailingByteIsNotACrash() throws {
        let data = try Corpus.data("strings/odd-utf16.strings")
        do {
            let strings = try StringsFile.parse(data, path: path)
            XCTAssertEqual(strings.path, path)
        } catch let error as InputError {
            XCTAssertEqual(error.problems.map(\.location.file), [path])
        }
    }
}

final class ConfigCorpusTests: XCTestCase {
    func errors(_ name: String) throws -> [InputProblem] {
        let text = try Corpus.text("config/" + name)
        return inputErrors { _ = try ConfigLoader().parse(text, file: "healthaudit.yml", siteDirectory: "/site") }
    }

    func testBillionLaughsAreRefusedQuickly() throws {
        for (name, place) in [("billion-laughs.yml", "2:4"), ("billion-laughs-tabs.yml", "3:6"), ("billion-laughs-fake-quote.yml", "3:10")] {
            assertErrors(try errors(name), ["healthaudit.yml:\(place): error: anchors and aliases are not supported in this config"])
        }
    }

    /// A folder that cannot be listed is named with the system's reason, never Foundation's dump.
    func testAnUnlistableFolderGivesTheSystemsReason() {
        XCTAssertThrowsError(try SystemError.names(in: "/nonexistent-healthaudit-folder")) { error in
            XCTAssertEqual("\(error)", "cannot list the folder /nonexistent-healthaudit-folder: No such file or directory")
        }
    }

    /// A `*` inside a plain scalar is text, not an alias: valid YAML is read as YAML.
    func testAnAsteriskInsideAPlainScalarIsText() throws {
        // The `&&` of a shell script in an XcodeGen project.yml (seen in a real app) is text too.
        let node = try YAMLReader.compose("title: Steps are *very* important\nnote: a & b\nscript: |\n  if [ -d x ] && [ -f y ]; then exit 0; fi\napps: []\n", file: "healthaudit.yml")
        XCTAssertEqual(node["title"]?.string, "Steps are *very* important")
        XCTAssertEqual(node["note"]?.string, "a & b")
        XCTAssertEqual(node["script"]?.string, "if [ -d x ] && [ -f y ]; then exit 0; fi\n")
        let errors = inputErrors { _ = try YAMLReader.compose("apps:\n  - &x {id: a}\n  - *x\n", file: "healthaudit.yml") }
        XCTAssertEqual(errors.map(\.location.line), [2])
    }

    /// `*very*` meant emphasis; YAML reads an alias. The error says how to write it.
    func testEmphasisLookingLikeAnAliasGetsAHint() throws {
        let errors = inputErrors { _ = try YAMLReader.compose("title: *very* important\napps: []\n", file: "healthaudit.yml") }
        XCTAssertEqual(errors.map(\.description), [#"healthaudit.yml:1:8: error: anchors and aliases are not supported in this config: `*very*` is read as an alias; quote the value to mean text ("*very* important")"#])
    }

    func testAnchorsInContentFrontMatterAreRefusedToo() throws {
        let page = "---\ntitle: Laughs\nmeta:\n  a: [\t&a [x, x]]\n  b: [\t*a, *a]\n---\nbody\n"
        let errors = inputErrors { _ = try ContentLoader.parse(Data(page.utf8), path: "p.md", sourcePath: "content/p.md") }
        XCTAssertEqual(errors.map(\.message), ["anchors and aliases are not supported in this config"])
        XCTAssertEqual(errors.first?.location.file, "content/p.md")
    }

    func testDuplicateKeys() throws {
        assertErrors(try errors("duplicate-keys.yml"), ["healthaudit.yml:6:5: error: duplicate key 'name'"])
        // Once Yams is happy, our own reader still names a duplicate app id.
        let text = "apps:\n  - id: demo\n  - id: demo\n"
        let duplicate = inputErrors { _ = try ConfigLoader().parse(text, file: "healthaudit.yml", siteDirectory: "/site") }
        assertErrors(duplicate, ["healthaudit.yml:3:5: error: apps: duplicate app id 'demo'"])
    }

    func testUnknownKeys() throws {
        let errors = try errors("unknown-keys.yml")
        XCTAssertEqual(errors.map { "\($0.location)" }, ["healthaudit.yml:2:1", "healthaudit.yml:6:5"])
        XCTAssertEqual(errors.first?.message, "config: unknown key 'colour' (known keys: apps, base_url, content, data, rules, source_url, summaries, time_zone, title, units)")
        XCTAssertTrue(errors.last?.message.hasPrefix("app: unknown key 'sauce' (known keys: build_settings, ") == true)
    }

    func testPathsThatClimbOutOrAreAbsolute() throws {
        assertErrors(try errors("dotdot-paths.yml"), [
            "healthaudit.yml:4:11: error: 'apps[].root': the path leaves the config's folder (no git repository holds it): '../outside'",
            "healthaudit.yml:5:17: error: 'apps[].info_plist': the path leaves its folder: '../../etc/passwd'",
            "healthaudit.yml:6:19: error: 'apps[].sources': the path leaves its folder: 'a/../../b'",
        ])
        assertErrors(try errors("absolute-paths.yml"), [
            "healthaudit.yml:2:10: error: 'content': absolute paths are not allowed: '/etc'",
            "healthaudit.yml:6:19: error: 'apps[].entitlements': absolute paths are not allowed: '/etc/shadow'",
            "healthaudit.yml:7:23: error: 'apps[].privacy_manifest': absolute paths are not allowed: '~/x'",
        ])
    }

    func testAppIDsThatAreNotFolderSafe() throws {
        assertErrors(try errors("bad-app-ids.yml"), [
            "healthaudit.yml:3:9: error: 'apps[].id' '../evil' must match [a-z0-9][a-z0-9-]* (it becomes a folder name)",
            "healthaudit.yml:4:9: error: 'apps[].id' 'Evil' must match [a-z0-9][a-z0-9-]* (it becomes a folder name)",
            "healthaudit.yml:5:9: error: 'apps[].id' '<script>' must match [a-z0-9][a-z0-9-]* (it becomes a folder name)",
        ])
    }

    func testWrongTypes() throws {
        assertErrors(try errors("wrong-types.yml"), [
            "healthaudit.yml:1:8: error: 'title' must be a string, found a list",
            "healthaudit.yml:2:8: error: 'units' must be one of metric | imperial, found 'furlongs'",
            "healthaudit.yml:3:7: error: 'apps' must be a list, found a mapping",
        ])
    }

    func testDeepFlowNestingHitsTheParserLimit() throws {
        let errors = try onSmallStack { try self.errors("deep-flow.yml") }
        XCTAssertEqual(errors.map { "\($0.location)" }, ["healthaudit.yml:2:8"])
        XCTAssertTrue(errors.first?.message.contains("Maximum nesting level reached") == true, errors.first?.message ?? "")
    }

    func testNonUTF8ConfigIsAnError() throws {
        let site = Repository.temporaryPath("healthaudit-config")
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: site) }
        try Data([0x74, 0x69, 0x74, 0x6C, 0x65, 0x3A, 0x20, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: site + "/healthaudit.yml"))
        let errors = inputErrors { _ = try ConfigLoader().load(siteDirectory: site) }
        assertErrors(errors, ["\(site)/healthaudit.yml:1: error: config is not UTF-8 text"])
    }
}

final class FileSystemLimitTests: XCTestCase {
    var folder: String!

    override func setUpWithError() throws {
        folder = Repository.temporaryPath("healthaudit-fs")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    func testSymlinkLoopsInASourceRootAreNotFollowed() throws {
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: folder + "/Sources/A", withIntermediateDirectories: true)
        try "let a = 1\n".write(toFile: folder + "/Sources/A/a.swift", atomically: true, encoding: .utf8)
        try fileManager.createSymbolicLink(atPath: folder + "/Sources/A/loop", withDestinationPath: "..")
        try fileManager.createSymbolicLink(atPath: folder + "/Sources/self", withDestinationPath: ".")
        try fileManager.createSymbolicLink(atPath: folder + "/Sources/x", withDestinationPath: "y")
        try fileManager.createSymbolicLink(atPath: folder + "/Sources/y", withDestinationPath: "x")
        try fileManager.createSymbolicLink(atPath: folder + "/Sources/outside.swift", withDestinationPath: "/etc/hostname")
        XCTAssertEqual(try LocalFileSystem().files(under: folder + "/Sources"), ["A/a.swift"])
    }

    func testTooManyFilesUnderARootIsAnError() throws {
        let root = folder + "/Many"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for index in 0...InputLimits.maxFilesPerRoot {
            let descriptor = open(root + "/f\(index).swift", O_WRONLY | O_CREAT, 0o644)
            XCTAssertGreaterThanOrEqual(descriptor, 0)
            close(descriptor)
        }
        assertErrors(inputErrors { _ = try LocalFileSystem().files(under: root) }, ["\(root): error: more than 20000 files under this folder"])
    }

    func testContainedPathRefusesEveryWayOut() {
        for path in ["..", "../x", "a/../../x", "./../x", "a/./../..", "/etc/passwd", "~/x", "a/b/../../../x"] {
            XCTAssertThrowsError(try ContainedPath.resolve(path, in: "/site"), path)
        }
        XCTAssertEqual(try ContainedPath.resolve("a/../b/./c", in: "/site"), "/site/b/c")
        XCTAssertEqual(try ContainedPath.resolve("a//b/", in: "/site"), "/site/a/b")
    }

    func testAFolderWhereAFileBelongsIsAnError() throws {
        assertErrors(inputErrors { _ = try LocalFileSystem().contents(of: folder) }, ["\(folder!): error: expected a file, found a folder"])
        assertErrors(inputErrors { _ = try LocalFileSystem().contents(of: folder + "/none") }, ["\(folder!)/none: error: file not found"])
    }
}

/// Runs `body` on a thread with a 512 KiB stack (a worker thread's size), so unbounded recursion shows as a crash here.
func onSmallStack<T>(_ body: @escaping () throws -> T) throws -> T {
    let box = ResultBox<T>(body)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.result = Result { try box.body() }
        done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    return try box.result!.get()
}

final class ResultBox<T>: @unchecked Sendable {
    let body: () throws -> T
    var result: Result<T, Error>?
    init(_ body: @escaping () throws -> T) { self.body = body }
}
