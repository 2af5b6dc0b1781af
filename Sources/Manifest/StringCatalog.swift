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
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let keyLines = Self.keyLines(lines)
        func line(ofKey key: String) -> Int {
            if let found = keyLines[key] { return found }
            let needle = "\"\(key)\""
            return (lines.firstIndex { $0.contains(needle) } ?? 0) + 1
        }
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

    /// Line of each key of the `strings` object, by its indentation as Xcode writes catalogs: one
    /// pass, so a catalog of thousands of keys is not searched once per key.
    private static func keyLines(_ lines: [Substring]) -> [String: Int] {
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("\"strings\"") }) else { return [:] }
        var indent: Int?
        var found: [String: Int] = [:]
        for index in lines.indices where index > start {
            let line = lines[index]
            let spaces = line.prefix { $0 == " " || $0 == "\t" }.count
            let rest = line.dropFirst(spaces)
            guard rest.hasPrefix("\"") else { continue }
            if indent == nil { indent = spaces }
            guard spaces == indent, let close = rest.dropFirst().firstIndex(of: "\"") else { continue }
            let key = String(rest[rest.index(after: rest.startIndex)..<close])
            if found[key] == nil { found[key] = index + 1 }
        }
        return found
    }
}

/// Expands Xcode's `$(VAR)` and `${VAR}` (with an optional `:modifier`) from build settings.
public enum BuildVariables {
    public struct Expansion: Sendable, Hashable {
        public var text: String
        public var unresolved: [String]
    }

    public static func expand(_ text: String, settings: [String: String]) -> Expansion {
        var output = ""
        var unresolved: [String] = []
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
                unresolved.append(name)
                output += rest[dollar...end]
            }
            rest = rest[rest.index(after: end)...]
        }
        output += rest
        return Expansion(text: output, unresolved: unresolved)
    }
}
