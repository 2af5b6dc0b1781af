import Manifest

/// The Info.plist keys and entitlements HealthKit reads, in one place.
enum HealthKeys {
    static let share = "NSHealthShareUsageDescription"
    static let update = "NSHealthUpdateUsageDescription"
    static let clinical = "NSHealthClinicalHealthRecordsShareUsageDescription"
    static let requiredRead = "NSHealthRequiredReadAuthorizationTypeIdentifiers"
    static let usageKeys = [share, update, clinical]

    static let entitlement = "com.apple.developer.healthkit"
    static let access = "com.apple.developer.healthkit.access"
    static let backgroundDelivery = "com.apple.developer.healthkit.background-delivery"
    static let iCloudEntitlements = [
        "com.apple.developer.icloud-services", "com.apple.developer.icloud-container-identifiers",
        "com.apple.developer.ubiquity-container-identifiers", "com.apple.developer.ubiquity-kvstore-identifier",
    ]
}

extension AuditContext {
    var accessValues: [String] {
        manifest.main.entitlements?[HealthKeys.access]?.array?.compactMap(\.string) ?? []
    }

    var requestsClinicalTypes: Bool {
        requestedRead.contains { HealthKitType.named($0)?.kind == .clinical }
    }

    /// Whether clinical types may be asked for though none is known to be: a read request's types
    /// could not be resolved (or requests are made and none of their types is known: a wrapper
    /// framework's, built from a study definition), and the app's Swift code works with clinical
    /// records. Then "nothing asks for clinical records" is not what the code shows.
    var mayRequestClinicalTypes: Bool {
        let typesUnknown = !unresolvedRead.isEmpty || (requestedRead.isEmpty && usage.facts.contains { $0.kind == .authorizationRequest })
        guard !requestsClinicalTypes, typesUnknown else { return false }
        return sources.contains { source in Self.clinicalRecordAPIs.contains { ByteSearch.contains(source.file.text, $0) } }
    }

    private static let clinicalRecordAPIs = ["HKClinicalRecord", "HKClinicalType", "clinicalType(forIdentifier"]

    /// Whether anything says the app uses HealthKit: usage strings, requested types or `import HealthKit`.
    var usesHealthKit: Bool { uses(requested: requestedTypes, sources: sources) }

    /// Whether the app itself (not only its watch applications, which sign with their own
    /// entitlements) uses HealthKit: usage strings, its requested types, or its own `import HealthKit`.
    var appUsesHealthKit: Bool {
        uses(requested: appRequestedRead.union(appRequestedShare), sources: sources.filter { !watchAppIDs.contains($0.target) })
    }

    private func uses(requested: Set<String>, sources: [ParsedSource]) -> Bool {
        HealthKeys.usageKeys.contains { manifest.usageString($0) != nil } || !requested.isEmpty
            || sources.contains { ByteSearch.contains($0.file.text, "import HealthKit") } || !manifest.healthKitDependencies.isEmpty
    }

    var importsHealthKit: Bool {
        sources.contains { ByteSearch.contains($0.file.text, "import HealthKit") }
    }
}
