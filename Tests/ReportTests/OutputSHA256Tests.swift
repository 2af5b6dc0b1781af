import Foundation
import Manifest
import Report
import XCTest

/// FIPS 180-4 / NIST example vectors.
final class OutputSHA256Tests: XCTestCase {
    func testEmpty() {
        XCTAssertEqual(SHA256.hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testABC() {
        XCTAssertEqual(SHA256.hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func testTwoBlockMessage() {
        XCTAssertEqual(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testOneMillionA() {
        XCTAssertEqual(SHA256.hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testIncrementalUpdatesMatchOneShot() {
        let data = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var hasher = SHA256()
        for chunk in stride(from: 0, to: data.count, by: 37) { hasher.update(data[chunk..<min(chunk + 37, data.count)]) }
        XCTAssertEqual(hasher.finalize().map { String(format: "%02x", $0) }.joined(), SHA256.hex(data))
    }
}
