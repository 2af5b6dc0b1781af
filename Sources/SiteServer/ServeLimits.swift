/// Bounds on what one client, or many, can make `serve` hold: connections, time, bytes.
/// The defaults suit a developer's browser on loopback; tests set small values.
public struct ServeLimits: Sendable, Equatable {
    /// Connections served at once. Past it, the connection that has waited longest without
    /// sending a complete request is dropped to make room; if every slot is busy answering,
    /// the newcomer is closed at once. Well under the usual 1,024 descriptors.
    public var maxConnections: Int
    /// From accept to the end of the request head. Slowloris clients are dropped when it passes.
    public var headTimeout: Duration
    /// How long a response may make no progress (a client that stopped reading) before the
    /// connection is dropped.
    public var sendTimeout: Duration
    /// The request line (`GET /path HTTP/1.1`); longer gets 414.
    public var maxRequestLine: Int
    /// The whole head, request line and headers; larger gets 431.
    public var maxHeadBytes: Int
    /// Header lines; more get 431.
    public var maxHeaderCount: Int
    /// Files are sent in pieces of this size from an open descriptor, never read whole.
    public var chunkSize: Int
    /// After the response, how long unread request bytes are drained before closing (so the
    /// client reads the response instead of a reset).
    public var lingerTimeout: Duration

    public init(maxConnections: Int = 256, headTimeout: Duration = .seconds(10), sendTimeout: Duration = .seconds(30),
                maxRequestLine: Int = 8 * 1024, maxHeadBytes: Int = 32 * 1024, maxHeaderCount: Int = 100,
                chunkSize: Int = 64 * 1024, lingerTimeout: Duration = .seconds(2)) {
        self.maxConnections = maxConnections
        self.headTimeout = headTimeout
        self.sendTimeout = sendTimeout
        self.maxRequestLine = maxRequestLine
        self.maxHeadBytes = maxHeadBytes
        self.maxHeaderCount = maxHeaderCount
        self.chunkSize = chunkSize
        self.lingerTimeout = lingerTimeout
    }
}
