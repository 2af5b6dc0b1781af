import Foundation

/// One `*.lproj/*.strings` file: `"key" = "value";` pairs with their lines. Xcode writes these as
/// UTF-16 with a BOM as often as UTF-8, with `/* */` and `//` comments.
public struct StringsFile: Sendable {
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var value: String
        public var line: Int
    }

    public let path: String
    public let locale: String
    public let entries: [Entry]
    public let encoding: String
    let lines: [Substring]

    public func entry(_ key: String) -> Entry? { entries.first { $0.key == key } }

    public func quote(line: Int) -> String {
        guard line >= 1, line <= lines.count else { return "" }
        return lines[line - 1].trimmingCharacters(in: .whitespaces)
    }

    /// The locale of a file at `.../de.lproj/InfoPlist.strings`.
    public static func locale(ofPath path: String) -> String {
        let folder = path.split(separator: "/").dropLast().last.map(String.init) ?? ""
        return folder.hasSuffix(".lproj") ? String(folder.dropLast(6)) : "Base"
    }

    public static func parse(_ data: Data, path: String) throws -> StringsFile {
        let (text, encoding) = try decode(data, path: path)
        var parser = StringsParser(text: text, path: path)
        let entries = try parser.parse()
        return StringsFile(path: path, locale: locale(ofPath: path), entries: entries, encoding: encoding,
                           lines: TextLines.split(text))
    }

    /// BOM first; without one, UTF-8; then UTF-16 guessed from NUL bytes (Xcode files start with ASCII).
    static func decode(_ data: Data, path: String) throws -> (String, String) {
        let bytes = [UInt8](data.prefix(4))
        if bytes.starts(with: [0xFF, 0xFE]), let text = String(data: data.dropFirst(2), encoding: .utf16LittleEndian) { return (text, "UTF-16LE") }
        if bytes.starts(with: [0xFE, 0xFF]), let text = String(data: data.dropFirst(2), encoding: .utf16BigEndian) { return (text, "UTF-16BE") }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]), let text = String(data: data.dropFirst(3), encoding: .utf8) { return (text, "UTF-8") }
        if bytes.count >= 2, bytes[1] == 0, bytes[0] != 0, let text = String(data: data, encoding: .utf16LittleEndian) { return (text, "UTF-16LE") }
        if bytes.count >= 2, bytes[0] == 0, bytes[1] != 0, let text = String(data: data, encoding: .utf16BigEndian) { return (text, "UTF-16BE") }
        if let text = String(data: data, encoding: .utf8) { return (text, "UTF-8") }
        throw InputError("strings file is neither UTF-8 nor UTF-16 text", file: path, line: 1)
    }
}

/// A small hand-written parser for the old-style strings format.
struct StringsParser {
    let scalars: [Unicode.Scalar]
    let path: String
    var index = 0
    var line = 1

    init(text: String, path: String) {
        scalars = Array(text.unicodeScalars)
        self.path = path
    }

    mutating func parse() throws -> [StringsFile.Entry] {
        var entries: [StringsFile.Entry] = []
        while true {
            try skipTrivia()
            guard index < scalars.count else { return entries }
            let keyLine = line
            let key = try token("a key")
            try skipTrivia()
            let value: String
            if peek == ";" {
                value = key // `"key";` alone means the value equals the key
            } else {
                try expect("=")
                try skipTrivia()
                value = try token("a value")
                try skipTrivia()
            }
            try expect(";")
            entries.append(.init(key: key, value: value, line: keyLine))
        }
    }

    var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    mutating func advance() {
        if scalars[index] == "\n" { line += 1 }
        index += 1
    }

    func error(_ message: String) -> InputError { InputError(message, file: path, line: line) }

    mutating func expect(_ c: Unicode.Scalar) throws {
        guard peek == c else { throw error("expected '\(c)'\(peek.map { ", found '\($0)'" } ?? " before the end of the file")") }
        advance()
    }

    mutating func skipTrivia() throws {
        while let c = peek {
            if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{FEFF}" { advance(); continue }
            if c == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                let start = line
                index += 2
                while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") { advance() }
                guard index + 1 < scalars.count else { throw InputError("unterminated /* comment", file: path, line: start) }
                index += 2
                continue
            }
            if c == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while let d = peek, d != "\n" { advance() }
                continue
            }
            return
        }
    }

    mutating func token(_ what: String) throws -> String {
        guard let c = peek else { throw error("expected \(what) before the end of the file") }
        if c == "\"" { return try quoted() }
        var text = ""
        while let d = peek, d.properties.isAlphabetic || ("0"..."9").contains(d) || "_.-$:".unicodeScalars.contains(d) {
            text.unicodeScalars.append(d)
            advance()
        }
        guard !text.isEmpty else { throw error("expected \(what), found '\(c)'") }
        return text
    }

    mutating func quoted() throws -> String {
        let start = line
        advance()
        var text = ""
        while let c = peek {
            advance()
            switch c {
            case "\"": return text
            case "\\":
                guard let e = peek else { break }
                advance()
                switch e {
                case "n": text += "\n"
                case "t": text += "\t"
                case "r": text += "\r"
                case "U", "u":
                    var hex = ""
                    while hex.count < 4, let h = peek, h.properties.isASCIIHexDigit { hex.unicodeScalars.append(h); advance() }
                    if let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) { text.unicodeScalars.append(s) }
                default: text.unicodeScalars.append(e)
                }
            default: text.unicodeScalars.append(c)
            }
        }
        throw InputError("unterminated string", file: path, line: start)
    }
}
