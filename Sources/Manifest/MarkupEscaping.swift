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
}
