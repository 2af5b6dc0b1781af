import Checklist
import Manifest
import Summary

/// What every output writer needs beside the audits: the tool, and how to turn a finding's
/// site-relative path into one a CI system or reviewer can open from the repository root.
public struct OutputContext: Sendable {
    public var tool: ToolInfo
    /// The site folder relative to the current directory (the repository root in CI), "" when it is that folder.
    public var sitePrefix: String
    /// The absolute site folder: a few locations (the config file) are absolute and are made relative to it.
    public var siteDirectory: String
    /// Whether text-like outputs (text, markdown) list suppressed findings.
    public var showSuppressed: Bool
    /// The lowest severity that fails the check (`--fail-on`): JUnit marks only these as failures.
    public var failOn: Severity
    /// Whether the text output also lists what discovery found for each app (`--verbose`).
    public var verbose: Bool
    /// Whether the text output opens with each app's six answers (`--quiet` leaves them out).
    public var showsAnswers = true
    /// With `--changed-files` or `--since`: how many findings were left out, which every output says.
    public var changeScope: ChangeScope?
    /// With `--baseline`: how many active findings the baseline accepted (left out of the report).
    public var baselined: Int?
    /// The site's title and where the run's sources come from: JSON carries them so a site can be built from it.
    public var title = ProjectConfig.defaultTitle
    /// Where the site is published (the config's `base_url`): SARIF links each rule to its page there.
    public var baseURL = ""
    public var source = ResultSource()
    /// Each app's simulated summaries by app id, for the JSON (the site's summary pages and scenarios).
    public var summaries: [String: AppSummary] = [:]
    /// Where a finding's `path:line` links in the pull-request comment: the config's `source_url`,
    /// else the repository and commit of the GitHub Actions run (read by the CLI); nil: no links.
    public var findingLinks: SourceLinks?
    /// The published site (`base_url`), which the comment links; nil when the config gives none.
    public var siteURL: String?

    public init(tool: ToolInfo = ToolInfo(), sitePrefix: String = "", siteDirectory: String = "", showSuppressed: Bool = false,
                failOn: Severity = .error, verbose: Bool = false, changeScope: ChangeScope? = nil) {
        self.tool = tool; self.sitePrefix = sitePrefix; self.siteDirectory = siteDirectory; self.showSuppressed = showSuppressed
        self.failOn = failOn; self.verbose = verbose; self.changeScope = changeScope
    }

    /// `file` relative to the site folder, whether it was given relative or absolute.
    public func sitePath(_ file: String) -> String {
        if !siteDirectory.isEmpty, file.hasPrefix(siteDirectory + "/") { return String(file.dropFirst(siteDirectory.count + 1)) }
        return file
    }

    /// `file` relative to the current directory: `apps/x/Info.plist` → `Site/apps/x/Info.plist`.
    public func repositoryPath(_ file: String) -> String {
        let relative = sitePath(file)
        if relative.hasPrefix("/") || sitePrefix.isEmpty || sitePrefix == "." { return relative }
        return DisplayPath.join(sitePrefix, relative)
    }

    /// `Finding.fingerprint` with the path made site-relative first: findings located in the config
    /// carry its absolute path, which would tie their fingerprint to one checkout.
    public func fingerprint(_ finding: Finding) -> String {
        var portable = finding
        portable.location.file = sitePath(finding.location.file)
        return portable.fingerprint
    }

    /// Reports cite line 1 when the input has no lines (a binary plist).
    public static func line(_ location: FileLocation) -> Int { max(location.line ?? 1, 1) }
}

/// Active and suppressed counts by severity, shared by the summaries of every format.
public struct FindingCounts: Sendable, Hashable {
    public var errors = 0, warnings = 0, notes = 0, suppressed = 0
    public var active: Int { errors + warnings + notes }

    public init(_ findings: [Finding]) {
        for finding in findings {
            if finding.isSuppressed { suppressed += 1; continue }
            switch finding.severity {
            case .error: errors += 1
            case .warning: warnings += 1
            case .note: notes += 1
            }
        }
    }

    public init(_ audits: [AppAudit]) { self.init(audits.flatMap(\.findings)) }
}
