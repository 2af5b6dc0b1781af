import Foundation

/// Whether a folder shows any sign of HealthKit, read cheaply for discovery: a known HealthKit
/// package in `pubspec.yaml` or `package.json`, a Health usage key or the HealthKit entitlement
/// in a property list or entitlements file under `ios/`, or Swift there that imports HealthKit.
/// Dependency and build folders are not entered, and the walk is bounded: past the bound the answer is
/// "maybe", which keeps the app.
enum HealthKitSigns {
    static let maxDepth = 4
    static let maxFiles = 400

    static func shown(in folder: String, fileSystem: FileSystem) -> Bool {
        for (name, dart) in [("pubspec.yaml", true), ("package.json", false)] {
            if let data = try? fileSystem.contents(of: folder + "/" + name),
               !HealthKitDependencies.scan(String(decoding: data, as: UTF8.self), file: name, dart: dart).isEmpty { return true }
        }
        var budget = maxFiles
        // A folder too large to read within the budget may hold a sign: kept (and reported if it cannot be loaded).
        return nativeSign(in: folder + "/ios", depth: 0, budget: &budget, fileSystem: fileSystem) || budget <= 0
    }

    private static func nativeSign(in folder: String, depth: Int, budget: inout Int, fileSystem: FileSystem) -> Bool {
        guard depth <= maxDepth, let entries = try? fileSystem.entries(in: folder) else { return false }
        for entry in entries.sorted(by: { $0.name < $1.name }) {
            guard budget > 0 else { return false }  // the caller reads an exhausted budget as "maybe"
            let path = folder + "/" + entry.name
            if entry.isFolder {
                guard !AppDiscovery.skipped.contains(entry.name), !entry.name.hasPrefix(".") else { continue }
                if nativeSign(in: path, depth: depth + 1, budget: &budget, fileSystem: fileSystem) { return true }
                continue
            }
            let needles: [String]
            switch (entry.name as NSString).pathExtension {
            case "plist": needles = ["NSHealth", "com.apple.developer.healthkit"]
            case "entitlements": needles = ["com.apple.developer.healthkit"]
            case "swift", "m", "mm": needles = ["HealthKit"]
            default: continue
            }
            budget -= 1
            guard let data = try? fileSystem.contents(of: path) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            if needles.contains(where: text.contains) { return true }
        }
        return false
    }
}
