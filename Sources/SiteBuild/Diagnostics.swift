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
    /// The output held a site before this build.
    public var hadPreviousSite = true
    public var description: String { "error: internal error in step '\(step)': \(reason); this is a bug in healthaudit, please report it" }
    public var outcome: String { SiteOutcome.text(siteReplaced: siteReplaced, hadPreviousSite: hadPreviousSite) }

    public init(step: String, reason: String) { self.step = step; self.reason = reason }
}

/// What a failed build did to the output, for the last line of its message: only what is true.
enum SiteOutcome {
    static func text(siteReplaced: Bool, hadPreviousSite: Bool) -> String {
        if siteReplaced { return "the new site is in place, but the build did not finish" }
        return hadPreviousSite ? "the previous site was left untouched" : "no site was written"
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
    /// The output held a site before this build.
    public var hadPreviousSite = true
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
    public var outcome: String { SiteOutcome.text(siteReplaced: siteReplaced, hadPreviousSite: hadPreviousSite) }

    public init(diagnostics: [BuildDiagnostic], siteReplaced: Bool = false) { self.diagnostics = diagnostics; self.siteReplaced = siteReplaced }

    /// The diagnostics with site-relative paths prefixed by `site` (e.g. `Site`), so they open from the terminal.
    public func description(sitePrefix site: String) -> String {
        lines(sitePrefix: site).joined(separator: "\n")
    }

    /// One line per diagnostic, for `Console` (which keeps each one a line whatever its text holds).
    public func lines(sitePrefix site: String) -> [String] {
        diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            if !diagnostic.problem.location.file.hasPrefix("/"), !site.isEmpty, site != "." {
                diagnostic.problem.location.file = DisplayPath.join(site, diagnostic.problem.location.file)
            }
            return diagnostic.description
        }
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
        Console.error("[\(index)/\(count)] \(message)")
    }
    public func note(_ message: String) {
        Console.error("note: \(message)")
    }
}

public struct SilentLog: BuildLog {
    public init() {}
    public func step(_ index: Int, of count: Int, _ message: String) {}
}

import Foundation

/// The build's time: "today" when the config gives no summary range, and the date `--history`
/// keys a run by. Pinned in tests.
public protocol BuildClock: Sendable {
    func today(in timeZone: TimeZone) -> DayDate
    func now() -> Date
}

/// `SOURCE_DATE_EPOCH` (reproducible-builds.org): the run's time as decimal seconds since
/// 1970-01-01 UTC. Only times a history record can be named by (`20260401T120000Z`, four-digit
/// years) are taken: 0 through 253402300799 (9999-12-31T23:59:59Z). Anything else — a sign, a
/// fraction, a number beyond that — is refused with exit 2 before any command runs, never
/// trapping in the calendar nor writing a record no build would read back.
public enum SourceDateEpoch {
    public static let variable = "SOURCE_DATE_EPOCH"
    public static let latest = 253_402_300_799

    public struct Invalid: Error, CustomStringConvertible {
        public var value: String
        public var description: String {
            "error: \(SourceDateEpoch.variable) is '\(value)': it must be whole seconds since 1970-01-01 UTC, "
                + "from 0 to \(SourceDateEpoch.latest) (9999-12-31T23:59:59Z)"
        }
    }

    /// The time the environment sets; nil when the variable is unset or empty.
    public static func date(in environment: [String: String] = ProcessInfo.processInfo.environment) throws(Invalid) -> Date? {
        guard let raw = environment[variable] else { return nil }
        let value = raw.trimmingCharacters(in: .whitespaces)
        if value.isEmpty { return nil }
        // Digits only (no sign, no `+`, no `_`), at most twelve: Int never overflows.
        guard value.count <= 12, value.utf8.allSatisfy({ (48...57).contains($0) }), let seconds = Int(value), seconds <= latest else {
            throw Invalid(value: raw)
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

/// The system's time, or `SOURCE_DATE_EPOCH` when it is set (reproducible builds: the same inputs
/// and the same epoch give the same site and the same history record).
public struct SystemClock: BuildClock {
    let epoch: Date?

    /// An invalid `SOURCE_DATE_EPOCH` is the command line's to refuse (`SourceDateEpoch.date`);
    /// here it is never trusted, so no value can reach the calendar out of range.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        epoch = (try? SourceDateEpoch.date(in: environment)) ?? nil
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
