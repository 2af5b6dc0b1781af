import Foundation
import SiteServer
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `serve` under hostile clients: idle connections past the limit, slowloris, oversized heads,
/// large files. Limits are set small here; the bounds on time are generous failure guards.
final class ServeAbuseTests: XCTestCase {
    static func limits() -> HTTPLimits {
        var limits = HTTPLimits()
        limits.maxConnections = 8
        limits.headTimeout = .seconds(1)
        return limits
    }

    /// Reads until the server closes (0) or the socket's receive timeout (-1); returns what came.
    static func drain(_ fd: Int32) -> (bytes: Data, closedByServer: Bool) {
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count == 0 { return (received, true) }
            if count < 0 { return (received, false) }
            received.append(contentsOf: chunk[0..<count])
        }
    }

    func testIdleConnectionsPastTheLimitNeverTakeTheServerDown() async throws {
        let fixture = try await ServerFixture.started(limits: Self.limits())
        defer { Task { await fixture.stop() } }
        let port = fixture.port
        // Three times the limit, sending nothing.
        let idle = try (0..<24).map { _ in try RawHTTP.connectSocket(port: port, timeout: 10) }
        defer { idle.forEach { close($0) } }
        // Each idle one is closed: at once with a 503 past the limit, after the head timeout otherwise.
        let outcomes = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: idle.map { Self.drain($0) }) }
        }
        XCTAssertTrue(outcomes.allSatisfy(\.closedByServer), "every idle connection was closed by the server")
        XCTAssertGreaterThanOrEqual(outcomes.filter { String(decoding: $0.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 503") }.count, 16)
        // And it still answers.
        let response = try await fixture.get("/")
        XCTAssertEqual(response.status, 200)
    }

    func testOversizedHeadsGet431And414() async throws {
        let fixture = try await ServerFixture.started(limits: Self.limits())
        defer { Task { await fixture.stop() } }
        let header = "X-Padding: " + String(repeating: "a", count: 40_000)
        let big = try await RawHTTP.send(port: fixture.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\(header)\r\n\(header)\r\n\r\n")
        XCTAssertEqual(big.status, 431)
        let long = try await RawHTTP.send(port: fixture.port, "GET /" + String(repeating: "a", count: 20_000) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        XCTAssertEqual(long.status, 414)
        let after = try await fixture.get("/")
        XCTAssertEqual(after.status, 200)
    }

    func testSlowlorisIsDroppedAfterTheHeadTimeout() async throws {
        let fixture = try await ServerFixture.started(limits: Self.limits())
        defer { Task { await fixture.stop() } }
        let fd = try RawHTTP.connectSocket(port: fixture.port, timeout: 15)
        defer { close(fd) }
        let started = ContinuousClock.now
        let closed = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                _ = "GET / HTTP/1.1\r\n".withCString { write(fd, $0, strlen($0)) }
                // One header byte every 300 ms: the whole head never arrives within the timeout.
                for _ in 0..<40 {
                    if write(fd, "X", 1) <= 0 { break }
                    var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    if pollOne(&poll, 300) > 0 { break }
                }
                continuation.resume(returning: Self.drain(fd).closedByServer)
            }
        }
        XCTAssertTrue(closed)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10), "dropped after about a second, not after the client gave up")
    }

    func testLargeFilesAreStreamedWhole() async throws {
        let fixture = try await ServerFixture.started(limits: Self.limits())
        defer { Task { await fixture.stop() } }
        let path = fixture.output + "/big.bin"
        let size = 50 * 1024 * 1024
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.seek(toOffset: UInt64(size - 4))
        handle.write(Data("tail".utf8))
        try handle.close()
        let response = try await fixture.get("/big.bin")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Length"), String(size))
        XCTAssertEqual(response.body.count, size)
        XCTAssertEqual(response.body.suffix(4), Data("tail".utf8))
        let head = try await RawHTTP.request(port: fixture.port, method: "HEAD", "/big.bin")
        XCTAssertEqual(head.header("Content-Length"), String(size))
        XCTAssertEqual(head.body.count, 0)
    }
}

#if canImport(Glibc)
private func pollOne(_ descriptor: inout pollfd, _ milliseconds: Int32) -> Int32 { Glibc.poll(&descriptor, 1, milliseconds) }
#else
private func pollOne(_ descriptor: inout pollfd, _ milliseconds: Int32) -> Int32 { Darwin.poll(&descriptor, 1, milliseconds) }
#endif
