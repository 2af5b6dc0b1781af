import Foundation
import Manifest
import Report

/// One hash over everything a build reads, so an unchanged site is recognized without auditing it
/// again: every question the `load` step asked of the file system (files with their digests,
/// existence checks, folder listings), the tool binary and the summary days actually used.
enum InputDigest {
    static func compute(record: [String], options: BuildOptions, summaryRange: DayRange?) -> String {
        var parts: [String] = ["tool " + options.toolFingerprint, "site " + options.siteDirectory, "templates " + (options.templatesDirectory ?? "(built-in)")]
        if let summaryRange { parts.append("days \(summaryRange.from)...\(summaryRange.to)") }
        parts += record
        return StableDigest.hex(Data(parts.joined(separator: "\n").utf8))
    }
}

/// The running binary: version plus its size and modification time, so a rebuilt tool (same
/// version string, new code) never trusts the cache of the old one — `serve` included.
public enum ToolFingerprint {
    public static func current() -> String {
        of(binary: Bundle.main.executablePath ?? CommandLine.arguments[0])
    }

    public static func of(binary: String) -> String {
        var info = stat()
        guard stat(binary, &info) == 0 else { return ToolInfo.currentVersion }
        #if os(Linux)
        let modified = info.st_mtim
        #else
        let modified = info.st_mtimespec
        #endif
        return "\(ToolInfo.currentVersion)|\(info.st_size)|\(modified.tv_sec).\(modified.tv_nsec)"
    }
}

extension BuildOptions {
    /// The days the summaries cover: the config's range, else the week ending today in its time zone.
    func summaryRange(for config: ProjectConfig) -> DayRange {
        let zone = TimeZone(identifier: config.timeZone) ?? TimeZone(identifier: "UTC")!
        return config.summaries ?? DayRange.week(endingOn: clock.today(in: zone))
    }
}
