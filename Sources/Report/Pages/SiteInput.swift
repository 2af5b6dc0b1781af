import Checklist
import Foundation
import Manifest
import Summary

/// Everything the renderer turns into pages: the site's title, each app's report (from a source
/// build or from results) and the site's own content pages.
public struct SiteInput: Sendable {
    public var title: String
    public var apps: [AppReport]
    public var contentPages: [ContentPage]
    /// Findings over the recorded runs (`--history`); nil: the pages have no history section.
    public var history: FindingHistory?
    /// Where the site is published (`base_url`): only `404.html`, which answers at any depth, uses it.
    public var baseURL = ""
    /// What every page's footer names.
    public var footer = SiteFooter()
    /// A digest of everything `apps` and `history` were made from, so pages showing them can be
    /// reused when it is unchanged; nil: those pages are always rendered.
    public var appsDigest: String?

    public init(title: String, apps: [AppReport], contentPages: [ContentPage] = [], history: FindingHistory? = nil) {
        self.title = title; self.apps = apps; self.contentPages = contentPages; self.history = history
    }
}

/// What every page's footer names: the tool's version, the commit audited and the run's date
/// (`SOURCE_DATE_EPOCH` when set, so a rebuild of the same inputs is byte-identical).
public struct SiteFooter: Sendable, Hashable {
    public var version: String
    /// The audited commit, nil outside a repository (or when the results disagree).
    public var commit: String?
    /// `YYYY-MM-DD`, UTC.
    public var date: String?

    public init(version: String = ToolInfo.currentVersion, commit: String? = nil, date: Date? = nil) {
        self.version = version; self.commit = commit
        self.date = date.map { Self.day($0) }
    }

    static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// `20260401T120000Z` (a history stamp) → `2026-04-01`; nil for anything else.
    public static func day(stamp: String) -> String? {
        let digits = Array(stamp.utf8.prefix(8))
        guard digits.count == 8, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let text = String(decoding: digits, as: UTF8.self)
        return "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))"
    }

    /// The layout's values: the commit shortened to 12 characters, as git shows it.
    struct Model: TemplateModel {
        var version: String
        var commit: String?
        var date: String?
    }

    var model: Model { Model(version: version, commit: commit.map { String($0.prefix(12)) }, date: date) }
}

/// One file of the output site. `path` is relative to the output folder and built only from
/// validated ids and sanitized names.
public struct OutputFile: Sendable, Hashable {
    public var path: String
    public var data: Data
    public init(path: String, data: Data) { self.path = path; self.data = data }
    public init(path: String, text: String) { self.init(path: path, data: Data(text.utf8)) }
}

/// A file of the plan: its path, the key of its inputs (nil: always rendered) and how to render it.
public struct PendingFile: Sendable {
    public var path: String
    public var key: String?
    public var render: @Sendable () -> Data

    public init(path: String, key: String?, render: @escaping @Sendable () -> Data) {
        self.path = path; self.key = key; self.render = render
    }

    static func later(_ path: String, key: String?, _ make: @escaping @Sendable () -> OutputFile) -> PendingFile {
        PendingFile(path: path, key: key) { make().data }
    }
}

/// The URLs of the site, all relative, so it works from disk, zipped or under a sub-path.
public enum SitePaths {
    public static let index = "index.html"
    public static let rulesIndex = "rules/index.html"
    public static let notFound = "404.html"
    public static func app(_ id: String) -> String { "apps/\(id)/index.html" }
    public static func rule(_ id: String) -> String { "rules/\(id).html" }
    public static func summary(_ app: String) -> String { "apps/\(app)/summary/index.html" }
    public static func day(_ app: String, _ day: String) -> String { "apps/\(app)/summary/\(day).html" }

    /// The prefix that leads from `page` back to the site root: `apps/x/index.html` → `../../`.
    public static func root(from page: String) -> String {
        String(repeating: "../", count: page.split(separator: "/").count - 1)
    }

    /// `target` as seen from `page`: the shared folders dropped, `../` for each folder left.
    public static func link(from page: String, to target: String) -> String {
        let from = page.split(separator: "/").dropLast()
        let to = target.split(separator: "/")
        var shared = 0
        while shared < from.count, shared < to.count - 1, from[from.startIndex + shared] == to[shared] { shared += 1 }
        return String(repeating: "../", count: from.count - shared) + to.dropFirst(shared).joined(separator: "/")
    }
}
