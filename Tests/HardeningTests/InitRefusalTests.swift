import Foundation
import XCTest
import TestSupport

/// `healthaudit init` writes `healthaudit.yml` only where no config is, under either name: a
/// `.healthaudit.yml` would silently lose to the new file (it is read first), and a dangling
/// symlink in its place is refused with words, not "Invalid argument" (issue 33, item 21).
final class InitRefusalTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws {
        root = Repository.temporaryDirectory("healthaudit-init")
        // An app for init to find, so only the refusal can stop it.
        let project = DisclosureTests.project(base: nil)
        try FileManager.default.createDirectory(atPath: root + "/Leak.xcodeproj", withIntermediateDirectories: true)
        try project.write(toFile: root + "/Leak.xcodeproj/project.pbxproj", atomically: true, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    func testInitRefusesToWriteBesideADotConfig() throws {
        try HealthAuditBinary.requireBuilt()
        let existing = "title: Mine\napps: []\n"
        try existing.write(toFile: root + "/.healthaudit.yml", atomically: true, encoding: .utf8)
        let run = try HealthAuditBinary.run(["init"], in: root)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(run.stderr, ".healthaudit.yml: error: this folder already has a config, .healthaudit.yml; a healthaudit.yml written beside it would be read instead. Edit .healthaudit.yml, or remove it to start again\n")
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root).sorted(), [".healthaudit.yml", "Leak.xcodeproj"])
        XCTAssertEqual(try String(contentsOfFile: root + "/.healthaudit.yml", encoding: .utf8), existing)
    }

    func testInitRefusesADanglingSymlinkInThePlaceOfTheConfig() throws {
        try HealthAuditBinary.requireBuilt()
        try FileManager.default.createSymbolicLink(atPath: root + "/healthaudit.yml", withDestinationPath: "configs/missing.yml")
        let run = try HealthAuditBinary.run(["init", root], in: "/")
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix("/healthaudit.yml: error: refusing to write the config: healthaudit.yml is a symbolic link to a file that does not exist; remove the link, or create the file it names\n"), run.stderr)
        XCTAssertFalse(run.stderr.contains("Invalid argument"))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/healthaudit.yml"), "configs/missing.yml")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/configs"), "nothing written through the link")

        // The link removed, init writes the config.
        try FileManager.default.removeItem(atPath: root + "/healthaudit.yml")
        let written = try HealthAuditBinary.run(["init"], in: root)
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertTrue(written.stdout.hasPrefix("wrote healthaudit.yml with 1 app: leak"), written.stdout)
    }
}
