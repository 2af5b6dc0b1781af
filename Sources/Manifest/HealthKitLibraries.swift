/// What a call means to HealthKit, whether the app's own Swift or a wrapper library's method.
public enum HealthKitCallMeaning: String, Sendable, CaseIterable {
    /// `HKHealthStore.isHealthDataAvailable()`.
    case availabilityCheck
    /// `requestAuthorization(toShare:read:)`, SwiftUI's `.healthDataAccessRequest`,
    /// `requestPerObjectReadAuthorization(for:predicate:)`, or an app wrapper of them.
    case authorizationRequest
    /// `authorizationStatus(for:)` on a HealthKit store (not EventKit's or Contacts').
    case statusCheck
    /// `statusForAuthorizationRequest` / `getRequestStatusForAuthorization`: whether the sheet would appear.
    case requestStatusCheck
    /// Queries and characteristic reads.
    case read
    /// `save` / `delete` on a HealthKit store, workout builders and sessions.
    case write
}

/// One library that wraps or links HealthKit, described once: the packages it is published as
/// (npm, pub, CocoaPods, SwiftPM, as each lockfile names them, with what each does with HealthKit),
/// and — for the libraries whose calls the audit reads — the modules that bring it in and what each
/// of its methods means to HealthKit. Every library is listed once, in `HealthKitLibrary.registry`;
/// a library that names HealthKit types its own way also has a table in `HealthKitWrapper`.
public struct HealthKitLibrary: Sendable, Hashable {
    public enum Language: Sendable, Hashable { case javaScript, dart, swift }

    public let name: String
    /// The packages it is published as, as their lockfiles write them (`HealthKitDependencies`).
    public let packages: [HealthKitPackage]
    /// The language of the app code whose calls of it the audit reads; nil when it reads none.
    public let language: Language?
    /// Module names that bring it in: import sources in JavaScript and Dart, imported modules in Swift.
    public let modules: Set<String>
    public let methods: [String: HealthKitCallMeaning]
    /// Method-name prefixes (`get` in `getStepCount`), for libraries with one method per type.
    public let prefixes: [String: HealthKitCallMeaning]
    /// Results are promises (a rejection must be caught), not Node-style callbacks.
    public let promises: Bool
    /// Property paths the library is reached through without an import: a call whose receiver
    /// chain ends with one is the library's (`NativeModules.AppleHealthKit`, Cordova's `navigator.health`).
    public let globals: [[String]]
    /// Methods a prefix would claim that touch no HealthKit data (Android-only calls).
    public let ignored: Set<String>
    /// Its own code checks `isHealthDataAvailable()` before it calls HealthKit (read in its source):
    /// an app that reaches HealthKit only through it leaves that decision to code not in the app.
    public let decidesAvailabilityItself: Bool
    /// Generic method names that count only on a receiver named for health (`healthKit.query(…)`, not `db.query(…)`).
    public let healthReceiverOnly: Set<String>
    /// Its `<plugin name>` in a Cordova `config.xml`, when its `plugin.xml` writes both usage
    /// strings from variables (`HEALTH_READ_PERMISSION`, `HEALTH_WRITE_PERMISSION`) and adds the entitlement.
    public let cordovaPlugins: Set<String>
    /// Its Expo config plugin (listed in `expo.plugins` under the library's name): what
    /// `expo prebuild` writes into the Info.plist and entitlements for it.
    public let expoPlugin: ExpoConfigPlugin?
    /// Dart: the classes whose instances are the library's receivers (`Health()`).
    public let instanceTypes: Set<String>
    /// Usage strings its README prints, which apps ship unchanged: not an app's own purpose.
    /// (Its config plugin's defaults are such texts too.)
    public let exampleUsageStrings: [ExampleUsageString]
    /// For an app's own Capacitor plugin (its Swift is in the app, `registerPlugin('<name>')` in its
    /// JavaScript): the methods whose promise resolves HealthKit's request `success` under a key.
    public private(set) var requestResults: [String: PluginRequestResult] = [:]
    /// The app's own plugin, described from its Swift (`AppPlugins`), not a published library.
    public var isAppPlugin: Bool { !requestResults.isEmpty }

    /// The library as seen through an app function that hands back the value a plugin resolved
    /// (`return (await Plugin.request()).granted`): its results are values, not objects with keys.
    public func unwrapped() -> HealthKitLibrary {
        var copy = self
        copy.requestResults = [:]
        return copy
    }

    /// Where an app plugin's method hands the request's `success` to JavaScript: the key of the
    /// object its promise resolves (`call.resolve(["granted": success])`), and that line.
    public struct PluginRequestResult: Sendable, Hashable {
        public let key: String
        public let evidence: String
        public init(key: String, evidence: String) { self.key = key; self.evidence = evidence }
    }

    /// An app's own Capacitor plugin, registered in JavaScript as `jsName`: its methods that hand an
    /// authorization request's result back are requests, and nothing else of it is read here (its
    /// reads and writes are the app's Swift, audited as such).
    public static func appPlugin(jsName: String, requestResults: [String: PluginRequestResult]) -> HealthKitLibrary {
        var library = HealthKitLibrary(name: "the app's plugin `\(jsName)`", packages: "", language: .javaScript,
                                       methods: requestResults.mapValues { _ in .authorizationRequest }, promises: true)
        library.requestResults = requestResults
        return library
    }

    /// `packages`: one row per package, `ecosystem name flags` (see `HealthKitPackage.rows`).
    init(name: String, packages: String, language: Language? = nil, modules: Set<String> = [], methods: [String: HealthKitCallMeaning] = [:],
         prefixes: [String: HealthKitCallMeaning] = [:], promises: Bool = false, globals: [[String]] = [], ignored: Set<String> = [],
         decidesAvailabilityItself: Bool = false, healthReceiverOnly: Set<String> = [], cordovaPlugins: Set<String> = [],
         expoPlugin: ExpoConfigPlugin? = nil, instanceTypes: Set<String> = [], exampleUsageStrings: [ExampleUsageString] = []) {
        self.name = name; self.packages = HealthKitPackage.rows(packages); self.language = language; self.modules = modules
        self.methods = methods; self.prefixes = prefixes; self.promises = promises; self.globals = globals; self.ignored = ignored
        self.decidesAvailabilityItself = decidesAvailabilityItself; self.healthReceiverOnly = healthReceiverOnly; self.cordovaPlugins = cordovaPlugins
        self.expoPlugin = expoPlugin; self.instanceTypes = instanceTypes; self.exampleUsageStrings = exampleUsageStrings
    }

    /// A usage string a library publishes as an example or default, with where it comes from;
    /// `$(PRODUCT_NAME)` stands where the app's name goes.
    public struct ExampleUsageString: Sendable, Hashable {
        public let text: String
        public let source: String
        public init(text: String, source: String) { self.text = text; self.source = source }
    }

    /// What a library's Expo config plugin writes when `expo prebuild` runs.
    public struct ExpoConfigPlugin: Sendable, Hashable {
        /// A usage key the plugin always writes: the option that sets its text, and its default.
        public struct UsageString: Sendable, Hashable {
            public let key: String
            public let option: String
            public let fallback: String
        }
        public let usageStrings: [UsageString]
        /// An option of `false` leaves its key out.
        public let falseLeavesKeyOut: Bool
        /// The option whose `true` adds `health-records` to `com.apple.developer.healthkit.access`,
        /// a key the plugin then always writes; nil when it writes no access key.
        public let clinicalOption: String?
        /// The option whose `false` leaves out background delivery, which the plugin otherwise
        /// adds; nil when it never adds it.
        public let backgroundOption: String?
    }

    /// Every usage string a library publishes, README examples first, then its config plugin's defaults.
    public static let exampleUsageStrings: [ExampleUsageString] = registry.flatMap { library in
        library.exampleUsageStrings + (library.expoPlugin?.usageStrings ?? []).map {
            ExampleUsageString(text: $0.fallback, source: "\(library.name)'s config plugin default")
        }
    }

    /// What a method of the library means to HealthKit; nil when it is not one the audit reads.
    public func kind(of method: String) -> HealthKitCallMeaning? {
        if ignored.contains(method) { return nil }
        if let kind = methods[method] { return kind }
        return prefixes.first { method.hasPrefix($0.key) && method.count > $0.key.count && method[method.index(method.startIndex, offsetBy: $0.key.count)].isUppercase }?.value
    }

    /// Every library, once. Adding a library adds its value here.
    public static let registry: [HealthKitLibrary] = [
        reactNativeHealth, kingstinct, reactNativeHealthRecords, rnAppleHealthKit, reactNativeAppleHealthKit,
        capacitorHealth, capacitorHealthPlugin, perfoodCapacitorHealthKit, cordovaHealth, telerikHealthKit,
        flutterHealth, flutterHealthKitReporter, healthKitReporter, researchKit, careKit, cardinalKit, speziHealthKit, healthKitOnFHIR,
    ]

    /// The JavaScript libraries, found by their module names in imports (Cordova's by its global path).
    public static let all = registry.filter { $0.language == .javaScript }
    /// Swift frameworks that wrap HealthKit, found by the modules a file imports.
    public static let swiftWrappers = registry.filter { $0.language == .swift }

    // MARK: React Native

    public static let reactNativeHealth = HealthKitLibrary(
        name: "react-native-health",
        packages: """
            npm react-native-health w c a pod=RNAppleHealthKit
            CocoaPods RNAppleHealthKit w c
            """,
        language: .javaScript, modules: ["react-native-health"],
        methods: ["isAvailable": .availabilityCheck, "initHealthKit": .authorizationRequest, "getAuthStatus": .statusCheck, "setObserver": .read],
        prefixes: ["get": .read, "save": .write, "delete": .write], promises: false, globals: [["AppleHealthKit"]],
        // app.plugin.js: withInfoPlist writes the option, else the value already there, else its default.
        expoPlugin: .init(usageStrings: [.init(key: "NSHealthShareUsageDescription", option: "healthSharePermission", fallback: "Allow $(PRODUCT_NAME) to check health info"),
                                         .init(key: "NSHealthUpdateUsageDescription", option: "healthUpdatePermission", fallback: "Allow $(PRODUCT_NAME) to update health info")],
                          falseLeavesKeyOut: false, clinicalOption: "isClinicalDataEnabled", backgroundOption: nil),
        // Its README (and rn-apple-healthkit's, which it forked).
        exampleUsageStrings: [.init(text: "Read and understand health data.", source: "react-native-health's README"),
                              .init(text: "Share workout data with other apps.", source: "react-native-health's README"),
                              .init(text: "Read and understand clinical health data.", source: "react-native-health's README")])

    /// Version-dependent flags are left off: it ran workout sessions in 8.7.0 and 9.0.0–9.0.7 only.
    public static let kingstinct = HealthKitLibrary(
        name: "@kingstinct/react-native-healthkit",
        packages: """
            npm @kingstinct/react-native-healthkit w a pod=ReactNativeHealthkit pod=kingstinct-react-native-healthkit
            CocoaPods ReactNativeHealthkit w
            CocoaPods kingstinct-react-native-healthkit w
            """,
        language: .javaScript, modules: ["@kingstinct/react-native-healthkit"],
        methods: ["isHealthDataAvailable": .availabilityCheck, "isHealthDataAvailableAsync": .availabilityCheck,
                  "requestAuthorization": .authorizationRequest, "useHealthkitAuthorization": .authorizationRequest,
                  "authorizationStatusFor": .statusCheck, "getRequestStatusForAuthorization": .requestStatusCheck,
                  "subscribeToChanges": .read, "enableBackgroundDelivery": .read, "deleteObjects": .write],
        prefixes: ["query": .read, "get": .read, "useMostRecent": .read, "useStatistics": .read, "useSources": .read,
                   "save": .write, "delete": .write],
        promises: true,
        // The usage strings are options named as the Info.plist keys (`false` drops the key), with
        // vague defaults; background delivery on unless `background: false`.
        expoPlugin: .init(usageStrings: [.init(key: "NSHealthShareUsageDescription", option: "NSHealthShareUsageDescription", fallback: "$(PRODUCT_NAME) wants to read your health data"),
                                         .init(key: "NSHealthUpdateUsageDescription", option: "NSHealthUpdateUsageDescription", fallback: "$(PRODUCT_NAME) wants to update your health data")],
                          falseLeavesKeyOut: true, clinicalOption: nil, backgroundOption: "background"))

    static let reactNativeHealthRecords = HealthKitLibrary(name: "@react-native-healthkit/health-records", packages: """
        npm @react-native-healthkit/health-records c pod=ReactNativeHealthkitHealthRecords
        CocoaPods ReactNativeHealthkitHealthRecords c
        """)

    static let rnAppleHealthKit = HealthKitLibrary(name: "rn-apple-healthkit", packages: """
        npm rn-apple-healthkit w pod=RCTAppleHealthKit
        CocoaPods RCTAppleHealthKit w
        """)

    static let reactNativeAppleHealthKit = HealthKitLibrary(name: "react-native-apple-healthkit", packages: "npm react-native-apple-healthkit w")

    // MARK: Capacitor

    /// Also reads the calls of `capacitor-health` and `@perfood/capacitor-healthkit`, whose methods
    /// have the same names and meanings.
    public static let capacitorHealth = HealthKitLibrary(
        name: "@capgo/capacitor-health",
        packages: """
            npm @capgo/capacitor-health w a pod=CapgoCapacitorHealth
            CocoaPods CapgoCapacitorHealth w
            SwiftPM capacitor-health w
            """,
        language: .javaScript, modules: ["@capgo/capacitor-health", "capacitor-health", "@perfood/capacitor-healthkit"],
        methods: ["isAvailable": .availabilityCheck, "requestAuthorization": .authorizationRequest, "requestAuthorizations": .authorizationRequest,
                  "checkAuthorization": .statusCheck],
        prefixes: ["read": .read, "query": .read, "save": .write, "delete": .write], promises: true)

    static let capacitorHealthPlugin = HealthKitLibrary(name: "capacitor-health", packages: """
        npm capacitor-health pod=CapacitorHealth
        CocoaPods CapacitorHealth
        """)

    static let perfoodCapacitorHealthKit = HealthKitLibrary(name: "@perfood/capacitor-healthkit", packages: """
        npm @perfood/capacitor-healthkit pod=PerfoodCapacitorHealthkit pod=CapacitorHealthkit
        CocoaPods PerfoodCapacitorHealthkit
        CocoaPods CapacitorHealthkit
        """)

    // MARK: Cordova

    /// `cordova-plugin-health` (`navigator.health`), whose calls also cover the older `HealthKit`
    /// plugin (`window.plugins.healthkit`); Node-style callbacks `(args, success, error)`.
    /// `@awesome-cordova-plugins/health` links nothing itself: the plugin it wraps is the dependency.
    public static let cordovaHealth = HealthKitLibrary(
        name: "cordova-plugin-health",
        packages: "npm cordova-plugin-health w a",
        language: .javaScript, modules: ["cordova-plugin-health"],
        methods: ["isAvailable": .availabilityCheck, "available": .availabilityCheck, "requestAuthorization": .authorizationRequest,
                  "isAuthorized": .statusCheck, "checkAuthStatus": .statusCheck, "query": .read, "queryAggregated": .read,
                  "store": .write, "delete": .write],
        prefixes: ["read": .read, "query": .read, "save": .write, "delete": .write], promises: false,
        globals: [["navigator", "health"], ["cordova", "plugins", "health"], ["plugins", "healthkit"]],
        ignored: ["promptInstallFit", "disconnect", "getHealthConnectFromStore", "launchPrivacyPolicy", "openHealthSettings"],
        cordovaPlugins: ["cordova-plugin-health"],
        // Its README's install line (HEALTH_READ_PERMISSION / HEALTH_WRITE_PERMISSION).
        exampleUsageStrings: [.init(text: "App needs read access", source: "cordova-plugin-health's README"),
                              .init(text: "App needs write access", source: "cordova-plugin-health's README")])

    static let telerikHealthKit = HealthKitLibrary(name: "com.telerik.plugins.healthkit", packages: "npm com.telerik.plugins.healthkit w",
                                                   cordovaPlugins: ["com.telerik.plugins.healthkit", "cordova-plugin-healthkit"])

    // MARK: Flutter

    /// Flutter's `package:health`, called on a `Health()` (older: `HealthFactory()`) instance; the
    /// plugin offers no HealthKit availability check on iOS.
    public static let flutterHealth = HealthKitLibrary(
        name: "package:health",
        packages: """
            pub health w a pod=health
            CocoaPods health w
            """,
        language: .dart, modules: ["package:health/health.dart"],
        methods: ["requestAuthorization": .authorizationRequest, "hasPermissions": .statusCheck, "delete": .write],
        prefixes: ["get": .read, "write": .write, "delete": .write], promises: true,
        ignored: ["getHealthConnectSdkStatus", "isHealthConnectAvailable", "installHealthConnect", "isDataTypeAvailable",
                  "getHealthConnectSdkStatusNative", "isHealthDataHistoryAvailable", "isHealthDataInBackgroundAvailable"],
        instanceTypes: ["Health", "HealthFactory"],
        // cph-cachet/flutter-plugins, packages/health/README.md, for both keys.
        exampleUsageStrings: [.init(text: "We will sync your data with the Apple Health app to give you better insights", source: "the Flutter health package's README")])

    static let flutterHealthKitReporter = HealthKitLibrary(name: "health_kit_reporter", packages: """
        pub health_kit_reporter w c pod=health_kit_reporter pod=HealthKitReporter
        CocoaPods health_kit_reporter w c
        """)

    // MARK: Swift

    static let healthKitReporter = HealthKitLibrary(name: "HealthKitReporter", packages: """
        CocoaPods HealthKitReporter w c
        SwiftPM healthkitreporter w c
        """)

    static let researchKit = HealthKitLibrary(name: "ResearchKit", packages: "CocoaPods ResearchKit c k")
    static let careKit = HealthKitLibrary(name: "CareKit", packages: """
        CocoaPods CareKit k
        SwiftPM carekit w c k
        """)
    static let cardinalKit = HealthKitLibrary(name: "CardinalKit", packages: "CocoaPods CardinalKit k")
    static let healthKitOnFHIR = HealthKitLibrary(name: "HealthKitOnFHIR", packages: "SwiftPM healthkitonfhir c k")

    /// Stanford Spezi's `SpeziHealthKit` (Swift, SwiftPM identity `spezihealthkit`): a module the app
    /// configures (`HealthKit { CollectSamples(.stepCount) }`, each collector reading its type) and
    /// asks through (`healthKit.askForAuthorization()`, which calls `requestAuthorization` after its
    /// own `isHealthDataAvailable()` guard); `didAskForAuthorization` only says whether the sheet was
    /// shown; `query` / `continuousQuery` / `oldestSampleDate` read. Found by `import SpeziHealthKit`.
    /// Its collectors turn on background delivery themselves (`HKHealthStore+BackgroundDelivery.swift`).
    public static let speziHealthKit = HealthKitLibrary(
        name: "SpeziHealthKit", packages: "SwiftPM spezihealthkit c k b",
        language: .swift, modules: ["SpeziHealthKit", "SpeziHealthKitUI"],
        methods: ["askForAuthorization": .authorizationRequest, "didAskForAuthorization": .requestStatusCheck,
                  "CollectSample": .read, "CollectSamples": .read, "query": .read, "continuousQuery": .read, "oldestSampleDate": .read],
        promises: true, decidesAvailabilityItself: true,
        healthReceiverOnly: ["query", "continuousQuery", "oldestSampleDate"])
}
