import Checklist
import Manifest

/// A value the result format reads itself from its node, rather than through `init(from:)`: an
/// enumeration spelled by its raw value, a number within its range, and (without the containers
/// `init(from:)` would go through) arrays and optionals of the format's values. The message names
/// the field.
protocol ResultScalar {
    static func read(_ node: JSONNode, _ context: ResultDecoder.Context) throws(ResultFormatError) -> Self
}

extension Array: ResultScalar where Element: Decodable {
    static func read(_ node: JSONNode, _ context: ResultDecoder.Context) throws(ResultFormatError) -> [Element] {
        let items = try node.items()
        var result: [Element] = []
        result.reserveCapacity(items.count)
        if Element.self == String.self {
            for (index, item) in items.enumerated() {
                // Not a string: its node says so, naming its place.
                guard case .string(let text) = item else { result.append(unsafeBitCast(try node.item(index).string(), to: Element.self)); continue }
                result.append(unsafeBitCast(text, to: Element.self))
            }
            return result
        }
        let kind = context.kind(Element.self)
        for (index, item) in items.enumerated() {
            if let leaf = kind.leaf, let value = leaf.leaf(item) {
                result.append(value as! Element)
            } else if let leaf = kind.optionalLeaf, let value = leaf.leafOrNull(item) {
                result.append(value as! Element)
            } else {
                result.append(try ResultDecoder.decode(Element.self, from: node.item(index), context: context))
            }
        }
        return result
    }
}

extension Optional: ResultScalar where Wrapped: Decodable {
    static func read(_ node: JSONNode, _ context: ResultDecoder.Context) throws(ResultFormatError) -> Wrapped? {
        node.isNull ? nil : try ResultDecoder.decode(Wrapped.self, from: node, context: context)
    }
}

/// A scalar read from its value alone when it is fine (`leaf` is nil when it is not, and the
/// value is then read again through `read`, whose error names the field): no node, so no place,
/// is made for the many numbers and names of a result that are fine.
protocol ResultLeaf: ResultScalar {
    static func leaf(_ value: JSONValue) -> Self?
}

/// An optional leaf (`stepsByHour`'s numbers, null where hidden), read from its value alone.
protocol ResultOptionalLeaf {
    /// nil when the value is neither null nor a fine leaf.
    static func leafOrNull(_ value: JSONValue) -> Self?
}

extension Optional: ResultOptionalLeaf where Wrapped: ResultLeaf {
    static func leafOrNull(_ value: JSONValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.leaf(value).map { .some($0) }
    }
}

/// An enumeration a result spells by its raw value: anything else is an error that lists them.
protocol ResultEnum: ResultLeaf, CaseIterable, RawRepresentable, Codable where RawValue == String {}

extension ResultEnum {
    static func read(_ node: JSONNode, _ context: ResultDecoder.Context) throws(ResultFormatError) -> Self { try node.oneOf(Self.self) }

    static func leaf(_ value: JSONValue) -> Self? {
        guard case .string(let text) = value else { return nil }
        return Self(rawValue: text)
    }
}

/// A type of the result format with rules beyond its members' types (an app id that is a folder
/// name, days in order): checked once it is decoded, naming the member at fault.
protocol ResultChecked {
    func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError)
}

/// The range a whole number of a result must lie in (see `ResultRanges`).
protocol IntegerRange { static var range: ClosedRange<Int> { get } }
/// The range a number of a result must lie in.
protocol RealRange { static var range: ClosedRange<Double> { get } }

/// An integer of a result, read only within `Range.range`: the pages do arithmetic on them, and a
/// hostile value must be an error naming its field, never a trap.
struct BoundedInt<Range: IntegerRange>: Codable, Hashable, Sendable, ResultLeaf {
    var value: Int
    init(_ value: Int) { self.value = value }

    static func leaf(_ value: JSONValue) -> Self? {
        guard case .int(let number) = value, Range.range.contains(number) else { return nil }
        return Self(number)
    }

    static func read(_ node: JSONNode, _ context: ResultDecoder.Context) throws(ResultFormatError) -> Self { Self(try node.int(in: Range.range)) }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        value = try container.decode(Int.self)
        guard Range.range.contains(value) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(value) is out of range: expected an integer from \(Range.range.lowerBound) to \(Range.range.upperBound)")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// A number of a result (integers included), read only within `Range.range`.
struct BoundedDouble<Range: RealRange>: Codable, Hashable, Sendable, ResultLeaf {
    var value: Double
    init(_ value: Double) { self.value = value }

    static func leaf(_ value: JSONValue) -> Self? {
        let number: Double
        switch value {
        case .number(let real): number = real
        case .int(let integer): number = Double(integer)
        default: return nil
        }
        return Range.range.contains(number) ? Self(number) : nil
    }

    static func read(_ node: JSONNode, _ context: ResultDecoder.Context) throws(ResultFormatError) -> Self { Self(try node.double(in: Range.range)) }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        value = try container.decode(Double.self)
        guard Range.range.contains(value) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(value) is out of range: expected a number from \(Range.range.lowerBound) to \(Range.range.upperBound)")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// Decodes the result format from a document the strict `JSONParser` read (its limits on size,
/// depth and text come first), over `JSONNode`: a complaint names the field
/// (`apps[2].findings[0].severity: 'fatal' is not one of note, warning, error`), each number is
/// read through its range, and no Foundation decoder is involved.
struct ResultDecoder: Decoder {
    /// What every check may need to say (the version of healthaudit that wrote the result), and
    /// how each type is read, found once per document: asking the runtime whether a type is a
    /// scalar or has checks of its own costs far more than a lookup, and a result has a hundred
    /// thousand values of a few dozen types. One document is decoded on one thread.
    final class Context {
        let writer: String
        /// Open addressing by the type's address: a result's few dozen types, no hashing.
        private var kinds = [(type: ObjectIdentifier, kind: Kind)?](repeating: nil, count: 256)

        init(writer: String) { self.writer = writer }

        struct Kind {
            let scalar: (any ResultScalar.Type)?
            let leaf: (any ResultLeaf.Type)?
            let optionalLeaf: (any ResultOptionalLeaf.Type)?
            let checked: Bool
        }

        func kind<T>(_ type: T.Type) -> Kind {
            let key = ObjectIdentifier(type)
            var slot = Int(truncatingIfNeeded: UInt(bitPattern: key) >> 4) & (kinds.count - 1)
            var probes = 0
            while let entry = kinds[slot] {
                if entry.type == key { return entry.kind }
                slot = (slot + 1) & (kinds.count - 1)
                probes += 1
                // Full (never for the format's types): asked each time, still right.
                if probes == kinds.count { return Self.make(type) }
            }
            let kind = Self.make(type)
            kinds[slot] = (key, kind)
            return kind
        }

        private static func make<T>(_ type: T.Type) -> Kind {
            Kind(scalar: type as? any ResultScalar.Type, leaf: type as? any ResultLeaf.Type,
                 optionalLeaf: type as? any ResultOptionalLeaf.Type, checked: type is any ResultChecked.Type)
        }

        /// A rule this tool does not know: the result is of a later version.
        func checkRule(_ id: String, _ node: JSONNode) throws(ResultFormatError) {
            guard RuleCatalog.rule(id: id) == nil else { return }
            throw node.problem("rule '\(id)' is not known to healthaudit \(ToolInfo.currentVersion) (the result was written by \(writer)); assemble results with the version that wrote them, or a later one")
        }
    }

    let node: JSONNode
    let context: Context

    /// `T` read from `node`: a leaf or a scalar directly, anything else through its `init(from:)`,
    /// then checked when it has rules of its own.
    static func decode<T: Decodable>(_ type: T.Type, from node: JSONNode, context: Context) throws(ResultFormatError) -> T {
        // The leaves, directly: most of a result is strings.
        if T.self == String.self { return unsafeBitCast(try node.string(), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try node.bool(), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try node.int(in: Int.min...Int.max), to: T.self) }
        let kind = context.kind(T.self)
        let value: T
        if let scalar = kind.scalar {
            value = try scalar.read(node, context) as! T
        } else {
            do {
                value = try T(from: ResultDecoder(node: node, context: context))
            } catch let error as ResultFormatError {
                throw error
            } catch {
                throw node.problem("\(error)")
            }
        }
        if kind.checked { try (value as! any ResultChecked).check(node, context) }
        return value
    }

    /// For a type's own `init(from:)`: a problem with its member `key`, where a result is read.
    static func problem(in decoder: any Decoder, at key: String, _ message: String) -> any Error {
        guard let decoder = decoder as? ResultDecoder else {
            return DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: message))
        }
        return (try? decoder.node.field(key).problem(message)) ?? decoder.node.problem(message)
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedContainer<Key>(node: node, members: try node.members(), context: context))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        UnkeyedContainer(node: node, items: try node.array(), context: context)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleContainer(node: node, context: context) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: JSONNode
    let members: [(String, JSONValue)]
    let context: ResultDecoder.Context

    var codingPath: [any CodingKey] { node.codingPath }
    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.0 == key.stringValue } }

    private func field(_ key: Key) throws(ResultFormatError) -> JSONNode { try node.field(key.stringValue) }
    private func optional(_ key: Key) throws(ResultFormatError) -> JSONNode? { try node.optionalField(key.stringValue) }

    func decodeNil(forKey key: Key) throws -> Bool { try field(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try node.bool(key.stringValue) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try node.string(key.stringValue) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try field(key).double(in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decode(Double.self, forKey: key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try field(key).int(in: Int.min...Int.max) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { Int8(try field(key).int(in: Int(Int8.min)...Int(Int8.max))) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { Int16(try field(key).int(in: Int(Int16.min)...Int(Int16.max))) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { Int32(try field(key).int(in: Int(Int32.min)...Int(Int32.max))) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { Int64(try field(key).int(in: Int.min...Int.max)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { UInt(try field(key).int(in: 0...Int.max)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { UInt8(try field(key).int(in: 0...Int(UInt8.max))) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { UInt16(try field(key).int(in: 0...Int(UInt16.max))) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { UInt32(try field(key).int(in: 0...Int(UInt32.max))) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { UInt64(try field(key).int(in: 0...Int.max)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if let leaf = context.kind(T.self).leaf, let member = node.memberValue(key.stringValue), let value = leaf.leaf(member) { return value as! T }
        return try ResultDecoder.decode(type, from: field(key), context: context)
    }

    // A member that is missing or null is nil.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(key)?.bool() }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try node.optionalString(key.stringValue) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(key)?.int(in: Int.min...Int.max) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try optional(key)?.double(in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if let leaf = context.kind(T.self).leaf, let member = node.memberValue(key.stringValue) {
            if case .null = member { return nil }
            if let value = leaf.leaf(member) { return (value as! T) }
        }
        guard let member = try optional(key) else { return nil }
        return try ResultDecoder.decode(type, from: member, context: context)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ResultDecoder(node: field(key), context: context).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ResultDecoder(node: field(key), context: context).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ResultDecoder(node: node, context: context) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ResultDecoder(node: try field(key), context: context) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let node: JSONNode
    let items: [JSONNode]
    let context: ResultDecoder.Context
    var currentIndex = 0

    init(node: JSONNode, items: [JSONNode], context: ResultDecoder.Context) { self.node = node; self.items = items; self.context = context }

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> JSONNode {
        guard currentIndex < items.count else { throw node.problem("expected more items") }
        defer { currentIndex += 1 }
        return items[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < items.count, items[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().bool() }
    mutating func decode(_ type: String.Type) throws -> String { try next().string() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().double(in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) }
    mutating func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().int(in: Int.min...Int.max) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { Int8(try next().int(in: Int(Int8.min)...Int(Int8.max))) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { Int16(try next().int(in: Int(Int16.min)...Int(Int16.max))) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { Int32(try next().int(in: Int(Int32.min)...Int(Int32.max))) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { Int64(try next().int(in: Int.min...Int.max)) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { UInt(try next().int(in: 0...Int.max)) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { UInt8(try next().int(in: 0...Int(UInt8.max))) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { UInt16(try next().int(in: 0...Int(UInt16.max))) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { UInt32(try next().int(in: 0...Int(UInt32.max))) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { UInt64(try next().int(in: 0...Int.max)) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ResultDecoder.decode(type, from: next(), context: context)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try ResultDecoder(node: next(), context: context).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try ResultDecoder(node: next(), context: context).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { ResultDecoder(node: try next(), context: context) }
}

private struct SingleContainer: SingleValueDecodingContainer {
    let node: JSONNode
    let context: ResultDecoder.Context

    var codingPath: [any CodingKey] { node.codingPath }

    func decodeNil() -> Bool { node.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try node.bool() }
    func decode(_ type: String.Type) throws -> String { try node.string() }
    func decode(_ type: Double.Type) throws -> Double { try node.double(in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try node.int(in: Int.min...Int.max) }
    func decode(_ type: Int8.Type) throws -> Int8 { Int8(try node.int(in: Int(Int8.min)...Int(Int8.max))) }
    func decode(_ type: Int16.Type) throws -> Int16 { Int16(try node.int(in: Int(Int16.min)...Int(Int16.max))) }
    func decode(_ type: Int32.Type) throws -> Int32 { Int32(try node.int(in: Int(Int32.min)...Int(Int32.max))) }
    func decode(_ type: Int64.Type) throws -> Int64 { Int64(try node.int(in: Int.min...Int.max)) }
    func decode(_ type: UInt.Type) throws -> UInt { UInt(try node.int(in: 0...Int.max)) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { UInt8(try node.int(in: 0...Int(UInt8.max))) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { UInt16(try node.int(in: 0...Int(UInt16.max))) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { UInt32(try node.int(in: 0...Int(UInt32.max))) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { UInt64(try node.int(in: 0...Int.max)) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try ResultDecoder.decode(type, from: node, context: context) }
}
