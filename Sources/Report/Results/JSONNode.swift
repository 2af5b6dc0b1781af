/// A value in a parsed result with its place in the document (`apps[2].findings[0].severity`), so
/// every complaint about a result file says where: results come from other runs, and are untrusted.
struct JSONNode {
    let value: JSONValue
    let path: String

    init(_ value: JSONValue, path: String = "") { self.value = value; self.path = path }

    func problem(_ message: String) -> ResultFormatError { ResultFormatError(path: path, message: message) }

    private var kind: String {
        switch value {
        case .string: "a string"
        case .int, .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private func child(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// A member that must be present (it may be null where the schema allows).
    func field(_ key: String) throws(ResultFormatError) -> JSONNode {
        guard case .object(let members) = value else { throw problem("expected an object, found \(kind)") }
        guard let member = members.first(where: { $0.0 == key }) else { throw ResultFormatError(path: child(key), message: "missing") }
        return JSONNode(member.1, path: child(key))
    }

    /// A member that may be missing or null.
    func optionalField(_ key: String) throws(ResultFormatError) -> JSONNode? {
        guard case .object(let members) = value else { throw problem("expected an object, found \(kind)") }
        guard let member = members.first(where: { $0.0 == key }), member.1 != .null else { return nil }
        return JSONNode(member.1, path: child(key))
    }

    func string() throws(ResultFormatError) -> String {
        guard case .string(let text) = value else { throw problem("expected a string, found \(kind)") }
        return text
    }

    func int() throws(ResultFormatError) -> Int {
        guard case .int(let number) = value else { throw problem("expected an integer, found \(kind)") }
        return number
    }

    func double() throws(ResultFormatError) -> Double {
        switch value {
        case .int(let number): return Double(number)
        case .number(let number): return number
        default: throw problem("expected a number, found \(kind)")
        }
    }

    func bool() throws(ResultFormatError) -> Bool {
        guard case .bool(let flag) = value else { throw problem("expected true or false, found \(kind)") }
        return flag
    }

    func array() throws(ResultFormatError) -> [JSONNode] {
        guard case .array(let items) = value else { throw problem("expected an array, found \(kind)") }
        return items.enumerated().map { JSONNode($0.element, path: "\(path)[\($0.offset)]") }
    }

    func strings() throws(ResultFormatError) -> [String] {
        var result: [String] = []
        for item in try array() { result.append(try item.string()) }
        return result
    }

    /// Each item read by `read`; the first bad one throws.
    func map<T>(_ read: (JSONNode) throws(ResultFormatError) -> T) throws(ResultFormatError) -> [T] {
        var result: [T] = []
        for item in try array() { result.append(try read(item)) }
        return result
    }

    /// A string that must be one of `T`'s raw values.
    func oneOf<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws(ResultFormatError) -> T where T.RawValue == String {
        let text = try string()
        guard let result = T(rawValue: text) else {
            throw problem("'\(text)' is not one of " + T.allCases.map { $0.rawValue }.joined(separator: ", "))
        }
        return result
    }
}

/// What is wrong with a result file, and where in it.
public struct ResultFormatError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
