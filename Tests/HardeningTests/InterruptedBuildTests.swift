import Foundation
import Manifest
import SiteBuild
import XCTest
import TestSupport

/// `healthaudit build` killed with SIGKILL while it writes: the previous site stays whole, byte for
/// byte, and the next build cleans up after it.
final class InterruptedBuildTests: XCTestCase {
    func run(_ site: TestSite) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Repository.binary)
        process.arguments = ["build", "--site", site.site, "--templates", Repository.root + "/Templates"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func leftovers(_ site: TestSite) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.site).filter { $0.hasPrefix(".public-tmp-") || $0.hasPrefix(".public-old-") }
    }

    func testKilledBuildLeavesThePreviousSiteIntact() throws {
        try HealthAuditBinary.requireBuilt()
        let site = try TestSite()
        defer { site.remove() }
        // Pages are rendered straight into the staging folder, so the build is killed while it
        // renders: 600 generated pages keep it there for about half a second in a debug build
        // (the poll below looks every half millisecond) while each of the three builds stays short.
        let paragraph = String(repeating: "HealthKit hides whether read access was granted; an app sees no samples either way. ", count: 12)
        for index in 1...600 {
            try site.write(String(format: "content/generated/p%05d.md", index),
                           "---\ntitle: Page \(index)\n---\n# Page \(index)\n\n\(paragraph)\n\n## Notes\n\n- one\n- two\n\n[about](../about.md)\n")
        }
        let first = try run(site)
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 0)
        var previous = try site.snapshot()
        XCTAssertGreaterThan(previous.count, 600)

        // Every page changes (the site title is on each), so the whole site is rendered and written again.
        var killed = false
        for attempt in 1...3 {
            try site.edit("healthaudit.yml") { $0.replacingOccurrences(of: "title: HealthAudit", with: "title: Rebuilt \(attempt) HealthAudit") }
            let build = try run(site)
            let deadline = Date().addingTimeInterval(300)
            while build.isRunning, Date() < deadline {
                if try !leftovers(site).isEmpty {
                    kill(build.processIdentifier, SIGKILL)
                    break
                }
                usleep(500)
            }
            build.waitUntilExit()
            if build.terminationReason == .uncaughtSignal {
                killed = true
                break
            }
            // The build finished before the staging folder was seen: the site is the new one; try again from it.
            XCTAssertEqual(build.terminationStatus, 0)
            previous = try site.snapshot()
        }
        try XCTSkipUnless(killed, "the build never stayed in its write step long enough to be killed")
        XCTAssertFalse(try leftovers(site).isEmpty, "the killed build left its staging folder")
        let after = try site.snapshot()
        XCTAssertEqual(after.count, previous.count)
        XCTAssertTrue(after == previous, "the previous site changed: \(after.filter { previous[$0.key] != $0.value }.count) file(s) differ")

        let next = try run(site)
        next.waitUntilExit()
        XCTAssertEqual(next.terminationStatus, 0)
        XCTAssertEqual(try leftovers(site), [])
        XCTAssertTrue(try String(contentsOfFile: site.output + "/index.html", encoding: .utf8).contains("Rebuilt"))
    }

    // MARK: - Issue 33, case 19: killed between the two renames

    /// The state a build killed between its two renames leaves: no output, the last good site in
    /// `.<name>-old-…` beside it. Returns what that site holds.
    func retire(_ output: String) throws -> [String: Data] {
        let retired = (output as NSString).deletingLastPathComponent + "/." + (output as NSString).lastPathComponent + "-old-dead"
        try FileManager.default.createDirectory(atPath: retired + "/apps", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: retired + "/" + OutputClaim.markerName))
        try Data("<html>last good</html>".utf8).write(to: URL(fileURLWithPath: retired + "/index.html"))
        try Data("<html>app</html>".utf8).write(to: URL(fileURLWithPath: retired + "/apps/index.html"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        return try TestSite.snapshot(of: retired)
    }

    /// The next build fails on its input: the site is put back before anything else, so "the
    /// previous site was left untouched" is true.
    func testAFailingBuildFirstPutsBackTheSiteAKilledBuildMovedAside() throws {
        let site = try TestSite()
        defer { site.remove() }
        let last = try retire(site.output)
        try site.edit("healthaudit.yml") { $0.replacingOccurrences(of: "units: metric", with: "units: metric\nbogus_key: 1") }
        XCTAssertThrowsError(try site.build()) { XCTAssertTrue($0 is BuildFailed, "\($0)") }
        XCTAssertEqual(try site.snapshot(), last)
        XCTAssertEqual(try leftovers(site), [])
    }

    func testAFailingBuildFromResultsFirstPutsBackTheSite() throws {
        let root = Repository.temporaryDirectory("healthaudit-results-restore")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/results", withIntermediateDirectories: true)
        try "{".write(toFile: root + "/results/acme.json", atomically: false, encoding: .utf8)
        let output = root + "/public"
        let last = try retire(output)
        var options = BuildOptions(siteDirectory: root + "/results", outputDirectory: output, log: SilentLog())
        options.resultsDirectory = root + "/results"
        XCTAssertThrowsError(try Pipeline.build(for: options).run(options)) { XCTAssertTrue($0 is BuildFailed, "\($0)") }
        XCTAssertEqual(try TestSite.snapshot(of: output), last)
    }

    /// Through the command line: the message says the site was left untouched, and it is there.
    func testTheCommandsMessageIsTrue() throws {
        try HealthAuditBinary.requireBuilt()
        let site = try TestSite()
        defer { site.remove() }
        let last = try retire(site.output)
        try site.edit("healthaudit.yml") { $0.replacingOccurrences(of: "units: metric", with: "units: metric\nbogus_key: 1") }
        let result = try site.runCLI(["build", "--site", site.site, "--templates", Repository.templates])
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertTrue(result.output.contains("[1/6] output: \(site.output) is a site healthaudit wrote (put back from .public-old-dead, left by an interrupted build)"),
                      result.output)
        XCTAssertTrue(result.output.hasSuffix("build failed: 1 problem; the previous site was left untouched\n"), result.output)
        XCTAssertEqual(try site.snapshot(), last)
    }
}
