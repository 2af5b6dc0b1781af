extension RuleCatalog {
    /// Rules over Swift sources (swift-syntax), in the order of the review questions they answer.
    public static var sourceRules: [any Rule.Type] {
        [
            AvailabilityNotCheckedRule.self,
            SuccessReadAsGrantedRule.self, DataBeforeAuthorizationRule.self, AuthorizationFromErrorTextRule.self,
            FireAndForgetAuthorizationRule.self, TimingBandAidRule.self,
            ReadStatusProbedRule.self, OwnSamplesAsReadAccessRule.self, ReadProbedWithMotionRule.self, ReadProbedWithQueryRule.self,
            ExtensionRequestsAuthorizationRule.self,
            CachedAuthorizationRule.self,
            AuthorizationRememberedRule.self,
            RequestedTypesDifferRule.self,
            RequestRefusedTypeRule.self, RouteWithoutWorkoutRule.self, OverBroadReadRequestRule.self,
        ]
    }
}
