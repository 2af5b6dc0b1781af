/// A request target's path, checked before it goes near the file system: the raw,
/// percent-encoded path is split on `/` first and each segment decoded once, so an encoded
/// slash can never create a new segment and nothing is decoded twice.
public enum RequestPath: Equatable, Sendable {
    /// Decoded segments below the output folder; `isFolder` when the path ended with `/`.
    case segments([String], isFolder: Bool)
    /// Not a path this server will ever map to a file (traversal, encoded separators, …).
    case refused(String)

    public init(raw: String) {
        guard raw.hasPrefix("/") else { self = .refused("not an origin-form path"); return }
        var parts = raw.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let isFolder = parts.last == ""
        if isFolder { parts.removeLast() }
        var segments: [String] = []
        for part in parts {
            switch Self.decode(part) {
            case .success(let segment): segments.append(segment)
            case .failure(let refusal): self = .refused(refusal.reason); return
            }
        }
        self = .segments(segments, isFolder: isFolder)
    }

    private struct Refusal: Error { var reason: String }

    private static func decode(_ part: String) -> Result<String, Refusal> {
        // `//etc/passwd`: an empty segment would make the joined path absolute.
        if part.isEmpty { return .failure(Refusal(reason: "empty segment")) }
        if part.contains("\\") { return .failure(Refusal(reason: "backslash")) }
        guard let decoded = part.removingPercentEncoding else { return .failure(Refusal(reason: "bad percent-encoding")) }
        // `%2f`, `%5c`, `%00`, and `%25…` (double encoding: what is left must not decode again).
        if decoded.contains("/") || decoded.contains("\\") || decoded.contains("%") {
            return .failure(Refusal(reason: "encoded separator or double encoding"))
        }
        if decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            return .failure(Refusal(reason: "control character"))
        }
        if decoded == "." || decoded == ".." { return .failure(Refusal(reason: "dot segment")) }
        return .success(decoded)
    }
}
