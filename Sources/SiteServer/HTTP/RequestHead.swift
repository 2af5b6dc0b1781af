/// The request line and headers of one HTTP/1.x request. The body, if any, is never read:
/// only GET and HEAD are served and every connection closes after one response.
struct RequestHead: Sendable {
    var method: String
    /// As sent: still percent-encoded, query included.
    var target: String
    var version: String
    var headers: [(name: String, value: String)]

    /// The target's path, without the query.
    var path: String { String(target.prefix { $0 != "?" }) }

    /// Every value of a header, by case-insensitive name.
    func values(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }
}

/// Why a head was refused; each maps to the status the client is told before the connection closes.
enum HeadRefusal: Error, Equatable {
    case malformed(String)
    case requestLineTooLong
    case headTooLarge
    case tooManyHeaders
    case unsupportedVersion

    var status: HTTPStatus {
        switch self {
        case .malformed: .badRequest
        case .requestLineTooLong: .uriTooLong
        case .headTooLarge, .tooManyHeaders: .headerFieldsTooLarge
        case .unsupportedVersion: .versionNotSupported
        }
    }
}

/// Collects bytes until the blank line that ends a head, in time linear in the bytes received:
/// each byte is looked at once when searching for line ends, and the limits are checked as the
/// bytes arrive, so an endless line is refused once it passes the limit, not when it ends.
struct RequestHeadParser {
    let limits: ServeLimits
    private var buffer: [UInt8] = []
    /// Where the line being received starts; everything before it is complete lines.
    private var lineStart = 0
    private var lines: [Range<Int>] = []

    init(limits: ServeLimits) { self.limits = limits }

    /// How many more bytes may be read without passing the head limit (one more, to notice it).
    var room: Int { max(1, limits.maxHeadBytes + 1 - buffer.count) }

    /// Adds bytes as they arrive; returns the head once complete, nil while more are needed.
    mutating func append(_ bytes: [UInt8]) throws(HeadRefusal) -> RequestHead? {
        var scan = buffer.count
        buffer.append(contentsOf: bytes)
        while let newline = buffer[scan...].firstIndex(of: UInt8(ascii: "\n")) {
            var end = newline
            if end > lineStart, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = lineStart..<end
            lineStart = newline + 1
            scan = lineStart
            if lines.isEmpty {
                // A stray empty line before the request line is allowed (RFC 9112 §2.2).
                if line.isEmpty { continue }
                if line.count > limits.maxRequestLine { throw .requestLineTooLong }
            } else if line.isEmpty {
                return try head()
            }
            lines.append(line)
            if lines.count - 1 > limits.maxHeaderCount { throw .tooManyHeaders }
        }
        if lines.isEmpty, buffer.count - lineStart > limits.maxRequestLine { throw .requestLineTooLong }
        if buffer.count > limits.maxHeadBytes { throw .headTooLarge }
        return nil
    }

    private func head() throws(HeadRefusal) -> RequestHead {
        if lineStart > limits.maxHeadBytes { throw .headTooLarge }
        let parts = buffer[lines[0]].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, let method = Self.token(parts[0]), !parts[1].isEmpty,
              parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw .malformed("request line")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version.hasPrefix("HTTP/") else { throw .malformed("version") }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { throw .unsupportedVersion }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            let bytes = buffer[line]
            // No obsolete line folding, no space before the colon, no control characters.
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
                  let name = Self.token(bytes[bytes.startIndex..<colon]),
                  !bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7f }) else {
                throw .malformed("header line")
            }
            let value = bytes[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            let trimmed = value.prefix(value.count - value.reversed().prefix { $0 == 0x20 || $0 == 0x09 }.count)
            headers.append((name, String(decoding: trimmed, as: UTF8.self)))
        }
        return RequestHead(method: method, target: String(decoding: parts[1], as: UTF8.self), version: version, headers: headers)
    }

    /// RFC 9110 token characters only (method and header names).
    private static func token(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.allSatisfy(isTokenByte) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
