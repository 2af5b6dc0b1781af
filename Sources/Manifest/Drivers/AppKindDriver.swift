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
    /// The file a discovered entry of config kind `kind` rests on, cited by its problems.
    var entryFile: (kind: AppKind, file: String)? { get }
}

extension AppKindDriver {
    func prepare(_ app: AppConfig, fileSystem: FileSystem) throws -> AppConfig { app }
    func reads(_ app: AppConfig, files: AppFiles) -> DriverClaim? { nil }
    func discover(_ app: AppConfig, files: AppFiles, parseBudget: ParseBudget, into discovery: inout Discovery) throws {}
    func complete(_ manifest: inout AppManifest, loader: ManifestLoader) {}
    var entryFile: (kind: AppKind, file: String)? { nil }
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

    /// The file a discovered entry of `kind` rests on; `.` (its folder) when no driver names one.
    static func entryFile(of kind: AppKind) -> String {
        all.lazy.compactMap(\.entryFile).first { $0.kind == kind }?.file ?? "."
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
