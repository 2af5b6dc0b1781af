import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Checklist
import Manifest
import Report
import SiteBuild
import XCTest
import TestSupport

/// The payload in every string of one app must stay data in every CI format: no forged
/// annotation, test case, link, mention or compiler-style line.
final class ReportInjectionTests: XCTestCase {
    /// One line that reaches a finding's quote (the Swift line), then a line break that only the
    /// multi-line fields (app name, usage strings) carry.
    static let payload = "::error file=evil.swift,line=1::forged %0A ]]></failure></testcase><testcase name=\"forged\"> "
        + "@octocat | cell [x](https://evil.example/a) <b>bold</b>\nevil.swift:1:1: error: forged finding"

    /// The site with the payload in every string of Steady, and its audit: made once, read by
    /// every test but the one that adds a file (it injects into a site of its own).
    static let injected = SharedFixture { () throws -> (site: TestSite, audits: [AppAudit]) in
        let site = try TestSite(prefix: "healthaudit-shared-injected")
        SharedFixture<Void>.removeAtExit(site.root)
        try site.inject(payload)
        return (site, try site.audit().audits)
    }

    var site: TestSite { get throws { try Self.injected.get().site } }
    var audits: [AppAudit] { get throws { try Self.injected.get().audits } }

    func render(_ format: ReportFormat) throws -> (text: String, audits: [AppAudit]) {
        let audits = try self.audits
        let site = try self.site
        let steady = try XCTUnwrap(audits.first { $0.manifest.id == "steady" })
        XCTAssertTrue(steady.findings.contains { $0.quote.contains("::error file=evil.swift") }, "the payload reached a finding's quote")
        let context = OutputContext(sitePrefix: "Site", siteDirectory: site.site)
        return (format.render(audits, context: context), audits)
    }

    func testGitHubAnnotationsAreOneCommandPerFinding() throws {
        let (text, audits) = try render(.github)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, audits.flatMap(\.activeFindings).count)
        for line in lines {
            XCTAssertTrue(["::error ", "::warning ", "::notice "].contains { line.hasPrefix($0) }, String(line))
            XCTAssertFalse(line.hasPrefix("::error file=evil.swift"), String(line))
        }
        // The payload is there, encoded: its newline as %0A, its own "%0A" as %250A.
        XCTAssertTrue(text.contains("::error file=evil.swift,line=1::forged %250A"), text)
    }

    func testJUnitStaysWellFormedWithNoForgedTestCase() throws {
        let (text, _) = try render(.junit)
        let document = try XMLDocument(data: Data(text.utf8))
        XCTAssertEqual(try document.nodes(forXPath: "//testcase[@name='forged']").count, 0)
        XCTAssertGreaterThan(try document.nodes(forXPath: "//testcase").count, 0)
        let failures = try document.nodes(forXPath: "//failure").compactMap(\.stringValue)
        XCTAssertTrue(failures.contains { $0.contains("]]></failure></testcase><testcase name=\"forged\">") }, "the payload is text")
    }

    func testSARIFAndJSONCarryThePayloadAsAString() throws {
        for format in [ReportFormat.sarif, .json] {
            let (text, _) = try render(format)
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
            XCTAssertTrue(strings(in: object).contains { $0.contains("::error file=evil.swift,line=1::forged %0A ]]>") }, "\(format)")
        }
    }

    func testMarkdownCommentHasNoLinkMentionOrBlockFromTheApp() throws {
        let (text, _) = try render(.markdown)
        XCTAssertTrue(text.contains("@\u{200B}octocat"))
        for line in text.split(separator: "\n") {
            XCTAssertFalse(line.hasPrefix("::") || line.hasPrefix("evil.swift"), String(line))
        }
        let html = CMarkDocument(markdown: text).html()
        XCTAssertFalse(html.contains("href=\"https://evil.example"), "the payload's link stays text")
        XCTAssertFalse(html.contains("<b>bold</b>"))
        // GitHub links mentions everywhere but in code: outside code spans, a zero-width space breaks them.
        let outsideCode = html.replacingOccurrences(of: "<code>[^<]*</code>", with: "", options: .regularExpression)
        XCTAssertFalse(outsideCode.contains("@octocat"), outsideCode)
        // The one table (the answers) keeps its column count: the payload's `|` is escaped.
        let rendered = GFMComment.render(text)
        XCTAssertEqual(rendered.tables.count, 1)
        XCTAssertEqual(Set(rendered.tables[0].map(\.count)), [8], "\(rendered.tables)")
        // GitHub also links bare URLs and `www.` names in text (its autolink extension, which
        // libcmark here lacks): outside code spans the Markdown holds neither as written (`\:` breaks a URL).
        for line in text.split(separator: "\n") {
            let outsideCode = line.replacing(/`+[^`]*`+/, with: "").replacing(/\]\(<[^>]*>\)/, with: "]")
            XCTAssertFalse(outsideCode.replacingOccurrences(of: "\\:", with: "").contains("://") || outsideCode.lowercased().contains("www."), String(line))
        }
        XCTAssertTrue(rendered.text.contains("cell [x](https://evil.example/a) <b>bold</b>"), "the payload reads as typed")
    }

    /// GitLab Code Quality: one issue per active finding, nothing forged, the payload a string
    /// that reads back exactly, as a message and as a path.
    func testGitLabIssuesCarryThePayloadAsStrings() throws {
        let (text, audits) = try render(.gitlab)
        let issues = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        XCTAssertEqual(issues.count, audits.flatMap(\.activeFindings).count, "one issue per finding, none forged")
        XCTAssertTrue(issues.allSatisfy { Set($0.keys) == ["description", "check_name", "fingerprint", "severity", "location"] })

        var steady = try XCTUnwrap(audits.first { $0.manifest.id == "steady" })
        steady.findings = [Finding(ruleID: "usage-string-vague", severity: .warning, message: Self.payload,
                                   location: FileLocation(file: "apps/steady/" + Self.payload, line: 3), quote: Self.payload, target: "steady")]
        let context = try OutputContext(sitePrefix: "Site", siteDirectory: site.site)
        let one = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(GitLabCodeQuality.render([steady], context: context).utf8)) as? [[String: Any]])
        XCTAssertEqual(one.count, 1)
        XCTAssertEqual(one[0]["description"] as? String, Self.payload)
        XCTAssertEqual((one[0]["location"] as? [String: Any])?["path"] as? String, context.repositoryPath("apps/steady/" + Self.payload))
    }

    /// The pull-request comment's marker is built from app ids: an id carrying the payload (the
    /// config refuses one, the marker does not rely on it) stays inside one comment on one line.
    func testTheCommentMarkerHoldsAHostileAppID() throws {
        var steady = try XCTUnwrap(try audits.first { $0.manifest.id == "steady" })
        steady.manifest.config.id = "--> " + Self.payload + " <!--"
        let text = try MarkdownReport.render([steady], context: OutputContext(sitePrefix: "Site", siteDirectory: site.site))
        let first = try XCTUnwrap(text.split(separator: "\n").first)
        XCTAssertTrue(first.hasPrefix("<!-- healthaudit:-%2D%3E%20%3A%3Aerror%20file%3Devil.swift"), String(first))
        XCTAssertEqual(first.ranges(of: "-->").count, 1)
        XCTAssertTrue(first.hasSuffix(" -->"))
        XCTAssertEqual(first.ranges(of: "<!--").count, 1)
    }

    func testTextReportHasNoForgedFindingLine() throws {
        let (text, audits) = try render(.text)
        // The answers quote the payload too (the app's name, a reason): no line starts as a finding or a runner command.
        XCTAssertTrue(text.contains(" Q1 "), text)
        XCTAssertFalse(text.split(separator: "\n").contains { $0.hasPrefix("evil.swift") || $0.trimmingCharacters(in: .whitespaces).hasPrefix("::") }, text)
        var quiet = try OutputContext(sitePrefix: "Site", siteDirectory: site.site)
        quiet.showsAnswers = false
        let findingLines = TextReport.render(audits, context: quiet).split(separator: "\n")
            .filter { $0.contains(": error: ") || $0.contains(": warning: ") || $0.contains(": note: ") }
        XCTAssertFalse(findingLines.contains { $0.hasPrefix("evil.swift") }, text)
        XCTAssertEqual(findingLines.count, audits.flatMap(\.activeFindings).count, text)
    }

    /// A source file whose name carries a line break, a workflow command and `#`: every format keeps
    /// it inside its location field, and the site still builds with the page for it.
    func testAFileNameWithALineBreakAndHashStaysOneLocation() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.inject(Self.payload)
        let name = "Probe\n::error file=evil.swift::forged #1.swift"
        try site.write("apps/steady/Steady/Health/" + name, """
            import HealthKit

            func mayShowBirthday(store: HKHealthStore) -> Bool {
                store.authorizationStatus(for: HKCharacteristicType(.dateOfBirth)) == .sharingAuthorized
            }

            """)
        let audits = try site.audit().audits
        XCTAssertTrue(audits.flatMap(\.findings).contains { $0.location.file.hasSuffix(name) }, "the file was audited")
        let context = OutputContext(sitePrefix: "Site", siteDirectory: site.site)
        for format in [ReportFormat.text, .github, .markdown] {
            let text = format.render(audits, context: context)
            for line in text.split(separator: "\n") {
                XCTAssertFalse(line.hasPrefix("::error file=evil.swift"), "\(format): \(line)")
            }
        }
        XCTAssertTrue(ReportFormat.text.render(audits, context: context).contains("Probe ::error file=evil.swift::forged #1.swift:4:"))
        XCTAssertTrue(ReportFormat.github.render(audits, context: context).contains("Probe%0A%3A%3Aerror file=evil.swift%3A%3Aforged #1.swift"))
        try site.build()
    }

    /// A right-to-left override makes `fdp.swift` read as `swift.pdf`, an escape sequence recolours a
    /// terminal: in text, Markdown and annotations they are shown as `\u{…}` escapes.
    func testBidiAndControlCharactersAreShownEscaped() throws {
        let hostile = "ok\u{202E}txt.exe\u{1B}[31m\u{2066}x\u{2069}"
        var audit = try XCTUnwrap(try audits.first { $0.manifest.id == "steady" })
        audit.findings = [Finding(ruleID: "usage-string-missing", severity: .error, message: "bad " + hostile,
                                  location: FileLocation(file: "App/\u{202E}fdp.swift", line: 3), quote: "q " + hostile, target: "steady")]
        let context = try OutputContext(sitePrefix: "Site", siteDirectory: site.site)
        for output in [TextReport.render([audit], context: context), GitHubAnnotations.render([audit], context: context),
                       MarkdownReport.render([audit], context: context)] {
            XCTAssertFalse(output.unicodeScalars.contains { VisibleText.isInvisible($0) }, output)
            XCTAssertTrue(output.contains("u{202E}"), output)
        }
        XCTAssertTrue(TextReport.render([audit], context: context).contains("bad ok\\u{202E}txt.exe\\u{001B}[31m\\u{2066}x\\u{2069}"))
    }

    func strings(in value: Any) -> [String] {
        switch value {
        case let text as String: return [text]
        case let array as [Any]: return array.flatMap(strings(in:))
        case let object as [String: Any]: return object.values.flatMap(strings(in:))
        default: return []
        }
    }
}
