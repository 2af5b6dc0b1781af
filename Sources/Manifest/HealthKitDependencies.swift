import Foundation

/// A package the app depends on that brings HealthKit in (a React Native, Capacitor, Cordova or
/// Flutter plugin): the app then uses HealthKit even when none of its own code calls it.
public struct HealthKitDependency: Sendable, Hashable {
    public var package: String
    public var location: FileLocation
    public var quote: String
}

/// Finds HealthKit plugins in `package.json` and `pubspec.yaml` at the app root and the folders
/// above it (a Capacitor app's `ios/App` sits two levels below its `package.json`), never above
/// the site folder.
public enum HealthKitDependencies {
    static let javaScriptPackages = [
        "react-native-health", "@kingstinct/react-native-healthkit", "react-native-healthkit", "@capgo/capacitor-health",
        "capacitor-health", "@perfood/capacitor-healthkit", "cordova-plugin-health", "cordova-plugin-healthkit",
        "@awesome-cordova-plugins/health", "expo-health-kit",
    ]
    static let dartPackages = ["health", "health_kit_reporter", "flutter_health"]

    public static func find(root: String, site: String, display: (String) -> String, fileSystem: FileSystem) -> [HealthKitDependency] {
        var found: [HealthKitDependency] = []
        for folder in folders(from: root, site: site) {
            for name in ["package.json", "pubspec.yaml"] {
                let path = folder + "/" + name
                guard fileSystem.fileExists(path), let data = try? fileSystem.contents(of: path) else { continue }
                found += scan(String(decoding: data, as: UTF8.self), file: display(path), dart: name == "pubspec.yaml")
            }
        }
        return found
    }

    /// The app root and up to two folders above it, never above the site folder: where a
    /// toolchain's manifest sits when the audited root is its `ios/` (or `ios/App`) folder.
    static func folders(from root: String, site: String) -> [String] {
        var result = [root]
        while result.count < 3, let last = result.last, last != site, last.hasPrefix(site) {
            result.append((last as NSString).deletingLastPathComponent)
        }
        return result
    }

    /// Dependency lines naming a known plugin: `"@capgo/capacitor-health": "^7.0.0"` or `  health: ^10.0.0`.
    public static func scan(_ text: String, file: String, dart: Bool) -> [HealthKitDependency] {
        var found: [HealthKitDependency] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let package: String?
            if dart {
                let name = trimmed.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
                package = line.hasPrefix(" ") && trimmed.contains(":") && dartPackages.contains(name) ? name : nil
            } else {
                package = javaScriptPackages.first { trimmed.hasPrefix("\"\($0)\"") && trimmed.contains(":") }
            }
            if let package {
                found.append(HealthKitDependency(package: package, location: FileLocation(file: file, line: index + 1), quote: Clipped.text(trimmed, limit: Clipped.quoteLimit)))
            }
        }
        return found
    }
}
