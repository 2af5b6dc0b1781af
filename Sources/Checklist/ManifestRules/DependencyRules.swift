import Manifest

/// A package links HealthKit, and the app's own code never touches it: the app still ships
/// HealthKit (upload needs both usage strings), yet shows no health feature for App Review.
struct DependencyWithoutHealthFeatureRule: Rule {
    static let description = RuleDescription(
        id: "dependency-without-health-feature", title: "HealthKit linked by a dependency the app never uses", severity: .note,
        questions: [],
        rationale: """
        A package that links HealthKit (a React Native, Flutter, Capacitor or Cordova plugin, ResearchKit, CareKit, \
        an SDK) puts HealthKit's API into the app's binary whether or not the app calls it. App Store Connect then \
        requires both `NSHealthShareUsageDescription` and `NSHealthUpdateUsageDescription` (ITMS-90683, "If you're \
        using external libraries or SDKs, they may reference APIs that require a purpose string"), and App Review \
        guideline 2.5.1 expects an app that uses HealthKit to offer a health feature and make it clear in its \
        interface. When the app's own code never reads, writes or asks, the dependency is either left over — remove \
        it — or the feature lives entirely inside it, which the review notes should then explain.
        """,
        triggering: [
            // `package:health` is in pubspec.yaml; no Dart code of the app calls it.
            .flutter(["lib/main.dart": "import 'package:flutter/material.dart';\n\nvoid main() => runApp(const Placeholder());\n"]),
        ],
        nonTriggering: [
            // The app's own code asks for HealthKit data: the dependency serves a feature.
            .healthApp([
                "Podfile.lock": "PODS:\n  - ResearchKit (3.1.1)\n\nDEPENDENCIES:\n  - ResearchKit (~> 3.1)\n\nCOCOAPODS: 1.15.2\n",
                "Sources/Access.swift": """
                import HealthKit

                func connect(_ store: HKHealthStore) async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                }
                """,
            ], read: ["stepCount"], share: []),
            // No HealthKit package.
            .healthApp(["Sources/Survey.swift": "func makeSurvey() -> [String] { [] }\n"], read: [], share: []),
            // An SDK asks through its own API (ResearchKit's steps, Spezi's configuration), which the audit does not read.
            .healthApp([
                "Podfile.lock": "PODS:\n  - ResearchKit (3.1.1)\n\nDEPENDENCIES:\n  - ResearchKit (~> 3.1)\n\nCOCOAPODS: 1.15.2\n",
                "Sources/Survey.swift": "import ResearchKit\n\nfunc makeSurvey() -> ORKOrderedTask {\n    ORKOrderedTask(identifier: \"mood\", steps: [])\n}\n",
            ], read: [], share: []),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let dependencies = context.manifest.healthKitDependencies
        guard let first = context.unusedHealthKitPackage else { return [] }
        let names = dependencies.map { "`\($0.package)`" }.joined(separator: ", ")
        return [finding("\(names) \(dependencies.count == 1 ? "links" : "link") HealthKit, but the app's own code never reads, writes or asks for "
                        + "HealthKit data: the upload still needs both usage strings, and App Review (guideline 2.5.1) looks for the health "
                        + "feature that uses it — remove the dependency if nothing needs it, or explain the feature in the review notes",
                        at: first.location, quote: first.quote, target: context.manifest.id)]
    }
}

/// A package references clinical-record types the app itself never asks for: the app now ships
/// Health Records code, and what it declares about clinical records should say whether it is used.
struct DependencyClinicalRecordsRule: Rule {
    static let description = RuleDescription(
        id: "dependency-clinical-records", title: "A dependency references clinical health records", severity: .note,
        questions: [],
        rationale: """
        Reading clinical health records (allergies, conditions, lab results — `HKClinicalType`) is its own capability: \
        `health-records` in `com.apple.developer.healthkit.access`, the `NSHealthClinicalHealthRecordsShareUsageDescription` \
        purpose string, and an App Review that asks which feature needs the records. A package that references clinical \
        types (ResearchKit's clinical recorder, a FHIR bridge, react-native-health's clinical queries) brings that code \
        into an app that may never use it. When the app asks for no clinical type, keep `health-records` out of its \
        entitlements and be ready to tell App Review the package's clinical code is unused; when it does read records, \
        `clinical-records-mismatch` checks the three declarations.
        """,
        triggering: [
            .healthApp(["Podfile.lock": "PODS:\n  - ResearchKit (3.1.1)\n\nDEPENDENCIES:\n  - ResearchKit (~> 3.1)\n\nCOCOAPODS: 1.15.2\n"]),
        ],
        nonTriggering: [
            // The app reads clinical records itself, and declares them.
            .healthApp(["Podfile.lock": "PODS:\n  - ResearchKit (3.1.1)\n\nDEPENDENCIES:\n  - ResearchKit (~> 3.1)\n\nCOCOAPODS: 1.15.2\n",
                        "App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.access": ["health-records"]])],
                       info: ["CFBundleName": "Steady", "NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
                              "NSHealthClinicalHealthRecordsShareUsageDescription": "Steady reads your allergy records to warn you before a workout."],
                       read: ["stepCount", "allergyRecord"]),
            // A package without clinical code.
            .healthApp(["Podfile.lock": "PODS:\n  - health (13.1.4):\n    - Flutter\n\nDEPENDENCIES:\n  - health (from `.symlinks/plugins/health/ios`)\n"]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        guard !context.requestsClinicalTypes, !context.mayRequestClinicalTypes, context.manifest.usageString(HealthKeys.clinical) == nil else { return [] }
        let clinical = context.manifest.healthKitDependencies.filter(\.known.clinical)
        guard let first = clinical.first(where: { $0.isDirect == true }) ?? clinical.first else { return [] }
        // One note per app: the advice is the same for every package.
        let names = clinical.map { "`\($0.package)`" }.joined(separator: ", ")
        return [finding("\(names) \(clinical.count == 1 ? "contains" : "contain") code for clinical health records, which the app never asks for: keep "
                        + "`health-records` out of \(HealthKeys.access) and be ready to tell App Review the clinical code is unused",
                        at: first.location, quote: first.quote, target: context.manifest.id)]
    }
}

extension AuditContext {
    /// The package that links HealthKit into an app whose own code, all read, never uses it: every
    /// HealthKit package is one whose calls the audit reads, and none is called, nothing is requested.
    /// The app then does not touch HealthKit (the answers say not applicable, the audit is complete).
    var unusedHealthKitPackage: HealthKitDependency? {
        let dependencies = manifest.healthKitDependencies
        // Only packages whose calls the audit reads can be said to be unused.
        guard dependencies.allSatisfy(\.known.callsAnalysed), let first = dependencies.first(where: { $0.isDirect == true }) ?? dependencies.first,
              hasSources, !usage.callsHealthKit, requestedTypes.isEmpty, wrapperRequests.isEmpty else { return nil }
        return first
    }
}
