import Foundation
import Manifest
import Report
import SiteBuild
import XCTest
import TestSupport

/// The default templates are compiled into the tool: a copied binary builds anywhere, and a
/// `--templates` folder overrides them file by file.
final class BuiltInTemplatesTests: XCTestCase {
    func testTheBuiltInSetIsTheTemplatesFolder() throws {
        let folder = Repository.root + "/Templates"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        XCTAssertEqual(TemplateSet.builtInFiles.keys.sorted(), names)
        for name in names {
            XCTAssertEqual(TemplateSet.builtInFiles[name], try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)), name)
        }
    }

    func testAFolderOverridesFileByFileAndFallsBackForTheRest() throws {
        let folder = Repository.temporaryPath("healthaudit-templates")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "<main>{{{content}}}</main><footer>custom layout</footer>".write(toFile: folder + "/layout.mustache", atomically: true, encoding: .utf8)
        let templates = try TemplateSet(directory: folder)
        let page = templates.page("page", context: ["html": "<p>x</p>"], layout: [:])
        XCTAssertTrue(page.hasSuffix("<footer>custom layout</footer>"), page)
        XCTAssertNotNil(templates.assets["style.css"], "assets the folder lacks come from the built-in set")
        XCTAssertNotEqual(templates.digest, try TemplateSet(directory: nil).digest, "the override changes every page's key")
    }

    /// The binary alone, copied to a folder with nothing beside it and run from another one.
    func testACopiedBinaryBuildsAndExportsTemplates() throws {
        let root = Repository.temporaryPath("healthaudit-copied")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: HealthAuditBinary.path, toPath: root + "/bin/healthaudit")
        try FileManager.default.copyItem(atPath: Repository.root + "/Site", toPath: root + "/Site")
        try? FileManager.default.removeItem(atPath: root + "/Site/public")
        let build = try run(root + "/bin/healthaudit", ["build", "--site", root + "/Site"], in: root + "/elsewhere")
        XCTAssertEqual(build.status, 0, build.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/Site/public/apps/steady/index.html"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/Site/public/style.css"))
        let export = try run(root + "/bin/healthaudit", ["templates", "export", "mine"], in: root + "/elsewhere")
        XCTAssertEqual(export.status, 0, export.output)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/elsewhere/mine").sorted(), TemplateSet.builtInFiles.keys.sorted())
        let again = try run(root + "/bin/healthaudit", ["templates", "export", "mine"], in: root + "/elsewhere")
        XCTAssertEqual(again.status, 2)
        XCTAssertTrue(again.output.contains("refusing to overwrite"), again.output)
    }

    func run(_ binary: String, _ arguments: [String], in folder: String) throws -> (status: Int32, output: String) {
        let run = try HealthAuditBinary.run(arguments, in: folder, binary: binary)
        return (run.status, run.stdout + run.stderr)
    }
}
