import Foundation
import Manifest
import Report

/// `--history DIR`: each run's results, kept as files keyed by date and commit —
/// `DIR/<origin>/<20260401T120000Z>-<commit, 12 digits>.json`, the check's own JSON with the
/// simulation left out — and read back as the records the trend is drawn from. The origin is the
/// results file's name (`acme-ios` for `acme-ios.json`), `site` for a build from sources. A run
/// whose commit and findings equal its origin's latest record adds nothing. Files of other names
/// are ignored, and no file is ever deleted or overwritten.
public struct HistoryStore: Sendable {
    /// One result of this run, to be kept.
    public struct Run: Sendable {
        /// The results file it came from, or `site`.
        public var origin: String
        public var commit: String?
        public var document: JSONValue
    }

    /// A recorded run read back.
    struct Entry: Sendable {
        var path: String
        var origin: String
        var record: HistoryRecord
        var digest: String
    }

    /// What this run adds, and the trend over everything recorded.
    public struct Plan: Sendable {
        public var history: FindingHistory
        var writes: [(path: String, data: Data)]
        var unchanged: Int
    }

    public let directory: String

    public init(directory: String) { self.directory = directory }

    static let maxFileBytes = ResultFolder.maxFileBytes

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

    /// Every record in the folder (a missing folder has none); a record that does not read is an
    /// input error naming it, so a damaged history is never drawn as a trend.
    func load() throws -> [Entry] {
        var info = stat()
        guard stat(directory, &info) == 0 else { return [] }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw InputError("the history is not a folder", file: directory) }
        let fileSystem = LocalFileSystem(confinedTo: [directory])
        var paths: [(origin: String, path: String)] = []
        for folder in try fileSystem.entries(in: directory) where folder.isFolder && !folder.name.hasPrefix(".") {
            for file in try fileSystem.entries(in: directory + "/" + folder.name) where !file.isFolder && Self.isRecordName(file.name) {
                paths.append((folder.name, folder.name + "/" + file.name))
            }
        }
        let read = ParallelMap.map(paths) { item -> Result<Entry, InputError> in
            Result {
                let data = try fileSystem.contents(of: directory + "/" + item.path, limit: Self.maxFileBytes)
                do {
                    let record = try ResultReader.historyRecord(data, stamp: String((item.path as NSString).lastPathComponent.prefix(16)))
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
        return read.compactMap { try? $0.get() }
    }

    /// The records this run adds to `entries` (none for a result whose commit and findings equal its
    /// origin's latest record), and the trend over all of them.
    func plan(_ runs: [Run], entries: [Entry], stamp: String, showing shown: Set<String>) throws -> Plan {
        var records = entries.map(\.record)
        var writes: [(String, Data)] = []
        var unchanged = 0
        for run in runs {
            let origin = Self.origin(of: run.origin)
            let document = Self.withoutSimulation(run.document)
            let record = try ResultReader.historyRecord(document, stamp: stamp)
            let latest = entries.filter { $0.origin == origin }.max { ($0.record.stamp, $0.path) < ($1.record.stamp, $1.path) }
            if let latest, latest.record.commit == record.commit, latest.record.sameFindings(as: record) {
                unchanged += 1
                continue
            }
            // Two runs at one time stamp could not be told apart in the trend: refused before the site is built.
            if let same = entries.first(where: { $0.origin == origin && $0.record.stamp == stamp }) {
                throw InputError("the history already holds a different run of '\(origin)' at \(stamp); give each run its own time (SOURCE_DATE_EPOCH)",
                                 file: directory + "/" + same.path)
            }
            records.append(record)
            writes.append((origin + "/" + stamp + "-" + (run.commit.map { String($0.prefix(12)) } ?? "nocommit") + ".json", Data(document.serialized().utf8)))
        }
        return Plan(history: FindingHistory(records: records, showing: shown), writes: writes, unchanged: unchanged)
    }

    /// Writes the plan's records, each into its origin's folder, which must be a real folder (a
    /// symlink planted in the history is refused: records never land outside it). A record is
    /// never replaced: `link` fails on an existing name, and a name holding other bytes — a run
    /// with the same time stamp — is an error rather than a second run the trend cannot order.
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
            if PosixFiles.isRegularFile(target), FileManager.default.contents(atPath: target) == data { continue }
            let temporary = folder + "/.healthaudit-record-\(getpid())"
            unlink(temporary)
            guard FileManager.default.createFile(atPath: temporary, contents: data) else {
                throw OutputFailure(path: temporary, operation: "write a history record", code: errno)
            }
            defer { unlink(temporary) }
            if link(temporary, target) != 0 {
                let code = errno
                if code == EEXIST {
                    throw InputError("the history already holds another record for this origin at this time stamp; give each run its own time (SOURCE_DATE_EPOCH)",
                                     file: target)
                }
                throw OutputFailure(path: target, operation: "write a history record", code: code)
            }
            written += 1
        }
        return written
    }

    /// A result as history keeps it: the summaries and scenarios are the bulk, and no trend needs them.
    static func withoutSimulation(_ document: JSONValue) -> JSONValue {
        guard case .object(var members) = document, let index = members.firstIndex(where: { $0.0 == "apps" }),
              case .array(let apps) = members[index].1 else { return document }
        members[index].1 = .array(apps.map { app in
            guard case .object(let fields) = app else { return app }
            return .object(fields.map { $0.0 == "simulation" ? ($0.0, .null) : $0 })
        })
        return .object(members)
    }
}
