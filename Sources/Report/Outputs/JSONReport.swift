import Checklist
import Manifest

/// The versioned JSON export (`--format json`), described by `ReportSchema.text`. Field names are
/// part of the contract: add fields freely, rename or remove only with a new `schemaVersion`.
public enum JSONReport {
    /// 2: question 3 is worded as the checklist words it ("Is there any attempt…", so "yes" is the
    /// anti-pattern), and every answer carries `mark` (pass, fail, unknown, n/a).
    public static let schemaVersion = 2

    public static func render(_ audits: [AppAudit], context: OutputContext) -> String {
        document(audits, context: context).serialized()
    }

    public static func document(_ audits: [AppAudit], context: OutputContext) -> JSONValue {
        .object([
            ("schemaVersion", .int(schemaVersion)),
            ("tool", .object([
                ("name", .string(context.tool.name)),
                ("version", .string(context.tool.version)),
                ("informationUri", .string(context.tool.informationURI)),
            ])),
            ("site", .string(context.sitePrefix.isEmpty ? "." : context.sitePrefix)),
            ("apps", .array(audits.map { app($0, context: context) })),
            ("summary", summary(audits, scope: context.changeScope)),
        ])
    }

    private static func app(_ audit: AppAudit, context: OutputContext) -> JSONValue {
        .object([
            ("id", .string(audit.manifest.id)),
            ("name", .string(audit.manifest.name)),
            ("kind", .string(audit.manifest.config.kind.rawValue)),
            ("verdict", .string(audit.verdict.rawValue)),
            ("counts", counts(FindingCounts(audit.findings))),
            ("requested", .object([("read", .strings(audit.requestedRead)), ("share", .strings(audit.requestedShare))])),
            ("answers", .array(audit.answers.map { answer($0, context: context) })),
            ("findings", .array(audit.findings.map { finding($0, context: context) })),
            ("notes", .strings(audit.notes)),
            ("discovery", .array(audit.manifest.discovery.map { discovered($0, context: context) })),
            ("dependencies", .array(audit.manifest.healthKitDependencies.map { dependency($0, context: context) })),
        ])
    }

    private static func dependency(_ dependency: HealthKitDependency, context: OutputContext) -> JSONValue {
        .object([
            ("package", .string(dependency.package)),
            ("ecosystem", .string(dependency.ecosystem.rawValue)),
            ("version", dependency.version.map(JSONValue.string) ?? .null),
            ("direct", dependency.isDirect.map(JSONValue.bool) ?? .null),
            ("location", location(dependency.location, context: context)),
            ("quote", .string(dependency.quote)),
            ("writes", .bool(dependency.known.writes)),
            ("workoutSession", .bool(dependency.known.workoutSession)),
            ("clinical", .bool(dependency.known.clinical)),
            ("sdk", .bool(dependency.isSDK)),
        ])
    }

    /// What discovery found (targets, files, settings) and where it read it.
    private static func discovered(_ fact: DiscoveredFact, context: OutputContext) -> JSONValue {
        .object([
            ("text", .string(fact.text)),
            ("origin", .string(fact.origin)),
            ("location", fact.location.map { location($0, context: context) } ?? .null),
            ("note", .bool(fact.isNote)),
        ])
    }

    private static func answer(_ answer: Answer, context: OutputContext) -> JSONValue {
        .object([
            ("question", .int(answer.question.rawValue)),
            ("text", .string(answer.question.text)),
            ("status", .string(answer.status.rawValue)),
            ("mark", .string(answer.mark.rawValue)),
            ("reason", .string(answer.reason)),
            ("evidence", .array(answer.evidence.map { .object([("location", location($0.location, context: context)), ("quote", .string($0.quote))]) })),
            ("ruleIds", .strings(answer.ruleIDs)),
        ])
    }

    static func finding(_ finding: Finding, context: OutputContext) -> JSONValue {
        let suppressed: JSONValue = finding.suppression.map { suppression in
            .object([
                ("origin", .string(suppression.origin.rawValue)),
                ("reason", .string(suppression.reason)),
                ("location", location(suppression.location, context: context)),
            ])
        } ?? .null
        return .object([
            ("ruleId", .string(finding.ruleID)),
            ("severity", .string(finding.severity.rawValue)),
            ("message", .string(finding.message)),
            ("location", location(finding.location, context: context)),
            ("quote", .string(finding.quote)),
            ("target", .string(finding.target)),
            ("fingerprint", .string(context.fingerprint(finding))),
            ("suppressed", suppressed),
        ])
    }

    /// `line`/`column` are null when the input has none (a binary plist).
    private static func location(_ location: FileLocation, context: OutputContext) -> JSONValue {
        .object([
            ("path", .string(context.repositoryPath(location.file))),
            ("line", .optional(location.line)),
            ("column", .optional(location.line == nil ? nil : location.column)),
        ])
    }

    private static func counts(_ counts: FindingCounts) -> JSONValue {
        .object([("errors", .int(counts.errors)), ("warnings", .int(counts.warnings)), ("notes", .int(counts.notes)),
                 ("suppressed", .int(counts.suppressed))])
    }

    /// `outsideChangedLines` only with `--changed-files` or `--since`: its absence means nothing was left out.
    private static func summary(_ audits: [AppAudit], scope: ChangeScope?) -> JSONValue {
        let verdicts = audits.map(\.verdict)
        var members: [(String, JSONValue)] = [
            ("apps", .int(audits.count)),
            ("findings", counts(FindingCounts(audits))),
            ("verdicts", .object([
                ("passes", .int(verdicts.filter { $0 == .passes }.count)),
                ("needsWork", .int(verdicts.filter { $0 == .needsWork }.count)),
                ("fails", .int(verdicts.filter { $0 == .fails }.count)),
            ])),
        ]
        if let scope { members.append(("outsideChangedLines", .int(scope.outside))) }
        return .object(members)
    }
}
