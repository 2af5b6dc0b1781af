import Manifest

struct EntitlementMissingRule: Rule {
    static let description = RuleDescription(
        id: "entitlement-missing", title: "HealthKit entitlement missing", severity: .error, questions: [],
        rationale: """
        Without `com.apple.developer.healthkit` set to `true`, HealthKit refuses every request with error code 4 \
        ("Missing com.apple.developer.healthkit entitlement.") and no permission sheet appears — the app looks as if \
        the user denied everything. Each target signs with its own entitlements: a widget or watch app whose own code \
        queries HealthKit needs the key in its own file, whatever the app has.
        """,
        triggering: [
            // An entitlements file without the HealthKit key.
            .healthApp(["App.entitlements": RuleExample.plist(["com.apple.security.application-groups": ["group.com.example.steady"]])]),
            .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": false])]),
            // The app is entitled; its widget queries HealthKit with an entitlements file that lacks the key.
            .healthApp([
                "Widget/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>]),
                "Widget/Widget.entitlements": RuleExample.plist(["com.apple.security.application-groups": ["group.com.example.steady"]]),
                "Widget/Sources/Provider.swift": """
                import HealthKit

                struct StepsProvider {
                    let store = HKHealthStore()

                    func steps() async throws -> Double {
                        guard HKHealthStore.isHealthDataAvailable() else { return 0 }
                        let descriptor = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum)
                        return try await descriptor.result(for: store)?.sumQuantity()?.doubleValue(for: .count()) ?? 0
                    }
                }
                """,
            ]),
        ],
        nonTriggering: [
            .healthApp(),
            // No entitlements file at all and no project to read it from: "cannot tell", with a note, not an error.
            .healthApp(["App.entitlements": ""]),
            .healthApp(["App.entitlements": ""], info: ["CFBundleName": "Plain"], read: [], share: []),
            // A widget entitled itself; and one with no HealthKit code of its own needs nothing.
            .healthApp([
                "Widget/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>]),
                "Widget/Widget.entitlements": RuleExample.healthKitEntitlement,
                "Widget/Sources/Provider.swift": "import HealthKit\n\nstruct StepsProvider {\n    let store = HKHealthStore()\n\n    func ask() async throws {\n        _ = try await HKStatisticsQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum).result(for: store)\n    }\n}\n",
            ]),
            .healthApp([
                "Widget/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>]),
                "Widget/Widget.entitlements": RuleExample.plist(["com.apple.security.application-groups": ["group.com.example.steady"]]),
                "Widget/Sources/Provider.swift": "struct StepsProvider {\n    func steps() -> Int { 0 }\n}\n",
            ]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        appFindings(context) + context.manifest.extensions.compactMap { targetFinding($0, context) }
    }

    /// A widget or watch app whose own files (not code it shares with the app) call HealthKit,
    /// signed without the key. A target with no entitlements file at all is left to the notes.
    private func targetFinding(_ target: TargetManifest, _ context: AuditContext) -> Finding? {
        guard let entitlements = target.entitlements, entitlements[HealthKeys.entitlement]?.bool != true else { return nil }
        let shared = Set(context.manifest.main.sources.map(\.path))
        guard let call = context.usage.facts.first(where: { $0.target == target.id && $0.kind != .availabilityCheck && !shared.contains($0.evidence.location.file) })
        else { return nil }
        let state = entitlements[HealthKeys.entitlement].map { "is \($0.summary)" } ?? "is absent"
        return finding("\(target.kind == .watchApp ? "watch app" : "extension") \(target.id) calls HealthKit (\(call.evidence.location)) but its own \(HealthKeys.entitlement) \(state): "
                       + "each target signs with its own entitlements, so its requests fail with HKError code 4", in: entitlements,
                       key: entitlements[HealthKeys.entitlement] == nil ? nil : HealthKeys.entitlement, target: target.id)
    }

    private func appFindings(_ context: AuditContext) -> [Finding] {
        guard !context.hasHealthKitEntitlement, context.appUsesHealthKit else { return [] }
        // No entitlements file at all and no Xcode project to say there is none (XcodeGen generates
        // it, a config left it out): the audit cannot tell, and says so in the notes, not as an error.
        guard context.manifest.main.entitlements != nil
            || (context.manifest.config.project != nil && context.manifest.entitlementCandidates.isEmpty) else { return [] }
        let app = context.manifest
        let state = context.healthKitEntitlement.map { "is \($0.summary)" } ?? "is absent"
        let message = "the app uses HealthKit but \(HealthKeys.entitlement) \(state): every request fails with HKError code 4 (Missing com.apple.developer.healthkit entitlement.)"
        if let entitlements = app.main.entitlements {
            if context.healthKitEntitlement == nil { return [finding(message, in: entitlements, missingKey: HealthKeys.entitlement, target: app.id)] }
            return [finding(message, in: entitlements, key: HealthKeys.entitlement, target: app.id)]
        }
        if let unset = app.entitlementsUnsetAt {
            return [finding(message + " (the target's build settings set no CODE_SIGN_ENTITLEMENTS: add the HealthKit capability)", at: unset,
                            quote: "\(app.main.name): CODE_SIGN_ENTITLEMENTS not set", target: app.id)]
        }
        guard let plist = app.main.infoPlist else { return [finding(message, at: app.config.location, quote: "entitlements: (none)", target: app.id)] }
        return [finding(message + " (no entitlements file is configured)", in: plist, missingKey: "CODE_SIGN_ENTITLEMENTS", target: app.id)]
    }
}

struct EntitlementUnusedRule: Rule {
    static let description = RuleDescription(
        id: "entitlement-unused", title: "HealthKit entitlement without HealthKit use", severity: .warning, questions: [],
        rationale: """
        An app that carries the HealthKit entitlement but declares no usage string, requests no type and never imports \
        HealthKit is asked about it in App Review, and ITMS-90683 requires usage strings for it anyway. Remove the capability \
        or finish the integration.
        """,
        triggering: [.healthApp(info: ["CFBundleName": "Plain"], read: [], share: [])],
        nonTriggering: [.healthApp(), .healthApp(["App.entitlements": ""], info: ["CFBundleName": "Plain"], read: [], share: [])]
    )

    func check(_ context: AuditContext) -> [Finding] {
        guard context.hasHealthKitEntitlement, !context.usesHealthKit, let entitlements = context.manifest.main.entitlements else { return [] }
        return [finding("\(HealthKeys.entitlement) is set but the app declares no usage string, requests no type and does not import HealthKit",
                        in: entitlements, key: HealthKeys.entitlement, target: context.manifest.id)]
    }
}

/// Clinical records need three things together: the access value, the purpose string and clinical types.
struct ClinicalRecordsMismatchRule: Rule {
    static let description = RuleDescription(
        id: "clinical-records-mismatch", title: "Clinical records access inconsistent", severity: .error, questions: [.usageStringsMeaningful], predicts: .crash,
        rationale: """
        Reading health records needs `health-records` in `com.apple.developer.healthkit.access`, the \
        `NSHealthClinicalHealthRecordsShareUsageDescription` purpose string, and clinical types in the request. Clinical \
        types without the string crash the request: an error. When nothing asks for records, the access or the string \
        is a capability App Review asks you to justify and a string that is never shown: a warning, which leaves \
        question 4 as the usage strings the app does use answer it (the clinical key is needed only to read records).
        """,
        triggering: [
            // Access that nothing uses (Nightguard, PulseFlow): a warning.
            .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.access": ["health-records"]])]),
            .healthApp(read: ["stepCount", "allergyRecord"]),
            .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.access": ["health-records"]])],
                       read: ["stepCount", "allergyRecord"]),
            // The stray string (seen in a real app): a warning.
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
                              "NSHealthClinicalHealthRecordsShareUsageDescription": "Steady shows your heart rate next to your records."]),
            // Clinical code whose types are unknown still lacks the string: an error at the entitlement.
            .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.access": ["health-records"]]),
                        "Sources/Records.swift": Self.recordsFromAStudy],
                       read: [], share: []),
        ],
        nonTriggering: [
            .healthApp(),
            .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.access": ["health-records"]])],
                       info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
                              "NSHealthClinicalHealthRecordsShareUsageDescription": "Steady reads your allergy and medication records to flag interactions."],
                       read: ["stepCount", "allergyRecord"]),
            // Access and string, and clinical types read from a study definition no one can resolve
            // here (a research app on a remote study package): nothing shows they are missing.
            .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.access": ["health-records"]]),
                        "Sources/Records.swift": Self.recordsFromAStudy],
                       info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
                              "NSHealthClinicalHealthRecordsShareUsageDescription": "Steady reads the health records your study asks for."],
                       read: [], share: []),
        ]
    )

    static let recordsFromAStudy = """
        import HealthKit

        final class StudyRecords {
            let store = HKHealthStore()

            func ask(for identifiers: [HKClinicalTypeIdentifier]) async throws {
                let types: Set<HKObjectType> = Set(identifiers.compactMap { HKObjectType.clinicalType(forIdentifier: $0) })
                try await store.requestAuthorization(toShare: [], read: types)
            }
        }
        """

    func check(_ context: AuditContext) -> [Finding] {
        let app = context.manifest
        let hasAccess = context.accessValues.contains("health-records")
        let usage = app.usageString(HealthKeys.clinical)
        let types = context.requestsClinicalTypes
        // Clinical types may be among the requested ones no one could resolve: not missing, then.
        let typesUnknown = context.mayRequestClinicalTypes
        guard hasAccess || usage != nil || types else { return [] }
        var missing: [String] = []
        if !hasAccess { missing.append("`health-records` in \(HealthKeys.access)") }
        if usage == nil { missing.append(HealthKeys.clinical) }
        if !types && !typesUnknown { missing.append("a clinical type in the requested read set") }
        guard !missing.isEmpty else { return [] }
        let present = [hasAccess ? "health-records access" : nil, usage != nil ? "the clinical purpose string" : nil, types ? "clinical types" : nil]
            .compactMap { $0 }.joined(separator: " and ")
        let message = "\(present) without " + missing.joined(separator: ", ")
        if hasAccess, let entitlements = app.main.entitlements {
            var found = finding(message + (types || typesUnknown ? "" : ": nothing asks for clinical records; remove the access, or add the string and request the types"),
                                in: entitlements, key: HealthKeys.access, target: app.id)
            // Nothing asks for records: nothing crashes and no key the app uses is missing.
            if !types { found.severity = .warning }
            return [found]
        }
        if let usage {
            // Only a stray purpose string: nothing asks for clinical records, nothing breaks — a warning.
            var stray = finding(message + ": the string is never shown; remove it, or add the access if the app reads health records",
                                at: usage.location, quote: usage.quote, target: app.id)
            if !hasAccess && !types { stray.severity = .warning }
            return [stray]
        }
        let isClinical = { (name: String) in HealthKitType.named(name)?.kind == .clinical }
        if let type = app.config.requested.read.first(where: { isClinical($0.value) }) {
            return [finding(message, at: type.location, quote: type.value, target: app.id)]
        }
        // Asked for in code: cited where the request names the type.
        if let named = context.resolvedRequests.lazy.flatMap(\.read.names).first(where: { isClinical($0.name) }) {
            return [finding(message, at: named.node, in: named.source)]
        }
        return [finding(message, at: app.config.location, quote: "requested read: clinical types", target: app.id)]
    }
}

struct RequiredReadTypesInvalidRule: Rule {
    static let description = RuleDescription(
        id: "required-read-types-invalid", title: "Required clinical read types invalid", severity: .error, questions: [.usageStringsMeaningful],
        rationale: """
        `NSHealthRequiredReadAuthorizationTypeIdentifiers` lists clinical record types the app cannot work without \
        (HKError code 10 when denied). It is only valid with `health-records` access and may only name clinical types \
        (`HKClinicalTypeIdentifier…`).
        """,
        triggering: [
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
                              "NSHealthRequiredReadAuthorizationTypeIdentifiers": ["HKQuantityTypeIdentifierStepCount"]]),
        ],
        nonTriggering: [
            .healthApp(),
            .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.access": ["health-records"]])],
                       info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
                              "NSHealthClinicalHealthRecordsShareUsageDescription": "Steady reads your allergy records to flag interactions.",
                              "NSHealthRequiredReadAuthorizationTypeIdentifiers": ["HKClinicalTypeIdentifierAllergyRecord"]],
                       read: ["allergyRecord"]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        guard let plist = context.manifest.main.infoPlist, let value = plist[HealthKeys.requiredRead] else { return [] }
        var problems: [String] = []
        if !context.accessValues.contains("health-records") { problems.append("the app lacks `health-records` in \(HealthKeys.access)") }
        let names = value.array?.compactMap(\.string) ?? []
        let nonClinical = names.filter { !$0.hasPrefix("HKClinicalTypeIdentifier") }
        if !nonClinical.isEmpty { problems.append("it names non-clinical types: " + nonClinical.joined(separator: ", ")) }
        if value.array == nil { problems.append("it must be an array of type identifiers, found \(value.typeName)") }
        guard !problems.isEmpty else { return [] }
        return [finding("\(HealthKeys.requiredRead) is invalid: " + problems.joined(separator: "; "), in: plist, key: HealthKeys.requiredRead, target: context.manifest.id)]
    }
}

/// Background delivery needs its own entitlement (iOS 15+), and the entitlement alone does nothing.
struct BackgroundDeliveryMismatchRule: Rule {
    static let description = RuleDescription(
        id: "background-delivery-mismatch", title: "Background delivery and its entitlement disagree", severity: .warning, questions: [],
        rationale: """
        Since iOS 15 `enableBackgroundDelivery(for:frequency:)` fails with HKError code 4 ("Missing \
        com.apple.developer.healthkit.background-delivery entitlement.") unless the app has that entitlement; the \
        entitlement without any `enableBackgroundDelivery` call is an unused capability App Review may question.
        """,
        triggering: [
            .healthApp(["Sources/Sync.swift": """
            import HealthKit
            final class Sync {
                let store = HKHealthStore()
                func start() {
                    store.enableBackgroundDelivery(for: HKQuantityType(.stepCount), frequency: .hourly) { _, _ in }
                }
            }
            """]),
            .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.background-delivery": true]),
                        "Sources/App.swift": "import HealthKit\nlet store = HKHealthStore()\n"]),
            // React Native: the library's enableBackgroundDelivery is HealthKit's, called from JavaScript.
            .reactNative(["js/src/sync.ts": """
            import { enableBackgroundDelivery, UpdateFrequency } from '@kingstinct/react-native-healthkit';

            export async function start() {
              await ↓enableBackgroundDelivery('HKQuantityTypeIdentifierStepCount', UpdateFrequency.hourly);
            }
            """]),
            // react-native-health's observers enable background delivery in its native code.
            .reactNative(["js/App.js": """
            import AppleHealthKit from 'react-native-health';

            AppleHealthKit.initHealthKit({ permissions: { read: [AppleHealthKit.Constants.Permissions.StepCount], write: [] } }, () => {
              AppleHealthKit.↓setObserver({ type: 'StepCount' });
            });
            """]),
        ],
        nonTriggering: [
            .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.background-delivery": true]),
                        "Sources/Sync.swift": "import HealthKit\nfunc start(store: HKHealthStore) {\n    store.enableBackgroundDelivery(for: HKQuantityType(.stepCount), frequency: .hourly) { _, _ in }\n}\n"]),
            .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.background-delivery": true])],
                       scanSources: false),
            // SpeziHealthKit's sample collectors enable background delivery in the framework's own code.
            .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.background-delivery": true]),
                        "Package.resolved": #"{ "pins" : [ { "identity" : "spezihealthkit", "kind" : "remoteSourceControl", "location" : "https://github.com/StanfordSpezi/SpeziHealthKit.git", "state" : { "version" : "1.4.2" } } ], "version" : 2 }"#,
                        "Sources/App.swift": "import HealthKit\nimport SpeziHealthKit\nlet store = HKHealthStore()\n"]),
            .reactNative(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.healthkit.background-delivery": true]),
                          "js/src/sync.ts": """
            import { enableBackgroundDelivery, UpdateFrequency } from '@kingstinct/react-native-healthkit';

            export const start = () => enableBackgroundDelivery('HKQuantityTypeIdentifierStepCount', UpdateFrequency.hourly);
            """]),
        ]
    )

    /// Calls that turn background delivery on: HealthKit's own, and the JavaScript and Dart
    /// libraries' methods that call it (react-native-health's observers enable it natively).
    private static let enablers: Set<String> = ["enableBackgroundDelivery", "setObserver"]

    func check(_ context: AuditContext) -> [Finding] {
        let app = context.manifest
        guard context.hasSources else { return [] } // the entitlement alone cannot be judged without code
        let hasEntitlement = app.main.entitlements?[HealthKeys.backgroundDelivery]?.bool == true
        var calls = SourceQuery.calls(named: ["enableBackgroundDelivery"], in: context.sources.filter { !$0.isExtension }).map { ($0.location, $0.quote) }
        for (call, file) in context.libraryCalls where Self.enablers.contains(call.method) {
            calls.append((file.location(of: call.token), file.quote(call.token)))
        }
        if let (location, quote) = calls.first, !hasEntitlement {
            return [finding("enableBackgroundDelivery is called but \(HealthKeys.backgroundDelivery) is not set: the call fails with HKError code 4 on iOS 15 and later",
                            at: location, quote: quote, target: app.id)]
        }
        // A framework the app links may turn it on in its own collectors (SpeziHealthKit's do).
        let enablingPackage = app.healthKitDependencies.contains { $0.known.backgroundDelivery }
        if hasEntitlement, calls.isEmpty, !enablingPackage, let entitlements = app.main.entitlements {
            return [finding("\(HealthKeys.backgroundDelivery) is set but no scanned code calls enableBackgroundDelivery",
                            in: entitlements, key: HealthKeys.backgroundDelivery, target: app.id)]
        }
        return []
    }
}

struct ICloudBesideHealthKitRule: Rule {
    static let description = RuleDescription(
        id: "icloud-beside-healthkit", title: "iCloud sync beside HealthKit reads", severity: .note, questions: [], reads: [.swift, .javaScript, .dart], predicts: .disclosure,
        rationale: """
        App Review guideline 5.1.3: apps may not store personal health information in iCloud. An iCloud or CloudKit \
        entitlement next to HealthKit is not wrong in itself: this note is given only when the app also reads HealthKit \
        data and its code syncs something to iCloud (a SwiftData or Core Data store with CloudKit, CloudKit records, \
        the iCloud key-value store or iCloud documents), citing where; make sure nothing read from HealthKit goes there. \
        An app that only writes to Health, or whose iCloud code the audit does not see, gets no note.
        """,
        triggering: [.healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.icloud-services": ["CloudKit"]]),
                                 "Sources/Store.swift": """
            import HealthKit
            import SwiftData

            @Model final class WeightEntry {
                var kilograms: Double
                init(kilograms: Double) { self.kilograms = kilograms }
            }

            let container = try! ModelContainer(for: WeightEntry.self, configurations: ModelConfiguration(cloudKitDatabase: .automatic))

            func importWeights(from store: HKHealthStore) {
                let query = HKSampleQuery(sampleType: HKQuantityType(.bodyMass), predicate: nil, limit: 10, sortDescriptors: nil) { _, samples, _ in
                    _ = samples
                }
                store.execute(query)
            }
            """])],
        nonTriggering: [.healthApp(), .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.icloud-services": ["CloudKit"]])],
                                                 info: ["CFBundleName": "Plain"], read: [], share: []),
                        // The entitlement, but no iCloud code: nothing shows what, if anything, goes there.
                        .healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true, "com.apple.developer.icloud-services": ["CloudKit"]])])]
    )

    /// The APIs that put an app's data in iCloud.
    static let syncMarkers = ["cloudKitDatabase", "NSPersistentCloudKitContainer", "CKContainer", "CKRecord", "NSUbiquitousKeyValueStore",
                              "forUbiquityContainerIdentifier", "CKDatabase", "react-native-cloud-store", "icloud_storage", "icloudstore"]

    func check(_ context: AuditContext) -> [Finding] {
        guard context.hasHealthKitEntitlement, let entitlements = context.manifest.main.entitlements,
              let key = HealthKeys.iCloudEntitlements.first(where: { entitlements[$0] != nil }),
              context.usage.facts.contains(where: { $0.kind == .read && $0.ships }),
              let sync = Self.syncSite(context) else { return [] }
        return [finding("\(key) is set beside HealthKit, the app reads HealthKit data, and its code syncs to iCloud (\(sync)): "
                        + "health data must not be stored in iCloud (guideline 5.1.3); make sure nothing read from HealthKit goes there",
                        in: entitlements, key: key, target: context.manifest.id)]
    }

    /// `File.swift:line` of the first iCloud sync API in the app's code.
    static func syncSite(_ context: AuditContext) -> String? {
        let texts: [(path: String, text: String)] = context.sources.map { ($0.file.path, $0.file.text) }
            + context.manifest.javaScriptSources.map { ($0.path, $0.text) } + context.manifest.dartSources.map { ($0.path, $0.text) }
        for (path, text) in texts.sorted(by: { $0.path < $1.path }) {
            guard let marker = syncMarkers.first(where: { ByteSearch.contains(text, $0) }) else { continue }
            var line = 1
            for row in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if row.contains(marker) { break }
                line += 1
            }
            return "\(path.split(separator: "/").last.map(String.init) ?? path):\(line)"
        }
        return nil
    }
}
