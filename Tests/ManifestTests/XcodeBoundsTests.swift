import Foundation
@testable import Manifest
import XCTest

/// Project files of a few kilobytes that used to take minutes or gigabytes: one very long line, an
/// include that fans out, doubling setting chains, a binary plist whose objects share references —
/// and a file listed in two groups, which resolved by dictionary order.
final class XcodeBoundsTests: XCTestCase {
    /// 40,000 objects on one line (about 2.6 MB): linear now; the error after them has the right column.
    func testOneLongLineParsesLinearlyWithExactColumns() throws {
        let objects = (0..<40_000).map { "K\($0) = {isa = PBXFileReference; path = \"é\($0).swift\";};" }.joined(separator: " ")
        let text = "{objects = {" + objects + "}; rootObject = X; broken"
        let started = Date()
        XCTAssertThrowsError(try OpenStepPlistParser.parse(Data(text.utf8), file: "project.pbxproj")) { error in
            let location = (error as? InputError)?.location
            XCTAssertEqual(location?.line, 1)
            // Columns count characters: the 40,000 `é` are one column each, not two.
            XCTAssertEqual(location?.column, text.count + 1)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "generous guard; the old parser needed hours")
    }

    func testAnIncludeCycleIsANoteNamingTheCycle() {
        let files = ["A.xcconfig": "#include \"B.xcconfig\"\nX = 1\n", "B.xcconfig": "#include \"A.xcconfig\"\nY = 2\n"]
        var notes: [String] = []
        let lines = XCConfigFile.parse(path: "A.xcconfig", display: { $0 }, read: { files[$0] }, notes: &notes)
        XCTAssertEqual(lines.map(\.key), ["Y", "X"])
        XCTAssertEqual(notes, ["B.xcconfig: #include cycle A.xcconfig → B.xcconfig → A.xcconfig; not followed"])
    }

    /// Each file includes the next twice: 2^30 reads before; each file is read once now.
    func testIncludeFanOutReadsEachFileOnce() {
        var files: [String: String] = [:]
        for level in 0..<30 { files["L\(level).xcconfig"] = "#include \"L\(level + 1).xcconfig\"\n#include \"L\(level + 1).xcconfig\"\nK\(level) = \(level)\n" }
        files["L30.xcconfig"] = "LAST = yes\n"
        var reads = 0
        var notes: [String] = []
        let lines = XCConfigFile.parse(path: "L0.xcconfig", display: { $0 }, read: { reads += 1; return files[$0] }, notes: &notes)
        XCTAssertEqual(reads, 16, "the include depth limit stops the chain at 16 files")
        XCTAssertEqual(notes, ["L16.xcconfig: #include nests deeper than 16 files; not followed further"])
        XCTAssertEqual(lines.count, 16)
    }

    /// `A2 = $(A1)$(A1)` … `A40`: 2^40 expansions before; memoised and cut at 64 KiB now.
    func testDoublingSettingChainsAreMemoisedAndCut() {
        var level = SettingLevel(name: "target")
        level.add("A0", "ab", origin: nil)
        for index in 1...40 { level.add("A\(index)", "$(A\(index - 1))$(A\(index - 1))", origin: nil) }
        var resolver = BuildSettingResolver(levels: [level])
        let value = resolver.value(of: "A40")
        XCTAssertEqual(value?.utf8.count, BuildSettingResolver.maxExpandedLength)
        XCTAssertEqual(resolver.value(of: "A10")?.utf8.count, 2048)
    }

    func testCyclicSettingsStayUnresolvedWithoutHanging() {
        var level = SettingLevel(name: "target")
        level.add("A", "$(B)", origin: nil)
        level.add("B", "$(A)", origin: nil)
        var resolver = BuildSettingResolver(levels: [level])
        let values = resolver.resolveAll().values
        XCTAssertEqual(values["A"], "$(A)")
        XCTAssertEqual(values["B"], "$(A)")
    }

    /// A binary plist where each array holds the previous one twice, 40 levels: 2^40 values if expanded.
    func testSharedReferencesInABinaryPlistAreRefusedBeforeExpansion() throws {
        let data = BinaryPlist.chain(levels: 40)
        XCTAssertLessThan(data.count, 400)
        XCTAssertThrowsError(try PropertyListDocument.parse(data, path: "Info.plist")) { error in
            XCTAssertEqual((error as? InputError)?.message,
                           "malformed binary property list: its objects refer to each other so often that it expands to more than 200000 values")
        }
        XCTAssertThrowsError(try PropertyListDocument.parse(BinaryPlist.cycle(), path: "Info.plist")) { error in
            XCTAssertEqual((error as? InputError)?.message, "malformed binary property list: object 1 contains itself")
        }
        // A small shared structure is fine.
        XCTAssertNoThrow(try PropertyListDocument.parse(BinaryPlist.chain(levels: 3), path: "Info.plist"))
    }

    /// The same file reference in two groups resolves through the first group met from the main group.
    func testAFileInTwoGroupsResolvesTheSameWayEveryTime() throws {
        let pbxproj = """
        { objects = {
            ROOT = {isa = PBXProject; mainGroup = MAIN; targets = (); buildConfigurationList = LIST;};
            LIST = {isa = XCConfigurationList; buildConfigurations = ();};
            MAIN = {isa = PBXGroup; children = (ZGROUP, AGROUP); sourceTree = "<group>";};
            AGROUP = {isa = PBXGroup; path = Second; children = (FILE); sourceTree = "<group>";};
            ZGROUP = {isa = PBXGroup; path = First; children = (FILE); sourceTree = "<group>";};
            FILE = {isa = PBXFileReference; path = Health.swift; sourceTree = "<group>";};
        }; rootObject = ROOT; }
        """
        for _ in 0..<20 {
            let project = try XcodeProject(data: Data(pbxproj.utf8), file: "App.xcodeproj/project.pbxproj", projectPath: "App.xcodeproj")
            XCTAssertEqual(project.resolve("FILE").path, "First/Health.swift", "the main group lists ZGROUP first")
        }
    }
}

/// Tiny `bplist00` writer for the tests: one-byte offsets and references.
enum BinaryPlist {
    /// Object 0: the root dict {"k": object n}; object 1: the string "k"; object 2: an empty array;
    /// each further object: an array holding the previous one twice.
    static func chain(levels: Int) -> Data {
        var objects: [[UInt8]] = [[0xD1, 1, UInt8(levels + 1)], [0x51, UInt8(ascii: "k")], [0xA0]]
        for index in 0..<levels { objects.append([0xA2, UInt8(index + 2), UInt8(index + 2)]) }
        return write(objects)
    }

    /// Object 1 is an array that contains itself.
    static func cycle() -> Data {
        write([[0xD1, 2, 1], [0xA1, 1], [0x51, UInt8(ascii: "k")]])
    }

    static func write(_ objects: [[UInt8]]) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects { offsets.append(bytes.count); bytes += object }
        let table = bytes.count
        bytes += offsets.map { UInt8($0) }
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        for value in [objects.count, 0, table] { bytes += (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        return Data(bytes)
    }
}
