import Foundation

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
