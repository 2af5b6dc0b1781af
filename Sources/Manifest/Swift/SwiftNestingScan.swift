import Foundation

/// How deeply a Swift file nests, bounded before swift-syntax parses it. swift-syntax's lookahead
/// tries two readings of each nested `[` (an inline-array type, then an ordinary type), so its time
/// doubles per level (22 levels took 26 s), and deep nesting recurses once per level.
///
/// The scan follows the lexer's states: code, comments, string literals (single-line, multi-line,
/// raw `#"…"#`, `'…'`), their escapes and interpolations `\(…)` (whose code counts), regex literals,
/// backquoted names and editor placeholders. Where swift-syntax could take either of two readings —
/// a `/` that may open a regex literal, a backquote or `<#` that may open a name, and the parser's
/// own recovery, which may end an interpolation at a quote, a backslash or a `)` the lexer counted
/// differently — the scan follows both. Each reading keeps its own bracket counts; readings that
/// reach the same state go on as one with the larger counts. A count is the deepest unclosed run of
/// brackets in the reading's tokens (closing brackets beyond the opened ones do not take it below
/// zero), which bounds every recursion and lookahead that starts anywhere in those tokens. The
/// largest count over the readings therefore bounds swift-syntax's nesting whichever reading it
/// takes, and a file is refused when that bound passes a limit.
public enum SwiftNestingScan {
    public struct Limits: Sendable {
        /// `[` nested deeper than this (see `BoundedSwiftParse` for the measurements behind it).
        public var square = 12
        /// Brackets of any kind, `#if` included (swift-syntax is given the same limit).
        public var any = 128
        /// Postfix links (`.member`, a call on a call's result) in one expression, each a level of
        /// the syntax tree (SwiftUI's longest modifier chains are in the tens).
        public var chainLinks = 10_000
        /// Readings followed at once; more is a tangle of broken literals, which is refused.
        public var readings = 64
        /// Reading-steps over the whole file beyond the first reading, as a base plus so many per byte:
        /// a file that keeps dozens of readings alive for hundreds of kilobytes (a fuzzer's 794 KB
        /// tangle took 19 s) is refused once it has cost about a second.
        public var extraStepsBase = 300_000
        public var extraStepsPerByte = 1
        public init() {}

        var tangledReason: String { "string literals and interpolations too tangled to bound their nesting (more than \(readings) readings)" }
        var tangledLongReason: String { "string literals and interpolations too tangled to bound their nesting (many readings for too long)" }
        var squareReason: String { "`[` nested deeper than \(square)" }
        var anyReason: String { "brackets nested deeper than \(any)" }
        var chainReason: String { "an expression chains more than \(chainLinks) members or calls" }
        static let lostReason = "the scan lost its reading of this byte"
        /// Every reason the scan gives with these limits (a reason read back from a cache must be one).
        public var reasons: Set<String> { [tangledReason, tangledLongReason, squareReason, anyReason, chainReason, Self.lostReason] }
    }

    /// Where a limit was first passed (line and column from 1, the column in bytes), and which.
    public struct Excess: Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var reason: String
        public var description: String { "\(line):\(column): \(reason)" }
        public init(line: Int, column: Int, reason: String) { self.line = line; self.column = column; self.reason = reason }
    }

    /// The largest counts any reading reached (the fuzzer and the tests compare them with swift-syntax's tokens).
    public struct Reach: Sendable, Equatable {
        public var square = 0
        public var any = 0
        public var links = 0
        public var readings = 1
    }

    public static func excess(in text: String, limits: Limits = Limits()) -> Excess? { scan(text, limits: limits).excess }

    public static func scan(_ text: String, limits: Limits = Limits()) -> (excess: Excess?, reach: Reach) {
        var text = text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { buffer in
            var scanner = NestingScanner(bytes: buffer, limits: limits)
            return scanner.run()
        } ?? (nil, Reach())
    }
}

// MARK: - One reading

/// A reading's counts: `square` is the deepest unclosed run of `[` in its tokens (any `]` closes one:
/// swift-syntax's look-ahead, whose time doubles per level, reads them so); `any` is how many brackets
/// are open (`Reading.levels`); `links` how many levels of syntax tree the current expression has
/// reached (members, calls, postfix `!` `?`, `try`, `else if`, `->`, …), counted from the outermost
/// expression still open, since a tree's depth adds up through brackets.
private struct Counts: Equatable {
    var square: Int32 = 0
    var any: Int32 = 0
    var links: Int32 = 0

    mutating func raise(to other: Counts) {
        square = max(square, other.square); any = max(any, other.any); links = max(links, other.links)
    }
}

/// A context on the lexer's stack: top-level code, an interpolation's code, or a literal's text.
private struct Frame {
    enum Kind: UInt8 { case code, interpolation, string }
    enum Quote: UInt8 { case none, single, multi, apostrophe }

    var kind: Kind
    /// A literal's kind; for an interpolation, the kind of the literal it sits in.
    var quote: Quote = .none
    var hashes: Int32 = 0
    /// `(` opened inside an interpolation and not yet closed.
    var parens: Int32 = 0
    /// The counts and open brackets when the interpolation opened: where the parser's recovery returns.
    var saved = Counts()
    var savedLevels = 0

    func sameShape(_ other: Frame) -> Bool {
        kind == other.kind && quote == other.quote && hashes == other.hashes && parens == other.parens
    }
}

/// An open bracket: which kind, and the tree depth (`Counts.links`) the expressions inside it start from.
private struct Level {
    enum Kind: UInt8 { case paren, square, brace, poundIf }
    var kind: Kind
    var base: Int32
}

private struct Reading {
    enum Mode: UInt8 { case code, lineComment, blockComment, regex, placeholder }

    /// The last token of the innermost code context, as far as the scan's decisions need it.
    enum Previous: UInt8 {
        /// The start of a file or of an interpolation.
        case start
        /// `(`, `[`, `{`.
        case open
        /// `,` or `:`, after which an operand follows.
        case separator
        /// A name, a number, a closing bracket, a literal: an expression ended.
        case operand
        /// A keyword after which a regex literal may start (`return`, `in`, …).
        case keyword
        /// `func` or `operator`: an operator is declared next, never a regex literal.
        case declaresOperator
        /// `try` (a `?` or `!` right after it changes how the lexer reads the next token).
        case tryKeyword
        /// `.` (a member follows).
        case dot
        /// Anything else: an operator, `;`, `@`, `#`, `\`.
        case other
    }

    /// The innermost context, and the ones around it (empty in top-level code).
    var top = Frame(kind: .code)
    var outer: [Frame] = []
    /// Brackets open, innermost last. A closing bracket closes only its own kind (`)` a `(`, `#endif`
    /// at the start of a line an `#if`): one of another kind is skipped by swift-syntax's recovery
    /// while what is open stays open (`({)}` repeated nests a level each time).
    var levels: [Level] = []
    var mode = Mode.code
    /// Nesting of `/* */` comments.
    var commentDepth: Int32 = 0
    /// A regex literal's `#`s, `(` groups and `[` classes open, and flags (`RegexFlag`).
    var regexHashes: Int32 = 0
    var regexGroups: Int32 = 0
    var regexClasses: Int32 = 0
    var regexFlags: UInt8 = 0
    var previous = Previous.start
    /// No token yet on this line, and whether the name starting it may start a statement (`startToken`).
    var lineFresh = true
    var newStatement = false
    /// Bytes of the current element still to pass over.
    var skip = 0
    /// Where the current run of operator characters started, or -1, and the token before it
    /// (swift-syntax tries a regex literal at an operator by the token before the operator).
    var operatorStart = -1
    var beforeOperator = Previous.start
    /// Where the current name started (to tell keywords), or -1.
    var nameStart = -1
    /// A reading that read a `/` as an operator while another read it as the start of a regex
    /// literal in the form swift-syntax decides by itself (`/x…/` after a space): the `/`'s offset.
    /// When the regex reading closes, swift-syntax certainly read a regex there, and this reading
    /// (with every one forked from it) is dropped; when it fails, this one is the lexer's. -1 otherwise.
    var twin = -1
    /// For that regex reading: the same offset.
    var regexOrigin = -1
    /// After `try?` or `try!` swift-syntax lexes one token in a state of its own, which skips an
    /// interpolation's parenthesis count (that `)` ends no interpolation) and its line-end rule.
    var afterTryMark = false
    /// The parser ended the interpolation at the `)` just read: the spaces and comments after it on
    /// its line are still that token's trivia, and the literal is read again from the first line
    /// break or token after them.
    var popPending = false
    /// A line break (outside comments) since the last token of a multi-line interpolation: where the
    /// next token's leading trivia starts, and so where the parser's recovery reads the literal again
    /// if it ends the interpolation at that token.
    var triviaBreak = false
    var counts = Counts()

    mutating func push(_ frame: Frame) {
        outer.append(top)
        top = frame
    }

    mutating func pop() {
        top = outer.popLast() ?? Frame(kind: .code)
    }

    /// The parser's recovery ended the interpolation: its parse returns to where the interpolation began.
    mutating func returnFromInterpolation() {
        counts = top.saved
        if levels.count > top.savedLevels { levels.removeLast(levels.count - top.savedLevels) }
        counts.any = Int32(levels.count)
        pop()
    }

    func sameShape(_ other: Reading) -> Bool {
        guard mode == other.mode, previous == other.previous, lineFresh == other.lineFresh, newStatement == other.newStatement, skip == other.skip,
              operatorStart == other.operatorStart, beforeOperator == other.beforeOperator, nameStart == other.nameStart,
              commentDepth == other.commentDepth,
              regexHashes == other.regexHashes, regexGroups == other.regexGroups, regexClasses == other.regexClasses,
              regexFlags == other.regexFlags, twin == other.twin, regexOrigin == other.regexOrigin, afterTryMark == other.afterTryMark,
              popPending == other.popPending, triviaBreak == other.triviaBreak,
              top.sameShape(other.top), outer.count == other.outer.count,
              levels.count == other.levels.count else { return false }
        for index in outer.indices where !outer[index].sameShape(other.outer[index]) { return false }
        for index in levels.indices where levels[index].kind != other.levels[index].kind { return false }
        return true
    }

    mutating func absorb(_ other: Reading) {
        counts.raise(to: other.counts)
        top.saved.raise(to: other.top.saved)
        for index in outer.indices { outer[index].saved.raise(to: other.outer[index].saved) }
        for index in levels.indices { levels[index].base = max(levels[index].base, other.levels[index].base) }
    }

    /// Where the current expression's tree depth starts over after a separator or a new statement.
    var base: Int32 { levels.last?.base ?? 0 }
}

private enum RegexFlag {
    static let multiline: UInt8 = 1
    /// `/x…/` after a space: swift-syntax tries it as a regex only while its heuristics allow.
    static let prefixForm: UInt8 = 2
    static let escaped: UInt8 = 4
    static let lastSpace: UInt8 = 8
}

/// The bytes that leave a reading as it is, by the state it is in.
private enum Passable: UInt8 { case none, stringText, lineComment, blockComment, name, spaces }

// MARK: - The scanner

private struct NestingScanner {
    typealias Excess = SwiftNestingScan.Excess
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: SwiftNestingScan.Limits
    var readings = [Reading()]
    /// Reading-steps beyond one per byte so far (`Limits.extraStepsBase`).
    private var extraSteps = 0
    var reach = SwiftNestingScan.Reach()
    var excess: Excess?
    var line = 1
    var lineStart = 0
    /// Readings started while stepping the current byte (they have consumed it already).
    var spawned: [Reading] = []
    /// Regex readings of `twin` readings that closed (the twins are dropped) or failed (kept) at this byte.
    var regexesClosed: [Int] = []
    var regexesFailed: [Int] = []

    init(bytes: UnsafeBufferPointer<UInt8>, limits: SwiftNestingScan.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func run() -> (SwiftNestingScan.Excess?, SwiftNestingScan.Reach) {
        var index = 0
        while index < bytes.count, excess == nil {
            if readings.count == 1 {
                // One reading (nearly always), stepped in place until it forks; runs of bytes that
                // cannot change its state (a literal's text, a comment, a name, spaces) are passed over.
                var reading = readings.removeLast()
                var noted = reading.counts
                var passable = Self.passable(reading)
                while index < bytes.count {
                    let current = bytes[index]
                    if reading.skip == 0, Self.passes(current, passable) {
                        if current == 0x0A { line += 1; lineStart = index + 1 }
                        index += 1
                        continue
                    }
                    if reading.skip > 0 {
                        reading.skip -= 1
                    } else {
                        _ = step(&reading, index) // the lexer's own reading is never ruled out
                        passable = Self.passable(reading)
                    }
                    if !spawned.isEmpty { break }
                    if reading.counts != noted {
                        noted = reading.counts
                        note(reading.counts)
                        if checkLimits(at: index, readings: 1) { break }
                    }
                    if current == 0x0A { line += 1; lineStart = index + 1 }
                    index += 1
                }
                readings.append(reading)
                if excess != nil || index >= bytes.count { break }
                if spawned.isEmpty { continue }
            } else {
                // Many readings kept alive for long: bounded in total, not only at each byte.
                extraSteps += readings.count - 1
                if extraSteps > limits.extraStepsBase + limits.extraStepsPerByte * bytes.count {
                    excess = Excess(line: line, column: index - lineStart + 1, reason: limits.tangledLongReason)
                    break
                }
                var kept = 0
                for position in readings.indices {
                    var reading = readings[position]
                    if reading.skip > 0 {
                        reading.skip -= 1
                    } else if !step(&reading, index) {
                        continue
                    }
                    readings[kept] = reading
                    kept += 1
                }
                readings.removeLast(readings.count - kept)
            }
            // Every reading, the new ones included, has now consumed the byte at `index`.
            readings += spawned
            spawned.removeAll(keepingCapacity: true)
            if !regexesClosed.isEmpty || !regexesFailed.isEmpty { settleTwins() }
            if readings.count > 1 { merge() }
            if readings.isEmpty {
                // Cannot happen (the lexer's own reading always goes on); refusing keeps the bound sound if it did.
                excess = Excess(line: line, column: index - lineStart + 1, reason: SwiftNestingScan.Limits.lostReason)
                break
            }
            for reading in readings { note(reading.counts) }
            if checkLimits(at: index, readings: readings.count) { break }
            if bytes[index] == 0x0A { line += 1; lineStart = index + 1 }
            index += 1
        }
        return (excess, reach)
    }

    private static func passable(_ reading: Reading) -> Passable {
        if reading.top.kind == .string { return .stringText }
        switch reading.mode {
        case .lineComment: return .lineComment
        case .blockComment: return .blockComment
        case .code: return reading.nameStart >= 0 ? .name : (reading.operatorStart < 0 ? .spaces : .none)
        default: return .none
        }
    }

    @inline(__always)
    private static func passes(_ byte: UInt8, _ passable: Passable) -> Bool {
        switch passable {
        case .none: return false
        case .stringText:
            return byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'") && byte != 0x0A && byte != 0x0D
        case .lineComment: return byte != 0x0A && byte != 0x0D
        case .blockComment: return byte != UInt8(ascii: "*") && byte != UInt8(ascii: "/")
        case .name: return isNameByte(byte)
        case .spaces: return byte == 0x20 || byte == 0x09
        }
    }

    private mutating func note(_ counts: Counts) {
        reach.square = max(reach.square, Int(counts.square))
        reach.any = max(reach.any, Int(counts.any))
        reach.links = max(reach.links, Int(counts.links))
    }

    /// Records the first limit passed at `index`; true when one is.
    private mutating func checkLimits(at index: Int, readings: Int) -> Bool {
        let reason: String
        if readings > limits.readings {
            reason = limits.tangledReason
        } else if reach.square > limits.square {
            reason = limits.squareReason
        } else if reach.any > limits.any {
            reason = limits.anyReason
        } else if reach.links > limits.chainLinks {
            reason = limits.chainReason
        } else {
            return false
        }
        excess = Excess(line: line, column: index - lineStart + 1, reason: reason)
        return true
    }

    private mutating func settleTwins() {
        readings.removeAll { regexesClosed.contains($0.twin) }
        for index in readings.indices {
            if regexesFailed.contains(readings[index].twin) { readings[index].twin = -1 }
            if regexesClosed.contains(readings[index].regexOrigin) { readings[index].regexOrigin = -1 }
        }
        regexesClosed.removeAll()
        regexesFailed.removeAll()
    }

    /// Readings in the same state go on as one, with the larger counts.
    private mutating func merge() {
        var merged: [Reading] = []
        merged.reserveCapacity(readings.count)
        outer: for reading in readings {
            for index in merged.indices where merged[index].sameShape(reading) {
                merged[index].absorb(reading)
                continue outer
            }
            merged.append(reading)
        }
        readings = merged
        reach.readings = max(reach.readings, readings.count)
    }

    // MARK: Bytes

    @inline(__always) func byte(_ index: Int) -> UInt8? { index >= 0 && index < bytes.count ? bytes[index] : nil }
    @inline(__always) func byte(_ index: Int, is character: Unicode.Scalar) -> Bool { byte(index) == UInt8(ascii: character) }

    @inline(__always) static func isNewline(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
    @inline(__always) static func isNameByte(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x24 || byte >= 0x80
    }
    @inline(__always) static func isOperatorByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "%"),
             UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "!"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "^"),
             UInt8(ascii: "~"), UInt8(ascii: "?"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    /// How many `#` start at `index`.
    func hashes(at index: Int) -> Int {
        var count = 0
        while byte(index + count, is: "#") { count += 1 }
        return count
    }

    /// swift-syntax's `advanceIfStringDelimiter`: at least `length` `#` (it takes one more when
    /// there is one); the bytes it takes, or nil.
    func delimiter(at index: Int, length: Int32) -> Int? {
        guard length > 0 else { return 0 }
        let available = hashes(at: index)
        guard available >= Int(length) else { return nil }
        return min(available, Int(length) + 1)
    }

    // MARK: Stepping one byte of one reading

    /// Consumes the byte at `index` in `reading`; false when this reading turns out impossible.
    mutating func step(_ reading: inout Reading, _ index: Int) -> Bool {
        if reading.top.kind == .string { return stepString(&reading, index) }
        switch reading.mode {
        case .code:
            return stepCode(&reading, index)
        case .lineComment:
            guard Self.isNewline(bytes[index]) else { return true }
            reading.mode = .code
            return stepCode(&reading, index)
        case .blockComment:
            if bytes[index] == UInt8(ascii: "*"), byte(index + 1, is: "/") {
                reading.skip = 1
                reading.commentDepth -= 1
                if reading.commentDepth == 0 { reading.mode = .code }
            } else if bytes[index] == UInt8(ascii: "/"), byte(index + 1, is: "*") {
                reading.skip = 1
                reading.commentDepth += 1
            }
            return true
        case .regex:
            return stepRegex(&reading, index)
        case .placeholder:
            if bytes[index] == UInt8(ascii: "#"), byte(index + 1, is: ">") {
                reading.skip = 1
                reading.mode = .code
                reading.previous = .operand
                return true
            }
            // swift-syntax gives up on a placeholder at `\n` (not `\r`) or at another `<#`.
            if bytes[index] == 0x0A || (bytes[index] == UInt8(ascii: "<") && byte(index + 1, is: "#")) { return false }
            return true
        }
    }

    // MARK: Literals

    private mutating func stepString(_ reading: inout Reading, _ index: Int) -> Bool {
        let frame = reading.top
        switch bytes[index] {
        case UInt8(ascii: "\\"):
            // `\(`, with the literal's `#`s between, opens an interpolation: code again.
            if let taken = delimiter(at: index + 1, length: frame.hashes), byte(index + 1 + taken, is: "(") {
                var interpolation = Frame(kind: .interpolation, quote: frame.quote)
                interpolation.saved = reading.counts
                interpolation.savedLevels = reading.levels.count
                reading.push(interpolation)
                reading.mode = .code
                reading.previous = .start
                reading.operatorStart = -1
                reading.nameStart = -1
                reading.skip = taken + 1
                open(&reading, .paren, postfix: false)
                return true
            }
            guard let taken = delimiter(at: index + 1, length: frame.hashes) else { return true } // a raw literal's plain `\`
            // An escape: the character it takes (a quote or a backslash) is no delimiter.
            let next = byte(index + 1 + taken)
            let escapesQuote = next == UInt8(ascii: "\"") || next == UInt8(ascii: "'") || next == UInt8(ascii: "\\")
            reading.skip = taken + (escapesQuote ? 1 : 0)
            return true
        case UInt8(ascii: "\""):
            switch frame.quote {
            case .single:
                guard let taken = delimiter(at: index + 1, length: frame.hashes) else { return true }
                closeString(&reading, at: index, end: index + 1 + taken)
            case .multi:
                guard byte(index + 1, is: "\""), byte(index + 2, is: "\"") else { return true }
                if frame.hashes > 0 && delimiter(at: index + 3, length: frame.hashes) == nil { return true }
                closeString(&reading, at: index, end: index + 3)
            case .apostrophe, .none:
                break
            }
            return true
        case UInt8(ascii: "'"):
            if frame.quote == .apostrophe { closeString(&reading, at: index, end: index + 1) }
            return true
        case 0x0A, 0x0D:
            guard frame.quote != .multi else { return true }
            // A single-line literal ends at the line break, which the context around it then reads.
            reading.pop()
            reading.previous = .operand
            return reading.top.kind == .string ? stepString(&reading, index) : stepCode(&reading, index)
        default:
            return true
        }
    }

    /// The closing quote at `index`: the literal ends at `end`, a raw one's further `#`s with it.
    private func closeString(_ reading: inout Reading, at index: Int, end: Int) {
        let hashes = reading.top.hashes
        reading.pop()
        var end = end
        if hashes > 0 { end += self.hashes(at: end) }
        reading.skip = end - 1 - index
        reading.previous = .operand
        reading.mode = .code
        reading.lineFresh = false
        reading.operatorStart = -1
        reading.nameStart = -1
    }

    /// A quote in code opens a literal (`hashes` `#` before it, the first at `start`).
    private mutating func openString(_ reading: inout Reading, quoteAt quote: Int, hashes: Int, from start: Int) -> Bool {
        if reading.top.kind == .interpolation {
            // The parser may end the interpolation at this quote, which then closes the literal
            // around it: its recovery skips tokens up to a quote, whatever they are, even a `(`.
            popInterpolation(reading, at: start, readingAgain: quote)
        }
        var kind = Frame.Quote.single
        var length = 1
        if bytes[quote] == UInt8(ascii: "'") {
            kind = .apostrophe
        } else if byte(quote + 1, is: "\""), byte(quote + 2, is: "\"") {
            kind = .multi
            length = 3
            if hashes > 0 && closesOnItsLine(quoteEnd: quote + 3, hashes: Int32(hashes)) {
                // `#"""#` and `#""" … "#` on one line are single-line literals starting with a quote.
                kind = .single
                length = 1
            }
        }
        reading.push(Frame(kind: .string, quote: kind, hashes: Int32(hashes)))
        reading.mode = .code
        reading.skip = quote + length - 1 - start
        reading.operatorStart = -1
        reading.nameStart = -1
        reading.lineFresh = false
        return true
    }

    /// swift-syntax's check for a raw `#"""` that closes (`"` and its `#`s) on its own line.
    private func closesOnItsLine(quoteEnd: Int, hashes: Int32) -> Bool {
        if delimiter(at: quoteEnd, length: hashes) != nil { return true }
        var index = quoteEnd
        while let current = byte(index), !Self.isNewline(current) {
            if current == UInt8(ascii: "\""), delimiter(at: index + 1, length: hashes) != nil { return true }
            index += 1
        }
        return false
    }

    /// The reading in which the parser's recovery ended the interpolation at `position` (a quote,
    /// a backslash) and the lexer reads that byte again in the literal around it; bytes before it
    /// (a raw literal's `#`s) were tokens of the interpolation.
    private mutating func popInterpolation(_ reading: Reading, at index: Int, readingAgain position: Int) {
        var ended = reading
        ended.returnFromInterpolation()
        ended.mode = .code
        if position > index {
            ended.skip = position - index - 1
            spawned.append(ended)
        } else if stepString(&ended, index) {
            spawned.append(ended)
        }
    }

    // MARK: Code

    private mutating func stepCode(_ reading: inout Reading, _ index: Int) -> Bool {
        let current = bytes[index]
        if reading.nameStart >= 0 {
            if Self.isNameByte(current) { return true }
            finishName(&reading, endingAt: index)
        }
        let isOperator = Self.isOperatorByte(current)
        if !isOperator { reading.operatorStart = -1 }
        let isTrivia = current == 0x20 || current == 0x09 || current == 0x0B || current == 0x0C || current == 0x00 || current == 0x0A
            || current == 0x0D || (current == UInt8(ascii: "/") && (byte(index + 1, is: "/") || byte(index + 1, is: "*")))
        if reading.popPending && !(isTrivia && !Self.isNewline(current)) {
            // The `)`'s trivia ended: the literal is read again from here.
            reading.popPending = false
            reading.returnFromInterpolation()
            reading.mode = .code
            return stepString(&reading, index)
        }
        if !isTrivia { reading.triviaBreak = false }
        if reading.afterTryMark, let handled = afterTry(&reading, index) { return handled }
        switch current {
        case 0x0A, 0x0D:
            if reading.top.kind == .interpolation, reading.top.quote != .multi {
                // A line break ends an interpolation in a single-line literal, and the literal.
                reading.pop()
                return stepString(&reading, index)
            }
            if reading.top.kind == .interpolation, !reading.triviaBreak {
                // The next token's leading trivia starts here: if the parser's recovery ends the
                // interpolation at that token, the literal is read again from this line break.
                reading.triviaBreak = true
                var leading = reading
                leading.returnFromInterpolation()
                leading.mode = .code
                if stepString(&leading, index) { spawned.append(leading) }
            }
            reading.lineFresh = true
            return true
        case 0x20, 0x09, 0x0B, 0x0C, 0x00:
            return true
        case 0xC2 where byte(index + 1) == 0xA0:
            reading.skip = 1 // a no-break space separates tokens like a space
            return true
        case UInt8(ascii: "/"):
            // A comment ends the operator before it (`=/* */!+/x/` is `=`, then `!+/x/`).
            if byte(index + 1, is: "/") { reading.mode = .lineComment; reading.operatorStart = -1; return true }
            if byte(index + 1, is: "*") {
                reading.mode = .blockComment
                reading.commentDepth = 1
                reading.skip = 1
                reading.operatorStart = -1
                return true
            }
            startToken(&reading, index)
            considerRegex(&reading, index)
            return operatorByte(&reading, index)
        case UInt8(ascii: "#"):
            if index == 0, byte(1, is: "!") { reading.mode = .lineComment; return true } // a shebang line
            let startsLine = reading.lineFresh
            startToken(&reading, index)
            let count = hashes(at: index)
            if byte(index + count, is: "\"") {
                // Raw delimiters open only a `"` literal: `#'` is a `#` and a `'…'` literal.
                return openString(&reading, quoteAt: index + count, hashes: count, from: index)
            }
            if byte(index + count, is: "/") {
                openExtendedRegex(&reading, index, hashes: count)
                return true
            }
            if count == 1, directive(at: index + 1, "if") {
                open(&reading, .poundIf, postfix: false)
                reading.previous = .other
                reading.skip = 2
                return true
            }
            if count == 1, directive(at: index + 1, "endif") {
                // Only an `#endif` that starts its line closes: one on the `#if`'s line is skipped
                // with the rest of the condition, and the `#if` stays open.
                if startsLine { close(&reading, .poundIf) }
                reading.previous = .other
                reading.skip = 5
                return true
            }
            if count == 1, let next = byte(index + 1), Self.isNameByte(next), next < 0x80 {
                reading.nameStart = index + 1 // `#selector`, `#file`, a macro: a name
                reading.previous = .operand
                reading.skip = 0
                return true
            }
            reading.previous = .other
            return true
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            startToken(&reading, index)
            return openString(&reading, quoteAt: index, hashes: 0, from: index)
        case UInt8(ascii: "`"):
            startToken(&reading, index)
            // As swift-syntax reads it: a name up to the next backquote on the line, else a lone backquote.
            var end = index + 1
            while let next = byte(end), next != UInt8(ascii: "`"), !Self.isNewline(next) { end += 1 }
            if byte(end, is: "`") {
                reading.skip = end - index
                reading.previous = .operand
            } else {
                reading.previous = .other
            }
            return true
        case UInt8(ascii: "\\"):
            startToken(&reading, index)
            if reading.top.kind == .interpolation {
                // The parser may end the interpolation here and read the backslash in the literal.
                popInterpolation(reading, at: index, readingAgain: index)
            }
            reading.previous = .other
            return true
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
            // After an expression, a call, a subscript or a trailing closure: a level of the tree.
            let postfix = reading.previous == .operand && !reading.lineFresh
            startToken(&reading, index)
            if current == UInt8(ascii: "("), reading.top.kind == .interpolation { reading.top.parens += 1 }
            open(&reading, current == UInt8(ascii: "(") ? .paren : current == UInt8(ascii: "[") ? .square : .brace, postfix: postfix)
            reading.previous = .open
            return true
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
            startToken(&reading, index)
            if current == UInt8(ascii: ")"), reading.top.kind == .interpolation {
                close(&reading, .paren)
                if reading.top.parens == 0 {
                    reading.pop() // the interpolation ends: back in the literal
                    return true
                }
                reading.top.parens -= 1
                // The parser may take this `)` as the interpolation's end (its recovery can
                // count parentheses differently), leaving the lexer's interpolation behind.
                var ended = reading
                ended.popPending = true
                spawned.append(ended)
                reading.previous = .operand
                return true
            }
            close(&reading, current == UInt8(ascii: ")") ? .paren : current == UInt8(ascii: "]") ? .square : .brace)
            reading.previous = .operand
            return true
        case UInt8(ascii: ","), UInt8(ascii: ":"):
            // The next list element, label value or branch is an expression of its own.
            startToken(&reading, index)
            reading.counts.links = reading.base
            reading.previous = .separator
            return true
        case UInt8(ascii: ";"):
            startToken(&reading, index)
            reading.counts.links = reading.base
            reading.previous = .other
            return true
        case UInt8(ascii: "<") where byte(index + 1, is: "#"):
            startToken(&reading, index)
            // An editor placeholder `<#…#>` is one token when it closes on its line.
            var placeholder = reading
            placeholder.mode = .placeholder
            placeholder.skip = 1
            spawned.append(placeholder)
            return operatorByte(&reading, index)
        default:
            startToken(&reading, index)
            if isOperator { return operatorByte(&reading, index) }
            if Self.isNameByte(current), current < 0x80 {
                reading.nameStart = index
                reading.previous = .operand
                return true
            }
            // `@`, and bytes beyond ASCII starting a token (a name or an operator such as `÷`): nothing is assumed.
            reading.previous = .other
            return true
        }
    }

    /// The token after `try?` / `try!`, in swift-syntax's state for it: line breaks before it are
    /// spaces even in a single-line interpolation, and a `(` or `)` it is leaves the interpolation's
    /// count alone — that `)` ends no interpolation, though the parser may end it there.
    private mutating func afterTry(_ reading: inout Reading, _ index: Int) -> Bool? {
        let current = bytes[index]
        switch current {
        case 0x20, 0x09, 0x0B, 0x0C, 0x00:
            return true
        case 0x0A, 0x0D:
            reading.lineFresh = true
            return true
        case UInt8(ascii: "/") where byte(index + 1, is: "/") || byte(index + 1, is: "*"):
            return nil // a comment: the state waits for the token after it
        default:
            reading.afterTryMark = false
            guard reading.top.kind == .interpolation, current == UInt8(ascii: "(") || current == UInt8(ascii: ")") else { return nil }
            startToken(&reading, index)
            reading.operatorStart = -1
            if current == UInt8(ascii: "(") {
                open(&reading, .paren, postfix: false)
                reading.previous = .open
            } else {
                close(&reading, .paren)
                var ended = reading
                ended.popPending = true
                spawned.append(ended)
                reading.previous = .operand
            }
            return true
        }
    }

    /// A token starts. The first on its line starts a new statement — the expression's depth starts
    /// over — only when the line before ended an expression and this one cannot go on with it: a
    /// name that is not `else`, `catch`, `where`, `as`, `is`, `in` or `then` (decided when the name
    /// ends), not `.`, `#`, an operator or a bracket.
    @inline(__always)
    private func startToken(_ reading: inout Reading, _ index: Int) {
        guard reading.lineFresh else { return }
        reading.lineFresh = false
        if reading.previous == .operand, Self.isNameByte(bytes[index]), bytes[index] < 0x80 { reading.newStatement = true }
    }

    /// `#if` and `#endif` as swift-syntax reads them: the letters after `#` (a digit or `é` may follow).
    private func directive(at index: Int, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        for offset in 0..<count where byte(index + offset) != word.utf8Start[offset] { return false }
        guard let after = byte(index + count) else { return true }
        return !((after | 0x20 >= 0x61 && after | 0x20 <= 0x7A) || after == UInt8(ascii: "_"))
    }

    /// A name ended: a keyword after which a regex may start is not an operand; one that nests
    /// what follows (`try`, `else`, `some`, …) is a level of the tree; a name that starts a line
    /// may start a statement.
    private func finishName(_ reading: inout Reading, endingAt end: Int) {
        let start = reading.nameStart
        reading.nameStart = -1
        let newStatement = reading.newStatement
        reading.newStatement = false
        let length = end - start
        guard length <= 16 else {
            if newStatement { reading.counts.links = reading.base }
            return
        }
        var low: UInt64 = 0, high: UInt64 = 0
        for offset in 0..<length {
            let value = UInt64(bytes[start + offset])
            if offset < 8 { low |= value << (8 * offset) } else { high |= value << (8 * (offset - 8)) }
        }
        if newStatement && !Self.continuesExpression(low: low, high: high) { reading.counts.links = reading.base }
        if Self.isRegexKeyword(low: low, high: high) { reading.previous = .keyword }
        if high == 0 && (low == 0x636E7566 || low == 0x726F74617265706F) { reading.previous = .declaresOperator } // func, operator
        if high == 0 && low == 0x797274 { reading.previous = .tryKeyword }
        if Self.nestsWhatFollows(low: low, high: high) { reading.counts.links += 1 }
    }

    /// `else`, `catch`, `where`, `as`, `is`, `in`, `then`: a line starting with one goes on with the line before.
    static func continuesExpression(low: UInt64, high: UInt64) -> Bool {
        guard high == 0 else { return false }
        switch low {
        case 0x65736C65, 0x6863746163, 0x6572656877, 0x7361, 0x7369, 0x6E69, 0x6E656874: return true
        default: return false
        }
    }

    /// Keywords whose operand is a level deeper in swift-syntax's tree and recursion: `try`,
    /// `await`, `else` (`else if` chains), `repeat`, `each`, `some`, `any`, `consume`, `copy`,
    /// `inout`, `borrowing`, `consuming`, `sending`, `__owned`, `__shared`, `isolated`.
    static func nestsWhatFollows(low: UInt64, high: UInt64) -> Bool {
        switch low {
        case 0x797274, 0x7469617761, 0x65736C65, 0x746165706572, 0x68636165, 0x656D6F73, 0x796E61, 0x656D75736E6F63,
             0x79706F63, 0x74756F6E69, 0x676E69646E6573, 0x64656E776F5F5F, 0x6465726168735F5F, 0x646574616C6F7369:
            return high == 0
        case 0x6E69776F72726F62, 0x6E696D75736E6F63: return high == 0x67 // borrowing, consuming
        default: return false
        }
    }

    /// An operator character (operators are runs of them; `.` may also be a member access).
    private func operatorByte(_ reading: inout Reading, _ index: Int) -> Bool {
        let current = bytes[index]
        if current == UInt8(ascii: ".") {
            // `.` goes on only with an operator that started with `.` (`..<`); otherwise it starts one
            // — a member access when no operator character follows it (and no digit precedes: `1.5`).
            if reading.operatorStart < 0 || bytes[reading.operatorStart] != UInt8(ascii: ".") {
                reading.operatorStart = index
                reading.beforeOperator = reading.previous
            }
            let operatorFollows = byte(index + 1).map(Self.isOperatorByte) ?? false
            let afterDigit = byte(index - 1).map { $0 >= 0x30 && $0 <= 0x39 } ?? false
            if reading.operatorStart == index && !operatorFollows && !afterDigit {
                reading.counts.links += 1
                reading.previous = .dot
                reading.operatorStart = -1
                return true
            }
        } else if reading.operatorStart < 0 {
            reading.operatorStart = index
            reading.beforeOperator = reading.previous
        }
        let start = reading.operatorStart
        if current == UInt8(ascii: "=") && start == index && !byte(index + 1, is: "=") && Self.isSpace(byte(index - 1)) {
            reading.counts.links = reading.base // `a = b`: the value is an expression of its own
        }
        let leftBound = isLeftBound(start)
        if current == UInt8(ascii: "!") || current == UInt8(ascii: "?") {
            // Each postfix `!` or `?` (`x!!`, `Int???`) is a level of the tree, like a member; a
            // free-standing `?` opens a ternary, whose middle nests.
            if leftBound || byte(index + 1) == 0x20 { reading.counts.links += 1 }
            if leftBound && start == index && reading.previous == .tryKeyword {
                reading.afterTryMark = true
                reading.previous = .other
                return true
            }
            if leftBound && reading.previous == .operand { return true }
        } else if current == UInt8(ascii: "<") && start == index && leftBound {
            reading.counts.links += 1 // `A<B<C>>`: generic arguments nest
        } else if current == UInt8(ascii: ">") && byte(index - 1, is: "-") {
            reading.counts.links += 1 // `() -> () -> …`: function types nest to the right
        }
        reading.previous = .other
        return true
    }

    /// swift-syntax's `isLeftBound` for an operator starting at `start`: not after a space, `(`, `[`,
    /// `{`, `,`, `;`, `:`, a no-break space, or `*/` (taken for a comment's end even when it ends a regex).
    func isLeftBound(_ start: Int) -> Bool {
        guard start > 0 else { return false }
        let before = bytes[start - 1]
        switch before {
        case 0x20, 0x0D, 0x0A, 0x09, 0x00, UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","),
             UInt8(ascii: ";"), UInt8(ascii: ":"):
            return false
        case UInt8(ascii: "/"):
            return !byte(start - 2, is: "*")
        case 0xA0:
            return byte(start - 2) != 0xC2
        default:
            return true
        }
    }

    @inline(__always) static func opensOrSeparates(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: ",")
            || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":")
    }

    @inline(__always) static func isSpace(_ byte: UInt8?) -> Bool {
        guard let byte else { return true }
        return byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x00
    }

    /// An opening bracket: one level more, its expressions starting at the tree depth reached
    /// (one more after an expression: a call, a subscript, a trailing closure).
    @inline(__always) private func open(_ reading: inout Reading, _ kind: Level.Kind, postfix: Bool) {
        let base = reading.counts.links + (postfix ? 1 : 0)
        reading.levels.append(Level(kind: kind, base: base))
        reading.counts.any = Int32(reading.levels.count)
        reading.counts.links = base
        if kind == .square { reading.counts.square += 1 }
    }

    /// A closing bracket closes the innermost level if it is of its kind (the expression around it
    /// goes on at the depth it had there); otherwise it is skipped. Any `]` closes a `[` of `square`,
    /// which counts the look-ahead's reading.
    @inline(__always) private func close(_ reading: inout Reading, _ kind: Level.Kind) {
        if kind == .square { reading.counts.square = max(0, reading.counts.square - 1) }
        guard let last = reading.levels.last, last.kind == kind else { return }
        reading.levels.removeLast()
        reading.counts.any = Int32(reading.levels.count)
        reading.counts.links = last.base
    }

    // MARK: Regex literals

    /// A `/` may open a `/…/` regex literal. swift-syntax decides from the characters around the
    /// operator it starts and from the previous token; where it certainly does not, no reading is added.
    private mutating func considerRegex(_ reading: inout Reading, _ index: Int) {
        // The token before the operator the `/` is in decides (the `/` may follow `!` in `!/`).
        let start = reading.operatorStart >= 0 ? reading.operatorStart : index
        let before = reading.operatorStart >= 0 ? reading.beforeOperator : reading.previous
        // Never after `func` or `operator` (an operator is declared), nor right after `*` (`*/`).
        if before == .declaresOperator || byte(index - 1, is: "*") { return }
        // Only the first `/` of an operator is tried.
        var scan = start
        while scan < index { if bytes[scan] == UInt8(ascii: "/") { return }; scan += 1 }
        // An operator bound on its left is never one.
        if isLeftBound(start) { return }
        var end = index + 1
        while let next = byte(end), Self.isOperatorByte(next), next != UInt8(ascii: ".") || bytes[start] == UInt8(ascii: ".") {
            if next == UInt8(ascii: "/"), byte(end + 1, is: "/") || byte(end + 1, is: "*") { break }
            end += 1
        }
        let rightBound: Bool
        switch byte(end) {
        case nil, 0x20?, 0x09?, 0x0A?, 0x0D?, 0x00?, UInt8(ascii: ")")?, UInt8(ascii: "]")?, UInt8(ascii: "}")?,
             UInt8(ascii: ",")?, UInt8(ascii: ";")?, UInt8(ascii: ":")?:
            rightBound = false
        case UInt8(ascii: "/")?:
            rightBound = !(byte(end + 1, is: "/") || byte(end + 1, is: "*"))
        case 0xC2?:
            rightBound = byte(end + 1) != 0xA0
        default:
            rightBound = true
        }
        if rightBound {
            // `/x…/`: tried with the heuristics on (a space right after the `/` rules it out).
            if let next = byte(index + 1), next == 0x20 || next == 0x09 { return }
        } else if before == .operand || before == .dot {
            // ` / ` after an expression is division.
            return
        }
        var regex = reading
        regex.mode = .regex
        regex.regexHashes = 0
        regex.regexGroups = 0
        regex.regexClasses = 0
        regex.regexFlags = rightBound ? RegexFlag.prefixForm : 0
        regex.operatorStart = -1
        if rightBound && reading.twin < 0 {
            regex.regexOrigin = index
            reading.twin = index
        }
        spawned.append(regex)
    }

    /// `#/…/#`: always a regex literal; over lines when only spaces follow the opening on its line.
    private mutating func openExtendedRegex(_ reading: inout Reading, _ index: Int, hashes: Int) {
        var scan = index + hashes + 1
        while byte(scan) == 0x20 || byte(scan) == 0x09 { scan += 1 }
        let multiline = byte(scan).map(Self.isNewline) ?? false
        if multiline {
            // Unterminated, swift-syntax reads on after the opening line: that reading is kept too.
            var unterminated = reading
            unterminated.skip = scan - index - 1
            unterminated.previous = .operand
            unterminated.operatorStart = -1
            spawned.append(unterminated)
        }
        reading.mode = .regex
        reading.regexHashes = Int32(hashes)
        reading.regexGroups = 0
        reading.regexClasses = 0
        reading.regexFlags = multiline ? RegexFlag.multiline : 0
        reading.skip = hashes
        reading.operatorStart = -1
    }

    /// A regex reading in prefix form that swift-syntax's heuristics rule out: dropped, and its twin is the lexer's.
    private mutating func failRegex(_ reading: Reading) -> Bool {
        if reading.regexOrigin >= 0 { regexesFailed.append(reading.regexOrigin) }
        return false
    }

    private mutating func stepRegex(_ reading: inout Reading, _ index: Int) -> Bool {
        let current = bytes[index]
        let flags = reading.regexFlags
        let prefixForm = flags & RegexFlag.prefixForm != 0
        if Self.isNewline(current) && flags & RegexFlag.multiline == 0 {
            // Unterminated at the line's end: a regex that must be one ends here (and the line
            // break is read as code: it may end an interpolation); one in prefix form was none.
            if prefixForm { return failRegex(reading) }
            reading.mode = .code
            reading.previous = .operand
            return stepCode(&reading, index)
        }
        reading.regexFlags &= ~(RegexFlag.escaped | RegexFlag.lastSpace)
        if flags & RegexFlag.escaped != 0 { return true }
        switch current {
        case UInt8(ascii: "\\"):
            reading.regexFlags |= RegexFlag.escaped
        case UInt8(ascii: "/"):
            if reading.regexHashes > 0 {
                let closing = hashes(at: index + 1)
                guard closing >= Int(reading.regexHashes) else { return true }
                reading.skip = closing
            } else if byte(index + 1, is: "*") || byte(index + 1, is: "/") {
                // "Unterminated": a regex that must be one ends before this `/`, which starts a comment.
                if prefixForm { return failRegex(reading) }
                reading.mode = .code
                reading.previous = .operand
                return stepCode(&reading, index)
            } else if prefixForm && flags & RegexFlag.lastSpace != 0 {
                return failRegex(reading) // a space before the closing `/`
            }
            reading.mode = .code
            reading.previous = .operand
            reading.lineFresh = false
            if reading.regexOrigin >= 0 { regexesClosed.append(reading.regexOrigin) }
        case UInt8(ascii: "("):
            if reading.regexClasses == 0 { reading.regexGroups += 1 }
        case UInt8(ascii: ")"):
            if reading.regexClasses == 0 {
                if reading.regexGroups == 0 && prefixForm { return failRegex(reading) } // an unbalanced `)`
                reading.regexGroups = max(0, reading.regexGroups - 1)
            }
        case UInt8(ascii: "["):
            reading.regexClasses += 1
        case UInt8(ascii: "]"):
            reading.regexClasses = max(0, reading.regexClasses - 1)
        case 0x20:
            // (A tab is recorded as an unprintable character first, so only a space counts here.)
            reading.regexFlags |= RegexFlag.lastSpace
        default:
            break
        }
        return true
    }

    // MARK: Keywords

    /// Keywords after which swift-syntax may start a regex literal: the lexer's keywords but `true`,
    /// `false`, `nil`, `self`, `Self`, `super` and `Any`, plus contextual ones. A superset is safe (it
    /// only adds readings); the name is packed little-endian, eight bytes per word.
    static func isRegexKeyword(low: UInt64, high: UInt64) -> Bool {
        switch low {
        // One- to eight-byte keywords (`_`, `__owned` … `yield`), then the longer ones by their two halves.
        case 0x5F, 0x64656E776F5F5F, 0x6465726168735F5F, 0x726F746361, 0x796E61, 0x7361, 0x636E797361, 0x7469617761,
             0x6B61657262, 0x65736163, 0x6863746163, 0x7373616C63, 0x656D75736E6F63, 0x65756E69746E6F63, 0x79706F63,
             0x746C7561666564, 0x7265666564, 0x74696E696564, 0x746553646964, 0x64726163736964, 0x6F64, 0x63696D616E7964,
             0x68636165, 0x65736C65, 0x6D756E65, 0x6C616E6966, 0x726F66, 0x636E7566, 0x746567, 0x6472617567, 0x6669,
             0x74726F706D69, 0x6E69, 0x7463657269646E69, 0x7869666E69, 0x74696E69, 0x74756F6E69, 0x6C616E7265746E69, 0x7369,
             0x646574616C6F7369, 0x797A616C, 0x74656C, 0x6F7263616D, 0x676E69746174756D, 0x666F, 0x6E65706F, 0x726F74617265706F,
             0x6C616E6F6974706F, 0x656469727265766F, 0x6567616B636170, 0x78696674736F70, 0x786966657270, 0x65746176697270,
             0x6C6F636F746F7270, 0x63696C627570, 0x636E7973616572, 0x746165706572, 0x6465726975716572, 0x73776F7268746572,
             0x6E7275746572, 0x676E69646E6573, 0x746573, 0x656D6F73, 0x636974617473, 0x746375727473, 0x686374697773, 0x6E656874,
             0x776F726874, 0x676E69776F726874, 0x73776F726874, 0x797274, 0x64656E776F6E75, 0x656661736E75, 0x676E697375,
             0x726176, 0x6B616577, 0x6572656877, 0x656C696877, 0x7465536C6C6977, 0x646C656979:
            return high == 0
        case 0x746169636F737361: return high == 0x657079746465 // associatedtype
        case 0x6E69776F72726F62: return high == 0x67 // borrowing
        case 0x6E696D75736E6F63: return high == 0x67 // consuming
        case 0x65696E65766E6F63: return high == 0x65636E // convenience
        case 0x7562697274736964: return high == 0x646574 // distributed
        case 0x6F69736E65747865: return high == 0x6E // extension
        case 0x6F7268746C6C6166: return high == 0x686775 // fallthrough
        case 0x76697270656C6966: return high == 0x657461 // fileprivate
        case 0x616C6F73696E6F6E: return high == 0x646574 // nonisolated
        case 0x746174756D6E6F6E: return high == 0x676E69 // nonmutating
        case 0x6E65646563657270: return high == 0x70756F72676563 // precedencegroup
        case 0x7069726373627573: return high == 0x74 // subscript
        case 0x61696C6165707974: return high == 0x73 // typealias
        default: return false
        }
    }
}
