import Foundation

/// A Cordova app: a `config.xml` widget at the root; its iOS project is generated (`platforms/` is
/// not committed), so the Info.plist and entitlements are the ones `cordova prepare` would write
/// from `config.xml` and `package.json` (`CordovaConfig`), and its web code is scanned.
struct CordovaDriver: AppKindDriver {
    func detect(in folder: DiscoveryFolder) -> Detection? {
        guard folder.names.contains("config.xml"), let text = try? folder.fileSystem.contents(of: folder.path + "/config.xml"),
              String(decoding: text, as: UTF8.self).contains("http://www.w3.org/ns/widgets") else { return nil }
        return folder.claim("cordova", reason: "Cordova app (config.xml)")
    }

    var traits: KindTraits? { KindTraits(kind: .cordova, entryFile: "config.xml", language: .javaScript, generatesInfoPlist: true) }

    /// The Info.plist and entitlements `cordova prepare` would write, unless the entry names files; and the web code.
    func complete(_ manifest: inout AppManifest, loader: ManifestLoader) {
        guard manifest.config.kind == .cordova else { return }
        let root = manifest.config.root
        let fileSystem = loader.fileSystem
        let display = loader.shown
        guard let config = CordovaConfig.read(folder: root, display: display(root), fileSystem: fileSystem) else {
            manifest.discovery.append(DiscoveredFact("no Cordova config.xml at \(display(root))", origin: "cordova", location: nil, isNote: true))
            return
        }
        var read = [config.path]
        var package: CordovaConfig.PackageVariables?
        let plugin = config.healthPlugin
        if let plugin, let data = try? fileSystem.contents(of: root + "/package.json"),
           let json = try? LocatedJSON.parse(data, file: display(root) + "/package.json") {
            var values: [String: (value: String, line: Int)] = [:]
            for entry in json["cordova"]?["plugins"]?[plugin.name]?.entries ?? [] {
                if let text = entry.value.string { values[entry.key] = (text, entry.keyLine) }
            }
            package = .init(path: display(root) + "/package.json", text: String(decoding: data, as: UTF8.self), values: values)
            read.append(package!.path)
        }
        manifest.inputFiles = Array(Set(manifest.inputFiles + read)).sorted()
        if manifest.main.infoPlist == nil { manifest.main.infoPlist = config.infoPlist(package: package) }
        if manifest.main.entitlements == nil { manifest.main.entitlements = config.entitlements() }
        if let plugin {
            manifest.discovery.append(DiscoveredFact("HealthKit plugin \(plugin.name): its usage strings and entitlement as `cordova prepare` writes them",
                                                     origin: "config.xml", location: FileLocation(file: config.path, line: plugin.line), isNote: false))
        }
        if manifest.javaScriptSources.isEmpty {
            manifest.javaScriptSources = loader.shipped(loader.scripts(at: CordovaSources.files(root: root, site: loader.siteDirectory, fileSystem: fileSystem)),
                                                        folder: CordovaSources.folder(root: root, site: loader.siteDirectory),
                                                        reactNative: false, into: &manifest)
            manifest.discovery.append(DiscoveredFact("\(Plural.count(manifest.javaScriptSources.count, "web code file")) of the Cordova app scanned (platforms, plugins and node_modules skipped)",
                                                     origin: "config.xml", location: nil, isNote: false))
        }
    }
}
