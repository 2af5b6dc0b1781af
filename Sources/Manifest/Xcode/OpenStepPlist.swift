import Foundation

/// A value of an old-style (OpenStep) property list — the format of Xcode's `project.pbxproj` —
/// with the line and column it starts on.
///
/// Foundation's `PropertyListSerialization` does read this format on Linux, but like the XML reader
/// it gives no positions (and prints CoreFoundation chatter to stderr on a syntax error), while the
/// audit cites `project.pbxproj:LINE` for every discovered setting. So it is parsed here.
public struct OpenStepNode: Sendable {
    public enum Value: Sendable {
        case string(String)
        case data(Data)
        case array([OpenStepNode])
        case dictionary([OpenStepEntry])
    }

    public var value: Value
    public var line: Int
    public var column: Int

    public var string: String? { if case .string(let s) = value { return s } else { return nil } }
    public var array: [OpenStepNode]? { if case .array(let a) = value { return a } else { return nil } }
    public var entries: [OpenStepEntry]? { if case .dictionary(let d) = value { return d } else { return nil } }

    /// The value of `key` in a dictionary (nil for other kinds or an absent key).
    public subscript(key: String) -> OpenStepNode? { entries?.first { $0.key == key }?.value }

    /// Strings of an array value; a single string counts as a one-element list (as Xcode treats list settings).
    public var strings: [String] {
        switch value {
        case .string(let s): return [s]
        case .array(let items): return items.compactMap(\.string)
        default: return []
        }
    }
}

public struct OpenStepEntry: Sendable {
    public var key: String
    public var keyLine: Int
    /// Byte offset of the key in the file, so a quote can be cut from a very long line without rescanning it.
    public var keyOffset: Int
    public var value: OpenStepNode
}

/// Parses old-style property lists: `{ key = value; }`, `( a, b, )`, quoted and bare strings,
/// `<hex data>`, `//` and `/* */` comments. Errors carry file, line and column.
///
/// Linear in the file size: the line and column are running counters updated byte by byte, never
/// recomputed from the start of the line (a minified project is one long line, and rescanning it for
/// every token made a 81 KB line take minutes).
public struct OpenStepPlistParser {
    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    /// Characters (not bytes) since the start of the line, plus one.
    private var column = 1
    private var depth = 0

    public static func parse(_ data: Data, file: String) throws -> OpenStepNode {
        if data.isEmpty { throw InputError("the project file is empty", file: file, line: 1) }
        var parser = OpenStepPlistParser(bytes: Array(data), file: file)
        parser.skipTrivia()
        let root = try parser.value()
        parser.skipTrivia()
        if parser.index < parser.bytes.count {
            throw parser.error("unexpected text after the end of the property list")
        }
        return root
    }

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    private func error(_ message: String) -> InputError {
        InputError("malformed project file: \(message)", file: file, line: line, column: column)
    }

    private mutating func advance() {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\n") {
            line += 1; column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1 // columns count characters: UTF-8 continuation bytes do not start one
        }
        index += 1
    }

    private mutating func skipTrivia() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                advance()
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { advance() }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                advance(); advance()
                while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")) {
                    advance()
                }
                if index < bytes.count { advance(); advance() }
            } else {
                return
            }
        }
    }

    private mutating func value() throws -> OpenStepNode {
        guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
        let startLine = line, startColumn = column
        func node(_ value: OpenStepNode.Value) -> OpenStepNode { OpenStepNode(value: value, line: startLine, column: startColumn) }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            depth += 1
            defer { depth -= 1 }
            if depth > InputLimits.maxNestingDepth { throw error("nests deeper than \(InputLimits.maxNestingDepth) levels") }
            advance()
            var entries: [OpenStepEntry] = []
            var seen: Set<String> = []
            while true {
                skipTrivia()
                guard index < bytes.count else { throw error("unexpected end of file inside a dictionary opened on line \(startLine)") }
                if bytes[index] == UInt8(ascii: "}") { advance(); break }
                let keyLine = line, keyOffset = index
                guard let key = try stringValue() else { throw error("expected a key or '}'") }
                if !seen.insert(key).inserted { throw InputError("malformed project file: duplicate key '\(key)'", file: file, line: keyLine) }
                skipTrivia()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw error("expected '=' after key '\(key)'") }
                advance()
                skipTrivia()
                let item = try value()
                skipTrivia()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else { throw error("expected ';' after the value of '\(key)'") }
                advance()
                entries.append(OpenStepEntry(key: key, keyLine: keyLine, keyOffset: keyOffset, value: item))
            }
            return node(.dictionary(entries))
        case UInt8(ascii: "("):
            depth += 1
            defer { depth -= 1 }
            if depth > InputLimits.maxNestingDepth { throw error("nests deeper than \(InputLimits.maxNestingDepth) levels") }
            advance()
            var items: [OpenStepNode] = []
            while true {
                skipTrivia()
                guard index < bytes.count else { throw error("unexpected end of file inside a list opened on line \(startLine)") }
                if bytes[index] == UInt8(ascii: ")") { advance(); break }
                items.append(try value())
                skipTrivia()
                guard index < bytes.count else { continue }
                if bytes[index] == UInt8(ascii: ",") { advance() } else if bytes[index] != UInt8(ascii: ")") {
                    throw error("expected ',' or ')' in a list")
                }
            }
            return node(.array(items))
        case UInt8(ascii: "<"):
            advance()
            var hex: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
                let byte = bytes[index]
                if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\t") {
                    guard Self.hexValue(byte) != nil else { throw error("invalid character in <data>") }
                    hex.append(byte)
                }
                advance()
            }
            guard index < bytes.count, hex.count % 2 == 0 else { throw error("unterminated or odd-length <data>") }
            advance()
            var data = Data()
            for pair in stride(from: 0, to: hex.count, by: 2) {
                data.append(Self.hexValue(hex[pair])! << 4 | Self.hexValue(hex[pair + 1])!)
            }
            return node(.data(data))
        default:
            guard let text = try stringValue() else { throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'") }
            return node(.string(text))
        }
    }

    /// A quoted string or a bare word; nil when neither starts here.
    private mutating func stringValue() throws -> String? {
        guard index < bytes.count else { return nil }
        let quote = bytes[index]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let openLine = line
            advance()
            var out: [UInt8] = []
            while true {
                guard index < bytes.count else {
                    throw InputError("malformed project file: unterminated string opened on line \(openLine)", file: file, line: openLine)
                }
                let byte = bytes[index]
                if byte == quote { advance(); break }
                if byte == UInt8(ascii: "\\") {
                    advance()
                    guard index < bytes.count else { continue }
                    let escaped = bytes[index]
                    advance()
                    if let control = CEscape.control(escaped) { out.append(control); continue }
                    switch escaped {
                    case UInt8(ascii: "U"), UInt8(ascii: "u"):
                        var scalar: UInt32 = 0
                        for _ in 0..<4 {
                            guard index < bytes.count, let digit = Self.hexValue(bytes[index]) else { break }
                            scalar = scalar << 4 | UInt32(digit)
                            advance()
                        }
                        out += Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
                    case UInt8(ascii: "0")...UInt8(ascii: "7"):
                        var value = UInt32(escaped - UInt8(ascii: "0"))
                        for _ in 0..<2 {
                            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) else { break }
                            value = value << 3 | UInt32(bytes[index] - UInt8(ascii: "0"))
                            advance()
                        }
                        out.append(UInt8(truncatingIfNeeded: value))
                    default: out.append(escaped)
                    }
                    continue
                }
                out.append(byte)
                advance()
            }
            return String(decoding: out, as: UTF8.self)
        }
        let start = index
        while index < bytes.count, Self.isBareCharacter(bytes[index]) { advance() }
        guard index > start else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func isBareCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"): return true
        default: return byte >= 0x80
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// The C escapes both OpenStep property lists and git's quoted paths share: `\n` → newline, …
public enum CEscape {
    public static func control(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "a"): return 0x07
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "v"): return 0x0B
        default: return nil
        }
    }
}
