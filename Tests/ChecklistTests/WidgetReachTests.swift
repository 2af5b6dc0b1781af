import Checklist
import Manifest
import TestSupport
import XCTest

/// Question 5 ("Do widgets avoid calling requestAuthorization?") as `../shared/checklist-answers.md`
/// defines it: not applicable only when the app has no widget or other app-extension target; yes
/// when extensions exist and none asks, whether or not their code reaches HealthKit (a widget that
/// never touches HealthKit avoids the call too); no when one asks. A watch app is an application,
/// and a ClockKit complication runs in it: neither is an extension.
final class WidgetReachTests: XCTestCase {
    var site: TestSite!

    override func tearDown() { site?.remove() }

    /// App, a framework holding the HealthKit code, and a widget extension; `widgetLinksKit`
    /// decides whether the widget depends on the framework.
    static func pbxproj(widgetLinksKit: Bool) -> String {
        """
        // !$*UTF8*$!
        { archiveVersion = 1; objectVersion = 56; objects = {
            P = {isa = PBXProject; mainGroup = G; targets = (App, Kit, Widget); buildConfigurationList = PL;};
            G = {isa = PBXGroup; children = (GA, GK, GW); sourceTree = "<group>";};
            GA = {isa = PBXGroup; children = (FA); path = App; sourceTree = "<group>";};
            GK = {isa = PBXGroup; children = (FK); path = Kit; sourceTree = "<group>";};
            GW = {isa = PBXGroup; children = (FW); path = Widget; sourceTree = "<group>";};
            FA = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = PaceApp.swift; sourceTree = "<group>";};
            FK = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Health.swift; sourceTree = "<group>";};
            FW = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Provider.swift; sourceTree = "<group>";};
            BA = {isa = PBXBuildFile; fileRef = FA;};
            BK = {isa = PBXBuildFile; fileRef = FK;};
            BW = {isa = PBXBuildFile; fileRef = FW;};
            SA = {isa = PBXSourcesBuildPhase; files = (BA);};
            SK = {isa = PBXSourcesBuildPhase; files = (BK);};
            SW = {isa = PBXSourcesBuildPhase; files = (BW);};
            DK = {isa = PBXTargetDependency; target = Kit;};
            DK2 = {isa = PBXTargetDependency; target = Kit;};
            DW = {isa = PBXTargetDependency; target = Widget;};
            App = {isa = PBXNativeTarget; name = Pace; productType = "com.apple.product-type.application"; buildConfigurationList = AL; buildPhases = (SA); dependencies = (DK, DW);};
            Kit = {isa = PBXNativeTarget; name = PaceKit; productType = "com.apple.product-type.framework"; buildConfigurationList = KL; buildPhases = (SK); dependencies = ();};
            Widget = {isa = PBXNativeTarget; name = PaceWidget; productType = "com.apple.product-type.app-extension"; buildConfigurationList = WL; buildPhases = (SW); dependencies = (\(widgetLinksKit ? "DK2" : ""));};
            PL = {isa = XCConfigurationList; buildConfigurations = (PR); defaultConfigurationName = Release;};
            PR = {isa = XCBuildConfiguration; name = Release; buildSettings = {};};
            AL = {isa = XCConfigurationList; buildConfigurations = (AR); defaultConfigurationName = Release;};
            AR = {isa = XCBuildConfiguration; name = Release; buildSettings = {INFOPLIST_FILE = App/Info.plist; CODE_SIGN_ENTITLEMENTS = App/Pace.entitlements; PRODUCT_NAME = "$(TARGET_NAME)";};};
            KL = {isa = XCConfigurationList; buildConfigurations = (KR); defaultConfigurationName = Release;};
            KR = {isa = XCBuildConfiguration; name = Release; buildSettings = {PRODUCT_NAME = "$(TARGET_NAME)";};};
            WL = {isa = XCConfigurationList; buildConfigurations = (WR); defaultConfigurationName = Release;};
            WR = {isa = XCBuildConfiguration; name = Release; buildSettings = {INFOPLIST_FILE = Widget/Info.plist; PRODUCT_NAME = "$(TARGET_NAME)";};};
        }; rootObject = P; }
        """
    }

    static let widgetInfo = RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>])

    func projectAudit(widgetLinksKit: Bool) throws -> AppAudit {
        let app = "apps/pace/"
        site = try TestSite(files: [
            "healthaudit.yml": "title: Widgets\napps:\n  - id: pace\n    name: Pace\n    root: apps/pace\n    project: Pace.xcodeproj\n",
            app + "Pace.xcodeproj/project.pbxproj": Self.pbxproj(widgetLinksKit: widgetLinksKit),
            app + "App/Info.plist": InlineApp.infoPlist(["CFBundleName": "Pace", "NSHealthShareUsageDescription": InlineApp.share, "NSHealthUpdateUsageDescription": InlineApp.update]),
            app + "App/Pace.entitlements": InlineApp.entitlements,
            app + "App/PaceApp.swift": "import SwiftUI\n\n@main\nstruct PaceApp: App {\n    var body: some Scene { WindowGroup { Text(\"Pace\") } }\n}\n",
            app + "Kit/Health.swift": """
                import HealthKit

                public final class Health {
                    let store = HKHealthStore()

                    public func steps() async throws {
                        guard HKHealthStore.isHealthDataAvailable() else { return }
                        try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                        store.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in })
                    }
                }

                """,
            app + "Widget/Info.plist": Self.widgetInfo,
            app + "Widget/Provider.swift": """
                import WidgetKit

                struct Entry: TimelineEntry { let date: Date }

                struct Provider: TimelineProvider {
                    func placeholder(in context: Context) -> Entry { Entry(date: .now) }
                    func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) { completion(Entry(date: .now)) }
                    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                        completion(Timeline(entries: [Entry(date: .now)], policy: .atEnd))
                    }
                }

                """,
        ])
        return try audit()
    }

    func audit() throws -> AppAudit {
        let config = try ConfigLoader().load(siteDirectory: site.site)
        return Checklist().audit(try ManifestLoader(siteDirectory: site.site).load(config.apps[0]))
    }

    func q5(_ audit: AppAudit) throws -> Answer { try XCTUnwrap(audit.answers.first { $0.question == .widgetsDoNotRequest }) }

    /// One HealthKit manager compiled by the app and its widget, its request and availability check
    /// under `#if !WIDGET` and the widget defining `WIDGET` (Pocket Water Tracker): the widget
    /// compiles no request (Q5 yes, no finding), and no availability check before its query (Q1 no,
    /// at the widget's query). The app's build keeps both.
    func testCodeATargetDoesNotCompileMakesNoCallsThere() throws {
        let app = "apps/drink/"
        let pbxproj = """
            // !$*UTF8*$!
            { archiveVersion = 1; objectVersion = 56; objects = {
                P = {isa = PBXProject; mainGroup = G; targets = (App, Widget); buildConfigurationList = PL;};
                G = {isa = PBXGroup; children = (FA, FS, FW); sourceTree = "<group>";};
                FA = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = App/DrinkApp.swift; sourceTree = "<group>";};
                FS = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Shared/Water.swift; sourceTree = "<group>";};
                FW = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Widget/Provider.swift; sourceTree = "<group>";};
                BA = {isa = PBXBuildFile; fileRef = FA;};
                BS = {isa = PBXBuildFile; fileRef = FS;};
                BS2 = {isa = PBXBuildFile; fileRef = FS;};
                BW = {isa = PBXBuildFile; fileRef = FW;};
                SA = {isa = PBXSourcesBuildPhase; files = (BA, BS);};
                SW = {isa = PBXSourcesBuildPhase; files = (BW, BS2);};
                DW = {isa = PBXTargetDependency; target = Widget;};
                App = {isa = PBXNativeTarget; name = Drink; productType = "com.apple.product-type.application"; buildConfigurationList = AL; buildPhases = (SA); dependencies = (DW);};
                Widget = {isa = PBXNativeTarget; name = DrinkWidget; productType = "com.apple.product-type.app-extension"; buildConfigurationList = WL; buildPhases = (SW); dependencies = ();};
                PL = {isa = XCConfigurationList; buildConfigurations = (PR); defaultConfigurationName = Release;};
                PR = {isa = XCBuildConfiguration; name = Release; buildSettings = {};};
                AL = {isa = XCConfigurationList; buildConfigurations = (AR); defaultConfigurationName = Release;};
                AR = {isa = XCBuildConfiguration; name = Release; buildSettings = {INFOPLIST_FILE = App/Info.plist; CODE_SIGN_ENTITLEMENTS = App/Drink.entitlements; PRODUCT_NAME = "$(TARGET_NAME)";};};
                WL = {isa = XCConfigurationList; buildConfigurations = (WR); defaultConfigurationName = Release;};
                WR = {isa = XCBuildConfiguration; name = Release; buildSettings = {INFOPLIST_FILE = Widget/Info.plist; CODE_SIGN_ENTITLEMENTS = Widget/Widget.entitlements; PRODUCT_NAME = "$(TARGET_NAME)"; SWIFT_ACTIVE_COMPILATION_CONDITIONS = "WIDGET $(inherited)";};};
            }; rootObject = P; }
            """
        site = try TestSite(files: [
            "healthaudit.yml": "title: Widgets\napps:\n  - id: drink\n    name: Drink\n    root: apps/drink\n    project: Drink.xcodeproj\n",
            app + "Drink.xcodeproj/project.pbxproj": pbxproj,
            app + "App/Info.plist": InlineApp.infoPlist(["CFBundleName": "Drink", "NSHealthShareUsageDescription": InlineApp.share, "NSHealthUpdateUsageDescription": InlineApp.update]),
            app + "App/Drink.entitlements": InlineApp.entitlements,
            app + "App/DrinkApp.swift": "import SwiftUI\n\n@main\nstruct DrinkApp: App {\n    var body: some Scene { WindowGroup { Text(\"Drink\").task { await Water.shared.connect() } } }\n}\n",
            app + "Shared/Water.swift": """
                import HealthKit

                final class Water {
                    static let shared = Water()
                    let store = HKHealthStore()
                    let water = HKQuantityType(.dietaryWater)

                    func connect() async {
                        #if !WIDGET
                        guard HKHealthStore.isHealthDataAvailable() else { return }
                        try? await store.requestAuthorization(toShare: [water], read: [water])
                        #endif
                    }

                    func today(_ done: @escaping (Double?) -> Void) {
                        let query = HKStatisticsQuery(quantityType: water, quantitySamplePredicate: nil, options: .cumulativeSum) { _, result, _ in
                            done(result?.sumQuantity()?.doubleValue(for: .liter()))
                        }
                        store.execute(query)
                    }
                }

                """,
            app + "Widget/Info.plist": Self.widgetInfo,
            app + "Widget/Widget.entitlements": InlineApp.entitlements,
            app + "Widget/Provider.swift": """
                import WidgetKit

                struct Entry: TimelineEntry { let date: Date; let liters: Double? }

                struct Provider: TimelineProvider {
                    func placeholder(in context: Context) -> Entry { Entry(date: .now, liters: nil) }
                    func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) { completion(placeholder(in: context)) }
                    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                        Task {
                            await Water.shared.connect()
                            Water.shared.today { liters in completion(Timeline(entries: [Entry(date: .now, liters: liters)], policy: .atEnd)) }
                        }
                    }
                }

                """,
        ])
        let audit = try audit()
        XCTAssertEqual(audit.manifest.extensions.first?.compilationConditions, ["WIDGET"])
        XCTAssertEqual(audit.manifest.main.compilationConditions, [])
        let widgets = try q5(audit)
        XCTAssertEqual(widgets.status, .yes, widgets.reason)
        XCTAssertEqual(audit.findings.filter { $0.ruleID == "extension-requests-authorization" }.map(\.message), [])
        let availability = try XCTUnwrap(audit.answers.first { $0.question == .availabilityChecked })
        XCTAssertEqual(availability.status, .no, availability.reason)
        XCTAssertTrue(availability.reason.contains("drink-widget"), availability.reason)
        // The app's build keeps the request: it is the app that asks, and the widget has no check of its own.
        let request = try XCTUnwrap(audit.answers.first { $0.question == .completionInterpreted })
        XCTAssertEqual(request.evidence.map { "\($0.location.file):\($0.location.line ?? 0)" }, ["apps/drink/Shared/Water.swift:11"], request.reason)
    }

    /// A Live Activity's widget left in the app target (Intervally): the project's targets are known and
    /// none is an extension, so the provider the app compiles stands for no widget (Q5 not applicable).
    func testAWidgetProviderCompiledIntoTheAppIsNoExtension() throws {
        let app = "apps/run/"
        let pbxproj = XcodeProjectFixture.pbxproj([XcodeProjectFixture.Target(
            name: "Run", sources: ["App/RunApp.swift", "App/RunActivity.swift"],
            settings: ["INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/Run.entitlements"])])
        site = try TestSite(files: [
            "healthaudit.yml": "title: Widgets\napps:\n  - id: run\n    name: Run\n    root: apps/run\n    project: Run.xcodeproj\n",
            app + "Run.xcodeproj/project.pbxproj": pbxproj,
            app + "App/Info.plist": InlineApp.infoPlist(["CFBundleName": "Run", "NSHealthShareUsageDescription": InlineApp.share, "NSHealthUpdateUsageDescription": InlineApp.update]),
            app + "App/Run.entitlements": InlineApp.entitlements,
            app + "App/RunApp.swift": """
                import HealthKit
                import SwiftUI

                @main
                struct RunApp: App {
                    let store = HKHealthStore()
                    var body: some Scene {
                        WindowGroup {
                            Text("Run").task {
                                guard HKHealthStore.isHealthDataAvailable() else { return }
                                try? await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.heartRate)])
                            }
                        }
                    }
                }

                """,
            app + "App/RunActivity.swift": """
                import ActivityKit
                import SwiftUI
                import WidgetKit

                struct RunAttributes: ActivityAttributes {
                    struct ContentState: Codable, Hashable { var lap: Int }
                }

                struct RunLiveActivity: Widget {
                    var body: some WidgetConfiguration {
                        ActivityConfiguration(for: RunAttributes.self) { context in
                            Text("Lap \\(context.state.lap)")
                        } dynamicIsland: { context in
                            DynamicIsland { DynamicIslandExpandedRegion(.center) { Text("Run") } } compactLeading: { Text("R") } compactTrailing: { Text("") } minimal: { Text("") }
                        }
                    }
                }

                """,
        ])
        let widgets = try q5(try audit())
        XCTAssertEqual(widgets.status, .notApplicable, widgets.reason)
    }

    func testAWidgetLinkingTheAppsHealthKitFrameworkIsAskedAboutAndAvoidsIt() throws {
        let audit = try projectAudit(widgetLinksKit: true)
        let answer = try q5(audit)
        XCTAssertEqual(answer.status, .yes, answer.reason)
        XCTAssertTrue(answer.reason.hasPrefix("extension `pace-widget`'s 1 Swift file makes no request"), answer.reason)
        XCTAssertEqual(answer.evidence.map(\.location.file), ["apps/pace/Widget/Info.plist"])
        // The framework's request is the app's: code the widget only links is not the widget asking.
        XCTAssertFalse(audit.findings.contains { $0.ruleID == "extension-requests-authorization" })
        XCTAssertFalse(audit.findings.contains { $0.ruleID == "entitlement-missing" }, "the widget's own code calls no HealthKit")
    }

    /// A widget that never touches HealthKit avoids the call as well: the question applies to every extension.
    func testAWidgetWithNoWayToHealthKitStillAvoidsTheCall() throws {
        let answer = try q5(try projectAudit(widgetLinksKit: false))
        XCTAssertEqual(answer.status, .yes, answer.reason)
        XCTAssertEqual(answer.evidence.map(\.location.file), ["apps/pace/Widget/Info.plist"])
    }

    /// A WatchKit extension hosts both the watch app's code and its ClockKit complication.
    func watchAudit(complicationBody: String) throws -> AppAudit {
        var files = InlineApp.site([("pace", "Pace", nil)])
        files["healthaudit.yml"]! += "    extensions:\n      - id: pace-watch\n        name: Pace WatchKit Extension\n        kind: watch\n        entitlements: Watch/Watch.entitlements\n        sources: [Watch]\n"
        files["apps/pace/Watch/Watch.entitlements"] = InlineApp.entitlements
        files["apps/pace/Watch/Workouts.swift"] = """
            import HealthKit

            final class Workouts {
                static let store = HKHealthStore()

                func todaysSteps() {
                    Self.store.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in })
                }
            }

            """
        files["apps/pace/Watch/ComplicationController.swift"] = """
            import ClockKit
            import HealthKit

            final class ComplicationController: NSObject, CLKComplicationDataSource {
                func getCurrentTimelineEntry(for complication: CLKComplication, withHandler handler: @escaping (CLKComplicationTimelineEntry?) -> Void) {
            \(complicationBody)
                }
            }

            """
        site = try TestSite(files: files)
        return try audit()
    }

    /// The complication runs in the watch app's process, and the watch app asks for itself.
    func testAComplicationInAWatchAppIsNoExtension() throws {
        let answer = try q5(try watchAudit(complicationBody: "        handler(nil)"))
        XCTAssertEqual(answer.status, .notApplicable, answer.reason)
        XCTAssertEqual(answer.evidence.map { "\($0.location.file):\($0.location.line ?? 0)" }, ["apps/pace/Watch/ComplicationController.swift:4"])
        XCTAssertTrue(answer.reason.contains("watch app `pace-watch` is an application"), answer.reason)
    }

    func testAComplicationThatAsksIsFoundAtItsRequest() throws {
        let audit = try watchAudit(complicationBody: "        Workouts.store.requestAuthorization(toShare: nil, read: [HKQuantityType(.stepCount)]) { _, _ in handler(nil) }")
        let answer = try q5(audit)
        XCTAssertEqual(answer.status, .no, answer.reason)
        let findings = audit.findings.filter { $0.ruleID == "extension-requests-authorization" }
        XCTAssertEqual(findings.map { "\($0.location.file):\($0.location.line ?? 0)" }, ["apps/pace/Watch/ComplicationController.swift:6"])
    }
}
