import Manifest

/// A JSON document with object keys in the order written, so machine outputs are byte-stable and
/// read in a sensible order (`schemaVersion` first) without relying on Foundation's serializer.
public indirect enum JSONValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral {
    case string(String)
    case int(Int)
    /// A number with a fraction, written in its shortest exact form: it reads back as the same `Double`.
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// `nil` becomes `null`.
    public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    public static func optional(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }
    public static func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
    public static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }
    public func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

    /// Pretty-printed with two-space indents and a trailing newline.
    public func serialized() -> String {
        var output = ""
        write(to: &output, indent: "")
        return output + "\n"
    }

    private func write(to output: inout String, indent: String) {
        switch self {
        case .string(let text): JSONValue.quote(text, into: &output)
        case .int(let number): output += String(number)
        case .number(let number): output += number.isFinite ? "\(number)" : "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .null: output += "null"
        case .array(let items):
            guard !items.isEmpty else { output += "[]"; return }
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += indent + "  "
                item.write(to: &output, indent: indent + "  ")
                output += index == items.count - 1 ? "\n" : ",\n"
            }
            output += indent + "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{\n"
            for (index, (key, value)) in members.enumerated() {
                output += indent + "  "
                JSONValue.quote(key, into: &output)
                output += ": "
                value.write(to: &output, indent: indent + "  ")
                output += index == members.count - 1 ? "\n" : ",\n"
            }
            output += indent + "}"
        }
    }

    /// RFC 8259 string escaping; control characters as `\u00XX`.
    static func quote(_ text: String, into output: inout String) {
        output += "\""
        let commandHashes = RunnerCommand.hashesToEscape(in: text)
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            // A CI runner command (`##[…]`) in a report printed on stdout: written `#\u0023[`.
            if !commandHashes.isEmpty, commandHashes.contains(offset) {
                output += "\\u0023"
                continue
            }
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
