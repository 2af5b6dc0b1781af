import ArgumentParser
import Foundation
import SiteBuild
import SiteServer

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site, serve it on loopback, and rebuild and reload open pages on every change."
    )

    @OptionGroup var siteOptions: SiteOptions

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port: UInt16 = 8000

    @Option(help: "Address to bind. Anything but loopback exposes the reports to the network (a warning is printed).")
    var host: String = "127.0.0.1"

    func run() throws {
        let build = BuildOptions(siteDirectory: siteOptions.siteDirectory, templatesDirectory: siteOptions.templatesDirectory())
        let server = SiteServer(options: ServeOptions(build: build, host: host, port: port))
        // The root command is synchronous, so the server runs in a task and this thread waits.
        let outcome = Outcome()
        Task {
            do {
                let url = try await server.start()
                // Unbuffered, so a script reading our stdout sees the line at once.
                FileHandle.standardOutput.write(Data("Serving \(url)\n".utf8))
                try await server.wait()
            } catch {
                outcome.fail(error)
            }
            outcome.finish()
        }
        if let error = outcome.wait() {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(ExitStatus.inputError)
        }
    }
}

/// The server task's result, handed to the waiting main thread.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var error: (any Error)?

    func fail(_ error: any Error) { lock.withLock { self.error = error } }
    func finish() { done.signal() }
    func wait() -> (any Error)? {
        done.wait()
        return lock.withLock { error }
    }
}
