import Foundation
import XCTest
import TestSupport

/// `check --since REF` against a real git repository made by the test, and `--changed-files FILE`:
/// only findings on changed lines (in code) or in changed files (declarations) are reported, the
/// rest are counted, and the exit status judges the findings shown.
final class CheckChangedLinesTests: XCTestCase {
    var fixture: TestSite!
    let health = "Site/apps/veloride/VeloRide/Health.swift"

    override func setUpWithError() throws {
        try HealthAuditBinary.requireBuilt()
        fixture = try TestSite(files: InlineApp.findingsSite, prefix: "healthaudit-changes")
    }

    override func tearDown() { fixture?.remove() }

    /// Runs git in the fixture's root. A machine without git skips, except in CI (`CI=true`), where it fails.
    @discardableResult
    func git(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: fixture.root)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 127 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("git is needed"); throw CocoaError(.executableNotLoadable) }
            throw XCTSkip("git is needed")
        }
        XCTAssertEqual(process.terminationStatus, 0, "git \(arguments.joined(separator: " ")): \(text)")
        return text
    }

    func commitEverything() throws {
        try git(["init", "-q"])
        try git(["add", "-A"])
        try git(["commit", "-q", "-m", "base"])
    }

    /// Every active finding of an unfiltered run, as "path:line rule".
    func allFindings() throws -> [String] {
        let run = try fixture.check(["--no-fail", "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return try Self.findings(run.stdout).all
    }

    static func findings(_ json: String) throws -> (all: [String], outside: Int?) {
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
        let apps = try XCTUnwrap(root["apps"] as? [[String: Any]])
        let findings = apps.flatMap { ($0["findings"] as? [[String: Any]]) ?? [] }.filter { $0["suppressed"] is NSNull }
        let all = findings.map { finding -> String in
            let location = finding["location"] as? [String: Any]
            return "\(location?["path"] as? String ?? ""):\(location?["line"] as? Int ?? 0) \(finding["ruleId"] as? String ?? "")"
        }
        return (all, (root["summary"] as? [String: Any])?["outsideChangedLines"] as? Int)
    }

    func testSinceKeepsFindingsOnChangedLinesAndJudgesOnlyThose() throws {
        try commitEverything()
        let all = try allFindings()
        XCTAssertEqual(try fixture.check().status, 1, "unfiltered, trainer's missing usage string fails the check")

        // Rename the remembered flag: lines 15 and 16 change; the finding at line 9 does not.
        try fixture.edit("apps/veloride/VeloRide/Health.swift") {
            $0.replacingOccurrences(of: "private var connected = false", with: "private var isConnected = false")
                .replacingOccurrences(of: "Text(connected ?", with: "Text(isConnected ?")
        }
        let changedLine = try XCTUnwrap(InlineApp.findingsSite["apps/veloride/VeloRide/Health.swift"]?
            .components(separatedBy: "\n").firstIndex { $0.contains("private var connected") }) + 1
        let expected = all.filter { $0.hasPrefix("\(health):\(changedLine) ") || $0.hasPrefix("\(health):\(changedLine + 1) ") }
        XCTAssertFalse(expected.isEmpty, "the fixture has a finding on the changed line: \(all)")
        XCTAssertLessThan(expected.count, all.count)

        let run = try fixture.check(["--since", "HEAD", "--format", "json", "--output", "out/report.json", "--format", "text"])
        XCTAssertEqual(run.status, 0, "the error is outside the change: \(run.stdout) \(run.stderr)")
        let json = try String(contentsOfFile: fixture.root + "/out/report.json", encoding: .utf8)
        let (shown, outside) = try Self.findings(json)
        XCTAssertEqual(shown, expected)
        XCTAssertEqual(outside, all.count - expected.count)
        XCTAssertTrue(run.stdout.hasSuffix("\(all.count - expected.count) findings outside the changed lines are not shown\n"), run.stdout)

        // A declaration is judged by file: a key added at the end of trainer's Info.plist brings back
        // the missing-key error cited at its top-level <dict>.
        try fixture.edit("apps/trainer/Trainer/Info.plist") { $0.replacingOccurrences(of: "</dict>", with: "\t<key>LSRequiresIPhoneOS</key>\n\t<true/>\n</dict>") }
        let withPlist = try fixture.check(["--since", "HEAD"])
        XCTAssertEqual(withPlist.status, 1, withPlist.stdout)
        XCTAssertTrue(withPlist.stdout.contains("Site/apps/trainer/Trainer/Info.plist:"), withPlist.stdout)
        XCTAssertTrue(withPlist.stdout.contains("[usage-string-missing]"), withPlist.stdout)

        // Committed changes count as well: nothing changed since HEAD after a commit, everything since the base.
        try git(["commit", "-q", "-am", "edit"])
        let none = try fixture.check(["--since", "HEAD", "--format", "markdown"])
        XCTAssertEqual(none.status, 0)
        XCTAssertTrue(none.stdout.contains("\n✅ **0 new errors** — the changed lines add 0 warnings, 0 notes; \(all.count) findings outside the changed lines are not shown."),
                      none.stdout)
        XCTAssertEqual(try fixture.check(["--since", "HEAD~1"]).status, 1)
    }

    func testABadRevisionMissingGitOrNoRepositoryIsAClearError() throws {
        let outside = try fixture.check(["--since", "HEAD"])
        XCTAssertEqual(outside.status, 2, outside.stderr)
        XCTAssertTrue(outside.stderr.contains("error: --since HEAD: git rev-parse failed"), outside.stderr)
        XCTAssertTrue(outside.stderr.contains("not a git repository"), outside.stderr)

        try commitEverything()
        let bad = try fixture.check(["--since", "no-such-branch"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("error: --since no-such-branch: git diff failed (exit 128): fatal: bad revision 'no-such-branch'"), bad.stderr)
        XCTAssertEqual(bad.stdout, "")

        // A revision that git would take for an option is refused before git runs.
        let option = try fixture.check(["--since=--output=/tmp/x"])
        XCTAssertEqual(option.status, 2, option.stderr)
        XCTAssertTrue(option.stderr.contains("error: --since needs a git revision"), option.stderr)

        let noGit = try HealthAuditBinary.run(["check", "--since", "HEAD"], in: fixture.root, environment: ["PATH": "/nonexistent"])
        XCTAssertEqual(noGit.status, 2, noGit.stderr)
        XCTAssertTrue(noGit.stderr.contains("error: --since HEAD needs git, and there is no git on PATH"), noGit.stderr)
    }

    /// Paths relative to the repository root (as `git diff --name-only` prints them), whatever the
    /// current folder; with no repository, relative to the site folder.
    func testChangedFilesListsPathsAndRanges() throws {
        try git(["init", "-q"])
        let all = try allFindings()
        let remembered = try XCTUnwrap(all.first { $0.hasPrefix(health + ":") && $0.hasSuffix(" authorization-remembered") })
        let line = try XCTUnwrap(Int(remembered.dropFirst(health.count + 1).prefix { $0.isNumber }))
        try "./\(health):\(line)\n\nSite/apps/steady/Steady/Info.plist\n".write(toFile: fixture.root + "/changed.txt", atomically: true, encoding: .utf8)

        let run = try fixture.check(["--changed-files", "changed.txt", "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let (shown, outside) = try Self.findings(run.stdout)
        XCTAssertEqual(shown, all.filter { $0.hasPrefix("\(health):\(line) ") })
        XCTAssertEqual(outside, all.count - shown.count)
        XCTAssertTrue(run.stderr.contains("\(all.count - shown.count) findings outside the changed lines are not shown"), run.stderr)

        try "Site/apps/trainer/Trainer/Info.plist\n".write(toFile: fixture.root + "/changed.txt", atomically: true, encoding: .utf8)
        XCTAssertEqual(try fixture.check(["--changed-files", "changed.txt"]).status, 1, "a changed declaration brings its error back")

        try "\(health):0\n".write(toFile: fixture.root + "/changed.txt", atomically: true, encoding: .utf8)
        let malformed = try fixture.check(["--changed-files", "changed.txt"])
        XCTAssertEqual(malformed.status, 2)
        XCTAssertTrue(malformed.stderr.contains("changed.txt: error: line 1: "), malformed.stderr)

        let missing = try fixture.check(["--changed-files", "nope.txt"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("nope.txt: error: changed-files list not readable"), missing.stderr)

        try FileManager.default.removeItem(atPath: fixture.root + "/.git")
        try "apps/veloride/VeloRide/Health.swift:\(line)\n".write(toFile: fixture.root + "/changed.txt", atomically: true, encoding: .utf8)
        let noRepository = try fixture.check(["--changed-files", "changed.txt", "--format", "json"])
        XCTAssertEqual(try Self.findings(noRepository.stdout).all, shown, noRepository.stderr)

        let both = try fixture.check(["--changed-files", "changed.txt", "--since", "HEAD"])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("give --changed-files or --since, not both"), both.stderr)
    }
}
