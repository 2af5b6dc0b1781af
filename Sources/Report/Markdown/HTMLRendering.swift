import Foundation

/// Markdown → HTML through cmark, plus what the one-shot renderer cannot do: stable heading
/// anchors, a table of contents, and `.md` links rewritten to the pages they become.
public struct RenderedMarkdown: Sendable {
    public var html: String
    public var headings: [TableOfContentsEntry]
}

public struct TableOfContentsEntry: Sendable, Hashable {
    public var level: Int
    public var title: String
    public var anchor: String
}

public enum MarkdownRenderer {
    /// Renders `markdown`; `linkMap` maps a relative `.md` link (as written) to its output URL.
    public static func render(_ markdown: String, rewriteLink: ((String) -> String?)? = nil) -> RenderedMarkdown {
        let document = CMarkDocument(markdown: markdown)
        if let rewriteLink { document.rewriteLinks(rewriteLink) }
        var used: [String: Int] = [:]
        let entries = document.headings.map { heading -> TableOfContentsEntry in
            var anchor = slug(heading.text)
            if let count = used[anchor] { used[anchor] = count + 1; anchor += "-\(count + 1)" } else { used[anchor] = 1 }
            return TableOfContentsEntry(level: heading.level, title: heading.text, anchor: anchor)
        }
        return RenderedMarkdown(html: addAnchors(document.html(), entries), headings: entries)
    }

    /// `Usage strings (en)` → `usage-strings-en`: lowercase ASCII letters, digits and dashes only.
    public static func slug(_ text: String) -> String {
        var result = ""
        var pendingDash = false
        for scalar in text.lowercased().unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
                if pendingDash && !result.isEmpty { result += "-" }
                result.unicodeScalars.append(scalar)
                pendingDash = false
            } else {
                pendingDash = true
            }
        }
        return result.isEmpty ? "section" : String(result.prefix(64))
    }

    /// cmark writes headings as `<hN>` in document order; give each its anchor id in that order.
    private static func addAnchors(_ html: String, _ entries: [TableOfContentsEntry]) -> String {
        var output = ""
        output.reserveCapacity(html.utf8.count + entries.count * 24)
        var rest = Substring(html)
        var index = 0
        while index < entries.count, let range = rest.range(of: "<h\(entries[index].level)>") {
            output += rest[..<range.lowerBound]
            output += "<h\(entries[index].level) id=\"\(entries[index].anchor)\">"
            rest = rest[range.upperBound...]
            index += 1
        }
        output += rest
        return output
    }
}
