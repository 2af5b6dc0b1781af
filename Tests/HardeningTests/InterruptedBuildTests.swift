import Foundation
import Manifest
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
        // 3000 generated pages, so writing the site takes a moment.
        let paragraph = String(repeating: "HealthKit hides whether read access was granted; an app sees no samples either way. ", count: 12)
        for index in 1...3000 {
            try site.write(String(format: "content/generated/p%05d.md", index),
                           "---\ntitle: Page \(index)\n---\n# Page \(index)\n\n\(paragraph)\n\n## Notes\n\n- one\n- two\n\n[about](../about.md)\n")
        }
        let first = try run(site)
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 0)
        var previous = try site.snapshot()
        XCTAssertGreaterThan(previous.count, 3000)

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
}
