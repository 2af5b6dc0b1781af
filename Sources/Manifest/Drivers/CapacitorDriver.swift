import Foundation

/// A Capacitor app: `package.json` naming `@capacitor/ios` or `@capacitor/core`, its native app in
/// `ios/App/App.xcodeproj` (read by the Xcode driver). Its web code, which calls the HealthKit
/// plugin, is added once the project is read.
struct CapacitorDriver: AppKindDriver {
    func detect(in folder: DiscoveryFolder) -> Detection? {
        guard let json = folder.packageJSON, json.contains("\"@capacitor/ios\"") || json.contains("\"@capacitor/core\""),
              folder.fileSystem.isDirectory(folder.path + "/ios/App/App.xcodeproj") else { return nil }
        if let skipped = folder.uncommittedProjectWithoutHealthKit("ios/App/App.xcodeproj") { return Detection(skipped: [skipped], claimsFolder: true) }
        return folder.claim("swift", under: "ios/App", project: "App.xcodeproj", reason: "Capacitor app (ios/App/App.xcodeproj)")
    }

    func complete(_ manifest: inout AppManifest, loader: ManifestLoader) {
        let root = manifest.config.root
        guard manifest.config.kind == .swift, manifest.javaScriptSources.isEmpty,
              let capacitor = CapacitorSources.folder(root: root, site: loader.siteDirectory, fileSystem: loader.fileSystem) else { return }
        manifest.javaScriptSources = loader.shipped(loader.scripts(at: CapacitorSources.files(in: capacitor, fileSystem: loader.fileSystem)),
                                                    folder: capacitor, reactNative: false, into: &manifest)
        // The repository's own folder is `.`, never the path it was checked out at.
        let shown = capacitor == loader.siteDirectory ? "." : loader.shown(capacitor)
        manifest.discovery.append(DiscoveredFact("\(Plural.count(manifest.javaScriptSources.count, "web code file")) of the Capacitor app in \(shown) scanned (native projects, node_modules, built web assets and tests skipped)",
                                                 origin: "capacitor.config", location: nil, isNote: false))
        loader.addLocalNativeCode(of: capacitor, to: &manifest)
    }
}

/// A Capacitor app's web code: the folder holding `capacitor.config.{json,ts,js}` at the app root
/// or the folders above it (the audited root is its `ios/App`), never above the site folder. Its
/// JavaScript / TypeScript calls the HealthKit plugin; the native side is the plugin's.
public enum CapacitorSources {
    static let configNames = ["capacitor.config.json", "capacitor.config.ts", "capacitor.config.js"]

    public static func folder(root: String, site: String, fileSystem: FileSystem) -> String? {
        HealthKitDependencies.folders(from: root, site: site).first { folder in configNames.contains { fileSystem.fileExists(folder + "/" + $0) } }
    }

    /// Script files of the app, sorted: native projects, dependencies, tests and the built web
    /// assets (`webDir`, `www`, `dist`) skipped.
    public static func files(in folder: String, fileSystem: FileSystem) -> [String] {
        var skipped = ReactNativeDiscovery.skippedScriptFolders.union(AppFiles.skippedFolders).union(["www"])
        if let webDir = webDir(in: folder, fileSystem: fileSystem) { skipped.insert(webDir) }
        return ((try? fileSystem.files(under: folder, skipping: skipped)) ?? []).filter(ReactNativeDiscovery.isAppScript).map { folder + "/" + $0 }
    }

    /// The built web assets' folder (`webDir`), from the JSON config or the literal in a TS / JS one.
    static func webDir(in folder: String, fileSystem: FileSystem) -> String? {
        for name in configNames {
            guard let data = try? fileSystem.contents(of: folder + "/" + name) else { continue }
            if let match = String(decoding: data, as: UTF8.self).firstMatch(of: #/webDir["']?\s*:\s*["']([^"'/]+)["']/#) { return String(match.1) }
        }
        return nil
    }
}
