import Checklist
import Manifest

/// One app of a decoded result as the pages model it: locations relative to the site folder.
struct AppReader {
    let paths: ResultPaths

    func app(_ app: ResultFormat.App) -> AppReport {
        var declared = declarations(app.declared)
        declared.discovery = app.discovery.map { fact in
            DiscoveredFact(fact.text, origin: fact.origin, location: fact.location.map(paths.location), isNote: fact.note)
        }
        declared.dependencies = app.dependencies.map { dependency in
            Declarations.Dependency(
                package: dependency.package, ecosystem: dependency.ecosystem, version: dependency.version, isDirect: dependency.direct,
                location: paths.location(dependency.location), quote: dependency.quote, writes: dependency.writes,
                workoutSession: dependency.workoutSession, clinical: dependency.clinical, isSDK: dependency.sdk)
        }
        return AppReport(
            id: app.id, name: app.name, kind: app.kind, answers: app.answers.map(answer), findings: app.findings.map(finding),
            requestedRead: app.requested.read, requestedShare: app.requested.share,
            // Results written before `unresolvedRequests` existed carry none.
            unresolvedRead: UnresolvedRequests(app.unresolvedRequests?.read ?? []), unresolvedShare: UnresolvedRequests(app.unresolvedRequests?.share ?? []),
            notes: app.notes, declared: declared, simulation: app.simulation.map(SimulationReport.init), sourceLinks: nil)
    }

    private func answer(_ answer: ResultFormat.Answer) -> Answer {
        Answer(question: answer.question, status: answer.status, reason: answer.reason,
               evidence: answer.evidence.map { Evidence(location: paths.location($0.location), quote: $0.quote) }, ruleIDs: answer.ruleIds)
    }

    private func finding(_ row: ResultFormat.Finding) -> Finding {
        var finding = Finding(ruleID: row.ruleId, severity: row.severity, message: row.message, location: paths.location(row.location),
                              quote: row.quote, target: row.target)
        finding.context = row.context.map { QuoteContext(before: $0.before, after: $0.after, indent: $0.indent) }
        finding.suppression = row.suppressed.map { Suppression(origin: $0.origin, reason: $0.reason, location: paths.location($0.location)) }
        return finding
    }

    private func declarations(_ row: ResultFormat.Declared) -> Declarations {
        var declared = Declarations()
        declared.usage = row.usageStrings.map { usage in
            switch usage {
            case .declared(let key, let origin, let location, let value, let valueType):
                .declared(key: key, origin: origin, location: paths.location(location), value: value, typeName: valueType)
            case .absent(let key): .absent(key: key)
            case .translated(let key, let locale, let source, let value): .translated(key: key, locale: locale, source: source, value: value)
            }
        }
        declared.entitlements = row.entitlements?.map { Declarations.Entitlement(key: $0.key, value: $0.value) }
        declared.targets = row.targets.map { target in
            Declarations.Target(id: target.id, name: target.name, extensionPoint: target.extensionPoint, swiftFiles: target.swiftFiles.value,
                                javaScriptFiles: target.javaScriptFiles?.value,
                                infoPlist: target.infoPlist.map { .init(path: paths.siteRelative($0.path), format: $0.format) })
        }
        declared.reactNativeRequests = row.reactNativeRequests.map { request in
            Declarations.NativeRequest(location: paths.location(request.location), read: request.read.map { .init(constant: $0.constant, type: $0.type) },
                                       write: request.write.map { .init(constant: $0.constant, type: $0.type) })
        }
        declared.inputFiles = row.inputFiles.map(paths.siteRelative)
        // Optional: results of earlier versions have none.
        if let identity = row.identity {
            declared.identity = Declarations.Identity(bundleID: identity.bundleId, version: identity.version, build: identity.build, minimumOS: identity.minimumOS)
        }
        return declared
    }
}
