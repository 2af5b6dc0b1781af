/// Escaping for XML text and attribute values. Characters XML 1.0 cannot carry at all (most
/// control characters) become U+FFFD, so untrusted text can never make the document unparsable.
enum XMLText {
    static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\n": output += "&#10;"
            case "\r": output += "&#13;"
            case "\t": output += "&#9;"
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0xD800...0xDFFF).contains(value) && value != 0xFFFE && value != 0xFFFF
                if allowed { output.unicodeScalars.append(scalar) } else { output += "\u{FFFD}" }
            }
        }
        return output
    }
}
