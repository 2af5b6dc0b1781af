/// A document a rule rests on: Apple's API documentation or an App Review guideline.
public struct RuleReference: Sendable, Hashable {
    public var title: String
    public var url: String
}

/// The documents behind each rule, as one table: a reviewer can check the rule against its source,
/// and a new rule gets its references here (a test requires at least one per rule).
public enum RuleReferences {
    // Apple's HealthKit and bundle-resource documentation.
    static let authorizing = RuleReference(title: "HealthKit: Authorizing access to health data",
                                           url: "https://developer.apple.com/documentation/healthkit/authorizing-access-to-health-data")
    static let requestAuthorization = RuleReference(title: "HKHealthStore.requestAuthorization(toShare:read:completion:)",
                                                    url: "https://developer.apple.com/documentation/healthkit/hkhealthstore/requestauthorization(toshare:read:completion:)")
    static let authorizationStatus = RuleReference(title: "HKHealthStore.authorizationStatus(for:)",
                                                   url: "https://developer.apple.com/documentation/healthkit/hkhealthstore/authorizationstatus(for:)")
    static let requestStatus = RuleReference(title: "HKHealthStore.getRequestStatusForAuthorization(toShare:read:completion:)",
                                             url: "https://developer.apple.com/documentation/healthkit/hkhealthstore/getrequeststatusforauthorization(toshare:read:completion:)")
    static let isHealthDataAvailable = RuleReference(title: "HKHealthStore.isHealthDataAvailable()",
                                                     url: "https://developer.apple.com/documentation/healthkit/hkhealthstore/ishealthdataavailable()")
    static let protectingPrivacy = RuleReference(title: "HealthKit: Protecting user privacy",
                                                 url: "https://developer.apple.com/documentation/healthkit/protecting-user-privacy")
    static let perObject = RuleReference(title: "HKHealthStore.requestPerObjectReadAuthorization(for:predicate:completion:)",
                                         url: "https://developer.apple.com/documentation/healthkit/hkhealthstore/requestperobjectreadauthorization(for:predicate:completion:)")
    static let clinicalRecords = RuleReference(title: "HealthKit: Accessing health records",
                                               url: "https://developer.apple.com/documentation/healthkit/accessing-health-records")
    static let backgroundDelivery = RuleReference(title: "HKHealthStore.enableBackgroundDelivery(for:frequency:withCompletion:)",
                                                  url: "https://developer.apple.com/documentation/healthkit/hkhealthstore/enablebackgrounddelivery(for:frequency:withcompletion:)")
    static let saving = RuleReference(title: "HKHealthStore: saving objects",
                                      url: "https://developer.apple.com/documentation/healthkit/hkhealthstore")
    static let workoutRoute = RuleReference(title: "HKWorkoutRouteBuilder",
                                            url: "https://developer.apple.com/documentation/healthkit/hkworkoutroutebuilder")
    static let shareUsage = RuleReference(title: "NSHealthShareUsageDescription",
                                          url: "https://developer.apple.com/documentation/bundleresources/information-property-list/nshealthshareusagedescription")
    static let updateUsage = RuleReference(title: "NSHealthUpdateUsageDescription",
                                           url: "https://developer.apple.com/documentation/bundleresources/information-property-list/nshealthupdateusagedescription")
    static let entitlement = RuleReference(title: "HealthKit entitlement (com.apple.developer.healthkit)",
                                           url: "https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.healthkit")
    static let entitlementAccess = RuleReference(title: "HealthKit capabilities entitlement (com.apple.developer.healthkit.access)",
                                                 url: "https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.healthkit.access")
    static let requiredCapabilities = RuleReference(title: "UIRequiredDeviceCapabilities",
                                                    url: "https://developer.apple.com/documentation/bundleresources/information-property-list/uirequireddevicecapabilities")
    static let localizingInfoPlist = RuleReference(title: "Information property list (localized with InfoPlist.strings)",
                                                   url: "https://developer.apple.com/documentation/bundleresources/information-property-list")
    static let privacyManifest = RuleReference(title: "Privacy manifest files",
                                               url: "https://developer.apple.com/documentation/bundleresources/privacy-manifest-files")
    static let availability = RuleReference(title: "Running code on a specific platform or OS version",
                                            url: "https://developer.apple.com/documentation/xcode/running-code-on-a-specific-version")
    static let appExtensions = RuleReference(title: "Xcode: Configuring HealthKit access",
                                             url: "https://developer.apple.com/documentation/xcode/configuring-healthkit-access")
    // App Review guidelines.
    static let guidelineHealth = RuleReference(title: "App Review Guidelines 5.1.3: Health and health research",
                                               url: "https://developer.apple.com/app-store/review/guidelines/#health-and-health-research")
    static let guidelineDataCollection = RuleReference(title: "App Review Guidelines 5.1.1: Data collection and storage",
                                                       url: "https://developer.apple.com/app-store/review/guidelines/#data-collection-and-storage")
    static let guidelineCompleteness = RuleReference(title: "App Review Guidelines 2.1: App completeness",
                                                     url: "https://developer.apple.com/app-store/review/guidelines/#app-completeness")
    static let guidelineSoftware = RuleReference(title: "App Review Guidelines 2.5.1: Software requirements",
                                                 url: "https://developer.apple.com/app-store/review/guidelines/#software-requirements")

    public static let table: [String: [RuleReference]] = [
        "app-not-loaded": [appExtensions, entitlement],
        "authorization-from-error-text": [requestAuthorization, authorizing],
        "authorization-remembered": [authorizing, protectingPrivacy],
        "availability-not-checked": [isHealthDataAvailable, guidelineCompleteness],
        "background-delivery-mismatch": [backgroundDelivery, entitlementAccess],
        "cached-authorization": [authorizing, authorizationStatus],
        "clinical-records-mismatch": [clinicalRecords, entitlementAccess],
        "data-before-authorization": [requestAuthorization, authorizing],
        "dependency-clinical-records": [clinicalRecords, guidelineHealth],
        "dependency-without-health-feature": [guidelineSoftware, guidelineHealth],
        "entitlement-missing": [entitlement, guidelineCompleteness],
        "entitlement-unused": [entitlement, guidelineSoftware],
        "extension-declares-healthkit-usage": [appExtensions, shareUsage],
        "extension-requests-authorization": [appExtensions, requestAuthorization],
        "file-not-analysed": [authorizing, protectingPrivacy],
        "fire-and-forget-authorization": [requestAuthorization, authorizing],
        "flutter-permissions-unknown": [protectingPrivacy, authorizationStatus],
        "flutter-write-read-only": [requestAuthorization, authorizing],
        "healthkit-required-capability-ipad": [requiredCapabilities, isHealthDataAvailable],
        "healthkit-use-unread": [entitlement, authorizing],
        "icloud-beside-healthkit": [guidelineHealth, protectingPrivacy],
        "localization-incomplete": [localizingInfoPlist, shareUsage],
        "localized-key-not-in-plist": [localizingInfoPlist, shareUsage],
        "over-broad-read-request": [guidelineDataCollection, guidelineHealth],
        "own-samples-as-read-access": [protectingPrivacy, authorizationStatus],
        "plugin-read-status": [protectingPrivacy, authorizationStatus, requestStatus],
        "plugin-result-as-grant": [protectingPrivacy, requestAuthorization],
        "privacy-manifest-health-tracking": [privacyManifest, guidelineHealth],
        "privacy-tracking-domains": [privacyManifest],
        "read-access-inferred": [protectingPrivacy],
        "read-probed-with-motion": [protectingPrivacy],
        "read-probed-with-query": [protectingPrivacy, authorizing],
        "read-status-probed": [authorizationStatus, protectingPrivacy, requestStatus],
        "request-refused-type": [requestAuthorization, perObject],
        "request-result-as-grant": [requestAuthorization, protectingPrivacy],
        "requested-types-differ": [requestAuthorization, guidelineDataCollection],
        "required-read-types-invalid": [clinicalRecords, entitlementAccess],
        "rn-callback-error-as-denial": [requestAuthorization, protectingPrivacy],
        "rn-read-before-init": [requestAuthorization, authorizing],
        "rn-zero-for-missing": [protectingPrivacy],
        "route-without-workout": [workoutRoute, requestAuthorization],
        "success-read-as-granted": [requestAuthorization, protectingPrivacy],
        "timing-band-aid": [requestAuthorization, authorizing],
        "type-newer-than-deployment-target": [availability, requestAuthorization],
        "unresolved-build-variable": [shareUsage, updateUsage],
        "usage-key-in-localizable-strings": [localizingInfoPlist, shareUsage],
        "usage-string-invalid": [shareUsage, updateUsage, guidelineDataCollection],
        "usage-string-language-unjudged": [shareUsage, updateUsage],
        "usage-string-missing": [shareUsage, updateUsage, guidelineCompleteness],
        "usage-string-placeholder": [shareUsage, updateUsage, guidelineDataCollection],
        "usage-string-repeated": [shareUsage, updateUsage],
        "usage-string-vague": [shareUsage, updateUsage, guidelineDataCollection],
        "write-error-unhandled": [saving],
        "write-without-request": [requestAuthorization, saving],
    ]

    public static func of(_ rule: RuleDescription) -> [RuleReference] { table[rule.id] ?? [] }
}
