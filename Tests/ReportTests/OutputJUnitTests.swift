@testable import Checklist
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Manifest
import Report
import XCTest

final class OutputJUnitTests: XCTestCase {
    /// With `--fail-on note`, every active finding fails its rule's testcase.
    private func parse(_ audits: [AppAudit], failOn: Severity = .note) throws -> XMLDocument {
        var context = OutputFixture.context
        context.failOn = failOn
        return try XMLDocument(xmlString: JUnitReport.render(audits, context: context), options: [])
    }

    private func nodes(_ document: XMLDocument, _ xpath: String) throws -> [XMLElement] {
        try document.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }
    }

    func testOneSuitePerAppOneCasePerRuleFailuresForRulesWithFindings() throws {
        let audits = try OutputFixture.audits()
        let document = try parse(audits)
        // The fixture's apps are Swift apps: no React Native, Flutter or plugin rule is theirs.
        let applying = RuleCatalog.all.map { $0.description }.filter { $0.reads.isEmpty || $0.reads.contains(.swift) }
        let ruleCount = applying.count
        XCTAssertLessThan(ruleCount, RuleCatalog.all.count)
        let suites = try nodes(document, "/testsuites/testsuite")
        XCTAssertEqual(suites.map { $0.attribute(forName: "name")?.stringValue }, audits.map(\.manifest.id))
        XCTAssertEqual(try nodes(document, "//testcase").count, audits.count * ruleCount)
        XCTAssertEqual(try nodes(document, "/testsuites").first?.attribute(forName: "tests")?.stringValue, String(audits.count * ruleCount))
        let failing = audits.map { Set($0.activeFindings.map(\.ruleID)).count }
        XCTAssertEqual(try nodes(document, "//testcase/failure").count, failing.reduce(0, +))
        XCTAssertGreaterThanOrEqual(failing.reduce(0, +), 3, "the fixture fails several rules")
        for (suite, (audit, failures)) in zip(suites, zip(audits, failing)) {
            XCTAssertEqual(suite.attribute(forName: "tests")?.stringValue, String(ruleCount))
            XCTAssertEqual(suite.attribute(forName: "failures")?.stringValue, String(failures))
            let cases = suite.elements(forName: "testcase")
            XCTAssertTrue(cases.allSatisfy { $0.attribute(forName: "classname")?.stringValue == "healthaudit." + audit.manifest.id })
            XCTAssertEqual(cases.compactMap { $0.attribute(forName: "name")?.stringValue }, applying.map(\.id))
            XCTAssertFalse(cases.contains { ["rn-callback-error-as-denial", "flutter-permissions-unknown", "plugin-read-status"].contains($0.attribute(forName: "name")?.stringValue) })
        }
        XCTAssertEqual(try nodes(document, "/testsuites").first?.attribute(forName: "failures")?.stringValue, String(failing.reduce(0, +)))
    }

    func testFailureCarriesMessageLocationAndEveryFinding() throws {
        let audit = try OutputFixture.audit("veloride")
        let document = try parse([audit])
        let cached = try XCTUnwrap(try nodes(document, "//testcase[@name='authorization-remembered']/failure").first)
        let findings = audit.activeFindings.filter { $0.ruleID == "authorization-remembered" }
        XCTAssertGreaterThan(findings.count, 1)
        let message = try XCTUnwrap(cached.attribute(forName: "message")?.stringValue)
        XCTAssertTrue(message.hasPrefix("\(findings.count) findings; first at Site/\(findings[0].location.file):"), message)
        let body = try XCTUnwrap(cached.stringValue)
        for finding in findings {
            XCTAssertTrue(body.contains("Site/\(finding.location.file):\(finding.location.line!)"), body)
            XCTAssertTrue(body.contains(finding.quote), body)
        }
        XCTAssertEqual(cached.attribute(forName: "type")?.stringValue, "warning")
    }

    /// `--fail-on error` (the default): warnings and notes are listed, but only errors fail, as the
    /// exit status says.
    func testOnlyFindingsAtOrAboveFailOnFail() throws {
        let audit = try OutputFixture.audit(findings: [
            OutputFixture.finding("usage-string-missing", severity: .error),
            OutputFixture.finding("authorization-remembered", severity: .warning, line: 12),
            OutputFixture.finding("usage-string-repeated", severity: .note, line: 14),
        ])
        let document = try parse([audit], failOn: .error)
        XCTAssertEqual(try nodes(document, "//testcase/failure").compactMap { ($0.parent as? XMLElement)?.attribute(forName: "name")?.stringValue },
                       ["usage-string-missing"])
        let listed = try nodes(document, "//testcase[@name='authorization-remembered']/system-out")
        XCTAssertEqual(listed.count, 1)
        XCTAssertTrue(listed[0].stringValue?.contains(":12:") == true && listed[0].stringValue?.contains("warning:") == true, listed[0].stringValue ?? "")
        XCTAssertEqual(try nodes(document, "//testcase[@name='usage-string-repeated']/system-out").count, 1)
        XCTAssertEqual(try nodes(document, "/testsuites").first?.attribute(forName: "failures")?.stringValue, "1")

        let strict = try parse([audit], failOn: .warning)
        XCTAssertEqual(try nodes(strict, "//testcase/failure").count, 2)
        XCTAssertEqual(try nodes(strict, "//testsuite/properties/property[@name='fail-on']").first?.attribute(forName: "value")?.stringValue, "warning")
        XCTAssertEqual(try nodes(strict, "//testsuite/properties/property[@name='version']").first?.attribute(forName: "value")?.stringValue,
                       ToolInfo.currentVersion)
    }

    func testRuleWithOnlySuppressedFindingsIsSkipped() throws {
        let audit = try OutputFixture.audit(findings: [
            OutputFixture.finding("usage-string-vague", suppressed: .config),
            OutputFixture.finding("cached-authorization", suppressed: .inline),
            OutputFixture.finding("cached-authorization", line: 30),
        ])
        let document = try parse([audit])
        XCTAssertEqual(try nodes(document, "//testcase/skipped").count, 1)
        XCTAssertEqual(try nodes(document, "//testcase[@name='usage-string-vague']/skipped").first?.attribute(forName: "message")?.stringValue,
                       "suppressed: accepted for launch")
        XCTAssertEqual(try nodes(document, "//testcase/failure").count, 1)
        XCTAssertEqual(try nodes(document, "/testsuites/testsuite").first?.attribute(forName: "skipped")?.stringValue, "1")
    }

    func testUntrustedTextCannotBreakTheDocument() throws {
        let nasty = "</failure><testcase name=\"x\"/> & ]]> \u{0}\u{1b}[31m \"' \u{FFFE}"
        let audit = try OutputFixture.audit(findings: [OutputFixture.finding(message: nasty, quote: nasty)])
        let document = try parse([audit])
        XCTAssertEqual(try nodes(document, "//testcase").count, RuleCatalog.all.filter { $0.description.applies(to: audit.manifest) }.count)
        let failure = try XCTUnwrap(try nodes(document, "//failure").first)
        XCTAssertTrue(failure.stringValue?.contains("</failure><testcase name=\"x\"/> & ]]>") == true)
    }

    /// The same app read as a React Native app gets the JavaScript rules too; a rule that found
    /// something is listed whatever the app's kind.
    func testRulesFollowTheAppsKind() throws {
        var native = try OutputFixture.audit("steady")
        native.findings = [OutputFixture.finding("flutter-write-read-only", severity: .error)]
        var reactNative = try OutputFixture.audit("steady")
        reactNative.manifest.config.kind = .reactNative
        let document = try parse([native, reactNative])
        let suites = try nodes(document, "/testsuites/testsuite")
        let names = try suites.map { suite in try nodes(document, "/testsuites/testsuite[\(suites.firstIndex(of: suite)! + 1)]/testcase").compactMap { $0.attribute(forName: "name")?.stringValue } }
        XCTAssertTrue(names[0].contains("flutter-write-read-only"), "listed because it found something")
        XCTAssertFalse(names[0].contains("rn-callback-error-as-denial"))
        XCTAssertFalse(names[0].contains("flutter-permissions-unknown"))
        XCTAssertTrue(names[1].contains("rn-callback-error-as-denial") && names[1].contains("request-result-as-grant"), "\(names[1])")
        XCTAssertFalse(names[1].contains("flutter-write-read-only"))
        XCTAssertTrue(names[1].contains("read-status-probed"), "its Swift code is still read")
        XCTAssertEqual(suites.map { $0.attribute(forName: "tests")?.stringValue }, names.map { String($0.count) })
    }
}
