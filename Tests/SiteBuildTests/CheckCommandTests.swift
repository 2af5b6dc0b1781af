import Foundation
import Manifest
import XCTest
import TestSupport

extension TestSite {
    func check(_ arguments: [String] = []) throws -> HealthAuditBinary.Run {
        try HealthAuditBinary.run(["check"] + arguments, in: root)
    }

    /// Keeps only the `steady` app in the config and makes its read purpose string vague: a site
    /// whose only finding is a warning.
    func makeWarningsOnly() throws {
        try edit("healthaudit.yml") { text in
            let head = text.components(separatedBy: "\napps:\n")[0]
            let steady = text.components(separatedBy: "  - id: steady\n")[1]
            return head + "\napps:\n  - id: steady\n" + steady
        }
        try edit("apps/steady/Steady/Info.plist") { text in
            text.replacingOccurrences(of: "Steady reads your steps, heart rate, sleep, activity, weight, age and sex to show daily trends and estimate your recovery.",
                                      with: "Steady needs access to your data so that it can work properly for you.")
        }
    }
}

final class CheckCommandTests: XCTestCase {
    var fixture: TestSite!

    override func setUpWithError() throws { fixture = try TestSite() }
    override func tearDown() { fixture.remove() }

    func testDefaultSiteFailsWithCompilerStyleFindings() throws {
        let run = try fixture.check()
        XCTAssertEqual(run.status, 1, run.stderr)
        let lines = run.stdout.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.hasPrefix("Site/apps/trainer/Trainer/Info.plist:1: error: NSHealthUpdateUsageDescription is missing") }, run.stdout)
        XCTAssertTrue(lines.contains { $0.firstMatch(of: /^Site\/apps\/veloride\/VeloRide\/.+\.swift:\d+:\d+: warning: .+ \[[a-z-]+\]$/) != nil }, run.stdout)
        XCTAssertGreaterThan(try fixture.appCount(), 1)
        XCTAssertTrue(lines.last?.hasPrefix("\(try fixture.appCount()) apps audited:") == true, run.stdout)
        // The six answers of every app come first, each app's block opened by its verdict.
        XCTAssertEqual(lines.filter { $0.firstMatch(of: /^  (pass|fail|unknown|n\/a) +Q[1-6] .+\? .+ — ./) != nil }.count, 6 * (try fixture.appCount()), run.stdout)
        XCTAssertTrue(lines.first?.hasSuffix(": fails") == true, run.stdout)
        let lastAnswer = try XCTUnwrap(lines.lastIndex { $0.hasPrefix("  ") && $0.contains(" Q6 ") })
        XCTAssertLessThan(lastAnswer, try XCTUnwrap(lines.firstIndex { $0.hasPrefix("Site/") }))
    }

    func testNoFailWritesEveryReportIntoNewFoldersAndExitsZero() throws {
        var arguments = ["--no-fail"]
        for format in ["text", "sarif", "junit", "json", "markdown", "github"] {
            arguments += ["--format", format, "--output", "reports/\(format)/report.out"]
        }
        // The file beside its format.
        arguments += ["--format", "sarif=reports/beside.sarif"]
        let run = try fixture.check(arguments)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "", "every format went to a file")
        XCTAssertTrue(run.stderr.contains("\(try fixture.appCount()) apps audited:"), "the count still reaches the log: \(run.stderr)")
        for format in ["text", "sarif", "junit", "json", "markdown", "github"] {
            let text = try String(contentsOfFile: fixture.root + "/reports/\(format)/report.out", encoding: .utf8)
            XCTAssertFalse(text.isEmpty, format)
        }
        let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture.root + "/reports/sarif/report.out"))) as? [String: Any]
        XCTAssertEqual(sarif?["version"] as? String, "2.1.0")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: fixture.root + "/reports/beside.sarif")),
                       try Data(contentsOf: URL(fileURLWithPath: fixture.root + "/reports/sarif/report.out")))
    }

    func testFormatWithoutOutputOrDashGoesToStandardOutput() throws {
        let run = try fixture.check(["--format", "json", "--output", "-", "--no-fail"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(json?["schemaVersion"] as? Int, 3)
        let github = try fixture.check(["--format", "github"])
        XCTAssertEqual(github.status, 1)
        XCTAssertTrue(github.stdout.hasPrefix("::error file=Site/apps/"), github.stdout)
    }

    func testThresholdOnASiteWithOnlyWarnings() throws {
        try fixture.makeWarningsOnly()
        let run = try fixture.check(["--fail-on", "error"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains(": warning: "), run.stdout)
        XCTAssertFalse(run.stdout.contains(": error: "), run.stdout)
        XCTAssertEqual(try fixture.check().status, 0, "error is the default threshold")
        XCTAssertEqual(try fixture.check(["--fail-on", "warning"]).status, 1)
        XCTAssertEqual(try fixture.check(["--fail-on", "note"]).status, 1)
        XCTAssertEqual(try fixture.check(["--fail-on", "note", "--no-fail"]).status, 0)
    }

    func testBrokenConfigPrintsDiagnosticsAndExitsTwo() throws {
        try fixture.edit("healthaudit.yml") { $0.replacingOccurrences(of: "units: metric", with: "units: metric\nbogus_key: 1") }
        let run = try fixture.check(["--no-fail"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertNotNil(run.stderr.firstMatch(of: /healthaudit\.yml:\d+(:\d+)?: error: .*bogus_key/), run.stderr)
    }

    func testBrokenManifestExitsTwo() throws {
        try fixture.edit("apps/veloride/VeloRide/Info.plist") { String($0.prefix(200)) }
        let run = try fixture.check()
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("VeloRide/Info.plist"), run.stderr)
        XCTAssertTrue(run.stderr.contains(": error: "), run.stderr)
    }

    func testAppFilterAndUsageErrors() throws {
        let steady = try fixture.check(["--app", "steady"])
        XCTAssertEqual(steady.status, 0, steady.stdout)
        XCTAssertTrue(steady.stdout.contains("1 app audited: 0 errors"), steady.stdout)
        XCTAssertEqual(try fixture.check(["--app", "steady", "--app", "trainer"]).status, 1)

        let unknown = try fixture.check(["--app", "nope"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("unknown app id nope"), unknown.stderr)
        XCTAssertEqual(try fixture.check(["--fail-on", "fatal"]).status, 2)
        XCTAssertEqual(try fixture.check(["--format", "pdf"]).status, 2)
        // Written as SwiftLint users write it, each file would get the next format's content: refused, nothing written.
        let offByOne = try fixture.check(["--format", "text", "--format", "sarif", "--output", "a.sarif", "--format", "junit", "--output", "a.xml"])
        XCTAssertEqual(offByOne.status, 2, offByOne.stderr)
        XCTAssertEqual(offByOne.stdout, "")
        XCTAssertTrue(offByOne.stderr.hasSuffix("did you mean: --format text --format sarif=a.sarif --format junit=a.xml\n"), offByOne.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.root + "/a.sarif") || FileManager.default.fileExists(atPath: fixture.root + "/a.xml"))
        XCTAssertEqual(try fixture.check(["--strict-baseline"]).status, 2)
        XCTAssertEqual(try fixture.check(["--site", "Nowhere"]).status, 2)
    }

    /// What discovery found is in the JSON report and, with `--verbose`, in the text output, each
    /// fact at the project line it was read from; the summary names the tool's version.
    func testDiscoveryIsShownInJSONAndVerboseText() throws {
        let text = try fixture.check(["--app", "runner", "--verbose", "--quiet"])
        XCTAssertTrue(text.stdout.hasPrefix("runner: "), "--quiet leaves the answers out: \(text.stdout)")
        XCTAssertNotNil(text.stdout.firstMatch(of: /Site\/apps\/runner\/Runner\.xcodeproj\/project\.pbxproj:\d+: info:\s/), text.stdout)
        XCTAssertTrue(text.stdout.contains("audited: ") && text.stdout.hasSuffix("(healthaudit 0.1.0)\n"), text.stdout)
        XCTAssertFalse(text.stdout.contains(" Q1 "), text.stdout)
        let plain = try fixture.check(["--app", "runner"]).stdout
        XCTAssertFalse(plain.contains(": info: "), "only with --verbose")
        XCTAssertTrue(plain.hasPrefix("Runner (runner): ") && plain.contains(" Q6 "), "the answers open the output: \(plain)")

        let json = try fixture.check(["--app", "runner", "--format", "json"])
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let app = try XCTUnwrap((report?["apps"] as? [[String: Any]])?.first)
        let discovery = try XCTUnwrap(app["discovery"] as? [[String: Any]])
        XCTAssertFalse(discovery.isEmpty)
        XCTAssertTrue(discovery.contains { (($0["location"] as? [String: Any])?["path"] as? String)?.hasSuffix("Runner.xcodeproj/project.pbxproj") == true })
        XCTAssertEqual(Set(discovery.flatMap { $0.keys }), ["text", "origin", "location", "note"])
    }

    /// Project-wide `rules:` turn a rule off or change its severity for every app; a rule id that
    /// does not exist is an input error at its line, with the closest id.
    func testProjectWideRulesSettings() throws {
        try fixture.makeWarningsOnly()
        try fixture.edit("healthaudit.yml") { $0 + "rules:\n  usage-string-vague: error\n" }
        let raised = try fixture.check()
        XCTAssertEqual(raised.status, 1, raised.stdout)
        XCTAssertTrue(raised.stdout.contains(": error: ") && raised.stdout.contains("[usage-string-vague]"), raised.stdout)

        try fixture.edit("healthaudit.yml") { $0.replacingOccurrences(of: "usage-string-vague: error", with: "usage-string-vague: off") }
        let off = try fixture.check()
        XCTAssertEqual(off.status, 0, off.stdout)
        XCTAssertFalse(off.stdout.contains("usage-string-vague"), off.stdout)

        try fixture.edit("healthaudit.yml") { $0.replacingOccurrences(of: "usage-string-vague: off", with: "usage-string-vauge: off\n  timing-band-aid: loud") }
        let wrong = try fixture.check()
        XCTAssertEqual(wrong.status, 2)
        XCTAssertNotNil(wrong.stderr.firstMatch(of: /healthaudit\.yml:\d+:\d+: error: .*rules: unknown rule 'usage-string-vauge' \(did you mean 'usage-string-vague'\?\)/), wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("rules.timing-band-aid"), wrong.stderr)
    }
}
