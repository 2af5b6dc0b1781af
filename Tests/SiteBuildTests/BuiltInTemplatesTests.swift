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

    /// `{{value}}` is escaped as Mustache's HTML content type escapes it, but by bytes: a quote
    /// followed by a combining mark is one `Character`, which Mustache's own table misses, and left
    /// raw it would end the attribute and let app text add one.
    func testValuesAreEscapedByBytesEvenBeforeACombiningMark() throws {
        let folder = Repository.temporaryPath("healthaudit-escaping")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "<b title=\"{{name}}\">{{text}}</b>|{{{raw}}}".write(toFile: folder + "/page.mustache", atomically: true, encoding: .utf8)
        let templates = try TemplateSet(directory: folder)
        let page = templates.render("page", context: [
            "name": "\"\u{301} onmouseover=alert(1) x=\"", "text": "<a href='x'>&amp;</a>", "raw": "<i>kept</i>",
        ])
        XCTAssertEqual(page, "<b title=\"&quot;\u{301} onmouseover=alert(1) x=&quot;\">&lt;a href=&#39;x&#39;&gt;&amp;amp;&lt;/a&gt;</b>|<i>kept</i>")
    }

    /// The escaping pragma each template is given is a line of its own: a parse error still names
    /// the file's own line, and nothing of it shows in a page.
    func testAParseErrorNamesTheTemplatesOwnLine() throws {
        let folder = Repository.temporaryPath("healthaudit-template-error")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "<p>one</p>\n{{#open}}\n<p>three</p>{{/other}}\n".write(toFile: folder + "/page.mustache", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try TemplateSet(directory: folder)) { error in
            let problems = (error as? InputError)?.problems ?? []
            XCTAssertEqual(problems.first?.location.file, folder + "/page.mustache", "\(error)")
            XCTAssertEqual(problems.first?.location.line, 3, "\(error)")
        }
        try "first line\n{{x}}".write(toFile: folder + "/page.mustache", atomically: true, encoding: .utf8)
        XCTAssertEqual(try TemplateSet(directory: folder).render("page", context: ["x": 1]), "first line\n1")
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
