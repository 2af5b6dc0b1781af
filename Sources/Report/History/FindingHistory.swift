/// A finding as runs are compared: its rule and fingerprint (rule, file, normalized quote — never
/// the line), exactly what `--baseline` matches on, so an edit above a finding does not make it new.
public struct FindingKey: Sendable, Hashable, Comparable {
    public var rule: String
    public var fingerprint: String
    public init(rule: String, fingerprint: String) { self.rule = rule; self.fingerprint = fingerprint }
    public static func < (a: FindingKey, b: FindingKey) -> Bool { (a.rule, a.fingerprint) < (b.rule, b.fingerprint) }
}

/// Matches findings of two runs as a multiset: each earlier finding matches one later finding with
/// the same key, so two identical findings need two matches. `--baseline` and `--history` share it.
struct MultisetMatch<Key: Hashable> {
    private var remaining: [Key: Int] = [:]

    init(_ earlier: [Key]) { for key in earlier { remaining[key, default: 0] += 1 } }

    /// Whether `key` matches an earlier finding not matched yet (and uses it up).
    mutating func take(_ key: Key) -> Bool {
        guard let count = remaining[key], count > 0 else { return false }
        remaining[key] = count - 1
        return true
    }

    /// The earlier items no later finding matched, the last of equal ones first.
    mutating func unmatched<Item>(_ earlier: [Item], key: (Item) -> Key) -> [Item] {
        var result: [Item] = []
        for item in earlier.reversed() where remaining[key(item), default: 0] > 0 {
            remaining[key(item)]! -= 1
            result.append(item)
        }
        return result
    }
}

/// How one run's findings compare with the previous run's, matched as a baseline matches.
public struct FindingChange: Sendable, Hashable {
    public var new: [FindingKey] = []
    public var fixed: [FindingKey] = []
    public var unchanged = 0

    public init(previous: [FindingKey], current: [FindingKey]) {
        var match = MultisetMatch(previous)
        for key in current {
            if match.take(key) { unchanged += 1 } else { new.append(key) }
        }
        fixed = match.unmatched(previous) { $0 }.sorted()
    }
}

/// One recorded run of one result (`--history`): when, at which commit, each app's active findings.
public struct HistoryRecord: Sendable {
    /// `20260401T120000Z`: the run's UTC time, which sorts as text.
    public var stamp: String
    public var commit: String?
    public var apps: [(id: String, findings: [FindingKey])]

    public init(stamp: String, commit: String?, apps: [(id: String, findings: [FindingKey])]) {
        self.stamp = stamp; self.commit = commit; self.apps = apps
    }

    /// The same findings for the same apps: recording it again would add nothing.
    public func sameFindings(as other: HistoryRecord) -> Bool {
        apps.map(\.id) == other.apps.map(\.id) && zip(apps, other.apps).allSatisfy { $0.findings.sorted() == $1.findings.sorted() }
    }
}

/// One point of a trend: the findings after a run, and how they changed since the run before.
public struct TrendPoint: Sendable, Hashable {
    public var stamp: String
    /// The app's commit in that run (app trends only).
    public var commit: String?
    public var total: Int
    public var new: Int
    public var fixed: Int
    /// Present before and still present: `total - new`.
    public var unchanged: Int { total - new }
    /// Nothing was recorded before: every finding counts as new.
    public var isFirst: Bool
}

/// Findings over time, per app, per rule and for the whole site, from the recorded runs. Runs are
/// the distinct stamps; an app not recorded in a run keeps its last findings (it did not change).
/// Only the apps the site shows count (`showing`): a repository that left the fleet leaves the
/// site's and the rules' trends too, past runs included, so they always describe the same apps.
public struct FindingHistory: Sendable {
    public private(set) var apps: [String: [TrendPoint]] = [:]
    public private(set) var rules: [String: [TrendPoint]] = [:]
    public private(set) var site: [TrendPoint] = []

    public init(records: [HistoryRecord], showing shown: Set<String>? = nil) {
        var latest: [String: [FindingKey]] = [:]
        let kept = records.map { record in
            var record = record
            if let shown { record.apps = record.apps.filter { shown.contains($0.id) } }
            return record
        }
        let byStamp = Dictionary(grouping: kept.filter { !$0.apps.isEmpty }, by: \.stamp)
        for stamp in byStamp.keys.sorted() {
            var new: [String: Int] = [:], fixed: [String: Int] = [:]
            var siteNew = 0, siteFixed = 0
            for record in byStamp[stamp]! {
                for app in record.apps {
                    let previous = latest[app.id]
                    let change = FindingChange(previous: previous ?? [], current: app.findings)
                    apps[app.id, default: []].append(TrendPoint(stamp: stamp, commit: record.commit, total: app.findings.count,
                                                                new: change.new.count, fixed: change.fixed.count, isFirst: previous == nil))
                    for key in change.new { new[key.rule, default: 0] += 1 }
                    for key in change.fixed { fixed[key.rule, default: 0] += 1 }
                    siteNew += change.new.count
                    siteFixed += change.fixed.count
                    latest[app.id] = app.findings
                }
            }
            var totals: [String: Int] = [:]
            for findings in latest.values { for key in findings { totals[key.rule, default: 0] += 1 } }
            site.append(TrendPoint(stamp: stamp, total: totals.values.reduce(0, +), new: siteNew, fixed: siteFixed, isFirst: site.isEmpty))
            // A rule's trend starts when it first reports and goes on, at zero when it is fixed everywhere.
            for rule in Set(totals.keys).union(fixed.keys).union(rules.keys) {
                rules[rule, default: []].append(TrendPoint(stamp: stamp, total: totals[rule] ?? 0, new: new[rule] ?? 0, fixed: fixed[rule] ?? 0,
                                                           isFirst: rules[rule] == nil))
            }
        }
    }

    /// `20260401T120000Z` → `2026-04-01 12:00 UTC`.
    public static func date(_ stamp: String) -> String {
        let characters = Array(stamp)
        guard characters.count == 16 else { return stamp }
        let text = String(characters)
        func part(_ from: Int, _ length: Int) -> Substring { text.dropFirst(from).prefix(length) }
        return "\(part(0, 4))-\(part(4, 2))-\(part(6, 2)) \(part(9, 2)):\(part(11, 2)) UTC"
    }
}
