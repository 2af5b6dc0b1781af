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

    /// `usage-string-missing` → `UsageStringMissing` (SARIF's `reportingDescriptor.name`).
    public static func pascalCase(_ id: String) -> String {
        id.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
