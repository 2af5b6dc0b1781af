import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP client socket for the hostile-client tests: idle connections, slow senders,
/// clients that vanish. Every call blocks, so tests run them through `offPool`, away from the
/// cooperative threads the server in this same process answers on.
final class ClientSocket: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        var exhausted = false
    }

    private(set) var fd: Int32

    /// An unconnected socket (so a test can hold it before the descriptor table fills up).
    init() throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else {
            let code = errno
            throw Failure(description: "socket() failed: errno \(code)", exhausted: code == EMFILE || code == ENFILE)
        }
        setTimeouts(seconds: 15)
    }

    /// A new socket, or nil when the descriptor table is full (EMFILE/ENFILE).
    static func unlessExhausted() throws -> ClientSocket? {
        do {
            return try ClientSocket()
        } catch let failure as Failure where failure.exhausted {
            return nil
        }
    }

    static func connected(port: UInt16) throws -> ClientSocket {
        let client = try ClientSocket()
        try client.connect(port: port)
        return client
    }

    deinit { close() }

    func setTimeouts(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // Also bounds connect() on Linux, should the backlog be full.
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func connect(port: UInt16) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard result == 0 else { throw Failure(description: "connect failed: errno \(errno)") }
    }

    /// Sends everything; false when the server closed the connection first.
    @discardableResult
    func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let sent = Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                #else
                let sent = Darwin.send(fd, buffer.baseAddress! + offset, buffer.count - offset, 0)
                #endif
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    /// Reads until the server closes; throws on timeout.
    func readToEnd() throws -> Data {
        var received = Data()
        try readToEnd { received.append(contentsOf: $0) }
        return received
    }

    /// Reads until the server closes, handing each piece over without keeping it.
    func readToEnd(_ consume: (UnsafeRawBufferPointer) -> Void) throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return }
            if count < 0 && errno == ECONNRESET { return }
            guard count > 0 else { throw Failure(description: "read failed or timed out: errno \(errno)") }
            chunk.withUnsafeBytes { consume(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// Whether the server closed (EOF or reset) within `seconds`, discarding anything it sent first.
    func closedByServer(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { return false }
            guard poller.revents != 0 else { continue }
            let count = read(fd, &chunk, chunk.count)
            if count == 0 || (count < 0 && errno == ECONNRESET) { return true }
        }
        return false
    }

    /// Closes with a reset instead of a FIN, like a client whose process died.
    func abort() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    func close() {
        guard fd >= 0 else { return }
        #if canImport(Glibc)
        Glibc.close(fd)
        #else
        Darwin.close(fd)
        #endif
        fd = -1
    }
}

/// Runs blocking work on a Dispatch thread.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

/// The process's descriptors and memory, as the kernel sees them.
enum ProcessProbe {
    static func openDescriptorCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    /// Resident set size in bytes (Linux).
    static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Runs `body` with the soft descriptor limit set to `soft`, then restores it.
    static func withDescriptorLimit<T>(_ soft: Int, _ body: () async throws -> T) async throws -> T {
        var original = rlimit()
        getrlimit(resourceLimit, &original)
        var lowered = original
        lowered.rlim_cur = rlim_t(min(soft, Int(original.rlim_max)))
        guard setrlimit(resourceLimit, &lowered) == 0 else { throw ClientSocket.Failure(description: "setrlimit failed") }
        defer { setrlimit(resourceLimit, &original) }
        return try await body()
    }

    #if canImport(Glibc)
    private static let resourceLimit = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resourceLimit = RLIMIT_NOFILE
    #endif

    /// The hard descriptor limit: the most a test may raise its soft limit to.
    static func hardDescriptorLimit() -> Int {
        var limit = rlimit()
        getrlimit(resourceLimit, &limit)
        return Int(clamping: min(limit.rlim_max, rlim_t(1 << 20)))
    }

    /// What the open descriptors are, counted by kind ("socket", "pipe", a file's folder), for
    /// failure messages: a test that runs out of descriptors says what held them.
    static func descriptorSummary() -> String {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var kinds: [String: Int] = [:]
        for entry in entries {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry)) ?? "?"
            let kind = target.hasPrefix("/") ? (target as NSString).deletingLastPathComponent : String(target.prefix { $0 != ":" })
            kinds[kind, default: 0] += 1
        }
        let counted = kinds.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(8).map { "\($0.value) \($0.key)" }
        return "\(entries.count) open (" + counted.joined(separator: ", ") + ")"
    }

    /// The highest descriptor in use: a limit below it would already be exceeded.
    static func highestDescriptor() -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap(Int.init).max() ?? 0
    }
}
