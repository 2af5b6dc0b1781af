import Foundation
import SiteServer
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Clients that try to exhaust the server (issue 21): idle connections by the thousand, running
/// out of descriptors, huge heads, slowloris, clients that vanish. One server with small limits,
/// so the tests are quick; time bounds are only failure guards, and generous.
final class HostileClientTests: XCTestCase {
    static let limits = ServeLimits(maxConnections: 32, headTimeout: .seconds(2), sendTimeout: .seconds(3),
                                    lingerTimeout: .seconds(1))
    // No rebuilds: a test that exhausts descriptors would make the watcher see files vanish.
    private static let shared = Task { try await ServerFixture.started(limits: limits, pollInterval: .seconds(3600)) }

    private func fixture() async throws -> ServerFixture { try await Self.shared.value }

    override class func tearDown() {
        ServerFixture.stopShared(shared)
        super.tearDown()
    }

    static let statusRequest = "GET \(LiveReload.statusPath) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

    /// The reported failure: ~1,100 idle connections took every descriptor and accept's EMFILE
    /// ended `serve`. The limit leaves room for our idle sockets and the server's capped share,
    /// not for one server descriptor per idle client. The crowd is sized from the hard descriptor
    /// limit (1,024 on CI machines) so that an uncapped server would run out either way.
    func testThousandsOfIdleConnectionsDoNotStopTheServer() async throws {
        let fixture = try await fixture()
        let port = fixture.port
        let headroom = 200
        let inUse = ProcessProbe.highestDescriptor()
        let idleCount = min(1_200, ProcessProbe.hardDescriptorLimit() - inUse - headroom)
        // An uncapped server needs one descriptor per idle client: more than the limit allows.
        XCTAssertGreaterThan(2 * idleCount, idleCount + headroom + Self.limits.maxConnections,
                             "the hard descriptor limit leaves too little room to prove the cap")
        try await ProcessProbe.withDescriptorLimit(inUse + idleCount + headroom) {
            let before = ProcessProbe.openDescriptorCount()
            // Stops at EMFILE instead of failing: whatever else this process holds (seen on CI:
            // descriptors the snapshot above did not count) only makes the crowd smaller.
            let idle = try await offPool { () -> [ClientSocket] in
                var sockets: [ClientSocket] = []
                while sockets.count < idleCount, let socket = try ClientSocket.unlessExhausted() {
                    socket.setTimeouts(seconds: 5)
                    try? socket.connect(port: port)
                    sockets.append(socket)
                }
                // Room for the request below and the server's capped share, should the table be full.
                if sockets.count < idleCount { sockets.suffix(Self.limits.maxConnections + 8).forEach { $0.close() } }
                return sockets.filter { $0.fd >= 0 }
            }
            defer { idle.forEach { $0.close() } }
            // Still more idle clients than an uncapped server could hold a descriptor for.
            XCTAssertGreaterThan(idle.count, headroom + Self.limits.maxConnections,
                                 "too few idle clients to prove the cap; descriptors: \(ProcessProbe.descriptorSummary())")

            let response = try await fixture.get("/")
            XCTAssertEqual(response.status, 200, "a normal request is still answered")
            XCTAssertTrue(response.text.contains(LiveReload.marker))
            let serverHeld = ProcessProbe.openDescriptorCount() - before - idle.count
            XCTAssertLessThan(serverHeld, Self.limits.maxConnections + 40,
                              "the server holds at most its cap, not one descriptor per idle client; descriptors: \(ProcessProbe.descriptorSummary())")
        }
        let after = try await fixture.get("/__healthaudit/status")
        XCTAssertEqual(after.status, 200)
    }

    /// With every descriptor taken, accept fails (EMFILE); the server must back off and carry on.
    func testAcceptSurvivesRunningOutOfDescriptors() async throws {
        let fixture = try await fixture()
        let clients = try (0..<3).map { _ in try ClientSocket() }
        try await ProcessProbe.withDescriptorLimit(ProcessProbe.highestDescriptor() + 30) {
            var fillers: [Int32] = []
            while true {
                let filler = open("/dev/null", O_RDONLY)
                if filler < 0 { break }
                fillers.append(filler)
            }
            defer { fillers.forEach { close($0) } }
            for client in clients {
                try client.connect(port: fixture.port)
                client.send(Self.statusRequest)
            }
            // Not a timing assertion: time for the server to hit EMFILE a few times.
            try await Task.sleep(for: .milliseconds(500))
        }
        for client in clients {
            let response = try RawHTTP.parse(try await offPool { try client.readToEnd() })
            XCTAssertEqual(response.status, 200)
        }
        XCTAssertTrue(fixture.reports.all.contains { $0.contains("descriptors") }, "the server said why it paused: \(fixture.reports.all)")
        let after = try await fixture.get("/")
        XCTAssertEqual(after.status, 200)
    }

    /// Two 40 KB headers froze the old parser for a minute.
    func testOversizedHeadsAreRefused() async throws {
        let port = try await fixture().port
        let big = String(repeating: "a", count: 40_000)
        let headers = try await RawHTTP.send(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-One: \(big)\r\nX-Two: \(big)\r\n\r\n")
        XCTAssertEqual(headers.status, 431)
        XCTAssertEqual(headers.header("Connection"), "close")

        let line = try await RawHTTP.send(port: port, "GET /\(String(repeating: "a", count: 9_000)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        XCTAssertEqual(line.status, 414)

        let many = (0..<150).map { "X-H\($0): 1\r\n" }.joined()
        let count = try await RawHTTP.send(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\(many)\r\n")
        XCTAssertEqual(count.status, 431)

        let garbage = try await RawHTTP.send(port: port, "NONSENSE\r\n\r\n")
        XCTAssertEqual(garbage.status, 400)

        let normal = try await RawHTTP.get(port: port, "/style.css")
        XCTAssertEqual(normal.status, 200)
    }

    /// A request with a body the server never reads still gets its answer, not a reset.
    func testRefusedMethodWithABodyStillGetsItsAnswer() async throws {
        let port = try await fixture().port
        let body = String(repeating: "b", count: 100_000)
        let response = try await RawHTTP.send(port: port, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        XCTAssertEqual(response.status, 405)
        XCTAssertEqual(response.header("Allow"), "GET, HEAD")
    }

    /// One byte every half second: dropped once the head timeout (2 s here) passes, while
    /// other clients are served meanwhile.
    func testSlowlorisIsDroppedByTheHeadTimeout() async throws {
        let fixture = try await fixture()
        let slow = try ClientSocket.connected(port: fixture.port)
        slow.send("GET / HTTP/1.1\r\n")
        let trickle = Task {
            try await offPool { () -> (closed: Bool, sent: Int) in
                let bytes = Array("Host: 127.0.0.1\r\nX-Slow: \(String(repeating: "s", count: 100))".utf8)
                for (sent, byte) in bytes.prefix(60).enumerated() {
                    if !slow.send(Data([byte])) || slow.closedByServer(within: 0.5) { return (true, sent) }
                }
                return (false, 60)
            }
        }
        let normal = try await fixture.get("/")
        XCTAssertEqual(normal.status, 200, "served while the slow client trickles")
        let outcome = try await trickle.value
        XCTAssertTrue(outcome.closed, "the slow client was never dropped")
        XCTAssertLessThan(outcome.sent, 40, "failure guard: dropped after about 2 s, i.e. some 4 bytes")
    }

    /// Live reload polls the status endpoint; clients that vanish mid-request, or connect and
    /// never ask, must not leave descriptors behind.
    func testVanishingAndSilentClientsLeaveNoDescriptorsBehind() async throws {
        let fixture = try await fixture()
        let port = fixture.port
        _ = try await fixture.get(LiveReload.statusPath)
        let baseline = ProcessProbe.openDescriptorCount()
        try await offPool {
            for index in 0..<60 {
                let client = try ClientSocket.connected(port: port)
                switch index % 3 {
                case 0: client.send(Self.statusRequest); client.abort()
                case 1: client.send("GET \(LiveReload.statusPath) HT"); client.abort()
                default: client.close()
                }
            }
        }
        let silent = try await offPool { try (0..<10).map { _ in try ClientSocket.connected(port: port) } }
        let dropped = try await offPool { silent.map { $0.closedByServer(within: 15) } }
        XCTAssertEqual(dropped, Array(repeating: true, count: 10), "silent clients are dropped by the head timeout")
        silent.forEach { $0.close() }
        try await fixture.waitFor("the server to close every connection") { ProcessProbe.openDescriptorCount() <= baseline }
        let after = try await fixture.get(LiveReload.statusPath)
        XCTAssertEqual(after.status, 200)
    }
}
