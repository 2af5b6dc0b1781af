@testable import Manifest
import TestSupport
import XCTest

/// A phone app that embeds a watch app built as a plain application target for `watchos` (Xcode 14
/// and later), which embeds a complication extension: all three are targets of one audit, the watch
/// app with kind `watch` (it asks for HealthKit itself), the complication as an extension.
final class WatchTargetTests: XCTestCase {
    var builder: SiteBuilder!

    override func setUpWithError() throws { builder = SiteBuilder() }
    override func tearDown() { builder.remove() }

    static let pbxproj = """
    // !$*UTF8*$!
    { archiveVersion = 1; objectVersion = 60; objects = {
        P = {isa = PBXProject; mainGroup = G; targets = (Phone, Watch, Complication); buildConfigurationList = PL;};
        G = {isa = PBXGroup; children = (GP, GW, GC); sourceTree = "<group>";};
        GP = {isa = PBXGroup; children = (FP); path = Phone; sourceTree = "<group>";};
        GW = {isa = PBXGroup; children = (FW); path = "Pace Watch App"; sourceTree = "<group>";};
        GC = {isa = PBXGroup; children = (FC); path = Complication; sourceTree = "<group>";};
        FP = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = PhoneHealth.swift; sourceTree = "<group>";};
        FW = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = WorkoutManager.swift; sourceTree = "<group>";};
        FC = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Complication.swift; sourceTree = "<group>";};
        BP = {isa = PBXBuildFile; fileRef = FP;};
        BW = {isa = PBXBuildFile; fileRef = FW;};
        BC = {isa = PBXBuildFile; fileRef = FC;};
        SP = {isa = PBXSourcesBuildPhase; files = (BP);};
        SW = {isa = PBXSourcesBuildPhase; files = (BW);};
        SC = {isa = PBXSourcesBuildPhase; files = (BC);};
        DW = {isa = PBXTargetDependency; target = Watch;};
        DC = {isa = PBXTargetDependency; target = Complication;};
        Phone = {isa = PBXNativeTarget; name = Pace; productType = "com.apple.product-type.application"; buildConfigurationList = TL; buildPhases = (SP); dependencies = (DW);};
        Watch = {isa = PBXNativeTarget; name = "Pace Watch App"; productType = "com.apple.product-type.application"; buildConfigurationList = WL; buildPhases = (SW); dependencies = (DC);};
        Complication = {isa = PBXNativeTarget; name = PaceComplication; productType = "com.apple.product-type.app-extension"; buildConfigurationList = CL; buildPhases = (SC); dependencies = ();};
        PL = {isa = XCConfigurationList; buildConfigurations = (PR); defaultConfigurationName = Release;};
        PR = {isa = XCBuildConfiguration; name = Release; buildSettings = {};};
        TL = {isa = XCConfigurationList; buildConfigurations = (TR); defaultConfigurationName = Release;};
        TR = {isa = XCBuildConfiguration; name = Release; buildSettings = {SDKROOT = iphoneos; GENERATE_INFOPLIST_FILE = YES; CODE_SIGN_ENTITLEMENTS = Phone/Pace.entitlements; INFOPLIST_KEY_NSHealthShareUsageDescription = "Pace reads your heart rate to chart training load."; INFOPLIST_KEY_NSHealthUpdateUsageDescription = "Pace saves the workouts you record."; PRODUCT_NAME = "$(TARGET_NAME)";};};
        WL = {isa = XCConfigurationList; buildConfigurations = (WR); defaultConfigurationName = Release;};
        WR = {isa = XCBuildConfiguration; name = Release; buildSettings = {SDKROOT = watchos; GENERATE_INFOPLIST_FILE = YES; CODE_SIGN_ENTITLEMENTS = "Pace Watch App/Pace Watch App.entitlements"; INFOPLIST_KEY_NSHealthShareUsageDescription = "Pace reads your heart rate during workouts."; INFOPLIST_KEY_NSHealthUpdateUsageDescription = "Pace saves your workouts."; PRODUCT_NAME = "$(TARGET_NAME)";};};
        CL = {isa = XCConfigurationList; buildConfigurations = (CR); defaultConfigurationName = Release;};
        CR = {isa = XCBuildConfiguration; name = Release; buildSettings = {SDKROOT = watchos; GENERATE_INFOPLIST_FILE = YES; PRODUCT_NAME = "$(TARGET_NAME)";};};
    }; rootObject = P; }
    """

    static let entitled = InlineApp.entitlements
    static let unentitled = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>com.apple.security.application-groups</key>
        \t<array><string>group.pace</string></array>
        </dict>
        </plist>

        """

    func files(watchEntitlements: String) -> [String: String] {
        [
            "Pace.xcodeproj/project.pbxproj": Self.pbxproj,
            "Phone/PhoneHealth.swift": "import HealthKit\n\nlet store = HKHealthStore()\n\nfunc ask() async throws {\n    guard HKHealthStore.isHealthDataAvailable() else { return }\n    try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.heartRate)])\n}\n",
            "Phone/Pace.entitlements": Self.entitled,
            "Pace Watch App/WorkoutManager.swift": "import HealthKit\n\nfinal class WorkoutManager {\n    let healthStore = HKHealthStore()\n\n    func requestAuthorization() async -> Bool {\n        do {\n            try await healthStore.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.heartRate)])\n            return true\n        } catch { return false }\n    }\n}\n",
            "Pace Watch App/Pace Watch App.entitlements": watchEntitlements,
            "Complication/Complication.swift": "struct Complication {\n    let title = \"Pace\"\n}\n",
        ]
    }

    func testTheEmbeddedWatchAppAndItsComplicationAreTargetsOfTheApp() throws {
        try builder.write(files(watchEntitlements: Self.entitled))
        let manifest = try builder.load("    name: Pace\n    root: apps/stride\n    project: Pace.xcodeproj\n")
        XCTAssertEqual(manifest.main.name, "Pace", "the phone app, not the watch app, is the main target")
        XCTAssertEqual(manifest.extensions.map { "\($0.name) \($0.kind.rawValue)" }, ["PaceComplication extension", "Pace Watch App watch"])
        let watch = try XCTUnwrap(manifest.extensions.first { $0.kind == .watchApp })
        XCTAssertFalse(watch.isExtension, "a watch app may ask for HealthKit access itself")
        XCTAssertEqual(watch.sources.map(\.path), ["apps/stride/Pace Watch App/WorkoutManager.swift"])
        XCTAssertEqual(watch.infoPlist?["NSHealthShareUsageDescription"]?.string, "Pace reads your heart rate during workouts.")
    }

    /// A watch app with an Info.plist file of its own beside GENERATE_INFOPLIST_FILE: Xcode merges the
    /// target's INFOPLIST_KEY_* settings into that file, so its usage strings are those settings.
    func testAWatchAppsPlistFileIsMergedWithItsInfoPlistKeySettings() throws {
        var files = files(watchEntitlements: Self.entitled)
        files["Pace.xcodeproj/project.pbxproj"] = Self.pbxproj.replacingOccurrences(
            of: "SDKROOT = watchos; GENERATE_INFOPLIST_FILE = YES; CODE_SIGN_ENTITLEMENTS",
            with: "SDKROOT = watchos; GENERATE_INFOPLIST_FILE = YES; INFOPLIST_FILE = \"Pace Watch App/Info.plist\"; CODE_SIGN_ENTITLEMENTS")
        files["Pace Watch App/Info.plist"] = InlineApp.infoPlist(["WKApplication": "true"])
        try builder.write(files)
        let manifest = try builder.load("    name: Pace\n    root: apps/stride\n    project: Pace.xcodeproj\n")
        let watch = try XCTUnwrap(manifest.extensions.first { $0.kind == .watchApp })
        XCTAssertEqual(watch.infoPlist?["WKApplication"]?.string, "true", "the file is the watch app's Info.plist")
        XCTAssertNil(watch.infoPlist?["NSHealthShareUsageDescription"])
        let share = try XCTUnwrap(watch.usageString("NSHealthShareUsageDescription"))
        XCTAssertEqual(share.value.string, "Pace reads your heart rate during workouts.")
        XCTAssertEqual(share.origin, .buildSetting)
        XCTAssertEqual(share.location.file, "apps/stride/Pace.xcodeproj/project.pbxproj")
    }

    func testAConfigNamesAWatchTarget() throws {
        try builder.write(["Info.plist": InlineApp.infoPlist(["CFBundleName": "Pace"]), "Watch/Info.plist": InlineApp.infoPlist(["CFBundleName": "Pace Watch"])])
        let manifest = try builder.load("    root: apps/stride\n    info_plist: Info.plist\n    extensions:\n      - id: watch\n        kind: watch\n        info_plist: Watch/Info.plist\n")
        XCTAssertEqual(manifest.extensions.map(\.kind), [.watchApp])
        XCTAssertEqual(builder.errors("    root: apps/stride\n    extensions:\n      - id: watch\n        kind: watchos\n").map(\.message),
                       ["'extensions[].kind' 'watchos' must be 'extension' or 'watch'"])
    }
}
