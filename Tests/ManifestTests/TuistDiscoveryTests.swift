import Foundation
@testable import Manifest
import XCTest
import TestSupport

/// A Tuist app (`Project.swift`, no committed `.xcodeproj`): the manifest is read as Swift, never
/// run; its application target's Info.plist keys, entitlements, sources and settings are the app's,
/// each key citing its line; a computed manifest is said to be so.
final class TuistDiscoveryTests: XCTestCase {
    var site: String!

    override func setUpWithError() throws {
        site = Repository.temporaryPath("healthaudit-tuist")
        try FileManager.default.createDirectory(atPath: site + "/app/Walk/Sources", withIntermediateDirectories: true)
        try "import HealthKit\n".write(toFile: site + "/app/Walk/Sources/App.swift", atomically: true, encoding: .utf8)
        try "title: T\napps:\n  - id: walk\n    name: Walk\n    root: app\n".write(toFile: site + "/healthaudit.yml", atomically: true, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: site) }

    func write(_ path: String, _ text: String) throws {
        let full = site + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    func load() throws -> AppManifest {
        let config = try ConfigLoader().load(siteDirectory: site)
        return try ManifestLoader(siteDirectory: site).load(config.apps[0])
    }

    static let project = """
    import ProjectDescription

    let widget: Target = .target(
        name: "WalkWidget",
        destinations: .iOS,
        product: .appExtension,
        bundleId: "org.example.walk.widget",
        sources: ["Widget/**"]
    )

    let project = Project(
        name: "Walk",
        targets: [
            .target(
                name: "Walk",
                destinations: .iOS,
                product: .app,
                bundleId: "org.example.walk",
                deploymentTargets: .iOS("16.0"),
                infoPlist: .extendingDefault(with: [
                    "UILaunchScreen": [:],
                    "NSHealthShareUsageDescription": "Walk reads your step count to show today's distance.",
                    "NSHealthUpdateUsageDescription": .string("Walk saves the walks you record."),
                ]),
                sources: ["Walk/Sources/**"],
                entitlements: .dictionary([
                    "com.apple.developer.healthkit": true,
                    "com.apple.developer.healthkit.access": [],
                ]),
                settings: .settings(base: ["SWIFT_VERSION": "6.0"])
            ),
            widget,
        ]
    )
    """

    func testTheApplicationTargetsKeysCiteTheirManifestLines() throws {
        try write("app/Project.swift", Self.project)
        let manifest = try load()
        let share = try XCTUnwrap(manifest.usageString("NSHealthShareUsageDescription"))
        XCTAssertEqual(share.value.string, "Walk reads your step count to show today's distance.")
        XCTAssertEqual(share.location, FileLocation(file: "app/Project.swift", line: 22))
        XCTAssertEqual(manifest.usageString("NSHealthUpdateUsageDescription")?.value.string, "Walk saves the walks you record.")
        XCTAssertEqual(manifest.main.entitlements?["com.apple.developer.healthkit"]?.bool, true)
        XCTAssertEqual(manifest.main.sources.map(\.path), ["app/Walk/Sources/App.swift"])
        XCTAssertEqual(manifest.config.buildSettings["IPHONEOS_DEPLOYMENT_TARGET"], "16.0")
        XCTAssertEqual(manifest.config.buildSettings["SWIFT_VERSION"], "6.0")
        // The extension bound to a name before the project is audited as one, with Tuist's default Info.plist.
        let widget = try XCTUnwrap(manifest.extensions.first)
        XCTAssertEqual(widget.name, "WalkWidget")
        XCTAssertEqual(widget.infoPlist?.location(of: nil), FileLocation(file: "app/Project.swift", line: 3))
        XCTAssertTrue(manifest.discovery.contains { $0.text == "Tuist target Walk in app/Project.swift" && $0.location == FileLocation(file: "app/Project.swift", line: 14) },
                      "\(manifest.discovery.map(\.text))")
    }

    /// A file path (`.file(path:)` or a plain string), relative to the manifest's folder, named with `tuist:`.
    func testFilesNamedInAManifestBelowTheRoot() throws {
        try write("app/Projects/Walk/Walk/Info.plist", """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>NSHealthShareUsageDescription</key><string>Walk reads your steps.</string>
        </dict></plist>
        """)
        try write("app/Projects/Walk/Walk/Walk.entitlements", """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>com.apple.developer.healthkit</key><true/></dict></plist>
        """)
        try write("app/Projects/Walk/Walk/Sources/App.swift", "import HealthKit\n")
        try write("app/Projects/Walk/Project.swift", """
        import ProjectDescription

        let project = Project(name: "Walk", targets: [
            Target(name: "Walk", platform: .iOS, product: .app, bundleId: "org.example.walk",
                   deploymentTarget: .iOS(targetVersion: "15.0", devices: .iphone),
                   infoPlist: .file(path: "Walk/Info.plist"), sources: SourceFilesList(globs: ["Walk/Sources/**/*.swift"]),
                   entitlements: "Walk/Walk.entitlements"),
        ])
        """)
        try "title: T\napps:\n  - id: walk\n    root: app\n    tuist: Projects/Walk/Project.swift\n".write(toFile: site + "/healthaudit.yml", atomically: true, encoding: .utf8)
        let manifest = try load()
        XCTAssertEqual(manifest.usageString("NSHealthShareUsageDescription")?.location.file, "app/Projects/Walk/Walk/Info.plist")
        XCTAssertEqual(manifest.main.entitlements?["com.apple.developer.healthkit"]?.bool, true)
        XCTAssertEqual(manifest.main.sources.map(\.path), ["app/Projects/Walk/Walk/Sources/App.swift"])
        XCTAssertEqual(manifest.config.buildSettings["IPHONEOS_DEPLOYMENT_TARGET"], "15.0")
        // `tuist:` must name a Project.swift.
        try "title: T\napps:\n  - id: walk\n    root: app\n    tuist: Projects/Walk/Package.swift\n".write(toFile: site + "/healthaudit.yml", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try load()) { error in
            XCTAssertTrue(String(describing: error).contains("must name a Tuist manifest (Project.swift)"), "\(error)")
        }
    }

    /// A watchOS application in the same manifest (Gabbun's workspace) is the app's watch app, not
    /// the app: read with its own keys, entitlements and sources, which the manifest names in a
    /// folder beside its own (`../Watch/Sources/**`) — still inside the repository. A folder that
    /// leaves the repository is not read.
    func testAWatchApplicationBesideTheManifestIsTheWatchApp() throws {
        try write("app/Projects/App/Watch/Sources/HeartRate.swift", "import HealthKit\nlet store = HKHealthStore()\n")
        try write("app/Projects/App/Watch/Resources/Watch.entitlements", """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>com.apple.developer.healthkit</key><true/></dict></plist>
        """)
        try write("app/Projects/App/iOS/Sources/App.swift", "import SwiftUI\n")
        try write("app/Projects/App/iOS/Project.swift", """
        import ProjectDescription

        let project = Project(
            name: "Nap",
            targets: [
                .target(
                    name: "Nap",
                    destinations: .iOS,
                    product: .app,
                    bundleId: "org.example.nap",
                    infoPlist: .extendingDefault(with: ["NSHealthShareUsageDescription": "Nap reads your heart rate to wake you gently."]),
                    sources: ["Sources/**"],
                    dependencies: [.target(name: "NapWatch")]
                ),
                .target(
                    name: "NapWatch",
                    destinations: .watchOS,
                    product: .app,
                    bundleId: "org.example.nap.watchkitapp",
                    infoPlist: .extendingDefault(with: ["WKApplication": true, "NSHealthShareUsageDescription": "Nap reads your heart rate while you sleep."]),
                    entitlements: .file(path: .relativeToManifest("../Watch/Resources/Watch.entitlements")),
                    sources: ["../Watch/Sources/**", "../../../../../outside/**"]
                ),
            ]
        )
        """)
        try "title: T\napps:\n  - id: nap\n    root: app/Projects/App/iOS\n    tuist: Project.swift\n".write(toFile: site + "/healthaudit.yml", atomically: true, encoding: .utf8)
        let manifest = try load()
        XCTAssertEqual(manifest.main.sources.map(\.path), ["app/Projects/App/iOS/Sources/App.swift"])
        let watch = try XCTUnwrap(manifest.extensions.first)
        XCTAssertEqual(watch.kind, .watchApp)
        XCTAssertEqual(watch.name, "NapWatch")
        XCTAssertEqual(watch.sources.map(\.path), ["app/Projects/App/Watch/Sources/HeartRate.swift"])
        XCTAssertEqual(watch.entitlements?["com.apple.developer.healthkit"]?.bool, true)
        XCTAssertEqual(watch.usageString("NSHealthShareUsageDescription")?.location.line, 20)
    }

    /// No `infoPlist:` is Tuist's default Info.plist: no usage strings, cited at the target.
    func testNoInfoPlistArgumentIsTheDefaultWithoutUsageStrings() throws {
        try write("app/Project.swift", """
        import ProjectDescription
        let project = Project(name: "Walk", targets: [.target(name: "Walk", destinations: .iOS, product: .app, bundleId: "b", sources: ["Walk/Sources/**"])])
        """)
        let manifest = try load()
        XCTAssertNil(manifest.usageString("NSHealthShareUsageDescription"))
        XCTAssertEqual(manifest.main.infoPlist?.format, .tuist)
        XCTAssertEqual(manifest.main.infoPlist?.location(of: "NSHealthShareUsageDescription"), FileLocation(file: "app/Project.swift", line: 2))
    }

    /// `infoPlist: appInfoPlist()`, a function of the manifest that returns one `.extendingDefault(with:)`:
    /// its keys are read, cited at their lines in the function.
    func testAnInfoPlistBuiltByAManifestFunctionIsRead() throws {
        try write("app/Project.swift", """
        import ProjectDescription

        func appInfoPlist() -> InfoPlist {
            .extendingDefault(with: [
                "CFBundleDisplayName": "Walk",
                "NSHealthShareUsageDescription": "Walk reads your steps to draw your week.",
            ])
        }

        func widgetInfoPlist(_ name: String) -> InfoPlist {
            .extendingDefault(with: ["CFBundleDisplayName": .string(name)])
        }

        let project = Project(name: "Walk", targets: [
            .target(name: "Walk", destinations: .iOS, product: .app, bundleId: "b", infoPlist: appInfoPlist(), sources: ["Walk/Sources/**"]),
        ])
        """)
        let manifest = try load()
        XCTAssertEqual(manifest.usageString("NSHealthShareUsageDescription")?.value, .string("Walk reads your steps to draw your week."))
        XCTAssertEqual(manifest.main.infoPlist?.location(of: "NSHealthShareUsageDescription"), FileLocation(file: "app/Project.swift", line: 6))
    }

    /// Helpers (`Project.app(…)` from ProjectDescriptionHelpers) compute the targets: a note says so.
    func testAComputedManifestIsSaidToBeSo() throws {
        try write("app/Project.swift", """
        import ProjectDescription
        import ProjectDescriptionHelpers

        let project = Project.app(name: "Walk", destinations: .iOS, additionalTargets: ["WalkKit"])
        """)
        let manifest = try load()
        XCTAssertTrue(manifest.discovery.contains { $0.isNote && $0.text.contains("declares no application target as a literal") }, "\(manifest.discovery.map(\.text))")
        XCTAssertTrue(TuistDiscovery.declaresApp(Self.project))
        XCTAssertFalse(TuistDiscovery.declaresApp("import ProjectDescription\nlet project = Project.app(name: \"Walk\")\n"))
    }

    /// A helper that hands its `product` parameter to a target (`Project.makeModule(…, product: .app, …)`)
    /// makes the app: the call's arguments are the target's, and the `sources:` it leaves out is the
    /// parameter's default, from the manifest's folder.
    func testAHelperPassingProductOnMakesTheAppFromTheCallsArguments() throws {
        try write("app/Tuist/ProjectDescriptionHelpers/Project+Templates.swift", """
        import ProjectDescription

        extension Project {
            public static func makeModule(name: String, product: Product, bundleId: String, infoPlist: InfoPlist = .default,
                                          sources: SourceFilesList = ["Sources/**"], entitlements: Entitlements? = nil,
                                          dependencies: [TargetDependency] = []) -> Project {
                let main = Target(name: name, platform: .iOS, product: product, bundleId: "org.example." + bundleId,
                                  infoPlist: infoPlist, sources: sources, entitlements: entitlements)
                let tests = Target(name: "\\(name)Tests", platform: .iOS, product: .unitTests, bundleId: "t", sources: ["Tests/**"])
                return Project(name: name, targets: [main, tests])
            }
        }
        """)
        try write("app/Sources/Steps.swift", "import HealthKit\nlet store = HKHealthStore()\n")
        try write("app/App.entitlements", """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>com.apple.developer.healthkit</key><true/></dict></plist>
        """)
        try write("app/Project.swift", """
        import ProjectDescription
        import ProjectDescriptionHelpers

        private let moduleName = "Walk"
        let infoPlist: [String: Plist.Value] = [
            "NSHealthShareUsageDescription": "Walk reads your step count to show today's distance.",
        ]

        let project = Project.makeModule(name: moduleName, product: .app, bundleId: "walk",
                                         infoPlist: .extendingDefault(with: infoPlist), entitlements: "App.entitlements",
                                         dependencies: [.project(target: "Feature", path: .relativeToRoot("Feature"))])
        """)
        // A module of the workspace made by the same helper: its sources are the default too.
        try write("app/Feature/Project.swift", """
        import ProjectDescription
        import ProjectDescriptionHelpers

        let project = Project.makeModule(name: "Feature", product: .staticFramework, bundleId: "feature")
        """)
        try write("app/Feature/Sources/Record.swift", "import HealthKit\nlet recordStore = HKHealthStore()\n")
        let manifest = try load()
        XCTAssertEqual(manifest.usageString("NSHealthShareUsageDescription")?.value.string, "Walk reads your step count to show today's distance.")
        XCTAssertEqual(manifest.main.sources.map(\.path).sorted(), ["app/Feature/Sources/Record.swift", "app/Sources/Steps.swift"])
        XCTAssertEqual(manifest.main.entitlements?.path, "app/App.entitlements")
        XCTAssertTrue(manifest.discovery.contains { $0.text.contains("made by the helper makeModule") }, "\(manifest.discovery.map(\.text))")
        XCTAssertFalse(manifest.discovery.contains { $0.text.contains("declares no application target as a literal") })
    }

    /// A modular workspace as Tuist's templates write it: each module's manifest names itself through a
    /// constant (`let moduleName = "Core"`), the app names its modules through helper constants
    /// (`.Project.Core`), and the watch app, bound to a name and handed to the helper, names the
    /// framework that holds its code. The modules are the app's code; the watch app's module is the watch app's.
    func testAModularWorkspaceReadsEachModuleForTheTargetThatNamesIt() throws {
        try write("app/Tuist/ProjectDescriptionHelpers/Project+Templates.swift", """
        import ProjectDescription

        extension Project {
            public static func makeModule(name: String, platform: Platform, product: Product, bundleId: String,
                                          infoPlist: InfoPlist = .default, sources: SourceFilesList = ["Sources/**"],
                                          entitlements: Entitlements? = nil, dependencies: [TargetDependency] = [],
                                          target: Target? = nil) -> Project {
                let main = Target(name: name, platform: platform, product: product, bundleId: "org.example." + bundleId,
                                  infoPlist: infoPlist, sources: sources, entitlements: entitlements, dependencies: dependencies)
                var targets = [main]
                if let target { targets.append(target) }
                return Project(name: name, targets: targets)
            }

            public static func makeWatchModule(name: String, sources: SourceFilesList = ["Sources/**"]) -> Project {
                let watch = Target(name: "WatchKit", platform: .watchOS, product: .staticFramework, bundleId: "org.example.watchkit", sources: sources)
                return Project(name: name, targets: [watch])
            }
        }
        """)
        try write("app/Tuist/ProjectDescriptionHelpers/TargetDependency+Project.swift", """
        import ProjectDescription

        public extension TargetDependency {
            enum Project {}
        }

        public extension TargetDependency.Project {
            static let Core = TargetDependency.project(target: "Core", path: .relativeToRoot("Projects/Core"))
        }
        """)
        try write("app/Projects/App/Project.swift", """
        import ProjectDescription
        import ProjectDescriptionHelpers

        private let moduleName = "App"

        let watchTarget = Target(
            name: "Watch",
            platform: .watchOS,
            product: .app,
            bundleId: "org.example.app.watch",
            infoPlist: .extendingDefault(with: ["NSHealthShareUsageDescription": "Reads your heart rate during a match."]),
            sources: ["Watch/**"],
            dependencies: [.project(target: "WatchKit", path: .relativeToRoot("Projects/WatchKit"))]
        )

        let project = Project.makeModule(name: moduleName, platform: .iOS, product: .app, bundleId: "app",
                                         dependencies: [.Project.Core], target: watchTarget)
        """)
        try write("app/Projects/App/Sources/App.swift", "import Core\n")
        try write("app/Projects/App/Watch/Placeholder.swift", "import WatchKit\n")
        try write("app/Projects/Core/Project.swift", """
        import ProjectDescription
        import ProjectDescriptionHelpers

        private let moduleName = "Core"

        let project = Project.makeModule(name: moduleName, platform: .iOS, product: .staticFramework, bundleId: "Core")
        """)
        try write("app/Projects/Core/Sources/Workouts.swift", "import HealthKit\nlet workoutStore = HKHealthStore()\n")
        try write("app/Projects/WatchKit/Project.swift", """
        import ProjectDescription
        import ProjectDescriptionHelpers

        let moduleName = "WatchKit"

        let project = Project.makeWatchModule(name: moduleName)
        """)
        try write("app/Projects/WatchKit/Sources/Session.swift", "import HealthKit\nlet sessionStore = HKHealthStore()\n")
        try "title: T\napps:\n  - id: walk\n    name: Walk\n    root: app\n    tuist: Projects/App/Project.swift\n"
            .write(toFile: site + "/healthaudit.yml", atomically: true, encoding: .utf8)
        let manifest = try load()
        XCTAssertEqual(manifest.main.sources.map(\.path).sorted(), ["app/Projects/App/Sources/App.swift", "app/Projects/Core/Sources/Workouts.swift"],
                       "\(manifest.discovery.map(\.text))")
        let watch = try XCTUnwrap(manifest.targets.first { $0.kind == .watchApp }, "\(manifest.targets.map(\.id))")
        XCTAssertEqual(watch.sources.map(\.path).sorted(), ["app/Projects/App/Watch/Placeholder.swift", "app/Projects/WatchKit/Sources/Session.swift"])
        XCTAssertTrue(manifest.discovery.contains { $0.text.contains("workspace module WatchKit") && $0.text.contains("only the target Watch names") },
                      "\(manifest.discovery.map(\.text))")
    }

    /// A manifest naming itself (`let p = ["K": .dictionary(p)]`) ends at the nesting limit, not in a crash.
    func testASelfReferencingManifestIsBounded() throws {
        try write("app/Project.swift", """
        import ProjectDescription
        let p: [String: Plist.Value] = ["NSHealthShareUsageDescription": "Walk reads steps.", "K": .dictionary(p)]
        let s: SettingsDictionary = ["A": .dictionary(s)]
        let project = Project(name: "Walk", targets: [.target(name: "Walk", destinations: .iOS, product: .app, bundleId: "b",
            infoPlist: .extendingDefault(with: p), sources: ["Walk/Sources/**"], settings: .settings(base: s))])
        """)
        let manifest = try load()
        XCTAssertEqual(manifest.usageString("NSHealthShareUsageDescription")?.value.string, "Walk reads steps.")
    }

    func testGlobFolders() {
        XCTAssertEqual(TuistDiscovery.folder(ofGlob: "Walk/Sources/**", in: ""), "Walk/Sources")
        XCTAssertEqual(TuistDiscovery.folder(ofGlob: "Walk/Sources/**/*.swift", in: "Projects/Walk"), "Projects/Walk/Walk/Sources")
        XCTAssertEqual(TuistDiscovery.folder(ofGlob: "Sources/{A,B}/**", in: ""), "Sources")
        XCTAssertEqual(TuistDiscovery.folder(ofGlob: "**/*.swift", in: ""), ".")
        // Above the manifest's folder: kept, for the loader to read only inside the repository.
        XCTAssertEqual(TuistDiscovery.folder(ofGlob: "../Other/**", in: ""), "../Other")
        XCTAssertEqual(TuistDiscovery.folder(ofGlob: "../Watch/Sources/**", in: "iOS"), "Watch/Sources")
        XCTAssertNil(TuistDiscovery.folder(ofGlob: "/etc/**", in: ""))
    }

    /// Tuist 4 (Kaso's shape): the app bound to a name, the project's targets arrays joined with `+` (one
    /// part computed over specs), `buildableFolders:` for sources, a usage string of literals joined with
    /// `+`, and a feature module the app names in a helper's dependency list, laid out by its name.
    func testTuistFourAppBoundToANameWithBuildableFoldersAndModulesFoundByName() throws {
        try write("app/Project.swift", """
        import ProjectDescription

        func targetDependencies(_ names: [String]) -> [TargetDependency] {
            names.map { TargetDependency.target(name: $0) } + [.package(product: "ComposableArchitecture")]
        }

        func featureTarget(_ name: String) -> Target {
            .target(name: name, destinations: .iOS, product: .staticFramework, bundleId: "org.example.\\(name)",
                    buildableFolders: [BuildableFolder(stringLiteral: "Packages/Features/\\(name)/Sources")])
        }

        let watchTarget: Target = .target(name: "WalkWatch", destinations: [.appleWatch], product: .app,
                                          bundleId: "org.example.walk.watchkitapp", sources: ["Watch/**"])

        let appTarget = Target.target(
            name: "Walk",
            destinations: .iOS,
            product: .app,
            bundleId: "org.example.walk",
            infoPlist: .extendingDefault(with: [
                "NSHealthShareUsageDescription": .string(
                    "Walk đọc dữ liệu giấc ngủ "
                    + "để so sánh với bước chân."
                ),
            ]),
            buildableFolders: ["Walk/Sources", "Walk/Resources"],
            dependencies: targetDependencies(["SleepFeature", "ComposableArchitecture"]) + [.target(name: "WalkWidget"), .target(name: "WalkWatch"), .target(name: "StepsFeature")]
        )

        let widgetTarget = Target.target(name: "WalkWidget", destinations: .iOS, product: .appExtension,
                                         bundleId: "org.example.walk.widget", buildableFolders: ["Widget/Sources"])

        let project = Project(
            name: "Walk",
            targets: [watchTarget, appTarget, widgetTarget] + ["SleepFeature", "StepsFeature"].map(featureTarget)
        )
        """)
        try write("app/Packages/Features/SleepFeature/Sources/SleepReader.swift", "import HealthKit\n")
        try write("app/Packages/Features/SleepFeature/Tests/SleepReaderTests.swift", "import XCTest\n")
        try write("app/Widget/Sources/Widget.swift", "import WidgetKit\n")
        try write("app/Watch/Workout.swift", "import HealthKit\n")
        try write("app/Packages/Features/StepsFeature/Sources/Steps.swift", "import HealthKit\n")
        let manifest = try load()
        XCTAssertEqual(manifest.usageString("NSHealthShareUsageDescription")?.value.string, "Walk đọc dữ liệu giấc ngủ để so sánh với bước chân.")
        // The embedded widget and watch app stay their own targets, never the app's code; a module named
        // as a literal dependency (`.target(name: "StepsFeature")`) is found by its folder too.
        XCTAssertEqual(manifest.main.sources.map(\.path), ["app/Walk/Sources/App.swift", "app/Packages/Features/SleepFeature/Sources/SleepReader.swift",
                                                          "app/Packages/Features/StepsFeature/Sources/Steps.swift"])
        XCTAssertTrue(manifest.discovery.contains { $0.text.contains("the target SleepFeature, whose folder is found by its name") })
        XCTAssertEqual(manifest.config.extensions.map(\.name), ["WalkWatch", "WalkWidget"])
        XCTAssertEqual(manifest.config.extensions.last?.sources, ["Widget/Sources"])
    }
}
