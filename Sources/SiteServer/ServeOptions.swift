import Foundation
import SiteBuild

/// What `healthaudit serve` needs: the build it repeats, where to listen, how often to look.
public struct ServeOptions: Sendable {
    public var build: BuildOptions
    /// An IP address; loopback unless the user asks otherwise.
    public var host: String
    /// 0 picks a free port.
    public var port: UInt16
    public var pollInterval: Duration
    /// Connections, timeouts and sizes a client can make the server hold.
    public var limits: ServeLimits
    /// Where messages for the terminal go (failed builds' diagnostics, warnings), as lines: the
    /// default is `Console`, which keeps each one a line whatever a file name in it holds.
    public var report: @Sendable ([String]) -> Void

    public init(build: BuildOptions, host: String = "127.0.0.1", port: UInt16 = 8000,
                pollInterval: Duration = .milliseconds(300), limits: ServeLimits = ServeLimits(),
                report: @escaping @Sendable ([String]) -> Void = { Console.error($0) }) {
        self.build = build
        self.host = host
        self.port = port
        self.pollInterval = pollInterval
        self.limits = limits
        self.report = report
    }

    /// `localhost` means the IPv4 loopback address: the server binds one address, not a name.
    var address: String { host == "localhost" ? "127.0.0.1" : host }

    public var isLoopback: Bool {
        address.hasPrefix("127.") || address == "::1" || address == "0:0:0:0:0:0:0:1"
    }
}
