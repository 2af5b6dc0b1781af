import Manifest

/// App data shown in a terminal, a CI log or a Markdown comment must not hide or reorder text:
/// control characters and Unicode bidi controls (a U+202E right-to-left override makes `exe.txt`
/// read as `txt.exe`) are written as visible `\u{202E}` escapes. Shared by the text, Markdown and
/// GitHub annotation outputs (HTML and JSON have their own escaping).
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
        guard text.unicodeScalars.contains(where: isInvisible) else { return text }
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
}
