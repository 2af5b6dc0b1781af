import Foundation
import XCTest
import TestSupport

final class CheckCommandBaselineTests: XCTestCase {
    var fixture: TestSite!

    override func setUpWithError() throws {
        fixture = try TestSite(files: InlineApp.findingsSite)
        let written = try fixture.check(["--write-baseline", "ci/baseline.json"])
        XCTAssertEqual(written.status, 0, "writing a baseline accepts every current finding: \(written.stdout)")
        // The answers still judge the whole app: no "passes" beside them because every finding was just accepted.
        XCTAssertTrue(written.stdout.hasPrefix("VeloRide (veloride)\n"), written.stdout)
    }

    override func tearDown() { fixture.remove() }

    private func baseline() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture.root + "/ci/baseline.json"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func fingerprints(_ file: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture.root + "/" + file))
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(root["findings"] as? [[String: Any]]).compactMap { $0["fingerprint"] as? String }
    }

    func testBaselineFileIsVersionedAndSorted() throws {
        let root = try baseline()
        XCTAssertEqual(root["schemaVersion"] as? Int, 1)
        let findings = try XCTUnwrap(root["findings"] as? [[String: Any]])
        let reported = try fixture.check(["--no-fail", "--quiet"]).stdout.split(separator: "\n").dropLast()
        XCTAssertEqual(findings.count, reported.count, "every active finding is in the baseline")
        for entry in findings {
            for key in ["ruleId", "path", "fingerprint", "message"] { XCTAssertNotNil(entry[key] as? String, key) }
        }
        let keys = findings.map { "\($0["app"] as? String ?? "")|\($0["path"] as! String)|\($0["ruleId"] as! String)|\($0["fingerprint"] as! String)" }
        XCTAssertEqual(keys, keys.sorted())
    }

    func testKnownFindingsPassAndANewOneFails() throws {
        let accepted = try fixture.check(["--baseline", "ci/baseline.json", "--quiet"])
        XCTAssertEqual(accepted.status, 0, accepted.stdout + accepted.stderr)
        XCTAssertNotNil(accepted.stdout.firstMatch(of: /^\d+ apps? audited: 0 errors, 0 warnings, 0 notes/), accepted.stdout)

        try fixture.edit("apps/steady/Steady/Info.plist") { $0.replacingOccurrences(of: "<string>\(InlineApp.share)</string>", with: "<string></string>") }
        let new = try fixture.check(["--baseline", "ci/baseline.json"])
        XCTAssertEqual(new.status, 1, new.stdout)
        // The answers judge the whole app; the header leaves out the verdict, which a baseline changes.
        XCTAssertTrue(new.stdout.contains("\nSteady (steady)\n"), new.stdout)
        let reported = new.stdout.split(separator: "\n").drop { !$0.hasPrefix("Site/") }.dropLast()
        XCTAssertFalse(reported.isEmpty)
        XCTAssertTrue(reported.allSatisfy { $0.hasPrefix("Site/apps/steady/") }, "only the new finding is reported: \(new.stdout)")
        XCTAssertEqual(try fixture.check(["--baseline", "ci/baseline.json", "--no-fail"]).status, 0)
    }

    func testFindingsMovedByBlankLinesKeepTheirFingerprints() throws {
        let before = try fixture.check(["--no-fail"]).stdout
        try fixture.edit("apps/veloride/VeloRide/Health.swift") { "\n\n\n\n\n" + $0 }
        try fixture.edit("apps/veloride/VeloRide/Info.plist") { $0.replacingOccurrences(of: "<dict>\n", with: "<dict>\n\n\n") }
        let after = try fixture.check(["--no-fail"]).stdout
        let lines = { (text: String) in text.matches(of: /VeloRide\/Health\.swift:(\d+):/).map { Int($0.1)! } }
        XCTAssertFalse(lines(before).isEmpty, before)
        XCTAssertEqual(lines(after), lines(before).map { $0 + 5 }, "every finding of the file moved down five lines")

        let run = try fixture.check(["--baseline", "ci/baseline.json", "--strict-baseline"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        _ = try fixture.check(["--write-baseline", "ci/moved.json"])
        XCTAssertEqual(try fingerprints("ci/moved.json").sorted(), try fingerprints("ci/baseline.json").sorted())
    }

    func testStrictBaselineFailsWhenABaselinedFindingDisappears() throws {
        try fixture.edit("apps/trainer/Trainer/Info.plist") { text in
            text.replacingOccurrences(of: "</dict>", with: "\t<key>NSHealthUpdateUsageDescription</key>\n\t<string>\(InlineApp.update)</string>\n</dict>")
        }
        let lenient = try fixture.check(["--baseline", "ci/baseline.json"])
        XCTAssertEqual(lenient.status, 0, lenient.stdout + lenient.stderr)
        XCTAssertTrue(lenient.stderr.contains("note: baselined finding no longer occurs"), lenient.stderr)

        let strict = try fixture.check(["--baseline", "ci/baseline.json", "--strict-baseline"])
        XCTAssertEqual(strict.status, 1)
        let gone = strict.stderr.split(separator: "\n").filter { $0.contains("baselined finding no longer occurs") }
        XCTAssertEqual(gone.count, 1, strict.stderr)
        let first = try XCTUnwrap(gone.first)
        XCTAssertTrue(first.hasPrefix("Site/apps/trainer/Trainer/Info.plist: error: ") && gone[0].hasSuffix("[usage-string-missing]"), String(first))
        XCTAssertEqual(try fixture.check(["--baseline", "ci/baseline.json", "--strict-baseline", "--no-fail"]).status, 0)
    }

    func testAppFilterLeavesOtherAppsEntriesAlone() throws {
        let run = try fixture.check(["--baseline", "ci/baseline.json", "--strict-baseline", "--app", "trainer"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    }

    func testMissingOrMalformedBaselineIsAnInputError() throws {
        let missing = try fixture.check(["--baseline", "ci/none.json"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("ci/none.json: error:"), missing.stderr)
        try "{\"schemaVersion\": 7, \"findings\": []}".write(toFile: fixture.root + "/ci/future.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(try fixture.check(["--baseline", "ci/future.json"]).status, 2)
    }
}
