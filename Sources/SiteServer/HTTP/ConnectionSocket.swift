import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An accepted, non-blocking client socket. Reads and writes try at once and wait on the
/// readiness loop only when the kernel says "would block", always with a deadline.
final class ConnectionSocket: @unchecked Sendable {
    /// The client took longer than the deadline allowed.
    struct TimedOut: Error {}
    /// The connection failed (reset, or dropped to make room) while sending.
    struct Broken: Error {}

    private let fd: Int32
    private let loop: ReadinessLoop
    private let lock = NSLock()
    private var closed = false

    init(fd: Int32, loop: ReadinessLoop) {
        self.fd = fd
        self.loop = loop
    }

    deinit { close() }

    /// Up to `limit` bytes as soon as any arrive; empty at the end of the stream (or on a reset).
    func receive(upTo limit: Int, until deadline: ContinuousClock.Instant) async throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let count = buffer.withUnsafeMutableBytes { Posix.receive(fd, $0) }
            if count >= 0 { return Array(buffer[0..<count]) }
            guard Posix.wouldBlock else { return [] }
            if try await loop.wait(for: .readable, on: fd, until: deadline) == .timedOut { throw TimedOut() }
        }
    }

    /// Sends `bytes[0..<count]` whole; each wait for the client to read may last `idleTimeout`.
    func send(_ bytes: [UInt8], count: Int? = nil, idleTimeout: Duration) async throws {
        let total = count ?? bytes.count
        var offset = 0
        while offset < total {
            let sent = bytes.withUnsafeBytes { Posix.send(fd, UnsafeRawBufferPointer(rebasing: $0[offset..<total])) }
            if sent > 0 {
                offset += sent
                continue
            }
            guard sent < 0, Posix.wouldBlock else { throw Broken() }
            try Task.checkCancellation()
            if try await loop.wait(for: .writable, on: fd, until: .now + idleTimeout) == .timedOut { throw TimedOut() }
        }
    }

    /// No more sending; the client sees the end of the response.
    func finishSending() {
        lock.withLock { if !closed { _ = shutdown(fd, Int32(SHUT_WR)) } }
    }

    /// Ends the connection from another task (to make room for a newer one): the owner's next
    /// read sees the end of the stream, and it closes the descriptor itself.
    func interrupt() {
        lock.withLock { if !closed { _ = shutdown(fd, Int32(SHUT_RDWR)) } }
    }

    func close() {
        lock.withLock {
            guard !closed else { return }
            closed = true
            #if canImport(Glibc)
            _ = Glibc.close(fd)
            #else
            _ = Darwin.close(fd)
            #endif
        }
    }
}
