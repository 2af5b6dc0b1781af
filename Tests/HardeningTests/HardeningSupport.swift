import Foundation
import Manifest
import SiteBuild
import XCTest
import TestSupport

/// The bad-input corpus shipped with the tests (`Tests/HardeningTests/Corpus`).
enum Corpus {
    static let root: String = {
        if let url = Bundle.module.url(forResource: "Corpus", withExtension: nil) { return url.path }
        return Repository.root + "/Tests/HardeningTests/Corpus"
    }()

    static func data(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)) }
    static func text(_ path: String) throws -> String { try String(contentsOfFile: root + "/" + path, encoding: .utf8) }
}

/// Runs `body`, which must throw input errors; returns every problem of its `InputError` or `BuildFailed`.
func inputErrors(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> [InputProblem] {
    do {
        try body()
        XCTFail("expected an input error", file: file, line: line)
    } catch let errors as InputError {
        return errors.problems
    } catch let failure as BuildFailed {
        return failure.diagnostics.map(\.problem)
    } catch {
        XCTFail("expected an InputError, got \(type(of: error)): \(error)", file: file, line: line)
    }
    return []
}

/// Asserts the exact `file:line:column: error: message` of each error.
func assertErrors(_ errors: [InputProblem], _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(errors.map(\.description), expected, file: file, line: line)
}

/// A small HTML tag scanner: the tags of a document with their attributes (names lowercased, values
/// with the common entities decoded). Comments are skipped; the body of <script>/<style> is skipped.
struct HTMLTag: Hashable {
    var name: String
    var attributes: [String: String]
    var raw: String
}

func scanTags(_ html: String) -> [HTMLTag] {
    let bytes = Array(html.utf8)
    var tags: [HTMLTag] = []
    var index = 0
    func starts(_ text: String, at position: Int) -> Bool {
        let needle = Array(text.utf8)
        guard position + needle.count <= bytes.count else { return false }
        for (offset, byte) in needle.enumerated() where lowercase(bytes[position + offset]) != byte { return false }
        return true
    }
    func lowercase(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }
    func find(_ text: String, from position: Int) -> Int {
        var at = position
        while at < bytes.count { if starts(text, at: at) { return at }; at += 1 }
        return bytes.count
    }
    while index < bytes.count {
        guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
        if starts("<!--", at: index) { index = find("-->", from: index + 4) + 3; continue }
        let start = index
        var position = index + 1
        if position < bytes.count, bytes[position] == UInt8(ascii: "/") { position += 1 }
        let nameStart = position
        while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
        guard position > nameStart else { index += 1; continue }
        let name = String(decoding: bytes[(start + 1)..<position], as: UTF8.self).lowercased()
        var attributes: [String: String] = [:]
        while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
            if isSpace(bytes[position]) || bytes[position] == UInt8(ascii: "/") { position += 1; continue }
            let attributeStart = position
            while position < bytes.count, !isSpace(bytes[position]), bytes[position] != UInt8(ascii: "="),
                  bytes[position] != UInt8(ascii: ">") { position += 1 }
            let attribute = String(decoding: bytes[attributeStart..<position], as: UTF8.self).lowercased()
            var value = ""
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
            if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
                position += 1
                while position < bytes.count, isSpace(bytes[position]) { position += 1 }
                if position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") {
                    let quote = bytes[position]
                    let valueStart = position + 1
                    position = valueStart
                    while position < bytes.count, bytes[position] != quote { position += 1 }
                    value = String(decoding: bytes[valueStart..<min(position, bytes.count)], as: UTF8.self)
                    position += 1
                } else {
                    let valueStart = position
                    while position < bytes.count, !isSpace(bytes[position]), bytes[position] != UInt8(ascii: ">") { position += 1 }
                    value = String(decoding: bytes[valueStart..<position], as: UTF8.self)
                }
            }
            if !attribute.isEmpty { attributes[attribute] = decodeEntities(value) }
        }
        let end = min(position + 1, bytes.count)
        tags.append(HTMLTag(name: name, attributes: attributes, raw: String(decoding: bytes[start..<end], as: UTF8.self)))
        index = end
        if name == "script" || name == "style" { index = find("</" + name, from: index) }
    }
    return tags
}

private func isNameByte(_ byte: UInt8) -> Bool {
    (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
}

private func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == 12 }

func decodeEntities(_ text: String) -> String {
    var text = text
    // Numeric references (&#106; &#x6A;), as a browser decodes them in attribute values.
    while let range = text.range(of: #"&#([0-9]+|[xX][0-9a-fA-F]+);?"#, options: .regularExpression) {
        var digits = text[range].dropFirst(2)
        if digits.hasSuffix(";") { digits = digits.dropLast() }
        let hex = digits.first == "x" || digits.first == "X"
        let value = hex ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        text.replaceSubrange(range, with: value.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? "\u{FFFD}")
    }
    for (entity, plain) in [("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&colon;", ":"),
                            ("&#58;", ":"), ("&#x3a;", ":"), ("&tab;", "\t"), ("&newline;", "\n"), ("&amp;", "&")] {
        text = text.replacingOccurrences(of: entity, with: plain, options: .caseInsensitive)
    }
    return text
}

/// What a browser would run: <script> tags, event-handler attributes, and script URLs in any attribute.
func activeContent(_ html: String) -> [String] {
    var found: [String] = []
    for tag in scanTags(html) where !tag.name.hasPrefix("/") {
        if ["script", "iframe", "object", "embed", "frame", "applet"].contains(tag.name) {
            found.append(tag.raw)
            continue
        }
        for (name, value) in tag.attributes {
            let compact = value.lowercased().filter { !$0.isWhitespace && $0 != "\0" }
            if name.hasPrefix("on") || compact.hasPrefix("javascript:") || compact.hasPrefix("vbscript:") || compact.hasPrefix("data:text/html") {
                found.append(tag.raw)
                break
            }
        }
    }
    return found
}
