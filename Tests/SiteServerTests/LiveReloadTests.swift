import Foundation
import SiteServer
import XCTest

/// Edits of the inputs while the server runs: each test has its own copy of the site.
final class LiveReloadTests: XCTestCase {
    private var running: ServerFixture?

    private func start() async throws -> ServerFixture {
        let fixture = try await ServerFixture.started()
        running = fixture
        return fixture
    }

    override func tearDown() async throws {
        await running?.stop()
        running = nil
    }

    func testTemplateEditRebuildsAndBumpsTheGeneration() async throws {
        let fixture = try await start()
        let before = try await fixture.status().generation
        try fixture.edit("Templates/index.mustache") { $0.replacingOccurrences(of: "<h2 id=\"apps\">Apps</h2>", with: "<h2 id=\"apps\">Apps under review</h2>") }
        try await fixture.waitFor("a rebuild after the template edit") { try await fixture.status().generation > before }
        let page = try await fixture.get("/").text
        XCTAssertTrue(page.contains("Apps under review"))
    }

    func testSourceEditRebuilds() async throws {
        let fixture = try await start()
        let before = try await fixture.status().generation
        try fixture.edit("Site/apps/steady/Steady/SteadyApp.swift") { $0 + "\n// edited while serving\n" }
        try await fixture.waitFor("a rebuild after the source edit") { try await fixture.status().generation > before }
    }

    func testFailedRebuildKeepsTheLastGoodSiteAndShowsTheError() async throws {
        let fixture = try await start()
        let before = try await fixture.status().generation
        let original = try String(contentsOfFile: fixture.templates + "/app.mustache", encoding: .utf8)
        try fixture.edit("Templates/app.mustache") { $0 + "{{#unclosed}}\n" }
        try await fixture.waitFor("the failed rebuild's error") { try await fixture.status().error != nil }

        let failed = try await fixture.status()
        XCTAssertEqual(failed.generation, before, "no new site, so open pages don't reload")
        XCTAssertTrue(failed.error?.contains("app.mustache") ?? false, failed.error ?? "")
        let page = try await fixture.get("/apps/trainer/")
        XCTAssertEqual(page.status, 200, "the last good site is still served")
        XCTAssertTrue(page.text.contains("class=\"finding"))
        XCTAssertTrue(page.text.contains("app.mustache"), "the page carries the diagnostics for the banner")

        try original.write(toFile: fixture.templates + "/app.mustache", atomically: true, encoding: .utf8)
        try await fixture.waitFor("the fixed rebuild") {
            let status = try await fixture.status()
            return status.error == nil && status.generation > before
        }
    }
}
