extension RuleCatalog {
    /// Rules over Swift sources (swift-syntax).
    public static var sourceRules: [any Rule.Type] { [] }
    static var sourceContextPreparers: [(AuditContext) -> Void] { [] }
}
