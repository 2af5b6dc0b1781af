extension RuleCatalog {
    /// Rules over Info.plist, entitlements, strings files and the privacy manifest.
    public static var manifestRules: [any Rule.Type] { [] }
}
