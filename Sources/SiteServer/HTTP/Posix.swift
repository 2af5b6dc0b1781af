import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call, with its errno.
struct SocketFailure: Error, CustomStringConvertible {
    var call: String
    var code: Int32
    var description: String { "\(call): \(String(cString: strerror(code))) (errno \(code))" }
}

/// The few socket calls the server makes, with the platform differences in one place.
enum Posix {
    /// Non-blocking and closed on exec, for every descriptor the server owns.
    static func configure(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// A listening socket on one address (IPv4 or IPv6 literal), and the port it got.
    static func listen(address: String, port: UInt16, backlog: Int32 = 511) throws -> (fd: Int32, port: UInt16) {
        var storage = sockaddr_storage()
        let length: socklen_t
        let family: Int32
        if address.contains(":") {
            var ip6 = sockaddr_in6()
            ip6.sin6_family = sa_family_t(AF_INET6)
            ip6.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, address, &ip6.sin6_addr) == 1 else { throw SocketFailure(call: "inet_pton", code: EINVAL) }
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: ip6, as: sockaddr_in6.self) }
            (length, family) = (socklen_t(MemoryLayout<sockaddr_in6>.size), AF_INET6)
        } else {
            var ip4 = sockaddr_in()
            ip4.sin_family = sa_family_t(AF_INET)
            ip4.sin_port = port.bigEndian
            guard inet_pton(AF_INET, address, &ip4.sin_addr) == 1 else { throw SocketFailure(call: "inet_pton", code: EINVAL) }
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: ip4, as: sockaddr_in.self) }
            (length, family) = (socklen_t(MemoryLayout<sockaddr_in>.size), AF_INET)
        }
        #if canImport(Glibc)
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SocketFailure(call: "socket", code: errno) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw SocketFailure(call: "bind", code: code)
        }
        #if canImport(Glibc)
        let listening = Glibc.listen(fd, backlog)
        #else
        let listening = Darwin.listen(fd, backlog)
        #endif
        guard listening == 0 else {
            let code = errno
            close(fd)
            throw SocketFailure(call: "listen", code: code)
        }
        configure(fd)
        return (fd, boundPort(fd) ?? port)
    }

    static func boundPort(_ fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        let family = Int32(storage.ss_family)
        return withUnsafeBytes(of: &storage) { bytes in
            if family == AF_INET6 { return UInt16(bigEndian: bytes.load(as: sockaddr_in6.self).sin6_port) }
            return UInt16(bigEndian: bytes.load(as: sockaddr_in.self).sin_port)
        }
    }

    enum Accepted {
        case connection(Int32)
        /// Nothing pending: wait for the listening socket to become readable.
        case none
        /// EMFILE, ENFILE, ENOBUFS, ENOMEM: the process or system is out of something; back off.
        case exhausted(SocketFailure)
        /// A connection that died in the backlog, a signal: just try again.
        case retry
        case failed(SocketFailure)
    }

    static func accept(_ listener: Int32) -> Accepted {
        // Plain accept (Glibc's module hides accept4); `configure` makes it non-blocking.
        #if canImport(Glibc)
        let fd = Glibc.accept(listener, nil, nil)
        #else
        let fd = Darwin.accept(listener, nil, nil)
        #endif
        if fd >= 0 {
            configure(fd)
            return .connection(fd)
        }
        let code = errno
        switch code {
        case EAGAIN, EWOULDBLOCK: return .none
        case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .exhausted(SocketFailure(call: "accept", code: code))
        case EINTR, ECONNABORTED, EPROTO, EPERM: return .retry
        default: return .failed(SocketFailure(call: "accept", code: code))
        }
    }

    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        // MSG_NOSIGNAL: a client that went away must not kill the process with SIGPIPE.
        return Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #else
        return Darwin.send(fd, bytes.baseAddress, bytes.count, 0)
        #endif
    }

    static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        recv(fd, buffer.baseAddress, buffer.count, 0)
    }

    static var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR }
}
