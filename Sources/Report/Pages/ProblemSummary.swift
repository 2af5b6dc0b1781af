import Checklist
import Manifest
import Summary

/// What a reviewer must see first about one app, worst first: the scenarios in which the app
/// crashed, then each rule with active findings (errors, then warnings, then notes), one line each.
struct ProblemSummary {
    struct Problem {
        /// `crash`, or a severity's name: the CSS class and the badge.
        let kind: String
        let title: String
        /// Markdown of the first message (rendered inline by `html`).
        let detail: String
        /// The anchor on the app page (`#scenario-partial-grant-step-3`, `#rule-usage-string-missing`).
        let anchor: String
        let count: Int
    }

    let problems: [Problem]

    /// `groups`: the app's active findings by rule (`FindingGroup.groups`), worst first.
    init(groups: [FindingGroup], simulation: SimulationReport?) {
        var problems: [Problem] = []
        for scenario in simulation?.scenarios ?? [] {
            for step in scenario.steps {
                guard let crash = step.crash else { continue }
                problems.append(Problem(kind: "crash", title: "Simulated crash in “\(scenario.title)”, step \(step.index + 1)",
                                        detail: "`\(crash.exceptionName)`: \(crash.reason)", anchor: ProblemSummary.stepAnchor(scenario.id, step.index), count: 1))
            }
        }
        for group in groups {
            problems.append(Problem(kind: group.severity.rawValue, title: group.title, detail: group.findings[0].message,
                                    anchor: FindingGroup.anchor(group.rule), count: group.findings.count))
        }
        self.problems = problems
    }

    static func stepAnchor(_ scenario: String, _ index: Int) -> String { "scenario-\(scenario)-step-\(index + 1)" }

    /// A problem as a template row: linked to its place on the app page.
    struct Row: TemplateModel {
        var kind: String
        var title: String
        var detail: String
        var url: String
        var count: Int
        var many: Bool
    }

    /// Template rows: each problem linked from `page` to its place on the app page at `appPath`.
    func rows(from page: String, appPath: String, limit: Int? = nil, severities: Set<String>? = nil) -> [Row] {
        let shown = problems.filter { severities?.contains($0.kind) ?? true }
        return shown.prefix(limit ?? shown.count).map { problem in
            let base = page == appPath ? "" : SitePaths.link(from: page, to: appPath)
            return Row(kind: problem.kind, title: problem.title, detail: MarkdownRenderer.inline(problem.detail),
                       url: base + "#" + problem.anchor, count: problem.count, many: problem.count > 1)
        }
    }
}

/// The active findings of one rule, shown as one card with its locations.
struct FindingGroup {
    let rule: String
    let title: String
    let severity: Severity
    let findings: [Finding]

    /// By rule, worst severity first, then in the order the rules first report.
    static func groups(_ findings: [Finding]) -> [FindingGroup] {
        var order: [String] = []
        var byRule: [String: [Finding]] = [:]
        for finding in findings {
            if byRule[finding.ruleID] == nil { order.append(finding.ruleID) }
            byRule[finding.ruleID, default: []].append(finding)
        }
        let groups = order.map { rule -> FindingGroup in
            let rows = byRule[rule]!
            return FindingGroup(rule: rule, title: RuleCatalog.rule(id: rule)?.description.title ?? rule,
                                severity: rows.map(\.severity).max()!, findings: rows)
        }
        return groups.enumerated().sorted { a, b in
            a.element.severity != b.element.severity ? a.element.severity > b.element.severity : a.offset < b.offset
        }.map(\.element)
    }

    static func anchor(_ rule: String) -> String { "rule-" + rule }

    /// The card's template values.
    struct Model: TemplateModel {
        var rule: String
        var ruleTitle: String
        var severity: String
        var anchor: String
        var ruleURL: String
        var count: Int
        var countText: String
        var open: Bool
        var locations: [Location]
        /// One message for every location reads once, above them; differing ones go with each.
        var sharedMessage: String?
    }

    /// One place of the rule's findings, with its quoted line and the lines around it.
    struct Location: TemplateModel {
        var location: String
        var target: String
        var quote: String
        var fingerprint: String
        /// Only when the card's findings differ in their messages.
        var message: String?
        var sourceURL: String?
        /// The quoted line's number, when the finding has a line.
        var number: String?
        var contextBefore: [ContextLine]?
        var contextAfter: [ContextLine]?
        var indent: String?
    }

    /// A line beside the quoted one, numbered when the finding has a line.
    struct ContextLine: TemplateModel {
        var line: String
        var number: String?
    }

    func model(from page: String, links: SourceLinks? = nil) -> Model {
        // (Mustache takes an empty string for true: optional values are left out instead.)
        let shared = Set(findings.map(\.message)).count == 1
        return Model(
            rule: rule, ruleTitle: title, severity: severity.rawValue, anchor: Self.anchor(rule),
            ruleURL: SitePaths.link(from: page, to: SitePaths.rule(rule)),
            count: findings.count, countText: Plural.count(findings.count, "place"),
            open: severity != .note,
            locations: findings.map { finding in
                // Line numbers beside the quoted code, when the finding has a line.
                let line = finding.location.line
                var row = Location(location: finding.location.description, target: finding.target, quote: finding.quote,
                                   fingerprint: finding.fingerprint, message: shared ? nil : MarkdownRenderer.inline(finding.message),
                                   sourceURL: links?.url(file: finding.location.file, line: line), number: line.map { String($0) })
                if let around = finding.context {
                    row.contextBefore = around.before.enumerated().map { index, text in
                        ContextLine(line: text, number: line.map { String($0 - around.before.count + index) })
                    }
                    row.contextAfter = around.after.enumerated().map { index, text in
                        ContextLine(line: text, number: line.map { String($0 + 1 + index) })
                    }
                    if !around.indent.isEmpty { row.indent = around.indent }
                }
                return row
            },
            sharedMessage: shared ? MarkdownRenderer.inline(findings[0].message) : nil)
    }
}
