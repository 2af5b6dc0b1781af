import Manifest

extension RuleCatalog {
    /// Rules over an app's JavaScript / TypeScript (react-native-health, @kingstinct/react-native-healthkit, Capacitor).
    public static var reactNativeRules: [any Rule.Type] {
        [CallbackErrorAsDenialRule.self, ReadBeforeInitRule.self, ZeroForMissingRule.self, WriteErrorUnhandledRule.self,
         PluginReadStatusRule.self, PluginResultAsGrantRule.self]
    }

    /// Adds what `initHealthKit` asks for to the requested types, and what could not be resolved to the notes.
    static var reactNativeContextPreparers: [(AuditContext) -> Void] { [ReactNativeTypesPreparer.prepare] }
}

/// The types a React Native app's `initHealthKit(permissions)` asks for, as the checklist and the
/// simulated store see them: `permissions.read` → read, `permissions.write` → share.
enum ReactNativeTypesPreparer {
    static func prepare(_ context: AuditContext) {
        guard let scan = context.manifest.reactNativeHealth else { return }
        context.requestedRead.formUnion(scan.readTypes)
        context.requestedShare.formUnion(scan.writeTypes)
        for note in scan.notes where !context.notes.contains(note) { context.notes.append(note) }
    }
}
