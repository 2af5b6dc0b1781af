import Foundation
import Manifest

/// A strict RFC 8259 reader into `JSONValue`, for files the tool did not write itself (results of
/// other runs): duplicate keys, invalid UTF-8, lone surrogates and nesting deeper than
/// `InputLimits.maxNestingDepth` are errors with their line and column. Integers stay `.int`;
/// any other number is `.number` with the exact `Double` the text denotes.
public struct JSONParser {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var message: String
        public var description: String { "\(line):\(column): \(message)" }
    }

    public static func parse(_ data: Data) throws(Failure) -> JSONValue {
        guard String(data: data, encoding: .utf8) != nil else { throw Failure(line: 1, column: 1, message: "not valid UTF-8") }
        let bytes = [UInt8](data)
        var parser = JSONParser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the document") }
        return value
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func failure(_ message: String, at position: Int? = nil) -> Failure {
        let end = min(position ?? index, bytes.count)
        var line = 1, start = 0
        for offset in 0..<end where bytes[offset] == 0x0A { line += 1; start = offset + 1 }
        let column = String(decoding: bytes[start..<end], as: UTF8.self).count + 1
        return Failure(line: line, column: column, message: message)
    }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth < InputLimits.maxNestingDepth else { throw failure("nested deeper than \(InputLimits.maxNestingDepth) levels") }
        guard let byte = current else { throw failure("the document ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character where a value was expected")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        for byte in word.utf8 {
            guard current == byte else { throw failure("unexpected character where a value was expected") }
            index += 1
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        // Duplicate keys: a result's objects have a few keys each, looked through directly; a
        // set only for an object with many (no hashing and no set for each small object).
        var seen: Set<String>?
        skipSpace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a quoted key") }
            let keyStart = index
            let key = try string()
            let duplicate: Bool
            if seen == nil, members.count < 16 {
                duplicate = members.contains { $0.0 == key }
            } else {
                if seen == nil { seen = Set(members.map(\.0)) }
                duplicate = !seen!.insert(key).inserted
            }
            guard !duplicate else { throw failure("duplicate key \"\(key)\"", at: keyStart) }
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
            index += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        // Most strings have no escape: one decode of the bytes between the quotes.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            defer { index = end + 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars) }
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                flush(index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(index)
                index += 1
                scalars.append(try escape())
                runStart = index
            case 0..<0x20:
                throw failure("a control character must be escaped in a string")
            default:
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    private mutating func escape() throws(Failure) -> Unicode.Scalar {
        guard let byte = current else { throw failure("unterminated string") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try hex4()
            if (0xD800..<0xDC00).contains(first) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw failure("a lone surrogate in a \\u escape")
                }
                index += 2
                let second = try hex4()
                guard (0xDC00..<0xE000).contains(second) else { throw failure("a lone surrogate in a \\u escape") }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else { throw failure("a lone surrogate in a \\u escape") }
            return scalar
        default: throw failure("unknown escape in a string")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        // Four ASCII hex digits exactly: `UInt32(_:radix:)` alone would take `+041`.
        guard index + 4 <= bytes.count, bytes[index..<index + 4].allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }),
              let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw failure("\\u needs four hexadecimal digits")
        }
        index += 4
        return value
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        func digits() -> Int {
            let from = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - from
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") { index += 1 } else if digits() == 0 { throw failure("a number needs digits") }
        var integral = true
        if current == UInt8(ascii: ".") {
            index += 1
            integral = false
            guard digits() > 0 else { throw failure("a number needs digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            integral = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("a number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw failure("the number \(text) is out of range") }
        return .number(value)
    }
}
