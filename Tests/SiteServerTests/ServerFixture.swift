import Foundation
import Manifest
import SiteBuild
import SiteServer
import TestSupport

/// Messages a server reported, collected from whichever thread reports them.
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func append(_ message: String) { lock.withLock { messages.append(message) } }
    var all: [String] { lock.withLock { messages } }
}

/// Copies of the repository's Site/ and Templates/ in a temporary folder (so tests may edit
/// them), served by a real `SiteServer` on a free loopback port.
final class ServerFixture: @unchecked Sendable {
    static let repository = Repository.root

    let root: String
    let server: SiteServer
    /// What the server printed for the terminal (warnings, failed builds).
    let reports: Reports
    private(set) var port: UInt16 = 0
    var site: String { root + "/Site" }
    var templates: String { root + "/Templates" }
    var output: String { site + "/public" }

    init(limits: ServeLimits = ServeLimits(), pollInterval: Duration = .milliseconds(100)) throws {
        // A clean copy of Site/ (no built site), beside a copy of the templates the tests may edit.
        root = try TestSite(prefix: "healthaudit-serve").root
        try FileManager.default.copyItem(atPath: Self.repository + "/Templates", toPath: root + "/Templates")
        let reports = Reports()
        self.reports = reports
        let build = BuildOptions(siteDirectory: root + "/Site", templatesDirectory: root + "/Templates",
                                 clock: FixedClock(DayDate(year: 2026, month: 4, day: 1)), log: SilentLog())
        server = SiteServer(options: ServeOptions(build: build, port: 0, pollInterval: pollInterval, limits: limits, report: { [reports] in reports.append($0.joined(separator: "\n")) }))
    }

    static func started(limits: ServeLimits = ServeLimits(), pollInterval: Duration = .milliseconds(100)) async throws -> ServerFixture {
        let fixture = try ServerFixture(limits: limits, pollInterval: pollInterval)
        let url = try await fixture.server.start()
        guard let port = URL(string: url)?.port.flatMap(UInt16.init) else { throw RawHTTP.Failure(description: "no port in \(url)") }
        fixture.port = port
        return fixture
    }

    /// Stops a fixture shared by a test class, from its synchronous `class func tearDown()`.
    static func stopShared(_ shared: Task<ServerFixture, Error>) {
        let done = DispatchSemaphore(value: 0)
        Task { await (try? await shared.value)?.stop(); done.signal() }
        done.wait()
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    func get(_ target: String) async throws -> RawResponse { try await RawHTTP.get(port: port, target) }

    func status() async throws -> (generation: Int, error: String?) {
        let response = try await get("/__healthaudit/status")
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
        return (object["generation"] as? Int ?? -1, object["error"] as? String)
    }

    /// Polls until `condition` holds; the deadline is generous because CI shares two cores.
    func waitFor(_ what: String, timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw RawHTTP.Failure(description: "timed out waiting for \(what)")
    }

    func edit(_ path: String, _ transform: (String) -> String) throws {
        let full = root + "/" + path
        try transform(try String(contentsOfFile: full, encoding: .utf8)).write(toFile: full, atomically: true, encoding: .utf8)
    }
}
