extension RuleCatalog {
    /// Rules about the audit's own reach: what it read but could not analyse.
    public static var coverageRules: [any Rule.Type] { [FileNotAnalysedRule.self] }
}
