import Checklist
import Foundation
import Manifest
import TestSupport

/// Test scaffolding, kept out of the production module: an example written to a temporary site
/// folder and loaded like a real app.
extension RuleExample {
    /// Writes the example into `directory` (a site folder) with its `healthaudit.yml`.
    func write(to directory: String) throws {
        let app = directory + "/apps/example"
        for (path, text) in files { try Self.write(Data(text.utf8), to: app + "/" + (path.hasPrefix("js/") ? String(path.dropFirst(3)) : path)) }
        for (path, bytes) in binaryFiles { try Self.write(Data(bytes), to: app + "/" + path) }
        var yaml = "title: Example\napps:\n  - id: example\n    name: Example\n    root: apps/example\n"
        if isReactNative { yaml += "    kind: react-native\n" }
        if files["Info.plist"] != nil || binaryFiles["Info.plist"] != nil { yaml += "    info_plist: Info.plist\n" }
        if files["App.entitlements"] != nil { yaml += "    entitlements: App.entitlements\n" }
        if files["PrivacyInfo.xcprivacy"] != nil { yaml += "    privacy_manifest: PrivacyInfo.xcprivacy\n" }
        yaml += "    localizations: .\n"
        if scanSources, files.keys.contains(where: { $0.hasPrefix("Sources/") }) { yaml += "    sources: [Sources]\n" }
        if scanSources, files.keys.contains(where: { $0.hasPrefix("Packages/") }) { yaml += "    extra_sources: [Packages]\n" }
        if !read.isEmpty || !share.isEmpty {
            yaml += "    requested:\n      read: [\(read.joined(separator: ", "))]\n      share: [\(share.joined(separator: ", "))]\n"
        }
        if !buildSettings.isEmpty {
            yaml += "    build_settings:\n" + buildSettings.sorted { $0.key < $1.key }.map { "      \($0.key): \"\($0.value)\"\n" }.joined()
        }
        let targets = [(folder: "Widget", kind: "extension"), (folder: "Watch", kind: "watch")].filter { files["\($0.folder)/Info.plist"] != nil }
        if !targets.isEmpty { yaml += "    extensions:\n" }
        for (folder, kind) in targets {
            yaml += "      - id: \(folder.lowercased())\n        name: \(folder)\n        kind: \(kind)\n        info_plist: \(folder)/Info.plist\n"
            if files["\(folder)/\(folder).entitlements"] != nil { yaml += "        entitlements: \(folder)/\(folder).entitlements\n" }
            if scanSources, files.keys.contains(where: { $0.hasPrefix("\(folder)/Sources/") }) { yaml += "        sources: [\(folder)/Sources]\n" }
        }
        try Self.write(Data(yaml.utf8), to: directory + "/healthaudit.yml")
    }

    /// Materializes the example in a fresh temporary folder and loads it like a real app.
    func load() throws -> AppManifest {
        let directory = Repository.temporaryPath("healthaudit-example")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try write(to: directory)
        let config = try ConfigLoader().load(siteDirectory: directory)
        return ManifestLoader(siteDirectory: directory).loadIsolating(config.apps[0])
    }

    private static func write(_ data: Data, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
    }
}
