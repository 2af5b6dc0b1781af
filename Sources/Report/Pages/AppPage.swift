import Checklist
import Manifest

/// The audit page of one app: verdict, the six answers, findings with their quoted lines, and
/// what the manifests declare.
struct AppPage {
    let app: AppReport
    var links: SourceLinks? { app.sourceLinks }
    var path: String { SitePaths.app(app.id) }

    /// The app page's template values.
    struct Model: TemplateModel {
        var name: String
        var id: String
        var kind: String
        var verdict: String
        var verdictClass: String
        var counts: PageContext.Counts
        var answers: [AnswerRow]
        /// One card per rule, its places listed: four near-identical cards read as one problem.
        var ruleGroups: [FindingGroup.Model]
        /// The summary box: crashes and errors, before anything else on the page.
        var topProblems: [ProblemSummary.Row]
        var hasTopProblems: Bool
        var suppressed: [PageContext.FindingRow]
        var hasSuppressed: Bool
        var noFindings: Bool
        /// Markdown like every message (code spans for keys and identifiers).
        var notes: [String]
        var hasNotes: Bool
        /// HTML: what the manifests declare.
        var declarations: String
        var identity: [IdentityRow]
        var hasIdentity: Bool
        var scenarios: [ScenarioSection.Scenario]
        var hasScenarios: Bool
        /// The app's summaries, when it has them.
        var summaryURL: String?
        /// The summaries cannot say what an app whose read requests are unknown sees; the link says so.
        var summaryUnknown: Bool
        var history: HistorySection.Model?
    }

    /// One line of what the manifest says the app is: a `code` value or a `text` one.
    struct IdentityRow: TemplateModel {
        var label: String
        var code: String?
        var text: String?
    }

    struct AnswerRow: TemplateModel {
        var number: Int
        var question: String
        var status: String
        var statusClass: String
        var mark: String
        var reason: String
        var evidence: [EvidenceRow]
        var rules: [RuleLink]
    }

    struct EvidenceRow: TemplateModel {
        var location: String
        var quote: String
        var sourceURL: String?
    }

    struct RuleLink: TemplateModel {
        var id: String
        var url: String
    }

    /// The page's values and its table of contents (the declarations' headings).
    func model(history: HistorySection.Model?) -> (model: Model, toc: [TableOfContentsEntry]) {
        let declared = MarkdownRenderer.render(app.declared.markdown(requestedRead: app.requestedRead, requestedShare: app.requestedShare,
                                                                           unresolvedRead: app.unresolvedRead, unresolvedShare: app.unresolvedShare))
        let findings = app.findings
        let groups = FindingGroup.groups(app.activeFindings)
        let first = ProblemSummary(groups: groups, simulation: app.simulation).rows(from: path, appPath: path, severities: ["crash", "error"])
        let identity = self.identity
        let model = Model(
            name: app.name, id: app.id, kind: app.kind.rawValue, verdict: app.verdict.rawValue, verdictClass: PageContext.verdictClass(app.verdict),
            counts: PageContext.Counts(findings), answers: app.answers.map(answer),
            ruleGroups: groups.map { $0.model(from: path, links: links) },
            topProblems: first, hasTopProblems: !first.isEmpty,
            suppressed: findings.filter(\.isSuppressed).map { PageContext.FindingRow($0, from: path) },
            hasSuppressed: findings.contains(where: \.isSuppressed), noFindings: app.activeFindings.isEmpty,
            notes: app.notes.map(MarkdownRenderer.inline), hasNotes: !app.notes.isEmpty,
            declarations: declared.html, identity: identity, hasIdentity: !identity.isEmpty,
            scenarios: ScenarioSection.scenarios(app.simulation), hasScenarios: !(app.simulation?.scenarios.isEmpty ?? true),
            summaryURL: app.simulation == nil ? nil : "summary/index.html",
            summaryUnknown: app.simulation != nil && app.readRequestsUnknown,
            history: history)
        return (model, declared.headings)
    }

    /// What the manifest says the app is, each fact only when it says it: the page's first lines.
    private var identity: [IdentityRow] {
        let facts = app.declared.identity
        var rows: [IdentityRow] = []
        if let id = facts.bundleID { rows.append(IdentityRow(label: "Bundle id", code: id)) }
        if let version = facts.version { rows.append(IdentityRow(label: "Version", text: version + (facts.build.map { " (\($0))" } ?? ""))) }
        else if let build = facts.build { rows.append(IdentityRow(label: "Build", text: build)) }
        if let os = facts.minimumOS { rows.append(IdentityRow(label: "Minimum iOS", text: os)) }
        let targets = app.declared.targets.map { $0.extensionPoint == nil ? $0.name : "\($0.name) (\($0.extensionPoint!))" }
        if !targets.isEmpty { rows.append(IdentityRow(label: targets.count == 1 ? "Target" : "Targets", text: targets.joined(separator: ", "))) }
        return rows
    }

    private func answer(_ answer: Answer) -> AnswerRow {
        AnswerRow(
            number: answer.question.rawValue, question: MarkdownRenderer.render(answer.question.text).html, status: answer.status.rawValue,
            statusClass: PageContext.answerClass(answer.mark), mark: answer.mark.rawValue, reason: MarkdownRenderer.inline(answer.reason),
            evidence: answer.evidence.map { evidence in
                EvidenceRow(location: evidence.location.description, quote: evidence.quote,
                            sourceURL: links?.url(file: evidence.location.file, line: evidence.location.line))
            },
            rules: answer.ruleIDs.map { RuleLink(id: $0, url: SitePaths.link(from: path, to: SitePaths.rule($0))) })
    }
}
