import Foundation

/// One kind of app the audit understands — an Xcode project, an XcodeGen spec, a Tuist manifest, a
/// React Native / Expo, Flutter, Capacitor or Cordova app — behind one protocol: how `check` without
/// a config recognises it in a folder, how an app entry of it is completed from its own files
/// (targets, build settings, Info.plists, entitlements, sources), and what the kind adds once those
/// are read (its web or Dart code, the usage strings and entitlement its own config declares).
/// Every driver is listed once, in `AppKindDrivers.all`.
protocol AppKindDriver: Sendable {
    /// The app `folder` is, if it is one of this kind; nil lets the next driver look.
    func detect(in folder: DiscoveryFolder) -> Detection?
    /// Rewrites an entry before any driver reads it (a Flutter app: its iOS project under `ios/`).
    func prepare(_ app: AppConfig, fileSystem: FileSystem) throws -> AppConfig
    /// Whether this driver reads the entry's project: `.named` when the entry names its file or kind
    /// (`xcodegen:`, `kind: react-native`), `.found` when only its file at the root says so.
    func reads(_ app: AppConfig, files: AppFiles) -> DriverClaim?
    /// Completes the entry from the project's own files: targets, settings, Info.plists, entitlements, sources.
    func discover(_ app: AppConfig, files: AppFiles, parseBudget: ParseBudget, into discovery: inout Discovery) throws
    /// What the kind adds once the entry's files are read: code outside the iOS project, and the
    /// usage strings and entitlement declared by the kind's own config.
    func complete(_ manifest: inout AppManifest, loader: ManifestLoader)
    /// The `kind:` value this driver alone reads, and what an entry of it is to the modules after
    /// discovery; nil for the drivers that share `swift` (told apart by the entry's files).
    var traits: KindTraits? { get }
}

extension AppKindDriver {
    func prepare(_ app: AppConfig, fileSystem: FileSystem) throws -> AppConfig { app }
    func reads(_ app: AppConfig, files: AppFiles) -> DriverClaim? { nil }
    func discover(_ app: AppConfig, files: AppFiles, parseBudget: ParseBudget, into discovery: inout Discovery) throws {}
    func complete(_ manifest: inout AppManifest, loader: ManifestLoader) {}
    var traits: KindTraits? { nil }
}

enum DriverClaim: Equatable {
    case named, found
}

/// The drivers, in the order discovery asks them about a folder (the first that recognises it
/// wins) and entries are matched to them. Adding an app kind adds its driver here.
enum AppKindDrivers {
    static let all: [any AppKindDriver] = [
        ReactNativeDriver(), CapacitorDriver(), CordovaDriver(), FlutterDriver(), XcodeGenDriver(), TuistDriver(), XcodeDriver(),
    ]

    /// The driver that reads an entry's project: the first that the entry names, else the first
    /// whose file sits at the root.
    static func reader(of app: AppConfig, files: AppFiles) -> (any AppKindDriver)? {
        let claims = all.lazy.map { ($0, $0.reads(app, files: files)) }
        return claims.first { $0.1 == .named }?.0 ?? claims.first { $0.1 == .found }?.0
    }

    /// What an entry of `kind` is, as the driver owning the value declares it; `swift`'s otherwise.
    static func traits(of kind: AppKind) -> KindTraits {
        all.lazy.compactMap(\.traits).first { $0.kind == kind } ?? .swift
    }
}

/// An app entry's `kind:` in the config: several drivers share `swift` (Xcode, XcodeGen, Tuist,
/// Capacitor), told apart by the entry's `project:`, `xcodegen:` or `tuist:` and the files found.
public enum AppKind: String, Sendable, CaseIterable, Codable {
    case swift
    case reactNative = "react-native"
    /// A Cordova app: `config.xml` and its web code at the root; no iOS project is committed.
    case cordova
    /// A Flutter app: `pubspec.yaml` and `lib/` at the root, the iOS project in `ios/`.
    case flutter
}

extension AppKind {
    /// What an entry of this kind is, as its driver declares it.
    public var traits: KindTraits { AppKindDrivers.traits(of: self) }
}

/// What an entry of a `kind:` value is, beyond its driver: declared by the driver that owns the
/// value, so the config, the rules and the pages ask the kind instead of naming it.
public struct KindTraits: Sendable {
    public let kind: AppKind
    /// The file a discovered entry rests on, cited by its problems; `.` (its folder) for `swift`.
    public let entryFile: String
    /// The language of the app's own code (Swift in its iOS project is read whatever the kind).
    public let language: HealthKitLibrary.Language
    /// The driver finds the entry's Xcode project itself (under `ios/`): `targets:` and
    /// `configuration:` apply without `project:`.
    public let findsXcodeProject: Bool
    /// The kind's own tool writes the Info.plist (`expo prebuild`, `cordova prepare`): a usage key
    /// found nowhere is listed as absent on the app page only when an Info.plist was read.
    public let generatesInfoPlist: Bool
    /// The app page counts the main target's JavaScript / TypeScript files.
    public let countsScriptFiles: Bool

    init(kind: AppKind, entryFile: String, language: HealthKitLibrary.Language, findsXcodeProject: Bool = false,
         generatesInfoPlist: Bool = false, countsScriptFiles: Bool = false) {
        self.kind = kind; self.entryFile = entryFile; self.language = language; self.findsXcodeProject = findsXcodeProject
        self.generatesInfoPlist = generatesInfoPlist; self.countsScriptFiles = countsScriptFiles
    }

    /// An Xcode, XcodeGen, Tuist or Capacitor app's entry.
    static let swift = KindTraits(kind: .swift, entryFile: ".", language: .swift)
}

/// What a driver recognised in a folder.
struct Detection {
    var apps: [AppDiscovery.App] = []
    var skipped: [AppDiscovery.Skipped] = []
    /// The folder is the app's: nothing below it is another app (a React Native app's `ios/`).
    var claimsFolder = false
}

/// One folder as discovery walks it: its entries, read once, and what the drivers ask of it.
final class DiscoveryFolder {
    /// The searched folder (absolute).
    let searchRoot: String
    /// Relative to `searchRoot`; "" for the searched folder itself.
    let relative: String
    let names: [String]
    let fileSystem: FileSystem
    let parseBudget: ParseBudget

    init(searchRoot: String, relative: String, names: [String], fileSystem: FileSystem, parseBudget: ParseBudget) {
        self.searchRoot = searchRoot; self.relative = relative; self.names = names; self.fileSystem = fileSystem; self.parseBudget = parseBudget
    }

    /// Relative to the searched folder; `.` for the folder itself.
    var here: String { relative.isEmpty ? "." : relative }
    /// Absolute.
    var path: String { relative.isEmpty ? searchRoot : searchRoot + "/" + relative }

    /// `package.json`'s text, when it is there and UTF-8.
    lazy var packageJSON: String? = {
        guard names.contains("package.json"), let data = try? fileSystem.contents(of: path + "/package.json") else { return nil }
        return String(data: data, encoding: .utf8)
    }()

    /// `.xcodeproj` folders here, sorted.
    lazy var projects: [String] = names.filter { $0.hasSuffix(".xcodeproj") }.sorted()
    /// Those holding their `project.pbxproj`: a generated project's folder is often committed with
    /// nothing but `project.xcworkspace`, and is then no project.
    lazy var realProjects: [String] = projects.filter { fileSystem.fileExists(path + "/" + $0 + "/project.pbxproj") }

    /// A Flutter or Capacitor app whose Xcode project was committed without its `project.pbxproj`
    /// cannot be loaded. With nothing in the folder asking for HealthKit (a monorepo's example of
    /// another plugin) it concerns no HealthKit review: skipped with why, not an error that fails CI.
    /// With a sign of HealthKit it stays, and its load problem is reported.
    func uncommittedProjectWithoutHealthKit(_ project: String) -> AppDiscovery.Skipped? {
        guard fileSystem.isDirectory(path + "/" + project), !fileSystem.fileExists(path + "/" + project + "/project.pbxproj"),
              !HealthKitSigns.shown(in: path, fileSystem: fileSystem) else { return nil }
        return AppDiscovery.Skipped(path: AppFiles.join(here, project),
                                    reason: "no project.pbxproj in it (not committed?), and nothing in \(here) asks for HealthKit "
                                        + "(no HealthKit package, Health usage key, HealthKit entitlement or import): not audited")
    }

    /// The folder is one app: named after it (or `target`), its root `under` it.
    func claim(_ kind: String, under root: String? = nil, project: String? = nil, named target: String? = nil, reason: String) -> Detection {
        let appRoot = root.map { here == "." ? $0 : here + "/" + $0 } ?? here
        let app = AppDiscovery.App(id: AppDiscovery.identifier(target ?? here, folder: searchRoot),
                                   name: target ?? AppDiscovery.displayName(here, folder: searchRoot), kind: kind,
                                   root: appRoot, project: project, reason: reason)
        // A native app's folder may hold other apps (an example app, a second product): it claims nothing below.
        return Detection(apps: [app], claimsFolder: kind != "swift" || root != nil)
    }
}
