import Foundation
import Manifest

/// A record as `--history` keeps it: only what the trend needs, the run's commit and each app's
/// active findings as rule and fingerprint pairs, whatever else the result carried (results are
/// untrusted, and every later build reads the records):
///
///     {"historyRecord": 1, "commit": "0123…", "apps": [{"id": "pace", "findings": [{"ruleId": "…", "fingerprint": "…"}]}]}
///
/// Records of earlier versions, the whole result less its simulation, still read.
public enum HistoryRecordFormat {
    public static let version = 1
    /// Rule ids and fingerprints are short: `check` writes rule ids of this catalog and SHA-256 prefixes.
    static let maxKeyBytes = 64

    public static func document(_ record: HistoryRecord) -> JSONValue {
        .object([
            ("historyRecord", .int(version)),
            ("commit", .optional(record.commit)),
            ("apps", .array(record.apps.map { app in
                .object([("id", .string(app.id)), ("findings", .array(app.findings.map { key in
                    .object([("ruleId", .string(key.rule)), ("fingerprint", .string(key.fingerprint))])
                }))])
            })),
        ])
    }

    public static func data(_ record: HistoryRecord) -> Data { Data(document(record).serialized().utf8) }

    /// A record file read back; `stamp` comes from its name.
    public static func read(_ data: Data, stamp: String) throws(ResultFormatError) -> HistoryRecord {
        let root: JSONValue
        do { root = try JSONParser.parse(data) } catch { throw ResultFormatError(path: "", message: "not valid JSON: \(error)") }
        let node = JSONNode(root)
        guard let version = try node.optionalField("historyRecord") else { return try ResultReader.historyRecord(root, stamp: stamp) }
        guard try version.int(in: ResultRanges.schemaVersion) == Self.version else {
            throw version.problem("record version \(try version.int(in: ResultRanges.schemaVersion)) is not read by this healthaudit (it reads \(Self.version))")
        }
        let commit = try node.optionalField("commit").map(ResultReader.commit)
        let apps = try node.field("apps").map { app throws(ResultFormatError) in
            (id: try appID(app.field("id")), findings: try app.field("findings").map(key))
        }
        return HistoryRecord(stamp: stamp, commit: commit, apps: apps)
    }

    static func appID(_ node: JSONNode) throws(ResultFormatError) -> String {
        let id = try node.string()
        guard Identifier.isValid(id) else { throw node.problem("not an app id") }
        return id
    }

    /// A finding's rule and fingerprint, each short: a record holds nothing else of it.
    static func key(_ finding: JSONNode) throws(ResultFormatError) -> FindingKey {
        let rule = try finding.field("ruleId"), fingerprint = try finding.field("fingerprint")
        let ruleID = try rule.string(), text = try fingerprint.string()
        guard !ruleID.isEmpty, ruleID.utf8.count <= maxKeyBytes, ruleID.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }) else {
            throw rule.problem("not a rule id")
        }
        guard text.utf8.count <= maxKeyBytes else { throw fingerprint.problem("not a fingerprint") }
        return FindingKey(rule: ruleID, fingerprint: text)
    }
}
