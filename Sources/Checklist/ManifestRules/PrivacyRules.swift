import Manifest

private func privacyManifest(tracking: Bool, domains: [Any] = [], linkedToTracking: Bool = false, purposes: [Any] = ["NSPrivacyCollectedDataTypePurposeAppFunctionality"]) -> String {
    RuleExample.plist([
        "NSPrivacyTracking": tracking,
        "NSPrivacyTrackingDomains": domains,
        "NSPrivacyCollectedDataTypes": [[
            "NSPrivacyCollectedDataType": "NSPrivacyCollectedDataTypeHealth",
            "NSPrivacyCollectedDataTypeLinked": true,
            "NSPrivacyCollectedDataTypeTracking": linkedToTracking,
            "NSPrivacyCollectedDataTypePurposes": purposes,
        ] as KeyValuePairs<String, Any>],
    ])
}

/// Health and fitness data may not be used for tracking or advertising (guideline 5.1.3).
struct PrivacyManifestHealthTrackingRule: Rule {
    static let description = RuleDescription(
        id: "privacy-manifest-health-tracking", title: "Health data declared for tracking or advertising", severity: .error, questions: [], predicts: .disclosure,
        rationale: """
        App Review guideline 5.1.3 forbids using HealthKit data for advertising or tracking. A `PrivacyInfo.xcprivacy` \
        that declares `NSPrivacyCollectedDataTypeHealth` or `…Fitness` with `NSPrivacyCollectedDataTypeTracking` true, \
        or with a third-party or developer advertising purpose, says exactly that.
        """,
        triggering: [
            .healthApp(["PrivacyInfo.xcprivacy": privacyManifest(tracking: false, linkedToTracking: true)]),
            .healthApp(["PrivacyInfo.xcprivacy": privacyManifest(tracking: false, purposes: ["NSPrivacyCollectedDataTypePurposeThirdPartyAdvertising"])]),
        ],
        nonTriggering: [.healthApp(["PrivacyInfo.xcprivacy": privacyManifest(tracking: false)]), .healthApp()]
    )

    static let healthTypes: Set<String> = ["NSPrivacyCollectedDataTypeHealth", "NSPrivacyCollectedDataTypeFitness"]
    static let advertising: Set<String> = ["NSPrivacyCollectedDataTypePurposeThirdPartyAdvertising", "NSPrivacyCollectedDataTypePurposeDeveloperAdvertising"]

    func check(_ context: AuditContext) -> [Finding] {
        guard let manifest = context.manifest.privacyManifest else { return [] }
        let entries = manifest["NSPrivacyCollectedDataTypes"]?.array?.compactMap(\.dictionary) ?? []
        return entries.compactMap { entry in
            guard let type = entry["NSPrivacyCollectedDataType"]?.string, Self.healthTypes.contains(type) else { return nil }
            let purposes = Set(entry["NSPrivacyCollectedDataTypePurposes"]?.array?.compactMap(\.string) ?? [])
            var problems: [String] = []
            if entry["NSPrivacyCollectedDataTypeTracking"]?.bool == true { problems.append("is marked as used for tracking") }
            let ads = purposes.intersection(Self.advertising).sorted()
            if !ads.isEmpty { problems.append("lists advertising purposes (\(ads.joined(separator: ", ")))") }
            guard !problems.isEmpty else { return nil }
            return finding("\(type) " + problems.joined(separator: " and ") + ": health data may not be used for tracking or advertising (guideline 5.1.3)",
                           in: manifest, key: "NSPrivacyCollectedDataTypes", target: context.manifest.id)
        }
    }
}

struct PrivacyTrackingDomainsRule: Rule {
    static let description = RuleDescription(
        id: "privacy-tracking-domains", title: "Tracking declared without tracking domains", severity: .warning, questions: [],
        rationale: """
        A privacy manifest with `NSPrivacyTracking` true must list the domains used for tracking in \
        `NSPrivacyTrackingDomains`; iOS blocks connections to undeclared tracking domains when the user has not allowed tracking.
        """,
        triggering: [.healthApp(["PrivacyInfo.xcprivacy": privacyManifest(tracking: true)])],
        nonTriggering: [.healthApp(["PrivacyInfo.xcprivacy": privacyManifest(tracking: true, domains: ["metrics.example.com"])]),
                        .healthApp(["PrivacyInfo.xcprivacy": privacyManifest(tracking: false)])]
    )

    func check(_ context: AuditContext) -> [Finding] {
        guard let manifest = context.manifest.privacyManifest, manifest["NSPrivacyTracking"]?.bool == true,
              manifest["NSPrivacyTrackingDomains"]?.array?.isEmpty != false else { return [] }
        return [finding("NSPrivacyTracking is true but NSPrivacyTrackingDomains lists no domain", in: manifest, key: "NSPrivacyTracking", target: context.manifest.id)]
    }
}
