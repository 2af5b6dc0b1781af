import Foundation
import Manifest
import SiteBuild
import XCTest
import TestSupport

/// A repository under audit must not make the tool read — and so disclose — anything outside it:
/// symlinks are resolved and checked, and FIFOs are refused instead of blocking.
final class ReadConfinementTests: XCTestCase {
    static let secret = "SECRET-7f3a-do-not-disclose"
    var site: TestSite!
    var outside: String { site.root + "/outside" }

    override func setUpWithError() throws {
        site = try TestSite()
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        // A valid plist, so only the confinement (not a parse error) can stop its content.
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>NSHealthShareUsageDescription</key><string>\(Self.secret)</string>
            <key>NSHealthUpdateUsageDescription</key><string>\(Self.secret)</string>
            </dict></plist>
            """.write(toFile: outside + "/secret.plist", atomically: false, encoding: .utf8)
    }

    override func tearDown() { site.remove() }

    func replaceWithSymlink(_ path: String, to target: String) throws {
        try FileManager.default.removeItem(atPath: site.site + "/" + path)
        try FileManager.default.createSymbolicLink(atPath: site.site + "/" + path, withDestinationPath: target)
    }

    func testASymlinkedInfoPlistLeavingTheProjectIsAnErrorAndNeverRead() throws {
        try replaceWithSymlink("apps/steady/Steady/Info.plist", to: outside + "/secret.plist")
        let errors = inputErrors { try site.audit() }
        XCTAssertEqual(errors.map(\.location.file), ["apps/steady/Steady/Info.plist"])
        XCTAssertEqual(errors.first?.message, "leads outside the project (through a symbolic link or an absolute path); not read")
    }

    func testTheSecretReachesNoOutputOfAnyCommand() throws {
        try HealthAuditBinary.requireBuilt()
        try replaceWithSymlink("apps/steady/Steady/Info.plist", to: outside + "/secret.plist")
        let reports = site.root + "/reports"
        var runs: [(status: Int32, output: String)] = []
        runs.append(try site.runCLI(["check", "--site", site.site, "--format", "json", "--output", reports + "/a.json",
                             "--format", "sarif", "--output", reports + "/a.sarif", "--format", "github", "--format", "markdown"]))
        runs.append(try site.runCLI(["evidence", "--site", site.site, "--app", "steady", "--output", reports + "/e.html"]))
        runs.append(try site.runCLI(["build", "--site", site.site, "--templates", Repository.root + "/Templates"]))
        XCTAssertEqual(runs.map(\.status), [2, 2, 2], runs.map(\.output).joined(separator: "\n"))
        for run in runs {
            XCTAssertTrue(run.output.contains("Info.plist: error:"), run.output)
            XCTAssertFalse(run.output.contains(Self.secret), run.output)
        }
        for (path, data) in try site.snapshot(site.root) where !path.hasPrefix("outside/") {
            XCTAssertFalse(String(decoding: data, as: UTF8.self).contains(Self.secret), path)
        }
        let written = (try? FileManager.default.contentsOfDirectory(atPath: reports)) ?? []
        XCTAssertEqual(written, [], "no report written from a failed audit")
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.output))
    }

    func testASymlinkedSourceFolderLeavingTheProjectIsAnError() throws {
        try FileManager.default.createDirectory(atPath: outside + "/Sources", withIntermediateDirectories: true)
        try "let token = \"\(Self.secret)\"".write(toFile: outside + "/Sources/Leak.swift", atomically: false, encoding: .utf8)
        let fileSystem = LocalFileSystem(confinedTo: [site.site])
        try FileManager.default.createSymbolicLink(atPath: site.site + "/linked", withDestinationPath: outside + "/Sources")
        XCTAssertThrowsError(try fileSystem.files(under: site.site + "/linked")) { error in
            XCTAssertEqual((error as? InputError)?.problems.first?.location.file, site.site + "/linked")
        }
        XCTAssertThrowsError(try fileSystem.contents(of: site.site + "/linked/Leak.swift"))
        // The same folder reached without a symlink is fine from a root that holds it.
        XCTAssertEqual(try LocalFileSystem(confinedTo: [site.root]).files(under: site.site + "/linked"), ["Leak.swift"])
    }

    /// The repository is the git top level: a symlink that stays inside it (to a shared plist
    /// beside the site folder) is followed.
    func testSymlinksInsideTheRepositoryAreFollowed() throws {
        try FileManager.default.createDirectory(atPath: site.root + "/.git", withIntermediateDirectories: true)
        let shared = site.root + "/shared/Info.plist"
        try FileManager.default.createDirectory(atPath: site.root + "/shared", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: site.site + "/apps/steady/Steady/Info.plist", toPath: shared)
        try replaceWithSymlink("apps/steady/Steady/Info.plist", to: shared)
        XCTAssertEqual(ProjectRoot.containing(site.site), RealPath.of(site.root))
        let state = try site.audit()
        XCTAssertNotNil(state.audits.first { $0.manifest.id == "steady" }?.manifest.main.infoPlist)
    }

    /// A FIFO would block a plain `open` forever; it is refused at once.
    func testAFIFOInPlaceOfTheConfigIsRefusedWithoutBlocking() throws {
        let config = site.site + "/healthaudit.yml"
        try FileManager.default.removeItem(atPath: config)
        XCTAssertEqual(mkfifo(config, 0o644), 0)
        let errors = inputErrors { try site.audit() }
        XCTAssertEqual(errors.map(\.description), ["\(config): error: not a regular file (a FIFO, socket or device); not read"])
    }

    /// `check` finds `.healthaudit.yml` in the folder it audits: that file is an input like any
    /// other, so a symlink out of the repository is refused and its target never printed.
    func testASymlinkedDotConfigLeavingTheRepositoryIsRefusedByCheck() throws {
        try HealthAuditBinary.requireBuilt()
        let repository = site.root + "/repo"
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        try "title: \(Self.secret)\napps: []\n".write(toFile: outside + "/secret.yml", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: repository + "/.healthaudit.yml", withDestinationPath: outside + "/secret.yml")
        let run = try HealthAuditBinary.run(["check", "--format", "json"], in: repository)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("leads outside the project"), run.stderr)
        XCTAssertFalse((run.stdout + run.stderr).contains(Self.secret), run.stderr)
    }

    func testAFIFODotConfigIsRefusedByCheckWithoutBlocking() throws {
        try HealthAuditBinary.requireBuilt()
        let repository = site.root + "/repo"
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(repository + "/.healthaudit.yml", 0o644), 0)
        let run = try HealthAuditBinary.run(["check"], in: repository)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("not a regular file"), run.stderr)
    }
}
