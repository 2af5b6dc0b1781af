/// The request-head parser as one pure call, for the fuzz harness (`healthaudit-fuzz --target http`):
/// how the bytes arrive (one read, a byte at a time, any split) must not change the outcome.
public enum RequestHeadProbe {
    /// The head or the refusal, described; nil while the head is incomplete. Reads are capped by the
    /// parser's `room`, as the server caps them.
    public static func describe(_ bytes: [UInt8], readSizes: [Int], limits: ServeLimits = ServeLimits()) -> String? {
        var parser = RequestHeadParser(limits: limits)
        var offset = 0, read = 0
        do {
            while offset < bytes.count {
                let wanted = readSizes.isEmpty ? bytes.count : readSizes[read % readSizes.count]
                let size = max(1, min(wanted, parser.room, bytes.count - offset))
                read += 1
                if let head = try parser.append(Array(bytes[offset..<offset + size])) {
                    let headers = head.headers.map { "\($0.name)=\($0.value)" }.joined(separator: "\n")
                    return "head \(head.method) \(head.target) \(head.version)\n\(headers)"
                }
                offset += size
            }
            return nil
        } catch {
            return "refused \(error)"
        }
    }
}
