import Foundation

/// Where a build setting's value was written: file and line, and the line as written.
public struct SettingOrigin: Sendable, Hashable {
    public var location: FileLocation
    public var quote: String
    /// `target Runner (Release)`, `project (Release)`, `Config/Base.xcconfig`, `Xcode default`, `app.json`.
    public var level: String
    public init(location: FileLocation, quote: String, level: String) {
        self.location = location; self.quote = quote; self.level = level
    }
}

/// One level of Xcode's build-setting stack (target, its `.xcconfig`, project, its `.xcconfig`, defaults).
struct SettingLevel {
    var name: String
    var settings: [String: (value: String, origin: SettingOrigin?)] = [:]
    /// Xcode's own defaults expand an undefined variable to the empty string, as Xcode does; values
    /// the project wrote keep an undefined `$(VAR)` as written, so rules can flag it.
    var lenient = false
    /// Keys set by a matching `KEY[sdk=iphoneos*]` line, which wins over the plain `KEY` line.
    private var conditional: Set<String> = []

    init(name: String, lenient: Bool = false) { self.name = name; self.lenient = lenient }

    /// Adds a `KEY = value` or `KEY[sdk=iphoneos*] = value` line. Conditions other than the iOS
    /// device SDK and arm64 do not apply to the build the audit models and are dropped.
    mutating func add(_ key: String, _ value: String, origin: SettingOrigin?) {
        guard let bracket = key.firstIndex(of: "[") else {
            if !conditional.contains(key) { settings[key] = (value, origin) }
            return
        }
        let base = String(key[..<bracket])
        let conditions = key[bracket...].split(separator: "]").map { $0.drop { $0 == "[" } }
        let applies = conditions.allSatisfy { condition in
            let parts = condition.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return false }
            switch parts[0] {
            case "sdk": return Self.matches("iphoneos", pattern: parts[1])
            case "arch": return Self.matches("arm64", pattern: parts[1])
            default: return false
            }
        }
        if applies { settings[base] = (value, origin); conditional.insert(base) }
    }

    static func matches(_ value: String, pattern: String) -> Bool {
        pattern.hasSuffix("*") ? value.hasPrefix(pattern.dropLast()) : value == pattern
    }
}

/// Expands build settings the way Xcode does: highest level first, `$(inherited)` continues one level
/// down, `$(VAR)`, `${VAR}` and modifiers (`$(PRODUCT_NAME:rfc1034identifier)`), cycles stopped.
struct BuildSettingResolver {
    var levels: [SettingLevel]
    private(set) var unresolved: [String: Set<String>] = [:]
    /// Each (setting, level) is expanded once: `A2 = $(A1)$(A1)` twenty levels deep took a minute.
    private var memo: [MemoKey: String?] = [:]
    /// Past this, an expanded value is cut: doubling chains grow exponentially.
    static let maxExpandedLength = 64 * 1024

    private struct MemoKey: Hashable { var key: String; var level: Int }

    init(levels: [SettingLevel]) { self.levels = levels }

    /// Every setting any level defines, expanded, with the origin of the value that won.
    mutating func resolveAll() -> (values: [String: String], origins: [String: SettingOrigin]) {
        var values: [String: String] = [:], origins: [String: SettingOrigin] = [:]
        for key in Set(levels.flatMap(\.settings.keys)).sorted() {
            if let value = value(key, from: 0, stack: [key]) { values[key] = value }
            if let origin = levels.lazy.compactMap({ $0.settings[key] }).first?.origin { origins[key] = origin }
        }
        return (values, origins)
    }

    mutating func value(of key: String) -> String? { value(key, from: 0, stack: [key]) }

    /// Expands free text (a path setting, an Info.plist value) against the settings.
    mutating func expand(_ text: String) -> String { expand(text, key: "", level: 0, lenient: false, stack: []) }

    private mutating func value(_ key: String, from level: Int, stack: Set<String>) -> String? {
        guard level < levels.count else { return nil }
        if let known = memo[MemoKey(key: key, level: level)] { return known }
        var result: String?
        for index in level..<levels.count {
            if let setting = levels[index].settings[key] {
                result = expand(setting.value, key: key, level: index, lenient: levels[index].lenient, stack: stack)
                break
            }
        }
        memo[MemoKey(key: key, level: level)] = result
        return result
    }

    private mutating func expand(_ text: String, key: String, level: Int, lenient: Bool, stack: Set<String>) -> String {
        guard text.contains("$") else { return text }
        var output = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            if output.utf8.count > Self.maxExpandedLength { break }
            output += rest[rest.startIndex..<dollar]
            let after = rest.index(after: dollar)
            guard after < rest.endIndex else { output.append("$"); rest = rest[after...]; break }
            let reference: Substring, end: Substring.Index, written: Substring
            if let close: Character = ["(": ")", "{": "}"][rest[after]], let closing = Self.closing(rest, from: after, close: close) {
                reference = rest[rest.index(after: after)..<closing]
                end = rest.index(after: closing)
                written = rest[dollar..<end]
            } else if rest[after].isLetter || rest[after] == "_" {
                let name = rest[after...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                reference = name
                end = name.endIndex
                written = rest[dollar..<end]
            } else {
                output.append("$")
                rest = rest[after...]
                continue
            }
            rest = rest[end...]
            var parts = reference.split(separator: ":").map(String.init)
            // A nested reference in the name (`$(INFOPLIST_KEY_$(X))`) is expanded first.
            if let first = parts.first, first.contains("$") { parts[0] = expand(first, key: key, level: level, lenient: lenient, stack: stack) }
            guard let name = parts.first, !name.isEmpty else { output += written; continue }
            let modifiers = parts.dropFirst()
            var resolved: String?
            if name == "inherited" {
                resolved = value(key, from: level + 1, stack: stack) ?? ""
            } else if stack.contains(name) {
                resolved = nil
            } else {
                resolved = value(name, from: 0, stack: stack.union([name]))
            }
            if resolved == nil, let fallback = modifiers.first(where: { $0.hasPrefix("default=") }) {
                resolved = String(fallback.dropFirst("default=".count))
            }
            if let resolved {
                output += modifiers.reduce(resolved) { Self.apply($1, to: $0) }
            } else if lenient {
                continue
            } else {
                if !key.isEmpty { unresolved[key, default: []].insert(name) }
                output += written
            }
        }
        output += rest
        if output.utf8.count > Self.maxExpandedLength {
            if !key.isEmpty { unresolved[key, default: []].insert("(expands past \(Self.maxExpandedLength) bytes; cut)") }
            return String(decoding: output.utf8.prefix(Self.maxExpandedLength), as: UTF8.self)
        }
        return output
    }

    private static func closing(_ text: Substring, from open: Substring.Index, close: Character) -> Substring.Index? {
        let opener = text[open]
        var depth = 0
        var index = open
        while index < text.endIndex {
            if text[index] == opener { depth += 1 } else if text[index] == close {
                depth -= 1
                if depth == 0 { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }

    static func apply(_ modifier: String, to value: String) -> String {
        switch modifier {
        case "lower": return value.lowercased()
        case "upper": return value.uppercased()
        case "rfc1034identifier":
            return String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
        case "c99extidentifier", "identifier":
            var out = String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
            if out.first?.isNumber == true { out = "_" + out }
            return out
        case "base": return ((value as NSString).lastPathComponent as NSString).deletingPathExtension
        case "file": return (value as NSString).lastPathComponent
        case "dir": return (value as NSString).deletingLastPathComponent
        case "suffix": let ext = (value as NSString).pathExtension; return ext.isEmpty ? "" : "." + ext
        default: return value
        }
    }
}

/// A `.xcconfig` file: `KEY = value` lines, `//` comments and `#include "other.xcconfig"`.
enum XCConfigFile {
    struct Line { var key: String; var value: String; var line: Int; var file: String; var text: String }

    static let maxIncludeDepth = 16
    static let maxFiles = 256

    /// What the includes of one parse have seen: the chain being read (a file on it again is a
    /// cycle), every file read (read once: a file including another twice per level was 2^n reads),
    /// and how many.
    struct Includes {
        var chain: [String] = []
        var read: Set<String> = []
    }

    /// `read` returns the text of a path relative to the app root, or nil when it cannot be read.
    static func parse(path: String, display: (String) -> String, read: (String) -> String?, notes: inout [String]) -> [Line] {
        var includes = Includes()
        return parse(path: path, display: display, read: read, notes: &notes, includes: &includes)
    }

    private static func parse(path: String, display: (String) -> String, read: (String) -> String?, notes: inout [String], includes: inout Includes) -> [Line] {
        if let start = includes.chain.firstIndex(of: path) {
            let cycle = (includes.chain[start...] + [path]).map(display).joined(separator: " → ")
            notes.append("\(display(includes.chain.last ?? path)): #include cycle \(cycle); not followed")
            return []
        }
        // Included before through another path: its settings are already in, in their first place.
        guard includes.read.insert(path).inserted else { return [] }
        guard includes.chain.count < maxIncludeDepth else {
            notes.append("\(display(path)): #include nests deeper than \(maxIncludeDepth) files; not followed further")
            return []
        }
        guard includes.read.count <= maxFiles else {
            notes.append("\(display(path)): more than \(maxFiles) configuration files included; not followed")
            return []
        }
        guard let text = read(path) else { notes.append("\(display(path)): configuration file not found or unreadable"); return [] }
        includes.chain.append(path)
        defer { includes.chain.removeLast() }
        var result: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#include") {
                let optional = line.hasPrefix("#include?")
                guard let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\"") else { continue }
                let target = String(line[line.index(after: open)..<close])
                let folder = (path as NSString).deletingLastPathComponent
                guard !target.hasPrefix("/"), let resolved = try? ContainedPath.resolve(target, in: folder.isEmpty ? "." : folder) else {
                    notes.append("\(display(path)):\(index + 1): #include \"\(target)\" points outside the app folder; not followed")
                    continue
                }
                var nested: [String] = []
                let lines = parse(path: resolved.hasPrefix("./") ? String(resolved.dropFirst(2)) : resolved, display: display, read: read,
                                  notes: &nested, includes: &includes)
                if !(optional && lines.isEmpty) { notes += nested }
                result += lines
                continue
            }
            if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]).trimmingCharacters(in: .whitespaces) }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasSuffix(";") { value.removeLast() }
            guard !key.isEmpty else { continue }
            result.append(Line(key: key, value: value, line: index + 1, file: display(path), text: raw.trimmingCharacters(in: .whitespaces)))
        }
        return result
    }
}
