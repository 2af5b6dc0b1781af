import Foundation
import SiteBuild
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `healthaudit serve`: builds the site, serves the output folder over HTTP, rebuilds when an
/// input changes, and tells open pages (through the injected script) to reload.
public actor SiteServer {
    public let options: ServeOptions
    public let board = StatusBoard()
    private var listener: HTTPListener?
    private var watching: Task<Void, Never>?
    private var serving: Task<Void, Never>?

    public init(options: ServeOptions) { self.options = options }

    public struct ServeError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Listens (so a taken port fails at once), builds once (a failure still serves the
    /// previous site, with the error shown), starts serving and watching, and returns the URL,
    /// e.g. `http://127.0.0.1:8000/`.
    public func start() async throws -> String {
        let address = try checkedAddress()
        if !options.isLoopback {
            options.report(["warning: serving on \(options.host): anyone who can reach this address can read the reports (app names, file paths, source excerpts); the default is 127.0.0.1"])
        }
        let listener: HTTPListener
        do {
            listener = try HTTPListener(address: address, port: options.port, limits: options.limits, report: options.report)
        } catch {
            throw ServeError(description: "cannot listen on \(options.host):\(options.port): \(error)")
        }
        self.listener = listener

        let watcher = ChangeWatcher(roots: [options.build.siteDirectory] + (options.build.templatesDirectory.map { [$0] } ?? []),
                                    output: options.build.outputDirectory, interval: options.pollInterval)
        let baseline = await watcher.snapshotOffPool()
        let rebuilder = Rebuilder(options: options.build, board: board, report: options.report)
        await rebuilder.rebuild()

        let handler = SiteHandler(folder: OutputFolder(path: options.build.outputDirectory), board: board,
                                  loopbackOnly: options.isLoopback, window: options.limits.chunkSize)
        serving = Task { await listener.run(handler) }
        watching = Task { await watcher.run(from: baseline) { await rebuilder.rebuild() } }
        return address.contains(":") ? "http://[\(address)]:\(listener.port)/" : "http://\(address):\(listener.port)/"
    }

    /// Returns when the server stops (after `stop()`).
    public func wait() async throws {
        await serving?.value
    }

    /// Stops watching and accepting, drops open connections and waits until they are closed.
    public func stop() async {
        watching?.cancel()
        serving?.cancel()
        await serving?.value
    }

    public var status: BuildStatus { get async { board.current } }

    /// Connections being served at this moment.
    public var openConnections: Int { listener?.openConnections ?? 0 }

    /// The server binds one address, not a name: `localhost` is 127.0.0.1.
    private func checkedAddress() throws -> String {
        let address = options.address
        let valid = address.contains(":") ? Self.parses(address, family: AF_INET6) : address.split(separator: ".").count == 4 && Self.parses(address, family: AF_INET)
        guard valid else {
            throw ServeError(description: "--host takes an IP address (e.g. 127.0.0.1 or ::1), not '\(options.host)'")
        }
        return address
    }

    private static func parses(_ address: String, family: Int32) -> Bool {
        var storage = in6_addr()
        return inet_pton(family, address, &storage) == 1
    }
}
