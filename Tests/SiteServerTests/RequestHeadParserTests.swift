import Foundation
@testable import SiteServer
import XCTest
import TestSupport

/// The head parser and the page scanner, without sockets: limits, byte-at-a-time arrival,
/// and a marker found across window boundaries.
final class RequestHeadParserTests: XCTestCase {
    private let limits = ServeLimits(maxRequestLine: 64, maxHeadBytes: 256, maxHeaderCount: 4)

    private func parse(_ text: String, limits: ServeLimits? = nil) throws(HeadRefusal) -> RequestHead? {
        var parser = RequestHeadParser(limits: limits ?? self.limits)
        return try parser.append(Array(text.utf8))
    }

    private func refusal(_ text: String) -> HeadRefusal? {
        do { _ = try parse(text); return nil } catch { return error }
    }

    func testParsesRequestLineAndHeaders() throws {
        let head = try XCTUnwrap(try parse("GET /a%20b?x=1 HTTP/1.1\r\nHost: localhost:8000\r\nX-Pad:  v  \r\n\r\n"))
        XCTAssertEqual(head.method, "GET")
        XCTAssertEqual(head.target, "/a%20b?x=1")
        XCTAssertEqual(head.path, "/a%20b")
        XCTAssertEqual(head.version, "HTTP/1.1")
        XCTAssertEqual(head.values("host"), ["localhost:8000"])
        XCTAssertEqual(head.values("X-PAD"), ["v"])
        // Bare LF line ends, and a stray empty line first.
        XCTAssertEqual(try parse("\r\nHEAD / HTTP/1.0\nHost: a\n\n")?.method, "HEAD")
    }

    func testByteAtATimeGivesTheSameHead() throws {
        var parser = RequestHeadParser(limits: limits)
        let bytes = Array("GET /x HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        for byte in bytes.dropLast() { XCTAssertNil(try parser.append([byte])) }
        XCTAssertEqual(try parser.append([bytes.last!])?.target, "/x")
    }

    func testLimitsAndMalformedHeads() {
        XCTAssertEqual(refusal("GET /\(String(repeating: "a", count: 100)) HTTP/1.1\r\n\r\n"), .requestLineTooLong)
        // Refused before the line ends: an endless line is not buffered.
        XCTAssertEqual(refusal("GET /\(String(repeating: "a", count: 100))"), .requestLineTooLong)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 300))"), .headTooLarge)
        XCTAssertEqual(refusal("GET / HTTP/1.1\r\n" + (0..<5).map { "X\($0): 1\r\n" }.joined() + "\r\n"), .tooManyHeaders)
        XCTAssertEqual(refusal("GET / HTTP/2.0\r\n\r\n"), .unsupportedVersion)
        for bad in ["NONSENSE\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", "GET / FTP/1.0\r\n\r\n", "G(T / HTTP/1.1\r\n\r\n",
                    "GET / HTTP/1.1\r\nNo colon\r\n\r\n", "GET / HTTP/1.1\r\nX : 1\r\n\r\n", "GET / HTTP/1.1\r\n folded\r\n\r\n",
                    "GET / HTTP/1.1\r\nX: a\u{0}b\r\n\r\n", "GET /\u{1} HTTP/1.1\r\n\r\n"] {
            guard case .malformed? = refusal(bad) else { return XCTFail("\(bad.debugDescription) was not refused as malformed") }
        }
        XCTAssertEqual(HeadRefusal.headTooLarge.status.code, 431)
        XCTAssertEqual(HeadRefusal.tooManyHeaders.status.code, 431)
        XCTAssertEqual(HeadRefusal.requestLineTooLong.status.code, 414)
    }

    /// Linear time: a head at the default limit, fed in small pieces, parses in milliseconds
    /// (the old parser took about a minute for two 40 KB headers). The bound is a failure guard.
    func testLargeHeadsParseInLinearTime() throws {
        for _ in 0..<20 {
            var parser = RequestHeadParser(limits: ServeLimits())
            let head = "GET / HTTP/1.1\r\n" + (0..<90).map { "X-\($0): \(String(repeating: "v", count: 300))\r\n" }.joined() + "\r\n"
            var result: RequestHead?
            for piece in Array(head.utf8).chunked(into: 7) { result = try parser.append(piece) }
            XCTAssertEqual(result?.headers.count, 90)
        }
    }

    func testLastMarkerIsFoundAcrossWindows() throws {
        let path = Repository.temporaryPath("healthaudit-scan", extension: "html")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let marker = Array("</body>".utf8)
        for size in [7, 10, 63, 64, 65, 200] {
            for position in Set([0, size / 2, size - 7, max(0, size - 9)]) where position + 7 <= size {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: size)
                bytes.replaceSubrange(position..<(position + 7), with: marker)
                if position >= 8 { bytes.replaceSubrange(0..<7, with: marker) } // an earlier one, to be skipped
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                let file = try XCTUnwrap(OpenFile.open(path))
                for window in [1, 3, 8, 16, 64, 1024] {
                    XCTAssertEqual(file.lastOffset(of: marker, window: window), position, "size \(size), at \(position), window \(window)")
                }
            }
        }
        try Data("no marker here".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(OpenFile.open(path)?.lastOffset(of: marker, window: 4))
        XCTAssertNil(OpenFile.open(Repository.scratch), "a folder is not a regular file")
    }
}

private extension Array {
    func chunked(into size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
