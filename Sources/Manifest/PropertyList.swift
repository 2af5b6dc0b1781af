import Foundation

/// A property-list value with Swift types, so rules never touch `Any`.
public indirect enum PlistValue: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case integer(Int)
    case real(Double)
    case date(Date)
    case data(Data)
    case array([PlistValue])
    case dictionary([String: PlistValue])

    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var array: [PlistValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var dictionary: [String: PlistValue]? { if case .dictionary(let d) = self { return d } else { return nil } }
    public var integer: Int? { if case .integer(let i) = self { return i } else { return nil } }

    /// The kind's name as plist XML writes it, for messages ("found <true/>, expected <string>").
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .real: return "real"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dictionary"
        }
    }

    /// A short rendering for evidence lines of binary plists.
    public var summary: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .real(let r): return String(r)
        case .date(let d): return d.ISO8601Format()
        case .data(let d): return "<\(d.count) bytes>"
        case .array(let a): return "[" + a.map(\.summary).joined(separator: ", ") + "]"
        case .dictionary(let d): return "{" + d.keys.sorted().joined(separator: ", ") + "}"
        }
    }

    init(any value: Any, depth: Int = 0) throws {
        if depth > InputLimits.maxNestingDepth { throw PlistNestingTooDeep() }
        switch value {
        case let s as String: self = .string(s)
        case let d as [String: Any]:
            self = .dictionary(try d.mapValues { try PlistValue(any: $0, depth: depth + 1) })
        case let a as [Any]:
            self = .array(try a.map { try PlistValue(any: $0, depth: depth + 1) })
        case let date as Date: self = .date(date)
        case let data as Data: self = .data(data)
        case let b as Bool where type(of: value) == Bool.self: self = .bool(b)
        case let n as NSNumber:
            // Booleans bridge as NSNumber of ObjC type "c" on Darwin; Linux hands back a Swift Bool (above).
            switch String(cString: n.objCType) {
            case "c", "B": self = .bool(n.boolValue)
            case "d", "f": self = .real(n.doubleValue)
            default: self = .integer(n.intValue)
            }
        default: self = .string(String(describing: value))
        }
    }
}

struct PlistNestingTooDeep: Error {}

/// A parsed property list (Info.plist, `.entitlements`, `PrivacyInfo.xcprivacy`) that remembers
/// where each key was written, so findings cite `file:line` and quote the line.
public struct PropertyListDocument: Sendable {
    public enum Format: String, Sendable {
        case xml, binary
        /// Xcode's generated Info.plist (`GENERATE_INFOPLIST_FILE`): keys from `INFOPLIST_KEY_*` lines of the project file.
        case buildSettings = "generated from build settings"
        /// Keys an Expo config (`app.json`) puts into the Info.plist or entitlements at prebuild.
        case expoConfig = "Expo config"
        /// XcodeGen's `project.yml` (`info.properties`, `entitlements.properties`).
        case xcodeGen = "XcodeGen project.yml"
        /// Keys a Tuist `Project.swift` writes (`infoPlist: .extendingDefault(with: [...])`, `entitlements: .dictionary`).
        case tuist = "Tuist Project.swift"
        /// Keys a Cordova `config.xml` (or its HealthKit plugin) writes at `cordova prepare`.
        case cordovaConfig = "Cordova config.xml"
    }

    /// Path as shown in reports: relative to the site folder.
    public let path: String
    public let format: Format
    public let root: [String: PlistValue]
    /// Line of each key, by dotted key path (`NSExtension.NSExtensionPointIdentifier`). XML only.
    public let keyLines: [String: Int]
    /// Line of the root `<dict>`; findings about a *missing* key point here.
    public let rootLine: Int
    let lines: [Substring]
    /// The lines of the file the document was read from (for a synthesized one, the file that wrote its keys).
    public var textLines: [Substring] { lines }
    /// Top-level keys written in another file of the same spec (an XcodeGen `include`): that file's
    /// document cites them.
    var includedKeys: [String: PropertyListDocument] = [:]

    public subscript(key: String) -> PlistValue? { root[key] }

    private func including(_ keyPath: String?) -> PropertyListDocument? {
        keyPath.flatMap { $0.split(separator: ".").first }.flatMap { includedKeys[String($0)] }
    }

    /// Where `key` is written, or the root dict when absent (or in a binary plist).
    public func location(of keyPath: String?) -> FileLocation {
        if let other = including(keyPath) { return other.location(of: keyPath) }
        return FileLocation(file: path, line: keyPath.flatMap { keyLines[$0] } ?? rootLine)
    }

    /// This document with `other`'s top-level keys added where this one lacks them, cited in `other`.
    func merging(_ other: PropertyListDocument) -> PropertyListDocument {
        var merged = PropertyListDocument(path: path, format: format, root: root.merging(other.root) { mine, _ in mine }, keyLines: keyLines,
                                          rootLine: rootLine, lines: lines)
        merged.includedKeys = includedKeys
        for key in other.root.keys where root[key] == nil { merged.includedKeys[key] = other.including(key) ?? other }
        return merged
    }

    /// The text a finding quotes for `keyPath`: the key's line and, when the value sits on the
    /// next line (Xcode's layout), that line too.
    public func quote(_ keyPath: String?) -> String {
        if let other = including(keyPath) { return other.quote(keyPath) }
        guard format != .binary else {
            guard let keyPath else { return "(binary property list)" }
            let value = keyPath.split(separator: ".").reduce(Optional(PlistValue.dictionary(root))) { $0?.dictionary?[String($1)] }
            return "\(keyPath) = \(value?.summary ?? "(absent)")  (binary property list)"
        }
        let line = keyPath.flatMap { keyLines[$0] } ?? rootLine
        guard line >= 1, line <= lines.count else { return "" }
        var text = lines[line - 1].trimmingCharacters(in: .whitespaces)
        if keyPath != nil, keyPath.flatMap({ keyLines[$0] }) != nil, line < lines.count, !text.contains("</string>"),
           text.hasSuffix("</key>") {
            text += " " + lines[line].trimmingCharacters(in: .whitespaces)
        }
        return text
    }

    public static func parse(_ data: Data, path: String) throws -> PropertyListDocument {
        if data.isEmpty { throw InputError("property list is empty", file: path, line: 1) }
        if data.count > InputLimits.maxPropertyListBytes {
            throw InputError("property list is \(data.count) bytes, over the \(InputLimits.maxPropertyListBytes)-byte limit (an Info.plist is a few KiB); not read",
                             file: path, line: 1)
        }
        let isBinary = data.starts(with: Array("bplist".utf8))
        if isBinary, let problem = BinaryPlistCheck.problem(in: data) {
            throw InputError("malformed binary property list: \(problem)", file: path)
        }
        if isBinary { return try parseBinary(data, path: path) }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "not a valid property list"
            throw InputError("malformed XML property list: \(detail)", file: path, line: XMLKeyIndex.lineOfError(in: data, detail: detail) ?? 1)
        }
        guard let dictionary = object as? [String: Any] else {
            throw InputError("property list root must be a <dict>", file: path, line: 1)
        }
        let root: [String: PlistValue]
        do {
            root = try dictionary.mapValues { try PlistValue(any: $0) }
        } catch {
            throw InputError("property list nests deeper than \(InputLimits.maxNestingDepth) levels", file: path, line: 1)
        }
        let text = String(decoding: data, as: UTF8.self)
        let index = XMLKeyIndex(text: text)
        return PropertyListDocument(path: path, format: .xml, root: root, keyLines: index.keyLines, rootLine: index.rootLine,
                                    lines: TextLines.split(text))
    }
}

extension PropertyListDocument {
    /// Binary plists are read by `BinaryPropertyList`, not Foundation, whose reader expands shared
    /// objects into a tree without bound.
    static func parseBinary(_ data: Data, path: String) throws -> PropertyListDocument {
        let value: PlistValue
        do {
            value = try BinaryPropertyList.decode(data)
        } catch .corrupt {
            throw InputError("malformed binary property list: its trailer, offset table or an object is corrupt", file: path)
        } catch .cycle(let object) {
            throw InputError("malformed binary property list: object \(object) contains itself (a reference cycle)", file: path)
        } catch .tooManyValues(let limit) {
            throw InputError("binary property list shares its objects so often that it expands to more than \(limit) values; not read", file: path)
        } catch .tooDeep {
            throw InputError("property list nests deeper than \(InputLimits.maxNestingDepth) levels", file: path)
        }
        guard case .dictionary(let root) = value else { throw InputError("property list root must be a <dict>", file: path) }
        return PropertyListDocument(path: path, format: .binary, root: root, keyLines: [:], rootLine: 1, lines: [])
    }
}

/// Finds the line of every `<key>` in an XML plist. PropertyListSerialization gives no positions,
/// so we walk the tags ourselves, tracking the dict/array path.
struct XMLKeyIndex {
    var keyLines: [String: Int] = [:]
    var rootLine = 1

    init(text: String) {
        var path: [String] = []       // key path of the dicts we are inside
        var containers: [Bool] = []   // true = dict, false = array
        var pendingKey: String?
        var line = 1
        var sawRoot = false
        var scanner = text.unicodeScalars[...]
        while let open = scanner.firstIndex(of: "<") {
            line += scanner[scanner.startIndex..<open].lazy.filter { $0 == "\n" }.count
            guard let close = scanner[open...].firstIndex(of: ">") else { break }
            let tag = String(String.UnicodeScalarView(scanner[scanner.index(after: open)..<close]))
            let tagLine = line
            line += tag.unicodeScalars.lazy.filter { $0 == "\n" }.count
            scanner = scanner[scanner.index(after: close)...]
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            let name = tag.split(whereSeparator: { $0 == " " || $0 == "/" }).first.map(String.init) ?? ""
            let selfClosing = tag.hasSuffix("/")
            switch (tag.hasPrefix("/"), name) {
            case (false, "key"):
                guard let end = scanner.firstIndex(of: "<") else { break }
                let key = MarkupEscaping.unescape(String(String.UnicodeScalarView(scanner[scanner.startIndex..<end])))
                line += key.unicodeScalars.lazy.filter { $0 == "\n" }.count
                scanner = scanner[end...]
                let full = (path + [key]).joined(separator: ".")
                if keyLines[full] == nil { keyLines[full] = tagLine }
                pendingKey = key
            case (false, "dict") where !selfClosing:
                if !sawRoot { rootLine = tagLine; sawRoot = true }
                if containers.last == true, let key = pendingKey { path.append(key) } else if !containers.isEmpty { path.append("#") }
                containers.append(true)
                pendingKey = nil
            case (false, "array") where !selfClosing:
                if containers.last == true, let key = pendingKey { path.append(key) } else if !containers.isEmpty { path.append("#") }
                containers.append(false)
                pendingKey = nil
            case (true, "dict"), (true, "array"):
                if !containers.isEmpty { containers.removeLast() }
                if !path.isEmpty && !containers.isEmpty { path.removeLast() }
            default:
                if !tag.hasPrefix("/") && containers.last == true && name != "key" { pendingKey = nil }
            }
        }
    }

    /// Foundation's parse errors mention "line N" for XML; pull it out when present.
    static func lineOfError(in data: Data, detail: String) -> Int? {
        guard let range = detail.range(of: "line ") else { return nil }
        let digits = detail[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }
}

/// Checks a binary plist's trailer, offset table and object markers before Foundation reads it:
/// on Linux, bridging some valid-but-unusual objects (a set, a UID) traps instead of throwing, and an
/// app's manifest never holds them. Only the kinds `PlistValue` represents are let through.
enum BinaryPlistCheck {
    static func problem(in data: Data) -> String? {
        let bytes = [UInt8](data)
        let corrupt = "its trailer, offset table or an object is corrupt"
        guard bytes.count >= 8 + 32 else { return corrupt }
        let trailer = bytes.count - 32
        func integer(_ at: Int, _ size: Int) -> Int? {
            guard size >= 1, size <= 8, at >= 0, at + size <= bytes.count else { return nil }
            var value: UInt64 = 0
            for byte in bytes[at..<(at + size)] { value = value << 8 | UInt64(byte) }
            return value > UInt64(Int.max) ? nil : Int(value)
        }
        let offsetSize = Int(bytes[trailer + 6])
        guard (1...8).contains(offsetSize), (1...8).contains(Int(bytes[trailer + 7])),
              let count = integer(trailer + 8, 8), let top = integer(trailer + 16, 8), let table = integer(trailer + 24, 8),
              count >= 1, top < count, table >= 8, table <= trailer, count <= (trailer - table) / offsetSize else { return corrupt }
        for index in 0..<count {
            guard let offset = integer(table + index * offsetSize, offsetSize), offset >= 8, offset < table else { return corrupt }
            let marker = bytes[offset]
            switch marker >> 4 {
            case 0x0 where marker == 0x08 || marker == 0x09: continue // false, true
            case 0x1, 0x2, 0x4, 0x5, 0x6, 0xA, 0xD: continue // integer, real, data, strings, array, dictionary
            case 0x3 where marker == 0x33: continue // date
            case 0xC: return "it holds a set (object \(index)), which an app's property list never does"
            case 0x8: return "it holds a keyed-archiver UID (object \(index)), which an app's property list never does"
            default: return "object \(index) has the unknown type marker 0x\(String(marker, radix: 16, uppercase: true))"
            }
        }
        return nil
    }

}
