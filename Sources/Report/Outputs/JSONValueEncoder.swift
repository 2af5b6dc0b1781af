/// Encodes an `Encodable` into a `JSONValue`: an object's members in the order its `encode(to:)`
/// writes them (for a synthesized conformance, the order its properties are declared), `nil` as
/// `null` (`encodeIfPresent` too, so an optional member is always written). A member whose value
/// is `Omitted` with nothing in it is left out instead. Integers are `.int`, other numbers
/// `.number`: the bytes `serialized()` writes are those of a `JSONValue` built by hand. The coding
/// path is not tracked (nothing encoded here asks for it, and it would cost an allocation a value).
public struct JSONValueEncoder {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try encoded(value).json
    }

    /// `value` as the Mustache library's context: objects as `[String: Any]` without their null
    /// members, arrays as `[Any]`, leaves as `String`, `Int`, `Bool` or `Double` (nil for null),
    /// made from what was encoded directly, without a `JSONValue` between.
    func templateValue<T: Encodable>(_ value: T) throws -> Any? {
        try encoded(value).template
    }

    /// The common leaves, without an encoder of their own (by type, not by a dynamic cast).
    fileprivate static func scalar<T: Encodable>(_ value: T) -> Encoded? {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .int(unsafeBitCast(value, to: Int.self)) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Double.self { return .number(unsafeBitCast(value, to: Double.self)) }
        return nil
    }
}

/// A value written through `Omitted` is left out of its object when it is nil, rather than
/// written `null`: for members whose absence means something (`summary.baselined`).
@propertyWrapper
public struct Omitted<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    public var wrappedValue: Value?
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedEncodingContainer {
    /// An empty `Omitted` writes no member (a synthesized `encode(to:)` calls this).
    public mutating func encode<Value>(_ value: Omitted<Value>, forKey key: Key) throws {
        if let wrapped = value.wrappedValue { try encode(wrapped, forKey: key) }
    }
}

extension KeyedDecodingContainer {
    /// A missing member decodes as an empty `Omitted` (a synthesized `init(from:)` calls this).
    public func decode<Value>(_ type: Omitted<Value>.Type, forKey key: Key) throws -> Omitted<Value> {
        try decodeIfPresent(type, forKey: key) ?? Omitted(wrappedValue: nil)
    }
}

// MARK: - The encoder

/// A value as encoded: a leaf held directly (no object for each of the many leaves), or the slot
/// a container fills.
private enum Encoded {
    case string(String)
    case int(Int)
    case bool(Bool)
    case number(Double)
    case null
    case slot(EncodingSlot)

    /// An unsigned integer: an integer where `Int` holds it, else a number (`Int(value)` would trap).
    static func unsigned(_ value: UInt64) -> Encoded { Int(exactly: value).map(Encoded.int) ?? .number(Double(value)) }

    var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .int(let number): .int(number)
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number)
        case .null: .null
        case .slot(let slot): slot.json
        }
    }

    var template: Any? {
        switch self {
        case .string(let text): text
        case .int(let number): number
        case .bool(let flag): flag
        case .number(let number): number
        case .null: nil
        case .slot(let slot): slot.template
        }
    }
}

/// Where one value is written: filled once, by a single value or a container.
private final class EncodingSlot {
    enum Content {
        case leaf(Encoded)
        case object(ObjectStorage)
        case array(ArrayStorage)
    }
    var content = Content.leaf(.null)

    var json: JSONValue {
        switch content {
        case .leaf(let leaf): leaf.json
        case .object(let storage): .object(storage.members.map { ($0.0, $0.1.json) })
        case .array(let storage): .array(storage.items.map(\.json))
        }
    }

    var template: Any? {
        switch content {
        case .leaf(let leaf):
            return leaf.template
        case .object(let storage):
            var dictionary: [String: Any] = Dictionary(minimumCapacity: storage.members.count)
            for (key, member) in storage.members {
                if let value = member.template { dictionary[key] = value }
            }
            return dictionary
        case .array(let storage):
            return storage.items.compactMap(\.template)
        }
    }
}

private final class ObjectStorage {
    var members: [(String, Encoded)] = []
}

private final class ArrayStorage {
    var items: [Encoded] = []
}

/// A value as encoded: a leaf directly, anything else through its `encode(to:)` into a slot.
private func encoded<T: Encodable>(_ value: T) throws -> Encoded {
    if let direct = JSONValueEncoder.scalar(value) { return direct }
    let slot = EncodingSlot()
    try value.encode(to: ValueEncoder(slot: slot))
    if case .leaf(let leaf) = slot.content { return leaf }
    return .slot(slot)
}

private struct ValueEncoder: Encoder {
    let slot: EncodingSlot
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let storage: ObjectStorage
        if case .object(let existing) = slot.content { storage = existing } else {
            storage = ObjectStorage()
            slot.content = .object(storage)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(storage: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let storage: ArrayStorage
        if case .array(let existing) = slot.content { storage = existing } else {
            storage = ArrayStorage()
            slot.content = .array(storage)
        }
        return UnkeyedContainer(storage: storage)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(slot: slot) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: ObjectStorage
    var codingPath: [any CodingKey] { [] }

    private func add(_ value: Encoded, _ key: Key) { storage.members.append((key.stringValue, value)) }

    mutating func encodeNil(forKey key: Key) throws { add(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { add(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { add(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { add(.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { add(.number(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { add(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { add(.int(Int(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { add(.int(Int(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { add(.int(Int(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { add(.int(Int(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { add(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { add(.int(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { add(.int(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { add(.int(Int(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { add(.unsigned(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        storage.members.append((key.stringValue, try encoded(value)))
    }

    // Written `null` when nil: every optional member of a result is always present.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { add(value.map(Encoded.bool) ?? .null, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { add(value.map(Encoded.string) ?? .null, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { add(value.map(Encoded.number) ?? .null, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { add(value.map(Encoded.int) ?? .null, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { add(.null, key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let slot = EncodingSlot()
        storage.members.append((key.stringValue, .slot(slot)))
        return ValueEncoder(slot: slot).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let slot = EncodingSlot()
        storage.members.append((key.stringValue, .slot(slot)))
        return ValueEncoder(slot: slot).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let slot = EncodingSlot()
        storage.members.append((key.stringValue, .slot(slot)))
        return ValueEncoder(slot: slot)
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let storage: ArrayStorage
    var codingPath: [any CodingKey] { [] }
    var count: Int { storage.items.count }

    private func add(_ value: Encoded) { storage.items.append(value) }

    mutating func encodeNil() throws { add(.null) }
    mutating func encode(_ value: Bool) throws { add(.bool(value)) }
    mutating func encode(_ value: String) throws { add(.string(value)) }
    mutating func encode(_ value: Double) throws { add(.number(value)) }
    mutating func encode(_ value: Float) throws { add(.number(Double(value))) }
    mutating func encode(_ value: Int) throws { add(.int(value)) }
    mutating func encode(_ value: Int8) throws { add(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { add(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { add(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { add(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { add(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { add(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { add(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { add(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { add(.unsigned(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { storage.items.append(try encoded(value)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let slot = EncodingSlot()
        storage.items.append(.slot(slot))
        return ValueEncoder(slot: slot).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let slot = EncodingSlot()
        storage.items.append(.slot(slot))
        return ValueEncoder(slot: slot).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let slot = EncodingSlot()
        storage.items.append(.slot(slot))
        return ValueEncoder(slot: slot)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let slot: EncodingSlot
    var codingPath: [any CodingKey] { [] }

    private func set(_ value: Encoded) { slot.content = .leaf(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.number(value)) }
    mutating func encode(_ value: Float) throws { set(.number(Double(value))) }
    mutating func encode(_ value: Int) throws { set(.int(value)) }
    mutating func encode(_ value: Int8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { set(.unsigned(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if let direct = JSONValueEncoder.scalar(value) { set(direct); return }
        try value.encode(to: ValueEncoder(slot: slot))
    }
}
