import Checklist
import Foundation
import Manifest

/// One `check --format json` result, read back for `build --results`.
public struct CheckResult: Sendable {
    public var toolVersion: String
    public var title: String
    public var source: ResultSource
    /// Each app as the site shows it: locations relative to the site folder, links from `source`.
    public var apps: [AppReport]
    /// The check reported only the findings on changed lines (`--since`, `--changed-files`).
    public var isPartial: Bool
}

/// Reads and validates a result: the strict parser first (its limits on size, depth and text),
/// then `ResultFormat` decoded from what it parsed. Nothing in it is trusted: app ids must be
/// folder-safe, rule ids known to this tool, the source link an http(s) template, the commit a
/// hash, every number within its range; every text is escaped later by the pages like any input.
public enum ResultReader {
    public static func read(_ data: Data) throws(ResultFormatError) -> CheckResult {
        let root: JSONValue
        do { root = try JSONParser.parse(data) } catch { throw ResultFormatError(path: "", message: "not valid JSON: \(error)") }
        return try read(root)
    }

    public static func read(_ root: JSONValue) throws(ResultFormatError) -> CheckResult {
        let node = JSONNode(root)
        let document = try decode(node)
        let paths = ResultPaths(site: document.site)
        let source = self.source(document.source)
        let links = source.links
        var apps: [AppReport] = []
        var seen = Set<String>()
        for (index, app) in document.apps.enumerated() {
            guard seen.insert(app.id).inserted else {
                throw try node.field("apps").array()[index].field("id").problem("app id '\(app.id)' appears twice in this result")
            }
            var report = AppReader(paths: paths).app(app)
            report.sourceLinks = links
            apps.append(report)
        }
        let partial = document.summary.outsideChangedLines != nil || document.summary.baselined != nil
        return CheckResult(toolVersion: document.tool.version, title: document.title, source: source, apps: apps, isPartial: partial)
    }

    /// The document, once its version and tool are known to be this one's: the version says how
    /// to read the rest, and the writer's version is named when a rule is not known here.
    static func decode(_ root: JSONNode) throws(ResultFormatError) -> ResultFormat.Document {
        try checkVersion(root)
        let header = try ResultDecoder.decode(ResultFormat.Header.self, from: root, context: .init(writer: ""))
        guard header.tool.name == ToolInfo().name else { throw try root.field("tool").field("name").problem("not a healthaudit result") }
        return try ResultDecoder.decode(ResultFormat.Document.self, from: root, context: .init(writer: header.tool.version))
    }

    /// What history needs of a result: the commit and each app's active findings by rule and
    /// fingerprint (the fingerprints as written, which is what `--baseline` matches too). Nothing
    /// else of the result is kept: its other members are untrusted and may be any size.
    public static func historyRecord(_ root: JSONValue, stamp: String) throws(ResultFormatError) -> HistoryRecord {
        let node = JSONNode(root)
        try checkVersion(node)
        let commit = try ResultDecoder.decode(ResultFormat.Source.self, from: node.field("source"), context: .init(writer: "")).commit
        var apps: [(id: String, findings: [FindingKey])] = []
        for app in try node.field("apps").array() {
            var keys: [FindingKey] = []
            for finding in try app.field("findings").array() where try finding.optionalField("suppressed") == nil {
                keys.append(try HistoryRecordFormat.key(finding))
            }
            apps.append((try HistoryRecordFormat.appID(app.field("id")), keys))
        }
        return HistoryRecord(stamp: stamp, commit: commit, apps: apps)
    }

    /// A commit hash: 40 or 64 lowercase hexadecimal digits (history keys records by it).
    static func commit(_ node: JSONNode) throws(ResultFormatError) -> String {
        let text = try node.string()
        guard ResultFormat.Source.isCommit(text) else { throw node.problem("expected a commit hash (40 or 64 lowercase hexadecimal digits)") }
        return text
    }

    /// Results of another schema are refused with what to do, not half-read.
    static func checkVersion(_ root: JSONNode) throws(ResultFormatError) {
        let node = try root.field("schemaVersion")
        let version = try node.int(in: ResultRanges.schemaVersion)
        guard version == JSONReport.schemaVersion else {
            throw node.problem("schemaVersion \(version) is not read by this healthaudit (it reads \(JSONReport.schemaVersion)): write the result with `healthaudit check --format json` of version \(ToolInfo.currentVersion)")
        }
    }

    /// The source as decoded (and checked): the site's path without `.` parts.
    static func source(_ source: ResultFormat.Source) -> ResultSource {
        var result = ResultSource()
        result.commit = source.commit
        result.urlTemplate = source.urlTemplate
        result.sitePath = ResultFormat.Source.normalized(source.sitePath) ?? ""
        return result
    }
}

/// Paths in a result are relative to the folder `check` ran in; pages show them relative to the
/// site folder, as a source build does (`Site/apps/x/Info.plist` → `apps/x/Info.plist`).
struct ResultPaths {
    let site: String

    func siteRelative(_ path: String) -> String {
        guard !path.hasPrefix("/"), site != "." else { return path }
        if path == site { return "." }
        if path.hasPrefix(site + "/") { return String(path.dropFirst(site.count + 1)) }
        // Outside the site folder (`root: ../MyApp`): climb out of it, when the site's path says how.
        let siteParts = site.split(separator: "/"), pathParts = path.split(separator: "/")
        guard !siteParts.contains(".."), pathParts.first != ".." else { return path }
        var shared = 0
        while shared < siteParts.count, shared < pathParts.count, siteParts[shared] == pathParts[shared] { shared += 1 }
        return (Array(repeating: "..", count: siteParts.count - shared) + pathParts.dropFirst(shared).map(String.init)).joined(separator: "/")
    }

    func location(_ location: ResultFormat.Location) -> FileLocation {
        FileLocation(file: siteRelative(location.path), line: location.line?.value, column: location.column?.value)
    }
}
