import Checklist
import Manifest
import TestSupport
import XCTest

/// A Flutter app on `package:health`: its Dart calls are facts of the same model as Swift's, so
/// the code questions are answered instead of "cannot tell".
final class FlutterHealthTests: XCTestCase {
    var site: TestSite!

    override func tearDown() { site?.remove() }

    func audit(_ dart: String) throws -> AppAudit {
        site = try TestSite(files: [
            "healthaudit.yml": "title: Walker\napps:\n  - id: walker\n    name: Walker\n    root: walker/ios\n    info_plist: Runner/Info.plist\n    entitlements: Runner/Runner.entitlements\n",
            "walker/pubspec.yaml": "name: walker\ndependencies:\n  flutter:\n    sdk: flutter\n  health: ^13.1.0\n",
            "walker/lib/health_service.dart": dart,
            "walker/lib/health_service.g.dart": "// generated\nfinal _h = Health();\nvoid g() { _h.writeHealthData(value: 1, type: HealthDataType.STEPS, startTime: DateTime.now()); }\n",
            "walker/ios/Runner/Info.plist": InlineApp.infoPlist(["CFBundleName": "Walker", "NSHealthShareUsageDescription": "Walker reads your steps to chart each day's walking.",
                                                                 "NSHealthUpdateUsageDescription": "Walker saves the walks you record so they appear in Health."]),
            "walker/ios/Runner/Runner.entitlements": InlineApp.entitlements,
        ])
        let config = try ConfigLoader().load(siteDirectory: site.site)
        return Checklist().audit(try ManifestLoader(siteDirectory: site.site).load(config.apps[0]))
    }

    func answer(_ audit: AppAudit, _ question: ReviewQuestion) throws -> Answer {
        try XCTUnwrap(audit.answers.first { $0.question == question })
    }

    static let readOnly = """
        import 'package:health/health.dart';

        class HealthService {
          final Health health = Health();

          Future<int> stepsToday() async {
            final types = [HealthDataType.STEPS];
            await health.requestAuthorization(types, permissions: [HealthDataAccess.READ]);
            final now = DateTime.now();
            return await health.getTotalStepsInInterval(DateTime(now.year, now.month, now.day), now) ?? 0;
          }
        }

        """

    /// Dart compiles what `lib/main.dart` reaches by `import`, `export` and `part`: a service nothing
    /// imports (BlueWatch's unused HealthKit code beside a mock) is not the app's code, and is named
    /// in the discovery notes instead of being judged.
    func testDartFilesNoEntryImportsAreNotTheAppsCode() throws {
        site = try TestSite(files: [
            "healthaudit.yml": "title: Walker\napps:\n  - id: walker\n    name: Walker\n    root: walker/ios\n    info_plist: Runner/Info.plist\n    entitlements: Runner/Runner.entitlements\n",
            "walker/pubspec.yaml": "name: walker\ndependencies:\n  flutter:\n    sdk: flutter\n  health: ^13.1.0\n",
            "walker/lib/main.dart": "import 'package:flutter/material.dart';\nimport 'screens/home.dart';\n\nvoid main() => runApp(const Home());\n",
            "walker/lib/screens/home.dart": "import 'package:walker/services/steps.dart';\nimport '../util/io_stub.dart' if (dart.library.io) '../util/io.dart';\npart 'home_parts.dart';\n",
            "walker/lib/screens/home_parts.dart": "part of 'home.dart';\n",
            "walker/lib/services/steps.dart": Self.readOnly,
            "walker/lib/util/io_stub.dart": "// web\n",
            "walker/lib/util/io.dart": "// io\n",
            "walker/lib/services/unused_health.dart": """
                import 'package:health/health.dart';

                Future<bool> connect() async {
                  final granted = await Health().requestAuthorization([HealthDataType.HEART_RATE]);
                  return granted;
                }
                """,
            "walker/ios/Runner/Info.plist": InlineApp.infoPlist(["CFBundleName": "Walker", "NSHealthShareUsageDescription": "Walker reads your steps to chart each day's walking.",
                                                                 "NSHealthUpdateUsageDescription": "Walker saves the walks you record so they appear in Health."]),
            "walker/ios/Runner/Runner.entitlements": InlineApp.entitlements,
        ])
        let config = try ConfigLoader().load(siteDirectory: site.site)
        let audit = Checklist().audit(try ManifestLoader(siteDirectory: site.site).load(config.apps[0]))
        XCTAssertEqual(audit.manifest.dartSources.map(\.path), [
            "walker/lib/main.dart", "walker/lib/screens/home.dart", "walker/lib/screens/home_parts.dart",
            "walker/lib/services/steps.dart", "walker/lib/util/io.dart", "walker/lib/util/io_stub.dart",
        ])
        XCTAssertEqual(audit.requestedRead, ["stepCount"], "the unused file's heart-rate request is not the app's")
        XCTAssertFalse(audit.findings.contains { $0.location.file.hasSuffix("unused_health.dart") }, "\(audit.findings.map(\.location))")
        let note = try XCTUnwrap(audit.manifest.discovery.first { $0.text.contains("not audited") })
        XCTAssertEqual(note.text, "1 Dart file not audited as the app's code (walker/lib/services/): followed from walker/lib/main.dart")
    }

    /// `kind: flutter` with the app folder as root: the iOS side is `ios/Runner.xcodeproj`, read as a
    /// native project (its build settings too), the Dart beside it.
    func testKindFlutterReadsTheRunnerProject() throws {
        let pbxproj = Self.runnerProject(settings: "IPHONEOS_DEPLOYMENT_TARGET = 14.0;")
        site = try TestSite(files: [
            // A path written in the entry is relative to the Flutter folder, as `root:` says.
            "healthaudit.yml": "title: Walker\napps:\n  - id: walker\n    kind: flutter\n    root: walker\n    entitlements: ios/Runner/Runner.entitlements\n",
            "walker/pubspec.yaml": "name: walker\ndependencies:\n  flutter:\n    sdk: flutter\n  health: ^13.1.0\n",
            "walker/lib/health_service.dart": """
                import 'package:health/health.dart';

                Future<void> connect() async {
                  await Health().requestAuthorization([HealthDataType.STEPS, HealthDataType.ATRIAL_FIBRILLATION_BURDEN]);
                }
                """,
            "walker/ios/Runner.xcodeproj/project.pbxproj": pbxproj,
            "walker/ios/Runner/Info.plist": InlineApp.infoPlist(["CFBundleName": "Walker", "NSHealthShareUsageDescription": "Walker reads your steps to chart each day's walking.",
                                                                 "NSHealthUpdateUsageDescription": "Walker saves the walks you record so they appear in Health."]),
            "walker/ios/Runner/Runner.entitlements": InlineApp.entitlements,
        ])
        let config = try ConfigLoader().load(siteDirectory: site.site)
        let audit = Checklist().audit(try ManifestLoader(siteDirectory: site.site).load(config.apps[0]))
        XCTAssertEqual(audit.manifest.main.infoPlist?.path, "walker/ios/Runner/Info.plist")
        XCTAssertEqual(audit.manifest.main.entitlements?.path, "walker/ios/Runner/Runner.entitlements")
        XCTAssertEqual(audit.manifest.dartSources.map(\.path), ["walker/lib/health_service.dart"])
        XCTAssertEqual(audit.requestedRead, ["atrialFibrillationBurden", "stepCount"])
        let newer = try XCTUnwrap(audit.findings.first { $0.ruleID == "type-newer-than-deployment-target" })
        XCTAssertEqual("\(newer.location)", "walker/lib/health_service.dart:4:62")
        XCTAssertTrue(newer.message.contains("iOS 14.0 (IPHONEOS_DEPLOYMENT_TARGET at walker/ios/Runner.xcodeproj/project.pbxproj:8)"), newer.message)
    }

    /// The example app of a plugin with its own HealthKit method channel takes the plugin by path
    /// (`steps_plugin: {path: ../}`): the plugin's Swift is compiled into the app, so it is read as
    /// dependency code and decides the answers — a dev dependency, and a path that leaves the
    /// repository, are not read.
    func testAPluginTakenByPathIsTheAppsDependencyCode() throws {
        site = try TestSite(files: [
            "healthaudit.yml": "title: Steps\napps:\n  - id: steps\n    kind: flutter\n    root: steps_plugin/example\n",
            "steps_plugin/pubspec.yaml": "name: steps_plugin\nflutter:\n  plugin:\n    platforms:\n      ios:\n        pluginClass: StepsPlugin\n",
            "steps_plugin/example/pubspec.yaml": """
                name: steps_example
                dependencies:
                  flutter:
                    sdk: flutter
                  steps_plugin:
                    # the plugin beside its example
                    path: ../
                  escape:
                    path: ../../../..
                dev_dependencies:
                  tool_plugin:
                    path: ../tool_plugin
                """,
            "steps_plugin/example/lib/main.dart": """
                import 'package:steps_plugin/steps_plugin.dart';

                Future<void> main() async {
                  await StepsPlugin.requestAuthorization();
                }
                """,
            "steps_plugin/ios/Classes/StepsPlugin.swift": """
                import HealthKit

                final class StepsPlugin {
                    private let store = HKHealthStore()

                    func requestAuthorization(completion: @escaping (Bool) -> Void) {
                        let steps = HKQuantityType.quantityType(forIdentifier: .stepCount)!
                        store.requestAuthorization(toShare: [], read: [steps]) { _, _ in
                            completion(self.store.authorizationStatus(for: steps) == .sharingAuthorized)
                        }
                    }
                }

                """,
            "steps_plugin/tool_plugin/ios/Classes/Tool.swift": "import HealthKit\nlet toolStore = HKHealthStore()\n",
            "steps_plugin/example/ios/Runner.xcodeproj/project.pbxproj": Self.runnerProject(),
            "steps_plugin/example/ios/Runner/Info.plist": InlineApp.infoPlist(["CFBundleName": "Steps", "NSHealthShareUsageDescription": "Steps reads your step count to chart each day's walking."]),
            "steps_plugin/example/ios/Runner/Runner.entitlements": InlineApp.entitlements,
        ])
        let config = try ConfigLoader().load(siteDirectory: site.site)
        let audit = Checklist().audit(try ManifestLoader(siteDirectory: site.site).load(config.apps[0]))
        XCTAssertEqual(audit.manifest.main.sources.filter(\.isDependency).map(\.path), ["steps_plugin/ios/Classes/StepsPlugin.swift"])
        XCTAssertTrue(audit.manifest.discovery.contains { $0.text == "1 Swift file of the local package steps_plugin (steps_plugin/ios) read as the app's dependency code"
            && $0.location == FileLocation(file: "steps_plugin/example/pubspec.yaml", line: 5) }, audit.manifest.discovery.map(\.text).joined(separator: "\n"))
        let probed = try answer(audit, .readStatusProbed)
        XCTAssertEqual(probed.status, .yes, probed.reason)
        XCTAssertEqual(probed.evidence.first.map { "\($0.location)" }, "steps_plugin/ios/Classes/StepsPlugin.swift:9:24")
    }

    /// A Flutter app's `ios/Runner.xcodeproj`: one Runner target, the project's `settings` at project level.
    static func runnerProject(settings: String = "") -> String {
        """
        // !$*UTF8*$!
        { archiveVersion = 1; objectVersion = 56; objects = {
            P = {isa = PBXProject; mainGroup = G; targets = (T); buildConfigurationList = PL;};
            G = {isa = PBXGroup; children = (); sourceTree = "<group>";};
            T = {isa = PBXNativeTarget; name = Runner; productType = "com.apple.product-type.application"; buildConfigurationList = TL; buildPhases = (); dependencies = ();};
            PL = {isa = XCConfigurationList; buildConfigurations = (PR); defaultConfigurationName = Release;};
            PR = {isa = XCBuildConfiguration; name = Release; buildSettings = {
                \(settings)
            };};
            TL = {isa = XCConfigurationList; buildConfigurations = (TR); defaultConfigurationName = Release;};
            TR = {isa = XCBuildConfiguration; name = Release; buildSettings = {
                INFOPLIST_FILE = Runner/Info.plist;
                CODE_SIGN_ENTITLEMENTS = Runner/Runner.entitlements;
                PRODUCT_NAME = "$(TARGET_NAME)";
            };};
        }; rootObject = P; }
        """
    }

    func testKindFlutterWithoutAnIOSProjectIsALoadError() throws {
        site = try TestSite(files: [
            "healthaudit.yml": "title: Walker\napps:\n  - id: walker\n    kind: flutter\n    root: walker\n",
            "walker/pubspec.yaml": "name: walker\n",
        ])
        let config = try ConfigLoader().load(siteDirectory: site.site)
        XCTAssertThrowsError(try ManifestLoader(siteDirectory: site.site).load(config.apps[0])) { error in
            XCTAssertTrue("\(error)".contains("Flutter app 'walker' has no ios/*.xcodeproj"), "\(error)")
        }
    }

    func testDartCallsAnswerTheCodeQuestions() throws {
        let audit = try audit(Self.readOnly)
        XCTAssertEqual(audit.manifest.dartSources.map(\.path), ["walker/lib/health_service.dart"], "generated Dart is not the app's own")
        XCTAssertEqual(try answer(audit, .availabilityChecked).status, .no, "package:health offers no availability check")
        let missing = try XCTUnwrap(audit.findings.first { $0.ruleID == "availability-not-checked" })
        XCTAssertEqual("\(missing.location)", "walker/lib/health_service.dart:8:18")
        XCTAssertEqual(try answer(audit, .completionInterpreted).status, .yes)
        XCTAssertEqual(try answer(audit, .completionInterpreted).evidence.first?.quote, "await health.requestAuthorization(types, permissions: [HealthDataAccess.READ]);")
        XCTAssertEqual(try answer(audit, .readStatusProbed).status, .no)
        XCTAssertEqual(try answer(audit, .writeStatusRechecked).status, .notApplicable, "a read-only app")
    }

    func testAWriteOnAConstructedInstanceIsAWrite() throws {
        let audit = try audit("""
            import 'package:health/health.dart';

            Future<void> logWalk(DateTime start, DateTime end) async {
              await Health().writeHealthData(value: 1200, type: HealthDataType.STEPS, startTime: start, endTime: end);
            }

            Future<void> main() async => logWalk(DateTime.now(), DateTime.now());

            """)
        let q6 = try answer(audit, .writeStatusRechecked)
        XCTAssertNotEqual(q6.status, .notApplicable)
        XCTAssertNotEqual(q6.status, .cannotTell)
        XCTAssertEqual(audit.answers.first { $0.question == .availabilityChecked }?.status, .no)
    }

    /// `delete(type:startTime:endTime:)` is a write: HealthKit deletes only what the app may share.
    func testDeleteIsAWrite() throws {
        let audit = try audit("""
            import 'package:health/health.dart';

            final health = Health();

            Future<bool> undo(DateTime start, DateTime end) => health.delete(type: HealthDataType.STEPS, startTime: start, endTime: end);
            """)
        let writes = AuditContext(manifest: audit.manifest).usage.facts(.write)
        XCTAssertEqual(writes.map { "\($0.evidence.location)" }, ["walker/lib/health_service.dart:5:59"])
    }

    /// The types `requestAuthorization` asks for are the app's requested types, per access: READ by
    /// default, WRITE only to share, READ_WRITE both; the plugin's names lead to the catalogue's.
    func testRequestedTypesComeFromTheDartRequestPerAccess() throws {
        let audit = try audit("""
            import 'package:health/health.dart';

            final health = Health();
            const types = [HealthDataType.STEPS, HealthDataType.WEIGHT, HealthDataType.SLEEP_ASLEEP, HealthDataType.HEART_RATE_VARIABILITY_RMSSD];

            Future<void> connect() async {
              await health.requestAuthorization(types,
                  permissions: [HealthDataAccess.READ, HealthDataAccess.READ_WRITE, HealthDataAccess.WRITE, HealthDataAccess.READ]);
              await health.requestAuthorization([HealthDataType.BLOOD_OXYGEN]);
            }
            """)
        XCTAssertEqual(audit.requestedRead, ["bodyMass", "oxygenSaturation", "stepCount"])
        XCTAssertEqual(audit.requestedShare, ["bodyMass", "sleepAnalysis"])
        XCTAssertTrue(audit.notes.contains("walker/lib/health_service.dart:7: package:health read types the audit does not know: `HEART_RATE_VARIABILITY_RMSSD`"),
                      "\(audit.notes)")
    }
}
