import Checklist
import Foundation
import Manifest
import Summary

/// The audit page of one app: verdict, the six answers, findings with their quoted lines, and
/// what the manifests declare.
struct AppPage {
    let audit: AppAudit
    let config: ProjectConfig
    var links: SourceLinks? = nil
    var summary: AppSummary? = nil
    var path: String { SitePaths.app(audit.manifest.id) }

    func context(extra: [String: Any] = [:]) -> (context: [String: Any], toc: [TableOfContentsEntry]) {
        let declared = MarkdownRenderer.render(declarations())
        let findings = audit.findings
        let groups = FindingGroup.groups(audit.activeFindings)
        let first = ProblemSummary(groups: groups, summary: summary).rows(from: path, appPath: path, severities: ["crash", "error"])
        var context: [String: Any] = [
            "name": audit.manifest.name,
            "id": audit.manifest.id,
            "kind": audit.manifest.config.kind.rawValue,
            "verdict": audit.verdict.rawValue,
            "verdictClass": PageContext.verdictClass(audit.verdict),
            "counts": PageContext.counts(findings),
            "answers": audit.answers.map(answer),
            // One card per rule, its places listed: four near-identical cards read as one problem.
            "ruleGroups": groups.map { $0.context(from: path, links: links) },
            // The summary box: crashes and errors, before anything else on the page.
            "topProblems": first, "hasTopProblems": !first.isEmpty,
            "suppressed": findings.filter(\.isSuppressed).map { PageContext.finding($0, from: path) },
            "hasSuppressed": findings.contains(where: \.isSuppressed),
            "noFindings": audit.activeFindings.isEmpty,
            "notes": audit.notes,
            "hasNotes": !audit.notes.isEmpty,
            "declarations": declared.html,
        ]
        context.merge(extra) { _, new in new }
        return (context, declared.headings)
    }

    private func answer(_ answer: Answer) -> [String: Any] {
        [
            "number": answer.question.rawValue,
            "question": MarkdownRenderer.render(answer.question.text).html,
            "status": answer.status.rawValue,
            "statusClass": PageContext.answerClass(answer.mark),
            "mark": answer.mark.rawValue,
            "reason": MarkdownRenderer.inline(answer.reason),
            "evidence": answer.evidence.map { evidence -> [String: Any] in
                var row: [String: Any] = ["location": evidence.location.description, "quote": evidence.quote]
                if let url = links?.url(file: evidence.location.file, line: evidence.location.line) { row["sourceURL"] = url }
                return row
            },
            "rules": answer.ruleIDs.map { ["id": $0, "url": SitePaths.link(from: path, to: SitePaths.rule($0))] },
        ]
    }

    /// What the manifests declare, as Markdown; every value from the app is escaped or code-quoted.
    func declarations() -> String {
        let app = audit.manifest
        var md = MarkdownWriter()
        md.heading(2, "What the manifests declare")
        md.heading(3, "Usage strings")
        var usage: [String] = []
        for key in ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription", "NSHealthClinicalHealthRecordsShareUsageDescription"] {
            if let value = app.usageString(key) {
                let text = value.value.string.map { MarkdownText.code($0) } ?? "(\(value.value.typeName))"
                usage.append("\(MarkdownText.code(key)) (\(value.origin.rawValue), \(MarkdownText.escape(value.location.description))): \(text)")
            } else if app.config.kind == .swift || app.config.kind == .flutter || app.main.infoPlist != nil {
                usage.append("\(MarkdownText.code(key)): *absent*")
            }
            for file in app.infoPlistStrings {
                if let entry = file.entry(key) {
                    usage.append("\(MarkdownText.code(key)) in \(MarkdownText.escape(file.locale)) (\(MarkdownText.escape(file.encoding))): \(MarkdownText.code(entry.value))")
                }
            }
            for entry in app.stringCatalog?.localizations.filter({ $0.key == key }) ?? [] {
                usage.append("\(MarkdownText.code(key)) in \(MarkdownText.escape(entry.locale)) (string catalog): \(MarkdownText.code(entry.value))")
            }
        }
        md.bullets(usage)
        md.heading(3, "Entitlements")
        if let entitlements = app.main.entitlements {
            md.bullets(entitlements.root.keys.sorted().map { "\(MarkdownText.code($0)) = \(MarkdownText.code(entitlements.root[$0]!.summary))" })
        } else {
            md.paragraph("No entitlements file is configured.")
        }
        md.heading(3, "Requested types")
        md.bullets([
            "Read: " + (audit.requestedRead.isEmpty ? "none" : audit.requestedRead.map(MarkdownText.code).joined(separator: ", ")),
            "Share (write): " + (audit.requestedShare.isEmpty ? "none" : audit.requestedShare.map(MarkdownText.code).joined(separator: ", ")),
        ])
        if !app.healthKitDependencies.isEmpty {
            md.heading(3, "HealthKit dependencies")
            md.paragraph("Packages known to link HealthKit, from the app's manifests and lockfiles.")
            md.bullets(app.healthKitDependencies.map { dependency in
                let does = [(dependency.known.writes, "writes"), (dependency.known.workoutSession, "runs workout sessions"),
                            (dependency.known.clinical, "references clinical records")].filter(\.0).map(\.1)
                return MarkdownText.code(dependency.package) + " (" + [dependency.ecosystem.rawValue, dependency.version, dependency.isDirect == false ? "indirect" : nil]
                    .compactMap { $0 }.map(MarkdownText.escape).joined(separator: ", ") + ") — " + MarkdownText.code(dependency.location.description)
                    + (does.isEmpty ? "" : " — " + does.joined(separator: ", "))
            })
        }
        md.heading(3, "Targets")
        md.bullets(app.targets.map { target in
            var line = "**\(MarkdownText.escape(target.name))** (\(MarkdownText.code(target.id))"
            if let point = target.extensionPoint { line += ", extension point \(MarkdownText.code(point))" }
            line += "): \(Plural.count(target.sources.count, "Swift file")) scanned"
            if !target.isExtension, app.config.kind == .reactNative { line += ", \(Plural.count(app.javaScriptSources.count, "JavaScript/TypeScript file")) scanned" }
            if let plist = target.infoPlist { line += ", Info.plist \(MarkdownText.escape(plist.path)) (\(plist.format.rawValue))" }
            return line
        })
        if !app.discovery.isEmpty || !(app.reactNativeHealth?.requests.isEmpty ?? true) {
            md.heading(3, "Discovered from the project")
            var facts = app.discovery.map { fact in
                (fact.isNote ? "**Note:** " : "") + MarkdownText.escape(fact.text) + " — " + MarkdownText.escape(fact.origin)
                    + (fact.location.map { " (" + MarkdownText.code($0.description) + ")" } ?? "")
            }
            for request in app.reactNativeHealth?.requests ?? [] {
                func list(_ permissions: [ReactNativePermission]) -> String {
                    permissions.isEmpty ? "nothing" : permissions.map { MarkdownText.code($0.constant) + " → " + ($0.type.map(MarkdownText.code) ?? "*not modelled*") }
                        .joined(separator: ", ")
                }
                facts.append("initHealthKit asks to read \(list(request.read)) and to write \(list(request.write)) (\(MarkdownText.code(request.location.description)))")
            }
            md.bullets(facts)
        }
        md.heading(3, "Input files")
        md.bullets(app.inputFiles.map { MarkdownText.code($0) })
        return md.text
    }
}
