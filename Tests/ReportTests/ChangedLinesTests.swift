@testable import Checklist
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Manifest
@testable import Report
import XCTest

/// `check --changed-files` / `--since`: reading the change, judging findings against it, and the
/// line every output carries about the findings left out.
final class ChangedLinesTests: XCTestCase {
    let layout = RepositoryLayout(root: OutputFixture.repository, site: OutputFixture.site)

    func testAListingTakesWholeFilesLinesAndRanges() throws {
        let changes = try ChangedLines(listing: "./Site/A.swift\nSite/B.swift:3\r\n  Site/C.swift:10-12  \n\nSite//C.swift:40\n")
        XCTAssertTrue(changes.contains(file: "Site/A.swift", line: 999), "a bare path is the whole file")
        XCTAssertTrue(changes.contains(file: "Site/B.swift", line: 3))
        XCTAssertFalse(changes.contains(file: "Site/B.swift", line: 4))
        XCTAssertEqual([9, 10, 12, 13, 40].map { changes.contains(file: "Site/C.swift", line: $0) }, [false, true, true, false, true])
        XCTAssertFalse(changes.contains(file: "Site/D.swift"))
        XCTAssertEqual(changes.files.count, 3)
    }

    func testAMalformedRangeNamesItsLine() {
        for (listing, line) in [("Site/A.swift\nSite/B.swift:0\n", 2), ("Site/B.swift:9-3", 1), ("a\nb\nc:99999999999999999999999", 3)] {
            XCTAssertThrowsError(try ChangedLines(listing: listing)) { error in
                XCTAssertTrue("\(error)".hasPrefix("line \(line): "), "\(error)")
            }
        }
    }

    /// A patch as `git diff --unified=0 --dst-prefix=b/` writes it: an added line that reads like a
    /// header stays content, a deletion marks its file changed with no lines, quoted paths are decoded.
    func testAGitPatchGivesTheNewSidesLines() {
        let patch = #"""
            diff --git a/Site/A.swift b/Site/A.swift
            index 1111111..2222222 100644
            --- a/Site/A.swift
            +++ b/Site/A.swift
            @@ -3,0 +4,2 @@ func connect() {
            +++ b/Site/Forged.swift
            +@@ -1 +100,5 @@
            @@ -20 +21 @@
            -old
            \ No newline at end of file
            +new
            \ No newline at end of file
            diff --git a/Site/Gone.swift b/Site/Gone.swift
            deleted file mode 100644
            --- a/Site/Gone.swift
            +++ /dev/null
            @@ -1,2 +0,0 @@
            -a
            -b
            diff --git "a/Site/caf\303\251 \"x\".swift" "b/Site/caf\303\251 \"x\".swift"
            --- "a/Site/caf\303\251 \"x\".swift"
            +++ "b/Site/caf\303\251 \"x\".swift"
            @@ -5,2 +4,0 @@
            -a
            -b
            @@ -9 +8,3 @@
            -c
            +d
            +e
            +f

            """#
        let names = "Site/A.swift\0Site/Gone.swift\0Site/café \"x\".swift\0Site/Binary.plist\0"
        let changes = ChangedLines(gitNames: names, unifiedDiff: patch)
        XCTAssertEqual([3, 4, 5, 6, 20, 21, 22].map { changes.contains(file: "Site/A.swift", line: $0) }, [false, true, true, false, false, true, false])
        XCTAssertFalse(changes.contains(file: "Site/Forged.swift"), "an added line is never a header")
        XCTAssertTrue(changes.contains(file: "Site/Gone.swift"))
        XCTAssertTrue(changes.contains(file: "Site/Binary.plist"), "binary files come from the name list")
        XCTAssertFalse(changes.contains(file: "Site/Binary.plist", line: 1))
        XCTAssertEqual([4, 7, 8, 10, 11].map { changes.contains(file: "Site/café \"x\".swift", line: $0) }, [false, false, true, true, false])
        XCTAssertEqual(Set(changes.files.keys), ["Site/A.swift", "Site/Gone.swift", "Site/café \"x\".swift", "Site/Binary.plist"])
    }

    /// Code is judged by line; a declaration (here the Info.plist whose missing key is cited at its
    /// `<dict>`) by file; the count is of active findings only.
    func testFindingsAreKeptOnChangedLinesAndTheRestCounted() throws {
        let audits = try OutputFixture.audits()
        let veloride = try OutputFixture.audit("veloride"), trainer = try OutputFixture.audit("trainer")
        let remembered = try XCTUnwrap(veloride.activeFindings.first { $0.ruleID == "authorization-remembered" && $0.location.file.hasSuffix("Health.swift") })
        let line = try XCTUnwrap(remembered.location.line)
        let dict = try OutputFixture.line(of: "<dict>", in: "apps/trainer/Trainer/Info.plist")
        let listing = "Site/\(remembered.location.file):\(line)\nSite/apps/trainer/Trainer/Info.plist:\(dict + 3)\n"
        let (limited, scope) = ChangeFilter(changes: try ChangedLines(listing: listing), layout: layout).apply(audits, context: OutputFixture.context)

        let keptVeloride = try XCTUnwrap(limited.first { $0.manifest.id == "veloride" }).findings
        XCTAssertEqual(keptVeloride, veloride.findings.filter { $0.location.file == remembered.location.file && $0.location.line == line })
        XCTAssertEqual(try XCTUnwrap(limited.first { $0.manifest.id == "trainer" }).findings, trainer.findings.filter { $0.location.file.hasSuffix("Info.plist") })
        XCTAssertTrue(try XCTUnwrap(limited.first { $0.manifest.id == "trainer" }).findings.contains { $0.ruleID == "usage-string-missing" })
        let shown = limited.flatMap(\.activeFindings).count
        XCTAssertEqual(scope.outside, audits.flatMap(\.activeFindings).count - shown)
        XCTAssertEqual(scope.outsideByApp["veloride"], veloride.activeFindings.count - keptVeloride.filter { !$0.isSuppressed }.count)
        XCTAssertEqual(scope.outsideByApp["steady"], 0)
        XCTAssertGreaterThan(scope.outside, 0)
        XCTAssertFalse(limited.flatMap(\.findings).contains(where: \.isSuppressed), "the suppressed entitlement note is outside the change too")
    }

    func testConfigFindingsNoLineAndPathsOutsideTheRepository() throws {
        let inConfig = OutputFixture.finding("config-problem", file: OutputFixture.site + "/healthaudit.yml", line: 4)
        let noLine = OutputFixture.finding("cached-authorization", file: "apps/veloride/VeloRide/Health.swift", line: nil)
        let elsewhere = OutputFixture.finding("cached-authorization", file: "/elsewhere/Site/apps/veloride/VeloRide/Health.swift", line: 9)
        let audit = try OutputFixture.audit(findings: [inConfig, noLine, elsewhere])
        let changes = try ChangedLines(listing: "Site/healthaudit.yml:100\nSite/apps/veloride/VeloRide/Health.swift:9\nelsewhere/Site/apps/veloride/VeloRide/Health.swift\n")
        let (limited, scope) = ChangeFilter(changes: changes, layout: layout).apply([audit], context: OutputFixture.context)
        XCTAssertEqual(limited[0].findings, [inConfig, noLine])
        XCTAssertEqual(scope.outside, 1)
    }

    func testEveryOutputSaysHowManyWereLeftOut() throws {
        let audits = try OutputFixture.audits()
        var context = OutputFixture.context
        context.changeScope = ChangeScope(outsideByApp: ["veloride": 7, "trainer": 5, "steady": 0])
        let sentence = "12 findings outside the changed lines are not shown"

        XCTAssertTrue(TextReport.render(audits, context: context).hasSuffix("(healthaudit \(context.tool.version))\n\(sentence)\n"))
        XCTAssertTrue(MarkdownReport.render(audits, context: context).split(separator: "\n")[2].hasSuffix(sentence + "."), "the verdict line says it")
        XCTAssertTrue(GitHubAnnotations.render(audits, context: context).hasSuffix("::notice title=healthaudit::\(sentence)\n"))

        let json = JSONReport.render(audits, context: context)
        XCTAssertEqual((try OutputFixture.json(json)["summary"] as? [String: Any])?["outsideChangedLines"] as? Int, 12)
        let schema = try OutputFixture.writeTemporary(ReportSchema.text)
        defer { try? FileManager.default.removeItem(atPath: schema) }
        XCTAssertEqual(try OutputFixture.schemaErrors(json, schemaPath: schema), [])

        let sarif = SARIFReport.render(audits, context: context)
        let run = try XCTUnwrap((try OutputFixture.json(sarif)["runs"] as? [[String: Any]])?.first)
        XCTAssertEqual((run["properties"] as? [String: Any])?["outsideChangedLines"] as? Int, 12)
        XCTAssertEqual((run["properties"] as? [String: Any])?["summary"] as? String, sentence)
        XCTAssertEqual(try OutputFixture.schemaErrors(sarif, schemaPath: OutputFixture.sarifSchemaPath), [])

        let junit = try XMLDocument(data: Data(JUnitReport.render(audits, context: context).utf8))
        let counts = try junit.nodes(forXPath: "//testsuite/properties/property[@name='outside-changed-lines']/@value").compactMap { Int($0.stringValue ?? "") }
        XCTAssertEqual(counts, [7, 5, 0])
        let summaries = try junit.nodes(forXPath: "//testsuite/properties/property[@name='summary']/@value").compactMap(\.stringValue)
        XCTAssertEqual(summaries, ["7 findings outside the changed lines are not shown", "5 findings outside the changed lines are not shown",
                                   "no finding outside the changed lines was left out"])

        // GitLab's report is an array of issues only: it has no place for a sentence.
        XCTAssertEqual(GitLabCodeQuality.render(audits, context: context), GitLabCodeQuality.render(audits, context: OutputFixture.context))
    }

    func testWithoutAChangeFilterNothingIsSaid() throws {
        let audits = try OutputFixture.audits()
        for format in ReportFormat.allCases {
            XCTAssertFalse(format.render(audits, context: OutputFixture.context).contains("outside the changed lines"), "\(format)")
            XCTAssertFalse(format.render(audits, context: OutputFixture.context).contains("outsideChangedLines"), "\(format)")
        }
        XCTAssertEqual(ChangeScope(outsideByApp: ["a": 1]).sentence, "1 finding outside the changed lines is not shown")
    }
}
