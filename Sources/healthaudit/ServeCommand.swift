import ArgumentParser
import Foundation
import SiteBuild
import SiteServer

/// Async all the way down: the server runs on this command's task, and nothing blocks a thread
/// of the cooperative pool waiting for it.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site, serve it on loopback, and rebuild and reload open pages on every change."
    )

    @OptionGroup var siteOptions: SiteOptions

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port: UInt16 = 8000

    @Option(help: "Address to bind. Anything but loopback exposes the reports to the network (a warning is printed).")
    var host: String = "127.0.0.1"

    func run() async throws {
        let build = try siteOptions.reading(siteOptions.withTemplates(BuildOptions(siteDirectory: siteOptions.siteDirectory)))
        let server = SiteServer(options: ServeOptions(build: build, host: host, port: port))
        do {
            let url = try await server.start()
            // Unbuffered, so a script reading our stdout sees the line at once.
            Console.output("Serving \(url)")
            try await server.wait()
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(ExitStatus.inputError)
        }
    }
}
