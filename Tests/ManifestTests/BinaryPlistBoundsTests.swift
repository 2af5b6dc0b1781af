import Foundation
@testable import Manifest
import XCTest
import TestSupport

/// A minimal `bplist00` writer for tests: objects are listed explicitly and refer to each other by
/// index, so a test can share an object or make a cycle, which no ordinary writer does.
struct BPlistWriter {
    indirect enum Object {
        case bool(Bool)
        case int(Int64)
        case real(Double)
        case date(Double)
        case data([UInt8])
        case ascii(String)
        case utf16(String)
        case array([Int])
        case dict([(key: Int, value: Int)])
    }

    var objects: [Object] = []
    var top = 0

    @discardableResult
    mutating func add(_ object: Object) -> Int { objects.append(object); return objects.count - 1 }

    var data: Data {
        let refSize = objects.count < 256 ? 1 : 2
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
        func header(_ kind: UInt8, _ count: Int) -> [UInt8] {
            count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0x0F, 0x13] + bigEndian(UInt64(count), 8)
        }
        for object in objects {
            offsets.append(out.count)
            switch object {
            case .bool(let value): out.append(value ? 0x09 : 0x08)
            case .int(let value): out += [0x13] + bigEndian(UInt64(bitPattern: value), 8)
            case .real(let value): out += [0x23] + bigEndian(value.bitPattern, 8)
            case .date(let value): out += [0x33] + bigEndian(value.bitPattern, 8)
            case .data(let bytes): out += header(0x4, bytes.count) + bytes
            case .ascii(let text): out += header(0x5, text.utf8.count) + Array(text.utf8)
            case .utf16(let text):
                let units = Array(text.utf16)
                out += header(0x6, units.count) + units.flatMap { bigEndian(UInt64($0), 2) }
            case .array(let items): out += header(0xA, items.count) + items.flatMap { bigEndian(UInt64($0), refSize) }
            case .dict(let entries):
                out += header(0xD, entries.count) + entries.flatMap { bigEndian(UInt64($0.key), refSize) } + entries.flatMap { bigEndian(UInt64($0.value), refSize) }
            }
        }
        let table = out.count
        let offsetSize = table < 256 ? 1 : (table < 65_536 ? 2 : 4)
        for offset in offsets { out += bigEndian(UInt64(offset), offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        out += bigEndian(UInt64(objects.count), 8) + bigEndian(UInt64(top), 8) + bigEndian(UInt64(table), 8)
        return Data(out)
    }
}

final class BinaryPlistBoundsTests: XCTestCase {
    let path = "App/Info.plist"

    func errors(_ data: Data) -> [String] {
        do {
            _ = try PropertyListDocument.parse(data, path: path)
            XCTFail("expected an input error")
        } catch {
            return [(error as? InputError)?.problems.first?.description ?? "\(error)"]
        }
        return []
    }

    /// An array listing the same array twice, 30 levels deep: 2^30 values from a few hundred bytes.
    func testSharedObjectsCannotExpandWithoutBound() {
        var writer = BPlistWriter()
        let root = writer.add(.dict([]))
        let key = writer.add(.ascii("Bomb"))
        var level = writer.add(.ascii("leaf"))
        for _ in 0..<30 { level = writer.add(.array([level, level])) }
        writer.objects[root] = .dict([(key, level)])
        let data = writer.data
        XCTAssertLessThan(data.count, 400)
        XCTAssertEqual(errors(data), ["App/Info.plist: error: binary property list shares its objects so often that it expands to more than 2112 values; not read"])
    }

    func testAReferenceCycleIsAnError() {
        var writer = BPlistWriter()
        let root = writer.add(.dict([]))
        let key = writer.add(.ascii("Loop"))
        let outer = writer.add(.array([]))
        let inner = writer.add(.array([outer]))
        writer.objects[outer] = .array([inner])
        writer.objects[root] = .dict([(key, outer)])
        XCTAssertEqual(errors(writer.data), ["App/Info.plist: error: malformed binary property list: object 2 contains itself (a reference cycle)"])
    }

    func testADictionaryThatContainsItselfIsACycle() {
        var writer = BPlistWriter()
        let key = writer.add(.ascii("Self"))
        let root = writer.add(.dict([]))
        writer.objects[root] = .dict([(key, root)])
        writer.top = root
        XCTAssertEqual(errors(writer.data), ["App/Info.plist: error: malformed binary property list: object 1 contains itself (a reference cycle)"])
    }

    func testNestingDeeperThan64LevelsIsAnError() {
        var writer = BPlistWriter()
        let root = writer.add(.dict([]))
        let key = writer.add(.ascii("Deep"))
        var level = writer.add(.bool(true))
        for _ in 0..<70 { level = writer.add(.array([level])) }
        writer.objects[root] = .dict([(key, level)])
        XCTAssertEqual(errors(writer.data), ["App/Info.plist: error: property list nests deeper than 64 levels"])
    }

    /// Ordinary sharing (one `true` for many keys, as Apple's writer does) is well within the budget.
    func testOrdinarySharingIsRead() throws {
        var writer = BPlistWriter()
        let root = writer.add(.dict([]))
        let yes = writer.add(.bool(true))
        let keys = (0..<2_000).map { writer.add(.ascii("Key\($0)")) }
        writer.objects[root] = .dict(keys.map { ($0, yes) })
        let document = try PropertyListDocument.parse(writer.data, path: path)
        XCTAssertEqual(document.root.count, 2_000)
        XCTAssertEqual(document["Key1999"], .bool(true))
    }

    /// Every kind the reader supports decodes as Foundation decodes it.
    func testEveryKindReadsAsFoundationReadsIt() throws {
        var writer = BPlistWriter()
        let root = writer.add(.dict([]))
        var entries: [(key: Int, value: Int)] = []
        func entry(_ name: String, _ object: BPlistWriter.Object) { entries.append((writer.add(.ascii(name)), writer.add(object))) }
        entry("Bool", .bool(false))
        entry("Int", .int(-42))
        entry("Big", .int(1 << 40))
        entry("Real", .real(2.5))
        entry("Date", .date(760_000_000))
        entry("Data", .data([0, 1, 2, 255]))
        entry("ASCII", .ascii("Reads your steps to chart them."))
        entry("Long", .ascii(String(repeating: "long ", count: 20)))
        entry("UTF16", .utf16("Lit vos pas — 歩数 🏃"))
        let first = writer.add(.ascii("a")), second = writer.add(.int(7))
        entry("Array", .array([first, second]))
        entry("Dict", .dict([(first, second)]))
        writer.objects[root] = .dict(entries)
        let data = writer.data
        let ours = try PropertyListDocument.parse(data, path: path).root
        let foundation = try XCTUnwrap(PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any])
        XCTAssertEqual(ours, try foundation.mapValues { try PlistValue(any: $0) })
        XCTAssertEqual(ours["UTF16"], .string("Lit vos pas — 歩数 🏃"))
        XCTAssertEqual(ours["Big"], .integer(1 << 40))
    }

    /// The real binary Info.plist of the Trainer example reads the same as through Foundation.
    func testTrainersBinaryInfoPlistReadsAsFoundationReadsIt() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Repository.site + "/apps/trainer/Trainer/Info.plist"))
        XCTAssertTrue(data.starts(with: Array("bplist00".utf8)))
        let ours = try PropertyListDocument.parse(data, path: path)
        let foundation = try XCTUnwrap(PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any])
        XCTAssertEqual(ours.root, try foundation.mapValues { try PlistValue(any: $0) })
        XCTAssertEqual(ours.format, .binary)
    }

    func testANonDictionaryRootIsAnError() {
        var writer = BPlistWriter()
        writer.add(.array([]))
        XCTAssertEqual(errors(writer.data), ["App/Info.plist: error: property list root must be a <dict>"])
    }
}
