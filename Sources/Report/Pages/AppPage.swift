import Checklist
import Manifest

/// The audit page of one app: verdict, the six answers, findings with their quoted lines, and
/// what the manifests declare.
struct AppPage {
    let app: AppReport
    var links: SourceLinks? { app.sourceLinks }
    var path: String { SitePaths.app(app.id) }

    func context(extra: [String: Any] = [:]) -> (context: [String: Any], toc: [TableOfContentsEntry]) {
        let declared = MarkdownRenderer.render(app.declared.markdown(requestedRead: app.requestedRead, requestedShare: app.requestedShare,
                                                                           unresolvedRead: app.unresolvedRead, unresolvedShare: app.unresolvedShare))
        let findings = app.findings
        let groups = FindingGroup.groups(app.activeFindings)
        let first = ProblemSummary(groups: groups, simulation: app.simulation).rows(from: path, appPath: path, severities: ["crash", "error"])
        var context: [String: Any] = [
            "name": app.name,
            "id": app.id,
            "kind": app.kind.rawValue,
            "verdict": app.verdict.rawValue,
            "verdictClass": PageContext.verdictClass(app.verdict),
            "counts": PageContext.counts(findings),
            "answers": app.answers.map(answer),
            // One card per rule, its places listed: four near-identical cards read as one problem.
            "ruleGroups": groups.map { $0.context(from: path, links: links) },
            // The summary box: crashes and errors, before anything else on the page.
            "topProblems": first, "hasTopProblems": !first.isEmpty,
            "suppressed": findings.filter(\.isSuppressed).map { PageContext.finding($0, from: path) },
            "hasSuppressed": findings.contains(where: \.isSuppressed),
            "noFindings": app.activeFindings.isEmpty,
            // Markdown like every message (code spans for keys and identifiers).
            "notes": app.notes.map(MarkdownRenderer.inline),
            "hasNotes": !app.notes.isEmpty,
            "declarations": declared.html,
            "identity": identity, "hasIdentity": !identity.isEmpty,
        ]
        context.merge(extra) { _, new in new }
        return (context, declared.headings)
    }

    /// What the manifest says the app is, each fact only when it says it: the page's first lines.
    private var identity: [[String: Any]] {
        let facts = app.declared.identity
        var rows: [[String: Any]] = []
        if let id = facts.bundleID { rows.append(["label": "Bundle id", "code": id]) }
        if let version = facts.version { rows.append(["label": "Version", "text": version + (facts.build.map { " (\($0))" } ?? "")]) }
        else if let build = facts.build { rows.append(["label": "Build", "text": build]) }
        if let os = facts.minimumOS { rows.append(["label": "Minimum iOS", "text": os]) }
        let targets = app.declared.targets.map { $0.extensionPoint == nil ? $0.name : "\($0.name) (\($0.extensionPoint!))" }
        if !targets.isEmpty { rows.append(["label": targets.count == 1 ? "Target" : "Targets", "text": targets.joined(separator: ", ")]) }
        return rows
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
}
