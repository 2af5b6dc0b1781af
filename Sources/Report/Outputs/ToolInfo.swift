/// The tool as named in machine outputs (SARIF `tool.driver`, JSON `tool`, the evidence file).
public struct ToolInfo: Sendable, Hashable {
    public var name: String
    public var version: String
    public var informationURI: String

    public init(name: String = "healthaudit", version: String = ToolInfo.currentVersion,
                informationURI: String = ToolInfo.homepage) {
        self.name = name; self.version = version; self.informationURI = informationURI
    }

    /// Bumped with each release; reports carry it so a result can be traced to the tool that made it.
    public static let currentVersion = "0.1.0"
    public static let homepage = "https://github.com/healthaudit/healthaudit"

    /// Where a rule is documented: `healthaudit explain RULE` prints the same, and docs/rules.md lists every rule.
    public func ruleDocumentationURI(_ rule: String) -> String { informationURI + "/blob/main/docs/rules.md?rule=" + rule + "#rules" }
}
