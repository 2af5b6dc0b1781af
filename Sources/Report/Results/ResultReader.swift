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

/// Reads and validates a result. Nothing in it is trusted: app ids must be folder-safe, rule ids
/// known to this tool, the source link an http(s) template, the commit a hash; every text is
/// escaped later by the pages like any input.
public enum ResultReader {
    public static func read(_ data: Data) throws(ResultFormatError) -> CheckResult {
        let root: JSONValue
        do { root = try JSONParser.parse(data) } catch { throw ResultFormatError(path: "", message: "not valid JSON: \(error)") }
        return try read(JSONNode(root))
    }

    public static func read(_ root: JSONValue) throws(ResultFormatError) -> CheckResult { try read(JSONNode(root)) }

    /// What history needs of a result: the commit and each app's active findings by rule and
    /// fingerprint (the fingerprints as written, which is what `--baseline` matches too). Nothing
    /// else of the result is kept: its other members are untrusted and may be any size.
    public static func historyRecord(_ root: JSONValue, stamp: String) throws(ResultFormatError) -> HistoryRecord {
        let node = JSONNode(root)
        try checkVersion(node)
        let commit = try source(node.field("source")).commit
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

    static func read(_ root: JSONNode) throws(ResultFormatError) -> CheckResult {
        try checkVersion(root)
        let tool = try root.field("tool")
        let version = try tool.field("version").string()
        guard try tool.field("name").string() == ToolInfo().name else { throw try tool.field("name").problem("not a healthaudit result") }
        let paths = ResultPaths(site: try root.field("site").string())
        let source = try self.source(root.field("source"))
        let links = source.links
        var apps: [AppReport] = []
        var seen = Set<String>()
        for node in try root.field("apps").array() {
            var app = try AppReader(paths: paths, writer: version).app(node)
            guard seen.insert(app.id).inserted else { throw try node.field("id").problem("app id '\(app.id)' appears twice in this result") }
            app.sourceLinks = links
            apps.append(app)
        }
        let summary = try root.field("summary")
        let changedLinesOnly = try summary.optionalField("outsideChangedLines") != nil
        let baselined = try summary.optionalField("baselined") != nil
        let partial = changedLinesOnly || baselined
        return CheckResult(toolVersion: version, title: try root.field("title").string(), source: source, apps: apps, isPartial: partial)
    }

    /// A commit hash: 40 or 64 lowercase hexadecimal digits (history keys records by it).
    static func commit(_ node: JSONNode) throws(ResultFormatError) -> String {
        let text = try node.string()
        guard text.utf8.count == 40 || text.utf8.count == 64, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw node.problem("expected a commit hash (40 or 64 lowercase hexadecimal digits)")
        }
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

    static func source(_ node: JSONNode) throws(ResultFormatError) -> ResultSource {
        var source = ResultSource()
        source.commit = try node.optionalField("commit").map(commit)
        if let template = try node.optionalField("urlTemplate") {
            let text = try template.string()
            if let problem = SourceLinks.problem(text) { throw template.problem(problem) }
            source.urlTemplate = text
        }
        let sitePath = try node.field("sitePath")
        let text = try sitePath.string()
        guard !text.hasPrefix("/"), let normalized = try? ContainedPath.resolve(text, in: "") else {
            throw sitePath.problem("expected a folder inside the repository")
        }
        source.sitePath = String(normalized.drop { $0 == "/" })
        return source
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

    func location(_ node: JSONNode) throws(ResultFormatError) -> FileLocation {
        let path = try node.field("path").string()
        guard !path.isEmpty else { throw try node.field("path").problem("empty path") }
        let line = try node.optionalField("line")?.int(in: ResultRanges.line), column = try node.optionalField("column")?.int(in: ResultRanges.line)
        return FileLocation(file: siteRelative(path), line: line, column: column)
    }
}
