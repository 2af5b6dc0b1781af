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
/// down, `$(VAR)`, `${VAR}`, `$VAR` and modifiers (`$(PRODUCT_NAME:rfc1034identifier)`; unknown
/// modifiers are dropped).
///
/// The values are untrusted, so the work is bounded: each setting of each level is expanded once
/// (memoised, so `A2 = $(A1)$(A1)` … `A20` costs twenty expansions, not a million), a reference back to a
/// setting being expanded is a cycle and stays as written, and an expansion longer than
/// `maxValueBytes` or reached through more than `maxReferenceDepth` settings stays as written too.
/// Each of those is reported in `problems`.
struct BuildSettingResolver {
    static let maxValueBytes = 64 * 1024
    /// Also bounds the recursion, so a chain of thousands of settings cannot overflow a worker's stack.
    static let maxReferenceDepth = InputLimits.maxNestingDepth
    /// `$(A_$(B_$(C)))`: names built from names, at most this deep.
    static let maxNameNesting = 8

    var levels: [SettingLevel]
    private(set) var unresolved: [String: Set<String>] = [:]
    /// Why a setting was left (partly) unexpanded: a cycle, a value too long, references too deep.
    private(set) var problems: [String: String] = [:]

    /// A setting as defined by one level: the unit of memoisation and of cycle detection.
    private struct Slot: Hashable { var name: String; var level: Int }
    private enum Lookup { case value(String), undefined, cycle([String]), tooDeep, tooLong }
    /// Finished slots: `.value` or `.tooLong`. A value computed where a cycle closed is memoised as
    /// computed, so which member of a cycle keeps the unexpanded reference follows the (sorted) order
    /// `resolveAll` asks in: the same every run.
    private var memo: [Slot: Lookup] = [:]
    /// The slots being expanded, outermost first.
    private var chain: [Slot] = []

    init(levels: [SettingLevel]) { self.levels = levels }

    /// Every setting any level defines, expanded, with the origin of the value that won.
    mutating func resolveAll() -> (values: [String: String], origins: [String: SettingOrigin]) {
        var values: [String: String] = [:], origins: [String: SettingOrigin] = [:]
        for key in Set(levels.flatMap(\.settings.keys)).sorted() {
            switch lookup(key, from: 0) {
            case .value(let value): values[key] = value
            case .tooLong: values[key] = levels.lazy.compactMap { $0.settings[key]?.value }.first // as written
            default: break
            }
            if let origin = levels.lazy.compactMap({ $0.settings[key] }).first?.origin { origins[key] = origin }
        }
        return (values, origins)
    }

    mutating func value(of key: String) -> String? {
        if case .value(let value) = lookup(key, from: 0) { return value }
        return nil
    }

    /// Expands free text (a path setting, an Info.plist value) against the settings.
    mutating func expand(_ text: String) -> String { expand(text, key: "", level: 0, lenient: false, nesting: 0) ?? text }

    private mutating func lookup(_ key: String, from level: Int) -> Lookup {
        guard level < levels.count, let index = (level..<levels.count).first(where: { levels[$0].settings[key] != nil }) else { return .undefined }
        let slot = Slot(name: key, level: index)
        if let known = memo[slot] { return known }
        if let start = chain.firstIndex(of: slot) { return .cycle(chain[start...].map(\.name) + [key]) }
        guard chain.count < Self.maxReferenceDepth else { return .tooDeep }
        chain.append(slot)
        defer { chain.removeLast() }
        let result: Lookup
        if let value = expand(levels[index].settings[key]!.value, key: key, level: index, lenient: levels[index].lenient, nesting: 0) {
            result = .value(value)
        } else {
            // Unless a `uses $(X), which expands to more …` reason was already given.
            if problems[key] == nil { problems[key] = "expands to more than \(Self.maxValueBytes) bytes; left unexpanded" }
            result = .tooLong
        }
        memo[slot] = result
        return result
    }

    /// `text` with its references expanded; nil when the result would be longer than `maxValueBytes`.
    private mutating func expand(_ text: String, key: String, level: Int, lenient: Bool, nesting: Int) -> String? {
        guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
        let bytes = Array(text.utf8)
        let partners = Self.closingPartners(bytes)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "$"), index + 1 < bytes.count else { output.append(bytes[index]); index += 1; continue }
            let next = bytes[index + 1]
            let reference: ArraySlice<UInt8>, end: Int
            if let close = partners[index + 1] {
                reference = bytes[(index + 2)..<close]
                end = close + 1
            } else if Self.isNameByte(next), !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
                var stop = index + 1
                while stop < bytes.count, Self.isNameByte(bytes[stop]) { stop += 1 }
                reference = bytes[(index + 1)..<stop]
                end = stop
            } else {
                output.append(UInt8(ascii: "$")); index += 1; continue
            }
            let written = bytes[index..<end]
            index = end
            var parts = Self.splitModifiers(reference)
            // A nested reference in the name (`$(INFOPLIST_KEY_$(X))`) is expanded first.
            if parts[0].contains("$") {
                guard nesting < Self.maxNameNesting else { output += written; continue }
                guard let inner = expand(parts[0], key: key, level: level, lenient: lenient, nesting: nesting + 1) else { return nil }
                parts[0] = inner
            }
            let name = parts[0]
            guard !name.isEmpty else { output += written; continue }
            let modifiers = parts.dropFirst()
            var resolved: String?
            switch name == "inherited" ? lookup(key, from: level + 1) : lookup(name, from: 0) {
            case .value(let value): resolved = value
            case .undefined: resolved = name == "inherited" ? "" : nil
            case .cycle(let names):
                // Every setting on the cycle is left as written, and each is told why.
                let cycle = names.map { "$(\($0))" }.joined(separator: " → ")
                for member in Set(names) { problems[member] = "is part of a reference cycle (\(cycle)); left unexpanded" }
                output += written; continue
            case .tooDeep:
                if !key.isEmpty { problems[key] = "refers through more than \(Self.maxReferenceDepth) settings; left unexpanded" }
                output += written; continue
            case .tooLong:
                // Too long as well: left as written, or its own unexpanded text would keep doubling.
                if !key.isEmpty { problems[key] = "uses $(\(name)), which expands to more than \(Self.maxValueBytes) bytes; left unexpanded" }
                return nil
            }
            if resolved == nil, let fallback = modifiers.first(where: { $0.hasPrefix("default=") }) {
                resolved = String(fallback.dropFirst("default=".count))
            }
            if let resolved {
                output += modifiers.reduce(resolved) { Self.apply($1, to: $0) }.utf8
            } else if lenient {
                continue
            } else {
                if !key.isEmpty { unresolved[key, default: []].insert(name) }
                output += written
            }
            if output.count > Self.maxValueBytes { return nil }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The index of the matching closer of every `(` and `{` (same kind, nesting counted), found in one
    /// pass: searching forward from each `$(` made a line of unclosed `$(` quadratic.
    private static func closingPartners(_ bytes: [UInt8]) -> [Int: Int] {
        var partners: [Int: Int] = [:]
        var parens: [Int] = [], braces: [Int] = []
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "("): parens.append(index)
            case UInt8(ascii: ")"): if let open = parens.popLast() { partners[open] = index }
            case UInt8(ascii: "{"): braces.append(index)
            case UInt8(ascii: "}"): if let open = braces.popLast() { partners[open] = index }
            default: break
            }
        }
        return partners
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): return true
        default: return false
        }
    }

    /// `NAME:mod1:mod2` → `[NAME, mod1, mod2]`; a `:` inside a nested `$(…)` of the name does not split.
    private static func splitModifiers(_ reference: ArraySlice<UInt8>) -> [String] {
        var parts: [String] = []
        var depth = 0, start = reference.startIndex
        for index in reference.indices {
            switch reference[index] {
            case UInt8(ascii: "("), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: ":") where depth == 0:
                parts.append(String(decoding: reference[start..<index], as: UTF8.self))
                start = index + 1
            default: break
            }
        }
        parts.append(String(decoding: reference[start...], as: UTF8.self))
        return parts
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

/// A `.xcconfig` file: `KEY = value` lines, `//` comments, `#include "other.xcconfig"` and
/// `#include? "optional.xcconfig"` (no note when it is missing).
///
/// Includes are untrusted and bounded: an include already on the current chain is a cycle (an error
/// citing the `#include` line), chains deeper than `maxIncludeDepth` and more than `maxFiles` files or
/// `maxBytes` bytes in all are errors, and each file is read and parsed once.
enum XCConfigFile {
    struct Line { var key: String; var value: String; var line: Int; var file: String; var text: String }

    static let maxIncludeDepth = 16

    /// Why `path` is not read as build settings, or nil. Only `.xcconfig` files are: any text of
    /// `KEY = value` lines parses as one, so a project naming `.git/config` (the CI token) or `.env`
    /// as its base configuration would otherwise show their secrets as expanded settings.
    static func refusal(_ path: String) -> String? {
        if GitMetadata.isNamed(path) { return GitMetadata.refusal }
        if (path as NSString).pathExtension.lowercased() != "xcconfig" { return "is not an .xcconfig file; its lines are not read as build settings" }
        return nil
    }
    static let maxFiles = 256
    static let maxBytes = 8 * 1024 * 1024

    /// `read` returns the text of a path relative to the app root, or nil when it cannot be read.
    /// The lines come back in Xcode's order (an included file's lines where its `#include` is), so a
    /// later assignment wins over an earlier one. `unreadable` says why an existing file could not be read (the file system refused it), for the note.
    static func parse(path: String, display: @escaping (String) -> String, read: @escaping (String) -> String?,
                      unreadable: @escaping (String) -> String? = { _ in nil }, notes: inout [String]) throws -> [Line] {
        var includes = IncludeGraph(display: display, read: read, unreadable: unreadable)
        defer { notes += includes.notes }
        if let refusal = refusal(path) {
            notes.append("\(display(path)) \(refusal)")
            return []
        }
        guard try includes.load(path, from: nil) != nil else {
            notes.append(display(path) + (unreadable(path).map { " " + $0 } ?? ": configuration file not found or unreadable"))
            return []
        }
        try includes.check(path, chain: [])
        var emitted: Set<String> = []
        var reversed: [Line] = []
        includes.emitReversed(path, emitted: &emitted, into: &reversed)
        return reversed.reversed()
    }

    fileprivate struct Include { var path: String; var line: Int; var optional: Bool }
    fileprivate enum Item { case setting(Line), include(Include) }

    /// The files reachable through `#include`, each read and parsed once.
    private struct IncludeGraph {
        let display: (String) -> String
        let read: (String) -> String?
        let unreadable: (String) -> String?
        /// Parsed files by path; nil for a file that could not be read.
        var files: [String: [Item]?] = [:]
        var bytes = 0
        var checked: Set<String> = []
        var notes: [String] = []

        init(display: @escaping (String) -> String, read: @escaping (String) -> String?, unreadable: @escaping (String) -> String?) {
            self.display = display; self.read = read; self.unreadable = unreadable
        }

        /// The items of `path`, read on first use; `from` is the `#include` that names it, for errors.
        mutating func load(_ path: String, from include: (file: String, line: Int)?) throws -> [Item]? {
            if let known = files[path] { return known }
            if files.count >= XCConfigFile.maxFiles {
                throw budgetError(path, include, "more than \(XCConfigFile.maxFiles) configuration files")
            }
            guard let text = read(path) else { files[path] = .some(nil); return nil }
            bytes += text.utf8.count
            if bytes > XCConfigFile.maxBytes {
                throw budgetError(path, include, "more than \(XCConfigFile.maxBytes) bytes of configuration files")
            }
            let items = parseItems(text, path: path)
            files[path] = items
            return items
        }

        private func budgetError(_ path: String, _ include: (file: String, line: Int)?, _ what: String) -> InputError {
            InputError("#include of \(display(path)) would read \(what)", file: display(include?.file ?? path), line: include?.line)
        }

        /// Walks the includes depth-first in file order: cycles and chains that nest too deeply are
        /// errors citing the `#include` line. A file already checked is not walked again.
        mutating func check(_ path: String, chain: [String]) throws {
            guard let items = files[path] ?? nil, !checked.contains(path) else { return }
            let chain = chain + [path]
            for case .include(let include) in items {
                let location = (file: path, line: include.line)
                if let start = chain.firstIndex(of: include.path) {
                    let cycle = (chain[start...] + [include.path]).map(display).joined(separator: " → ")
                    throw InputError("#include cycle: \(cycle)", file: display(path), line: include.line)
                }
                if chain.count >= XCConfigFile.maxIncludeDepth {
                    throw InputError("#include nests deeper than \(XCConfigFile.maxIncludeDepth) files (\(chain.map(display).joined(separator: " → ")) → \(display(include.path)))",
                                     file: display(path), line: include.line)
                }
                if try load(include.path, from: location) == nil {
                    // Flutter writes Generated.xcconfig on every build and keeps it out of git; what it
                    // sets is read from pubspec.yaml instead (see `flutterGenerated`).
                    if !include.optional && !include.path.hasSuffix("Flutter/Generated.xcconfig") {
                        notes.append("\(display(path)):\(include.line): #include \"\(display(include.path))\" " + (unreadable(include.path) ?? "not found or unreadable"))
                    }
                    continue
                }
                try check(include.path, chain: chain)
            }
            checked.insert(path)
        }

        /// Lines in reverse order, each file's lines once: at its *last* `#include`. Expanding a file
        /// at every `#include` (as Xcode does, textually) gives the same settings, because a later copy
        /// of the same lines overrides every assignment of an earlier one; keeping only the last copy
        /// keeps that order and makes a file included many times cost one read.
        func emitReversed(_ path: String, emitted: inout Set<String>, into output: inout [Line]) {
            guard emitted.insert(path).inserted, let items = files[path] ?? nil else { return }
            for item in items.reversed() {
                switch item {
                case .setting(let line): output.append(line)
                case .include(let include): emitReversed(include.path, emitted: &emitted, into: &output)
                }
            }
        }

        private mutating func parseItems(_ text: String, path: String) -> [Item] {
            var items: [Item] = []
            let shown = display(path)
            for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                var line = raw.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("#include") {
                    let optional = line.hasPrefix("#include?")
                    guard let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\"") else {
                        notes.append("\(shown):\(index + 1): #include without a quoted path; ignored")
                        continue
                    }
                    let target = String(line[line.index(after: open)..<close])
                    let folder = (path as NSString).deletingLastPathComponent
                    // Relative to the including file's folder; never outside the app folder.
                    guard !target.hasPrefix("/"), let resolved = AppFiles.normalize(AppFiles.join(folder.isEmpty ? "." : folder, target)) else {
                        notes.append("\(shown):\(index + 1): #include \"\(target)\" points outside the app folder; not followed")
                        continue
                    }
                    if let refusal = XCConfigFile.refusal(resolved) {
                        notes.append("\(shown):\(index + 1): #include \"\(target)\" \(refusal)")
                        continue
                    }
                    items.append(.include(Include(path: resolved, line: index + 1, optional: optional)))
                    continue
                }
                if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]).trimmingCharacters(in: .whitespaces) }
                guard let equals = line.firstIndex(of: "=") else { continue }
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                if value.hasSuffix(";") { value.removeLast() }
                guard !key.isEmpty else { continue }
                items.append(.setting(Line(key: key, value: value, line: index + 1, file: shown, text: raw.trimmingCharacters(in: .whitespaces))))
            }
            return items
        }
    }
}
