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

    /// Untrusted text inside the raw HTML of a Markdown document (`<summary>`): escaped, on one line
    /// (a line break could end the HTML block, or start a workflow command when printed in CI), and
    /// with the same mention guard as `escape`.
    public static func inlineHTML(_ text: String) -> String {
        let oneLine = String(text.map { $0.isNewline ? " " : $0 })
        return HTMLText.escape(oneLine).replacingOccurrences(of: "@", with: "@\u{200B}")
    }

    /// An inline code span holding `text` verbatim: the fence is longer than any backtick run inside.
    public static func code(_ text: String) -> String {
        // A code span keeps `##[` verbatim, which a CI log reading the comment on stdout would obey.
        let flattened = RunnerCommand.neutralized(VisibleText.escaped(text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")),
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
