extension RuleCatalog {
    /// Rules over the calls of any library that wraps HealthKit, JavaScript or Dart alike: one
    /// mistake, made the same way through `@kingstinct/react-native-healthkit` and `package:health`.
    public static var wrapperRules: [any Rule.Type] { [RequestResultAsGrantRule.self, WriteWithoutRequestRule.self, TypeNewerThanDeploymentTargetRule.self] }
}
