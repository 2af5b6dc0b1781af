import Foundation
@testable import Manifest
import XCTest

/// A small Xcode project written for these tests: one app target whose Sources phase lists the given
/// file references, a main group, and any extra objects. One object per line unless `separator` says
/// otherwise (a minified project is one line).
struct BoundsProject {
    var extraObjects: [String] = []
    var mainChildren: [String] = []
    var sources: [String] = []
    var settings = "GENERATE_INFOPLIST_FILE = YES; PRODUCT_NAME = App;"
    var projectDirPath = ""
    var separator = "\n"

    var text: String {
        var objects = [
            "P0 = {isa = PBXProject; buildConfigurationList = L0; mainGroup = G0; projectDirPath = \"\(projectDirPath)\"; targets = (T0, ); };",
            "G0 = {isa = PBXGroup; children = (\(mainChildren.map { $0 + ", " }.joined())); sourceTree = \"<group>\"; };",
            "T0 = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (S0, ); name = App; productType = \"com.apple.product-type.application\"; };",
            "S0 = {isa = PBXSourcesBuildPhase; files = (\(sources.indices.map { "B\($0), " }.joined())); };",
        ]
        objects += sources.enumerated().map { "B\($0.offset) = {isa = PBXBuildFile; fileRef = \($0.element); };" }
        objects += [
            "L0 = {isa = XCConfigurationList; buildConfigurations = (C0, ); defaultConfigurationName = Release; };",
            "C0 = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };",
            "L1 = {isa = XCConfigurationList; buildConfigurations = (C1, ); defaultConfigurationName = Release; };",
            "C1 = {isa = XCBuildConfiguration; buildSettings = {\(settings)}; name = Release; };",
        ]
        objects += extraObjects
        return "// !$*UTF8*$!\n{ archiveVersion = 1; objectVersion = 56; objects = {" + separator
            + objects.joined(separator: separator) + separator + "}; rootObject = P0; }\n"
    }

    /// Line of the first line containing `text`.
    func line(of needle: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) }! + 1
    }

    func parse() throws -> XcodeProject {
        try XcodeProject(data: Data(text.utf8), file: "App.xcodeproj/project.pbxproj", projectPath: "App.xcodeproj")
    }
}

/// Every path a load asks the file system about, to check nothing outside the app folder is touched.
final class RecordingFileSystem: FileSystem, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []
    let base = LocalFileSystem()

    var paths: [String] { lock.withLock { seen } }
    private func record(_ path: String) { lock.withLock { seen.append(path) } }

    func contents(of path: String) throws -> Data { record(path); return try base.contents(of: path) }
    func fileExists(_ path: String) -> Bool { record(path); return base.fileExists(path) }
    func isDirectory(_ path: String) -> Bool { record(path); return base.isDirectory(path) }
    func files(under directory: String) throws -> [String] { record(directory); return try base.files(under: directory) }
    func entries(in directory: String) throws -> [FolderEntry] { record(directory); return try base.entries(in: directory) }
}

// MARK: 1. The project file parser is linear

final class XcodeParserBoundsTests: XCTestCase {
    /// A minified project: thousands of objects on one 1.5 MB line. Parsing used to recompute the
    /// column from the start of the line for every value (an 81 KB line took 104 s).
    func testAOneLineProjectOfOneAndAHalfMegabytesParsesQuickly() throws {
        let count = 6_000
        var project = BoundsProject(separator: " ")
        project.extraObjects = (0..<count).map { "F\($0) = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = \"File\($0).swift\"; sourceTree = \"<group>\"; };" }
        project.mainChildren = (0..<count).map { "F\($0)" }
        project.sources = (0..<count).map { "F\($0)" }
        let text = project.text
        XCTAssertGreaterThan(text.utf8.count, 1_000_000)
        XCTAssertEqual(text.split(separator: "\n").count, 2, "all objects on one line")

        let parsed = try project.parse()
        let files = parsed.files(of: parsed.targets[0], phase: "PBXSourcesBuildPhase")
        XCTAssertEqual(files.count, count)
        XCTAssertEqual(files.last?.path, "File\(count - 1).swift")
        XCTAssertEqual(files.last?.line, 2)
    }

    func testErrorsOnALongLineNameTheirLineAndColumn() {
        // Column counts characters: the é before the error is one column, not two.
        let before = "{ " + (0..<100_000).map { "k\($0) = v; " }.joined() + "é = x; bad = "
        let text = "// !$*UTF8*$!\n" + before + "; }"
        var error: InputError?
        XCTAssertThrowsError(try OpenStepPlistParser.parse(Data(text.utf8), file: "p.pbxproj")) { error = $0 as? InputError }
        XCTAssertEqual(error?.problems.first?.location, FileLocation(file: "p.pbxproj", line: 2, column: before.count + 1))
        XCTAssertEqual(error?.problems.first?.message, "malformed project file: unexpected character ';'")
    }

    func testErrorsAfterManyLinesKeepTheirLine() {
        let text = "{\n" + (0..<5_000).map { "a\($0) = b;\n" }.joined() + "\t\"c\" = (x, y;\n}\n"
        let column = "\t\"c\" = (x, y".count + 1
        XCTAssertThrowsError(try OpenStepPlistParser.parse(Data(text.utf8), file: "p.pbxproj")) { error in
            XCTAssertEqual((error as? InputError)?.problems.first?.description, "p.pbxproj:5002:\(column): error: malformed project file: expected ',' or ')' in a list")
        }
    }

    /// The quote of a setting on a minified project's one line is the setting, not the megabyte line.
    func testSettingsOnAOneLineProjectQuoteThemselves() throws {
        let builder = SiteBuilder()
        defer { builder.remove() }
        var project = BoundsProject(separator: " ")
        project.settings = (0..<3_000).map { "SETTING_\($0) = \"value \($0)\";" }.joined(separator: " ")
            + " GENERATE_INFOPLIST_FILE = YES; PRODUCT_NAME = App; INFOPLIST_KEY_NSHealthShareUsageDescription = \"Reads steps.\";"
        try builder.write(["App.xcodeproj/project.pbxproj": project.text])
        let manifest = try builder.load("    name: App\n    root: apps/stride\n    project: App.xcodeproj\n")
        let origin = try XCTUnwrap(manifest.config.buildSettingOrigins["SETTING_2999"])
        XCTAssertEqual(origin.quote, "SETTING_2999 = \"value 2999\";")
        XCTAssertEqual(origin.location, FileLocation(file: "apps/stride/App.xcodeproj/project.pbxproj", line: 2))
    }
}

// MARK: 2. #include is bounded

final class XCConfigIncludeBoundsTests: XCTestCase {
    /// Reads from a dictionary of files, counting reads.
    final class Files: @unchecked Sendable {
        var texts: [String: String]
        var reads: [String: Int] = [:]
        init(_ texts: [String: String]) { self.texts = texts }
        func read(_ path: String) -> String? { reads[path, default: 0] += 1; return texts[path] }
    }

    func parse(_ files: Files, _ path: String, notes: inout [String]) throws -> [XCConfigFile.Line] {
        try XCConfigFile.parse(path: path, display: { "apps/a/" + $0 }, read: files.read, notes: &notes)
    }

    func error(_ files: Files, _ path: String) -> InputError? {
        var notes: [String] = []
        do { _ = try parse(files, path, notes: &notes); return nil } catch { return error as? InputError }
    }

    /// The reported case: a file including itself five times read 1.9 GB. It is a cycle.
    func testAFileIncludingItselfIsACycleAtItsIncludeLine() {
        let files = Files(["Config/Self.xcconfig": "A = 1\n" + String(repeating: "#include \"Self.xcconfig\"\n", count: 5)])
        XCTAssertEqual(error(files, "Config/Self.xcconfig")?.description,
                       "apps/a/Config/Self.xcconfig:2: error: #include cycle: apps/a/Config/Self.xcconfig → apps/a/Config/Self.xcconfig")
        XCTAssertEqual(files.reads["Config/Self.xcconfig"], 1)
    }

    func testALongerCycleIsNamedInFull() {
        let files = Files([
            "A.xcconfig": "#include \"B.xcconfig\"\n",
            "B.xcconfig": "X = 1\n\n#include \"Sub/C.xcconfig\"\n",
            "Sub/C.xcconfig": "#include \"../A.xcconfig\"\n",
        ])
        XCTAssertEqual(error(files, "A.xcconfig")?.description,
                       "apps/a/Sub/C.xcconfig:1: error: #include cycle: apps/a/A.xcconfig → apps/a/B.xcconfig → apps/a/Sub/C.xcconfig → apps/a/A.xcconfig")
    }

    /// Each level includes the next four times: 4^15 expansions before, fifteen reads now.
    func testAFileIncludedManyTimesIsReadOnce() throws {
        var texts: [String: String] = [:]
        for level in 0..<15 {
            texts["L\(level).xcconfig"] = "V\(level) = \(level)\n" + (level < 14 ? String(repeating: "#include \"L\(level + 1).xcconfig\"\n", count: 4) : "")
        }
        let files = Files(texts)
        var notes: [String] = []
        let lines = try parse(files, "L0.xcconfig", notes: &notes)
        XCTAssertEqual(files.reads.count, 15)
        XCTAssertTrue(files.reads.values.allSatisfy { $0 == 1 }, "\(files.reads)")
        XCTAssertEqual(Set(lines.map(\.key)), Set((0..<15).map { "V\($0)" }))
        XCTAssertEqual(lines.count, 15)
        XCTAssertEqual(notes, [])
    }

    /// Xcode includes textually and the last assignment wins. Expanding a file once, at its last
    /// `#include`, must give the same winner as expanding it at every `#include`.
    func testAFileIncludedTwiceKeepsXcodesOrder() throws {
        let files = Files([
            "Base.xcconfig": "X = base\n#include \"B.xcconfig\"\n#include \"C.xcconfig\"\nZ = base\n",
            "B.xcconfig": "#include \"D.xcconfig\"\nX = b\nY = b\n",
            "C.xcconfig": "#include \"D.xcconfig\"\n",
            "D.xcconfig": "X = d\nZ = d\n",
        ])
        var notes: [String] = []
        let lines = try parse(files, "Base.xcconfig", notes: &notes)
        var level = SettingLevel(name: "xcconfig")
        for line in lines { level.add(line.key, line.value, origin: nil) }
        // Textually: X = base, X = d, Z = d, X = b, Y = b, X = d, Z = d, Z = base.
        XCTAssertEqual(level.settings["X"]?.value, "d")
        XCTAssertEqual(level.settings["Y"]?.value, "b")
        XCTAssertEqual(level.settings["Z"]?.value, "base")
        XCTAssertEqual(lines.map { "\($0.file.dropFirst(7)):\($0.line)" },
                       ["Base.xcconfig:1", "B.xcconfig:2", "B.xcconfig:3", "D.xcconfig:1", "D.xcconfig:2", "Base.xcconfig:4"])
        XCTAssertEqual(files.reads["D.xcconfig"], 1)
    }

    func testIncludesNestingDeeperThanSixteenFilesAreAnError() throws {
        var texts: [String: String] = [:]
        for level in 0..<20 { texts["N\(level).xcconfig"] = "V = \(level)\n#include \"N\(level + 1).xcconfig\"\n" }
        let described = error(Files(texts), "N0.xcconfig")?.description ?? ""
        XCTAssertTrue(described.hasPrefix("apps/a/N15.xcconfig:2: error: #include nests deeper than 16 files (apps/a/N0.xcconfig → "), described)
        // Sixteen files are fine.
        var notes: [String] = []
        texts["N15.xcconfig"] = "V = 15\n"
        XCTAssertEqual(try parse(Files(texts), "N0.xcconfig", notes: &notes).last?.value, "15")
    }

    func testIncludingMoreThan256FilesIsAnError() {
        var texts = ["Root.xcconfig": (0..<300).map { "#include \"F\($0).xcconfig\"" }.joined(separator: "\n")]
        for index in 0..<300 { texts["F\(index).xcconfig"] = "V\(index) = 1\n" }
        XCTAssertEqual(error(Files(texts), "Root.xcconfig")?.description,
                       "apps/a/Root.xcconfig:256: error: #include of apps/a/F255.xcconfig would read more than 256 configuration files")
    }

    func testIncludingMoreThanEightMebibytesIsAnError() {
        let big = "V = " + String(repeating: "x", count: 3 * 1024 * 1024) + "\n"
        let files = Files(["Root.xcconfig": "#include \"A.xcconfig\"\n#include \"B.xcconfig\"\n#include \"C.xcconfig\"\n",
                           "A.xcconfig": big, "B.xcconfig": big, "C.xcconfig": big])
        XCTAssertEqual(error(files, "Root.xcconfig")?.description,
                       "apps/a/Root.xcconfig:3: error: #include of apps/a/C.xcconfig would read more than 8388608 bytes of configuration files")
    }

    func testOptionalIncludesAndPathsOutsideTheApp() throws {
        let files = Files([
            "Config/Base.xcconfig": """
            #include? "Local.xcconfig"
            #include "Missing.xcconfig"
            #include "../Shared.xcconfig"
            #include "../../Outside.xcconfig"
            #include "/etc/Absolute.xcconfig"
            #include Unquoted.xcconfig
            A = 1
            """,
            "Shared.xcconfig": "S = shared\n",
        ])
        var notes: [String] = []
        let lines = try parse(files, "Config/Base.xcconfig", notes: &notes)
        XCTAssertEqual(lines.map(\.key), ["S", "A"])
        XCTAssertEqual(notes.sorted(), [
            "apps/a/Config/Base.xcconfig:2: #include \"apps/a/Config/Missing.xcconfig\" not found or unreadable",
            "apps/a/Config/Base.xcconfig:4: #include \"../../Outside.xcconfig\" points outside the app folder; not followed",
            "apps/a/Config/Base.xcconfig:5: #include \"/etc/Absolute.xcconfig\" points outside the app folder; not followed",
            "apps/a/Config/Base.xcconfig:6: #include without a quoted path; ignored",
        ])
        XCTAssertNil(files.reads["Outside.xcconfig"])
    }

    /// Through discovery, the cycle is an input error of the app citing the `.xcconfig` line.
    func testACycleThroughDiscoveryIsAnInputError() throws {
        let builder = SiteBuilder()
        defer { builder.remove() }
        var project = BoundsProject()
        project.extraObjects = ["X0 = {isa = PBXFileReference; path = Config/Base.xcconfig; sourceTree = SOURCE_ROOT; };"]
        project.mainChildren = ["X0"]
        let text = project.text.replacingOccurrences(of: "C1 = {isa = XCBuildConfiguration;", with: "C1 = {isa = XCBuildConfiguration; baseConfigurationReference = X0;")
        try builder.write(["App.xcodeproj/project.pbxproj": text,
                           "Config/Base.xcconfig": "A = 1\n#include \"Other.xcconfig\"\n",
                           "Config/Other.xcconfig": "#include \"Base.xcconfig\"\n"])
        let errors = builder.errors("    name: App\n    root: apps/stride\n    project: App.xcodeproj\n")
        XCTAssertEqual(errors.map(\.description),
                       ["apps/stride/Config/Other.xcconfig:1: error: #include cycle: apps/stride/Config/Base.xcconfig → apps/stride/Config/Other.xcconfig → apps/stride/Config/Base.xcconfig"])
    }
}

// MARK: 3. Build settings expand with memoisation, cycle detection and a length cap

final class BuildSettingBoundsTests: XCTestCase {
    func resolver(_ settings: [(String, String)], defaults: [(String, String)] = []) -> BuildSettingResolver {
        var level = SettingLevel(name: "target")
        for (key, value) in settings { level.add(key, value, origin: nil) }
        var lenient = SettingLevel(name: "Xcode default", lenient: true)
        for (key, value) in defaults { lenient.add(key, value, origin: nil) }
        return BuildSettingResolver(levels: [level, lenient])
    }

    /// `A2 = $(A1)$(A1)` … `A40`: each setting is expanded once, and values past 64 KiB stay as written.
    func testChainedDoublingExpandsOnceAndStopsAt64KiB() {
        var settings = [("A1", "ab")]
        for index in 2...40 { settings.append(("A\(index)", "$(A\(index - 1))${A\(index - 1)}")) }
        var resolver = resolver(settings)
        let (values, _) = resolver.resolveAll()
        XCTAssertEqual(values["A10"]?.count, 1_024)
        XCTAssertEqual(values["A16"]?.count, 65_536)
        XCTAssertEqual(values["A17"], "$(A16)${A16}", "too long: kept as written")
        XCTAssertEqual(resolver.problems["A17"], "expands to more than 65536 bytes; left unexpanded")
        XCTAssertEqual(resolver.problems["A18"], "uses $(A17), which expands to more than 65536 bytes; left unexpanded")
        XCTAssertEqual(values["A40"], "$(A39)${A39}")
        XCTAssertNil(resolver.problems["A16"])
    }

    func testACycleIsLeftUnexpandedWithAProblemForEachMember() {
        var resolver = resolver([("A", "x $(B)"), ("B", "$(C)"), ("C", "$(A)"), ("D", "$(A)")])
        let (values, _) = resolver.resolveAll()
        XCTAssertEqual(values["A"], "x $(A)")
        XCTAssertEqual(values["D"], "x $(A)")
        XCTAssertEqual(resolver.problems["A"], "is part of a reference cycle ($(A) → $(B) → $(C) → $(A)); left unexpanded")
        XCTAssertEqual(resolver.problems["B"], resolver.problems["A"])
        XCTAssertEqual(resolver.problems["C"], resolver.problems["A"])
        XCTAssertNil(resolver.problems["D"])
        XCTAssertTrue(resolver.unresolved.isEmpty, "a cycle is not an undefined variable")
    }

    func testASelfReferenceThroughInheritedIsACycleToo() {
        var target = SettingLevel(name: "target")
        target.add("FLAGS", "$(inherited) -b", origin: nil)
        var project = SettingLevel(name: "project")
        project.add("FLAGS", "-a $(FLAGS)", origin: nil)
        var resolver = BuildSettingResolver(levels: [target, project])
        XCTAssertEqual(resolver.value(of: "FLAGS"), "-a $(FLAGS) -b")
        XCTAssertNotNil(resolver.problems["FLAGS"])
    }

    func testReferenceChainsDeeperThan64AreLeftUnexpanded() {
        var settings = [("S0", "end")]
        for index in 1...100 { settings.append(("S\(index)", "$(S\(index - 1))")) }
        var resolver = resolver(settings)
        let (values, _) = resolver.resolveAll()
        XCTAssertEqual(values["S0"], "end")
        XCTAssertEqual(values["S10"], "end")
        XCTAssertEqual(values.count, 101)
        XCTAssertEqual(resolver.problems.isEmpty, false)
        XCTAssertTrue(resolver.problems.values.allSatisfy { $0 == "refers through more than 64 settings; left unexpanded" }, "\(resolver.problems)")
    }

    /// Every `$(` unclosed: finding each one's `)` used to search to the end of the value.
    func testUnclosedReferencesAreLinear() {
        let value = String(repeating: "$(", count: 200_000)
        var resolver = resolver([("A", value), ("B", "$(A)")])
        let (values, _) = resolver.resolveAll()
        XCTAssertEqual(values["A"], value)
        let expansion = BuildVariables.expand(String(repeating: "$(", count: 200_000) + "x", settings: [:])
        XCTAssertEqual(expansion.text.count, 400_001)
    }

    func testReferenceFormsAndModifiers() {
        var resolver = resolver([
            ("NAME", "My App"), ("BRACES", "${NAME}"), ("BARE", "$NAME-x"), ("RFC", "com.example.$(PRODUCT_NAME:rfc1034identifier)"),
            ("C99", "$(TARGET_NAME:c99extidentifier)"), ("UNKNOWN", "$(NAME:quote:upper)"), ("DEFAULTED", "$(MISSING:default=none)"),
            ("NESTED", "$(KEY_$(SUFFIX))"), ("SUFFIX", "ONE"), ("KEY_ONE", "nested"), ("UNDEFINED", "a $(NOPE) b"),
            ("PRODUCT_NAME", "$(TARGET_NAME)"),
        ], defaults: [("TARGET_NAME", "9 Lives+"), ("FLAGS", "$(UNSET_IN_DEFAULTS)x")])
        let (values, _) = resolver.resolveAll()
        XCTAssertEqual(values["BRACES"], "My App")
        XCTAssertEqual(values["BARE"], "My App-x")
        XCTAssertEqual(values["RFC"], "com.example.9-Lives-")
        XCTAssertEqual(values["C99"], "_9_Lives_")
        XCTAssertEqual(values["UNKNOWN"], "MY APP", "an unknown modifier is dropped without a warning")
        XCTAssertEqual(values["DEFAULTED"], "none")
        XCTAssertEqual(values["NESTED"], "nested")
        XCTAssertEqual(values["UNDEFINED"], "a $(NOPE) b")
        XCTAssertEqual(values["FLAGS"], "x", "Xcode's defaults expand undefined variables to nothing")
        XCTAssertEqual(resolver.unresolved, ["UNDEFINED": ["NOPE"]])
        XCTAssertTrue(resolver.problems.isEmpty)
    }

    /// Through discovery, a cycle is a note naming the setting and its line.
    func testACycleThroughDiscoveryIsANoteAtTheSettingsLine() throws {
        let builder = SiteBuilder()
        defer { builder.remove() }
        var project = BoundsProject()
        project.settings = "GENERATE_INFOPLIST_FILE = YES;\n PRODUCT_NAME = \"$(BRAND)\";\n BRAND = \"$(PRODUCT_NAME) Pro\";\n"
        try builder.write(["App.xcodeproj/project.pbxproj": project.text])
        let manifest = try builder.load("    name: App\n    root: apps/stride\n    project: App.xcodeproj\n")
        let note = try XCTUnwrap(manifest.discovery.first { $0.text.hasPrefix("PRODUCT_NAME is part of a reference cycle") }, manifest.discovery.map(\.text).joined(separator: "\n"))
        XCTAssertTrue(note.isNote)
        XCTAssertEqual(note.location, FileLocation(file: "apps/stride/App.xcodeproj/project.pbxproj", line: project.line(of: "PRODUCT_NAME = ")))
        XCTAssertEqual(manifest.config.buildSettings["PRODUCT_NAME"], "$(BRAND)", "left as written where the cycle closes")
    }
}

// MARK: 5. A file in two groups resolves the same way every time

final class XcodeGroupOrderTests: XCTestCase {
    /// `Shared.swift` is listed by group A (path `A`) and by group C (path `B/C`, inside B). The main
    /// group lists B before A, and the project file lists A first: the documented choice is the first
    /// group in a pre-order walk from the main group in `children` order, so `B/C/Shared.swift`.
    static var twoParents: BoundsProject {
        var project = BoundsProject()
        project.extraObjects = [
            "GA = {isa = PBXGroup; children = (FS, ); path = A; sourceTree = \"<group>\"; };",
            "GB = {isa = PBXGroup; children = (GC, ); path = B; sourceTree = \"<group>\"; };",
            "GC = {isa = PBXGroup; children = (FS, FO, ); path = C; sourceTree = \"<group>\"; };",
            "FS = {isa = PBXFileReference; path = Shared.swift; sourceTree = \"<group>\"; };",
            "FO = {isa = PBXFileReference; path = Own.swift; sourceTree = \"<group>\"; };",
            "GX = {isa = PBXGroup; children = (FS, ); name = Orphan; path = Orphan; sourceTree = \"<group>\"; };",
        ]
        project.mainChildren = ["GB", "GA"]
        project.sources = ["FS", "FO"]
        return project
    }

    func testAFileInTwoGroupsResolvesThroughTheFirstInTheGroupTree() throws {
        for _ in 0..<20 {
            let project = try Self.twoParents.parse()
            let files = project.files(of: project.targets[0], phase: "PBXSourcesBuildPhase")
            XCTAssertEqual(files.map(\.path), ["B/C/Shared.swift", "B/C/Own.swift"])
            XCTAssertEqual(files[0].otherPaths, ["A/Shared.swift", "Orphan/Shared.swift"])
            XCTAssertEqual(files[1].otherPaths, [])
        }
    }

    /// The walk is an ordered array built from `children` lists, not a dictionary's order.
    func testTheGroupWalkIsPreOrderFromTheMainGroupThenOrphansInFileOrder() throws {
        let text = Self.twoParents.text
        let root = try OpenStepPlistParser.parse(Data(text.utf8), file: "p")
        let entries = try XCTUnwrap(root["objects"]?.entries)
        let objects = Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
        let tree = GroupTree(objects: objects, fileOrder: entries.map(\.key), mainGroup: "G0")
        XCTAssertEqual(tree.order, ["G0", "GB", "GC", "FS", "FO", "GA", "GX"])
        XCTAssertEqual(tree.parents, ["GB": "G0", "GA": "G0", "GC": "GB", "FS": "GC", "FO": "GC"])
        XCTAssertEqual(tree.otherParents, ["FS": ["GA", "GX"]])
    }

    func testDiscoveryNotesThePathsNotChosen() throws {
        let builder = SiteBuilder()
        defer { builder.remove() }
        try builder.write(["App.xcodeproj/project.pbxproj": Self.twoParents.text, "B/C/Shared.swift": "import HealthKit\n",
                           "B/C/Own.swift": "\n", "A/Shared.swift": "\n"])
        for _ in 0..<3 {
            let manifest = try builder.load("    name: App\n    root: apps/stride\n    project: App.xcodeproj\n")
            XCTAssertEqual(manifest.config.sources, ["B/C/Shared.swift", "B/C/Own.swift"])
            let note = try XCTUnwrap(manifest.discovery.first { $0.text.hasPrefix("Shared.swift is listed in several groups") })
            XCTAssertEqual(note.text, "Shared.swift is listed in several groups; read as apps/stride/B/C/Shared.swift (the first in the group tree), not apps/stride/A/Shared.swift, apps/stride/Orphan/Shared.swift")
            XCTAssertEqual(note.location, FileLocation(file: "apps/stride/App.xcodeproj/project.pbxproj", line: Self.twoParents.line(of: "B0 = {")))
        }
    }

    func testTheGroupNamedLikeTheTargetIsTheFirstInTheTree() throws {
        var project = BoundsProject()
        project.extraObjects = [
            "GZ = {isa = PBXGroup; children = (); path = App; sourceTree = \"<group>\"; };",
            "P2 = {isa = PBXGroup; children = (GZ, ); path = Second; sourceTree = \"<group>\"; };",
            "GY = {isa = PBXGroup; children = (); path = App; sourceTree = \"<group>\"; };",
            "P1 = {isa = PBXGroup; children = (GY, ); path = First; sourceTree = \"<group>\"; };",
        ]
        project.mainChildren = ["P1", "P2"]
        for _ in 0..<10 {
            let parsed = try project.parse()
            XCTAssertEqual(parsed.folder(of: parsed.targets[0]), "First/App")
        }
    }
}

// MARK: 6. Group paths never leave the app folder

final class XcodeGroupPathBoundsTests: XCTestCase {
    static var outward: BoundsProject {
        var project = BoundsProject()
        let refs: [(String, String)] = [
            ("R1", "path = \"../../etc/Up.swift\"; sourceTree = \"<group>\";"),
            ("R2", "path = /etc/Absolute.swift; sourceTree = \"<absolute>\";"),
            ("R3", "path = /etc/Slash.swift; sourceTree = \"<group>\";"),
            ("R4", "path = \"../Root.swift\"; sourceTree = SOURCE_ROOT;"),
            ("R5", "path = System/Library/Sdk.swift; sourceTree = SDKROOT;"),
            ("R6", "path = Built.swift; sourceTree = BUILT_PRODUCTS_DIR;"),
            ("R7", "path = Dev.swift; sourceTree = DEVELOPER_DIR;"),
            ("R8", "path = Custom.swift; sourceTree = MY_SHARED_ROOT;"),
            ("R9", "path = In.swift; sourceTree = \"<group>\";"),
            ("R10", "path = \"Deep/../../../Climb.swift\"; sourceTree = \"<group>\";"),
            ("R11", "path = \"~/Home.swift\"; sourceTree = SOURCE_ROOT;"),
        ]
        project.extraObjects = refs.map { "\($0.0) = {isa = PBXFileReference; \($0.1) };" } + [
            "GU = {isa = PBXGroup; children = (R9, ); path = \"../..\"; sourceTree = \"<group>\"; };",
            "GI = {isa = PBXGroup; children = (R10, ); path = Inner; sourceTree = \"<group>\"; };",
        ]
        project.mainChildren = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "GU", "GI", "R11"]
        project.sources = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11"]
        return project
    }

    func testEverySourceTreeAndClimbingPathStaysInsideOrIsRefused() throws {
        let project = try Self.outward.parse()
        let files = project.files(of: project.targets[0], phase: "PBXSourcesBuildPhase")
        XCTAssertEqual(files.map(\.path), Array(repeating: nil, count: 11))
        XCTAssertEqual(files.map { $0.reason ?? "" }, [
            "'../../etc/Up.swift' leaves the app folder",
            "absolute path '/etc/Absolute.swift'",
            "absolute path '/etc/Slash.swift'",
            "'../Root.swift' leaves the app folder",
            "relative to SDKROOT, outside the project",
            "relative to BUILT_PRODUCTS_DIR, outside the project",
            "relative to DEVELOPER_DIR, outside the project",
            "relative to MY_SHARED_ROOT, outside the project",
            "'../..' leaves the app folder",
            "'Inner/Deep/../../../Climb.swift' leaves the app folder",
            "'~/Home.swift' leaves the app folder",
        ])
    }

    func testAProjectDirPathOutsideTheAppMovesNothingOutside() throws {
        for dirPath in ["/etc", "..", "../..", "sub/../.."] {
            var project = BoundsProject()
            project.projectDirPath = dirPath
            project.extraObjects = ["R1 = {isa = PBXFileReference; path = A.swift; sourceTree = \"<group>\"; };",
                                    "R2 = {isa = PBXFileReference; path = B.swift; sourceTree = SOURCE_ROOT; };"]
            project.mainChildren = ["R1", "R2"]
            project.sources = ["R1", "R2"]
            let parsed = try project.parse()
            let files = parsed.files(of: parsed.targets[0], phase: "PBXSourcesBuildPhase")
            XCTAssertEqual(files.map(\.path), [nil, nil], dirPath)
        }
    }

    /// Through discovery: each refused file is a note citing its line of the project file, and the file
    /// system is never asked about a path outside the app folder.
    func testDiscoveryNotesEachRefusedFileAndReadsNothingOutside() throws {
        let builder = SiteBuilder()
        defer { builder.remove() }
        let project = Self.outward
        try builder.write(["App.xcodeproj/project.pbxproj": project.text])
        try ("title: T\napps:\n  - id: stride\n    name: App\n    root: apps/stride\n    project: App.xcodeproj\n")
            .write(toFile: builder.site + "/healthaudit.yml", atomically: true, encoding: .utf8)
        let config = try ConfigLoader().load(siteDirectory: builder.site)
        let recording = RecordingFileSystem()
        let manifest = try ManifestLoader(siteDirectory: builder.site, fileSystem: recording).load(config.apps[0])
        let notes = manifest.discovery.filter { $0.isNote && $0.text.contains("in the Sources phase of App is not read") }
        XCTAssertEqual(notes.count, 11, manifest.discovery.map(\.text).joined(separator: "\n"))
        XCTAssertEqual(notes.first?.text, "Up.swift in the Sources phase of App is not read: '../../etc/Up.swift' leaves the app folder")
        XCTAssertEqual(notes.map { $0.location?.line }, (0..<11).map { project.line(of: "B\($0) = {") })
        let app = (builder.site as NSString).standardizingPath + "/apps/stride"
        for path in recording.paths {
            let standard = (path as NSString).standardizingPath
            XCTAssertTrue(standard == app || standard.hasPrefix(app + "/") || standard.hasPrefix((builder.site as NSString).standardizingPath + "/"), path)
            XCTAssertFalse(standard.hasPrefix("/etc"), path)
        }
    }
}
