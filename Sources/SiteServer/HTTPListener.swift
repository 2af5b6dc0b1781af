import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Limits that keep `serve` up under abuse: 1,100 idle connections, 40 KB headers and 200
/// concurrent downloads of a 30 MB page each took the old server down or froze it.
public struct HTTPLimits: Sendable {
    /// Connections served at once; one more gets a 503 and is closed at once.
    public var maxConnections = 128
    /// How long a client may take to send its request line and headers (slowloris).
    public var headTimeout: Duration = .seconds(10)
    /// How long one write may block on a client that stopped reading.
    public var sendTimeout: Duration = .seconds(30)
    public var maxRequestLine = 8 * 1024
    public var maxHeadBytes = 32 * 1024
    public var maxHeaders = 100
    /// Files are streamed in chunks of this size, so memory does not grow with file size × clients.
    public var chunkSize = 64 * 1024

    public init() {}
}

/// A request as it arrived: the target exactly as sent (still percent-encoded).
struct HTTPRequestHead {
    var method: String
    var target: String
    /// Lower-cased names; the first value of each.
    var headers: [String: String]
}

struct HTTPResponseOut {
    enum Body {
        case data(Data)
        /// A regular file streamed from disk (its size is the Content-Length).
        case file(descriptor: Int32, size: Int)
    }

    var status: Int
    var headers: [(String, String)]
    var body: Body

    init(status: Int, headers: [(String, String)] = [], body: Body = .data(Data())) {
        self.status = status; self.headers = headers; self.body = body
    }

    static func text(_ status: Int, _ text: String) -> HTTPResponseOut {
        HTTPResponseOut(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: .data(Data(text.utf8)))
    }
}

/// A small HTTP/1.1 server on one address: an accept thread, a thread per connection (blocking
/// I/O with socket timeouts, so a slow client never holds the cooperative pool), one request per
/// connection (`Connection: close`), bounded head parsing in linear time, files streamed.
final class HTTPListener: @unchecked Sendable {
    typealias Handler = @Sendable (HTTPRequestHead) -> HTTPResponseOut

    let limits: HTTPLimits
    private let handler: Handler
    private let socketDescriptor: Int32
    private let lock = NSLock()
    private var active = 0
    private var stopped = false
    private var finished: [CheckedContinuation<Void, Never>] = []
    private var isFinished = false
    let port: UInt16
    let host: String

    struct ListenError: Error, CustomStringConvertible { var description: String }

    init(address: String, port: UInt16, limits: HTTPLimits, handler: @escaping Handler) throws {
        self.limits = limits
        self.handler = handler
        // A client that goes away mid-response must not kill the process.
        signal(SIGPIPE, SIG_IGN)
        let ipv6 = address.contains(":")
        #if canImport(Glibc)
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ListenError(description: "cannot create a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if ipv6 {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, address, &addr.sin6_addr) == 1 else {
                close(descriptor)
                throw ListenError(description: "--host takes an IP address (e.g. 127.0.0.1 or ::1), not '\(address)'")
            }
            bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        } else {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = port.bigEndian
            guard inet_pton(AF_INET, address, &addr.sin_addr) == 1 else {
                close(descriptor)
                throw ListenError(description: "--host takes an IP address (e.g. 127.0.0.1 or ::1), not '\(address)'")
            }
            bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ListenError(description: "cannot listen on \(address):\(port): \(reason)")
        }
        socketDescriptor = descriptor
        host = address
        self.port = Self.boundPort(descriptor, ipv6: ipv6) ?? port
    }

    private static func boundPort(_ descriptor: Int32, ipv6: Bool) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        guard ok == 0 else { return nil }
        return withUnsafePointer(to: &storage) { pointer in
            ipv6 ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                 : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// Starts the accept loop on its own thread.
    func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "healthaudit-serve-accept"
        thread.start()
    }

    /// Returns when the accept loop has ended (after `stop()`).
    func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if isFinished { lock.unlock(); continuation.resume(); return }
            finished.append(continuation)
            lock.unlock()
        }
    }

    func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        guard !already else { return }
        // Wakes the blocked accept(); the loop sees `stopped` and ends.
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        close(socketDescriptor)
    }

    var activeConnections: Int { lock.lock(); defer { lock.unlock() }; return active }

    private func acceptLoop() {
        while true {
            let client = accept(socketDescriptor, nil, nil)
            if client < 0 {
                let code = errno
                lock.lock(); let done = stopped; lock.unlock()
                if done { break }
                switch code {
                case EINTR, ECONNABORTED: continue
                // Out of descriptors: wait for connections to finish instead of giving up.
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: usleep(50_000); continue
                default: usleep(50_000); continue
                }
            }
            lock.lock()
            let admitted = active < limits.maxConnections
            if admitted { active += 1 }
            lock.unlock()
            guard admitted else {
                refuseBusy(client)
                continue
            }
            let thread = Thread { [self] in
                serve(client)
                close(client)
                lock.lock(); active -= 1; lock.unlock()
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        lock.lock()
        isFinished = true
        let waiting = finished
        finished = []
        lock.unlock()
        for continuation in waiting { continuation.resume() }
    }

    private func refuseBusy(_ client: Int32) {
        setTimeout(client, SO_SNDTIMEO, .milliseconds(200))
        let response = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 1\r\nConnection: close\r\n\r\n"
        _ = response.withCString { send(client, $0, strlen($0), Self.sendFlags) }
        close(client)
    }

    private func setTimeout(_ descriptor: Int32, _ option: Int32, _ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var value = timeval(tv_sec: .init(seconds), tv_usec: .init(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    #if canImport(Glibc)
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    static let sendFlags: Int32 = 0
    #endif

    // MARK: One connection

    private func serve(_ client: Int32) {
        setTimeout(client, SO_RCVTIMEO, limits.headTimeout)
        setTimeout(client, SO_SNDTIMEO, limits.sendTimeout)
        #if canImport(Darwin)
        var yes: Int32 = 1
        setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let response: HTTPResponseOut
        let method: String
        switch readHead(client) {
        case .request(let request):
            method = request.method
            response = handler(request)
        case .failed(let status, let text):
            method = "GET"
            response = .text(status, text)
        case .closed:
            return
        }
        write(response, to: client, headOnly: method == "HEAD")
        lingeringClose(client)
    }

    /// Stops sending, then reads and drops what the client still sends for a moment: closing with
    /// unread input resets the connection, and the client would lose the 431 it was just sent.
    private func lingeringClose(_ client: Int32) {
        shutdown(client, Int32(SHUT_WR))
        setTimeout(client, SO_RCVTIMEO, .milliseconds(500))
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var drained = 0
        while drained < 1024 * 1024 {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            drained += count
        }
    }

    enum HeadResult {
        case request(HTTPRequestHead)
        case failed(Int, String)
        case closed
    }

    /// Reads up to the blank line ending the head: each byte is looked at once, and at most
    /// `maxHeadBytes` are read, whatever the client sends.
    func readHead(_ client: Int32) -> HeadResult {
        var buffer = [UInt8]()
        buffer.reserveCapacity(4096)
        var chunk = [UInt8](repeating: 0, count: 4096)
        var scanned = 0
        var end: Int?
        // One deadline for the whole head: a socket timeout alone restarts with every byte, so a
        // client sending one byte a second would hold the connection forever.
        let deadline = ContinuousClock.now + limits.headTimeout
        while end == nil {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return .closed }
            setTimeout(client, SO_RCVTIMEO, max(remaining, .milliseconds(1)))
            guard buffer.count < limits.maxHeadBytes else {
                let hasLineEnd = buffer.prefix(limits.maxRequestLine).contains(UInt8(ascii: "\n"))
                return hasLineEnd ? .failed(431, "431 Request Header Fields Too Large\n") : .failed(414, "414 URI Too Long\n")
            }
            let wanted = min(chunk.count, limits.maxHeadBytes - buffer.count)
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, wanted, 0) }
            if count < 0 && errno == EINTR { continue }
            // Timed out (slowloris), reset, or closed before a whole head arrived.
            guard count > 0 else { return .closed }
            buffer += chunk[0..<count]
            while scanned < buffer.count {
                if buffer[scanned] == UInt8(ascii: "\n") {
                    if scanned >= 1, buffer[scanned - 1] == UInt8(ascii: "\n") { end = scanned + 1; break }
                    if scanned >= 3, buffer[scanned - 1] == UInt8(ascii: "\r"), buffer[scanned - 2] == UInt8(ascii: "\n") { end = scanned + 1; break }
                }
                scanned += 1
            }
            if end == nil, let newline = buffer.firstIndex(of: UInt8(ascii: "\n")), newline > limits.maxRequestLine {
                return .failed(414, "414 URI Too Long\n")
            } else if end == nil, buffer.count > limits.maxRequestLine, !buffer.contains(UInt8(ascii: "\n")) {
                return .failed(414, "414 URI Too Long\n")
            }
        }
        // Split on bytes: as a String, "\r\n" is one Character and would not split on "\n".
        let lines = buffer[0..<end!].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
        guard let requestLine = lines.first else { return .failed(400, "400 Bad Request\n") }
        guard requestLine.utf8.count <= limits.maxRequestLine else { return .failed(414, "414 URI Too Long\n") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return .failed(400, "400 Bad Request\n") }
        let headerLines = lines.dropFirst().filter { !$0.isEmpty }
        guard headerLines.count <= limits.maxHeaders else { return .failed(431, "431 Request Header Fields Too Large\n") }
        var headers: [String: String] = [:]
        for line in headerLines {
            guard let colon = line.firstIndex(of: ":") else { return .failed(400, "400 Bad Request\n") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            if headers[name] == nil { headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
        }
        return .request(HTTPRequestHead(method: String(parts[0]), target: String(parts[1]), headers: headers))
    }

    private func write(_ response: HTTPResponseOut, to client: Int32, headOnly: Bool) {
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        let length: Int
        switch response.body {
        case .data(let data): length = data.count
        case .file(_, let size): length = size
        }
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(length)\r\nConnection: close\r\n\r\n"
        defer { if case .file(let descriptor, _) = response.body { close(descriptor) } }
        guard sendAll(Data(head.utf8), to: client), !headOnly else { return }
        switch response.body {
        case .data(let data):
            _ = sendAll(data, to: client)
        case .file(let descriptor, let size):
            var chunk = [UInt8](repeating: 0, count: limits.chunkSize)
            var remaining = size
            while remaining > 0 {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, min($0.count, remaining)) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0, sendAll(Data(chunk[0..<count]), to: client) else { return }
                remaining -= count
            }
        }
    }

    private func sendAll(_ data: Data, to client: Int32) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = send(client, buffer.baseAddress! + offset, buffer.count - offset, Self.sendFlags)
                if sent < 0 { if errno == EINTR { continue }; return false }
                offset += sent
            }
            return true
        }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 302: return "Found"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 414: return "URI Too Long"
        case 431: return "Request Header Fields Too Large"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
