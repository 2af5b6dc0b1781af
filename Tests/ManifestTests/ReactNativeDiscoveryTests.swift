@testable import Manifest
import XCTest
import TestSupport

/// `kind: react-native` with only `root:`: the iOS side, the Expo config and the JavaScript are found.
final class ReactNativeDiscoveryTests: XCTestCase {
    var builder: SiteBuilder!
    let entry = "    name: Stride\n    kind: react-native\n    root: apps/stride\n"

    override func setUp() { builder = SiteBuilder() }
    override func tearDown() { builder.remove() }

    static let health = """
    import AppleHealthKit from 'react-native-health';

    const options = { permissions: { read: [AppleHealthKit.Constants.Permissions.SleepAnalysis], write: [] } };

    export const connect = () => AppleHealthKit.initHealthKit(options, () => {});
    """

    static func plist(_ entries: [(String, String)]) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
            + entries.map { "\t<key>\($0.0)</key>\n\t\($0.1)\n" }.joined() + "</dict>\n</plist>\n"
    }

    // MARK: Expo

    static let appJSON = """
    {
      "expo": {
        "name": "Stride",
        "slug": "stride",
        "version": "1.2.0",
        "ios": {
          "bundleIdentifier": "org.example.stride",
          "buildNumber": "7",
          "infoPlist": {
            "UIBackgroundModes": ["fetch"],
            "NSHealthClinicalHealthRecordsShareUsageDescription": "Stride reads your lab results to explain sleep changes."
          }
        },
        "plugins": [
          "expo-router",
          [
            "react-native-health",
            {
              "healthSharePermission": "Stride reads your sleep and heart rate to score each night.",
              "isClinicalDataEnabled": true
            }
          ]
        ]
      }
    }
    """

    func testExpoConfigWithoutIOSFolderIsWhatShips() throws {
        try builder.write(["app.json": Self.appJSON, "src/health.ts": Self.health, "package.json": "{\"dependencies\": {\"react-native-health\": \"^1.19.0\", \"expo\": \"~52.0.0\"}}"])
        let manifest = try builder.load(entry)
        let plist = try XCTUnwrap(manifest.main.infoPlist)
        XCTAssertEqual(plist.format, .expoConfig)
        XCTAssertEqual(plist.path, "apps/stride/app.json")
        // The plugin's option, at its line.
        let share = try XCTUnwrap(manifest.usageString("NSHealthShareUsageDescription"))
        XCTAssertEqual(share.value.string, "Stride reads your sleep and heart rate to score each night.")
        XCTAssertEqual(share.origin, .expoConfig)
        XCTAssertEqual(share.location, FileLocation(file: "apps/stride/app.json", line: 19))
        XCTAssertEqual(share.quote, "\"healthSharePermission\": \"Stride reads your sleep and heart rate to score each night.\",")
        // Not given: the plugin's own default, cited at the plugin entry.
        let update = try XCTUnwrap(manifest.usageString("NSHealthUpdateUsageDescription"))
        XCTAssertEqual(update.value.string, "Allow $(PRODUCT_NAME) to update health info")
        XCTAssertEqual(update.location.line, 16)
        // expo.ios.infoPlist keys.
        XCTAssertEqual(plist.keyLines["NSHealthClinicalHealthRecordsShareUsageDescription"], 11)
        XCTAssertEqual(plist["UIBackgroundModes"], .array([.string("fetch")]))
        // Entitlements the plugin adds.
        let entitlements = try XCTUnwrap(manifest.main.entitlements)
        XCTAssertEqual(entitlements["com.apple.developer.healthkit"], .bool(true))
        XCTAssertEqual(entitlements["com.apple.developer.healthkit.access"], .array([.string("health-records")]))
        XCTAssertEqual(entitlements.location(of: "com.apple.developer.healthkit").line, 16)
        // Build settings prebuild derives.
        XCTAssertEqual(manifest.config.buildSettings["PRODUCT_NAME"], "Stride")
        XCTAssertEqual(manifest.config.buildSettings["PRODUCT_BUNDLE_IDENTIFIER"], "org.example.stride")
        XCTAssertEqual(manifest.config.buildSettingOrigins["MARKETING_VERSION"]?.location.line, 5)
        XCTAssertEqual(manifest.reactNativeHealth?.readTypes, ["sleepAnalysis"])
        XCTAssertTrue(manifest.inputFiles.contains("apps/stride/app.json"))
        XCTAssertTrue(manifest.discovery.contains { $0.text == "react-native-health ^1.19.0" })
    }

    /// `app.config.ts` alone (no app.json): the literal its function returns is the config, cited at
    /// its own lines; a computed value is left out and named.
    func testDynamicExpoConfigIsReadFromTheLiteralItExports() throws {
        try builder.write([
            "src/health.ts": Self.health,
            "app.config.ts": """
            import { ExpoConfig, ConfigContext } from 'expo/config';

            export default ({ config }: ConfigContext): ExpoConfig => ({
              ...config,
              name: 'Stride',
              slug: 'stride',
              version: process.env.APP_VERSION,
              ios: {
                bundleIdentifier: 'org.example.stride',
                infoPlist: { NSHealthShareUsageDescription: `Stride reads your sleep to score each night.` },
              },
              plugins: [['react-native-health', { healthUpdatePermission: 'Stride saves the naps you log so they appear in Health.' }]],
            });
            """,
        ])
        let manifest = try builder.load(entry)
        let share = try XCTUnwrap(manifest.usageString("NSHealthShareUsageDescription"))
        XCTAssertEqual(share.value.string, "Stride reads your sleep to score each night.")
        XCTAssertEqual(share.location, FileLocation(file: "apps/stride/app.config.ts", line: 10))
        let update = try XCTUnwrap(manifest.usageString("NSHealthUpdateUsageDescription"))
        XCTAssertEqual(update.location, FileLocation(file: "apps/stride/app.config.ts", line: 12))
        XCTAssertEqual(manifest.main.entitlements?["com.apple.developer.healthkit"], .bool(true))
        XCTAssertEqual(manifest.config.buildSettings["PRODUCT_BUNDLE_IDENTIFIER"], "org.example.stride")
        XCTAssertTrue(manifest.discovery.contains { $0.isNote && $0.text == "app.config.ts: `process.env.APP_VERSION` is computed and not evaluated" },
                      "\(manifest.discovery.map(\.text))")
        XCTAssertTrue(manifest.inputFiles.contains("apps/stride/app.config.ts"))
    }

    /// A script that extends app.json (`...config`) and changes `ios` keeps app.json as the evidence
    /// and says so; a spread of anything but the function's parameter is named as computed.
    func testAScriptExtendingAppJSONKeepsItsKeys() throws {
        try builder.write(["app.json": Self.appJSON, "src/health.ts": Self.health, "app.config.ts": """
            const shared = { owner: 'example' };
            export default ({ config }) => ({ ...config, ...shared, ios: { ...config.ios, bundleIdentifier: process.env.BUNDLE_ID } });
            """])
        let manifest = try builder.load(entry)
        XCTAssertEqual(manifest.usageString("NSHealthShareUsageDescription")?.location, FileLocation(file: "apps/stride/app.json", line: 19))
        let texts = manifest.discovery.filter(\.isNote).map(\.text)
        XCTAssertTrue(texts.contains("app.config.ts extends apps/stride/app.json and changes its ios or plugins keys; the audit reads apps/stride/app.json as written"), "\(texts)")
        XCTAssertTrue(texts.contains("app.config.ts: `...shared` is computed and not evaluated"), "\(texts)")
    }

    /// `module.exports = config` naming a literal, and a config that only a program can make.
    func testModuleExportsOfANamedLiteralAndAComputedConfig() throws {
        try builder.write(["src/health.ts": Self.health, "app.config.js": """
            const config = {
              expo: { name: 'Stride', slug: 'stride', plugins: ['react-native-health'] },
            };
            module.exports = config;
            """])
        XCTAssertEqual(try builder.load(entry).usageString("NSHealthShareUsageDescription")?.location, FileLocation(file: "apps/stride/app.config.js", line: 2))

        try builder.write(["app.config.js": "module.exports = buildConfig(process.env.VARIANT);\n"])
        let errors = builder.errors(entry)
        XCTAssertTrue(errors.first?.message.contains("no Expo config (app.json, or an app.config.* exporting a literal)") == true, errors.first?.message ?? "")
    }

    /// TypeScript's typed forms: a typed constant exported by name, and a typed function's result.
    func testTypedExpoConfigForms() throws {
        try builder.write(["src/health.ts": Self.health, "app.config.ts": """
            import type { ExpoConfig } from 'expo/config';

            const config: ExpoConfig = {
              name: 'Stride',
              slug: 'stride',
              plugins: [['react-native-health', { healthSharePermission: 'Stride reads your sleep to score each night.' }]],
            };

            export default config;
            """])
        XCTAssertEqual(try builder.load(entry).usageString("NSHealthShareUsageDescription")?.location, FileLocation(file: "apps/stride/app.config.ts", line: 6))

        try builder.write(["app.config.ts": """
            import type { ExpoConfig } from 'expo/config';

            export default function (): ExpoConfig {
              return {
                name: 'Stride',
                slug: 'stride',
                plugins: [['react-native-health', { healthSharePermission: 'Stride reads your sleep to score each night.' }]],
              };
            }
            """])
        XCTAssertEqual(try builder.load(entry).usageString("NSHealthShareUsageDescription")?.location, FileLocation(file: "apps/stride/app.config.ts", line: 7))
    }

    /// expo-build-properties' `ios.deploymentTarget` is the app's IPHONEOS_DEPLOYMENT_TARGET, cited at its line.
    func testExpoBuildPropertiesSetTheDeploymentTarget() throws {
        try builder.write(["src/health.ts": Self.health, "app.json": """
            {
              "expo": {
                "name": "Stride",
                "plugins": [
                  "react-native-health",
                  ["expo-build-properties", { "ios": { "deploymentTarget": "15.1" } }]
                ]
              }
            }
            """])
        let manifest = try builder.load(entry)
        XCTAssertEqual(manifest.config.buildSettings["IPHONEOS_DEPLOYMENT_TARGET"], "15.1")
        XCTAssertEqual(manifest.config.buildSettingOrigins["IPHONEOS_DEPLOYMENT_TARGET"]?.location, FileLocation(file: "apps/stride/app.json", line: 6))
    }

    func testExpoWithoutTheHealthPluginDropsTheKeys() throws {
        let json = "{\n  \"expo\": {\n    \"name\": \"Stride\",\n    \"slug\": \"stride\",\n    \"plugins\": [\"expo-router\"]\n  }\n}\n"
        try builder.write(["app.json": json, "src/health.ts": Self.health])
        let manifest = try builder.load(entry)
        XCTAssertNil(manifest.main.infoPlist)
        XCTAssertNil(manifest.main.entitlements)
        XCTAssertNil(manifest.usageString("NSHealthShareUsageDescription"))
        XCTAssertTrue(manifest.discovery.contains { $0.isNote && $0.text.hasPrefix("no HealthKit config plugin (react-native-health's or @kingstinct/react-native-healthkit's) is in expo.plugins") })
        XCTAssertEqual(manifest.reactNativeHealth?.readTypes, ["sleepAnalysis"], "the app still asks: the build would crash")
    }

    func testAppJSONDoesNotReachACommittedIOSFolder() throws {
        try builder.write([
            "app.json": Self.appJSON, "src/health.ts": Self.health,
            "ios/Stride/Info.plist": Self.plist([("CFBundleName", "<string>Stride</string>")]),
        ])
        let manifest = try builder.load(entry)
        XCTAssertEqual(manifest.main.infoPlist?.path, "apps/stride/ios/Stride/Info.plist")
        XCTAssertNil(manifest.usageString("NSHealthShareUsageDescription"), "the committed Info.plist is what ships")
        let note = try XCTUnwrap(manifest.discovery.first { $0.isNote && $0.text.hasPrefix("apps/stride/app.json provides NSHealthShareUsageDescription") },
                                 manifest.discovery.map(\.text).joined(separator: "\n"))
        XCTAssertEqual(note.location?.line, 19)
    }

    // MARK: ios/ without an Xcode project

    func testPlistsAreFoundUnderIOSWithPodsAndTestsSkipped() throws {
        let widget = Self.plist([("NSExtension", "<dict>\n\t\t<key>NSExtensionPointIdentifier</key>\n\t\t<string>com.apple.widgetkit-extension</string>\n\t</dict>")])
        try builder.write([
            "src/health.ts": Self.health,
            "ios/Stride/Info.plist": Self.plist([("NSHealthShareUsageDescription", "<string>Stride reads your sleep to score each night.</string>")]),
            "ios/Stride/Stride.entitlements": Self.plist([("com.apple.developer.healthkit", "<true/>")]),
            "ios/Stride/StrideDebug.entitlements": Self.plist([("com.apple.developer.healthkit", "<true/>")]),
            "ios/StrideTests/Info.plist": Self.plist([]),
            "ios/Pods/Target Support Files/Pods-Stride/Info.plist": Self.plist([]),
            "ios/Pods/Pods.xcodeproj/project.pbxproj": "{ this is not read }",
            "ios/StrideWidget/Info.plist": widget,
            "ios/StrideWidget/Widget.swift": "import WidgetKit\n",
            "node_modules/react-native-health/index.js": "AppleHealthKit.initHealthKit({ permissions: { read: ['StepCount'] } })",
            "src/__tests__/health.test.ts": Self.health.replacingOccurrences(of: "SleepAnalysis", with: "Weight"),
        ])
        let manifest = try builder.load(entry)
        XCTAssertEqual(manifest.main.infoPlist?.path, "apps/stride/ios/Stride/Info.plist")
        XCTAssertEqual(manifest.main.entitlements?.path, "apps/stride/ios/Stride/Stride.entitlements", "the non-debug one")
        XCTAssertEqual(manifest.extensions.map(\.id), ["stride-widget"])
        XCTAssertEqual(manifest.extensions.first?.sources.map(\.path), ["apps/stride/ios/StrideWidget/Widget.swift"])
        XCTAssertEqual(manifest.javaScriptSources.map(\.path), ["apps/stride/src/health.ts"])
        XCTAssertEqual(manifest.reactNativeHealth?.readTypes, ["sleepAnalysis"])
        XCTAssertTrue(manifest.discovery.contains { $0.isNote && $0.text.contains("build settings are unknown") })
    }

    func testSeveralPlausibleInfoPlistsAreNotPickedSilently() throws {
        try builder.write([
            "ios/Stride/Info.plist": Self.plist([]),
            "ios/StrideClassic/Info.plist": Self.plist([]),
        ])
        let manifest = try builder.load(entry)
        XCTAssertEqual(manifest.main.infoPlist?.path, "apps/stride/ios/Stride/Info.plist", "the folder named like the app")
        XCTAssertTrue(manifest.discovery.contains {
            $0.isNote && $0.text.hasPrefix("several plausible Info.plists: ios/Stride/Info.plist, ios/StrideClassic/Info.plist; using ios/Stride/Info.plist")
        }, manifest.discovery.map(\.text).joined(separator: "\n"))
    }

    func testNothingDescribingTheIOSAppIsAnInputError() throws {
        try builder.write(["src/health.ts": Self.health])
        let errors = builder.errors(entry)
        XCTAssertEqual(errors.first?.location.line, 3)
        XCTAssertTrue(errors.first?.message.contains("has no ios/ folder and no Expo config") == true, errors.first?.message ?? "")

        try builder.write(["ios/README.md": "nothing here"])
        XCTAssertTrue(builder.errors(entry).first?.message.contains("no Info.plist found under apps/stride/ios/") == true)
    }

    // MARK: The example in Site/

    func testCoSIsAuditedFromItsFolderAlone() throws {
        let config = try ConfigLoader().load(siteDirectory: Repository.site)
        let app = try XCTUnwrap(config.apps.first { $0.id == "cos" })
        XCTAssertEqual(app.kind, .reactNative)
        XCTAssertNil(app.infoPlist)
        XCTAssertTrue(app.requested.read.isEmpty, "the types come from the JavaScript")
        XCTAssertFalse(app.explicitKeys.contains("build_settings"))
        let manifest = try ManifestLoader(siteDirectory: Repository.site).load(app)
        XCTAssertEqual(manifest.main.infoPlist?.path, "apps/cos/ios/CoS/Info.plist")
        XCTAssertEqual(manifest.main.entitlements?.path, "apps/cos/ios/CoS/CoS.entitlements")
        XCTAssertEqual(manifest.otherStrings.map(\.path), ["apps/cos/ios/CoS/en.lproj/Localizable.strings"])
        XCTAssertNil(manifest.config.buildSettings["PRODUCT_NAME"], "the CoS target never sets it")
        XCTAssertEqual(manifest.config.buildSettings["PRODUCT_BUNDLE_IDENTIFIER"], "org.cos.app")
        XCTAssertEqual(manifest.config.buildSettings["MARKETING_VERSION"], "0.4.2")
        XCTAssertEqual(manifest.javaScriptSources.map(\.path).sorted(), [
            "apps/cos/App.tsx", "apps/cos/src/components/metric-tile.tsx", "apps/cos/src/screens/today-schedule.tsx", "apps/cos/src/services/health.ts",
        ])
        let scan = try XCTUnwrap(manifest.reactNativeHealth)
        XCTAssertEqual(scan.readTypes, ["stepCount", "heartRate", "sleepAnalysis", "activeEnergyBurned"])
        XCTAssertEqual(scan.writeTypes, [])
        XCTAssertEqual(scan.notes, [])
        XCTAssertEqual(scan.requests.first?.location, FileLocation(file: "apps/cos/src/services/health.ts", line: 57, column: 20))
        XCTAssertTrue(manifest.discovery.contains { $0.isNote && $0.text.hasPrefix("PRODUCT_NAME is not set for CoS") })
        XCTAssertTrue(manifest.discovery.contains { $0.text.contains("Pods-CoS.release.xcconfig") })
    }
}
