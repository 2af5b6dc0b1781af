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
        let headings = document.rewriteLinksAndCollectHeadings(rewriteLink)
        var used: [String: Int] = [:]
        let entries = headings.map { heading -> TableOfContentsEntry in
            var anchor = slug(heading.text)
            if let count = used[anchor] { used[anchor] = count + 1; anchor += "-\(count + 1)" } else { used[anchor] = 1 }
            return TableOfContentsEntry(level: heading.level, title: heading.text, anchor: anchor)
        }
        return RenderedMarkdown(html: addAnchors(document.html(), entries), headings: entries)
    }

    /// A message or reason written in Markdown (code spans for identifiers and quoted values),
    /// rendered by cmark without raw HTML and without its paragraph, to sit inside a sentence.
    /// Messages quote app text, and no message of the tool links anywhere: links and images are
    /// reduced to their text, so an usage string `![x](https://…)` cannot load or link anything.
    /// Each `<` of text as an entity, so cmark shows it as typed. One a backslash already escapes
    /// (app text passed through `MarkdownText.escape`) loses that backslash, which would otherwise
    /// escape the entity's `&` and show `&lt;` on the page.
    static func literalLessThan(_ text: String) -> String {
        var output = ""
        var backslashes = 0
        for character in text {
            if character == "<" {
                if backslashes % 2 == 1 { output.removeLast() }
                output += "&lt;"
                backslashes = 0
                continue
            }
            backslashes = character == "\\" ? backslashes + 1 : 0
            output.append(character)
        }
        return output
    }

    public static func inline(_ markdown: String) -> String {
        // App text quoted outside a code span may look like HTML (`<HealthKit>`): cmark would omit
        // it as raw HTML, so its `<` is written as an entity and shows as typed.
        let markdown = markdown.contains("<")
            ? CodeSpans.segments(markdown).map { $0.isCode ? CodeSpans.fenced($0.text) : literalLessThan($0.text) }.joined() : markdown
        var html = trimmed(CMarkDocument(markdown: markdown).html())
        if html.hasPrefix("<p>"), html.hasSuffix("</p>"), occurrences(of: "<p>", in: html) == 1 {
            html = String(html.dropFirst(3).dropLast(4))
        }
        // cmark writes these tags one way, with escaped attribute values. Most messages have
        // neither, and a regex literal is parsed again on every call: look before replacing.
        if contains(html, "<a href=\"") {
            html = html.replacing(/<a href="[^"]*"(?: title="[^"]*")?>/, with: "").replacing("</a>", with: "")
        }
        guard contains(html, "<img ") else { return html }
        return html.replacing(/<img src="[^"]*" alt="([^"]*)"(?: title="[^"]*")? \/>/) { String($0.1) }
    }

    /// cmark's HTML without the white space around it (ASCII white space is all cmark writes
    /// there; Foundation's trimming goes through `NSString` on Linux).
    static func trimmed(_ html: String) -> String {
        let utf8 = html.utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0B || byte == 0x0C }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) }) else { return "" }
        if first == utf8.startIndex, last == utf8.index(before: utf8.endIndex) { return html }
        return String(html[first...last])
    }

    /// How many times `needle` occurs in `text`, by bytes, without overlaps.
    static func occurrences(of needle: String, in text: String) -> Int {
        let bytes = Array(text.utf8), pattern = Array(needle.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return 0 }
        var count = 0, start = 0
        while start <= bytes.count - pattern.count {
            if bytes[start] == pattern[0], bytes[start..<start + pattern.count].elementsEqual(pattern) {
                count += 1; start += pattern.count
            } else { start += 1 }
        }
        return count
    }

    /// Whether `text` holds `needle`, by bytes (Foundation's search is slow for an ASCII needle).
    static func contains(_ text: String, _ needle: String) -> Bool {
        let bytes = Array(text.utf8), pattern = Array(needle.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return pattern.isEmpty }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if bytes[start..<start + pattern.count].elementsEqual(pattern) { return true }
        }
        return false
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
    /// Works on UTF-8 bytes: Foundation's string search is needlessly slow for a fixed ASCII needle.
    private static func addAnchors(_ html: String, _ entries: [TableOfContentsEntry]) -> String {
        guard !entries.isEmpty else { return html }
        let bytes = Array(html.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + entries.count * 32)
        var index = 0, position = 0, copied = 0
        while position + 3 < bytes.count, index < entries.count {
            if bytes[position] == UInt8(ascii: "<"), bytes[position + 1] == UInt8(ascii: "h"),
               bytes[position + 2] == UInt8(ascii: "0") + UInt8(entries[index].level), bytes[position + 3] == UInt8(ascii: ">") {
                output += bytes[copied..<position]
                output += Array("<h\(entries[index].level) id=\"\(entries[index].anchor)\">".utf8)
                position += 4
                copied = position
                index += 1
            } else {
                position += 1
            }
        }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }
}
