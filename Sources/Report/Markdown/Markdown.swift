import Foundation
import Manifest

/// Turning untrusted text (anything from a manifest or source) into Markdown that can only ever
/// be literal text: never a link, image, heading, list, HTML or entity.
public enum MarkdownText {
    /// Escapes every ASCII punctuation character (CommonMark allows a backslash before any of them)
    /// and folds line breaks, so no block structure can start inside the text.
    public static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\u{2028}", "\u{2029}": output += " "
            case "\t": output += " "
            case "\0": output += "\u{FFFD}"
            case _ where VisibleText.isInvisible(scalar):
                // `\u{202E}` as literal text: its backslash and braces escaped like any punctuation.
                output += escape(VisibleText.escape(scalar))
            default:
                if scalar.isASCII, scalar.properties.isPatternSyntax || scalar == "_" || scalar == "`" {
                    output += "\\"
                }
                output.unicodeScalars.append(scalar)
                // GitHub turns `@name` into a mention (and a notification) even when escaped: a
                // zero-width space after the `@` keeps app text from pinging anyone.
                if scalar == "@" { output += "\u{200B}" }
            }
        }
        return output
    }

    /// Untrusted text within a line of a pull-request comment (never at its start), escaped only
    /// where a character would become markup as it stands, so it reads as typed with no backslash
    /// in sight and the Markdown stays readable. What GitHub links on its own is broken too: a bare
    /// URL or `www.` name (its autolinks), `@name` (a mention) and `#12` (an issue reference) get a
    /// backslash or a zero-width space; an entity cannot spell them either, its `&` being escaped.
    public static func inline(_ text: String) -> String {
        var scalars: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t", "\u{2028}", "\u{2029}": scalars.append(" ")
            case "\0": scalars.append("\u{FFFD}")
            case _ where VisibleText.isInvisible(scalar): scalars += VisibleText.escape(scalar).unicodeScalars
            default: scalars.append(scalar)
            }
        }
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        for (index, scalar) in scalars.enumerated() {
            let previous = index > 0 ? scalars[index - 1] : " ", next = index + 1 < scalars.count ? scalars[index + 1] : " "
            if needsBackslash(scalar, previous: previous, next: next, isLast: index + 1 == scalars.count, before: scalars[..<index]) {
                output += "\\"
            }
            output.unicodeScalars.append(scalar)
            if scalar == "@" || (scalar == "#" && ("0"..."9").contains(next)) { output += "\u{200B}" }
        }
        return output
    }

    /// Whether `scalar` would start or end markup where it stands.
    private static func needsBackslash(_ scalar: Unicode.Scalar, previous: Unicode.Scalar, next: Unicode.Scalar, isLast: Bool,
                                       before: ArraySlice<Unicode.Scalar>) -> Bool {
        switch scalar {
        // Emphasis, code, links, footnotes, raw HTML and autolinks, strikethrough, GitHub's math.
        case "`", "*", "[", "]", "<", "~", "$": return true
        // A backslash escapes the punctuation after it, and whatever follows the text.
        case "\\": return isLast || (next.isASCII && next.properties.isPatternSyntax)
        // `_` between two letters or digits never opens or closes emphasis.
        case "_": return !(isWordCharacter(previous) && isWordCharacter(next))
        // `&amp;`, `&#64;`: an entity reference.
        case "&": return next == "#" || (next.isASCII && next.properties.isAlphabetic)
        // `https://`: GitHub's autolink extension links a URL from its `:`.
        case ":": return next == "/"
        // `www.example.org`: and from `www.`.
        case ".": return before.suffix(3).map { Character($0).lowercased() }.joined() == "www"
        default: return false
        }
    }

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// A finding's message (Markdown: code spans for identifiers and quoted values, the rest text
    /// that may quote the app) for a comment: its code spans kept as code, the text between them
    /// escaped by `inline`.
    public static func message(_ markdown: String) -> String {
        CodeSpans.segments(markdown).map { $0.isCode ? code($0.text) : inline($0.text) }.joined()
    }

    /// `inline` for a GFM table cell, where `|` would end the cell even inside a code span.
    public static func tableCell(_ text: String) -> String { inline(text).replacingOccurrences(of: "|", with: "\\|") }

    /// Untrusted text inside the raw HTML of a Markdown document (`<summary>`): escaped, on one line
    /// (a line break could end the HTML block, or start a workflow command when printed in CI), and
    /// with the same mention guard as `escape`.
    public static func inlineHTML(_ text: String) -> String {
        let oneLine = String(text.map { $0.isNewline ? " " : $0 })
        return HTMLText.escape(oneLine).replacingOccurrences(of: "@", with: "@\u{200B}")
    }

    /// Each line break (`\r\n`, `\n`, `\r`) as one space; text without one is returned as it is
    /// (Foundation's replacing goes through `NSString` on Linux).
    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var afterReturn = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" && afterReturn { afterReturn = false; continue }
            afterReturn = scalar == "\r"
            output.unicodeScalars.append(scalar == "\n" || scalar == "\r" ? " " : scalar)
        }
        return output
    }

    /// An inline code span holding `text` verbatim: the fence is longer than any backtick run inside.
    public static func code(_ text: String) -> String {
        // A code span keeps `##[` verbatim, which a CI log reading the comment on stdout would obey.
        let flattened = RunnerCommand.neutralized(VisibleText.escaped(oneLine(text)),
                                                  hash: VisibleText.escape("#"))
        guard !flattened.isEmpty else { return "` `" }
        var longest = 0, run = 0
        for character in flattened {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        // cmark ignores backtick strings of 1000 or more (MAXBACKTICKS): such a fence would open no
        // code span and leave the text live Markdown. Text with a run that long is escaped instead.
        if longest >= 256 { return escape(flattened) }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = flattened.hasPrefix("`") || flattened.hasSuffix("`") || flattened.hasPrefix(" ") ? " " : ""
        return fence + pad + flattened + pad + fence
    }
}

/// Builds a Markdown document line by line; callers escape untrusted parts with `MarkdownText`.
public struct MarkdownWriter {
    public private(set) var text = ""
    public init() {}

    public mutating func heading(_ level: Int, _ title: String) {
        text += String(repeating: "#", count: level) + " " + title + "\n\n"
    }

    public mutating func paragraph(_ line: String) { text += line + "\n\n" }

    public mutating func bullets(_ items: [String]) {
        guard !items.isEmpty else { return }
        text += items.map { "- " + $0 }.joined(separator: "\n") + "\n\n"
    }

    public mutating func quote(_ line: String) { text += "> " + line + "\n\n" }

    public mutating func raw(_ markdown: String) { text += markdown + "\n\n" }
}
