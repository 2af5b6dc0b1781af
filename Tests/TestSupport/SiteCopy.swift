import Foundation
import Manifest
import SiteBuild
import XCTest

/// A copy of the repository's `Site/` in a temporary folder, built with the real templates on a
/// fixed day, that a test may edit; `remove()` deletes it.
public struct SiteCopy {
    public let root: String
    public var site: String { root + "/Site" }
    public var output: String { site + "/public" }

    public init(prefix: String = "healthaudit-site") throws {
        root = Repository.temporaryDirectory(prefix)
        try FileManager.default.copyItem(atPath: Repository.site, toPath: site)
        // A clean copy: no built site, nor the hidden files a build keeps beside it.
        for entry in try FileManager.default.contentsOfDirectory(atPath: site) where entry == "public" || entry.hasPrefix(".public") {
            try FileManager.default.removeItem(atPath: site + "/" + entry)
        }
    }

    public func remove() { try? FileManager.default.removeItem(atPath: root) }

    public var options: BuildOptions {
        BuildOptions(siteDirectory: site, templatesDirectory: Repository.templates,
                     clock: FixedClock(DayDate(year: 2026, month: 4, day: 1)), log: SilentLog())
    }

    @discardableResult
    public func build() throws -> BuildState { try Pipeline.site.run(options) }

    @discardableResult
    public func audit() throws -> BuildState { try Pipeline.audit.run(options) }

    /// How many apps the copied config lists: tests count from it, not from today's demo site.
    public func appCount() throws -> Int { try ConfigLoader().load(siteDirectory: site).apps.count }

    /// A file of the built site.
    public func read(_ path: String) throws -> String { try String(contentsOfFile: output + "/" + path, encoding: .utf8) }

    public func write(_ path: String, _ text: String) throws {
        let full = site + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// Rewrites a file of the site; an edit that changes nothing fails the test (its premise is gone).
    public func edit(_ path: String, file: StaticString = #filePath, line: UInt = #line, _ transform: (String) -> String) throws {
        let full = site + "/" + path
        let before = try String(contentsOfFile: full, encoding: .utf8)
        let after = transform(before)
        XCTAssertNotEqual(before, after, "edit of \(path) changed nothing", file: file, line: line)
        try after.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// Every file below `folder` (default: the output) with its bytes, keyed by relative path.
    public func snapshot(_ folder: String? = nil) throws -> [String: Data] {
        let base = folder ?? output
        var result: [String: Data] = [:]
        for file in try LocalFileSystem().files(under: base) {
            result[file] = try Data(contentsOf: URL(fileURLWithPath: base + "/" + file))
        }
        return result
    }

    /// Runs the CLI from `folder` (default: the root); stdout then stderr in `output`.
    public func runCLI(_ arguments: [String], in folder: String? = nil, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let run = try HealthAuditBinary.run(arguments, in: folder ?? root, environment: environment)
        return (run.status, run.stdout + run.stderr)
    }
}
