import Foundation
import Manifest
import Report

/// `--history DIR`: each run's results, kept as files keyed by date and commit —
/// `DIR/<origin>/<20260401T120000Z>-<commit, 12 digits>.json`, each holding only what the trend
/// needs (`HistoryRecordFormat`) — and read back as the records the trend is drawn from. The
/// origin is the results file's name (`acme-ios` for `acme-ios.json`), `site` for a build from
/// sources. A run whose commit and findings equal its origin's latest record adds nothing. Each
/// origin's newest `maxRecordsPerOrigin` records are read; older ones stay on disk, unread. Files
/// of other names are ignored, and no file is ever deleted or overwritten.
public struct HistoryStore: Sendable {
    /// One result of this run, to be kept.
    public struct Run: Sendable {
        /// The results file it came from, or `site`.
        public var origin: String
        /// What is kept of it; its stamp is the run's, given when the run is planned.
        public var record: HistoryRecord

        public init(origin: String, record: HistoryRecord) { self.origin = origin; self.record = record }
    }

    /// A recorded run read back.
    struct Entry: Sendable {
        var path: String
        var origin: String
        var record: HistoryRecord
        var digest: String
    }

    /// The history as a build finds it: the records it reads, and the name of every record file
    /// of each origin (read or not), which a new record must not take.
    struct Listing: Sendable {
        var entries: [Entry] = []
        var names: [String: [String]] = [:]
    }

    /// What this run adds, and the trend over everything recorded.
    public struct Plan: Sendable {
        public var history: FindingHistory
        var writes: [(path: String, data: Data)]
        var unchanged: Int
    }

    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// Records of earlier versions kept whole results (less the simulation); they still read.
    static let maxFileBytes = ResultFolder.maxFileBytes
    /// About three months of daily runs, three times what the pages chart: every build reads
    /// them, so their number must not grow with the history.
    public static let maxRecordsPerOrigin = 100

    /// `acme-ios.json` → `acme-ios`: letters, digits, `.`, `_` and `-` only, never hidden.
    static func origin(of fileName: String) -> String {
        let stem = fileName.hasSuffix(".json") ? String(fileName.dropLast(5)) : fileName
        let safe = String(stem.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar)) ? Character(scalar) : "-"
        })
        return safe.isEmpty || safe.hasPrefix(".") ? "result" + safe : safe
    }

    /// `20260401T120000Z-0123456789ab.json` (and `-2`, `-3`… beside an existing file of other bytes).
    static func isRecordName(_ name: String) -> Bool {
        name.wholeMatch(of: /[0-9]{8}T[0-9]{6}Z-([0-9a-f]{12}|nocommit)(-[0-9]+)?\.json/) != nil
    }

    /// `20260401T120000Z`: UTC, seconds, sorts as text.
    public static func stamp(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// Each origin's newest records (a missing folder has none); a record that does not read is
    /// an input error naming it, so a damaged history is never drawn as a trend.
    func load() throws -> Listing {
        var info = stat()
        guard stat(directory, &info) == 0 else { return Listing() }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw InputError("the history is not a folder", file: directory) }
        let fileSystem = LocalFileSystem(confinedTo: [directory])
        var listing = Listing()
        var paths: [(origin: String, path: String)] = []
        for folder in try fileSystem.entries(in: directory) where folder.isFolder && !folder.name.hasPrefix(".") {
            let names = try fileSystem.entries(in: directory + "/" + folder.name).filter { !$0.isFolder && Self.isRecordName($0.name) }.map(\.name).sorted()
            listing.names[folder.name] = names
            paths += names.suffix(Self.maxRecordsPerOrigin).map { (folder.name, folder.name + "/" + $0) }
        }
        let bytes = paths.reduce(0) { sum, item in lstat(directory + "/" + item.path, &info) == 0 ? sum + Int(info.st_size) : sum }
        if bytes > InputLimits.maxBytesPerRun {
            throw InputError("the history's newest records hold more than \(ByteCount.text(InputLimits.maxBytesPerRun)); move the older records of its largest origins out of it",
                             file: directory)
        }
        let read = ParallelMap.map(paths) { item -> Result<Entry, InputError> in
            Result {
                let data = try fileSystem.contents(of: directory + "/" + item.path, limit: Self.maxFileBytes)
                do {
                    let record = try HistoryRecordFormat.read(data, stamp: String((item.path as NSString).lastPathComponent.prefix(16)))
                    return Entry(path: item.path, origin: item.origin, record: record, digest: StableDigest.hex(data))
                } catch {
                    throw InputError("not a healthaudit history record: \(error)", file: directory + "/" + item.path)
                }
            }.mapError { $0 as? InputError ?? InputError("\($0)", file: directory + "/" + item.path) }
        }
        let problems = read.flatMap { result -> [InputProblem] in
            if case .failure(let error) = result { return error.problems }
            return []
        }
        if !problems.isEmpty { throw InputError(problems) }
        listing.entries = read.compactMap { try? $0.get() }
        return listing
    }

    /// Results whose files map to one origin (`acme ios.json`, `acme-ios.json`; `Acme.json` and
    /// `acme.json`, one folder on a case-insensitive disk) would mix their runs in one trend:
    /// each such pair is an input error naming both files.
    static func collidingOrigins(_ fileNames: [String]) -> [InputProblem] {
        var first: [String: String] = [:]
        var problems: [InputProblem] = []
        for name in fileNames.sorted() {
            let origin = origin(of: name)
            if let other = first[origin.lowercased()] {
                problems.append(InputProblem("'\(other)' and '\(name)' would both be kept in the history as '\(origin)': rename one of them", at: FileLocation(file: name)))
            } else {
                first[origin.lowercased()] = name
            }
        }
        return problems
    }

    /// The records this run adds to the listing's (none for a result whose commit and findings
    /// equal its origin's latest record), and the trend over all of them. Everything the writes
    /// need is checked here, before the site is replaced: after it, only the disk can fail.
    func plan(_ runs: [Run], listing: Listing, stamp: String, showing shown: Set<String>) throws -> Plan {
        var records = listing.entries.map(\.record)
        var writes: [(String, Data)] = []
        var unchanged = 0
        var planned: Set<String> = []
        for run in runs {
            let origin = Self.origin(of: run.origin)
            // Refused at load for results; a second run of one origin would be a bug.
            guard planned.insert(origin.lowercased()).inserted else { throw InputError("two results of this run have the history origin '\(origin)'", file: run.origin) }
            var record = run.record
            record.stamp = stamp
            let latest = listing.entries.filter { $0.origin == origin }.max { ($0.record.stamp, $0.path) < ($1.record.stamp, $1.path) }
            if let latest, latest.record.commit == record.commit, latest.record.sameFindings(as: record) {
                unchanged += 1
                continue
            }
            // Two runs at one time stamp could not be told apart in the trend.
            if let same = listing.names[origin]?.first(where: { $0.hasPrefix(stamp + "-") }) {
                throw InputError("the history already holds a different run of '\(origin)' at \(stamp); give each run its own time (SOURCE_DATE_EPOCH)",
                                 file: directory + "/" + origin + "/" + same)
            }
            records.append(record)
            writes.append((origin + "/" + stamp + "-" + (record.commit.map { String($0.prefix(12)) } ?? "nocommit") + ".json", HistoryRecordFormat.data(record)))
        }
        try checkWritable(origins: writes.map { ($0.0 as NSString).deletingLastPathComponent })
        return Plan(history: FindingHistory(records: records, showing: shown), writes: writes, unchanged: unchanged)
    }

    /// Each origin's folder must be a real folder or missing (a symlink planted in the history
    /// is refused: records never land outside it), and the folders written must be writable.
    private func checkWritable(origins: [String]) throws {
        guard !origins.isEmpty else { return }
        var info = stat()
        for origin in origins {
            let folder = directory + "/" + origin
            if lstat(folder, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw InputError("the origin's folder is a symbolic link or a file: records are written only into folders of the history", file: folder)
                }
                if access(folder, W_OK) != 0 { throw OutputFailure(path: folder, operation: "write a history record", code: errno) }
            }
        }
        // The history, or the nearest folder above it that exists, is where new folders go.
        var existing = directory
        while stat(existing, &info) != 0, existing != "/", !existing.isEmpty { existing = (existing as NSString).deletingLastPathComponent }
        if access(existing.isEmpty ? "." : existing, W_OK) != 0 { throw OutputFailure(path: existing, operation: "write a history record", code: errno) }
    }

    /// Writes the plan's records, each into its origin's folder (checked by `plan`). A record is
    /// never replaced: `link` fails on an existing name (only a build racing for the same history
    /// can have taken it since).
    func write(_ plan: Plan) throws -> Int {
        var written = 0
        for (path, data) in plan.writes {
            let origin = (path as NSString).deletingLastPathComponent
            let folder = directory + "/" + origin
            try PosixFiles.makeDirectories(directory)
            var info = stat()
            if lstat(folder, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw OutputFailure(path: folder, operation: "write a history record (the origin's folder is a symbolic link or a file)", code: ENOTDIR)
                }
            } else {
                try PosixFiles.makeDirectory(folder)
            }
            let target = directory + "/" + path
            let temporary = folder + "/.healthaudit-record-\(getpid())"
            unlink(temporary)
            guard FileManager.default.createFile(atPath: temporary, contents: data) else {
                throw OutputFailure(path: temporary, operation: "write a history record", code: errno)
            }
            defer { unlink(temporary) }
            if link(temporary, target) != 0 { throw OutputFailure(path: target, operation: "write a history record", code: errno) }
            written += 1
        }
        return written
    }
}
