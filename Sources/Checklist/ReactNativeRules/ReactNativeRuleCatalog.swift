import Manifest

extension RuleCatalog {
    /// Rules over an app's JavaScript / TypeScript (react-native-health, @kingstinct/react-native-healthkit, Capacitor).
    public static var reactNativeRules: [any Rule.Type] {
        [CallbackErrorAsDenialRule.self, ReadBeforeInitRule.self, ZeroForMissingRule.self, WriteErrorUnhandledRule.self,
         PluginReadStatusRule.self, PluginResultAsGrantRule.self, ReadAccessInferredRule.self]
    }
}
