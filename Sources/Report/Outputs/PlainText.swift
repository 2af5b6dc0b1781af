import Foundation
import Manifest

/// Markdown (trusted rule rationale) as plain text, for fields that are shown unrendered
/// (SARIF `text`, JUnit messages). Goes through cmark so emphasis, code and escapes are read
/// exactly as the rule pages read them, then drops the tags.
public enum PlainText {
    public static func fromMarkdown(_ markdown: String) -> String {
        var html = CMarkDocument(markdown: markdown).html()
        for (tag, replacement) in [("<li>", "- "), ("</p>\n", "\n\n"), ("<br />", "\n")] {
            html = html.replacingOccurrences(of: tag, with: replacement)
        }
        var text = ""
        var inTag = false
        for character in html {
            switch character {
            case "<": inTag = true
            case ">" where inTag: inTag = false
            default: if !inTag { text.append(character) }
            }
        }
        text = MarkupEscaping.unescape(text)
        while text.contains("\n\n\n") { text = text.replacingOccurrences(of: "\n\n\n", with: "\n\n") }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A finding's message (Markdown) for outputs shown unrendered — the terminal, annotations,
    /// JUnit, SARIF `text`, GitLab: code spans become 'quoted' as compilers quote names, so no
    /// backtick is left for the reader. Read by hand rather than through cmark: messages quote app
    /// text, and none of it (`<dict>`, a backslash, HTML-looking words) may be dropped as markup.
    public static func message(_ markdown: String) -> String {
        guard markdown.contains("`") else { return markdown }
        return CodeSpans.rewrite(markdown, code: { "'" + $0 + "'" }, text: { String($0) })
    }

    /// `usage-string-missing` → `UsageStringMissing` (SARIF's `reportingDescriptor.name`).
    public static func pascalCase(_ id: String) -> String {
        id.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

/// Markdown code spans (a run of backticks up to the next run of the same length), found as
/// CommonMark finds them, for the outputs that rewrite a message around them.
enum CodeSpans {
    static func rewrite(_ markdown: String, code: (String) -> String, text: (Character) -> String) -> String {
        segments(markdown).map { $0.isCode ? code($0.text) : $0.text.map(text).joined() }.joined()
    }

    /// The message cut into code spans (their content, padding stripped as CommonMark strips it)
    /// and the text between them, unmatched backticks included.
    static func segments(_ markdown: String) -> [(isCode: Bool, text: String)] {
        let characters = Array(markdown)
        var segments: [(isCode: Bool, text: String)] = []
        var text = ""
        var index = 0
        while index < characters.count {
            guard characters[index] == "`" else { text.append(characters[index]); index += 1; continue }
            var run = 0
            while index + run < characters.count, characters[index + run] == "`" { run += 1 }
            var close = index + run, found: Int?
            while close < characters.count {
                guard characters[close] == "`" else { close += 1; continue }
                var length = 0
                while close + length < characters.count, characters[close + length] == "`" { length += 1 }
                if length == run { found = close; break }
                close += length
            }
            guard let end = found else { text += String(repeating: "`", count: run); index += run; continue }
            var content = String(characters[(index + run)..<end])
            if content.count >= 2, content.hasPrefix(" "), content.hasSuffix(" "), content.contains(where: { $0 != " " }) {
                content = String(content.dropFirst().dropLast())
            }
            if !text.isEmpty { segments.append((false, text)); text = "" }
            segments.append((true, content))
            index = end + run
        }
        if !text.isEmpty { segments.append((false, text)) }
        return segments
    }

    /// `content` as a code span again, fenced with one backtick more than its longest run.
    static func fenced(_ content: String) -> String {
        var longest = 0, run = 0
        for character in content { run = character == "`" ? run + 1 : 0; longest = max(longest, run) }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = content.hasPrefix("`") || content.hasSuffix("`") || (content.hasPrefix(" ") && content.hasSuffix(" ")) ? " " + content + " " : content
        return fence + padded + fence
    }
}
