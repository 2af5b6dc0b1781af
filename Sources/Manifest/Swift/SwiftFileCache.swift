import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an earlier check learnt of one Swift file that depends on the file's text alone: that
/// `BoundedSwiftParse` refused it, where and why, or that a worker process parsed it in time, and
/// the CPU time the parse drew from the run's budget. A refused file is not scanned or parsed
/// again while its text is unchanged. (The rules read syntax trees, which are not kept: a parsed
/// file is parsed here on every run. An entry saying "parsed" spares only the worker's parse, and
/// is trusted no further: the parse here keeps its deadline.)
public struct SwiftFileFacts: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable { case parsed, refused }
    public var outcome: Outcome
    /// For `refused`: where, and why (the finding's message).
    public var line: Int?
    public var column: Int?
    public var reason: String?
    /// CPU seconds the parse was charged to the budget (a cached refusal charges them again, so
    /// the budget, and what it refuses later in the run, is the same with the cache or without).
    public var chargedSeconds: Double

    public init(outcome: Outcome, line: Int? = nil, column: Int? = nil, reason: String? = nil, chargedSeconds: Double) {
        self.outcome = outcome; self.line = line; self.column = column; self.reason = reason; self.chargedSeconds = chargedSeconds
    }

    /// Within the bounds any fact the tool writes stays in: anything else was not written by it.
    var isPlausible: Bool {
        guard chargedSeconds.isFinite, chargedSeconds >= 0, chargedSeconds < 86_400 else { return false }
        switch outcome {
        case .parsed: return line == nil && column == nil && reason == nil
        case .refused:
            guard let line, line >= 1, let reason, !reason.isEmpty, reason.utf8.count <= 1_000 else { return false }
            return column.map { $0 >= 1 } ?? true
        }
    }
}

/// Per-file facts kept between checks, one small JSON file per Swift file's contents, named by the
/// SHA-256 of the key: the text, the tool (its version and binary) and the parse settings. Like
/// SwiftLint's cache, in a folder the user names or the platform's cache folder.
///
/// The folder is untrusted, as any file another process can write: an entry is read only if it is
/// a regular file (never through a symlink), no larger than `maximumEntryBytes`, decodes, names the
/// same key, format and tool, and holds plausible facts — otherwise it is ignored and rewritten.
/// Writes go to a fresh temporary file renamed over the entry, so concurrent runs see a whole
/// entry or none. A folder that cannot be used is not an error: the check runs without it.
public final class SwiftFileCache: @unchecked Sendable {
    /// Bumped when `SwiftFileFacts` or its meaning changes: older entries are then foreign.
    public static let format = 1
    static let maximumEntryBytes = 4_096
    /// Where entries go inside the chosen folder, so clearing one format leaves the rest.
    public static let subfolderName = "swift-facts-v\(format)"

    /// The entries' folder (inside the chosen one).
    public let folder: String
    /// The tool and settings every entry's key includes.
    let salt: String
    private let counters = Counters()

    /// `folder`: the cache folder (created if missing). `tool`: what identifies the running tool
    /// (version and binary); `settings`: anything else the facts depend on (the parse limits).
    /// Nil when the folder cannot be made or is not a real folder (a symlink is refused).
    public init?(folder: String, tool: String, settings: String) {
        let entries = (folder as NSString).appendingPathComponent(Self.subfolderName)
        guard Self.makeFolder(folder), Self.makeFolder(entries) else { return nil }
        self.folder = entries
        salt = "tool \(tool)\nsettings \(settings)\nformat \(Self.format)"
    }

    /// The platform's cache folder for the tool: `$XDG_CACHE_HOME/healthaudit` or
    /// `~/.cache/healthaudit` on Linux, `~/Library/Caches/healthaudit` on macOS; nil without a home.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        #if os(macOS)
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/Library/Caches/healthaudit"
        #else
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/healthaudit" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.cache/healthaudit"
        #endif
    }

    /// The key of a file's text: its entry's name.
    func key(for text: String) -> String {
        var hasher = SHA256()
        hasher.update(salt + "\n")
        hasher.update(text)
        return hasher.hexDigest()
    }

    /// The facts of `text` from an earlier run, or nil (none, or not trusted).
    public func facts(for text: String) -> SwiftFileFacts? {
        let key = key(for: text)
        guard let data = Self.readEntry(folder + "/" + key + ".json"),
              let entry = try? JSONDecoder().decode(Entry.self, from: data),
              entry.format == Self.format, entry.key == key, entry.facts.isPlausible else {
            counters.miss()
            return nil
        }
        counters.hit()
        return entry.facts
    }

    /// Keeps `facts` of `text` for later runs; failures are silent (the next run computes them again).
    public func store(_ facts: SwiftFileFacts, for text: String) {
        let key = key(for: text)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(Entry(format: Self.format, key: key, facts: facts)), data.count <= Self.maximumEntryBytes else { return }
        Self.writeEntry(data, to: folder + "/" + key + ".json", in: folder)
    }

    /// Entries read and trusted, and looked for in vain (or distrusted), in this process.
    public var hits: Int { counters.hits }
    public var misses: Int { counters.misses }

    private struct Entry: Codable {
        var format: Int
        var key: String
        var facts: SwiftFileFacts
    }

    // MARK: Files, never through a symlink

    /// Creates `path` (mode 0700) when missing; true when it is then a real folder, not a symlink.
    private static func makeFolder(_ path: String) -> Bool {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            // A missing parent (`~/.cache` on a fresh machine): made the ordinary way, then checked.
            guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil else { return false }
        }
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func readEntry(_ path: String) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= maximumEntryBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: maximumEntryBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        return count <= maximumEntryBytes ? Data(bytes[0..<count]) : nil
    }

    /// A new temporary file (never an existing one or a symlink's target), renamed over the entry:
    /// `rename` replaces whatever is at the entry's name, a planted symlink included, not its target.
    private static func writeEntry(_ data: Data, to path: String, in folder: String) {
        let temporary = folder + "/.tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
        close(descriptor)
        guard written == data.count, rename(temporary, path) == 0 else { unlink(temporary); return }
    }

    private final class Counters: @unchecked Sendable {
        private let lock = NSLock()
        private var found = 0, missed = 0
        func hit() { lock.lock(); found += 1; lock.unlock() }
        func miss() { lock.lock(); missed += 1; lock.unlock() }
        var hits: Int { lock.lock(); defer { lock.unlock() }; return found }
        var misses: Int { lock.lock(); defer { lock.unlock() }; return missed }
    }
}
