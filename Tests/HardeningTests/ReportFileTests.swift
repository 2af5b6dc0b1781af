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
