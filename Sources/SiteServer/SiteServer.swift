import Foundation
import SiteBuild

/// `healthaudit serve`: builds the site, serves the output folder over HTTP, rebuilds when an
/// input changes, and tells open pages (through the injected script) to reload.
public actor SiteServer {
    public let options: ServeOptions
    public let board = StatusBoard()
    private var listener: HTTPListener?
    private var watching: Task<Void, Never>?

    public init(options: ServeOptions) { self.options = options }

    public struct ServeError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Builds once (a failure still serves the previous site, with the error shown), starts
    /// listening and watching, and returns the URL, e.g. `http://127.0.0.1:8000/`.
    public func start() async throws -> String {
        if !options.isLoopback {
            options.report("warning: serving on \(options.host): anyone who can reach this address can read the reports (app names, file paths, source excerpts); the default is 127.0.0.1\n")
        }
        let watcher = ChangeWatcher(roots: [options.build.siteDirectory] + (options.build.templatesDirectory.map { [$0] } ?? []),
                                    output: options.build.outputDirectory, interval: options.pollInterval)
        let baseline = watcher.snapshot()
        let rebuilder = Rebuilder(options: options.build, board: board, report: options.report)
        await rebuilder.rebuild()

        let handler = SiteHandler(folder: OutputFolder(path: options.build.outputDirectory), board: board, loopbackOnly: options.isLoopback)
        let listener: HTTPListener
        do {
            listener = try HTTPListener(address: options.address, port: options.port, limits: options.limits) { handler.respond(to: $0) }
        } catch {
            throw ServeError(description: "\(error)")
        }
        self.listener = listener
        listener.start()
        watching = Task { await watcher.run(from: baseline) { await rebuilder.rebuild() } }
        let host = options.address.contains(":") ? "[\(options.address)]" : options.address
        return "http://\(host):\(listener.port)/"
    }

    /// Returns when the server stops (after `stop()`).
    public func wait() async throws {
        await listener?.waitUntilStopped()
    }

    public func stop() async {
        watching?.cancel()
        listener?.stop()
        await listener?.waitUntilStopped()
    }

    public var status: BuildStatus { board.current }

    /// Connections being served right now (for tests of the connection limit).
    public var activeConnections: Int { listener?.activeConnections ?? 0 }
}
