import Manifest
import Report

/// A pull-request comment read the way GitHub reads it (GFM). The libcmark linked here has no
/// table extension, so table rows are split as GFM splits them — on each `|` not escaped by a
/// backslash, then `\|` unescaped inside the cell, even inside a code span — and each cell is
/// rendered by cmark on its own; every other line goes through cmark whole.
public enum GFMComment {
    public struct Rendered {
        /// cmark's HTML, tables as `<table><tr><td>…</td></tr></table>`.
        public var html: String
        /// What a reader sees: the HTML with its tags dropped and entities decoded.
        public var text: String
        /// Each table's rows, each row its cells' rendered HTML (the delimiter row left out).
        public var tables: [[[String]]]
    }

    public static func render(_ markdown: String) -> Rendered {
        var html = "", chunk: [Substring] = [], table: [[String]] = [], tables: [[[String]]] = []
        func flushChunk() {
            if !chunk.isEmpty { html += CMarkDocument(markdown: chunk.joined(separator: "\n") + "\n").html() }
            chunk = []
        }
        func flushTable() {
            guard !table.isEmpty else { return }
            html += "<table>" + table.map { "<tr>" + $0.map { "<td>\($0)</td>" }.joined() + "</tr>" }.joined() + "</table>\n"
            tables.append(table)
            table = []
        }
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            // A table starts at a row followed by its delimiter row, and goes on while rows start with `|`.
            let starts = line.hasPrefix("|") && index + 1 < lines.count && isDelimiterRow(lines[index + 1])
            if starts || (!table.isEmpty && line.hasPrefix("|")) {
                if table.isEmpty { flushChunk() }
                if !isDelimiterRow(line) { table.append(cells(line).map(inlineHTML)) }
            } else {
                flushTable()
                chunk.append(line)
            }
        }
        flushTable()
        flushChunk()
        return Rendered(html: html, text: visibleText(html), tables: tables)
    }

    /// The cells of a row, as GFM's table extension cuts them.
    public static func cells(_ row: Substring) -> [String] {
        var cells: [String] = [], current = "", escaped = false
        for character in row {
            if character == "|" && !escaped {
                cells.append(current)
                current = ""
            } else if character == "|" {
                current.removeLast()  // the backslash of `\|`
                current.append("|")
            } else {
                current.append(character)
            }
            escaped = character == "\\" && !escaped
        }
        cells.append(current)
        if cells.first?.trimmingCharacters(in: .whitespaces).isEmpty == true { cells.removeFirst() }
        if cells.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { cells.removeLast() }
        return cells.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func isDelimiterRow(_ line: Substring) -> Bool {
        line.contains("-") && line.allSatisfy { "|-: ".contains($0) }
    }

    static func inlineHTML(_ cell: String) -> String {
        var html = CMarkDocument(markdown: cell).html().trimmingCharacters(in: .whitespacesAndNewlines)
        if html.hasPrefix("<p>"), html.hasSuffix("</p>") { html = String(html.dropFirst(3).dropLast(4)) }
        return html
    }

    /// The text a reader sees: tags dropped (`<!-- raw HTML omitted -->` too), entities decoded.
    public static func visibleText(_ html: String) -> String {
        var text = "", inTag = false
        for character in html {
            switch character {
            case "<": inTag = true
            case ">" where inTag: inTag = false
            default: if !inTag { text.append(character) }
            }
        }
        return MarkupEscaping.unescape(text)
    }
}
