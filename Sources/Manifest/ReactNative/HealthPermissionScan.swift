import Foundation

/// One permission constant an `initHealthKit` call asks for.
public struct ReactNativePermission: Sendable, Hashable {
    /// The react-native-health constant (`StepCount`, `Weight`).
    public var constant: String
    /// The HealthKit type it maps to, by the audit's name (`stepCount`, `bodyMass`); nil when unmapped.
    public var type: String?
    public var location: FileLocation
}

/// An `AppleHealthKit.initHealthKit(options, callback)` call and the types it asks for.
public struct ReactNativeHealthRequest: Sendable {
    public var location: FileLocation
    public var quote: String
    public var read: [ReactNativePermission]
    public var write: [ReactNativePermission]
    /// A list (or the object holding it) could not be followed: this request asks for more, unknown.
    public var readUnresolved = false
    public var writeUnresolved = false
}

/// What the app's JavaScript asks react-native-health for, and what could not be resolved.
public struct ReactNativeHealthScan: Sendable {
    public var requests: [ReactNativeHealthRequest]
    /// Unresolved permission expressions, unknown constants, missing calls — shown on the report.
    public var notes: [String]

    public var readTypes: [String] { requests.flatMap(\.read).compactMap(\.type) }
    public var writeTypes: [String] { requests.flatMap(\.write).compactMap(\.type) }
    /// The calls (`file:line`) whose read or write list could not be followed.
    public var unresolvedReadPlaces: [String] { requests.filter(\.readUnresolved).map { "\($0.location.file):\($0.location.line ?? 0)" } }
    public var unresolvedWritePlaces: [String] { requests.filter(\.writeUnresolved).map { "\($0.location.file):\($0.location.line ?? 0)" } }

    /// The library's request methods, by its description (`initHealthKit`).
    static let requestMethods = Set(HealthKitLibrary.reactNativeHealth.methods.filter { $0.value == .authorizationRequest }.keys)

    public static func scan(_ files: [JavaScriptFile]) -> ReactNativeHealthScan {
        var requests: [ReactNativeHealthRequest] = []
        var notes: [String] = []
        for file in files {
            for index in file.healthKitMembers(named: { requestMethods.contains($0) }) {
                guard let open = file.callParen(after: index) else { continue }
                var resolver = PermissionResolver(file: file)
                let place = "\(file.path):\(file.tokens[index].line)"
                let arguments = file.items(of: open)
                guard let options = arguments.first else {
                    notes.append("\(place): initHealthKit is called without options; react-native-health answers \"permissions must be provided in the initialization options\"")
                    continue
                }
                let (read, write) = resolver.permissions(in: options)
                requests.append(ReactNativeHealthRequest(location: file.location(of: index), quote: file.quote(index), read: read, write: write,
                                                         readUnresolved: resolver.unresolved.contains("read"), writeUnresolved: resolver.unresolved.contains("write")))
                notes += resolver.notes.map { "\(place): \($0)" }
            }
        }
        let importing = files.filter { file in file.tokens.contains { $0.kind == .string && JavaScriptFile.healthModules.contains($0.value) } }
        if requests.isEmpty, let first = importing.first {
            notes.append("\(first.path): react-native-health is imported but no initHealthKit call was found; the types the app asks for are unknown")
        }
        var seen: Set<String> = []
        return ReactNativeHealthScan(requests: requests, notes: notes.filter { seen.insert($0).inserted })
    }
}

/// Follows the options object of `initHealthKit` to its `permissions.read` / `permissions.write`
/// arrays: literals, `const` bindings in the same file, member access into object literals, spreads
/// of arrays (`...base.read`) and objects; every element is a `Permissions.X` constant or a string.
private struct PermissionResolver {
    let file: JavaScriptFile
    var notes: [String] = []
    /// The lists (`read`, `write`) that could not be followed: what they ask for is unknown.
    var unresolved: Set<String> = []
    /// Notes that say a value could not be followed (not those about a value that is wrong).
    private var unfollowed = 0
    private static let maxDepth = 8

    /// A value that could not be followed: noted, and counted so the list it is in becomes unknown.
    private mutating func unfollowable(_ note: String) {
        notes.append(note)
        unfollowed += 1
    }

    init(file: JavaScriptFile) { self.file = file }

    private var tokens: [JSToken] { file.tokens }

    mutating func permissions(in options: Range<Int>) -> (read: [ReactNativePermission], write: [ReactNativePermission]) {
        // An options or permissions object that cannot be followed leaves both lists unknown.
        guard let object = objectLiteral(options, depth: 0, what: "initHealthKit options") else {
            if unfollowed > 0 { unresolved = ["read", "write"] }
            return ([], [])
        }
        guard let permissions = property("permissions", of: object, depth: 0) else {
            notes.append("initHealthKit options have no `permissions`: react-native-health answers \"permissions must be provided in the initialization options\"")
            return ([], [])
        }
        guard let inner = objectLiteral(permissions, depth: 0, what: "`permissions`") else {
            if unfollowed > 0 { unresolved = ["read", "write"] }
            return ([], [])
        }
        var result: [String: [ReactNativePermission]] = [:]
        for kind in ["read", "write"] {
            let before = unfollowed
            guard let list = property(kind, of: inner, depth: 0) else { continue }
            result[kind] = elements(of: list, kind: kind, depth: 0)
            if unfollowed > before { unresolved.insert(kind) }
        }
        return (result["read"] ?? [], result["write"] ?? [])
    }

    // MARK: Values

    /// The `{` of the object literal an expression denotes, following names and member access.
    private mutating func objectLiteral(_ range: Range<Int>, depth: Int, what: String) -> Int? {
        guard let start = value(range, depth: depth, what: what) else { return nil }
        guard tokens[start].isPunctuator("{") else {
            unfollowable("\(what) `\(file.text(of: range))` could not be resolved (not an object literal in this file)")
            return nil
        }
        return start
    }

    /// The first token of the literal (`{`, `[`, string) an expression stands for, or nil (noted).
    private mutating func value(_ range: Range<Int>, depth: Int, what: String) -> Int? {
        guard depth <= Self.maxDepth else { unfollowable("\(what) nests too deeply to follow"); return nil }
        guard !range.isEmpty else { return nil }
        var range = range
        // Parentheses and `await`/type assertions do not change the value.
        while let group = file.bracketGroup(range), tokens[group].isPunctuator("("), let close = file.partner[group] {
            range = (group + 1)..<close
        }
        let first = range.lowerBound
        if let group = file.bracketGroup(range), !tokens[group].isPunctuator("(") { return group }
        if tokens[first].kind == .string && (range.count == 1 || tokens[first + 1].isIdentifier("as")) { return first }
        if tokens[first].kind == .identifier {
            let (end, names) = file.chain(startingAt: first)
            let trailing = (end + 1)..<range.upperBound
            if trailing.isEmpty || tokens[trailing.lowerBound].isIdentifier("as") || tokens[trailing.lowerBound].isIdentifier("satisfies")
                || (trailing.count == 1 && tokens[trailing.lowerBound].isPunctuator("!")) {
                return chainValue(names, at: first, depth: depth, what: what)
            }
            if tokens[end + 1].isPunctuator("(") {
                unfollowable("\(what) `\(file.text(of: range))` is computed by a function call; not followed")
                return nil
            }
        }
        unfollowable("\(what) `\(file.text(of: range))` could not be resolved")
        return nil
    }

    private mutating func chainValue(_ names: [String], at index: Int, depth: Int, what: String) -> Int? {
        guard let root = names.first else { return nil }
        guard let declared = file.declaration(of: root, before: index) else {
            let imported = isImported(root)
            unfollowable("\(what) `\(names.joined(separator: "."))` " + (imported ? "is imported from another module; only declarations in the same file are followed" : "is not declared in this file"))
            return nil
        }
        let end = declarationEnd(from: declared)
        guard var current = value(declared..<end, depth: depth + 1, what: what) else { return nil }
        for name in names.dropFirst() {
            guard tokens[current].isPunctuator("{"), let next = property(name, of: current, depth: depth + 1),
                  let resolved = value(next, depth: depth + 1, what: what) else {
                unfollowable("\(what) `\(names.joined(separator: "."))` could not be resolved (no `\(name)` in the object)")
                return nil
            }
            current = resolved
        }
        return current
    }

    private func isImported(_ name: String) -> Bool {
        tokens.indices.contains { i in
            tokens[i].isIdentifier(name) && tokens[..<i].reversed().prefix(30).contains { $0.isIdentifier("import") }
                && tokens[i...].prefix(40).contains { $0.isIdentifier("from") }
        }
    }

    /// Where a declaration's value ends: its bracket group, else the next `;`, `,` or line break at its level.
    private func declarationEnd(from start: Int) -> Int {
        if tokens[start].isOpener, let close = file.partner[start] {
            var end = close + 1
            if end < tokens.count, tokens[end].isIdentifier("as") || tokens[end].isIdentifier("satisfies") {
                end += 1
                while end < tokens.count, !tokens[end].isPunctuator(";"), tokens[end].line == tokens[close].line { end += 1 }
            }
            return end
        }
        var i = start
        while i < tokens.count {
            let t = tokens[i]
            if t.isPunctuator(";") || t.isPunctuator(",") || t.isCloser { break }
            if i > start, t.line != tokens[i - 1].line, !tokens[i - 1].isPunctuator(".") && !t.isPunctuator(".") && !t.isPunctuator("?.") { break }
            if t.isOpener, let close = file.partner[i] { i = close }
            i += 1
        }
        return i
    }

    /// The value range of `name` in the object literal opened at `open` (later entries win; spreads
    /// of resolvable objects are searched).
    private mutating func property(_ name: String, of open: Int, depth: Int) -> Range<Int>? {
        for item in file.items(of: open).reversed() {
            let first = item.lowerBound
            if tokens[first].isPunctuator("...") {
                let spread = (first + 1)..<item.upperBound
                if depth < Self.maxDepth, let inner = value(spread, depth: depth + 1, what: "spread"), tokens[inner].isPunctuator("{"),
                   let found = property(name, of: inner, depth: depth + 1) {
                    return found
                }
                continue
            }
            if let value = file.value(of: name, inItem: item) { return value }
        }
        return nil
    }

    // MARK: Permission lists

    private mutating func elements(of range: Range<Int>, kind: String, depth: Int) -> [ReactNativePermission] {
        guard let open = value(range, depth: depth, what: "`permissions.\(kind)`") else { return [] }
        guard tokens[open].isPunctuator("[") else {
            unfollowable("`permissions.\(kind)` `\(file.text(of: range))` is not an array")
            return []
        }
        var result: [ReactNativePermission] = []
        for item in file.items(of: open) {
            let first = item.lowerBound
            if tokens[first].isPunctuator("...") {
                result += elements(of: (first + 1)..<item.upperBound, kind: kind, depth: depth + 1)
                continue
            }
            if tokens[first].kind == .string, item.count == 1 {
                result.append(permission(tokens[first].value, at: first, kind: kind))
                continue
            }
            if tokens[first].kind == .identifier {
                let (end, names) = file.chain(startingAt: first)
                if end + 1 == item.upperBound, let constant = names.last {
                    if names.count >= 2, isPermissionsNamespace(Array(names.dropLast()), at: first) {
                        result.append(permission(constant, at: end, kind: kind))
                        continue
                    }
                    if names.count == 1, let declared = file.declaration(of: constant, before: first), tokens[declared].kind == .string {
                        result.append(permission(tokens[declared].value, at: first, kind: kind))
                        continue
                    }
                }
            }
            unfollowable("`permissions.\(kind)` element `\(file.text(of: item))` could not be resolved")
        }
        return result
    }

    /// `AppleHealthKit.Constants.Permissions`, `Permissions` destructured from it, or an alias of either.
    private func isPermissionsNamespace(_ names: [String], at index: Int) -> Bool {
        if names.last == "Permissions" { return true }
        guard names.count == 1 else { return false }
        if let source = file.destructured(names[0]), source.last == "Permissions" { return true }
        if let declared = file.declaration(of: names[0], before: index), tokens[declared].kind == .identifier {
            return file.chain(startingAt: declared).names.last == "Permissions"
        }
        return false
    }

    private mutating func permission(_ constant: String, at index: Int, kind: String) -> ReactNativePermission {
        let type = HealthKitWrapper.reactNativeHealth.types(named: constant)?.first?.name
        if type == nil {
            notes.append("`permissions.\(kind)` names `\(constant)`, which is not a react-native-health permission (the library silently drops it)")
        }
        return ReactNativePermission(constant: constant, type: type, location: file.location(of: index))
    }
}
