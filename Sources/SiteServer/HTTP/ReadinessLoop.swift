import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread blocked in poll(2) on behalf of every socket the server waits for. Tasks await
/// readiness here, so a slow or idle client never holds one of the cooperative pool's threads
/// (two, on the machines `serve` runs on), and every wait has a deadline.
final class ReadinessLoop: @unchecked Sendable {
    enum Interest { case readable, writable }
    enum Outcome { case ready, timedOut }

    private struct Waiter {
        var fd: Int32
        var events: Int16
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Outcome, any Error>
    }

    /// A wait is allocated before it registers, so cancellation can arrive on either side.
    private enum Slot {
        case allocated
        case cancelled
        case waiting(Waiter)
    }

    private let lock = NSLock()
    private var slots: [UInt64: Slot] = [:]
    private var nextID: UInt64 = 0
    private var running = true
    private var pipeOpen = true
    /// Registering writes a byte here so poll(2) returns and picks up the new descriptor.
    private let wakeReader: Int32
    private let wakeWriter: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SocketFailure(call: "pipe", code: errno) }
        for end in ends { Posix.configure(end) }
        wakeReader = ends[0]
        wakeWriter = ends[1]
        let thread = Thread { [self] in run() }
        thread.name = "healthaudit-serve-poll"
        thread.start()
    }

    /// Waits until `fd` is ready for `interest` (or reports an error or hang-up, which the next
    /// read or write will show), or until `deadline`. Throws `CancellationError` when the task
    /// is cancelled or the loop stopped.
    func wait(for interest: Interest, on fd: Int32, until deadline: ContinuousClock.Instant) async throws -> Outcome {
        let id: UInt64 = lock.withLock {
            nextID += 1
            slots[nextID] = .allocated
            return nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let events = Int16(interest == .readable ? POLLIN : POLLOUT)
                let registered: Bool = lock.withLock {
                    guard running, case .allocated? = slots[id] else {
                        slots[id] = nil
                        return false
                    }
                    slots[id] = .waiting(Waiter(fd: fd, events: events, deadline: deadline, continuation: continuation))
                    return true
                }
                if registered { wake() } else { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let waiter: Waiter? = lock.withLock {
                switch slots[id] {
                case .allocated?: slots[id] = .cancelled; return nil
                case .waiting(let waiter)?: slots[id] = nil; return waiter
                case .cancelled?, nil: return nil
                }
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Ends the thread; pending and later waits throw `CancellationError`.
    func stop() {
        lock.withLock { running = false }
        wake()
    }

    private func wake() {
        // The thread closes the pipe under the lock, so this never writes to a reused number.
        lock.withLock {
            guard pipeOpen else { return }
            var byte: UInt8 = 1
            _ = write(wakeWriter, &byte, 1)
        }
    }

    private func run() {
        var polled: [pollfd] = []
        var ids: [UInt64] = []
        while true {
            var timeout: Int32 = 1_000
            let stopped: Bool = lock.withLock {
                guard running else { return true }
                polled = [pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)]
                ids = [0]
                let now = ContinuousClock.now
                for (id, slot) in slots {
                    guard case .waiting(let waiter) = slot else { continue }
                    polled.append(pollfd(fd: waiter.fd, events: waiter.events, revents: 0))
                    ids.append(id)
                    timeout = min(timeout, Self.milliseconds(from: now, to: waiter.deadline))
                }
                return false
            }
            if stopped { break }
            _ = poll(&polled, nfds_t(polled.count), timeout)
            if polled[0].revents != 0 { drainWakePipe() }
            let now = ContinuousClock.now
            var finished: [(CheckedContinuation<Outcome, any Error>, Outcome)] = []
            lock.withLock {
                for index in 1..<ids.count {
                    guard case .waiting(let waiter)? = slots[ids[index]] else { continue }
                    if polled[index].revents != 0 {
                        finished.append((waiter.continuation, .ready))
                    } else if waiter.deadline <= now {
                        finished.append((waiter.continuation, .timedOut))
                    } else {
                        continue
                    }
                    slots[ids[index]] = nil
                }
            }
            for (continuation, outcome) in finished { continuation.resume(returning: outcome) }
        }
        let abandoned: [Waiter] = lock.withLock {
            let waiters = slots.values.compactMap { slot -> Waiter? in
                if case .waiting(let waiter) = slot { return waiter } else { return nil }
            }
            slots = [:]
            pipeOpen = false
            close(wakeReader)
            close(wakeWriter)
            return waiters
        }
        for waiter in abandoned { waiter.continuation.resume(throwing: CancellationError()) }
    }

    private func drainWakePipe() {
        var sink = [UInt8](repeating: 0, count: 256)
        while read(wakeReader, &sink, sink.count) > 0 {}
    }

    /// Rounded up, so a wait never wakes just before its deadline and spins.
    private static func milliseconds(from now: ContinuousClock.Instant, to deadline: ContinuousClock.Instant) -> Int32 {
        guard deadline > now else { return 0 }
        let (seconds, attoseconds) = (deadline - now).components
        let total = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: min(total, 1_000))
    }
}
