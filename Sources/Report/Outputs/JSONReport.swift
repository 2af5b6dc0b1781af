import Checklist
import HealthStore
import Manifest
import Summary

/// The versioned JSON export (`--format json`), described by `ReportSchema.text`. Field names are
/// part of the contract: add fields freely, rename or remove only with a new `schemaVersion`.
/// It carries everything the site shows of each app, so `build --results` renders the same pages
/// from it (`ResultReader` reads it back).
public enum JSONReport {
    /// 2: question 3 is worded as the checklist words it ("Is there any attempt…", so "yes" is the
    /// anti-pattern), and every answer carries `mark` (pass, fail, unknown, n/a).
    /// 3: what the site shows besides the audit: `title`, `source` (commit, `source_url`), and per
    /// app `declared` (the manifests' declarations) and `simulation` (summaries and scenarios).
    public static let schemaVersion = 3

    public static func render(_ audits: [AppAudit], context: OutputContext) -> String {
        document(audits, context: context).serialized()
    }

    public static func document(_ audits: [AppAudit], context: OutputContext) -> JSONValue {
        let apps = audits.map { AppReport(audit: $0, summary: context.summaries[$0.manifest.id]) }
        return document(apps, context: context)
    }

    public static func document(_ apps: [AppReport], context: OutputContext) -> JSONValue {
        .object([
            ("schemaVersion", .int(schemaVersion)),
            ("tool", .object([
                ("name", .string(context.tool.name)),
                ("version", .string(context.tool.version)),
                ("informationUri", .string(context.tool.informationURI)),
            ])),
            ("site", .string(context.sitePrefix.isEmpty ? "." : context.sitePrefix)),
            ("title", .string(context.title)),
            ("source", .object([
                ("commit", .optional(context.source.commit)),
                ("urlTemplate", .optional(context.source.urlTemplate)),
                ("sitePath", .string(context.source.sitePath.isEmpty ? "." : context.source.sitePath)),
            ])),
            ("apps", .array(apps.map { app($0, context: context) })),
            ("summary", summary(apps, scope: context.changeScope, baselined: context.baselined)),
        ])
    }

    private static func app(_ app: AppReport, context: OutputContext) -> JSONValue {
        .object([
            ("id", .string(app.id)),
            ("name", .string(app.name)),
            ("kind", .string(app.kind.rawValue)),
            ("verdict", .string(app.verdict.rawValue)),
            ("counts", counts(FindingCounts(app.findings))),
            ("requested", .object([("read", .strings(app.requestedRead)), ("share", .strings(app.requestedShare))])),
            // Beside `requested`, whose shape readers already rely on: what it leaves unknown.
            ("unresolvedRequests", .object([("read", .strings(app.unresolvedRead.places)), ("share", .strings(app.unresolvedShare.places))])),
            ("answers", .array(app.answers.map { answer($0, context: context) })),
            ("findings", .array(app.findings.map { finding($0, context: context) })),
            ("notes", .strings(app.notes)),
            ("discovery", .array(app.declared.discovery.map { discovered($0, context: context) })),
            ("dependencies", .array(app.declared.dependencies.map { dependency($0, context: context) })),
            ("declared", declared(app.declared, context: context)),
            ("simulation", app.simulation.map(SimulationJSON.simulation) ?? .null),
        ])
    }

    /// The usage strings, entitlements, targets and input files the app page lists.
    private static func declared(_ declared: Declarations, context: OutputContext) -> JSONValue {
        .object([
            ("usageStrings", .array(declared.usage.map { usage($0, context: context) })),
            ("entitlements", declared.entitlements.map { rows in .array(rows.map { .object([("key", .string($0.key)), ("value", .string($0.value))]) }) } ?? .null),
            ("targets", .array(declared.targets.map { target in
                .object([
                    ("id", .string(target.id)), ("name", .string(target.name)), ("extensionPoint", .optional(target.extensionPoint)),
                    ("swiftFiles", .int(target.swiftFiles)), ("javaScriptFiles", .optional(target.javaScriptFiles)),
                    ("infoPlist", target.infoPlist.map { .object([("path", .string(context.repositoryPath($0.path))), ("format", .string($0.format))]) } ?? .null),
                ])
            })),
            ("reactNativeRequests", .array(declared.reactNativeRequests.map { request in
                func permissions(_ list: [Declarations.NativeRequest.Permission]) -> JSONValue {
                    .array(list.map { .object([("constant", .string($0.constant)), ("type", .optional($0.type))]) })
                }
                return .object([("location", location(request.location, context: context)), ("read", permissions(request.read)), ("write", permissions(request.write))])
            })),
            ("inputFiles", .strings(declared.inputFiles.map(context.repositoryPath))),
            ("identity", .object([("bundleId", .optional(declared.identity.bundleID)), ("version", .optional(declared.identity.version)),
                                  ("build", .optional(declared.identity.build)), ("minimumOS", .optional(declared.identity.minimumOS))])),
        ])
    }

    private static func usage(_ line: Declarations.UsageLine, context: OutputContext) -> JSONValue {
        switch line {
        case .declared(let key, let origin, let at, let value, let typeName):
            return .object([("key", .string(key)), ("origin", .string(origin)), ("location", location(at, context: context)),
                            ("value", .optional(value)), ("valueType", .string(typeName))])
        case .absent(let key):
            return .object([("key", .string(key)), ("origin", .string("absent"))])
        case .translated(let key, let locale, let source, let value):
            return .object([("key", .string(key)), ("origin", .string("translation")), ("locale", .string(locale)),
                            ("source", .string(source)), ("value", .string(value))])
        }
    }

    private static func dependency(_ dependency: Declarations.Dependency, context: OutputContext) -> JSONValue {
        .object([
            ("package", .string(dependency.package)),
            ("ecosystem", .string(dependency.ecosystem)),
            ("version", .optional(dependency.version)),
            ("direct", dependency.isDirect.map(JSONValue.bool) ?? .null),
            ("location", location(dependency.location, context: context)),
            ("quote", .string(dependency.quote)),
            ("writes", .bool(dependency.writes)),
            ("workoutSession", .bool(dependency.workoutSession)),
            ("clinical", .bool(dependency.clinical)),
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
            ("context", finding.context.map { around in
                .object([("before", .array(around.before.map(JSONValue.string))), ("after", .array(around.after.map(JSONValue.string))),
                         ("indent", .string(around.indent))])
            } ?? .null),
        ])
    }

    /// `line`/`column` are null when the input has none (a binary plist).
    static func location(_ location: FileLocation, context: OutputContext) -> JSONValue {
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
    private static func summary(_ apps: [AppReport], scope: ChangeScope?, baselined: Int?) -> JSONValue {
        let verdicts = apps.map(\.verdict)
        var tally: [(String, JSONValue)] = [
            ("passes", .int(verdicts.filter { $0 == .passes }.count)),
            ("needsWork", .int(verdicts.filter { $0 == .needsWork }.count)),
            ("fails", .int(verdicts.filter { $0 == .fails }.count)),
        ]
        // Only when some app could not be fully read, so results without one keep their shape.
        let incomplete = verdicts.filter { $0 == .incomplete }.count
        if incomplete > 0 { tally.append(("incomplete", .int(incomplete))) }
        var members: [(String, JSONValue)] = [
            ("apps", .int(apps.count)),
            ("findings", counts(FindingCounts(apps.flatMap(\.findings)))),
            ("verdicts", .object(tally)),
        ]
        if let scope { members.append(("outsideChangedLines", .int(scope.outside))) }
        if let baselined { members.append(("baselined", .int(baselined))) }
        return .object(members)
    }
}
