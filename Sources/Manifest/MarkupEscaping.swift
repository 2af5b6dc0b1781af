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

/// The one escaping loop of HTML and XML: the five markup characters, plus what each format
/// must do with the other scalars (`special` returns a replacement, or nil to keep the scalar).
public enum MarkupEscaping {
    public static func escape(_ text: String, apostrophe: String, special: (Unicode.Scalar) -> String?) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
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
