extension RuleCatalog {
    /// Rules over Info.plist, entitlements, strings files and the privacy manifest.
    public static var manifestRules: [any Rule.Type] {
        [
            UsageStringMissingRule.self, UsageStringInvalidRule.self, UsageStringPlaceholderRule.self, UsageStringVagueRule.self,
            UsageStringLanguageUnjudgedRule.self, UsageStringRepeatedRule.self,
            EntitlementMissingRule.self, EntitlementUnusedRule.self, ClinicalRecordsMismatchRule.self,
            RequiredReadTypesInvalidRule.self, BackgroundDeliveryMismatchRule.self, ICloudBesideHealthKitRule.self,
            PrivacyManifestHealthTrackingRule.self, PrivacyTrackingDomainsRule.self,
            LocalizationIncompleteRule.self, LocalizedKeyNotInPlistRule.self, UsageKeyInLocalizableStringsRule.self,
            UnresolvedBuildVariableRule.self, RequiredCapabilityOnIPadRule.self, ExtensionDeclaresHealthKitUsageRule.self,
            DependencyWithoutHealthFeatureRule.self, DependencyClinicalRecordsRule.self, AppNotLoadedRule.self, HealthKitUseUnreadRule.self,
        ]
    }
}
