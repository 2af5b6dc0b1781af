/// Encodes an `Encodable` into a `JSONValue`: an object's members in the order its `encode(to:)`
/// writes them (for a synthesized conformance, the order its properties are declared), `nil` as
/// `null` (`encodeIfPresent` too, so an optional member is always written). A member whose value
/// is `Omitted` with nothing in it is left out instead. Integers are `.int`, other numbers
/// `.number`: the bytes `serialized()` writes are those of a `JSONValue` built by hand.
public struct JSONValueEncoder {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        if let direct = JSONValueEncoder.scalar(value) { return direct }
        let slot = EncodingSlot()
        try value.encode(to: ValueEncoder(slot: slot, path: nil))
        return slot.value
    }

    /// The common leaves, without an encoder of their own.
    fileprivate static func scalar<T: Encodable>(_ value: T) -> JSONValue? {
        switch value {
        case let text as String: return .string(text)
        case let number as Int: return .int(number)
        case let flag as Bool: return .bool(flag)
        case let number as Double: return .number(number)
        default: return nil
        }
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

/// Lets the keyed containers tell an empty `Omitted` from a value.
protocol OmittableValue { var isOmitted: Bool { get } }
extension Omitted: OmittableValue { var isOmitted: Bool { wrappedValue == nil } }

extension KeyedDecodingContainer {
    /// A missing member decodes as an empty `Omitted` (a synthesized `init(from:)` calls this).
    public func decode<Value>(_ type: Omitted<Value>.Type, forKey key: Key) throws -> Omitted<Value> {
        try decodeIfPresent(type, forKey: key) ?? Omitted(wrappedValue: nil)
    }
}

// MARK: - The encoder

/// Where one value is written: filled once, by a single value or a container.
private final class EncodingSlot {
    enum Content {
        case value(JSONValue)
        case object(ObjectStorage)
        case array(ArrayStorage)
    }
    var content = Content.value(.null)

    var value: JSONValue {
        switch content {
        case .value(let value): value
        case .object(let storage): .object(storage.members.map { ($0.0, $0.1.value) })
        case .array(let storage): .array(storage.items.map(\.value))
        }
    }
}

private final class ObjectStorage {
    var members: [(String, EncodingSlot)] = []
}

private final class ArrayStorage {
    var items: [EncodingSlot] = []
}

/// The coding path as links to the parent, spelled out only when asked for.
private final class EncodingPath {
    let parent: EncodingPath?
    let key: any CodingKey
    init(parent: EncodingPath?, key: any CodingKey) { self.parent = parent; self.key = key }

    static func keys(_ path: EncodingPath?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var link = path
        while let current = link { keys.append(current.key); link = current.parent }
        return keys.reversed()
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct ValueEncoder: Encoder {
    let slot: EncodingSlot
    let path: EncodingPath?
    var codingPath: [any CodingKey] { EncodingPath.keys(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let storage: ObjectStorage
        if case .object(let existing) = slot.content { storage = existing } else {
            storage = ObjectStorage()
            slot.content = .object(storage)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(storage: storage, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let storage: ArrayStorage
        if case .array(let existing) = slot.content { storage = existing } else {
            storage = ArrayStorage()
            slot.content = .array(storage)
        }
        return UnkeyedContainer(storage: storage, path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(slot: slot, path: path) }
}

/// A value into a new slot: leaves directly, anything else through its `encode(to:)`.
private func encoded<T: Encodable>(_ value: T, path: EncodingPath?) throws -> EncodingSlot {
    let slot = EncodingSlot()
    if let direct = JSONValueEncoder.scalar(value) { slot.content = .value(direct) } else {
        try value.encode(to: ValueEncoder(slot: slot, path: path))
    }
    return slot
}

private func leaf(_ value: JSONValue) -> EncodingSlot {
    let slot = EncodingSlot()
    slot.content = .value(value)
    return slot
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: ObjectStorage
    let path: EncodingPath?
    var codingPath: [any CodingKey] { EncodingPath.keys(path) }

    private func add(_ value: JSONValue, _ key: Key) { storage.members.append((key.stringValue, leaf(value))) }

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
    mutating func encode(_ value: UInt, forKey key: Key) throws { add(.int(Int(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { add(.int(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { add(.int(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { add(.int(Int(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { add(.int(Int(value)), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let omittable = value as? any OmittableValue, omittable.isOmitted { return }
        storage.members.append((key.stringValue, try encoded(value, path: EncodingPath(parent: path, key: key))))
    }

    // Written `null` when nil: every optional member of a result is always present.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { add(value.map(JSONValue.bool) ?? .null, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { add(value.map(JSONValue.string) ?? .null, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { add(value.map(JSONValue.number) ?? .null, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { add(value.map(JSONValue.int) ?? .null, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { add(.null, key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let slot = EncodingSlot()
        storage.members.append((key.stringValue, slot))
        return ValueEncoder(slot: slot, path: EncodingPath(parent: path, key: key)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let slot = EncodingSlot()
        storage.members.append((key.stringValue, slot))
        return ValueEncoder(slot: slot, path: EncodingPath(parent: path, key: key)).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let slot = EncodingSlot()
        storage.members.append((key.stringValue, slot))
        return ValueEncoder(slot: slot, path: EncodingPath(parent: path, key: key))
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let storage: ArrayStorage
    let path: EncodingPath?
    var codingPath: [any CodingKey] { EncodingPath.keys(path) }
    var count: Int { storage.items.count }

    private var nextPath: EncodingPath { EncodingPath(parent: path, key: IndexKey(storage.items.count)) }
    private func add(_ value: JSONValue) { storage.items.append(leaf(value)) }

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
    mutating func encode(_ value: UInt) throws { add(.int(Int(value))) }
    mutating func encode(_ value: UInt8) throws { add(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { add(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { add(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { add(.int(Int(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { storage.items.append(try encoded(value, path: nextPath)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let slot = EncodingSlot(), path = nextPath
        storage.items.append(slot)
        return ValueEncoder(slot: slot, path: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let slot = EncodingSlot(), path = nextPath
        storage.items.append(slot)
        return ValueEncoder(slot: slot, path: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let slot = EncodingSlot(), path = nextPath
        storage.items.append(slot)
        return ValueEncoder(slot: slot, path: path)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let slot: EncodingSlot
    let path: EncodingPath?
    var codingPath: [any CodingKey] { EncodingPath.keys(path) }

    private func set(_ value: JSONValue) { slot.content = .value(value) }

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
    mutating func encode(_ value: UInt) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { set(.int(Int(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if let direct = JSONValueEncoder.scalar(value) { set(direct); return }
        try value.encode(to: ValueEncoder(slot: slot, path: path))
    }
}
