import Manifest

/// App data shown in a terminal, a CI log or a Markdown comment must not hide or reorder text:
/// control characters and Unicode bidi controls (a U+202E right-to-left override makes `exe.txt`
/// read as `txt.exe`) are written as visible `\u{202E}` escapes. Shared by the text, Markdown and
/// GitHub annotation outputs, and by every page of the site (`HTMLText`, `SiteRenderer`); JSON
/// has its own escaping.
public enum VisibleText {
    /// Whether a scalar is shown as an escape: C0 controls other than tab and line breaks (the
    /// formats fold those their own way), DEL, C1 controls, and the bidi embeddings, overrides,
    /// isolates and marks.
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }

    /// `\u{202E}` for U+202E; NUL becomes U+FFFD, as cmark and the HTML pages show it.
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        if scalar == "\0" { return "\u{FFFD}" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
    }

    public static func escaped(_ text: String) -> String {
        guard containsInvisible(text) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            if isInvisible(scalar) { output += escape(scalar) } else { output.unicodeScalars.append(scalar) }
        }
        return output
    }

    /// Breaks that end a line for a terminal or a CI log reader: shown as escapes inside a line.
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// `text` as exactly one line of a log a CI runner reads: line breaks and invisible characters
    /// as `\u{…}` escapes, and no runner command. GitHub's runner obeys `::name::` at the start of
    /// any line (after spaces), and `##[name]` (Azure Pipelines: `##vso[…]`) anywhere in one, on
    /// stdout and stderr: a file named `::stop-commands::x` or holding `##[add-mask]` must not print
    /// as one, so a leading `:` and the second `#` are escaped (`\u{003A}:`, `#\u{0023}[`).
    public static func line(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var leading = true
        for scalar in text.unicodeScalars {
            let shown = isInvisible(scalar) || isLineBreak(scalar) || (leading && scalar == ":")
            if shown { output += escape(scalar) } else { output.unicodeScalars.append(scalar) }
            // The runner trims every Unicode space before looking for `::`.
            if shown || !scalar.properties.isWhitespace { leading = false }
        }
        return RunnerCommand.neutralized(output, hash: escape("#"))
    }
    /// Whether `text` holds a scalar `isInvisible` takes, by its UTF-8 bytes: a whole page is
    /// scanned, and most pages have none.
    public static func containsInvisible(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let count = bytes.count
            var index = 0
            while index < count {
                let byte = bytes[index]
                switch byte {
                case 0x09, 0x0A, 0x0D: break
                case 0x00...0x1F, 0x7F: return true
                // U+0080–U+009F.
                case 0xC2 where index + 1 < count && (0x80...0x9F).contains(bytes[index + 1]): return true
                // U+061C.
                case 0xD8 where index + 1 < count && bytes[index + 1] == 0x9C: return true
                // U+200E, U+200F, U+202A–U+202E, U+2066–U+2069.
                case 0xE2 where index + 2 < count:
                    let second = bytes[index + 1], third = bytes[index + 2]
                    if second == 0x80 && (third == 0x8E || third == 0x8F || (0xAA...0xAE).contains(third)) { return true }
                    if second == 0x81 && (0xA6...0xA9).contains(third) { return true }
                default: break
                }
                index += 1
            }
            return false
        }
    }
}
