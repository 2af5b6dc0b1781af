import FlyingFox
import FlyingSocks
import Foundation
import SiteBuild

/// `healthaudit serve`: builds the site, serves the output folder over HTTP, rebuilds when an
/// input changes, and tells open pages (through the injected script) to reload.
public actor SiteServer {
    public let options: ServeOptions
    public let board = StatusBoard()
    private var http: HTTPServer?
    private var watching: Task<Void, Never>?
    private var serving: Task<Void, Never>?
    private var failure: (any Error)?

    public init(options: ServeOptions) { self.options = options }

    public struct ServeError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Builds once (a failure still serves the previous site, with the error shown), starts
    /// listening and watching, and returns the URL, e.g. `http://127.0.0.1:8000/`.
    public func start() async throws -> String {
        let configuration = try configuration()
        if !options.isLoopback {
            options.report("warning: serving on \(options.host): anyone who can reach this address can read the reports (app names, file paths, source excerpts); the default is 127.0.0.1\n")
        }
        let watcher = ChangeWatcher(roots: [options.build.siteDirectory] + (options.build.templatesDirectory.map { [$0] } ?? []),
                                    output: options.build.outputDirectory, interval: options.pollInterval)
        let baseline = watcher.snapshot()
        let rebuilder = Rebuilder(options: options.build, board: board, report: options.report)
        await rebuilder.rebuild()

        let server = HTTPServer(config: configuration, handler: SiteHandler(folder: OutputFolder(path: options.build.outputDirectory), board: board, loopbackOnly: options.isLoopback))
        http = server
        serving = Task { [weak self] in
            do { try await server.run() } catch { await self?.record(error) }
        }
        let url = try await waitForAddress(of: server)

        watching = Task { await watcher.run(from: baseline) { await rebuilder.rebuild() } }
        return url
    }

    /// Returns when the server stops: after `stop()`, or when listening fails.
    public func wait() async throws {
        await serving?.value
        if let failure { throw failure }
    }

    public func stop() async {
        watching?.cancel()
        await http?.stop(timeout: 1)
        await serving?.value
    }

    public var status: BuildStatus { get async { await board.current } }

    private func record(_ error: any Error) { failure = error }

    /// A server on one address: `localhost` binds 127.0.0.1, not every address the name has.
    private func configuration() throws -> HTTPServer.Configuration {
        let address = options.address
        if address.contains(":") {
            return HTTPServer.Configuration(address: try sockaddr_in6.inet6(ip6: address, port: options.port), logger: .disabled)
        }
        guard address.split(separator: ".").count == 4 else {
            throw ServeError(description: "--host takes an IP address (e.g. 127.0.0.1 or ::1), not '\(options.host)'")
        }
        return HTTPServer.Configuration(address: try sockaddr_in.inet(ip4: address, port: options.port), logger: .disabled)
    }

    /// `run()` does not return while it listens, and `waitUntilListening` would not notice a
    /// failed bind, so poll for either.
    private func waitForAddress(of server: HTTPServer) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let failure { throw ServeError(description: "cannot listen on \(options.host):\(options.port): \(failure)") }
            if await server.isListening, let address = await server.listeningAddress {
                switch address {
                case .ip4(let host, let port): return "http://\(host):\(port)/"
                case .ip6(let host, let port): return "http://[\(host)]:\(port)/"
                case .unix(let path): return "unix:\(path)"
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ServeError(description: "the server did not start listening on \(options.host):\(options.port)")
    }
}
