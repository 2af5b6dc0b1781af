extension RuleCatalog {
    /// Rules over a Flutter app's Dart (`package:health`).
    public static var dartRules: [any Rule.Type] { [FlutterPermissionsUnknownRule.self, FlutterWriteReadOnlyRule.self] }
}
