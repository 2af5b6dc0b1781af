import Foundation

/// Discovers a React Native app from its folder: the iOS side (`ios/*.xcodeproj`, else the
/// `ios/<App>/Info.plist` and `.entitlements` found there, `ios/Pods` skipped), the Expo config
/// (`app.json` / `app.config.json`) — what prebuild writes when there is no `ios/` folder — and the
/// JavaScript / TypeScript sources (`node_modules`, `ios/`, `android/` skipped).
struct ReactNativeDiscovery {
    let files: AppFiles

    /// Folders of an RN app that hold no app JavaScript.
    static let skippedScriptFolders: Set<String> = [
        "ios", "android", "macos", "windows", "web-build", "dist", "coverage", "vendor", "__tests__", "__mocks__", "e2e",
    ]
    /// Script files, and single-file components whose `<script>` blocks hold the web code of
    /// Capacitor and Cordova apps built with Vue (Quasar, Ionic Vue) or Svelte.
    static let scriptExtensions: Set<String> = ["js", "jsx", "ts", "tsx", "mjs", "cjs", "vue", "svelte"]

    func discover(into discovery: inout Discovery) throws {
        let app = discovery.config
        func explicit(_ key: String) -> Bool { app.explicitKeys.contains(key) }

        // package.json: which HealthKit library, which React Native.
        var expectedNames: [String] = [app.name, app.id]
        if files.exists("package.json"), let data = try? files.read("package.json"), let json = try? LocatedJSON.parse(data, file: files.display("package.json")) {
            discovery.inputs.append(files.display("package.json"))
            if let name = json["name"]?.string { expectedNames.append(name) }
            for section in ["dependencies", "devDependencies"] {
                for entry in json[section]?.entries ?? [] where ["react-native-health", "react-native", "expo", "@kingstinct/react-native-healthkit", "react-native-healthkit"].contains(entry.key) {
                    let version = entry.value.string ?? "?"
                    if entry.key == "react-native-healthkit" {
                        discovery.note("\(entry.key) \(version) is a dependency; its calls are not analysed (its successor @kingstinct/react-native-healthkit's are)", origin: "package.json \(section)",
                                       at: FileLocation(file: files.display("package.json"), line: entry.keyLine))
                    } else {
                        discovery.fact("\(entry.key) \(version)", origin: "package.json \(section)", at: FileLocation(file: files.display("package.json"), line: entry.keyLine))
                    }
                }
            }
        }

        // The Expo config.
        var expo: ExpoConfig?
        for name in ["app.json", "app.config.json"] where expo == nil && files.exists(name) {
            let data = try files.read(name)
            let json = try LocatedJSON.parse(data, file: files.display(name))
            discovery.inputs.append(files.display(name))
            expo = ExpoConfig(json: json, file: files.display(name), text: String(decoding: data, as: UTF8.self))
            if let expo, let name = expo.expo["name"]?.string { expectedNames.append(name) }
        }
        // A dynamic config, read without running it; Expo lets it replace or extend app.json's.
        for name in ["app.config.ts", "app.config.js", "app.config.mjs", "app.config.cjs"] where files.exists(name) {
            let display = files.display(name)
            let text = String(decoding: try files.read(name), as: UTF8.self)
            discovery.inputs.append(display)
            guard let script = ExpoConfigScript(file: JavaScriptFile(path: display, text: text)),
                  let read = ExpoConfig(json: script.json, file: display, text: text) else {
                discovery.note("\(name) computes its config: no literal it exports could be read without running it"
                               + (expo.map { "; \($0.file) is used as written" } ?? ""), origin: "Expo config", at: FileLocation(file: display, line: 1))
                break
            }
            for (text, line) in script.computed.prefix(5) {
                discovery.note("\(name): `\(text.count > 60 ? text.prefix(57) + "…" : Substring(text))` is computed and not evaluated", origin: "Expo config",
                               at: FileLocation(file: display, line: line))
            }
            // A script that extends app.json's config (`...config`) keeps app.json's keys; what it
            // changes is not combined key by key, so app.json stays the evidence and the script is noted.
            if script.extendsStaticConfig, let base = expo {
                if read.ios != nil || read.expo["plugins"] != nil {
                    discovery.note("\(name) extends \(base.file) and changes its ios or plugins keys; the audit reads \(base.file) as written",
                                   origin: "Expo config", at: FileLocation(file: display, line: read.expo.line))
                } else {
                    discovery.fact("\(name) extends \(base.file) without changing its ios or plugins keys", origin: "Expo config", at: FileLocation(file: display, line: 1))
                }
                break
            }
            discovery.fact("Expo config read from \(name)", origin: "Expo config", at: FileLocation(file: display, line: read.expo.line))
            expo = read
            if let name = read.expo["name"]?.string { expectedNames.append(name) }
            break
        }

        // The iOS side.
        let hasIOSFolder = files.isDirectory("ios")
        if let project = app.project {
            try XcodeDiscovery(files: files).discover(project: project.value, at: project.location, into: &discovery)
        } else if explicit("info_plist") {
            discovery.fact("Info.plist as the config names it: \(files.display(app.infoPlist ?? ""))", origin: ConfigLoader.fileName, at: app.location)
        } else if hasIOSFolder {
            let projects = try files.files(under: "ios").filter { $0.hasSuffix(".xcodeproj/project.pbxproj") }
                .map { ($0 as NSString).deletingLastPathComponent }
            if let project = Self.choose(projects, expected: expectedNames, what: "Xcode projects", discovery: &discovery) {
                discovery.fact("iOS project \(files.display(project))", origin: "ios/", at: FileLocation(file: files.display(project + "/project.pbxproj")))
                try XcodeDiscovery(files: files).discover(project: project, at: app.location, into: &discovery)
            } else {
                try discoverPlists(expected: expectedNames, into: &discovery)
            }
        } else if let expo {
            discovery.fact("No ios/ folder: the iOS app is generated by `expo prebuild` from \(expo.file)", origin: "Expo config", at: FileLocation(file: expo.file, line: expo.expo.line))
            applyExpo(expo, into: &discovery)
        } else {
            throw InputError("React Native app '\(app.id)' has no ios/ folder and no Expo config (app.json, or an app.config.* exporting a literal): nothing says what the iOS app declares (set info_plist or project)", at: app.location)
        }
        // The app target's Swift files are React Native boilerplate (AppDelegate.swift) unless they
        // use HealthKit themselves (a native module): only those are Swift-audited, or the answers
        // would read "no HealthKit calls" for an app that makes them all from JavaScript.
        if !explicit("sources"), !discovery.config.sources.isEmpty {
            let native = discovery.config.sources.filter { files.text($0)?.contains("HealthKit") == true }
            let skipped = discovery.config.sources.count - native.count
            if skipped > 0 {
                discovery.fact("\(Plural.count(skipped, "Swift file")) of the app target not audited as Swift: they do not use HealthKit (React Native's native side)",
                               origin: "app target sources")
            }
            discovery.config.sources = native
        }
        if let expo, hasIOSFolder || app.project != nil || explicit("info_plist") {
            compare(expo, into: &discovery)
        }
        if let expo {
            for plugin in expo.otherHealthPlugins {
                discovery.note("Expo plugin \(plugin.string ?? plugin.array?.first?.string ?? "") is listed; its Info.plist keys are not modelled", origin: "\(expo.file) plugins",
                               at: FileLocation(file: expo.file, line: plugin.line))
            }
        }

        // JavaScript / TypeScript.
        let scripts = try files.files(under: ".", skipping: Self.skippedScriptFolders.union([".expo", "Pods"])).filter(Self.isAppScript)
        discovery.javaScript = scripts
        discovery.fact("\(Plural.count(scripts.count, "JavaScript/TypeScript file")) scanned (node_modules, ios/, android/ and tests skipped)", origin: "app folder",
                       at: nil)
    }

    static func isAppScript(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension
        guard scriptExtensions.contains(ext), !name.hasSuffix(".d.ts") else { return false }
        let stem = (name as NSString).deletingPathExtension
        if stem.hasSuffix(".test") || stem.hasSuffix(".spec") || stem.hasSuffix(".config") || stem.hasPrefix(".") { return false }
        return true
    }

    /// One of several candidates: the only one, else the one whose folder is named like the app
    /// (noted, with the others), else nil when there is none.
    static func choose(_ candidates: [String], expected: [String], what: String, discovery: inout Discovery) -> String? {
        guard let first = candidates.first else { return nil }
        guard candidates.count > 1 else { return first }
        let names = Set(expected.map { $0.lowercased().filter { $0.isLetter || $0.isNumber } })
        func stem(_ path: String) -> String {
            let last = (path as NSString).lastPathComponent == "Info.plist" ? ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
                : ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            return last.lowercased().filter { $0.isLetter || $0.isNumber }
        }
        let named = candidates.filter { names.contains(stem($0)) }
        let chosen = named.first ?? candidates.sorted { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }[0]
        let why = named.isEmpty ? "the shallowest" : "its folder is named like the app"
        discovery.note("several plausible \(what): \(candidates.joined(separator: ", ")); using \(chosen) (\(why)) — name the right one in the config",
                       origin: "ios/")
        return chosen
    }

    /// Without an Xcode project: `ios/*/Info.plist` (an `NSExtension` one is an extension) and the
    /// `.entitlements` beside the app's.
    private func discoverPlists(expected: [String], into discovery: inout Discovery) throws {
        let app = discovery.config
        let all = try files.files(under: "ios")
        let plists = all.filter { path in
            let parts = path.split(separator: "/")
            return parts.last == "Info.plist" && !parts.dropLast().contains { part in
                part.hasSuffix(".xcodeproj") || part.hasSuffix(".xcworkspace") || part.hasSuffix("Tests") || part.hasSuffix(".bundle")
                    || part.hasSuffix(".framework") || part.hasSuffix(".appex") || part.hasSuffix(".app")
            }
        }
        var mains: [String] = [], extensionPlists: [String] = []
        for path in plists {
            let document = try? PropertyListDocument.parse(try files.read(path), path: files.display(path))
            if document?["NSExtension"] != nil { extensionPlists.append(path) } else { mains.append(path) }
        }
        guard let main = Self.choose(mains, expected: expected, what: "Info.plists", discovery: &discovery) else {
            throw InputError("no Info.plist found under \(files.display("ios"))/ (Pods skipped): set info_plist in the config", at: app.location)
        }
        let folder = (main as NSString).deletingLastPathComponent
        discovery.config.infoPlist = main
        discovery.note("no Xcode project under ios/: build settings are unknown, so $(VAR) values cannot be resolved", origin: "ios/")
        discovery.fact("Info.plist \(files.display(main))", origin: "ios/ (no Xcode project)", at: FileLocation(file: files.display(main)))
        func entitlements(in folder: String) -> [String] {
            all.filter { ($0 as NSString).deletingLastPathComponent == folder && $0.hasSuffix(".entitlements") }
        }
        if !app.explicitKeys.contains("entitlements") {
            let candidates = entitlements(in: folder)
            let release = candidates.filter { !$0.lowercased().contains("debug") }
            if let chosen = Self.choose(release.isEmpty ? candidates : release, expected: [(folder as NSString).lastPathComponent] + expected,
                                        what: "entitlements files", discovery: &discovery) {
                discovery.config.entitlements = chosen
                discovery.fact("Entitlements \(files.display(chosen))", origin: "ios/ (no Xcode project)", at: FileLocation(file: files.display(chosen)))
            }
        }
        if !app.explicitKeys.contains("sources"), all.contains(where: { ($0 as NSString).deletingLastPathComponent == folder && $0.hasSuffix(".swift") }) {
            discovery.config.sources = all.filter { $0.hasPrefix(folder + "/") && $0.hasSuffix(".swift") }
        }
        if !app.explicitKeys.contains("extensions") {
            var taken: Set<String> = [app.id]
            discovery.config.extensions = extensionPlists.map { path in
                let folder = (path as NSString).deletingLastPathComponent
                let name = (folder as NSString).lastPathComponent
                let id = ProjectDiscovery.identifier(for: name, taken: taken)
                taken.insert(id)
                discovery.fact("Extension \(name), audited as '\(id)': Info.plist \(files.display(path))", origin: "ios/ (NSExtension)",
                               at: FileLocation(file: files.display(path)))
                return ExtensionConfig(id: id, name: name, infoPlist: path, entitlements: entitlements(in: folder).first,
                                       sources: all.filter { $0.hasPrefix(folder + "/") && $0.hasSuffix(".swift") }, location: app.location)
            }
        }
    }

    /// No ios/ folder: what prebuild would generate is what ships.
    private func applyExpo(_ expo: ExpoConfig, into discovery: inout Discovery) {
        let app = discovery.config
        let origin = "\(expo.file) (Expo config)"
        if !app.explicitKeys.contains("info_plist"), let plist = expo.infoPlist() {
            discovery.infoPlists[app.id] = plist
            for key in plist.root.keys.sorted() {
                let line = plist.keyLines[key]
                let value = plist.root[key]!
                let from = expo.pluginEntry(of: .reactNativeHealth).map { line == $0.entry.line || $0.options?.entries?.contains { $0.keyLine == line } == true } ?? false
                    ? "react-native-health plugin" : "expo.ios.infoPlist"
                discovery.fact("\(key) = \(value.string.map(XcodeDiscovery.clip) ?? value.summary)", origin: "\(expo.file) \(from)",
                               at: FileLocation(file: expo.file, line: line ?? plist.rootLine))
            }
        } else if !app.explicitKeys.contains("info_plist") {
            discovery.note("the Expo config sets no Info.plist keys and lists no react-native-health plugin: the built app has no HealthKit usage strings",
                           origin: origin, at: FileLocation(file: expo.file, line: expo.expo.line))
        }
        if !app.explicitKeys.contains("entitlements"), let entitlements = expo.entitlements() {
            discovery.entitlements[app.id] = entitlements
            discovery.fact("Entitlements " + entitlements.root.keys.sorted().joined(separator: ", "), origin: origin,
                           at: FileLocation(file: expo.file, line: entitlements.rootLine))
        }
        if expo.healthPlugins.isEmpty {
            let plugins = ExpoConfig.pluginLibraries.map { "\($0.name)'s" }.joined(separator: " or ")
            discovery.note("no HealthKit config plugin (\(plugins)) is in expo.plugins: prebuild adds neither the HealthKit entitlement nor its usage strings",
                           origin: origin, at: FileLocation(file: expo.file, line: expo.expo["plugins"]?.line ?? expo.expo.line))
        }
        for (key, value, line) in expo.buildSettings() where app.buildSettings[key] == nil {
            discovery.config.buildSettings[key] = value
            discovery.config.buildSettingOrigins[key] = SettingOrigin(location: FileLocation(file: expo.file, line: line), quote: expo.quote(line), level: origin)
            discovery.fact("\(key) = \(value)", origin: origin, at: FileLocation(file: expo.file, line: line))
        }
    }

    /// With an ios/ folder, app.json's iOS settings only reach the app through `expo prebuild`.
    private func compare(_ expo: ExpoConfig, into discovery: inout Discovery) {
        guard let wanted = expo.infoPlist() else { return }
        let plist: PropertyListDocument? = discovery.config.infoPlist.flatMap { path in
            (try? files.read(path)).flatMap { try? PropertyListDocument.parse($0, path: files.display(path)) }
        } ?? discovery.infoPlists[discovery.config.id]
        for key in ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"] where wanted[key] != nil {
            let generated = discovery.config.buildSettings["INFOPLIST_KEY_" + key] != nil
            if plist?[key] == nil && !generated {
                discovery.note("\(expo.file) provides \(key) but the committed iOS project lacks it: with an ios/ folder, EAS Build and `expo run:ios` build it as is, and app.json reaches it only through `npx expo prebuild` — the shipped app crashes when it asks for HealthKit",
                               origin: "\(expo.file) (Expo config)", at: FileLocation(file: expo.file, line: wanted.keyLines[key] ?? wanted.rootLine))
            }
        }
    }
}
