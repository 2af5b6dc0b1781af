/// A value in a parsed result with its place in the document (`apps[2].findings[0].severity`), so
/// every complaint about a result file says where: results come from other runs, and are untrusted.
/// `ResultDecoder` reads `ResultFormat` through it.
struct JSONNode {
    let value: JSONValue
    /// Kept as links to the parent and spelled out only for a message: most reads succeed.
    private let place: Place?

    final class Place: Sendable {
        let parent: Place?
        let key: String?
        let index: Int
        init(parent: Place?, key: String?, index: Int = 0) { self.parent = parent; self.key = key; self.index = index }

        var text: String {
            let prefix = parent?.text ?? ""
            guard let key else { return prefix + "[\(index)]" }
            return prefix.isEmpty ? key : prefix + "." + key
        }
    }

    init(_ value: JSONValue) { self.value = value; place = nil }
    private init(_ value: JSONValue, place: Place) { self.value = value; self.place = place }

    var path: String { place?.text ?? "" }

    /// The place as a decoder's coding path: keys and indices from the root.
    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var link = place
        while let current = link {
            keys.append(current.key.map(PathKey.init(stringValue:)) ?? PathKey(intValue: current.index))
            link = current.parent
        }
        return keys.reversed()
    }

    private struct PathKey: CodingKey {
        let stringValue: String
        let intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue; intValue = nil }
        init(intValue: Int) { stringValue = String(intValue); self.intValue = intValue }
    }

    /// By its case: `JSONValue`'s `==` compares serializations, far too slow for a subtree.
    static func isNull(_ value: JSONValue) -> Bool {
        if case .null = value { return true }
        return false
    }

    var isNull: Bool { Self.isNull(value) }

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

    private func child(_ key: String) -> Place { Place(parent: place, key: key) }

    /// An object's members, as written.
    func members() throws(ResultFormatError) -> [(String, JSONValue)] {
        guard case .object(let members) = value else { throw problem("expected an object, found \(kind)") }
        return members
    }

    /// A member that must be present (it may be null where the schema allows).
    func field(_ key: String) throws(ResultFormatError) -> JSONNode {
        guard case .object(let members) = value else { throw problem("expected an object, found \(kind)") }
        guard let member = members.first(where: { $0.0 == key }) else { throw ResultFormatError(path: child(key).text, message: "missing") }
        return JSONNode(member.1, place: child(key))
    }

    /// A member's value as written, without a node (nil: missing); no place is made for it, so
    /// reading a leaf that is fine allocates nothing. Any problem is reported through `field`.
    func memberValue(_ key: String) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        for member in members where member.0 == key { return member.1 }
        return nil
    }

    /// A string member, read without making its node unless it is not one.
    func string(_ key: String) throws(ResultFormatError) -> String {
        if case .string(let text)? = memberValue(key) { return text }
        return try field(key).string()
    }

    func bool(_ key: String) throws(ResultFormatError) -> Bool {
        if case .bool(let flag)? = memberValue(key) { return flag }
        return try field(key).bool()
    }

    /// A string member that may be missing or null.
    func optionalString(_ key: String) throws(ResultFormatError) -> String? {
        switch memberValue(key) {
        case .string(let text)?: return text
        case .null?, nil: if case .object = value { return nil }
        default: break
        }
        return try optionalField(key)?.string()
    }

    /// A member that may be missing or null.
    func optionalField(_ key: String) throws(ResultFormatError) -> JSONNode? {
        guard case .object(let members) = value else { throw problem("expected an object, found \(kind)") }
        guard let member = members.first(where: { $0.0 == key }), !JSONNode.isNull(member.1) else { return nil }
        return JSONNode(member.1, place: child(key))
    }

    func string() throws(ResultFormatError) -> String {
        guard case .string(let text) = value else { throw problem("expected a string, found \(kind)") }
        return text
    }

    /// An integer within `range`. Every number of a result is read through a range (see
    /// `ResultRanges`): the pages do arithmetic on them (`index + 1`, a chart's scale, grouped
    /// digits), and a hostile value must be an error naming its field, never a trap.
    func int(in range: ClosedRange<Int>) throws(ResultFormatError) -> Int {
        switch value {
        case .int(let number) where range.contains(number): return number
        case .int(let number): throw outOfRange(String(number), range: "an integer from \(range.lowerBound) to \(range.upperBound)")
        case .number(let number): throw outOfRange(Self.text(number), range: "an integer from \(range.lowerBound) to \(range.upperBound)")
        default: throw problem("expected an integer, found \(kind)")
        }
    }

    /// A number within `range` (integers included).
    func double(in range: ClosedRange<Double>) throws(ResultFormatError) -> Double {
        let number: Double
        switch value {
        case .int(let integer): number = Double(integer)
        case .number(let real): number = real
        default: throw problem("expected a number, found \(kind)")
        }
        guard range.contains(number) else {
            throw outOfRange(Self.text(number), range: "a number from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound))")
        }
        return number
    }

    private func outOfRange(_ found: String, range: String) -> ResultFormatError {
        problem("\(found) is out of range: expected \(range)")
    }

    /// `1e+300`, `0.5`, and whole numbers without a fraction (`1000000000`, not `1e+09`).
    private static func text(_ number: Double) -> String {
        number == number.rounded() && number.magnitude < 1e15 ? String(Int(number)) : "\(number)"
    }

    func bool() throws(ResultFormatError) -> Bool {
        guard case .bool(let flag) = value else { throw problem("expected true or false, found \(kind)") }
        return flag
    }

    /// An array's values as written, without nodes for them.
    func items() throws(ResultFormatError) -> [JSONValue] {
        guard case .array(let items) = value else { throw problem("expected an array, found \(kind)") }
        return items
    }

    /// The node of an array's item `index` (the array's items are known to reach it).
    func item(_ index: Int) -> JSONNode {
        guard case .array(let items) = value else { preconditionFailure("not an array") }
        return JSONNode(items[index], place: Place(parent: place, key: nil, index: index))
    }

    func array() throws(ResultFormatError) -> [JSONNode] {
        guard case .array(let items) = value else { throw problem("expected an array, found \(kind)") }
        return items.enumerated().map { JSONNode($0.element, place: Place(parent: place, key: nil, index: $0.offset)) }
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
