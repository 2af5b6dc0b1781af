import Manifest

/// `healthkit` as a required capability hides the app from iPads that lack HealthKit.
struct RequiredCapabilityOnIPadRule: Rule {
    static let description = RuleDescription(
        id: "healthkit-required-capability-ipad", title: "HealthKit required on a universal app", severity: .warning,
        questions: [],
        rationale: """
        `UIRequiredDeviceCapabilities` containing `healthkit` makes the App Store refuse the app on devices without \
        HealthKit. For an app that also runs on iPad (`UIDeviceFamily` includes 2), that hides it from every iPad before \
        iPadOS 17. Apple advises removing the capability and checking `HKHealthStore.isHealthDataAvailable()` at run time.
        """,
        triggering: [
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
                              "UIRequiredDeviceCapabilities": ["arm64", "healthkit"], "UIDeviceFamily": [1, 2]]),
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
                              "UIRequiredDeviceCapabilities": ["healthkit"]], buildSettings: ["TARGETED_DEVICE_FAMILY": "1,2"]),
        ],
        nonTriggering: [
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
                              "UIRequiredDeviceCapabilities": ["arm64", "healthkit"], "UIDeviceFamily": [1]]),
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
                              "UIRequiredDeviceCapabilities": ["arm64"], "UIDeviceFamily": [1, 2]]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        guard let plist = context.manifest.main.infoPlist else { return [] }
        let requiresHealthKit = plist.requiresHealthKit
        let families = plist["UIDeviceFamily"]?.array?.compactMap(\.integer)
            ?? context.manifest.config.buildSettings["TARGETED_DEVICE_FAMILY"]?.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            ?? []
        guard requiresHealthKit, families.contains(2) else { return [] }
        return [finding("UIRequiredDeviceCapabilities requires healthkit while the app also targets iPad: iPads without HealthKit cannot install it; check isHealthDataAvailable() at run time instead",
                        in: plist, key: "UIRequiredDeviceCapabilities", target: context.manifest.id)]
    }
}

/// Extensions cannot present the permission sheet: their usage strings are never shown.
struct ExtensionDeclaresHealthKitUsageRule: Rule {
    static let description = RuleDescription(
        id: "extension-declares-healthkit-usage", title: "Extension declares HealthKit usage it cannot use", severity: .warning,
        questions: [],
        rationale: """
        A widget or other app extension cannot present HealthKit's permission sheet; it relies on the containing app's \
        authorization. Usage strings in the extension's Info.plist are never shown, and suggest the extension intends to \
        ask. A HealthKit entitlement on an extension whose app lacks it can never be backed by a grant.
        """,
        triggering: [
            .healthApp(["Widget/Info.plist": RuleExample.plist([
                "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>,
                "NSHealthShareUsageDescription": "The widget reads your steps to show today's progress.",
            ])]),
        ],
        nonTriggering: [
            .healthApp(["Widget/Info.plist": RuleExample.plist([
                "NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>,
            ]), "Widget/Widget.entitlements": RuleExample.healthKitEntitlement]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        context.manifest.extensions.filter(\.isExtension).flatMap { target -> [Finding] in
            var findings: [Finding] = []
            if let plist = target.infoPlist {
                for key in HealthKeys.usageKeys where plist[key] != nil {
                    findings.append(finding("extension \(target.id) declares \(key), but extensions cannot present the HealthKit permission sheet: the containing app must ask",
                                            in: plist, key: key, target: target.id))
                }
            }
            if let entitlements = target.entitlements, entitlements[HealthKeys.entitlement]?.bool == true, !context.hasHealthKitEntitlement {
                findings.append(finding("extension \(target.id) has the HealthKit entitlement but the app does not: no grant can ever back it",
                                        in: entitlements, key: HealthKeys.entitlement, target: target.id))
            }
            return findings
        }
    }
}
