import Checklist
import Foundation
import Manifest
@testable import SiteBuild
import XCTest
import TestSupport

/// Inputs of a few kilobytes that used to crash or hang the audit: deep Swift nesting, nested
/// template literals, content pages that map to one output file, huge one-line quotes.
final class NestingBoundsTests: XCTestCase {
    var site: TestSite!

    override func setUpWithError() throws { site = try TestSite() }
    override func tearDown() { site.remove() }

    func swiftLine(_ body: String) -> String { "import HealthKit\n\nfunc probe() {\n    let x = \(body)\n}\n" }

    /// The app's `file-not-analysed` findings as `severity file:line: message` (the column left out).
    func notAnalysed(_ audit: AppAudit) -> [String] {
        audit.findings.filter { $0.ruleID == "file-not-analysed" }.map { "\($0.severity) \($0.location.file):\($0.location.line ?? 0): \($0.message)" }.sorted()
    }

    /// 40 nested `[` doubled the parse time per level (about 10^5 s); now the file is refused with a
    /// warning at the bracket that passes the limit.
    func testDeeplyNestedSquareBracketsAreRefusedWithAWarning() throws {
        try site.write("apps/steady/Steady/Deep.swift", swiftLine(String(repeating: "[", count: 40) + "1" + String(repeating: "]", count: 40)))
        let audit = try XCTUnwrap(try site.audit().audits.first { $0.manifest.id == "steady" })
        XCTAssertEqual(notAnalysed(audit), ["warning apps/steady/Steady/Deep.swift:4: not analysed: `[` nested deeper than 12"])
        XCTAssertEqual(audit.findings.first { $0.ruleID == "file-not-analysed" }?.location.column, 25)
    }

    /// Long member and call chains recurse once per link, in swift-syntax and in the rules: they run on
    /// a large stack even when the build itself runs on a Dispatch worker (as under `serve`).
    func testLongChainsOnADispatchWorkerDoNotOverflowTheStack() throws {
        try site.write("apps/steady/Steady/Chain.swift", swiftLine("store" + String(repeating: ".b", count: 10_000)))
        try site.write("apps/steady/Steady/Calls.swift", swiftLine("f" + String(repeating: "()", count: 10_000)))
        let options = site.options
        let appCount = try ConfigLoader().load(siteDirectory: site.site).apps.count
        let finished = expectation(description: "build on a Dispatch worker")
        DispatchQueue.global().async {
            let audits = try? Pipeline.audit.run(options).audits
            XCTAssertEqual(audits?.count, appCount, "every app is audited")
            finished.fulfill()
        }
        wait(for: [finished], timeout: 120)
    }

    /// A million-link chain (2 MB, under the file size limit) overflowed even the 512 MiB stack:
    /// beyond 10,000 links the file is refused with a warning naming the line. A SwiftUI view whose
    /// modifiers continue on new lines is one chain and stays well inside the limit.
    func testChainsBeyondTheLimitAreRefusedWithAWarning() throws {
        try site.write("apps/steady/Steady/Long.swift", swiftLine("store" + String(repeating: ".b", count: 10_001)))
        try site.write("apps/steady/Steady/Calls.swift", "import HealthKit\n\nlet f = g\n" + "let y = f" + String(repeating: "()", count: 10_002) + "\n")
        let modifiers = (0..<200).map { "        .padding(\($0))" }.joined(separator: "\n")
        try site.write("apps/steady/Steady/View.swift", "import SwiftUI\n\nlet v = Text(\"hi\")\n\(modifiers)\n")
        let audit = try XCTUnwrap(try site.audit().audits.first { $0.manifest.id == "steady" })
        XCTAssertEqual(notAnalysed(audit), ["warning apps/steady/Steady/Calls.swift:4: not analysed: an expression chains more than 10000 members or calls",
                                            "warning apps/steady/Steady/Long.swift:4: not analysed: an expression chains more than 10000 members or calls"])
    }

    /// Found by the Swift fuzz target: swift-syntax's error recovery is quadratic on a long run of
    /// `<data>` (60 KB took a minute; in a debug build 6 KB, this one, takes two, 45 times the
    /// deadline — and a longer run would go on at idle priority for the rest of the test process).
    /// The parse is abandoned at its deadline, the file is reported, and the rest of the app is still audited.
    func testAParseThatOutlivesItsDeadlineIsAbandonedWithAWarning() throws {
        try site.write("apps/steady/Steady/Slow.swift", "import HealthKit\n\nstruct A {\n    pri" + String(repeating: "<data>", count: 1_000) + "\n}\n")
        let audit = try XCTUnwrap(try site.audit().audits.first { $0.manifest.id == "steady" })
        XCTAssertEqual(notAnalysed(audit), ["warning apps/steady/Steady/Slow.swift:1: not analysed: the Swift parser did not finish within 3 s of CPU time (its error recovery is slow on some malformed files)"])
        // The rest of the app was audited: question 1's "no" rests on a call it read (the session
        // logger's unguarded save), so it stands with a file unread; it could never be yes.
        let first = try XCTUnwrap(audit.answers.first)
        XCTAssertEqual(first.status, .no, first.reason)
        XCTAssertTrue(first.reason.contains("`logMindfulSession`") && first.reason.contains("SessionLogger.swift:27"), first.reason)
    }

    /// 3,000 nested template substitutions overflowed the tokenizer's recursion.
    func testNestedTemplateLiteralsStopWithANote() throws {
        let nested = String(repeating: "`${", count: 3_000) + "x" + String(repeating: "}`", count: 3_000)
        let file = JavaScriptFile(path: "src/deep.ts", text: "const a = 1;\nconst b = \(nested);\nconst c = 2;\n")
        XCTAssertEqual(file.stoppedAtLine, 2)
        XCTAssertTrue(file.tokens.contains { $0.isIdentifier("a") })
    }

    func testContentPagesMappingToOneOutputAreAnInputErrorNamingBoth() throws {
        try site.write("content/a b.md", "# A\n")
        try site.write("content/a-b.md", "# B\n")
        try site.write("content/概要.md", "# 概要\n")
        try site.write("content/設定.md", "# 設定\n")
        let errors = inputErrors { try site.build() }
        XCTAssertEqual(errors.map(\.message), ["'content/a b.md' and 'content/a-b.md' would both be written to pages/a-b.html: rename one of them"])
        // Site-relative like every location: the command line prefixes the site folder once.
        XCTAssertEqual(errors.map(\.location.file), ["content/a-b.md"])
        let printed = BuildFailed(diagnostics: errors.map { BuildDiagnostic(step: "load", problem: $0) }).description(sitePrefix: "Site")
        XCTAssertTrue(printed.hasPrefix("Site/content/a-b.md"), printed)
    }

    /// Budgets for a whole run: bytes read (every read goes through the run's recorder) and bytes
    /// of the site, checked before anything is written.
    func testARunStopsAtItsReadAndOutputBudgets() throws {
        let recorder = RecordingFileSystem(LocalFileSystem(), byteBudget: 100)
        try site.write("big.txt", String(repeating: "x", count: 101))
        XCTAssertThrowsError(try recorder.contents(of: site.site + "/big.txt")) { error in
            XCTAssertEqual((error as? InputError)?.problems.first?.message, "the run has read 101 bytes, over the limit of 100 bytes per run; audit fewer apps or narrow `sources:`")
        }
        var options = site.options
        options.outputByteBudget = 10_000
        let errors = inputErrors { try Pipeline.site.run(options) }
        XCTAssertEqual(errors.count, 1)
        XCTAssertTrue(errors.first?.message.hasPrefix("the site would be ") == true, "\(errors)")
        XCTAssertTrue(errors.first?.message.hasSuffix("over the limit of 10000 bytes; audit fewer apps or days") == true, "\(errors)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: options.outputDirectory), "nothing written")
    }

    func testDistinctNonASCIINamesStayDistinct() throws {
        try site.write("content/é.md", "# é\n")
        try site.write("content/ü.md", "# ü\n")
        try site.build()
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.output + "/pages/é.html"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: site.output + "/pages/ü.html"))
    }

    /// A 1 MB usage string on one line (as long as the property list limit allows): every quote and
    /// message is cut, so outputs stay small.
    func testHugeOneLineValuesAreClippedInEveryQuote() throws {
        let huge = String(repeating: "health ", count: 140_000)
        try site.edit("apps/veloride/VeloRide/Info.plist") {
            $0.replacingOccurrences(of: "<key>NSHealthShareUsageDescription</key>", with: "<key>NSHealthShareUsageDescription</key>\n\t<string>\(huge)</string>\n\t<key>Replaced</key>")
        }
        let audits = try site.audit().audits
        for finding in audits.flatMap(\.findings) {
            XCTAssertLessThanOrEqual(finding.quote.count, Clipped.quoteLimit + 1)
            XCTAssertLessThanOrEqual(finding.message.count, Clipped.messageLimit + 1)
        }
        let evidence = audits.flatMap(\.answers).flatMap(\.evidence)
        for item in evidence { XCTAssertLessThanOrEqual(item.quote.count, Clipped.quoteLimit + 1) }
        let quotes = audits.flatMap(\.findings).map(\.quote) + evidence.map(\.quote)
        XCTAssertTrue(quotes.contains { $0.contains("health health") && $0.hasSuffix("…") }, "the huge line was quoted, clipped: \(quotes.map { String($0.prefix(60)) })")
    }

    func testTooManyAppsIsAnInputErrorAtTheAppsKey() throws {
        let apps = (0...InputLimits.maxApps).map { "  - id: app\($0)\n    root: apps/steady\n" }.joined()
        try site.write("healthaudit.yml", "title: Many\napps:\n" + apps)
        let errors = inputErrors { try site.audit() }
        XCTAssertEqual(errors.map(\.description), ["healthaudit.yml:3:3: error: apps: 201 apps, over the limit of 200 per config; split the config"])
    }
}
