import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on one address: one child task per connection, at most
/// `maxConnections` of them, one request each. Nothing a client does ends the accept loop;
/// running out of descriptors pauses it (dropping idle connections to free some) instead.
final class HTTPListener: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32
    private let loop: ReadinessLoop
    private let limits: ServeLimits
    private let slots: ConnectionSlots
    private let report: @Sendable ([String]) -> Void

    /// Binds and listens at once, so a taken port is reported before anything else happens.
    init(address: String, port: UInt16, limits: ServeLimits, report: @escaping @Sendable ([String]) -> Void) throws {
        let loop = try ReadinessLoop()
        do {
            (fd, self.port) = try Posix.listen(address: address, port: port)
        } catch {
            loop.stop()
            throw error
        }
        self.loop = loop
        self.limits = limits
        self.slots = ConnectionSlots(capacity: limits.maxConnections)
        self.report = report
    }

    /// Connections being served now.
    var openConnections: Int { slots.count }

    /// Accepts and serves until the task is cancelled; returns once every connection is closed.
    func run(_ handler: some RequestHandler) async {
        if #available(macOS 14.0, *) {
            await withDiscardingTaskGroup { group in
                await acceptLoop(handler) { group.addTask(operation: $0) }
            }
        } else {
            // macOS 13 has no discarding group; the finished children's (empty) results are
            // kept until the server stops.
            await withTaskGroup(of: Void.self) { group in
                await acceptLoop(handler) { group.addTask(operation: $0) }
            }
        }
        Posix.close(fd)
        loop.stop()
    }

    private static let firstPause = Duration.milliseconds(50)

    private func acceptLoop(_ handler: some RequestHandler, start: (@escaping @Sendable () async -> Void) -> Void) async {
        var pause = Self.firstPause
        var struggling = false
        while !Task.isCancelled {
            switch Posix.accept(fd) {
            case .connection(let client):
                pause = Self.firstPause
                if struggling { report(["serve: accepting connections again"]) }
                struggling = false
                let socket = ConnectionSocket(fd: client, loop: loop)
                guard let slot = slots.admit(socket) else {
                    // Every slot is busy answering: closed at once, the client may retry.
                    socket.close()
                    continue
                }
                let exchange = HTTPExchange(socket: socket, slot: slot, slots: slots, limits: limits, handler: handler)
                start { await exchange.run() }
            case .none:
                // A long deadline: it only bounds how long a stop could go unnoticed.
                guard (try? await loop.wait(for: .readable, on: fd, until: .now + .seconds(60))) != nil else { return }
            case .retry:
                continue
            case .exhausted(let failure):
                if !struggling {
                    report(["serve: out of file descriptors or memory (\(failure)); dropping idle connections and retrying"])
                }
                struggling = true
                slots.dropOldestWaiting()
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(1))
            case .failed(let failure):
                if !struggling { report(["serve: accept failed (\(failure)); retrying"]) }
                struggling = true
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(1))
            }
        }
    }
}

extension Posix {
    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }
}
