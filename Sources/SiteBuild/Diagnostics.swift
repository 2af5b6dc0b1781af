import Manifest

/// A problem raised by a build step, with the step that raised it.
public struct BuildDiagnostic: Sendable, CustomStringConvertible {
    public var step: String
    public var problem: InputProblem
    public var description: String { "\(problem.location): error: [\(step)] \(problem.message)" }
}

/// A step failed for a reason that is neither bad input nor an unwritable output: a bug in the
/// tool. Reported as such (exit 70), never dressed up as a problem of some input file.
public struct InternalFailure: Error, Sendable, CustomStringConvertible {
    public var step: String
    public var reason: String
    /// The failing step ran after the new site was swapped in.
    public var siteReplaced = false
    public var description: String { "error: internal error in step '\(step)': \(reason); this is a bug in healthaudit, please report it" }
    public var outcome: String { SiteOutcome.text(siteReplaced: siteReplaced) }

    public init(step: String, reason: String) { self.step = step; self.reason = reason }
}

/// What a failed build did to the output, for the last line of its message: only what is true.
enum SiteOutcome {
    static func text(siteReplaced: Bool) -> String {
        siteReplaced ? "the new site is in place, but the build did not finish" : "the previous site was left untouched"
    }
}

/// The new site is in place, but the history could not take this run's records (a full disk, a
/// build racing for the same history): everything else was checked before the site was replaced.
public struct HistoryWriteFailure: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var reason: String
    public var description: String {
        "\(path): error: cannot \(operation): \(reason); the new site is in place, but this run is not in the history yet (the next build records it)"
    }
}

/// The build failed on input; every problem found is listed, not just the first.
public struct BuildFailed: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [BuildDiagnostic]
    /// The failing step ran after the new site was swapped in.
    public var siteReplaced = false
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
    public var outcome: String { SiteOutcome.text(siteReplaced: siteReplaced) }

    public init(diagnostics: [BuildDiagnostic], siteReplaced: Bool = false) { self.diagnostics = diagnostics; self.siteReplaced = siteReplaced }

    /// The diagnostics with site-relative paths prefixed by `site` (e.g. `Site`), so they open from the terminal.
    public func description(sitePrefix site: String) -> String {
        diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            if !diagnostic.problem.location.file.hasPrefix("/"), !site.isEmpty, site != "." {
                diagnostic.problem.location.file = DisplayPath.join(site, diagnostic.problem.location.file)
            }
            return diagnostic.description
        }.joined(separator: "\n")
    }
}

/// Where the build reports progress (`[2/5] checking 4 apps`); tests pass a silent one.
public protocol BuildLog: Sendable {
    func step(_ index: Int, of count: Int, _ message: String)
    /// Something the user should know while a step runs ("waiting for another build").
    func note(_ message: String)
}

extension BuildLog {
    public func note(_ message: String) {}
}

public struct StandardErrorLog: BuildLog {
    public init() {}
    public func step(_ index: Int, of count: Int, _ message: String) {
        FileHandleOutput.standardError("[\(index)/\(count)] \(message)\n")
    }
    public func note(_ message: String) {
        FileHandleOutput.standardError("note: \(message)\n")
    }
}

public struct SilentLog: BuildLog {
    public init() {}
    public func step(_ index: Int, of count: Int, _ message: String) {}
}

import Foundation

enum FileHandleOutput {
    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// The build's time: "today" when the config gives no summary range, and the date `--history`
/// keys a run by. Pinned in tests.
public protocol BuildClock: Sendable {
    func today(in timeZone: TimeZone) -> DayDate
    func now() -> Date
}

/// The system's time, or `SOURCE_DATE_EPOCH` when it is set (reproducible builds: the same inputs
/// and the same epoch give the same site and the same history record).
public struct SystemClock: BuildClock {
    let epoch: Date?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        epoch = environment["SOURCE_DATE_EPOCH"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    public func now() -> Date { epoch ?? Date() }

    public func today(in timeZone: TimeZone) -> DayDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: now())
        return DayDate(year: parts.year!, month: parts.month!, day: parts.day!)
    }
}

public struct FixedClock: BuildClock {
    let day: DayDate
    let moment: Date?
    /// `moment`: the run's time (default: noon UTC of `day`).
    public init(_ day: DayDate, moment: Date? = nil) { self.day = day; self.moment = moment }
    public func today(in timeZone: TimeZone) -> DayDate { day }
    public func now() -> Date { moment ?? Date(timeIntervalSince1970: TimeInterval(day.dayNumber * 86_400 + 43_200)) }
}
