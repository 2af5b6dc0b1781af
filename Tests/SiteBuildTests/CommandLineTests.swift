import Foundation
import XCTest
import TestSupport

/// The commands people expect of a linter: `--version`, "did you mean", `rules`, `explain`.
final class CommandLineTests: XCTestCase {
    let folder = Repository.scratch

    func testVersionIsTheToolVersion() throws {
        let run = try HealthAuditBinary.run(["--version"], in: folder)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0.1.0")
    }

    func testAMistypedCommandSuggestsTheRightOne() throws {
        let run = try HealthAuditBinary.run(["chek"], in: folder)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "error: unknown command 'chek'. Did you mean 'check'?\n")
    }

    func testRulesListsEveryRuleOnceWithItsQuestions() throws {
        let run = try HealthAuditBinary.run(["rules"], in: folder)
        XCTAssertEqual(run.status, 0)
        let lines = run.stdout.split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 20)
        let probed = try XCTUnwrap(lines.first { $0.hasPrefix("read-status-probed ") })
        XCTAssertTrue(probed.contains("error") && probed.contains("Q3"), String(probed))
        let json = try HealthAuditBinary.run(["rules", "--format", "json"], in: folder)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rules = try XCTUnwrap(root["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.count, lines.count)
        XCTAssertEqual(Set(rules.compactMap { $0["id"] as? String }).count, rules.count, "ids are unique")
    }

    func testExplainShowsTheRationaleAndExamples() throws {
        let run = try HealthAuditBinary.run(["explain", "read-status-probed"], in: folder)
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.stdout.hasPrefix("read-status-probed — "), run.stdout)
        XCTAssertTrue(run.stdout.contains("answers Q3: Is there any attempt to determine read permission status?"))
        XCTAssertTrue(run.stdout.contains("Triggers on (example 1):"))
        XCTAssertTrue(run.stdout.contains("store.authorizationStatus(for:"))
        XCTAssertTrue(run.stdout.contains("Rests on:\n  HKHealthStore.authorizationStatus(for:) — https://developer.apple.com/documentation/healthkit/hkhealthstore/authorizationstatus(for:)\n"), run.stdout)
        // The finding's line is flagged in the gutter; the example's Info.plist scaffolding is left out.
        XCTAssertTrue(run.stdout.contains("\n>         isAuthorized = hasWriteAccess\n"), run.stdout)
        XCTAssertFalse(run.stdout.contains("<key>CFBundleName</key>"), run.stdout)
        let typo = try HealthAuditBinary.run(["explain", "read-status-probe"], in: folder)
        XCTAssertEqual(typo.status, 2)
        XCTAssertTrue(typo.stderr.contains("Did you mean 'read-status-probed'?"), typo.stderr)
    }

    /// Rules about manifests, JavaScript, Dart and config files show their files too.
    func testExplainShowsExamplesInEveryLanguage() throws {
        let manifest = try HealthAuditBinary.run(["explain", "usage-string-missing"], in: folder)
        XCTAssertEqual(manifest.status, 0)
        XCTAssertTrue(manifest.stdout.contains("Triggers on (example 1):\n  // App.entitlements\n"), manifest.stdout)
        XCTAssertTrue(manifest.stdout.contains("  \t<key>NSHealthShareUsageDescription</key>\n"), manifest.stdout)
        let javaScript = try HealthAuditBinary.run(["explain", "plugin-read-status"], in: folder)
        XCTAssertTrue(javaScript.stdout.contains("> \n") == false && javaScript.stdout.contains(">     ↓") == false, "markers are removed")
        XCTAssertTrue(javaScript.stdout.contains(">     setIsAuthorized(status === AuthorizationRequestStatus.unnecessary);\n"), javaScript.stdout)
        let dart = try HealthAuditBinary.run(["explain", "flutter-write-read-only"], in: folder)
        XCTAssertTrue(dart.stdout.contains("// lib/"), dart.stdout)
        XCTAssertTrue(dart.stdout.contains("\n> "), "the Dart finding's line is flagged: \(dart.stdout)")
    }

    /// `build` finds a `.healthaudit.yml` as `check` does, and `--config` names any file; the
    /// file chosen is the config (here it names the one app of three on disk).
    func testBuildReadsTheConfigUnderEitherNameOrGiven() throws {
        var files = InlineApp.site([("pace", "Pace", nil), ("steady", "Steady", nil)])
        let twoApps = try XCTUnwrap(files.removeValue(forKey: "healthaudit.yml"))
        let oneApp = try XCTUnwrap(InlineApp.site([("steady", "Steady", nil)])["healthaudit.yml"])
        let site = try TestSite(files: files.merging([".healthaudit.yml": twoApps, "one.yml": oneApp]) { $1 })
        defer { site.remove() }

        // Bare `healthaudit` with a config is `build`, as it always was.
        let hidden = try HealthAuditBinary.run([], in: site.site)
        XCTAssertEqual(hidden.status, 0, hidden.stderr)
        XCTAssertTrue(hidden.stderr.contains("[6/6] write: "), hidden.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.output + "/apps/pace/index.html"), hidden.stderr)

        let given = try HealthAuditBinary.run(["build", "--config", "one.yml", "--output", "../one"], in: site.site)
        XCTAssertEqual(given.status, 0, given.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.root + "/one/apps/steady/index.html"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.root + "/one/apps/pace/index.html"), "only the given config's apps")

        let missing = try HealthAuditBinary.run(["build", "--config", "nope.yml"], in: site.site)
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "nope.yml: error: config file not found\n")
    }
}
