import Foundation
@testable import Manifest
import XCTest

/// Readers of an app's files on inputs within the size limits that used to take seconds to minutes
/// (issue 33, items 11 and 12): each reads in one pass, or refuses the file by size with an error
/// naming it. Times are measured by bench/hostile.py; these tests assert the outcomes.
final class ReaderBoundsTests: XCTestCase {
    // MARK: - String catalogs

    /// A catalog of `count` keys as `jq -c` writes it: one line, no indentation.
    static func oneLineCatalog(keys count: Int) -> String {
        let entries = (0..<count).map { index in
            "\"Key\(index)\":{\"localizations\":{\"de\":{\"stringUnit\":{\"state\":\"translated\",\"value\":\"Wert \(index)\"}},"
                + "\"en\":{\"stringUnit\":{\"state\":\"translated\",\"value\":\"Value \(index)\"}}}}"
        }
        return "{\"sourceLanguage\":\"en\",\"strings\":{" + entries.joined(separator: ",") + "},\"version\":\"1.0\"}"
    }

    /// 2,000 keys on one line took 16–18 s (each key searched for along the line): every key and
    /// every translation cites line 1.
    func testAOneLineCatalogCitesLineOneForEveryKey() throws {
        let catalog = try StringCatalog.parse(Data(Self.oneLineCatalog(keys: 2_000).utf8), path: "App/InfoPlist.xcstrings")
        XCTAssertEqual(catalog.keys.count, 2_000)
        XCTAssertEqual(Set(catalog.keys.map { $0.line }), [1])
        XCTAssertEqual(catalog.localizations.count, 4_000)
        XCTAssertEqual(Set(catalog.localizations.map(\.line)), [1])
        XCTAssertEqual(catalog.localizations.first { $0.key == "Key1999" && $0.locale == "de" }?.value, "Wert 1999")
    }

    /// Any layout gives each key its own line: keys after a value that quotes them, two keys on a
    /// line, keys written with escapes, a key written again after the catalog's `strings` object.
    func testEveryKeyCitesTheLineItIsWrittenOnWhateverTheLayout() throws {
        let text = """
        {"sourceLanguage":"en","strings":{"A":{"localizations":{"en":{"stringUnit":{"value":"see \\"B\\" and \\"strings\\""}}}},
        "B":{"localizations":{"de":{"stringUnit":{"value":"B"}}}},"Caf\\u00e9":{},
          "NSHealthShareUsageDescription"  :  {"localizations":{"en":{"stringUnit":{"value":"Reads steps"}}}},
        "Say \\"hi\\" \\ud83d\\ude00":{}
        },
        "other":{"A":{}}, "version":"1.0"}
        """
        let catalog = try StringCatalog.parse(Data(text.utf8), path: "App/InfoPlist.xcstrings")
        XCTAssertEqual(catalog.keys.map { $0.key }, ["A", "B", "Café", "NSHealthShareUsageDescription", "Say \"hi\" 😀"])
        XCTAssertEqual(catalog.keys.map { $0.line }, [1, 2, 2, 3, 4])
        XCTAssertEqual(catalog.localizations.map { "\($0.key)/\($0.locale):\($0.line)" },
                       ["A/en:1", "B/de:2", "NSHealthShareUsageDescription/en:3"])
    }

    /// Found by the xcstrings fuzz target: Foundation reads a key written `"\u{FEFF}NSHealth…"` without
    /// its U+FEFF (taken for a byte-order mark), so the key it reports was not found on any line and
    /// cited line 1. It cites the line it is written on.
    func testAKeyBeginningWithAByteOrderMarkCitesItsLine() throws {
        let text = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"\u{FEFF}NSHealthShareUsageDescription\" : {\n"
            + "      \"localizations\" : { \"en\" : { \"stringUnit\" : { \"state\" : \"new\", \"value\" : \"Reads steps\" } } }\n    }\n  }\n}\n"
        let catalog = try StringCatalog.parse(Data(text.utf8), path: "App/InfoPlist.xcstrings")
        XCTAssertEqual(catalog.keys.map { $0.key.unicodeScalars.first }, ["N"], "Foundation drops the leading U+FEFF")
        XCTAssertEqual(catalog.keys.map { $0.line }, [4])
        XCTAssertEqual(catalog.localizations.map(\.line), [4])
        // The same for the catalog's own member: `"\u{FEFF}strings"` is Foundation's `strings`.
        let member = try StringCatalog.parse(Data(text.replacingOccurrences(of: "\"strings\"", with: "\"\u{FEFF}strings\"").utf8), path: "App/InfoPlist.xcstrings")
        XCTAssertEqual(member.keys.map { $0.line }, [4])
    }

    /// JSONSerialization reads UTF-16 JSON too; its key lines are found the same way.
    func testAUTF16CatalogCitesTheSameLines() throws {
        let text = "{\"sourceLanguage\":\"en\",\"strings\":{\n\"A\":{},\n\"B\":{}},\"version\":\"1.0\"}"
        var data = Data([0xFF, 0xFE])
        for unit in text.utf16 { data.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        let catalog = try StringCatalog.parse(data, path: "App/InfoPlist.xcstrings")
        XCTAssertEqual(catalog.keys.map { "\($0.key):\($0.line)" }, ["A:2", "B:3"])
    }

    // MARK: - Property lists

    static func plist(keys count: Int) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
            + (0..<count).map { "\t<key>Key\($0)</key>\n\t<string>value \($0)</string>\n" }.joined() + "</dict>\n</plist>\n"
    }

    /// Foundation reads XML plists at about 10 MB/s (7.9 MB took 7.5–10.5 s): over 1 MiB is refused
    /// before it reads them, binary or XML. Just under the limit is read, every key on its line.
    func testAPropertyListOverOneMegabyteIsRefusedNamingIt() throws {
        let large = Self.plist(keys: 22_000)
        XCTAssertGreaterThan(large.utf8.count, InputLimits.maxPropertyListBytes)
        let errors = inputErrors { _ = try PropertyListDocument.parse(Data(large.utf8), path: "App/Info.plist") }
        assertErrors(errors, ["App/Info.plist:1: error: property list is \(large.utf8.count) bytes, over the 1048576-byte limit (an Info.plist is a few KiB); not read"])

        let accepted = Self.plist(keys: 3).replacingOccurrences(of: "<dict>\n", with: "<dict>\n\t<key>Padding</key><string>" + String(repeating: "x", count: 1_048_000) + "</string>\n")
        XCTAssertGreaterThan(accepted.utf8.count, 1_048_000)
        XCTAssertLessThan(accepted.utf8.count, InputLimits.maxPropertyListBytes)
        let document = try PropertyListDocument.parse(Data(accepted.utf8), path: "App/Info.plist")
        XCTAssertEqual(document.location(of: "Key2"), FileLocation(file: "App/Info.plist", line: 9))
        XCTAssertEqual(document.quote("Key2"), "<key>Key2</key> <string>value 2</string>")
    }

    /// Lines are split by bytes, a `\r` before `\n` dropped: a CRLF plist quotes each key's own line
    /// (split by Characters, `\r\n` is one character and the file was one line).
    func testACRLFPropertyListQuotesEachKeysLine() throws {
        let text = "<?xml version=\"1.0\"?>\r\n<plist version=\"1.0\">\r\n<dict>\r\n\t<key>NSHealthShareUsageDescription</key>\r\n\t<string>Reads steps.</string>\r\n</dict>\r\n</plist>\r\n"
        let document = try PropertyListDocument.parse(Data(text.utf8), path: "App/Info.plist")
        XCTAssertEqual(document.location(of: "NSHealthShareUsageDescription"), FileLocation(file: "App/Info.plist", line: 4))
        XCTAssertEqual(document.quote("NSHealthShareUsageDescription"), "<key>NSHealthShareUsageDescription</key> <string>Reads steps.</string>")
        XCTAssertEqual(TextLines.split("a\r\nb\n\nc\r"), ["a", "b", "", "c"])
    }
}
