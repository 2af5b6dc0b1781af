import Foundation

/// A React Native / Expo app: `package.json` naming `react-native` or `expo`, with an Expo config or
/// an Xcode project under `ios/`. Read by `ReactNativeDiscovery` (iOS side, Expo config, scripts);
/// its calls of react-native-health and kingstinct are scanned for the permissions they request.
struct ReactNativeDriver: AppKindDriver {
    static let expoConfigs = ["app.json", "app.config.js", "app.config.ts", "app.config.json"]

    func detect(in folder: DiscoveryFolder) -> Detection? {
        guard let json = folder.packageJSON else { return nil }
        // An app, not a library or a workspace root: an Expo config, or an Xcode project under ios/.
        let isApp = Self.expoConfigs.contains(where: folder.names.contains)
            || ((try? folder.fileSystem.entries(in: folder.path + "/ios")) ?? []).contains { $0.name.hasSuffix(".xcodeproj") }
        guard isApp, json.contains("\"react-native\"") || json.contains("\"expo\"") else { return nil }
        return folder.claim("react-native", reason: "React Native / Expo app (package.json)")
    }

    func reads(_ app: AppConfig, files: AppFiles) -> DriverClaim? { app.kind == .reactNative ? .named : nil }

    func discover(_ app: AppConfig, files: AppFiles, parseBudget: ParseBudget, into discovery: inout Discovery) throws {
        try ReactNativeDiscovery(files: files).discover(into: &discovery)
    }

    func complete(_ manifest: inout AppManifest, loader: ManifestLoader) {
        guard manifest.config.kind == .reactNative else { return }
        loader.addLocalNativeCode(of: manifest.config.root, to: &manifest)
        manifest.reactNativeHealth = ReactNativeHealthScan.scan(manifest.javaScriptSources)
    }

    var traits: KindTraits? {
        KindTraits(kind: .reactNative, entryFile: "package.json", language: .javaScript, findsXcodeProject: true, generatesInfoPlist: true, countsScriptFiles: true)
    }
}
