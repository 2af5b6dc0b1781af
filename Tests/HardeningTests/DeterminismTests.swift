import Foundation
import XCTest
import TestSupport

/// Same inputs, same bytes: clean builds (and `check`, `evidence`) in separate processes with
/// different time zones, locales and working folders produce byte-identical files. Each build is a
/// full one into a fresh folder, so no cache can make the second a copy of the first.
final class DeterminismTests: XCTestCase {
    static let environments: [[String: String]] = [
        ["TZ": "Pacific/Kiritimati", "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"],
        ["TZ": "America/Adak", "LANG": "C", "LC_ALL": "C"],
    ]
    var site: TestSite!

    override func setUpWithError() throws {
        try HealthAuditBinary.requireBuilt()
        site = try TestSite()
    }

    override func tearDown() { site?.remove() }

    func run(_ arguments: [String], environment: [String: String], in folder: String) throws -> Data {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Repository.binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertTrue([0, 1].contains(process.terminationStatus), "\(arguments) exited \(process.terminationStatus)")
        return data
    }

    func testTwoCleanBuildsInTwoProcessesAreByteIdentical() throws {
        var sites: [[String: Data]] = []
        for (index, environment) in Self.environments.enumerated() {
            let output = site.root + "/out\(index)"
            _ = try run(["build", "--site", site.site, "--output", output, "--templates", Repository.root + "/Templates"],
                        environment: environment, in: site.root + "/cwd\(index)/nested")
            sites.append(try site.snapshot(output))
        }
        XCTAssertGreaterThan(sites[0].count, 50)
        XCTAssertEqual(Set(sites[0].keys), Set(sites[1].keys))
        for (path, data) in sites[0] { XCTAssertEqual(data, sites[1][path], path) }
    }

    /// Reports name paths relative to the working folder, so each run works in its own folder at
    /// the same distance from the site (`../Site`); time zone, locale and folder all differ.
    func testCheckReportsAndTheEvidenceFileAreByteIdentical() throws {
        var runs: [[String: Data]] = []
        for (index, environment) in Self.environments.enumerated() {
            let folder = site.root + "/cwd\(index)", reports = site.root + "/reports\(index)"
            var outputs: [String: Data] = [:]
            // One check writes every format: the text to standard output, the others to files.
            outputs["text"] = try run(["check", "--site", "../Site", "--format", "text", "--format", "sarif=" + reports + "/a.sarif",
                                       "--format", "json=" + reports + "/a.json", "--format", "junit=" + reports + "/a.xml",
                                       "--format", "markdown=" + reports + "/a.md", "--format", "github=" + reports + "/a.github"],
                                      environment: environment, in: folder)
            _ = try run(["evidence", "--site", "../Site", "--app", "veloride", "--output", reports + "/evidence.html"], environment: environment, in: folder)
            for name in ["a.sarif", "a.json", "a.xml", "a.md", "a.github", "evidence.html"] {
                outputs[name] = try Data(contentsOf: URL(fileURLWithPath: reports + "/" + name))
            }
            runs.append(outputs)
        }
        for (name, data) in runs[0] {
            XCTAssertGreaterThan(data.count, 100, name)
            XCTAssertEqual(data, runs[1][name], name)
        }
    }
}
