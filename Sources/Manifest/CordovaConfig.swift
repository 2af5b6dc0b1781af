import Foundation

/// What a Cordova app's `config.xml` (and its `package.json`) makes of the iOS app at `cordova
/// prepare`: the usage strings written by `<edit-config>` / `<config-file>`, or by a HealthKit
/// plugin from its variables (`HEALTH_READ_PERMISSION`, `HEALTH_WRITE_PERMISSION`), and the
/// HealthKit entitlement the plugin adds. Every key cites the line that produces it.
public struct CordovaConfig {
    /// Plugins whose `plugin.xml` writes both usage strings from variables and adds the entitlement.
    static let healthPlugins = Set(HealthKitLibrary.registry.flatMap(\.cordovaPlugins))
    /// The value `cordova-plugin-health`'s `plugin.xml` gives a variable nobody set: a space, which
    /// HealthKit rejects as a purpose string.
    static let unsetVariable = " "
    static let variables = [("NSHealthShareUsageDescription", "HEALTH_READ_PERMISSION"), ("NSHealthUpdateUsageDescription", "HEALTH_WRITE_PERMISSION")]

    let path: String
    let text: String
    let lines: [Substring]
    /// `<plugin name>` → its line and variables (name → value, line).
    private(set) var plugins: [String: (line: Int, variables: [String: (String, Int)])] = [:]
    /// Keys set by `<edit-config target=…>` / `<config-file parent=…>` for iOS plists.
    private(set) var plistKeys: [String: (value: String, line: Int)] = [:]

    /// The `config.xml` at `folder`, when it is a Cordova one (a `<widget>` of the W3C widgets namespace).
    public static func read(folder: String, display: String, fileSystem: FileSystem) -> CordovaConfig? {
        guard let data = try? fileSystem.contents(of: folder + "/config.xml") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains("<widget"), text.contains("http://www.w3.org/ns/widgets") || text.contains("cordova") else { return nil }
        return CordovaConfig(path: display + "/config.xml", text: text)
    }

    init(path: String, text: String) {
        self.path = path
        self.text = text
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        parse()
    }

    /// The attributes from the start of `tag` to the end of its line; the first of a name wins (it is the tag's own).
    private static func attributes(of tag: Substring) -> [String: String] {
        Dictionary(tag.matches(of: #/([\w:-]+)\s*=\s*"([^"]*)"/#).map { (String($0.1), MarkupEscaping.unescape(String($0.2))) }) { first, _ in first }
    }

    private mutating func parse() {
        var openPlugin: String?
        var pendingKey: (key: String, line: Int)?
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if let range = line.range(of: "<plugin ") ?? line.range(of: "<plugin\t"), let name = Self.attributes(of: line[range.lowerBound...])["name"] {
                plugins[name] = (number, [:])
                openPlugin = line.contains("/>") && !line.contains("<variable") ? nil : name
            }
            if let plugin = openPlugin, let range = line.range(of: "<variable") {
                let found = Self.attributes(of: line[range.lowerBound...])
                if let name = found["name"], let value = found["value"] { plugins[plugin]?.variables[name] = (value, number) }
            }
            if line.contains("</plugin>") { openPlugin = nil }
            for (tag, attribute) in [("<edit-config", "target"), ("<config-file", "parent")] {
                guard let range = line.range(of: tag), let key = Self.attributes(of: line[range.lowerBound...])[attribute], key.hasPrefix("NS") else { continue }
                pendingKey = (key, number)
            }
            if let pending = pendingKey, let value = Self.stringValue(in: line) {
                plistKeys[pending.key] = (value, pending.line)
                pendingKey = nil
            }
            if line.contains("</edit-config>") || line.contains("</config-file>") { pendingKey = nil }
        }
    }

    private static func stringValue(in line: Substring) -> String? {
        if line.contains("<string/>") { return "" }
        guard let match = line.firstMatch(of: #/<string>(.*?)</string>/#) else { return nil }
        return MarkupEscaping.unescape(String(match.1))
    }

    /// The HealthKit plugin the app lists, with its line.
    public var healthPlugin: (name: String, line: Int)? {
        plugins.filter { Self.healthPlugins.contains($0.key) }.min { $0.value.line < $1.value.line }.map { ($0.key, $0.value.line) }
    }

    /// `package.json`'s `cordova.plugins.<plugin>` variables, where Cordova 7+ keeps them.
    public struct PackageVariables {
        public var path: String
        public var text: String
        public var values: [String: (value: String, line: Int)]
    }

    /// The Info.plist keys `cordova prepare` writes: explicit plist edits first, then the plugin's
    /// variables from config.xml, then from package.json, then the plugin's default.
    public func infoPlist(package: PackageVariables?) -> PropertyListDocument? {
        var root: [String: PlistValue] = [:], keyLines: [String: Int] = [:]
        var fromPackage: [String: PlistValue] = [:], packageLines: [String: Int] = [:]
        for (key, entry) in plistKeys {
            root[key] = .string(entry.value)
            keyLines[key] = entry.line
        }
        if let (name, line) = healthPlugin {
            for (key, variable) in Self.variables where root[key] == nil {
                if let (value, at) = plugins[name]?.variables[variable] {
                    (root[key], keyLines[key]) = (.string(value), at)
                } else if let (value, at) = package?.values[variable] {
                    (fromPackage[key], packageLines[key]) = (.string(value), at)
                } else {
                    (root[key], keyLines[key]) = (.string(Self.unsetVariable), line)
                }
            }
        }
        guard !root.isEmpty || !fromPackage.isEmpty else { return nil }
        let config = PropertyListDocument.synthesized(path: path, format: .cordovaConfig, root: root, keyLines: keyLines, rootLine: widgetLine, text: text)
        guard let package, !fromPackage.isEmpty else { return config }
        // Keys only package.json sets are cited there.
        return config.merging(.synthesized(path: package.path, format: .cordovaConfig, root: fromPackage, keyLines: packageLines, rootLine: 1, text: package.text))
    }

    /// The entitlements the HealthKit plugin adds (`com.apple.developer.healthkit`), cited at its `<plugin>` line.
    public func entitlements() -> PropertyListDocument? {
        guard let (_, line) = healthPlugin else { return nil }
        return .synthesized(path: path, format: .cordovaConfig,
                            root: ["com.apple.developer.healthkit": .bool(true), "com.apple.developer.healthkit.access": .array([])],
                            keyLines: ["com.apple.developer.healthkit": line, "com.apple.developer.healthkit.access": line],
                            rootLine: line, text: text)
    }

    private var widgetLine: Int { (lines.firstIndex { $0.contains("<widget") } ?? 0) + 1 }
}

/// A Cordova app's web code: `www/` and any sources beside `config.xml`; a Quasar project keeps
/// its Cordova wrapper in `src-cordova/`, with the app's code in the folder above.
public enum CordovaSources {
    public static func files(root: String, site: String, fileSystem: FileSystem) -> [String] {
        let skipped = ReactNativeDiscovery.skippedScriptFolders.union(AppFiles.skippedFolders).union(["platforms", "plugins", "src-cordova", "src-capacitor"])
        let folder = folder(root: root, site: site)
        return ((try? fileSystem.files(under: folder, skipping: skipped)) ?? []).filter(ReactNativeDiscovery.isAppScript).map { folder + "/" + $0 }
    }

    /// The web project's folder: a Quasar-style `src-cordova` root's parent, else the root itself.
    public static func folder(root: String, site: String) -> String {
        let parent = (root as NSString).deletingLastPathComponent
        return (root as NSString).lastPathComponent == "src-cordova" && (parent == site || parent.hasPrefix(site + "/")) ? parent : root
    }
}
