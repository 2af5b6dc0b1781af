import Checklist
import HealthStore
import Manifest
import Summary

/// The versioned JSON export (`--format json`): `ResultFormat` filled from the audit and encoded
/// in its declared order. It carries everything the site shows of each app, so `build --results`
/// renders the same pages from it (`ResultReader` decodes the same types).
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
        encoded(ResultFormat.Document(apps, context: context))
    }

    /// The format's values never fail to encode: `JSONValueEncoder` throws only what a type's own
    /// `encode(to:)` throws, and none of them throws.
    static func encoded<T: Encodable>(_ value: T) -> JSONValue {
        do { return try JSONValueEncoder().encode(value) } catch { preconditionFailure("a result does not encode: \(error)") }
    }
}

// MARK: - The audit as the result format

// The audit's types, whose names `ResultFormat`'s own shadow in its extensions.
typealias AuditAnswer = Answer
typealias AuditFinding = Finding
typealias AuditFact = DiscoveredFact

extension ResultFormat.Document {
    init(_ apps: [AppReport], context: OutputContext) {
        self.init(
            schemaVersion: JSONReport.schemaVersion,
            tool: .init(name: context.tool.name, version: context.tool.version, informationUri: context.tool.informationURI),
            site: context.sitePrefix.isEmpty ? "." : context.sitePrefix,
            title: context.title,
            source: .init(commit: context.source.commit, urlTemplate: context.source.urlTemplate,
                          sitePath: context.source.sitePath.isEmpty ? "." : context.source.sitePath),
            apps: apps.map { ResultFormat.App($0, context: context) },
            summary: .init(apps, scope: context.changeScope, baselined: context.baselined))
    }
}

extension ResultFormat.Summary {
    init(_ apps: [AppReport], scope: ChangeScope?, baselined: Int?) {
        let verdicts = apps.map(\.verdict)
        let incomplete = verdicts.filter { $0 == .incomplete }.count
        self.init(apps: apps.count, findings: .init(FindingCounts(apps.flatMap(\.findings))),
                  verdicts: .init(passes: verdicts.filter { $0 == .passes }.count, needsWork: verdicts.filter { $0 == .needsWork }.count,
                                  fails: verdicts.filter { $0 == .fails }.count, incomplete: incomplete > 0 ? incomplete : nil),
                  outsideChangedLines: scope?.outside, baselined: baselined)
    }
}

extension ResultFormat.Counts {
    init(_ counts: FindingCounts) {
        self.init(errors: counts.errors, warnings: counts.warnings, notes: counts.notes, suppressed: counts.suppressed)
    }
}

extension ResultFormat.App {
    init(_ app: AppReport, context: OutputContext) {
        self.init(
            id: app.id, name: app.name, kind: app.kind, verdict: app.verdict, counts: .init(FindingCounts(app.findings)),
            requested: .init(read: app.requestedRead, share: app.requestedShare),
            unresolvedRequests: .init(read: app.unresolvedRead.places, share: app.unresolvedShare.places),
            answers: app.answers.map { ResultFormat.Answer($0, context: context) },
            findings: app.findings.map { ResultFormat.Finding($0, context: context) },
            notes: app.notes,
            discovery: app.declared.discovery.map { ResultFormat.DiscoveredFact($0, context: context) },
            dependencies: app.declared.dependencies.map { ResultFormat.Dependency($0, context: context) },
            declared: .init(app.declared, context: context),
            simulation: app.simulation.map(ResultFormat.Simulation.init))
    }
}

extension ResultFormat.Location {
    /// `line`/`column` are null when the input has none (a binary plist).
    init(_ location: FileLocation, context: OutputContext) {
        self.init(path: context.repositoryPath(location.file), line: location.line.map(BoundedInt.init),
                  column: location.line == nil ? nil : location.column.map(BoundedInt.init))
    }
}

extension ResultFormat.Answer {
    init(_ answer: AuditAnswer, context: OutputContext) {
        self.init(question: answer.question, text: answer.question.text, status: answer.status, mark: answer.mark, reason: answer.reason,
                  evidence: answer.evidence.map { .init(location: .init($0.location, context: context), quote: $0.quote) },
                  ruleIds: answer.ruleIDs)
    }
}

extension ResultFormat.Finding {
    init(_ finding: AuditFinding, context: OutputContext) {
        self.init(
            ruleId: finding.ruleID, severity: finding.severity, message: finding.message, location: .init(finding.location, context: context),
            quote: finding.quote, target: finding.target, fingerprint: context.fingerprint(finding),
            suppressed: finding.suppression.map { .init(origin: $0.origin, reason: $0.reason, location: .init($0.location, context: context)) },
            context: finding.context.map { .init(before: $0.before, after: $0.after, indent: $0.indent) })
    }
}

extension ResultFormat.DiscoveredFact {
    init(_ fact: AuditFact, context: OutputContext) {
        self.init(text: fact.text, origin: fact.origin, location: fact.location.map { .init($0, context: context) }, note: fact.isNote)
    }
}

extension ResultFormat.Dependency {
    init(_ dependency: Declarations.Dependency, context: OutputContext) {
        self.init(package: dependency.package, ecosystem: dependency.ecosystem,
                  version: dependency.version, direct: dependency.isDirect, location: .init(dependency.location, context: context),
                  quote: dependency.quote, writes: dependency.writes, workoutSession: dependency.workoutSession, clinical: dependency.clinical,
                  sdk: dependency.isSDK)
    }
}

extension ResultFormat.Declared {
    init(_ declared: Declarations, context: OutputContext) {
        self.init(
            usageStrings: declared.usage.map { line in
                switch line {
                case .declared(let key, let origin, let at, let value, let typeName):
                    .declared(key: key, origin: origin, location: .init(at, context: context), value: value, valueType: typeName)
                case .absent(let key): .absent(key: key)
                case .translated(let key, let locale, let source, let value): .translated(key: key, locale: locale, source: source, value: value)
                }
            },
            entitlements: declared.entitlements.map { rows in rows.map { .init(key: $0.key, value: $0.value) } },
            targets: declared.targets.map { target in
                .init(id: target.id, name: target.name, extensionPoint: target.extensionPoint, swiftFiles: BoundedInt(target.swiftFiles),
                      javaScriptFiles: target.javaScriptFiles.map(BoundedInt.init),
                      infoPlist: target.infoPlist.map { .init(path: context.repositoryPath($0.path), format: $0.format) })
            },
            reactNativeRequests: declared.reactNativeRequests.map { request in
                .init(location: .init(request.location, context: context), read: request.read.map { .init(constant: $0.constant, type: $0.type) },
                      write: request.write.map { .init(constant: $0.constant, type: $0.type) })
            },
            inputFiles: declared.inputFiles.map(context.repositoryPath),
            identity: .init(bundleId: declared.identity.bundleID, version: declared.identity.version, build: declared.identity.build,
                            minimumOS: declared.identity.minimumOS))
    }
}
