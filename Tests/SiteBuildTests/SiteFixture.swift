import Foundation
import Manifest
import SiteBuild

/// A copy of the repository's Site/ in a temporary folder, built with the real templates.
struct SiteFixture {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    let root: String
    var site: String { root + "/Site" }
    var output: String { site + "/public" }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("healthaudit-site-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.repository + "/Site", toPath: site)
        try? FileManager.default.removeItem(atPath: output)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    /// How many apps the copied config lists: tests count from it, not from today's demo site.
    func appCount() throws -> Int { try ConfigLoader().load(siteDirectory: site).apps.count }

    var options: BuildOptions {
        BuildOptions(siteDirectory: site, templatesDirectory: Self.repository + "/Templates",
                     clock: FixedClock(DayDate(year: 2026, month: 4, day: 1)), log: SilentLog())
    }

    @discardableResult
    func build() throws -> BuildState { try Pipeline.site.run(options) }

    func read(_ path: String) throws -> String { try String(contentsOfFile: output + "/" + path, encoding: .utf8) }

    func edit(_ path: String, _ transform: (String) -> String) throws {
        let full = site + "/" + path
        try transform(try String(contentsOfFile: full, encoding: .utf8)).write(toFile: full, atomically: true, encoding: .utf8)
    }

    func write(_ path: String, _ text: String) throws {
        let full = site + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// Every file of the output with its bytes, keyed by relative path.
    func snapshot() throws -> [String: Data] {
        var result: [String: Data] = [:]
        for file in try LocalFileSystem().files(under: output) {
            result[file] = try Data(contentsOf: URL(fileURLWithPath: output + "/" + file))
        }
        return result
    }
}
