@testable import Manifest
import XCTest
import TestSupport

final class ManifestFileTests: XCTestCase {
    func data(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: Repository.site + "/" + path)) }

    func testXMLPlistKnowsTheLineOfEveryKey() throws {
        let path = "apps/veloride/VeloRide/Info.plist"
        let plist = try PropertyListDocument.parse(try data(path), path: path)
        XCTAssertEqual(plist.format, .xml)
        let lines = String(decoding: try data(path), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for key in ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription", "UIRequiredDeviceCapabilities"] {
            let line = try XCTUnwrap(plist.keyLines[key], key)
            XCTAssertTrue(lines[line - 1].contains("<key>\(key)</key>"), "\(key) at \(line): \(lines[line - 1])")
        }
        XCTAssertTrue(lines[plist.rootLine - 1].contains("<dict>"))
        XCTAssertNotNil(plist["NSHealthShareUsageDescription"]?.string)
    }

    func testNestedKeysGetDottedPaths() throws {
        let path = "apps/veloride/VeloRideWidget/Info.plist"
        let plist = try PropertyListDocument.parse(try data(path), path: path)
        XCTAssertNotNil(plist.keyLines["NSExtension.NSExtensionPointIdentifier"])
        XCTAssertEqual(plist["NSExtension"]?.dictionary?["NSExtensionPointIdentifier"]?.string, "com.apple.widgetkit-extension")
    }

    func testBinaryPlistIsRead() throws {
        let path = "apps/trainer/Trainer/Info.plist"
        let bytes = try data(path)
        XCTAssertTrue(bytes.starts(with: Array("bplist00".utf8)), "the trainer app's Info.plist is binary")
        let plist = try PropertyListDocument.parse(bytes, path: path)
        XCTAssertEqual(plist.format, .binary)
        XCTAssertEqual(plist.location(of: "NSHealthShareUsageDescription").line, 1)
        XCTAssertTrue(plist.quote("NSHealthShareUsageDescription").contains("binary property list"))
        XCTAssertNotNil(plist["NSHealthShareUsageDescription"]?.string)
    }

    func testTruncatedPlistsFailWithTheirPath() throws {
        let xml = try data("apps/veloride/VeloRide/Info.plist")
        XCTAssertThrowsError(try PropertyListDocument.parse(xml.prefix(xml.count / 2), path: "half.plist")) { error in
            XCTAssertEqual((error as? InputError)?.problems.first?.location.file, "half.plist")
        }
        let binary = try data("apps/trainer/Trainer/Info.plist")
        XCTAssertThrowsError(try PropertyListDocument.parse(binary.prefix(40), path: "bad.plist")) { error in
            XCTAssertTrue((error as? InputError)?.problems.first?.message.contains("binary") == true, "\(error)")
        }
    }

    func testUTF16StringsFileWithBOMAndComments() throws {
        let path = "apps/steady/Steady/de.lproj/InfoPlist.strings"
        let bytes = try data(path)
        XCTAssertEqual(Array(bytes.prefix(2)), [0xFF, 0xFE], "UTF-16 LE with BOM on disk")
        let strings = try StringsFile.parse(bytes, path: path)
        XCTAssertEqual(strings.locale, "de")
        XCTAssertEqual(strings.encoding, "UTF-16LE")
        let share = try XCTUnwrap(strings.entry("NSHealthShareUsageDescription"))
        XCTAssertFalse(share.value.isEmpty)
        XCTAssertTrue(strings.quote(line: share.line).contains("NSHealthShareUsageDescription"))
        XCTAssertNotNil(strings.entry("NSHealthUpdateUsageDescription"))
    }

    func testStringsParserHandlesEscapesAndReportsErrors() throws {
        let text = "/* c */\n\"a\" = \"x \\\"q\\\" \\n\";\n// line\nb = \"\\U00e9\";\n"
        let parsed = try StringsFile.parse(Data(text.utf8), path: "en.lproj/X.strings")
        XCTAssertEqual(parsed.entries.map(\.key), ["a", "b"])
        XCTAssertEqual(parsed.entries[0].value, "x \"q\" \n")
        XCTAssertEqual(parsed.entries[1].value, "é")
        XCTAssertEqual(parsed.entries[1].line, 4)
        XCTAssertThrowsError(try StringsFile.parse(Data("\"a\" = \"b\"\n\"c\" = \"d\";".utf8), path: "x.strings")) { error in
            XCTAssertEqual((error as? InputError)?.problems.first?.location.line, 2, "\(error)")
        }
        let utf16NoBOM = "\"k\" = \"v\";".data(using: .utf16LittleEndian)!
        XCTAssertEqual(try StringsFile.parse(utf16NoBOM, path: "x.strings").entries.first?.value, "v")
    }

    func testStringCatalog() throws {
        let path = "apps/steady/Steady/InfoPlist.xcstrings"
        let catalog = try StringCatalog.parse(try data(path), path: path)
        XCTAssertEqual(catalog.sourceLanguage, "en")
        let french = catalog.localizations.filter { $0.locale == "fr" }.map(\.key)
        XCTAssertEqual(Set(french), ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"])
    }

    func testBuildVariableExpansion() {
        let expanded = BuildVariables.expand("$(PRODUCT_NAME) and ${PRODUCT_NAME:rfc1034identifier} use $(MISSING) $ alone", settings: ["PRODUCT_NAME": "Steady"])
        XCTAssertEqual(expanded.text, "Steady and Steady use $(MISSING) $ alone")
        XCTAssertEqual(expanded.unresolved, ["MISSING"])
    }

    func testWholeAppLoadsWithSiteRelativePaths() throws {
        let config = try ConfigLoader().load(siteDirectory: Repository.site)
        let steady = try ManifestLoader(siteDirectory: Repository.site).load(config.apps.first { $0.id == "steady" }!)
        XCTAssertEqual(steady.main.infoPlist?.path, "apps/steady/Steady/Info.plist")
        XCTAssertEqual(steady.infoPlistStrings.map(\.locale), ["de", "en"])
        XCTAssertFalse(steady.main.sources.isEmpty)
        XCTAssertEqual(steady.extensions.first?.extensionPoint, "com.apple.widgetkit-extension")
        XCTAssertTrue(steady.inputFiles.contains("apps/steady/Steady/Info.plist"))
    }

    func testSymlinkLoopsInSourceRootsAreSkipped() throws {
        let root = Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/src/inner", withIntermediateDirectories: true)
        try "let x = 1".write(toFile: root + "/src/inner/A.swift", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/src/inner/loop", withDestinationPath: root + "/src")
        XCTAssertEqual(try LocalFileSystem().files(under: root + "/src"), ["inner/A.swift"])
    }
}
