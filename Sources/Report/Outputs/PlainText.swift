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
    /// JUnit, SARIF `text`, GitLab: code spans become 'quoted' as compilers quote names, and
    /// backslash escapes are dropped, so no backtick is left for the reader. Read by hand rather
    /// than through cmark: messages quote app text, and none of it (`<dict>`, an HTML-looking
    /// usage string) may be dropped as markup.
    public static func message(_ markdown: String) -> String {
        guard markdown.contains(where: { $0 == "`" || $0 == "\\" }) else { return markdown }
        let characters = Array(markdown)
        var text = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count, characters[index + 1].isASCII, characters[index + 1].isPunctuation || characters[index + 1].isSymbol {
                text.append(characters[index + 1])
                index += 2
                continue
            }
            guard character == "`" else { text.append(character); index += 1; continue }
            var run = 0
            while index + run < characters.count, characters[index + run] == "`" { run += 1 }
            // The closing run of the same length; none: the backticks are literal.
            var close = index + run
            var found: Int?
            while close < characters.count {
                if characters[close] == "`" {
                    var length = 0
                    while close + length < characters.count, characters[close + length] == "`" { length += 1 }
                    if length == run { found = close; break }
                    close += length
                } else {
                    close += 1
                }
            }
            guard let end = found else { text += String(repeating: "`", count: run); index += run; continue }
            var content = String(characters[(index + run)..<end])
            if content.count >= 2, content.hasPrefix(" "), content.hasSuffix(" "), content.contains(where: { $0 != " " }) {
                content = String(content.dropFirst().dropLast())
            }
            text += "'" + content + "'"
            index = end + run
        }
        return text
    }

    /// `usage-string-missing` → `UsageStringMissing` (SARIF's `reportingDescriptor.name`).
    public static func pascalCase(_ id: String) -> String {
        id.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
