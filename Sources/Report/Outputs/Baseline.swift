import Checklist
import Foundation
import Manifest

/// One accepted finding in a baseline file. `fingerprint` (rule, file, normalized quote) is what
/// matches; the rest is there so a reviewer can read the file.
public struct BaselineEntry: Sendable, Hashable, Codable, Comparable {
    public var app: String?
    public var ruleId: String
    /// Relative to the site folder, as in the finding.
    public var path: String
    public var fingerprint: String
    public var message: String

    public init(app: String?, ruleId: String, path: String, fingerprint: String, message: String) {
        self.app = app; self.ruleId = ruleId; self.path = path; self.fingerprint = fingerprint; self.message = message
    }

    public static func < (a: BaselineEntry, b: BaselineEntry) -> Bool {
        (a.app ?? "", a.path, a.ruleId, a.fingerprint, a.message) < (b.app ?? "", b.path, b.ruleId, b.fingerprint, b.message)
    }

    var key: String { ruleId + "|" + fingerprint }
}

/// Known findings accepted so CI fails only on new ones (`--baseline`, `--write-baseline`), as
/// SwiftLint's baselines do. Suppressed findings are never baselined: they already do not count.
public struct Baseline: Sendable, Hashable {
    public static let schemaVersion = 1
    public var entries: [BaselineEntry]

    public init(entries: [BaselineEntry]) { self.entries = entries.sorted() }

    public init(audits: [AppAudit], context: OutputContext) {
        self.init(entries: audits.flatMap { audit in
            audit.activeFindings.map {
                BaselineEntry(app: audit.manifest.id, ruleId: $0.ruleID, path: context.sitePath($0.location.file),
                              fingerprint: context.fingerprint($0), message: $0.message)
            }
        })
    }

    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads a baseline file's text; an unknown schema version or a malformed file is an input error.
    public init(json: Data) throws {
        struct File: Decodable { var schemaVersion: Int; var findings: [BaselineEntry] }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: json) } catch {
            throw FormatError(description: "not a healthaudit baseline (expected {\"schemaVersion\": 1, \"findings\": [...]}): \(Self.describe(error))")
        }
        guard file.schemaVersion == Self.schemaVersion else {
            throw FormatError(description: "baseline schemaVersion \(file.schemaVersion) is not supported (this tool reads version \(Self.schemaVersion))")
        }
        self.init(entries: file.findings)
    }

    public func serialized() -> String {
        JSONValue.object([
            ("schemaVersion", .int(Self.schemaVersion)),
            ("findings", .array(entries.map { entry in
                .object([
                    ("app", .optional(entry.app)), ("ruleId", .string(entry.ruleId)), ("path", .string(entry.path)),
                    ("fingerprint", .string(entry.fingerprint)), ("message", .string(entry.message)),
                ])
            })),
        ]).serialized()
    }

    /// The audits with baselined findings removed, and the baseline entries no finding matched.
    /// Matching counts: two identical findings need two entries. Entries of apps not audited
    /// (`--app`) are neither matched nor reported absent.
    public func compare(_ audits: [AppAudit], context: OutputContext) -> BaselineComparison {
        var match = MultisetMatch(entries.map(\.key))
        var matched = 0
        let filtered = audits.map { audit -> AppAudit in
            var audit = audit
            audit.findings = audit.findings.filter { finding in
                guard !finding.isSuppressed, match.take(finding.ruleID + "|" + context.fingerprint(finding)) else { return true }
                matched += 1
                return false
            }
            return audit
        }
        let audited = Set(audits.map(\.manifest.id))
        let absent = match.unmatched(entries, key: \.key).filter { entry in entry.app.map(audited.contains) ?? true }
        return BaselineComparison(audits: filtered, matched: matched, absent: absent.sorted())
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing key '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at '" + context.codingPath.map(\.stringValue).joined(separator: ".") + "'"
        default: return "the file is not valid JSON"
        }
    }
}

public struct BaselineComparison: Sendable {
    /// The audits with accepted findings taken out: only new findings remain (suppressed ones stay, marked).
    public var audits: [AppAudit]
    public var matched: Int
    /// Accepted findings that no longer occur: with `--strict-baseline` the baseline must shrink.
    public var absent: [BaselineEntry]
}
