import Foundation
import XCTest
import TestSupport

/// `check --output FILE` writes that file and nothing else: atomically for a regular file, in place
/// for a symlink, FIFO or device, never over one of the audit's inputs.
final class ReportFileTests: XCTestCase {
    var site: TestSite!
    var reports: String { site.root + "/reports" }

    override func setUpWithError() throws {
        try HealthAuditBinary.requireBuilt()
        site = try TestSite()
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
    }

    override func tearDown() { site?.remove() }

    func check(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try site.runCLI(["check", "--site", site.site, "--no-fail"] + arguments)
    }

    func testARegularFileIsReplacedWithNoTemporaryLeftBehind() throws {
        try "old".write(toFile: reports + "/out.json", atomically: false, encoding: .utf8)
        let result = try check(["--format", "json", "--output", reports + "/out.json"])
        XCTAssertEqual(result.status, 0, result.output)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reports + "/out.json"))) as? [String: Any]
        XCTAssertEqual(json?["schemaVersion"] as? Int, 3)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: reports), ["out.json"])
        let mode = try FileManager.default.attributesOfItem(atPath: reports + "/out.json")[.posixPermissions] as? Int
        XCTAssertEqual((mode ?? 0) & 0o044, 0o044, "readable like any file the user writes, not mkstemp's 0600")
    }

    func testASymlinkStaysASymlinkAndItsTargetGetsTheReport() throws {
        try "old".write(toFile: reports + "/target.sarif", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: reports + "/link.sarif", withDestinationPath: reports + "/target.sarif")
        let result = try check(["--format", "sarif", "--output", reports + "/link.sarif"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: reports + "/link.sarif"), reports + "/target.sarif")
        let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reports + "/target.sarif"))) as? [String: Any]
        XCTAssertEqual(sarif?["version"] as? String, "2.1.0")
    }

    func testAFIFOIsWrittenInPlace() throws {
        let fifo = reports + "/pipe"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let reader = Thread {
            let handle = FileHandle(forReadingAtPath: fifo)
            FIFOBox.shared.set(handle?.readDataToEndOfFile() ?? Data())
        }
        reader.start()
        let result = try check(["--format", "github", "--output", fifo])
        XCTAssertEqual(result.status, 0, result.output)
        let deadline = Date().addingTimeInterval(10)
        while FIFOBox.shared.value == nil, Date() < deadline { usleep(1000) }
        XCTAssertTrue(String(decoding: FIFOBox.shared.value ?? Data(), as: UTF8.self).hasPrefix("::"))
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "still a FIFO, not replaced by a regular file")
    }

    func testAnInputOfTheAuditIsNeverOverwritten() throws {
        for input in ["Site/healthaudit.yml", "Site/apps/steady/Steady/Info.plist"] {
            let before = try Data(contentsOf: URL(fileURLWithPath: site.root + "/" + input))
            let result = try check(["--format", "json", "--output", input])
            XCTAssertEqual(result.status, 2, result.output)
            XCTAssertTrue(result.output.contains("\(input): error: refusing to write a report over a file the audit reads"), result.output)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: site.root + "/" + input)), before)
        }
    }

    /// Issue 33, case 16: `--baseline B --output B` read B, then replaced it. Every output is
    /// checked against every file the run reads — by the file itself, so a hard link or symlink
    /// to it is refused too — before the first output is written.
    func testAnOutputOverTheBaselineTheRunReadsIsRefused() throws {
        let baseline = reports + "/baseline.json"
        XCTAssertEqual(try check(["--write-baseline", baseline]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: baseline))
        XCTAssertEqual(link(baseline, reports + "/hard.json"), 0)
        try FileManager.default.createSymbolicLink(atPath: reports + "/soft.json", withDestinationPath: "baseline.json")
        let cases: [(arguments: [String], refused: String)] = [
            (["--format", "json", "--output", baseline], baseline),
            (["--write-baseline", baseline], baseline),
            // The first output is not written either: all are checked first.
            (["--format", "text", "--output", reports + "/first.txt", "--format", "sarif", "--output", baseline], baseline),
            (["--format", "json", "--output", reports + "/hard.json"], reports + "/hard.json"),
            (["--format", "json", "--output", reports + "/soft.json"], reports + "/soft.json"),
            (["--format", "json", "--output", "reports/../reports/baseline.json"], "reports/../reports/baseline.json"),
        ]
        for (arguments, refused) in cases {
            let result = try check(["--baseline", baseline] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.output)")
            XCTAssertEqual(result.output, "\(refused): error: refusing to write a report over the baseline this run reads (--baseline)\n")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: baseline)), before, "\(arguments)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: reports + "/first.txt"))
    }

    func testAnOutputOverTheChangedFilesListIsRefused() throws {
        let list = reports + "/changed.txt"
        try "apps/steady/Steady/Info.plist\n".write(toFile: list, atomically: false, encoding: .utf8)
        let result = try check(["--changed-files", list, "--format", "markdown", "--output", list])
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertEqual(result.output, "\(list): error: refusing to write a report over the changed-files list this run reads (--changed-files)\n")
        XCTAssertEqual(try String(contentsOfFile: list, encoding: .utf8), "apps/steady/Steady/Info.plist\n")
    }

    /// A config under another name (`--config`, `.healthaudit.yml`) is read before the audit, not through it.
    func testAnOutputOverAConfigOfAnotherNameIsRefused() throws {
        let config = site.site + "/.healthaudit.yml"
        try FileManager.default.moveItem(atPath: site.site + "/healthaudit.yml", toPath: config)
        let before = try Data(contentsOf: URL(fileURLWithPath: config))
        let result = try site.runCLI(["check", "--config", config, "--no-fail", "--format", "json", "--output", config])
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertEqual(result.output, "\(config): error: refusing to write a report over a file the audit reads\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: config)), before)
    }

    func testAnUnwritableOutputExitsThreeWithTheSystemsReason() throws {
        try "x".write(toFile: reports + "/file", atomically: false, encoding: .utf8)
        let result = try check(["--format", "json", "--output", reports + "/file/out.json"])
        XCTAssertEqual(result.status, 3, result.output)
        XCTAssertTrue(result.output.contains("\(reports)/file/out.json: error: cannot create a temporary file in \(reports)/file: Not a directory"),
                      result.output)
    }

    /// A full disk: `/dev/full` fails every write with ENOSPC, as a full volume does.
    func testAFullDiskExitsThreeWithTheSystemsReason() throws {
        let result = try check(["--format", "json", "--output", "/dev/full"])
        XCTAssertEqual(result.status, 3, result.output)
        XCTAssertTrue(result.output.contains("/dev/full: error: cannot write the file: No space left on device"), result.output)
        XCTAssertFalse(result.output.contains("NSCocoaErrorDomain"), result.output)
    }
}

final class FIFOBox: @unchecked Sendable {
    static let shared = FIFOBox()
    private var data: Data?
    private let lock = NSLock()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    var value: Data? { lock.lock(); defer { lock.unlock() }; return data }
}
