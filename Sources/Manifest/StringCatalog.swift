import Foundation

/// `InfoPlist.xcstrings` (Xcode 15+ string catalog, JSON): per key, the value per locale.
public struct StringCatalog: Sendable {
    public struct Localization: Sendable, Hashable {
        public var key: String
        public var locale: String
        public var value: String
        public var line: Int
    }

    public let path: String
    public let sourceLanguage: String
    public let localizations: [Localization]
    /// Every key the catalog holds with its line, translated or not (Xcode adds keys before anyone translates them).
    public var keys: [(key: String, line: Int)] = []

    public static func parse(_ data: Data, path: String) throws -> StringCatalog {
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw InputError("malformed string catalog: \((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "invalid JSON")", file: path, line: 1)
        }
        guard let root = json as? [String: Any], let strings = root["strings"] as? [String: Any] else {
            throw InputError("string catalog has no \"strings\" object", file: path, line: 1)
        }
        let source = root["sourceLanguage"] as? String ?? "en"
        let keyLines = CatalogKeyLines.scan(data)
        // Every key of a catalog JSONSerialization accepted is found by the scan.
        func line(ofKey key: String) -> Int { keyLines[key] ?? 1 }
        var found: [Localization] = []
        var keys: [(key: String, line: Int)] = []
        for key in strings.keys.sorted() {
            keys.append((key, line(ofKey: key)))
            let entry = strings[key] as? [String: Any] ?? [:]
            let perLocale = entry["localizations"] as? [String: Any] ?? [:]
            for locale in perLocale.keys.sorted() {
                let unit = (perLocale[locale] as? [String: Any])?["stringUnit"] as? [String: Any]
                if let value = unit?["value"] as? String {
                    found.append(.init(key: key, locale: locale, value: value, line: line(ofKey: key)))
                }
            }
        }
        var catalog = StringCatalog(path: path, sourceLanguage: source, localizations: found)
        catalog.keys = keys
        return catalog
    }
}

/// The line of each key of a catalog's `strings` object, from one pass over the JSON's bytes, whatever
/// its layout: Xcode's indented one, or one line as `jq -c` writes it (searching that line once per
/// key made 5,000 keys take minutes). Runs on text JSONSerialization has accepted, so it only tracks
/// containers, strings and line breaks.
enum CatalogKeyLines {
    private struct Container {
        var isObject: Bool
        /// The next string in this object is a member's name.
        var expectsKey: Bool
        /// This is the object under the root's `"strings"` member.
        var isStrings: Bool
    }

    static func scan(_ data: Data) -> [String: Int] {
        let bytes = utf8(data)
        var found: [String: Int] = [:]
        var containers: [Container] = []
        var rootMember: String?
        var line = 1
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "\""):
                let startLine = line
                var end = index + 1
                var escaped = false
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    if bytes[end] == UInt8(ascii: "\\") { escaped = true; end += 1 }
                    else if bytes[end] == UInt8(ascii: "\n") { line += 1 }
                    end += 1
                }
                let body = bytes[(index + 1)..<min(end, bytes.count)]
                if let last = containers.indices.last, containers[last].expectsKey {
                    containers[last].expectsKey = false
                    if containers.count == 1 {
                        rootMember = decode(body, escaped: escaped)
                    } else if containers.count == 2, containers[1].isStrings {
                        let key = decode(body, escaped: escaped)
                        if found[key] == nil { found[key] = startLine }
                    }
                }
                index = end
            case UInt8(ascii: "{"):
                containers.append(Container(isObject: true, expectsKey: true, isStrings: containers.count == 1 && rootMember == "strings"))
            case UInt8(ascii: "["):
                containers.append(Container(isObject: false, expectsKey: false, isStrings: false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = containers.popLast()
            case UInt8(ascii: ","):
                if let last = containers.indices.last, containers[last].isObject { containers[last].expectsKey = true }
            default:
                break
            }
            index += 1
        }
        return found
    }

    /// The JSON's bytes as UTF-8: JSONSerialization also reads UTF-16 and UTF-32, told apart by
    /// their byte-order mark or by the NULs among the first four bytes (RFC 4627).
    static func utf8(_ data: Data) -> [UInt8] {
        let head = [UInt8](data.prefix(4)) + [1, 1, 1, 1]
        let encoding: String.Encoding
        switch (head[0], head[1], head[2], head[3]) {
        case (0xFF, 0xFE, 0, 0), (_, 0, 0, 0): encoding = .utf32LittleEndian
        case (0, 0, 0xFE, 0xFF), (0, 0, 0, _): encoding = .utf32BigEndian
        case (0xFF, 0xFE, _, _), (_, 0, _, _): encoding = .utf16LittleEndian
        case (0xFE, 0xFF, _, _), (0, _, _, _): encoding = .utf16BigEndian
        default: return [UInt8](data)
        }
        return String(data: data, encoding: encoding).map { Array($0.utf8) } ?? [UInt8](data)
    }

    /// A JSON string's text between its quotes, escapes resolved as JSONSerialization resolves them.
    /// Foundation's reader drops a U+FEFF written (unescaped) at the start of a string, taking it
    /// for a byte-order mark: `"\u{FEFF}strings"` is its `strings`, and a key so written is read
    /// without it. Decoded the same way here, or those keys would be found on no line.
    static func decode(_ body: ArraySlice<UInt8>, escaped: Bool) -> String {
        let body = body.starts(with: [0xEF, 0xBB, 0xBF]) ? body.dropFirst(3) : body
        guard escaped else { return String(decoding: body, as: UTF8.self) }
        var units: [UInt16] = []
        var scalars = String.UnicodeScalarView()
        func flushUnits() {
            guard !units.isEmpty else { return }
            scalars.append(contentsOf: String(decoding: units, as: UTF16.self).unicodeScalars)
            units.removeAll()
        }
        var plain: [UInt8] = []
        func flushPlain() {
            guard !plain.isEmpty else { return }
            scalars.append(contentsOf: String(decoding: plain, as: UTF8.self).unicodeScalars)
            plain.removeAll()
        }
        var index = body.startIndex
        while index < body.endIndex {
            let byte = body[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < body.endIndex else {
                flushUnits(); plain.append(byte); index += 1; continue
            }
            let escape = body[index + 1]
            index += 2
            if escape == UInt8(ascii: "u"), index + 4 <= body.endIndex,
               let unit = UInt16(String(decoding: body[index..<(index + 4)], as: UTF8.self), radix: 16) {
                // Surrogate pairs arrive as two escapes: collected as UTF-16 and decoded together.
                flushPlain(); units.append(unit); index += 4
                continue
            }
            flushUnits()
            switch escape {
            case UInt8(ascii: "n"): plain.append(0x0A)
            case UInt8(ascii: "t"): plain.append(0x09)
            case UInt8(ascii: "r"): plain.append(0x0D)
            case UInt8(ascii: "b"): plain.append(0x08)
            case UInt8(ascii: "f"): plain.append(0x0C)
            default: plain.append(escape) // `\"`, `\\`, `\/`
            }
        }
        flushUnits(); flushPlain()
        return String(scalars)
    }
}

/// Expands Xcode's `$(VAR)` and `${VAR}` (with an optional `:modifier`) from build settings.
public enum BuildVariables {
    public struct Expansion: Sendable, Hashable {
        public var text: String
        /// Each name not in the settings, once, in the order first used.
        public var unresolved: [String]
    }

    public static func expand(_ text: String, settings: [String: String]) -> Expansion {
        var output = ""
        var unresolved: [String] = []
        var seen: Set<String> = []
        var unclosed: Set<Character> = []
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[rest.startIndex..<dollar]
            let after = rest.index(after: dollar)
            guard after < rest.endIndex, let close: Character = ["(": ")", "{": "}"][rest[after]], !unclosed.contains(close),
                  let end = rest[after...].firstIndex(of: close) else {
                // No closer after this point means none after any later one: remember, so a text of
                // unclosed `$(` is not searched to its end once per `$(`.
                if after < rest.endIndex, let close: Character = ["(": ")", "{": "}"][rest[after]] { unclosed.insert(close) }
                output.append("$")
                rest = rest[after...]
                continue
            }
            let body = rest[rest.index(after: after)..<end]
            let name = String(body.split(separator: ":", maxSplits: 1).first ?? "")
            if let value = settings[name] {
                output += value
            } else {
                if seen.insert(name).inserted { unresolved.append(name) }
                output += rest[dollar...end]
            }
            rest = rest[rest.index(after: end)...]
        }
        output += rest
        return Expansion(text: output, unresolved: unresolved)
    }
}
