#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which `Host` headers a loopback server answers. A web page can make any name it owns resolve
/// to 127.0.0.1 (DNS rebinding) and then read what the server answers under that name, so only
/// names no one can register pass: `localhost` and literal loopback addresses — four decimal
/// labels starting with 127 (a domain's top label is never all digits) or `[::1]` — each with an
/// optional port.
public enum LoopbackHost {
    /// `localhost:8000`, `127.0.0.1`, `[::1]:8000` → true; `127.x.evil.example`, `127.0.0.1.nip.io` → false.
    public static func accepts(_ host: String) -> Bool {
        let name: Substring, rest: Substring
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return false }
            name = host[host.index(after: host.startIndex)..<end]
            rest = host[host.index(after: end)...]
            guard isPort(rest), isIPv6Loopback(String(name)) else { return false }
            return true
        }
        if let colon = host.firstIndex(of: ":") {
            name = host[..<colon]
            rest = host[colon...]
        } else {
            name = host[...]
            rest = ""
        }
        guard isPort(rest) else { return false }
        return name.lowercased() == "localhost" || isIPv4Loopback(name)
    }

    /// Empty, or `:` and at most five digits (RFC 9110 allows an empty port after the colon).
    private static func isPort(_ text: Substring) -> Bool {
        guard let colon = text.first else { return true }
        let digits = text.dropFirst()
        return colon == ":" && digits.count <= 5 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `127.a.b.c`, every label decimal digits of at most 255.
    private static func isIPv4Loopback(_ name: Substring) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count == 4, labels[0] == "127" else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 3 && label.allSatisfy { $0.isASCII && $0.isNumber } && Int(label)! <= 255
        }
    }

    private static func isIPv6Loopback(_ name: String) -> Bool {
        var address = in6_addr()
        guard inet_pton(AF_INET6, name, &address) == 1 else { return false }
        return withUnsafeBytes(of: &address) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }
}
