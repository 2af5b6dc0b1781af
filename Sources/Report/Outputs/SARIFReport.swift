import Checklist
import Foundation
import Manifest

/// SARIF 2.1.0 for code scanning (GitHub, Azure DevOps, IDE viewers): one run, every rule of the
/// catalogue in `tool.driver.rules` (with short tags, and a `security-severity` for the rules that
/// foretell a crash or a disclosure), one result per finding, suppressed findings included and marked.
public enum SARIFReport {
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    public static let fingerprintKey = "healthauditFingerprint/v1"

    public static func render(_ audits: [AppAudit], context: OutputContext) -> String {
        let rules = RuleIndex(audits)
        let results = audits.flatMap { audit in audit.findings.map { result($0, app: audit.manifest.id, rules: rules, context: context) } }
        let driver: JSONValue = .object([
            ("name", .string(context.tool.name)),
            ("version", .string(context.tool.version)),
            ("semanticVersion", .string(context.tool.version)),
            ("informationUri", .string(context.tool.informationURI)),
            ("rules", .array(rules.descriptions.map { rule($0, context: context) })),
        ])
        var run: [(String, JSONValue)] = [
            ("tool", .object([("driver", driver)])),
            ("columnKind", "unicodeCodePoints"),
            ("results", .array(results)),
        ]
        if let scope = context.changeScope {
            run.append(("properties", .object([("outsideChangedLines", .int(scope.outside)), ("summary", .string(scope.sentence))])))
        }
        return JSONValue.object([("$schema", .string(schemaURI)), ("version", "2.1.0"), ("runs", [.object(run)])]).serialized()
    }

    static func level(_ severity: Severity) -> JSONValue { .string(severity.rawValue) }

    /// GitHub code scanning's scale: 7.0–8.9 is "high", 4.0–6.9 "medium".
    static func securitySeverity(_ consequence: Consequence) -> String {
        switch consequence {
        case .crash: "7.5"
        case .disclosure: "5.0"
        }
    }

    /// Short tags code-scanning UIs filter on: `healthkit`, `privacy`, `crash`, and `q1`…`q6` for
    /// the review questions the rule answers.
    static func tags(_ description: RuleDescription) -> [String] {
        ["healthkit"] + (description.concernsPrivacy ? ["privacy"] : []) + (description.predicts == .crash ? ["crash"] : [])
            + description.questions.map { "q\($0.rawValue)" }
    }

    /// The rule's page on the published site when `base_url` is an absolute address, else its entry in docs/rules.md.
    static func helpURI(_ id: String, context: OutputContext) -> String {
        let base = context.baseURL
        guard base.hasPrefix("https://") || base.hasPrefix("http://") else { return context.tool.ruleDocumentationURI(id) }
        return (base.hasSuffix("/") ? base : base + "/") + URIPath.encode(SitePaths.rule(id))
    }

    private static func rule(_ description: RuleDescription, context: OutputContext) -> JSONValue {
        let text = PlainText.fromMarkdown(description.rationale)
        var properties: [(String, JSONValue)] = [("tags", .strings(tags(description)))]
        if let consequence = description.predicts { properties.append(("security-severity", .string(securitySeverity(consequence)))) }
        return .object([
            ("id", .string(description.id)),
            ("name", .string(PlainText.pascalCase(description.id))),
            // Code-scanning UIs link the rule's documentation from each alert.
            ("helpUri", .string(helpURI(description.id, context: context))),
            ("shortDescription", .object([("text", .string(description.title))])),
            ("fullDescription", .object([("text", .string(text.isEmpty ? description.title : text))])),
            ("help", .object([("text", .string(text.isEmpty ? description.title : text)), ("markdown", .string(description.rationale))])),
            ("defaultConfiguration", .object([("level", level(description.severity))])),
            ("properties", .object(properties)),
        ])
    }

    private static func result(_ finding: Finding, app: String, rules: RuleIndex, context: OutputContext) -> JSONValue {
        var region: [(String, JSONValue)] = [("startLine", .int(OutputContext.line(finding.location)))]
        if let column = finding.location.column, column >= 1 { region.append(("startColumn", .int(column))) }
        if !finding.quote.isEmpty { region.append(("snippet", .object([("text", .string(finding.quote))]))) }
        let physical: JSONValue = .object([
            ("artifactLocation", .object([
                ("uri", .string(URIPath.encode(context.repositoryPath(finding.location.file)))),
                ("uriBaseId", "%SRCROOT%"),
            ])),
            ("region", .object(region)),
        ])
        var members: [(String, JSONValue)] = [
            ("ruleId", .string(finding.ruleID)),
            ("ruleIndex", .int(rules.index(of: finding.ruleID))),
            ("level", level(finding.severity)),
            ("message", .object([("text", .string(PlainText.message(finding.message)))])),
            ("locations", [.object([("physicalLocation", physical)])]),
            ("partialFingerprints", .object([(fingerprintKey, .string(context.fingerprint(finding)))])),
            ("properties", .object([("app", .string(app)), ("target", .string(finding.target))])),
        ]
        if let suppression = finding.suppression {
            members.append(("suppressions", [.object([
                ("kind", .string(suppression.origin == .config ? "external" : "inSource")),
                ("status", "accepted"),
                ("justification", .string(suppression.reason)),
            ])]))
        }
        return .object(members)
    }
}

/// The rules a report describes, in catalogue order, plus any id a finding uses that the
/// catalogue lacks (so every `ruleIndex` points at a rule).
struct RuleIndex {
    let descriptions: [RuleDescription]
    private let positions: [String: Int]

    init(_ audits: [AppAudit]) {
        var descriptions = RuleCatalog.all.map { $0.description }
        let known = Set(descriptions.map(\.id))
        let unknown = Set(audits.flatMap(\.findings).map(\.ruleID)).subtracting(known).sorted()
        for id in unknown {
            let severity = audits.flatMap(\.findings).first { $0.ruleID == id }?.severity ?? .warning
            descriptions.append(RuleDescription(id: id, title: id, severity: severity, questions: [], rationale: "",
                                                triggering: [], nonTriggering: []))
        }
        self.descriptions = descriptions
        positions = Dictionary(descriptions.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func index(of id: String) -> Int { positions[id] ?? 0 }
}

/// A relative path as a URI reference: each segment percent-encoded except RFC 3986 unreserved characters.
enum URIPath {
    static func encode(_ path: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        allowed.insert("/")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
