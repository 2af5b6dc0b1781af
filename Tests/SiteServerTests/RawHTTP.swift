import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A response as it came off the socket.
struct RawResponse {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Sends a request line exactly as written (URLSession would normalize `..` and `%2e`) over a
/// plain TCP socket to 127.0.0.1, and reads the response until the server closes.
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func get(port: UInt16, _ target: String) async throws -> RawResponse {
        try await send(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    }

    static func request(port: UInt16, method: String, _ target: String) async throws -> RawResponse {
        try await send(port: port, "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
    }

    /// Blocking socket calls run on a Dispatch thread, away from the cooperative pool the
    /// server in this same process answers on.
    static func send(port: UInt16, _ request: String) async throws -> RawResponse {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try exchange(port: port, Data(request.utf8)) })
            }
        }
    }

    /// A connected socket to 127.0.0.1:port with a receive timeout; the caller closes it.
    static func connectSocket(port: UInt16, timeout seconds: Int = 15) throws -> Int32 {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var timeout = timeval(tv_sec: .init(seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw Failure(description: "connect to port \(port) failed") }
        return fd
    }

    private static func exchange(port: UInt16, _ request: Data) throws -> RawResponse {
        let fd = try connectSocket(port: port)
        defer { close(fd) }
        try request.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                guard sent > 0 else { throw Failure(description: "write failed") }
                offset += sent
            }
        }
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count == 0 { break }
            guard count > 0 else { throw Failure(description: "read failed or timed out after \(received.count) bytes") }
            received.append(contentsOf: chunk[0..<count])
        }
        return try parse(received)
    }

    static func parse(_ data: Data) throws -> RawResponse {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no header end in \(data.count) bytes") }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(head[0])") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return RawResponse(status: status, headers: headers, body: Data(data[end.upperBound...]))
    }
}
