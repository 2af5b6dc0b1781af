import Foundation

/// A token of JavaScript / TypeScript source, with the line and column (1-based) it starts at.
public struct JSToken: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case identifier, number, string, template, regex, punctuator
        /// The start of a JSX element (`<View`); the element's text is skipped, its `{…}` expressions are tokenized.
        case jsx
    }

    public var kind: Kind
    /// The token as written (strings with their quotes).
    public var text: String
    /// A string literal's value with escapes decoded; the text for every other kind.
    public var value: String
    public var line: Int
    public var column: Int

    public func isPunctuator(_ text: String) -> Bool { kind == .punctuator && self.text == text }
    public func isIdentifier(_ name: String) -> Bool { kind == .identifier && text == name }
    public var isOpener: Bool { kind == .punctuator && (text == "(" || text == "[" || text == "{") }
    public var isCloser: Bool { kind == .punctuator && (text == ")" || text == "]" || text == "}") }
}

/// A `//` or `/* */` comment, kept apart from the tokens (rules read what comments claim).
public struct JSComment: Sendable, Hashable {
    public var text: String
    public var line: Int
    public var column: Int
    public var endLine: Int
}

/// A light tokenizer: identifiers, numbers, strings (decoded), template literals (one token each,
/// `${…}` skipped with their nesting), regular expressions, comments, punctuators, and JSX elements
/// (whose text — where `Don't` is no string — is skipped while `{…}` expressions are tokenized).
/// It never fails: an unterminated string ends at the end of its line.
public struct JSTokenizer {
    private let scalars: [Unicode.Scalar]
    private let jsx: Bool
    /// Dart's strings: raw (`r'C:\'`), triple-quoted over several lines, `${…}` inside; no regex literals.
    private let dart: Bool
    private var index = 0
    private var line = 1
    private var column = 1
    private(set) var tokens: [JSToken] = []
    private(set) var comments: [JSComment] = []
    /// Template substitutions and JSX expressions are scanned recursively; past this depth the rest of
    /// the file is skipped (3,000 nested `${` overflowed the stack) and `stoppedAtLine` says where.
    public static let maxNesting = 64
    private var nesting = 0
    private var stoppedAtLine: Int?

    public static func tokenize(_ text: String, jsx: Bool = true, dart: Bool = false) -> (tokens: [JSToken], comments: [JSComment]) {
        let result = tokenizeReportingDepth(text, jsx: jsx, dart: dart)
        return (result.tokens, result.comments)
    }

    /// Also says on which line tokenizing stopped because expressions nested deeper than `maxNesting`.
    public static func tokenizeReportingDepth(_ text: String, jsx: Bool = true, dart: Bool = false) -> (tokens: [JSToken], comments: [JSComment], stoppedAtLine: Int?) {
        var tokenizer = JSTokenizer(scalars: Array(text.unicodeScalars), jsx: jsx && !dart, dart: dart)
        tokenizer.scanCode(stopAtBrace: false)
        return (tokenizer.tokens, tokenizer.comments, tokenizer.stoppedAtLine)
    }

    private init(scalars: [Unicode.Scalar], jsx: Bool, dart: Bool) {
        self.scalars = scalars
        self.jsx = jsx
        self.dart = dart
        if scalars.first == "\u{FEFF}" { index = 1 }
    }

    // MARK: Characters

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    private func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }

    private mutating func advance() {
        guard index < scalars.count else { return }
        if scalars[index] == "\n" { line += 1; column = 1 } else { column += 1 }
        index += 1
    }

    // ASCII first: looking up Unicode properties for every character is most of a scan's cost.
    private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII { return ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" || c == "$" || c == "#" }
        return c.properties.isAlphabetic
    }

    private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII { return ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "$" }
        return c.properties.isAlphabetic
    }

    private static func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { ("0"..."9").contains($0) } ?? false }

    private static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0B}" || c == "\u{0C}" || c == "\u{A0}" || c == "\u{FEFF}" || c == "\u{2028}" || c == "\u{2029}" }

    private func text(_ from: Int, _ to: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[from..<to])
        return String(view)
    }

    // MARK: Trivia

    /// Skips whitespace and comments, recording the comments.
    private mutating func skipTrivia() {
        while let c = current {
            if Self.isSpace(c) { advance(); continue }
            if c == "/" && peek(1) == "/" {
                let start = index, startLine = line, startColumn = column
                while let d = current, d != "\n" { advance() }
                comments.append(JSComment(text: text(start, index), line: startLine, column: startColumn, endLine: startLine))
                continue
            }
            if c == "/" && peek(1) == "*" {
                let start = index, startLine = line, startColumn = column
                advance(); advance()
                while current != nil && !(current == "*" && peek(1) == "/") { advance() }
                advance(); advance()
                comments.append(JSComment(text: text(start, min(index, scalars.count)), line: startLine, column: startColumn, endLine: line))
                continue
            }
            return
        }
    }

    // MARK: Code

    /// Scans code to the end, or — with `stopAtBrace` — through the `}` that closes an enclosing `{`
    /// (a template's `${`, a JSX expression), which is emitted as a token.
    private mutating func scanCode(stopAtBrace: Bool) {
        nesting += 1
        defer { nesting -= 1 }
        if nesting > Self.maxNesting {
            if stoppedAtLine == nil { stoppedAtLine = line }
            index = scalars.count
            return
        }
        var depth = 0
        while true {
            skipTrivia()
            guard let c = current else { return }
            if c == "{" { depth += 1 }
            if c == "}" {
                if depth == 0 && stopAtBrace {
                    emit(.punctuator, "}", line: line, column: column)
                    advance()
                    return
                }
                depth = max(0, depth - 1)
            }
            scanToken()
        }
    }

    private mutating func emit(_ kind: JSToken.Kind, _ text: String, value: String? = nil, line: Int, column: Int) {
        tokens.append(JSToken(kind: kind, text: text, value: value ?? text, line: line, column: column))
    }

    private static let keywordsBeforeExpression: Set<String> = [
        "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await", "default",
    ]

    /// Whether the previous token ends an operand: then `/` divides and `<` compares.
    private func previousEndsOperand(braceEnds: Bool) -> Bool {
        guard let previous = tokens.last else { return false }
        switch previous.kind {
        case .identifier: return !Self.keywordsBeforeExpression.contains(previous.text)
        case .number, .string, .template, .regex, .jsx: return true
        case .punctuator: return previous.text == ")" || previous.text == "]" || (braceEnds && previous.text == "}")
        }
    }

    private static let punctuators: [String] = [
        ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
        "=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "**", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>",
    ].sorted { $0.count > $1.count }

    /// The punctuators by their first character, longest first, as scalars: trying all 33 as
    /// strings at every punctuation mark made tokenizing run at under 1 MB/s.
    private static let punctuatorsByFirst: [Unicode.Scalar: [[Unicode.Scalar]]] =
        Dictionary(grouping: punctuators.map { Array($0.unicodeScalars) }, by: { $0[0] })

    private mutating func scanToken() {
        guard let c = current else { return }
        let startLine = line, startColumn = column, start = index
        if dart, c == "r", let quote = peek(1), quote == "'" || quote == "\"" {
            advance()
            let value = scanDartString(raw: true)
            emit(.string, text(start, index), value: value, line: startLine, column: startColumn)
            return
        }
        if Self.isIdentifierStart(c) {
            advance()
            while let d = current, Self.isIdentifierPart(d) { advance() }
            emit(.identifier, text(start, index), line: startLine, column: startColumn)
            return
        }
        if Self.isDigit(c) || (c == "." && Self.isDigit(peek(1))) {
            while let d = current {
                if Self.isIdentifierPart(d) || d == "." {
                    let wasExponent = d == "e" || d == "E"
                    advance()
                    if wasExponent, let sign = current, sign == "+" || sign == "-", !text(start, index).hasPrefix("0x") { advance() }
                } else { break }
            }
            emit(.number, text(start, index), line: startLine, column: startColumn)
            return
        }
        switch c {
        case "\"", "'":
            let value = dart ? scanDartString(raw: false) : scanString(quote: c)
            emit(.string, text(start, index), value: value, line: startLine, column: startColumn)
            return
        case "`":
            scanTemplate()
            let raw = text(start, index)
            emit(.template, raw, value: String(raw.dropFirst().dropLast()), line: startLine, column: startColumn)
            return
        case "/" where !dart && !previousEndsOperand(braceEnds: false):
            scanRegex()
            emit(.regex, text(start, index), line: startLine, column: startColumn)
            return
        case "<" where jsx && !previousEndsOperand(braceEnds: true) && startsJSX():
            emit(.jsx, "<", line: startLine, column: startColumn)
            scanJSXElement()
            return
        default:
            break
        }
        for punctuator in Self.punctuatorsByFirst[c] ?? [] where matches(punctuator) {
            // `a?.5:1` is a conditional, not optional chaining.
            if punctuator == ["?", "."] && Self.isDigit(peek(2)) { continue }
            for _ in punctuator { advance() }
            emit(.punctuator, text(start, index), line: startLine, column: startColumn)
            return
        }
        advance()
        emit(.punctuator, String(Character(c)), line: startLine, column: startColumn)
    }

    private func matches(_ scalars: [Unicode.Scalar]) -> Bool {
        for offset in scalars.indices where peek(offset) != scalars[offset] { return false }
        return true
    }

    /// Reads a quoted string, returning its decoded value. Stops at an unescaped line break.
    private mutating func scanString(quote: Unicode.Scalar) -> String {
        advance()
        var value = String.UnicodeScalarView()
        while let c = current {
            if c == quote { advance(); break }
            if c == "\n" { break }
            if c == "\\" {
                advance()
                guard decodeEscape(into: &value, quote: quote) else { break }
                continue
            }
            value.append(c)
            advance()
        }
        return String(value)
    }

    /// Decodes the escape after a backslash (already consumed) into `value`; false at the end of input.
    private mutating func decodeEscape(into value: inout String.UnicodeScalarView, quote: Unicode.Scalar) -> Bool {
        guard let escaped = current else { return false }
        advance()
        switch escaped {
        case "n": value.append("\n")
        case "t": value.append("\t")
        case "r": value.append("\r")
        case "b": value.append("\u{08}")
        case "f": value.append("\u{0C}")
        case "v": value.append("\u{0B}")
        case "0" where !Self.isDigit(current): value.append("\u{0}")
        case "\n": break
        case "x":
            let hex = text(index, min(index + 2, scalars.count))
            if let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) { value.append(scalar); advance(); advance() }
        case "u":
            if current == "{" {
                advance()
                let digitsStart = index
                while let d = current, d != "}" && d != quote && d != "\n" { advance() }
                if let code = UInt32(text(digitsStart, index), radix: 16), let scalar = Unicode.Scalar(code) { value.append(scalar) }
                if current == "}" { advance() }
            } else {
                let hex = text(index, min(index + 4, scalars.count))
                if let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) {
                    value.append(scalar)
                    for _ in 0..<4 { advance() }
                }
            }
        default: value.append(escaped)
        }
        return true
    }

    /// Reads a Dart string at its quote: `'…'`, or `'''…'''` across lines; a raw one keeps its
    /// backslashes; `${…}` is kept as written, its nested quotes included.
    private mutating func scanDartString(raw: Bool) -> String {
        guard let quote = current else { return "" }
        let triple = peek(1) == quote && peek(2) == quote
        for _ in 0..<(triple ? 3 : 1) { advance() }
        var value = String.UnicodeScalarView()
        while let c = current {
            if c == quote && (!triple || (peek(1) == quote && peek(2) == quote)) {
                for _ in 0..<(triple ? 3 : 1) { advance() }
                break
            }
            if c == "\n" && !triple { break }
            if c == "\\" && !raw {
                advance()
                guard decodeEscape(into: &value, quote: quote) else { break }
                continue
            }
            if c == "$" && peek(1) == "{" && !raw {
                var depth = 0
                while let d = current {
                    value.append(d)
                    advance()
                    if d == "{" { depth += 1 } else if d == "}" { depth -= 1; if depth == 0 { break } }
                }
                continue
            }
            value.append(c)
            advance()
        }
        return String(value)
    }

    /// Skips a template literal, including `${…}` expressions with their own strings and templates.
    private mutating func scanTemplate() {
        advance()
        while let c = current {
            if c == "`" { advance(); return }
            if c == "\\" { advance(); advance(); continue }
            if c == "$" && peek(1) == "{" {
                advance(); advance()
                // The expression's tokens are not part of the outer stream: the template is one operand.
                let (savedTokens, savedComments) = (tokens.count, comments.count)
                scanCode(stopAtBrace: true)
                tokens.removeSubrange(savedTokens...)
                _ = savedComments
                continue
            }
            advance()
        }
    }

    private mutating func scanRegex() {
        advance()
        var inClass = false
        while let c = current, c != "\n" {
            if c == "\\" { advance(); advance(); continue }
            if c == "[" { inClass = true } else if c == "]" { inClass = false } else if c == "/" && !inClass { advance(); break }
            advance()
        }
        while let c = current, Self.isIdentifierPart(c) { advance() }
    }

    // MARK: JSX

    /// `<Name`, `<>` or `<a.b` in operand position, but not a TSX generic arrow (`<T,>(` / `<T extends U>`).
    private func startsJSX() -> Bool {
        guard let next = peek(1) else { return false }
        if next == ">" { return true }
        guard Self.isIdentifierStart(next) else { return false }
        var offset = 1
        while let c = peek(offset), Self.isIdentifierPart(c) || c == "." || c == "-" || c == ":" { offset += 1 }
        let name = text(index + 1, index + offset)
        while let c = peek(offset), c == " " || c == "\t" { offset += 1 }
        if peek(offset) == "," { return false }
        if text(index + offset, min(index + offset + 8, scalars.count)).hasPrefix("extends ") { return false }
        return !name.isEmpty
    }

    /// Skips one JSX element (with its children), tokenizing the `{…}` expressions inside.
    private mutating func scanJSXElement() {
        var depth = 0
        while current != nil {
            // At '<': a closing tag, or an opening tag with attributes.
            guard current == "<" else { return }
            advance()
            if current == "/" {
                while let c = current, c != ">" { advance() }
                advance()
                depth -= 1
                if depth <= 0 { return }
            } else {
                while let c = current, Self.isIdentifierPart(c) || c == "." || c == "-" || c == ":" { advance() }
                var selfClosing = false
                attributes: while let c = current {
                    switch c {
                    case "/" where peek(1) == ">":
                        advance(); advance()
                        selfClosing = true
                        break attributes
                    case ">":
                        advance()
                        break attributes
                    case "{":
                        emit(.punctuator, "{", line: line, column: column)
                        advance()
                        scanCode(stopAtBrace: true)
                    case "\"", "'":
                        let startLine = line, startColumn = column, start = index
                        advance()
                        while let d = current, d != c { advance() }
                        advance()
                        let raw = text(start, index)
                        emit(.string, raw, value: String(raw.dropFirst().dropLast()), line: startLine, column: startColumn)
                    default:
                        advance()
                    }
                }
                if selfClosing {
                    if depth == 0 { return }
                } else {
                    depth += 1
                }
            }
            // Children: text up to the next tag, with `{…}` expressions.
            while let c = current, c != "<" {
                if c == "{" {
                    emit(.punctuator, "{", line: line, column: column)
                    advance()
                    scanCode(stopAtBrace: true)
                } else {
                    advance()
                }
            }
        }
    }
}
