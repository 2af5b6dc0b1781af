import Foundation

/// What `/__healthaudit/status` reports: how many builds succeeded, and the last one's error.
public struct BuildStatus: Sendable, Equatable, Encodable {
    /// Bumped by every successful build: open pages reload when it changes.
    public var generation: Int
    /// The diagnostics of the last build when it failed; nil once a build succeeds.
    public var error: String?

    public init(generation: Int = 0, error: String? = nil) {
        self.generation = generation
        self.error = error
    }

    enum CodingKeys: String, CodingKey { case generation, error }

    // `error` is always present, as `null` when there is none (the synthesized coder would drop it).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(generation, forKey: .generation)
        try container.encode(error, forKey: .error)
    }

    public var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data(#"{"error":null,"generation":0}"#.utf8)
    }
}

/// The status shared by the rebuild loop (writer) and the request handlers (readers, on the
/// connection threads, which read it without awaiting).
public final class StatusBoard: Sendable {
    private let cell = Cell()

    public init() {}

    public var current: BuildStatus { latest }
    var latest: BuildStatus { cell.value }

    func succeeded() { cell.update { BuildStatus(generation: $0.generation + 1, error: nil) } }
    func failed(_ diagnostics: String) { cell.update { BuildStatus(generation: $0.generation, error: diagnostics) } }

    private final class Cell: @unchecked Sendable {
        private var status = BuildStatus()
        private let lock = NSLock()
        var value: BuildStatus { lock.lock(); defer { lock.unlock() }; return status }
        func update(_ change: (BuildStatus) -> BuildStatus) { lock.lock(); status = change(status); lock.unlock() }
    }
}
