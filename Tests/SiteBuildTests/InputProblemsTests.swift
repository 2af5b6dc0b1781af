import Foundation
import Manifest
import SiteBuild
import XCTest
import TestSupport

/// One run reports every input problem it can find — templates, config, plists, scenarios — for
/// `build` and `check` alike, instead of one per run.
final class InputProblemsTests: XCTestCase {
    var fixture: TestSite!

    override func setUpWithError() throws { fixture = try TestSite() }
    override func tearDown() { fixture.remove() }

    func brokenTemplates() throws -> String {
        let templates = fixture.root + "/Templates"
        try FileManager.default.copyItem(atPath: Repository.root + "/Templates", toPath: templates)
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
            return failure.diagnostics.map { "[\($0.step)] " + ($0.problem.location.file as NSString).lastPathComponent }
        } catch {
            XCTFail("expected BuildFailed, got \(error)")
        }
        return []
    }

    /// A root with nothing readable (a typo, a folder moved) must fail the run, not pass with six
    /// "cannot tell" answers; the message names the config line and what was looked for.
    func testAnAppWithNothingToReadIsALoadErrorAtItsConfigLine() throws {
        let site = try TestSite(files: [
            "healthaudit.yml": "title: T\napps:\n  - id: ghost\n    name: Ghost\n    root: apps/ghost\n",
            "apps/ghost/README.md": "# moved to apps/ghost-ios\n",
        ])
        defer { site.remove() }
        do {
            _ = try site.audit()
            XCTFail("expected a load error")
        } catch let failure as BuildFailed {
            let problem = try XCTUnwrap(failure.diagnostics.first?.problem)
            XCTAssertEqual(failure.diagnostics.count, 1)
            XCTAssertEqual(problem.location.file.hasSuffix("healthaudit.yml"), true, problem.location.file)
            XCTAssertEqual(problem.location.line, 3)
            XCTAssertTrue(problem.message.contains("app 'ghost': nothing to audit under 'apps/ghost'"), problem.message)
        }
    }

    func testTemplateConfigPlistStringsAndScenarioProblemsComeTogether() throws {
        let templates = try brokenTemplates()
        try fixture.edit("apps/steady/Steady/Info.plist") { $0.replacingOccurrences(of: "</dict>", with: "") }
        try fixture.edit("apps/veloride/VeloRide/de.lproj/InfoPlist.strings") { $0 + "\n\"NSHealthUpdateUsageDescription\" = \"unterminated\n" }
        try fixture.edit("healthaudit.yml") {
            $0.replacingOccurrences(of: "scenarios: [first-launch-never-asking, widget-asking]", with: "scenarios: [first-launch-never-asking, no-such-scenario]")
                .replacingOccurrences(of: "units: metric", with: "units: metric\nno_such_key: 1")
        }
        XCTAssertEqual(problems(.site, templates: templates),
                       ["[load] layout.mustache", "[load] healthaudit.yml", "[load] InfoPlist.strings", "[load] healthaudit.yml", "[load] Info.plist"])
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

    /// An error that is neither an input problem nor an output failure is a bug of the tool: it
    /// used to be reported as an input problem "at" the output folder.
    func testAnUnexpectedErrorIsAnInternalFailureNotAnInputProblem() throws {
        struct Unexpected: Error, CustomStringConvertible { var description: String { "index out of range" } }
        let failing = Pipeline(steps: [.loadInputs, BuildStep("render") { _, _ in throw Unexpected() }])
        do {
            try failing.run(fixture.options)
            XCTFail("expected the step's error")
        } catch let failure as InternalFailure {
            XCTAssertEqual(failure.step, "render")
            XCTAssertEqual(failure.description, "error: internal error in step 'render': index out of range; this is a bug in healthaudit, please report it")
        } catch {
            XCTFail("expected InternalFailure, got \(type(of: error)): \(error)")
        }
    }

    /// Input problems of several readers arrive as one error type whose problems keep their files.
    func testReadersThrowOneErrorTypeThatCollectsProblems() throws {
        try fixture.edit("healthaudit.yml") { $0.replacingOccurrences(of: "units: metric", with: "units: metric\nno_such_key: 1\nother_key: 2") }
        do {
            _ = try ConfigLoader().load(siteDirectory: fixture.site)
            XCTFail("expected input problems")
        } catch let error as InputError {
            XCTAssertEqual(error.problems.map { $0.message.hasPrefix("config: unknown key") }, [true, true])
            XCTAssertEqual(error.problems.map(\.location.line), [9, 10])
        }
    }
}
