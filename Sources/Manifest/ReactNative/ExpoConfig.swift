import Foundation

/// An Expo app config (`app.json` / `app.config.json`): what `expo prebuild` writes into the iOS
/// Info.plist and entitlements — `expo.ios.infoPlist`, `expo.ios.entitlements`, and the HealthKit
/// libraries' config plugins, each as its description says (`HealthKitLibrary.expoPlugin`): the
/// HealthKit entitlement and the usage strings (the plugin's defaults when its options give none).
struct ExpoConfig {
    /// Site-relative path, for evidence.
    let file: String
    let text: String
    /// The `expo` object (or the root, for an `app.config.json` written without it).
    let expo: LocatedJSON

    /// The libraries with a config plugin, in the registry's order (the order prebuild's keys are written).
    static let pluginLibraries = HealthKitLibrary.registry.filter { $0.expoPlugin != nil }

    init?(json: LocatedJSON, file: String, text: String) {
        if let expo = json["expo"], expo.entries != nil {
            self.expo = expo
        } else if json["ios"] != nil || json["plugins"] != nil || json["name"] != nil && json["slug"] != nil {
            self.expo = json
        } else {
            return nil
        }
        self.file = file
        self.text = text
    }

    var ios: LocatedJSON? { expo["ios"] }

    /// A library's config plugin entry and its options, when listed.
    func pluginEntry(of library: HealthKitLibrary) -> (entry: LocatedJSON, options: LocatedJSON?)? { pluginEntry(library.name) }

    /// The HealthKit config plugins listed, each with its library's description, in the registry's order.
    var healthPlugins: [(plugin: HealthKitLibrary.ExpoConfigPlugin, entry: LocatedJSON, options: LocatedJSON?)] {
        Self.pluginLibraries.compactMap { library in pluginEntry(of: library).map { (library.expoPlugin!, $0.entry, $0.options) } }
    }

    /// A plugin listed by name (`"name"`) or with options (`["name", { … }]`).
    private func pluginEntry(_ name: String) -> (entry: LocatedJSON, options: LocatedJSON?)? {
        for entry in expo["plugins"]?.array ?? [] {
            if entry.string == name { return (entry, nil) }
            if let pair = entry.array, pair.first?.string == name { return (entry, pair.count > 1 ? pair[1] : nil) }
        }
        return nil
    }

    /// Other HealthKit plugins the audit recognizes but does not model.
    var otherHealthPlugins: [LocatedJSON] {
        (expo["plugins"]?.array ?? []).filter { entry in
            let name = entry.string ?? entry.array?.first?.string ?? ""
            return !Self.pluginLibraries.contains { $0.name == name } && (name.contains("healthkit") || name.contains("health-kit"))
        }
    }

    /// The Info.plist keys prebuild would write (ios.infoPlist, then the plugin), each citing its line.
    func infoPlist() -> PropertyListDocument? {
        var root: [String: PlistValue] = [:], keyLines: [String: Int] = [:]
        let infoNode = ios?["infoPlist"]
        for entry in infoNode?.entries ?? [] {
            guard let value = entry.value.plistValue else { continue }
            root[entry.key] = value
            keyLines[entry.key] = entry.keyLine
            index(entry.value, prefix: entry.key, into: &keyLines)
        }
        for (plugin, entry, options) in healthPlugins {
            // The option's text, else the value already there, else the plugin's default.
            for usage in plugin.usageStrings {
                let given = options?[usage.option]
                if plugin.falseLeavesKeyOut, given?.bool == false { continue } // ITMS-90683 when the entitlement is there
                if let text = given?.string {
                    root[usage.key] = .string(text)
                    keyLines[usage.key] = options?.entries?.first { $0.key == usage.option }?.keyLine ?? entry.line
                } else if root[usage.key] == nil {
                    root[usage.key] = .string(usage.fallback)
                    keyLines[usage.key] = entry.line
                }
            }
        }
        guard !root.isEmpty else { return nil }
        let rootLine = infoNode?.line ?? ios?.line ?? expo.line
        return .synthesized(path: file, format: .expoConfig, root: root, keyLines: keyLines, rootLine: rootLine, text: text)
    }

    /// The entitlements prebuild would write (ios.entitlements, then the plugin's HealthKit keys).
    func entitlements() -> PropertyListDocument? {
        var root: [String: PlistValue] = [:], keyLines: [String: Int] = [:]
        let node = ios?["entitlements"]
        for entry in node?.entries ?? [] {
            guard let value = entry.value.plistValue else { continue }
            root[entry.key] = value
            keyLines[entry.key] = entry.keyLine
        }
        for (plugin, entry, options) in healthPlugins {
            root["com.apple.developer.healthkit"] = .bool(true)
            keyLines["com.apple.developer.healthkit"] = entry.line
            if let option = plugin.clinicalOption {
                var access = root["com.apple.developer.healthkit.access"]?.array ?? []
                if options?[option]?.bool == true, !access.contains(.string("health-records")) { access.append(.string("health-records")) }
                root["com.apple.developer.healthkit.access"] = .array(access)
                if keyLines["com.apple.developer.healthkit.access"] == nil { keyLines["com.apple.developer.healthkit.access"] = entry.line }
            }
            if let option = plugin.backgroundOption, options?[option]?.bool != false {
                root["com.apple.developer.healthkit.background-delivery"] = .bool(true)
                keyLines["com.apple.developer.healthkit.background-delivery"] = options?.entries?.first { $0.key == option }?.keyLine ?? entry.line
            }
        }
        guard !root.isEmpty else { return nil }
        return .synthesized(path: file, format: .expoConfig, root: root, keyLines: keyLines, rootLine: node?.line ?? ios?.line ?? expo.line, text: text)
    }

    /// Build settings prebuild derives from the config, with their lines.
    func buildSettings() -> [(key: String, value: String, line: Int)] {
        var result: [(String, String, Int)] = []
        if let name = expo["name"], let text = name.string { result.append(("PRODUCT_NAME", text, name.line)) }
        if let id = ios?["bundleIdentifier"], let text = id.string { result.append(("PRODUCT_BUNDLE_IDENTIFIER", text, id.line)) }
        if let version = expo["version"], let text = version.string { result.append(("MARKETING_VERSION", text, version.line)) }
        if let build = ios?["buildNumber"], let text = build.string { result.append(("CURRENT_PROJECT_VERSION", text, build.line)) }
        if let tablet = ios?["supportsTablet"], let flag = tablet.bool { result.append(("TARGETED_DEVICE_FAMILY", flag ? "1,2" : "1", tablet.line)) }
        // `["expo-build-properties", { ios: { deploymentTarget: "16.0" } }]` sets the oldest iOS.
        if let target = pluginEntry("expo-build-properties")?.options?["ios"]?["deploymentTarget"], let text = target.string {
            result.append(("IPHONEOS_DEPLOYMENT_TARGET", text, target.line))
        }
        return result
    }

    func quote(_ line: Int) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return "" }
        return lines[line - 1].trimmingCharacters(in: .whitespaces)
    }

    private func index(_ node: LocatedJSON, prefix: String, into lines: inout [String: Int]) {
        for entry in node.entries ?? [] {
            let path = prefix + "." + entry.key
            lines[path] = entry.keyLine
            index(entry.value, prefix: path, into: &lines)
        }
    }
}
