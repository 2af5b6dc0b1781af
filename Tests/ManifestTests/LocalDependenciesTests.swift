@testable import Manifest
import TestSupport
import XCTest

/// Modular apps keep their HealthKit code in local Swift packages and development CocoaPods of
/// their own repository: those files are the app's sources too (CardinalKit's framework is a
/// `:path` pod; Capacitor links its plugins as local packages).
final class LocalDependenciesTests: XCTestCase {
    var builder: SiteBuilder!

    override func setUpWithError() throws { builder = SiteBuilder() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: builder.site) }

    static let pbxproj = """
    // !$*UTF8*$!
    { archiveVersion = 1; objectVersion = 60; objects = {
        P = {isa = PBXProject; mainGroup = G; targets = (App); buildConfigurationList = PL;};
        G = {isa = PBXGroup; children = (GA); sourceTree = "<group>";};
        GA = {isa = PBXGroup; children = (FA); path = App; sourceTree = "<group>";};
        FA = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppMain.swift; sourceTree = "<group>";};
        BA = {isa = PBXBuildFile; fileRef = FA;};
        SA = {isa = PBXSourcesBuildPhase; files = (BA);};
        App = {isa = PBXNativeTarget; name = Stride; productType = "com.apple.product-type.application"; buildConfigurationList = AL; buildPhases = (SA); dependencies = (); packageProductDependencies = (PD, PM);};
        PD = {isa = XCSwiftPackageProductDependency; package = LP; productName = StrideHealth;};
        PM = {isa = XCSwiftPackageProductDependency; package = MISSING; productName = Plugin;};
        LP = {isa = XCLocalSwiftPackageReference; relativePath = Packages/StrideHealth;};
        MISSING = {isa = XCLocalSwiftPackageReference; relativePath = "../node_modules/plugin";};
        PL = {isa = XCConfigurationList; buildConfigurations = (PR); defaultConfigurationName = Release;};
        PR = {isa = XCBuildConfiguration; name = Release; buildSettings = {};};
        AL = {isa = XCConfigurationList; buildConfigurations = (AR); defaultConfigurationName = Release;};
        AR = {isa = XCBuildConfiguration; name = Release; buildSettings = {INFOPLIST_FILE = App/Info.plist; PRODUCT_NAME = "$(TARGET_NAME)";};};
    }; rootObject = P; }
    """

    func testLocalPackagesAndDevelopmentPodsAreTheAppsSources() throws {
        try builder.write([
            "Stride.xcodeproj/project.pbxproj": Self.pbxproj,
            "App/Info.plist": InlineApp.infoPlist(["CFBundleName": "Stride"]),
            "App/AppMain.swift": "import SwiftUI\n",
            "Packages/StrideHealth/Package.swift": """
                // swift-tools-version: 5.9
                import PackageDescription

                let package = Package(
                    name: "StrideHealth",
                    dependencies: [.package(path: "../Core")],
                    targets: [
                        .target(name: "StrideHealth", dependencies: [.product(name: "Core", package: "Core")]),
                        .target(name: "Charts", path: "Custom/Charts"),
                        .testTarget(name: "StrideHealthTests", dependencies: ["StrideHealth"]),
                    ]
                )
                """,
            "Packages/StrideHealth/Sources/StrideHealth/Health.swift": "import HealthKit\n",
            "Packages/StrideHealth/Custom/Charts/Chart.swift": "import SwiftUI\n",
            "Packages/StrideHealth/Tests/StrideHealthTests/HealthTests.swift": "import XCTest\n",
            "Packages/Core/Package.swift": "let package = Package(name: \"Core\", targets: [.target(name: \"Core\")])\n",
            "Packages/Core/Sources/Core/Store.swift": "import HealthKit\n",
            "Podfile": "platform :ios, '16.0'\n\ntarget 'Stride' do\n  pod 'StrideKit', :path => 'Kit'\n  # pod 'Old', :path => 'Old'\n  pod 'Alamofire', '~> 5'\nend\n",
            "Kit/StrideKit.podspec": "Pod::Spec.new do |s|\n  s.name = 'StrideKit'\n  s.source_files = 'StrideKit/Source/**/*'\nend\n",
            "Kit/StrideKit/Source/Workouts.swift": "import HealthKit\n",
            "Kit/StrideKit/Source/Readme.md": "not code\n",
        ])
        let manifest = try builder.load("    root: apps/stride\n    project: Stride.xcodeproj\n")
        XCTAssertEqual(manifest.main.sources.map(\.path), [
            "apps/stride/App/AppMain.swift",
            "apps/stride/Packages/StrideHealth/Sources/StrideHealth/Health.swift",
            "apps/stride/Packages/StrideHealth/Custom/Charts/Chart.swift",
            "apps/stride/Packages/Core/Sources/Core/Store.swift",
            "apps/stride/Kit/StrideKit/Source/Workouts.swift",
        ])
        // A package outside the app (a plugin installed into node_modules) is named, not read.
        XCTAssertTrue(manifest.discovery.contains { $0.isNote && $0.text.contains("'../node_modules/plugin' is outside the app folder") },
                      manifest.discovery.map(\.text).joined(separator: "\n"))
    }

    /// Code the project links in a way discovery cannot follow (Capacitor's plugin lives in
    /// `node_modules`, installed from the repository itself) is added with `extra_sources`: the
    /// discovered sources stay, a file named both ways is read once, and the path may climb above
    /// the app's root but not out of the site folder.
    func testExtraSourcesAddToDiscoveredSourcesWithinTheSite() throws {
        try builder.write([
            "Stride.xcodeproj/project.pbxproj": Self.pbxproj,
            "App/Info.plist": InlineApp.infoPlist(["CFBundleName": "Stride"]),
            "App/AppMain.swift": "import SwiftUI\n",
            "Packages/StrideHealth/Package.swift": "let package = Package(name: \"StrideHealth\", targets: [.target(name: \"StrideHealth\")])\n",
            "Packages/StrideHealth/Sources/StrideHealth/Health.swift": "import HealthKit\n",
        ])
        try builder.write(["Sources/HealthPlugin/Health.swift": "import HealthKit\n", "Sources/HealthPlugin/Notes.md": "not code\n"], app: "plugin")
        let manifest = try builder.load("    root: apps/stride\n    project: Stride.xcodeproj\n    extra_sources: [../plugin/Sources, App/AppMain.swift]\n")
        XCTAssertEqual(manifest.main.sources.map(\.path), [
            "apps/stride/App/AppMain.swift",
            "apps/stride/Packages/StrideHealth/Sources/StrideHealth/Health.swift",
            "apps/plugin/Sources/HealthPlugin/Health.swift",
        ])
        XCTAssertTrue(manifest.inputFiles.contains("apps/plugin/Sources/HealthPlugin/Health.swift"))

        let escaping = builder.errors("    root: apps/stride\n    project: Stride.xcodeproj\n    extra_sources:\n      - ../plugin/Sources\n      - ../../../outside\n")
        XCTAssertEqual(escaping.map(\.message), ["'extra_sources': the path leaves the config's folder (no git repository holds it): '../../../outside'"])
        XCTAssertEqual(escaping.first?.location.line, 8)
        XCTAssertEqual(escaping.first?.location.file.hasSuffix("healthaudit.yml"), true)
        // Listed `sources` still may not climb: only the additive key reaches a sibling.
        XCTAssertEqual(builder.errors("    root: apps/stride\n    sources: [../plugin/Sources]\n").map(\.message),
                       ["'apps[].sources': the path leaves its folder: '../plugin/Sources'"])
    }
}

/// With the Info.plist generated from build settings there is no Info.plist folder to look in: the
/// localizations are wherever the target's Resources phase has them (a variant group in a
/// `Resources` group), and a strings file the target does not copy is not the app's.
final class LocalizedResourcesTests: XCTestCase {
    func testInfoPlistStringsComeFromTheTargetsResourcesPhase() throws {
        let builder = SiteBuilder()
        defer { builder.remove() }
        try builder.write([
            "Stride.xcodeproj/project.pbxproj": """
            // !$*UTF8*$!
            { archiveVersion = 1; objectVersion = 60; objects = {
                P = {isa = PBXProject; mainGroup = G; targets = (App); buildConfigurationList = PL;};
                G = {isa = PBXGroup; children = (GA, GR); sourceTree = "<group>";};
                GA = {isa = PBXGroup; children = (FA); path = App; sourceTree = "<group>";};
                GR = {isa = PBXGroup; children = (V); path = Resources; sourceTree = "<group>";};
                FA = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppMain.swift; sourceTree = "<group>";};
                V = {isa = PBXVariantGroup; children = (VEN, VDE); name = InfoPlist.strings; sourceTree = "<group>";};
                VEN = {isa = PBXFileReference; name = en; path = en.lproj/InfoPlist.strings; sourceTree = "<group>";};
                VDE = {isa = PBXFileReference; name = de; path = de.lproj/InfoPlist.strings; sourceTree = "<group>";};
                BA = {isa = PBXBuildFile; fileRef = FA;};
                BV = {isa = PBXBuildFile; fileRef = V;};
                SA = {isa = PBXSourcesBuildPhase; files = (BA);};
                RA = {isa = PBXResourcesBuildPhase; files = (BV);};
                App = {isa = PBXNativeTarget; name = Stride; productType = "com.apple.product-type.application"; buildConfigurationList = AL; buildPhases = (SA, RA); dependencies = ();};
                PL = {isa = XCConfigurationList; buildConfigurations = (PR); defaultConfigurationName = Release;};
                PR = {isa = XCBuildConfiguration; name = Release; buildSettings = {};};
                AL = {isa = XCConfigurationList; buildConfigurations = (AR); defaultConfigurationName = Release;};
                AR = {isa = XCBuildConfiguration; name = Release; buildSettings = {GENERATE_INFOPLIST_FILE = YES; INFOPLIST_KEY_NSHealthShareUsageDescription = "Stride reads your steps to chart your week."; PRODUCT_NAME = "$(TARGET_NAME)";};};
            }; rootObject = P; }
            """,
            "App/AppMain.swift": "import SwiftUI\n",
            "Resources/en.lproj/InfoPlist.strings": "\"NSHealthShareUsageDescription\" = \"Stride reads your steps to chart your week.\";\n",
            "Resources/de.lproj/InfoPlist.strings": "\"NSHealthShareUsageDescription\" = \"Stride liest deine Schritte für die Wochenübersicht.\";\n",
            "Old/fr.lproj/InfoPlist.strings": "\"NSHealthShareUsageDescription\" = \"Ancien texte.\";\n",
        ])
        let manifest = try builder.load("    root: apps/stride\n    project: Stride.xcodeproj\n")
        XCTAssertNil(manifest.config.infoPlist)
        XCTAssertEqual(manifest.infoPlistStrings.map(\.path), ["apps/stride/Resources/de.lproj/InfoPlist.strings", "apps/stride/Resources/en.lproj/InfoPlist.strings"])
        XCTAssertFalse(manifest.inputFiles.contains { $0.contains("Old/") }, manifest.inputFiles.joined(separator: "\n"))
        XCTAssertTrue(manifest.discovery.contains { $0.text == "2 localized strings files from Stride's resources" }, manifest.discovery.map(\.text).joined(separator: "\n"))
    }

    /// A Flutter-style Runner: an Info.plist file, and `*.lproj/InfoPlist.strings` beside it that the
    /// project never lists. Xcode copies none of them, so they are not read — and one that does not
    /// parse cannot stop the app from being audited.
    func testStringsBesideTheInfoPlistThatTheProjectDoesNotListAreNotTheApps() throws {
        let builder = SiteBuilder()
        defer { builder.remove() }
        try builder.write([
            "ios/Runner.xcodeproj/project.pbxproj": """
            // !$*UTF8*$!
            { archiveVersion = 1; objectVersion = 54; objects = {
                P = {isa = PBXProject; mainGroup = G; targets = (App); buildConfigurationList = PL;};
                G = {isa = PBXGroup; children = (GR); sourceTree = "<group>";};
                GR = {isa = PBXGroup; children = (FA, FP); path = Runner; sourceTree = "<group>";};
                FA = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppDelegate.swift; sourceTree = "<group>";};
                FP = {isa = PBXFileReference; lastKnownFileType = text.plist.xml; path = Info.plist; sourceTree = "<group>";};
                BA = {isa = PBXBuildFile; fileRef = FA;};
                SA = {isa = PBXSourcesBuildPhase; files = (BA);};
                RA = {isa = PBXResourcesBuildPhase; files = ();};
                App = {isa = PBXNativeTarget; name = Runner; productType = "com.apple.product-type.application"; buildConfigurationList = AL; buildPhases = (SA, RA); dependencies = ();};
                PL = {isa = XCConfigurationList; buildConfigurations = (PR); defaultConfigurationName = Release;};
                PR = {isa = XCBuildConfiguration; name = Release; buildSettings = {};};
                AL = {isa = XCConfigurationList; buildConfigurations = (AR); defaultConfigurationName = Release;};
                AR = {isa = XCBuildConfiguration; name = Release; buildSettings = {INFOPLIST_FILE = Runner/Info.plist; PRODUCT_NAME = "$(TARGET_NAME)";};};
            }; rootObject = P; }
            """,
            "ios/Runner/AppDelegate.swift": "import UIKit\n",
            "ios/Runner/Info.plist": """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>org.example.runner</string>
            <key>NSHealthShareUsageDescription</key><string>Runner reads your steps to chart your week.</string>
            </dict></plist>
            """,
            // Never listed by the project; the Russian one does not even parse (an unterminated string).
            "ios/Runner/en.lproj/InfoPlist.strings": "\"NSHealthShareUsageDescription\" = \"Old text.\";\n",
            "ios/Runner/ru.lproj/InfoPlist.strings": "\"NSMicrophoneUsageDescription\" = \"Микрофон не используется;\n",
        ])
        let manifest = try builder.load("    root: apps/stride/ios\n    project: Runner.xcodeproj\n")
        XCTAssertEqual(manifest.config.infoPlist, "Runner/Info.plist")
        XCTAssertEqual(manifest.infoPlistStrings.map(\.path), [])
        XCTAssertFalse(manifest.inputFiles.contains { $0.hasSuffix(".strings") }, manifest.inputFiles.joined(separator: "\n"))
    }
}
