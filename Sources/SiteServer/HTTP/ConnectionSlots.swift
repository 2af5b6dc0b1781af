import Foundation

/// The connections being served, at most `capacity`. A connection is "waiting" until its
/// request head is complete (and again while its close lingers); those are the ones dropped,
/// oldest first, to make room: idle clients cannot lock out one that is asking for a page.
final class ConnectionSlots: @unchecked Sendable {
    private struct Entry {
        var socket: ConnectionSocket
        var waiting: Bool
    }

    let capacity: Int
    private let lock = NSLock()
    /// By admission number, so the oldest is the smallest key.
    private var entries: [UInt64: Entry] = [:]
    private var admitted: UInt64 = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { lock.withLock { entries.count } }

    /// A slot for a new connection, dropping the oldest waiting one when full; nil when every
    /// slot is busy answering (the caller closes the newcomer).
    func admit(_ socket: ConnectionSocket) -> UInt64? {
        let (id, dropped): (UInt64?, ConnectionSocket?) = lock.withLock {
            var dropped: ConnectionSocket?
            if entries.count >= capacity {
                guard let oldest = oldestWaiting() else { return (nil, nil) }
                dropped = entries.removeValue(forKey: oldest)?.socket
            }
            admitted += 1
            entries[admitted] = Entry(socket: socket, waiting: true)
            return (admitted, dropped)
        }
        dropped?.interrupt()
        return id
    }

    /// Drops the oldest waiting connection, if any, to free its descriptor.
    @discardableResult
    func dropOldestWaiting() -> Bool {
        let dropped: ConnectionSocket? = lock.withLock {
            oldestWaiting().flatMap { entries.removeValue(forKey: $0)?.socket }
        }
        dropped?.interrupt()
        return dropped != nil
    }

    /// Marks a connection busy (false) or waiting (true). False when it was already dropped:
    /// the connection then stops.
    func setWaiting(_ id: UInt64, _ waiting: Bool) -> Bool {
        lock.withLock {
            guard entries[id] != nil else { return false }
            entries[id]?.waiting = waiting
            return true
        }
    }

    func release(_ id: UInt64) {
        _ = lock.withLock { entries.removeValue(forKey: id) }
    }

    private func oldestWaiting() -> UInt64? {
        entries.lazy.filter { $0.value.waiting }.map(\.key).min()
    }
}
