/// Escaping for XML text and attribute values (reports, SVG, and the plists rule examples write). Characters XML 1.0 cannot carry at all (most
/// control characters) become U+FFFD, so untrusted text can never make the document unparsable;
/// line breaks and tabs become character references so attribute values keep them.
public enum XMLText {
    public static func escape(_ text: String) -> String {
        MarkupEscaping.escape(text, apostrophe: "&apos;") { scalar in
            switch scalar {
            case "\n": return "&#10;"
            case "\r": return "&#13;"
            case "\t": return "&#9;"
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0xD800...0xDFFF).contains(value) && value != 0xFFFE && value != 0xFFFF
                return allowed ? nil : "\u{FFFD}"
            }
        }
    }
}

/// The one escaping loop of HTML and XML: the five markup characters, the `#` of a CI runner
/// command (`RunnerCommand`), plus what each format must do with the other scalars (`special`
/// returns a replacement, or nil to keep the scalar).
public enum MarkupEscaping {
    public static func escape(_ text: String, apostrophe: String, special: (Unicode.Scalar) -> String?) -> String {
        // Most text (chart labels, numbers, names) is printable ASCII with nothing to escape:
        // returned as it is, without walking its scalars.
        if isPlain(text) { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count)
        let commandHashes = RunnerCommand.hashesToEscape(in: text)
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if !commandHashes.isEmpty, commandHashes.contains(offset) {
                output += "&#35;"
                continue
            }
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += apostrophe
            default:
                if let replacement = special(scalar) { output += replacement } else { output.unicodeScalars.append(scalar) }
            }
        }
        return output
    }

    /// Printable ASCII without a markup character or a `#` (a runner command needs two): nothing
    /// any format escapes or replaces.
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">")
                && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'") && byte != UInt8(ascii: "#")
        }
    }

    /// The inverse for text read back from markup: the five named entities and numeric character
    /// references, in one pass (so `&amp;lt;` stays `&lt;`); anything else is kept as written.
    public static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            output += rest[..<amp]
            let tail = rest[rest.index(after: amp)...]
            if let semicolon = tail.prefix(10).firstIndex(of: ";"), let decoded = decode(tail[..<semicolon]) {
                output += decoded
                rest = tail[tail.index(after: semicolon)...]
            } else {
                output += "&"
                rest = tail
            }
        }
        return output + rest
    }

    private static func decode(_ entity: Substring) -> String? {
        switch entity {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard entity.hasPrefix("#") else { return nil }
            let digits = entity.dropFirst()
            let value = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}

/// CI runners obey commands in any line a job prints, on stdout and stderr: GitHub's legacy
/// `##[name]` and Azure Pipelines' `##vso[name]` anywhere in a line (GitHub's `::name::` only at
/// a line's start, which the line-based outputs handle). Untrusted text that every output carries
/// as data — a file name, a quoted line — must not spell one: each format writes the second `#`
/// of such a run its own harmless way (`&#35;`, `\u0023`, `\u{0023}`), which reads back the same.
public enum RunnerCommand {
    /// Offsets (in unicode scalars) of each `#` that follows a `#` and opens `[` or `vso[`; empty
    /// for almost every text, found by a byte scan that allocates nothing.
    public static func hashesToEscape(in text: String) -> Set<Int> {
        var previous: UInt8 = 0
        var double = false
        for byte in text.utf8 {
            if byte == 0x23 && previous == 0x23 { double = true; break }
            previous = byte
        }
        guard double else { return [] }
        let scalars = Array(text.unicodeScalars)
        var offsets: Set<Int> = []
        for index in 1..<scalars.count where scalars[index] == "#" && scalars[index - 1] == "#" && opensCommand(scalars, at: index + 1) {
            offsets.insert(index)
        }
        return offsets
    }

    private static func opensCommand(_ scalars: [Unicode.Scalar], at start: Int) -> Bool {
        guard start < scalars.count else { return false }
        if scalars[start] == "[" { return true }
        let vso: [Unicode.Scalar] = ["v", "s", "o", "["]
        guard start + vso.count <= scalars.count else { return false }
        return zip(scalars[start..<start + vso.count], vso).allSatisfy { String($0).lowercased() == String($1) }
    }

    /// `text` with those `#` written as `hash`, for text already escaped for its format (the
    /// escapes of every format here leave `#`, `[` and letters as they are).
    public static func neutralized(_ text: String, hash: String) -> String {
        let offsets = hashesToEscape(in: text)
        guard !offsets.isEmpty else { return text }
        var output = ""
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if offsets.contains(offset) { output += hash } else { output.unicodeScalars.append(scalar) }
        }
        return output
    }
}
