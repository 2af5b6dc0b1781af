@testable import Checklist
import Foundation
import Manifest
import Report
import XCTest

final class OutputEvidenceTests: XCTestCase {
    private func input(_ audit: AppAudit, config: String = "title: Example\n", extra: String? = nil) -> EvidenceInput {
        EvidenceInput(audit: audit, configPath: "healthaudit.yml", configText: config,
                      inputs: [InputDigest(path: "healthaudit.yml", sha256: SHA256.hex(config)),
                               InputDigest(path: "apps/a/Info.plist", sha256: SHA256.hex("plist"))],
                      extraSection: extra)
    }

    func testHoldsTheAuditConfigAndChecksums() throws {
        let audit = try OutputFixture.audit("trainer")
        let html = EvidenceReport.render(input(audit, config: "apps: # <config>\n", extra: "<h2>Summaries</h2>"), context: OutputFixture.context)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.contains("<td class=\"verdict fail\">fails</td>"))
        XCTAssertEqual(html.components(separatedBy: "<span class=\"answer ").count - 1, 6)
        // Messages are Markdown rendered by cmark: code spans are <code>, never raw backticks.
        for finding in audit.activeFindings {
            XCTAssertTrue(html.contains(MarkdownRenderer.inline(finding.message)), finding.message)
            XCTAssertFalse(MarkdownRenderer.inline(finding.message).contains("`"), finding.message)
            XCTAssertTrue(html.contains(HTMLText.escape(finding.quote)), finding.quote)
        }
        XCTAssertTrue(html.contains(ToolInfo.currentVersion))
        XCTAssertTrue(html.contains("apps: # &lt;config&gt;"))
        XCTAssertTrue(html.contains(SHA256.hex("plist")))
        XCTAssertTrue(html.contains("<section>\n<h2>Summaries</h2>\n</section>"))
    }

    func testSelfContainedAndEscaped() throws {
        let nasty = "<script>alert(1)</script><img src=\"https://evil.example/x.png\">"
        let audit = try OutputFixture.audit(findings: [
            OutputFixture.finding(message: nasty, quote: nasty),
            OutputFixture.finding(message: "waived", suppressed: .config),
        ])
        let html = EvidenceReport.render(input(audit, config: nasty), context: OutputFixture.context)
        XCTAssertFalse(html.contains("<script"), "no scripts, and none injected")
        XCTAssertFalse(html.contains("<img"))
        XCTAssertFalse(html.contains("<link"))
        XCTAssertNil(html.firstMatch(of: /(src|href)="[^"#]/), "no external or relative requests")
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        XCTAssertTrue(html.contains("<h2>Suppressed findings</h2>"))
        XCTAssertTrue(html.contains("Suppressed (config, <code>apps/veloride/VeloRide/Info.plist:11</code>): accepted for launch"))
        XCTAssertTrue(html.contains("default-src 'none'"))
    }

    /// The evidence names the commit it was audited at, and its notes render their code.
    func testNamesTheCommitAndRendersNotes() throws {
        var audit = try OutputFixture.audit("trainer")
        audit.notes = ["configure `info_plist:` <b>here</b>"]
        var context = OutputFixture.context
        context.source.commit = String(repeating: "c0ffee", count: 6) + "c0ff"
        let html = EvidenceReport.render(input(audit), context: context)
        XCTAssertTrue(html.contains("<tr><th>Commit</th><td><code>\(context.source.commit!)</code></td></tr>"), html)
        XCTAssertTrue(html.contains("<li>configure <code>info_plist:</code> &lt;b&gt;here&lt;/b&gt;</li>"), html)
        XCTAssertTrue(EvidenceReport.render(input(audit), context: OutputFixture.context).contains("<tr><th>Commit</th><td>not in a git repository</td></tr>"))
    }

    func testSameInputsSameBytes() throws {
        let audit = try OutputFixture.audit("trainer")
        XCTAssertEqual(EvidenceReport.render(input(audit), context: OutputFixture.context),
                       EvidenceReport.render(input(audit), context: OutputFixture.context))
    }
}
