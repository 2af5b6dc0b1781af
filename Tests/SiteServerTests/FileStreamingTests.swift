import Foundation
import SiteServer
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files are sent from an open descriptor in bounded pieces (issue 21: 200 concurrent GETs of a
/// 30 MB page took 3.3 GB), with the right length, and only regular files inside the folder.
final class FileStreamingTests: XCTestCase {
    private static let shared = Task { try await ServerFixture.started(pollInterval: .seconds(3600)) }
    private static let bigSize = 50 * 1024 * 1024

    private func fixture() async throws -> ServerFixture {
        let fixture = try await Self.shared.value
        let big = fixture.output + "/big.bin"
        if !FileManager.default.fileExists(atPath: big) {
            // Every MiB starts with its own number, so a misplaced piece shows.
            var data = Data(count: Self.bigSize)
            data.withUnsafeMutableBytes { bytes in
                for index in 0..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index % 251) }
                for mebibyte in 0..<(bytes.count >> 20) { bytes[mebibyte << 20] = UInt8(mebibyte) }
            }
            try data.write(to: URL(fileURLWithPath: big))
        }
        return fixture
    }

    override class func tearDown() {
        ServerFixture.stopShared(shared)
        super.tearDown()
    }

    func testLargeFileArrivesWholeWithItsLength() async throws {
        let fixture = try await fixture()
        let response = try await fixture.get("/big.bin")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Length"), String(Self.bigSize))
        XCTAssertEqual(response.header("Content-Type"), "application/octet-stream")
        XCTAssertEqual(response.body.count, Self.bigSize)
        XCTAssertTrue(response.body == (try Data(contentsOf: URL(fileURLWithPath: fixture.output + "/big.bin"))), "the bytes differ")

        let head = try await RawHTTP.request(port: fixture.port, method: "HEAD", "/big.bin")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), String(Self.bigSize))
        XCTAssertTrue(head.body.isEmpty)
    }

    /// Eight clients fetch 50 MB each at once; reading whole files would need 400 MB.
    func testConcurrentLargeDownloadsKeepMemoryBounded() async throws {
        let fixture = try await fixture()
        let port = fixture.port
        let sampler = PeakSampler()
        let baseline = ProcessProbe.residentBytes()
        sampler.start()
        let received = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await offPool {
                        let client = try ClientSocket.connected(port: port)
                        client.send("GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                        var count = 0
                        try client.readToEnd { count += $0.count }
                        return count
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let peak = sampler.stop()
        for count in received { XCTAssertGreaterThan(count, Self.bigSize, "head and whole body") }
        XCTAssertLessThan(peak - baseline, 64 * 1024 * 1024, "resident memory grew by \((peak - baseline) >> 20) MiB")
    }

    /// The reload script goes before the last `</body>` even when that is far past the first
    /// pieces, and Content-Length counts it.
    func testLargeHTMLGetsTheScriptWithTheRightLength() async throws {
        let fixture = try await fixture()
        let filler = String(repeating: "<p>filler</p>\n", count: 200_000)
        let page = "<html><body>\(filler)</body><!-- \(filler) --></body>\n\(String(repeating: "x", count: 70_000))</html>\n"
        try page.write(toFile: fixture.output + "/big.html", atomically: true, encoding: .utf8)
        let status = try await fixture.status()
        let expected = LiveReload.inject(into: Data(page.utf8), status: BuildStatus(generation: status.generation, error: status.error))

        let response = try await fixture.get("/big.html")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Length"), String(expected.count))
        XCTAssertTrue(response.body == expected, "script misplaced or bytes lost")

        let head = try await RawHTTP.request(port: fixture.port, method: "HEAD", "/big.html")
        XCTAssertEqual(head.header("Content-Length"), String(expected.count))
        XCTAssertTrue(head.body.isEmpty)
    }

    /// Only regular files inside the folder: not a FIFO (which would block a reader), not a
    /// device behind a symlink.
    func testOnlyRegularFilesInsideTheFolderAreServed() async throws {
        let fixture = try await fixture()
        let fifo = fixture.output + "/pipe.html"
        if !FileManager.default.fileExists(atPath: fifo) {
            XCTAssertEqual(mkfifo(fifo, 0o600), 0)
            try FileManager.default.createSymbolicLink(atPath: fixture.output + "/zero.bin", withDestinationPath: "/dev/zero")
            try FileManager.default.createSymbolicLink(atPath: fixture.output + "/up", withDestinationPath: "..")
        }
        let pipe = try await fixture.get("/pipe.html")
        XCTAssertEqual(pipe.status, 404)
        let zero = try await fixture.get("/zero.bin")
        XCTAssertEqual(zero.status, 403)
        let up = try await fixture.get("/up/healthaudit.yml")
        XCTAssertEqual(up.status, 403, "the site config, beside the output folder")
        let backIn = try await fixture.get("/up/public/style.css")
        XCTAssertEqual(backIn.status, 200, "a link that leads back inside is fine")
        let dots = try await fixture.get("/apps/../../public/index.html")
        XCTAssertTrue([400, 403, 404].contains(dots.status))
    }
}

/// The highest resident set size seen while it runs, sampled every 10 ms on its own thread.
final class PeakSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    private var running = true

    func start() {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let now = ProcessProbe.residentBytes()
                lock.withLock { peak = max(peak, now) }
                usleep(10_000)
            }
        }
    }

    func stop() -> Int {
        lock.withLock {
            running = false
            return max(peak, ProcessProbe.residentBytes())
        }
    }
}
