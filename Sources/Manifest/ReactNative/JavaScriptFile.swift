import Foundation

/// A JavaScript / TypeScript file of a React Native app, tokenized once, with its brackets matched,
/// and small structural queries the permission scan and the React Native rules share. A Flutter
/// app's Dart files use the same C-family token stream (strings, comments, brackets, member
/// chains are alike; there is no JSX in Dart).
public struct JavaScriptFile: Sendable {
    /// Path as shown in reports (relative to the site folder).
    public let path: String
    public let text: String
    public let tokens: [JSToken]
    public let comments: [JSComment]
    /// For each bracket token, the index of its partner; nil for other tokens and unmatched brackets.
    public let partner: [Int?]
    /// For each token, the index of the innermost bracket it sits in (nil at top level).
    public let parent: [Int?]
    /// Set when the file nests expressions deeper than the tokenizer follows: analysed up to this line only.
    public let stoppedAtLine: Int?
    private let lines: [Substring]

    public init(path: String, text: String) {
        self.path = path
        self.text = text
        // `.ts` files have generics like `<T>(x: T) =>` that would read as JSX; JSX lives in .tsx/.jsx/.js.
        let component = path.hasSuffix(".vue") || path.hasSuffix(".svelte")
        let script = component ? Self.scriptBlocks(of: text) : text
        let (tokens, comments, stoppedAtLine) = JSTokenizer.tokenizeReportingDepth(
            script, jsx: !component && !path.hasSuffix(".ts") && !path.hasSuffix(".mts") && !path.hasSuffix(".cts"), dart: path.hasSuffix(".dart"))
        self.stoppedAtLine = stoppedAtLine
        self.tokens = tokens
        self.comments = comments
        prose = comments.filter { !$0.text.contains(InlineSuppression.marker) }
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var partner = [Int?](repeating: nil, count: tokens.count)
        var parent = [Int?](repeating: nil, count: tokens.count)
        var stack: [Int] = []
        let pairs = [")": "(", "]": "[", "}": "{"]
        for (index, token) in tokens.enumerated() {
            if token.isCloser {
                // Tolerant: a closer without its opener on top pops to the nearest matching opener, or is ignored.
                if let match = stack.lastIndex(where: { tokens[$0].text == pairs[token.text] }) {
                    let open = stack[match]
                    stack.removeSubrange(match...)
                    partner[open] = index
                    partner[index] = open
                }
                parent[index] = stack.last
                continue
            }
            parent[index] = stack.last
            if token.isOpener { stack.append(index) }
        }
        self.partner = partner
        self.parent = parent
    }

    /// A single-file component's `<script>` blocks in place, everything else blanked to spaces
    /// (line breaks kept), so tokens keep the lines and columns of the file as written.
    static func scriptBlocks(of text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        var inScript = false
        var index = 0
        var keep = [Bool](repeating: false, count: scalars.count)
        // Tag names in either case, compared scalar by scalar where a `<` starts.
        let openTag = (Array("<script".unicodeScalars), Array("<SCRIPT".unicodeScalars))
        let closeTag = (Array("</script".unicodeScalars), Array("</SCRIPT".unicodeScalars))
        func matches(_ tag: ([Unicode.Scalar], [Unicode.Scalar]), at i: Int) -> Bool {
            guard scalars[i] == "<", i + tag.0.count <= scalars.count else { return false }
            return tag.0.indices.allSatisfy { scalars[i + $0] == tag.0[$0] || scalars[i + $0] == tag.1[$0] }
        }
        while index < scalars.count {
            if !inScript, matches(openTag, at: index), index + 7 < scalars.count, scalars[index + 7] == ">" || scalars[index + 7].properties.isWhitespace {
                // The tag's attributes stay blank; the script starts after its `>`.
                var quote: Unicode.Scalar?
                while index < scalars.count, quote != nil || scalars[index] != ">" {
                    if let q = quote { if scalars[index] == q { quote = nil } } else if scalars[index] == "\"" || scalars[index] == "'" { quote = scalars[index] }
                    index += 1
                }
                index += 1
                inScript = true
                continue
            }
            if inScript, matches(closeTag, at: index) { inScript = false; continue }
            keep[index] = inScript
            index += 1
        }
        for i in scalars.indices where !keep[i] && scalars[i] != "\n" { scalars[i] = " " }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    // MARK: Evidence

    /// The source line as written, trimmed.
    /// The file's lines as written.
    public var textLines: [Substring] { lines }

    public func lineText(_ line: Int) -> String {
        guard line >= 1, line <= lines.count else { return "" }
        return lines[line - 1].trimmingCharacters(in: .whitespaces)
    }

    public func location(of index: Int) -> FileLocation {
        FileLocation(file: path, line: tokens[index].line, column: tokens[index].column)
    }

    public func quote(_ index: Int) -> String { lineText(tokens[index].line) }

    public func comments(onLine line: Int) -> [JSComment] {
        prose.filter { $0.line <= line && line <= $0.endLine }
    }

    /// Comments that say something about the code: a suppression directive names rules (whose
    /// ids hold words such as "denial"), so rules must not read it as the author's intent.
    /// Comments that are prose, not suppression markers; filtered once.
    private let prose: [JSComment]

    /// Comments that sit inside a token range (by lines), including a trailing comment on its last line.
    public func comments(in range: Range<Int>) -> [JSComment] {
        guard !range.isEmpty else { return [] }
        let first = tokens[range.lowerBound].line, last = tokens[range.upperBound - 1].line
        return prose.filter { $0.line >= first && $0.line <= last }
    }

    // MARK: Structure

    /// True when `outer` (an opener) encloses token `index`.
    public func encloses(_ outer: Int, _ index: Int) -> Bool {
        guard let close = partner[outer] else { return false }
        return outer < index && index < close
    }

    /// The member chain ending at `index` (an identifier): `AppleHealthKit.Constants.Permissions.StepCount`
    /// → start index and names. `?.` counts as a dot.
    public func chain(endingAt index: Int) -> (start: Int, names: [String]) {
        var names = [tokens[index].text]
        var i = index
        while i >= 2, tokens[i - 1].isPunctuator(".") || tokens[i - 1].isPunctuator("?."), tokens[i - 2].kind == .identifier {
            names.insert(tokens[i - 2].text, at: 0)
            i -= 2
        }
        return (i, names)
    }

    /// The member chain starting at `index`: names and the index of its last identifier.
    public func chain(startingAt index: Int) -> (end: Int, names: [String]) {
        guard tokens[index].kind == .identifier else { return (index, []) }
        var names = [tokens[index].text]
        var i = index
        while i + 2 < tokens.count, tokens[i + 1].isPunctuator(".") || tokens[i + 1].isPunctuator("?."), tokens[i + 2].kind == .identifier {
            names.append(tokens[i + 2].text)
            i += 2
        }
        return (i, names)
    }

    /// The `(` of a call whose callee ends at `index`, skipping TypeScript type arguments (`useState<number>(`).
    public func callParen(after index: Int) -> Int? {
        var i = index + 1
        guard i < tokens.count else { return nil }
        if tokens[i].isPunctuator("?.") { i += 1 }
        if i < tokens.count, tokens[i].isPunctuator("<") {
            var depth = 0
            var j = i
            while j < tokens.count, j - i < 40 {
                let t = tokens[j]
                if t.isPunctuator("<") { depth += 1 } else if t.isPunctuator(">") { depth -= 1 } else if t.isPunctuator(">>") { depth -= 2 }
                else if t.isPunctuator(";") || t.isPunctuator("=") { return nil }
                j += 1
                if depth <= 0 { break }
            }
            guard depth <= 0 else { return nil }
            i = j
        }
        guard i < tokens.count, tokens[i].isPunctuator("(") else { return nil }
        return i
    }

    /// The token ranges of the comma-separated items between an opener and its partner.
    public func items(of open: Int) -> [Range<Int>] {
        guard let close = partner[open] else { return [] }
        var result: [Range<Int>] = []
        var start = open + 1
        var i = open + 1
        while i < close {
            if tokens[i].isPunctuator(",") {
                if start < i { result.append(start..<i) }
                start = i + 1
            } else if tokens[i].isOpener, let match = partner[i] {
                i = match
            }
            i += 1
        }
        if start < close { result.append(start..<close) }
        return result
    }

    /// Whether the tokens of `range` are exactly one bracketed group (`{…}` / `[…]` / `(…)`), possibly
    /// followed by a TypeScript `as Type` / `satisfies Type` / `!`.
    public func bracketGroup(_ range: Range<Int>) -> Int? {
        guard !range.isEmpty, tokens[range.lowerBound].isOpener, let close = partner[range.lowerBound], close < range.upperBound else { return nil }
        let rest = (close + 1)..<range.upperBound
        if rest.isEmpty || tokens[rest.lowerBound].isIdentifier("as") || tokens[rest.lowerBound].isIdentifier("satisfies")
            || (rest.count == 1 && tokens[rest.lowerBound].isPunctuator("!")) {
            return range.lowerBound
        }
        return nil
    }

    /// The text of a token range as written in the source, with line breaks and runs of spaces folded.
    public func text(of range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        let first = tokens[range.lowerBound], last = tokens[range.upperBound - 1]
        guard first.line >= 1, last.line <= lines.count, first.line <= last.line else { return "" }
        var pieces: [String] = []
        for line in first.line...last.line {
            let scalars = Array(lines[line - 1].unicodeScalars)
            let from = line == first.line ? first.column - 1 : 0
            let to = line == last.line ? min(scalars.count, last.column - 1 + last.text.unicodeScalars.count) : scalars.count
            guard from <= to, from >= 0 else { continue }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[from..<to])
            pieces.append(String(view))
        }
        return pieces.joined(separator: " ").split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    // MARK: react-native-health

    /// The module names that bring in react-native-health (its description's).
    public static let healthModules: Set<String> = HealthKitLibrary.reactNativeHealth.modules

    /// Names the library's default export is bound to in this file (`AppleHealthKit` by convention).
    public var healthKitNames: Set<String> {
        var names: Set<String> = ["AppleHealthKit"]
        for (index, token) in tokens.enumerated() where token.kind == .string && Self.healthModules.contains(token.value) {
            // import X from '…' / import X, { … } from '…'
            if index >= 2, tokens[index - 1].isIdentifier("from") {
                var i = index - 2
                while i > 0, !tokens[i].isIdentifier("import") { i -= 1 }
                if tokens[i].isIdentifier("import"), i + 1 < tokens.count, tokens[i + 1].kind == .identifier, tokens[i + 1].text != "type" {
                    names.insert(tokens[i + 1].text)
                }
                if tokens[i].isIdentifier("import"), i + 3 < tokens.count, tokens[i + 1].isPunctuator("*"), tokens[i + 2].isIdentifier("as") {
                    names.insert(tokens[i + 3].text)
                }
            }
            // const X = require('…')
            if index >= 4, tokens[index - 1].isPunctuator("("), tokens[index - 2].isIdentifier("require"),
               tokens[index - 3].isPunctuator("="), tokens[index - 4].kind == .identifier {
                names.insert(tokens[index - 4].text)
            }
        }
        return names
    }

    /// Whether the file imports react-native-health or talks to `AppleHealthKit`.
    public var usesHealthKit: Bool {
        tokens.contains { ($0.kind == .string && Self.healthModules.contains($0.value)) || $0.isIdentifier("AppleHealthKit") }
    }

    /// Indices of identifiers that name a react-native-health method: `AppleHealthKit.initHealthKit`,
    /// `HK.getStepCount`, `NativeModules.AppleHealthKit.getSamples` (the last name of the chain).
    public func healthKitMembers(named filter: (String) -> Bool) -> [Int] {
        let receivers = healthKitNames
        return tokens.indices.filter { index in
            let token = tokens[index]
            guard token.kind == .identifier, filter(token.text), index >= 2, tokens[index - 1].isPunctuator(".") || tokens[index - 1].isPunctuator("?.") else { return false }
            let names = chain(endingAt: index).names.dropLast()
            return names.contains { receivers.contains($0) }
        }
    }

    /// The declaration of `name` visible from `index`: `const|let|var name (: Type)? = value` → the
    /// value's first token. The nearest declaration before the use in an enclosing scope wins; a
    /// module-level one declared later (used inside a function) is taken too.
    public func declaration(of name: String, before index: Int) -> Int? {
        var candidates: [(declaration: Int, value: Int)] = []
        for i in tokens.indices where tokens[i].kind == .identifier && ["const", "let", "var"].contains(tokens[i].text) {
            guard i + 2 < tokens.count, tokens[i + 1].isIdentifier(name) else { continue }
            var j = i + 2
            if tokens[j].isPunctuator(":") {
                // Skip the type annotation up to the `=` at the same bracket level.
                while j < tokens.count, !(tokens[j].isPunctuator("=") && parent[j] == parent[i]) {
                    if tokens[j].isPunctuator(";") { break }
                    if tokens[j].isOpener, let match = partner[j] { j = match }
                    j += 1
                }
            }
            guard j + 1 < tokens.count, tokens[j].isPunctuator("=") else { continue }
            let scope = parent[i]
            guard scope == nil || encloses(scope!, index) else { continue }
            candidates.append((i, j + 1))
        }
        if let before = candidates.last(where: { $0.declaration < index }) { return before.value }
        return candidates.first { parent[$0.declaration] == nil }?.value
    }

    /// `const { Permissions } = AppleHealthKit.Constants` / `const { Permissions: P } = …`: the chain a
    /// destructured name stands for (`[AppleHealthKit, Constants, Permissions]`).
    public func destructured(_ name: String) -> [String]? {
        for i in tokens.indices where tokens[i].kind == .identifier && ["const", "let", "var"].contains(tokens[i].text) {
            guard i + 1 < tokens.count, tokens[i + 1].isPunctuator("{"), let close = partner[i + 1], close + 2 < tokens.count,
                  tokens[close + 1].isPunctuator("="), tokens[close + 2].kind == .identifier else { continue }
            let source = chain(startingAt: close + 2).names
            for item in items(of: i + 1) {
                let parts = Array(item)
                if parts.count == 1, tokens[parts[0]].isIdentifier(name) { return source + [name] }
                if parts.count == 3, tokens[parts[1]].isPunctuator(":"), tokens[parts[2]].isIdentifier(name) { return source + [tokens[parts[0]].text] }
            }
        }
        return nil
    }
}

/// `// healthaudit:disable-next-line RULE -- reason`: silences RULE on the next line of code.
public enum InlineSuppression {
    public static let marker = "healthaudit:disable-next-line"
}

extension JavaScriptFile {
    /// The opener of the literal `name` is bound to (`name = {`, `name = [`, Dart's `name => [`), the
    /// last one before `limit` when given.
    public func literal(boundTo name: String, opener: String, before limit: Int? = nil) -> Int? {
        let end = min(limit ?? tokens.count, tokens.count)
        var found: Int?
        for i in tokens.indices where i + 2 < end && tokens[i].isIdentifier(name) {
            // TypeScript's annotation of a declared name: `const config: ExpoConfig = { … }`.
            var j = i + 1
            if tokens[j].isPunctuator(":"), i > 0, ["const", "let", "var"].contains(where: tokens[i - 1].isIdentifier) {
                while j < end, j - i < 10, !tokens[j].isPunctuator("="), !tokens[j].isPunctuator(";"), !tokens[j].isPunctuator("{") { j += 1 }
            }
            if j + 1 < end, tokens[j].isPunctuator("=") || tokens[j].isPunctuator("=>"), tokens[j + 1].isPunctuator(opener) { found = j + 1 }
        }
        return found
    }

    /// The value tokens of one object item whose key is `key`: `key: value`, or the shorthand
    /// `{ key }` (which names a variable of that name); nil for any other item.
    public func value(of key: String, inItem item: Range<Int>) -> Range<Int>? {
        let first = tokens[item.lowerBound]
        guard (first.kind == .identifier || first.kind == .string) && first.value == key else { return nil }
        if item.count == 1 { return item }
        return item.count > 2 && tokens[item.lowerBound + 1].isPunctuator(":") ? (item.lowerBound + 2)..<item.upperBound : nil
    }

    /// The value of `key` in the object literal (or named arguments) opened at `open`; a later entry
    /// wins, as in JavaScript.
    public func value(of key: String, inObjectAt open: Int) -> Range<Int>? {
        items(of: open).reversed().lazy.compactMap { self.value(of: key, inItem: $0) }.first
    }

    /// A name as written in a list: a string's value, or a member chain's last name
    /// (`HealthDataType.STEPS` → `STEPS`); nil for anything else.
    public func writtenName(_ item: Range<Int>) -> String? {
        let first = tokens[item.lowerBound]
        if item.count == 1, first.kind == .string { return first.value }
        guard first.kind == .identifier, item.count > 1 else { return nil }
        let chain = chain(startingAt: item.lowerBound)
        return chain.end == item.upperBound - 1 ? chain.names.last : nil
    }
}
