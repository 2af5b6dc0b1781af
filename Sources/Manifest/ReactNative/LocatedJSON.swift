import Foundation

/// A JSON value (an Expo `app.json`, a `package.json`) with the line and column it starts at —
/// `JSONSerialization` gives no positions, and evidence cites `app.json:LINE`.
public struct LocatedJSON: Sendable {
    public indirect enum Value: Sendable {
        case string(String)
        case number(Double, text: String)
        case bool(Bool)
        case null
        case array([LocatedJSON])
        case object([(key: String, keyLine: Int, value: LocatedJSON)])
    }

    public var value: Value
    public var line: Int
    public var column: Int

    public subscript(key: String) -> LocatedJSON? {
        if case .object(let entries) = value { return entries.last { $0.key == key }?.value }
        return nil
    }

    public var string: String? { if case .string(let s) = value { return s } else { return nil } }
    public var array: [LocatedJSON]? { if case .array(let a) = value { return a } else { return nil } }
    public var entries: [(key: String, keyLine: Int, value: LocatedJSON)]? { if case .object(let e) = value { return e } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = value { return b } else { return nil } }

    /// The value as a property-list value (objects become dictionaries, integral numbers integers).
    public var plistValue: PlistValue? {
        switch value {
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .number(let d, let text):
            // An integer past Int's range stays a real: `Int(d)` would trap on untrusted input.
            if text.contains(".") || text.contains("e") || text.contains("E") { return .real(d) }
            return Int(exactly: d).map(PlistValue.integer) ?? .real(d)
        case .null: return nil
        case .array(let items): return .array(items.compactMap(\.plistValue))
        case .object(let entries):
            var result: [String: PlistValue] = [:]
            for entry in entries { if let value = entry.value.plistValue { result[entry.key] = value } }
            return .dictionary(result)
        }
    }

    /// Parses JSON (comments and trailing commas tolerated, as Expo's own reader does). Discovery,
    /// the loader and the dependency table each read a `package.json`: the same file with the same
    /// bytes is parsed once (`RecentParses`), so an 8 MB one costs one parse, not three.
    public static func parse(_ data: Data, file: String) throws -> LocatedJSON {
        try recent.result(for: data, file: file) { try parseUncached(data, file: file) }
    }

    private static let recent = RecentParses()

    private static func parseUncached(_ data: Data, file: String) throws -> LocatedJSON {
        guard let text = String(data: data, encoding: .utf8) else { throw InputError("not UTF-8 text", file: file, line: 1) }
        let tokens = JSTokenizer.tokenize(text, jsx: false).tokens
        guard !tokens.isEmpty else { throw InputError("the file is empty", file: file, line: 1) }
        var parser = Parser(tokens: tokens, file: file)
        let value = try parser.value(depth: 0)
        if parser.index < tokens.count {
            let token = tokens[parser.index]
            throw InputError("malformed JSON: unexpected '\(token.text)' after the value", file: file, line: token.line, column: token.column)
        }
        return value
    }

    private struct Parser {
        let tokens: [JSToken]
        let file: String
        var index = 0

        func fail(_ message: String) -> InputError {
            guard index < tokens.count else {
                return InputError("malformed JSON: \(message) (unexpected end of file)", file: file, line: tokens.last?.line, column: nil)
            }
            let token = tokens[index]
            return InputError("malformed JSON: \(message), found '\(token.text)'", file: file, line: token.line, column: token.column)
        }

        mutating func value(depth: Int) throws -> LocatedJSON {
            guard depth <= InputLimits.maxNestingDepth else { throw fail("nests deeper than \(InputLimits.maxNestingDepth) levels") }
            guard index < tokens.count else { throw fail("expected a value") }
            let token = tokens[index]
            func located(_ value: Value) -> LocatedJSON { LocatedJSON(value: value, line: token.line, column: token.column) }
            switch token.kind {
            case .string:
                index += 1
                return located(.string(token.value))
            case .number:
                index += 1
                return located(.number(Double(token.text) ?? 0, text: token.text))
            case .identifier where ["true", "false", "null"].contains(token.text):
                index += 1
                return located(token.text == "null" ? .null : .bool(token.text == "true"))
            case .punctuator where token.text == "-":
                index += 1
                guard index < tokens.count, tokens[index].kind == .number else { throw fail("expected a number after '-'") }
                let number = tokens[index]
                index += 1
                return located(.number(-(Double(number.text) ?? 0), text: "-" + number.text))
            case .punctuator where token.text == "[":
                index += 1
                var items: [LocatedJSON] = []
                while true {
                    guard index < tokens.count else { throw fail("unterminated array opened on line \(token.line)") }
                    if tokens[index].isPunctuator("]") { index += 1; break }
                    items.append(try value(depth: depth + 1))
                    if index < tokens.count, tokens[index].isPunctuator(",") { index += 1 }
                    else if index < tokens.count, !tokens[index].isPunctuator("]") { throw fail("expected ',' or ']'") }
                }
                return located(.array(items))
            case .punctuator where token.text == "{":
                index += 1
                var entries: [(key: String, keyLine: Int, value: LocatedJSON)] = []
                while true {
                    guard index < tokens.count else { throw fail("unterminated object opened on line \(token.line)") }
                    if tokens[index].isPunctuator("}") { index += 1; break }
                    let key = tokens[index]
                    guard key.kind == .string else { throw fail("expected a quoted key") }
                    index += 1
                    guard index < tokens.count, tokens[index].isPunctuator(":") else { throw fail("expected ':' after \"\(key.value)\"") }
                    index += 1
                    entries.append((key.value, key.line, try value(depth: depth + 1)))
                    if index < tokens.count, tokens[index].isPunctuator(",") { index += 1 }
                    else if index < tokens.count, !tokens[index].isPunctuator("}") { throw fail("expected ',' or '}'") }
                }
                return located(.object(entries))
            default:
                throw fail("expected a value")
            }
        }
    }

    /// The last few files parsed, with their bytes and outcome (a value or the input error). Few:
    /// one app's files are read close together, and a run of many apps must not keep every tree.
    private final class RecentParses: @unchecked Sendable {
        private struct Entry {
            var file: String
            var data: Data
            var outcome: Result<LocatedJSON, InputError>
        }
        private var entries: [Entry] = []
        private let lock = NSLock()
        private let capacity = 4

        func result(for data: Data, file: String, parse: () throws -> LocatedJSON) throws -> LocatedJSON {
            lock.lock()
            let known = entries.first { $0.file == file && $0.data == data }
            lock.unlock()
            if let known { return try known.outcome.get() }
            let outcome: Result<LocatedJSON, InputError>
            do { outcome = .success(try parse()) } catch let error as InputError { outcome = .failure(error) }
            lock.lock()
            entries.append(Entry(file: file, data: data, outcome: outcome))
            if entries.count > capacity { entries.removeFirst() }
            lock.unlock()
            return try outcome.get()
        }
    }
}
