import Foundation
import Manifest
import SiteBuild
import XCTest

/// One run reports every input problem it can find — templates, config, plists, scenarios — for
/// `build` and `check` alike, instead of one per run.
final class InputProblemsTests: XCTestCase {
    var fixture: SiteFixture!

    override func setUpWithError() throws { fixture = try SiteFixture() }
    override func tearDown() { fixture.remove() }

    func brokenTemplates() throws -> String {
        let templates = fixture.root + "/Templates"
        try FileManager.default.copyItem(atPath: SiteFixture.repository + "/Templates", toPath: templates)
        try (try String(contentsOfFile: templates + "/layout.mustache", encoding: .utf8) + "{{#unclosed}}\n")
            .write(toFile: templates + "/layout.mustache", atomically: true, encoding: .utf8)
        return templates
    }

    func problems(_ pipeline: Pipeline, templates: String? = nil) -> [String] {
        var options = fixture.options
        if let templates { options.templatesDirectory = templates }
        do {
            try pipeline.run(options)
            XCTFail("expected input problems")
        } catch let failure as BuildFailed {
            return failure.diagnostics.map { "[\($0.step)] " + ($0.error.location.file as NSString).lastPathComponent }
        } catch {
            XCTFail("expected BuildFailed, got \(error)")
        }
        return []
    }

    func testTemplatePlistAndScenarioProblemsComeTogether() throws {
        let templates = try brokenTemplates()
        try fixture.edit("apps/steady/Steady/Info.plist") { $0.replacingOccurrences(of: "</dict>", with: "") }
        try fixture.edit("healthaudit.yml") { $0.replacingOccurrences(of: "scenarios: [first-launch-never-asking, widget-asking]", with: "scenarios: [first-launch-never-asking, no-such-scenario]") }
        XCTAssertEqual(problems(.site, templates: templates), ["[load] layout.mustache", "[load] healthaudit.yml", "[load] Info.plist"])
    }

    func testAConfigErrorDoesNotHideTemplateErrors() throws {
        let templates = try brokenTemplates()
        try fixture.edit("healthaudit.yml") { $0.replacingOccurrences(of: "units: metric", with: "units: metric\nno_such_key: 1") }
        XCTAssertEqual(problems(.site, templates: templates), ["[load] layout.mustache", "[load] healthaudit.yml"])
    }

    /// `check` rejects what `build` rejects: a bad scenario is an input problem there too.
    func testCheckValidatesScenarios() throws {
        try fixture.edit("healthaudit.yml") { $0.replacingOccurrences(of: "scenarios: [first-launch-never-asking, widget-asking]", with: "scenarios: [first-launch-never-asking, no-such-scenario]") }
        XCTAssertEqual(problems(.audit), ["[load] healthaudit.yml"])
    }
}
