import Foundation
import Manifest
import Report

/// The results of many `check --format json` runs (one per repository or CI job) that
/// `build --results DIR` renders, without reading any source.
public struct ResultSet: Sendable {
    public var title: String
    public var apps: [AppReport]
    /// Each result as history keeps it, in file order (with `--history`).
    public var runs: [HistoryStore.Run]
    /// Every file read, with its digest: the build cache's key.
    public var record: [String]
    public var resultCount: Int { record.count }
}

/// Reads every `*.json` of the results folder; every problem of every file is collected, each
/// naming its file (and line for JSON that does not parse), and the build stops before writing.
enum ResultFolder {
    /// One result file may hold a monorepo's 200 apps with their summaries.
    static let maxFileBytes = 64 * 1024 * 1024
    static let maxApps = 5_000

    private struct Loaded: Sendable {
        var name: String
        var result: CheckResult?
        /// What history keeps of it; the parsed document itself is dropped once read.
        var record: HistoryRecord?
        var digest = ""
        var byteCount = 0
        var problems: [InputProblem] = []
    }

    /// `keepingHistory`: each result's record for `--history`, whose origins (the file names) must not collide.
    static func load(_ directory: String, title: String?, keepingHistory: Bool = false) throws -> ResultSet {
        let fileSystem = LocalFileSystem(confinedTo: [directory])
        let names: [String]
        do {
            names = try fileSystem.entries(in: directory).filter { !$0.isFolder && $0.name.hasSuffix(".json") && !$0.name.hasPrefix(".") }.map(\.name)
        } catch let error as InputError { throw error } catch {
            throw InputError("the results folder cannot be read: \(error)", file: directory)
        }
        guard !names.isEmpty else {
            throw InputError("no results here: put the *.json of `healthaudit check --format json` runs in this folder", file: directory)
        }
        // Sizes and count first: nothing is read when the folder is already over the limits.
        let total = names.reduce(0) { sum, name in
            var info = stat()
            return sum + (lstat(directory + "/" + name, &info) == 0 ? Int(info.st_size) : 0)
        }
        if total > InputLimits.maxBytesPerRun {
            throw InputError("the results hold more than \(ByteCount.text(InputLimits.maxBytesPerRun)) in all", file: directory)
        }
        if names.count > maxApps { throw InputError("\(names.count) result files, over the limit of \(maxApps) apps", file: directory) }
        let loaded = ParallelMap.map(names) { name in read(name, in: directory, fileSystem: fileSystem, keepingHistory: keepingHistory) }
        var problems = loaded.flatMap(\.problems)
        if keepingHistory { problems += HistoryStore.collidingOrigins(names) }
        var apps: [AppReport] = [], runs: [HistoryStore.Run] = []
        var owner: [String: String] = [:]
        for file in loaded {
            guard let result = file.result else { continue }
            for app in result.apps {
                if let first = owner[app.id] {
                    problems.append(InputProblem("app id '\(app.id)' is also in \(first): give each app an id of its own in its healthaudit.yml (the id is the app's folder on the site, e.g. prefix it with the repository's name)",
                                                 at: FileLocation(file: file.name)))
                    continue
                }
                owner[app.id] = file.name
                apps.append(app)
            }
            if let record = file.record { runs.append(HistoryStore.Run(origin: file.name, record: record)) }
        }
        if apps.count > maxApps { problems.append(InputProblem("\(apps.count) apps in all, over the limit of \(maxApps)", at: FileLocation(file: directory))) }
        if loaded.reduce(0, { $0 + $1.byteCount }) > InputLimits.maxBytesPerRun {
            problems.append(InputProblem("the results hold more than \(ByteCount.text(InputLimits.maxBytesPerRun)) in all", at: FileLocation(file: directory)))
        }
        if !problems.isEmpty { throw InputError(problems) }
        let titles = Set(loaded.compactMap { $0.result?.title })
        return ResultSet(title: title ?? (titles.count == 1 ? titles.first! : ProjectConfig.defaultTitle), apps: apps, runs: runs,
                         record: loaded.map { "result \($0.name) \($0.digest)" })
    }

    private static func read(_ name: String, in directory: String, fileSystem: LocalFileSystem, keepingHistory: Bool) -> Loaded {
        var loaded = Loaded(name: name)
        let data: Data
        do { data = try fileSystem.contents(of: directory + "/" + name, limit: maxFileBytes) } catch let error as InputError {
            loaded.problems = error.problems.map { InputProblem($0.message, at: FileLocation(file: name)) }
            return loaded
        } catch {
            loaded.problems = [InputProblem("cannot be read: \(error)", at: FileLocation(file: name))]
            return loaded
        }
        loaded.digest = StableDigest.hex(data)
        loaded.byteCount = data.count
        let root: JSONValue
        do { root = try JSONParser.parse(data) } catch {
            loaded.problems = [InputProblem("not valid JSON: \(error.message)", at: FileLocation(file: name, line: error.line, column: error.column))]
            return loaded
        }
        do {
            let result = try ResultReader.read(root)
            if result.isPartial {
                loaded.problems = [InputProblem("this result lists only part of the findings (check --since, --changed-files or --baseline); give build --results the full check of each repository",
                                                at: FileLocation(file: name))]
                return loaded
            }
            loaded.result = result
            if keepingHistory { loaded.record = try ResultReader.historyRecord(root, stamp: "") }
        } catch {
            loaded.problems = [InputProblem("not a healthaudit result: \(error)", at: FileLocation(file: name))]
        }
        return loaded
    }
}
