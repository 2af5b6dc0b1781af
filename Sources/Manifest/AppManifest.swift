import Foundation

/// A Swift source file of a target, kept as text; the checklist parses it.
public struct SourceFile: Sendable {
    /// Path as shown in reports (relative to the site folder).
    public let path: String
    public let text: String
    /// Code the app builds from a dependency (a development pod, a local package, `extra_sources`)
    /// rather than its own targets: rules that cite "where the app decides" look past it.
    public let isDependency: Bool
    public init(path: String, text: String, isDependency: Bool = false) { self.path = path; self.text = text; self.isDependency = isDependency }
}

/// One target of an app: the app itself, one of its extensions, or its watch app.
public struct TargetManifest: Sendable {
    public var id: String
    public var name: String
    public var kind: TargetKind
    /// Runs inside a host (a widget, an intent): it cannot present the permission sheet.
    public var isExtension: Bool { kind == .appExtension }
    public var infoPlist: PropertyListDocument?
    public var entitlements: PropertyListDocument?
    public var sources: [SourceFile]
    /// Site-relative paths of code the target runs but shares with the app (linked frameworks): the
    /// facts found there are the app's, and this target can reach them.
    public var linkedSources: Set<String> = []
    /// The Swift compilation conditions the target builds with (`SWIFT_ACTIVE_COMPILATION_CONDITIONS`
    /// and `-D` flags of the audited configuration), when its project says: code under `#if !WIDGET`
    /// is not in a target that defines `WIDGET`. Nil when unknown (no project read).
    public var compilationConditions: Set<String>?
    /// The Info.plist file the project names for this target but the repository does not hold (see
    /// `Discovery.uncommittedInfoPlists`): a key absent from `infoPlist` may be in it.
    public var uncommittedInfoPlist: String?
    /// The target's `INFOPLIST_KEY_*` build settings, which Xcode merges into its Info.plist file
    /// (`GENERATE_INFOPLIST_FILE = YES` beside `INFOPLIST_FILE`); nil when it does not, or it is unknown.
    public var mergedInfoPlistKeys: PropertyListDocument?

    /// `NSExtension.NSExtensionPointIdentifier`, e.g. `com.apple.widgetkit-extension`.
    public var extensionPoint: String? {
        infoPlist?["NSExtension"]?.dictionary?["NSExtensionPointIdentifier"]?.string
    }

    public init(id: String, name: String, kind: TargetKind, infoPlist: PropertyListDocument? = nil,
                entitlements: PropertyListDocument? = nil, sources: [SourceFile] = []) {
        self.id = id; self.name = name; self.kind = kind
        self.infoPlist = infoPlist; self.entitlements = entitlements; self.sources = sources
    }
}

/// Everything the audit knows about one app, read from its files.
public struct AppManifest: Sendable {
    public var config: AppConfig
    public var main: TargetManifest
    public var extensions: [TargetManifest]
    public var privacyManifest: PropertyListDocument?
    /// `*.lproj/InfoPlist.strings`, sorted by locale.
    public var infoPlistStrings: [StringsFile]
    /// Other `*.lproj/*.strings` files (e.g. `Localizable.strings`), where usage keys have no effect.
    public var otherStrings: [StringsFile]
    public var stringCatalog: StringCatalog?
    /// Other string catalogs (`Localizable.xcstrings`), where usage keys have no effect either.
    public var otherCatalogs: [StringCatalog] = []
    /// Site-relative paths of every input file, for the evidence file's checksums.
    public var inputFiles: [String]
    /// What project discovery found (`project:`, `kind: react-native`): targets, Info.plists, settings, with where.
    public var discovery: [DiscoveredFact] = []
    /// A React Native app's JavaScript / TypeScript files, tokenized.
    public var javaScriptSources: [JavaScriptFile] = []
    /// A Flutter app's Dart files (`lib/` beside its `pubspec.yaml`, generated files skipped).
    public var dartSources: [JavaScriptFile] = []
    /// What the app's `initHealthKit` calls ask for (React Native apps only).
    public var reactNativeHealth: ReactNativeHealthScan?
    /// `.entitlements` files the project does not name (see `Discovery.entitlementCandidates`).
    public var entitlementCandidates: [String] = []
    /// Where the app target's build settings leave CODE_SIGN_ENTITLEMENTS unset (no capability at all).
    public var entitlementsUnsetAt: FileLocation?
    /// Plugins in `package.json` / `pubspec.yaml` that bring HealthKit in.
    public var healthKitDependencies: [HealthKitDependency] = []
    /// Manifests read but not analysed (a Tuist `Project.swift` refused or not parsed in time);
    /// source files carry their own (`ParsedSource.notAnalysed`).
    public var unanalysed: [UnanalysedFile] = []
    /// The run's parse time, shared by every app the run audits (`ManifestLoader` hands it on).
    public var parseBudget = ParseBudget()
    /// Why the app could not be loaded, each with the file and line it rests on; empty for an app
    /// that was read. A run that isolates apps (`check` on discovered apps) keeps such an app in
    /// the report instead of stopping every other app's audit.
    public var loadProblems: [InputProblem] = []
    /// The line each load problem rests on, as written ("" when it has no line or cannot be read).
    public var loadProblemQuotes: [String] = []

    public var id: String { config.id }
    public var name: String { config.name }
    public var targets: [TargetManifest] { [main] + extensions }

    /// An app whose files could not be read: its config entry and the problems, nothing else.
    public static func unloaded(_ config: AppConfig, problems: [InputProblem]) -> AppManifest {
        var manifest = AppManifest(config: config, main: TargetManifest(id: config.id, name: config.name, kind: .app))
        manifest.loadProblems = problems
        return manifest
    }

    public init(config: AppConfig, main: TargetManifest, extensions: [TargetManifest] = [], privacyManifest: PropertyListDocument? = nil,
                infoPlistStrings: [StringsFile] = [], otherStrings: [StringsFile] = [], stringCatalog: StringCatalog? = nil,
                inputFiles: [String] = []) {
        self.config = config; self.main = main; self.extensions = extensions; self.privacyManifest = privacyManifest
        self.infoPlistStrings = infoPlistStrings; self.otherStrings = otherStrings; self.stringCatalog = stringCatalog
        self.inputFiles = inputFiles
    }

    /// A usage-description key's value: from Info.plist, else from an `INFOPLIST_KEY_*` build
    /// setting (Xcode's generated Info.plist), with where it came from.
    public func usageString(_ key: String) -> UsageString? {
        if let plist = main.infoPlist, let value = plist[key] {
            let origin: UsageString.Origin = plist.format == .buildSettings ? .buildSetting : plist.format == .expoConfig ? .expoConfig : .infoPlist
            return UsageString(key: key, value: value, location: plist.location(of: key), quote: plist.quote(key), origin: origin)
        }
        if let setting = config.buildSettings["INFOPLIST_KEY_" + key] {
            let written = config.buildSettingOrigins["INFOPLIST_KEY_" + key]
            return UsageString(key: key, value: .string(setting), location: written?.location ?? config.location,
                               quote: written?.quote ?? "INFOPLIST_KEY_\(key) = \(setting)", origin: .buildSetting)
        }
        return nil
    }
}

extension TargetManifest {
    /// A usage-description key of this target's own Info.plist (a watch app's sheet shows these).
    public func usageString(_ key: String) -> UsageString? {
        if let plist = infoPlist, let value = plist[key] {
            return UsageString(key: key, value: value, location: plist.location(of: key), quote: plist.quote(key), origin: .infoPlist)
        }
        guard let merged = mergedInfoPlistKeys, let value = merged[key] else { return nil }
        return UsageString(key: key, value: value, location: merged.location(of: key), quote: merged.quote(key), origin: .buildSetting)
    }
}

public struct UsageString: Sendable {
    public enum Origin: String, Sendable { case infoPlist = "Info.plist", buildSetting = "build setting", expoConfig = "Expo config" }
    public var key: String
    public var value: PlistValue
    public var location: FileLocation
    public var quote: String
    public var origin: Origin
}

extension AppManifest {
    /// Nothing of the app could be read or discovered (a skipped project says why in its note): no
    /// project, property list, entitlements, Info.plist build settings, HealthKit dependency, or
    /// code in any language.
    var holdsNothingToAudit: Bool {
        config.project == nil && config.xcodeGenSpec == nil && config.tuistManifest == nil && discovery.isEmpty
            && targets.allSatisfy { $0.infoPlist == nil && $0.entitlements == nil && $0.sources.isEmpty }
            && javaScriptSources.isEmpty && dartSources.isEmpty && healthKitDependencies.isEmpty
            && !config.buildSettings.keys.contains { $0.hasPrefix("INFOPLIST_KEY_") }
    }
}
