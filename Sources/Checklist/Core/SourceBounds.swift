import Foundation
import Manifest

/// Limits that keep one hostile Swift file from hanging or crashing the audit. swift-syntax's
/// parser looks ahead exponentially in nested `[` (22 levels on one line took 26 s), and deep
/// member or call chains recurse once per link; a cheap linear scan decides before parsing.
enum SourceBounds {
    /// `[` nested deeper than this is skipped (real code stays far below; 16 levels already cost a second).
    static let maxSquareBracketDepth = 12
    /// Any bracket nesting deeper than this is skipped; the parser is told the same limit.
    static let maxNestingDepth = 128
    /// Postfix links (`.member`, a call on a call's result) in one expression: each is a level of
    /// the syntax tree, and walks recurse once per level (a million links overflowed even the
    /// 512 MiB stack). SwiftUI's longest modifier chains stay in the tens.
    static let maxChainLinks = 10_000

    struct Excess {
        var line: Int
        var reason: String
    }

    /// The first place `text` exceeds a limit, scanning brackets outside string literals and comments.
    static func excess(in text: String) -> Excess? {
        var text = text
        text.makeContiguousUTF8()
        // A buffer loop: the byte iterator cost as much as a fifth of parsing the file.
        return text.utf8.withContiguousStorageIfAvailable(scan) ?? nil
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Excess? {
        var square = 0, any = 0, line = 1
        var previous: UInt8 = 0
        var inLineComment = false, blockComments = 0, inString = false
        // Chain links since the expression began; a new line continues it only if it starts with `.`.
        var links = 0, lineStarted = false, lastCode: UInt8 = 0
        for byte in bytes {
            defer { previous = byte }
            if byte == UInt8(ascii: "\n") { line += 1; inLineComment = false; lineStarted = false; continue }
            if !lineStarted && !inLineComment && blockComments == 0 && !inString && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") {
                lineStarted = true
                if byte != UInt8(ascii: ".") { links = 0 }
            }
            if inLineComment { continue }
            if blockComments > 0 {
                if previous == UInt8(ascii: "*") && byte == UInt8(ascii: "/") { blockComments -= 1 }
                else if previous == UInt8(ascii: "/") && byte == UInt8(ascii: "*") { blockComments += 1 }
                continue
            }
            if inString {
                // Interpolations count as code too, but a rough scan is enough: strings rarely nest deep.
                if byte == UInt8(ascii: "\"") && previous != UInt8(ascii: "\\") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "/") where previous == UInt8(ascii: "/"): inLineComment = true
            case UInt8(ascii: "*") where previous == UInt8(ascii: "/"): blockComments = 1
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: ".") where previous != UInt8(ascii: ".") && !(previous >= UInt8(ascii: "0") && previous <= UInt8(ascii: "9")):
                links += 1
            case UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ","):
                links = 0
            default: break
            }
            if (byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[")) && (lastCode == UInt8(ascii: ")") || lastCode == UInt8(ascii: "]")) {
                links += 1
            }
            if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") { lastCode = byte }
            if links > maxChainLinks { return Excess(line: line, reason: "an expression chains more than \(maxChainLinks) members or calls") }
            switch byte {
            case UInt8(ascii: "["):
                square += 1; any += 1
                if square > maxSquareBracketDepth { return Excess(line: line, reason: "`[` nested deeper than \(maxSquareBracketDepth)") }
            case UInt8(ascii: "("):
                any += 1
            case UInt8(ascii: "{"):
                any += 1; links = 0
            case UInt8(ascii: "]"):
                square = max(0, square - 1); any = max(0, any - 1)
            case UInt8(ascii: ")"):
                any = max(0, any - 1)
            case UInt8(ascii: "}"):
                any = max(0, any - 1); links = 0
            default: break
            }
            if any > maxNestingDepth { return Excess(line: line, reason: "brackets nested deeper than \(maxNestingDepth)") }
        }
        return nil
    }
}
