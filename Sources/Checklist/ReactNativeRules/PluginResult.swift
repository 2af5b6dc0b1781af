import Foundation
import Manifest

/// The keys of a plugin call's options object, and how its awaited result is used afterwards.
enum PluginResult {
    /// Keys of the object literal passed first (`{ read: […], write: […] }` → `read`, `write`), or of
    /// the variable's literal when a name is passed; empty when neither is visible.
    static func arguments(of call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> [String] {
        let tokens = file.tokens
        guard let object = objectArgument(of: call, in: file) else { return [] }
        return file.items(of: object).compactMap { item in item.first.map { tokens[$0] }.flatMap { $0.kind == .identifier || $0.kind == .string ? $0.value : nil } }
    }

    /// The `{` of the call's first argument: written inline, or bound to a name earlier in the file
    /// (`requestAuthorization(options)` with `const options = { … }`).
    private static func objectArgument(of call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> Int? {
        let tokens = file.tokens
        guard let first = file.items(of: call.paren).first, var object = first.first else { return nil }
        if tokens[object].kind == .identifier, first.count == 1 {
            guard let declared = file.literal(boundTo: tokens[object].text, opener: "{", before: object) else { return nil }
            object = declared
        }
        return tokens[object].isPunctuator("{") ? object : nil
    }

    /// `react-native-health`'s permissions argument (`{ permissions: { read: [...], write: [...] } }`,
    /// written inline or bound to a name earlier in the file): the lists that name at least one type.
    static func permissionLists(of call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> Set<String> {
        let tokens = file.tokens
        guard let object = objectArgument(of: call, in: file) else { return [] }
        // The value of a key of an object literal: the token after `key:`.
        func value(_ key: String, in object: Int) -> Int? {
            for item in file.items(of: object) {
                guard let start = item.first, item.count >= 3, tokens[start].value == key, tokens[start + 1].isPunctuator(":") else { continue }
                return start + 2
            }
            return nil
        }
        guard let inner = value("permissions", in: object), tokens[inner].isPunctuator("{") else { return [] }
        return Set(["read", "write"].filter { key in
            guard let list = value(key, in: inner), tokens[list].isPunctuator("[") else { return false }
            return !file.items(of: list).isEmpty
        })
    }

    /// Uses of the name the awaited result is bound to (`const result = await Health.x(…)`): the
    /// property read after it, or nil when the whole value is used.
    static func uses(of call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> [(token: Int, property: String?)] {
        let tokens = file.tokens
        guard let name = call.resultName(in: file), let close = file.partner[call.paren] else { return [] }
        var uses: [(token: Int, property: String?)] = []
        for index in tokens.indices where index > close {
            if tokens[index].isIdentifier(name), !(index >= 1 && tokens[index - 1].isPunctuator(".")) {
                let property = index + 2 < tokens.count && (tokens[index + 1].isPunctuator(".") || tokens[index + 1].isPunctuator("?.")) ? tokens[index + 2].text : nil
                uses.append((index, property))
            } else if tokens[index].kind == .template {
                // A template literal is one token: its `${result.readAuthorized}` is read from the text.
                uses += templateUses(of: name, in: tokens[index].value).map { (index, $0) }
            }
        }
        return uses
    }

    /// `name` or `name.property` inside a template's `${…}`: the property, or nil for the whole value.
    private static func templateUses(of name: String, in text: String) -> [String?] {
        guard let pattern = try? NSRegularExpression(pattern: "(?<![\\w$.])" + NSRegularExpression.escapedPattern(for: name) + "(?![\\w$])(?:\\??\\.([A-Za-z_$][\\w$]*))?") else { return [] }
        var found: [String?] = []
        var depth = 0, start = text.startIndex, index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("${") {
                if depth == 0 { start = text.index(index, offsetBy: 2) }
                depth += 1
                index = text.index(index, offsetBy: 2)
                continue
            }
            if text[index] == "}", depth > 0 {
                depth -= 1
                if depth == 0 {
                    let expression = String(text[start..<index])
                    let range = NSRange(expression.startIndex..., in: expression)
                    for match in pattern.matches(in: expression, range: range) {
                        found.append(Range(match.range(at: 1), in: expression).map { String(expression[$0]) })
                    }
                }
            }
            index = text.index(after: index)
        }
        return found
    }

    /// The first token on the line of `index`: where a finding about that line's statement points.
    static func lineStart(of index: Int, in file: JavaScriptFile) -> Int {
        var start = index
        while start > 0, file.tokens[start - 1].line == file.tokens[index].line { start -= 1 }
        return start
    }
}
