import Foundation

/// Reads a binary property list (`bplist00`) straight into `PlistValue`, with bounded work.
///
/// Objects of a binary plist refer to each other by index, so one object may be referenced many
/// times: an array that lists the same array twice, 30 levels deep, is a few hundred bytes that
/// expand into a billion values (Foundation built that tree and took gigabytes). Here a reference back
/// to an object being read is a cycle, the tree may nest `InputLimits.maxNestingDepth` levels, and the
/// number of values built is capped (`nodeBudget`); each is an error naming the file.
struct BinaryPropertyList {
    enum Problem: Error, Equatable {
        case corrupt
        case cycle(object: Int)
        case tooManyValues(limit: Int)
        case tooDeep
    }

    /// Values built per object in the file (a well-formed plist shares little: `true`, a repeated
    /// string), with a floor for tiny files and a ceiling for everyone.
    static let valuesPerObject = 64
    static let minNodeBudget = 1_024
    static let maxNodeBudget = 1_000_000

    static func nodeBudget(objects: Int) -> Int {
        min(maxNodeBudget, max(minNodeBudget, objects.multipliedReportingOverflow(by: valuesPerObject).overflow ? maxNodeBudget : objects * valuesPerObject))
    }

    /// The root object of `data`; the caller checks it is a dictionary.
    static func decode(_ data: Data) throws(Problem) -> PlistValue {
        var reader = try BinaryPropertyList(bytes: [UInt8](data))
        return try reader.object(reader.top, depth: -1) // the root's values are at depth 0, as for XML
    }

    private let bytes: [UInt8]
    private let referenceSize: Int
    private let top: Int
    private let offsets: [Int]
    /// Where the offset table starts: every object lies before it.
    private let objectsEnd: Int
    private var reading: [Bool]
    private var built = 0
    private let budget: Int

    private init(bytes: [UInt8]) throws(Problem) {
        self.bytes = bytes
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist0".utf8)) else { throw .corrupt }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
              let count = Self.integer(bytes, at: trailer + 8, size: 8), let top = Self.integer(bytes, at: trailer + 16, size: 8),
              let table = Self.integer(bytes, at: trailer + 24, size: 8),
              count >= 1, top < count, table >= 8, table <= trailer, count <= (trailer - table) / offsetSize else { throw .corrupt }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for index in 0..<count {
            guard let offset = Self.integer(bytes, at: table + index * offsetSize, size: offsetSize), offset >= 8, offset < table else { throw .corrupt }
            offsets.append(offset)
        }
        self.top = top
        self.offsets = offsets
        objectsEnd = table
        reading = Array(repeating: false, count: count)
        budget = Self.nodeBudget(objects: count)
    }

    /// Big-endian unsigned integer of `size` bytes; nil out of bounds or above `Int.max`.
    private static func integer(_ bytes: [UInt8], at position: Int, size: Int) -> Int? {
        guard size >= 1, size <= 8, position >= 0, position <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for byte in bytes[position..<(position + size)] { value = value << 8 | UInt64(byte) }
        return value > UInt64(Int.max) ? nil : Int(value)
    }

    private mutating func object(_ index: Int, depth: Int) throws(Problem) -> PlistValue {
        guard index >= 0, index < offsets.count else { throw .corrupt }
        if depth > InputLimits.maxNestingDepth { throw .tooDeep }
        if reading[index] { throw .cycle(object: index) }
        built += 1
        if built > budget { throw .tooManyValues(limit: budget) }
        let start = offsets[index]
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0 where marker == 0x08: return .bool(false)
        case 0x0 where marker == 0x09: return .bool(true)
        case 0x1:
            guard low <= 4 else { throw .corrupt }
            let size = 1 << low
            let bits = try bigEndian(at: start + 1, size: size)
            // 1, 2 and 4 bytes are unsigned; 8 are signed; 16 hold a value that does not fit 8 (kept truncated).
            return .integer(size < 8 ? Int(bits) : Int(truncatingIfNeeded: Int64(bitPattern: bits)))
        case 0x2:
            switch low {
            case 2: return .real(Double(Float(bitPattern: UInt32(try bigEndian(at: start + 1, size: 4)))))
            case 3: return .real(Double(bitPattern: try bigEndian(at: start + 1, size: 8)))
            default: throw .corrupt
            }
        case 0x3 where marker == 0x33:
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try bigEndian(at: start + 1, size: 8))))
        case 0x4:
            let (first, length) = try lengthAndStart(start, low: low, unit: 1)
            return .data(Data(bytes[first..<(first + length)]))
        case 0x5:
            let (first, length) = try lengthAndStart(start, low: low, unit: 1)
            return .string(String(String.UnicodeScalarView(bytes[first..<(first + length)].lazy.map { Unicode.Scalar($0) })))
        case 0x6:
            let (first, length) = try lengthAndStart(start, low: low, unit: 2)
            let units = stride(from: first, to: first + 2 * length, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0xA:
            let (first, count) = try lengthAndStart(start, low: low, unit: referenceSize)
            reading[index] = true
            defer { reading[index] = false }
            var items: [PlistValue] = []
            items.reserveCapacity(count)
            for position in 0..<count {
                items.append(try object(try reference(at: first + position * referenceSize), depth: depth + 1))
            }
            return .array(items)
        case 0xD:
            let (first, count) = try lengthAndStart(start, low: low, unit: 2 * referenceSize)
            reading[index] = true
            defer { reading[index] = false }
            var entries: [String: PlistValue] = [:]
            for position in 0..<count {
                guard case .string(let key) = try object(try reference(at: first + position * referenceSize), depth: depth + 1) else { throw .corrupt }
                entries[key] = try object(try reference(at: first + (count + position) * referenceSize), depth: depth + 1)
            }
            return .dictionary(entries)
        default:
            // Sets, UIDs, null, fill and unknown markers: `BinaryPlistCheck` names them first.
            throw .corrupt
        }
    }

    private func bigEndian(at position: Int, size: Int) throws(Problem) -> UInt64 {
        guard position >= 0, position <= objectsEnd - size else { throw .corrupt }
        var value: UInt64 = 0
        for byte in bytes[position..<(position + size)] { value = value << 8 | UInt64(byte) }
        return value
    }

    private func reference(at position: Int) throws(Problem) -> Int {
        guard let index = Self.integer(bytes, at: position, size: referenceSize), position + referenceSize <= objectsEnd else { throw .corrupt }
        return index
    }

    /// Where an object's payload starts and how many `unit`-byte items it holds: the marker's low
    /// nibble, or 0xF followed by an integer object. The payload must end before the offset table.
    private func lengthAndStart(_ start: Int, low: Int, unit: Int) throws(Problem) -> (start: Int, count: Int) {
        var first = start + 1
        var count = low
        if low == 0x0F {
            guard first < objectsEnd, bytes[first] >> 4 == 0x1 else { throw .corrupt }
            let size = 1 << Int(bytes[first] & 0x0F)
            guard size <= 8 else { throw .corrupt }
            let bits = try bigEndian(at: first + 1, size: size)
            guard bits <= UInt64(objectsEnd) else { throw .corrupt }
            count = Int(bits)
            first += 1 + size
        }
        guard count <= (objectsEnd - first) / unit else { throw .corrupt }
        return (first, count)
    }
}
