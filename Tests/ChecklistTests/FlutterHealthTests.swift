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

            """)
        let q6 = try answer(audit, .writeStatusRechecked)
        XCTAssertNotEqual(q6.status, .notApplicable)
        XCTAssertNotEqual(q6.status, .cannotTell)
        XCTAssertEqual(audit.answers.first { $0.question == .availabilityChecked }?.status, .no)
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
