@testable import Checklist
import Foundation
import Manifest
@testable import Report
import SiteBuild
import XCTest
import TestSupport

/// The JSON result read back (`build --results`): what `check` writes validates against the
/// shipped schema with its summaries, and reads back into the same page model.
final class ResultReaderTests: XCTestCase {
    /// The fixture's audits with their simulation, as `check --format json` writes them.
    private func simulatedResult() throws -> (text: String, state: BuildState) {
        _ = try OutputFixture.audits()
        let options = BuildOptions(siteDirectory: OutputFixture.site, templatesDirectory: Repository.templates,
                                   clock: FixedClock(DayDate(year: 2026, month: 4, day: 1)), log: SilentLog())
        let state = try Pipeline.auditAndSimulate.run(options)
        var context = OutputFixture.context
        context.summaries = state.summaries
        context.title = "Fleet"
        context.source = ResultSource(commit: String(repeating: "ab", count: 20), urlTemplate: "https://forge.example/r/blob/{commit}/{path}#L{line}", sitePath: "Site")
        return (JSONReport.render(state.audits, context: context), state)
    }

    func testResultWithSummariesValidatesAgainstTheShippedSchema() throws {
        let schema = try OutputFixture.writeTemporary(ReportSchema.text)
        defer { try? FileManager.default.removeItem(atPath: schema) }
        let (text, _) = try simulatedResult()
        XCTAssertTrue(text.contains("\"simulation\": {"), "check writes each app's summaries")
        XCTAssertEqual(try OutputFixture.schemaErrors(text, schemaPath: schema), [])
    }

    func testResultReadsBackIntoTheSamePageModel() throws {
        let (text, state) = try simulatedResult()
        let result = try ResultReader.read(Data(text.utf8))
        XCTAssertEqual(result.title, "Fleet")
        XCTAssertEqual(result.source.commit, String(repeating: "ab", count: 20))
        XCTAssertEqual(result.apps.map(\.id), state.audits.map(\.manifest.id))
        for (read, audit) in zip(result.apps, state.audits) {
            let original = AppReport(audit: audit, summary: state.summaries[audit.manifest.id])
            XCTAssertEqual(read.findings, original.findings, "paths come back relative to the site: \(read.id)")
            XCTAssertEqual(read.verdict, original.verdict)
            XCTAssertEqual(read.declared, original.declared)
            XCTAssertEqual(read.answers.map(\.reason), original.answers.map(\.reason))
            let days = try XCTUnwrap(read.simulation?.days), originalDays = try XCTUnwrap(original.simulation?.days)
            XCTAssertEqual(days.map(\.stepsByHour), originalDays.map(\.stepsByHour), "numbers read back exactly")
            XCTAssertEqual(days.map(\.sleep), originalDays.map(\.sleep))
            XCTAssertEqual(days.flatMap(\.metrics), originalDays.flatMap(\.metrics))
            XCTAssertEqual(read.simulation?.scenarios, original.simulation?.scenarios)
            XCTAssertEqual(read.sourceLinks?.url(file: "apps/x/Info.plist", line: 3), "https://forge.example/r/blob/\(String(repeating: "ab", count: 20))/Site/apps/x/Info.plist#L3")
        }
    }

    func testEveryProblemSaysWhereInTheResult() throws {
        let (text, _) = try simulatedResult()
        func problem(_ edit: (String) -> String) -> String {
            do { _ = try ResultReader.read(Data(edit(text).utf8)); return "read" } catch { return error.description }
        }
        XCTAssertEqual(problem { $0.replacingOccurrences(of: "\"id\": \"trainer\"", with: "\"id\": \"../../etc\"") },
                       "apps[1].id: '../../etc' is not an app id: it must match [a-z0-9][a-z0-9-]* (at most 64 characters), as it becomes a folder name")
        XCTAssertTrue(problem { $0.replacingOccurrences(of: "\"ruleId\": \"usage-string-missing\"", with: "\"ruleId\": \"no-such-rule\"") }
            .hasSuffix(".ruleId: rule 'no-such-rule' is not known to healthaudit \(ToolInfo.currentVersion) (the result was written by \(ToolInfo.currentVersion)); assemble results with the version that wrote them, or a later one"))
        XCTAssertEqual(problem { $0.replacingOccurrences(of: "\"urlTemplate\": \"https:", with: "\"urlTemplate\": \"javascript:") },
                       "source.urlTemplate: must be an http(s) URL, found 'javascript://forge.example/r/blob/{commit}/{path}#L{line}'")
        XCTAssertEqual(problem { $0.replacingOccurrences(of: "\"schemaVersion\": 3", with: "\"schemaVersion\": 2") },
                       "schemaVersion: schemaVersion 2 is not read by this healthaudit (it reads 3): write the result with `healthaudit check --format json` of version \(ToolInfo.currentVersion)")
        XCTAssertTrue(problem { $0.replacingOccurrences(of: "\"severity\": \"error\"", with: "\"severity\": \"fatal\"") }
            .hasSuffix(".severity: 'fatal' is not one of note, warning, error"))
        XCTAssertEqual(problem { String($0.dropLast(3)) }, "not valid JSON: \(text.split(separator: "\n").count - 1):4: expected ',' or '}' in an object")
    }

    func testPathsComeBackRelativeToTheSite() {
        XCTAssertEqual(ResultPaths(site: "Site").siteRelative("Site/apps/x/Info.plist"), "apps/x/Info.plist")
        XCTAssertEqual(ResultPaths(site: ".").siteRelative("apps/x/Info.plist"), "apps/x/Info.plist")
        XCTAssertEqual(ResultPaths(site: "tools/audit").siteRelative("tools/MyApp/Info.plist"), "../MyApp/Info.plist", "an app beside the config's folder")
        XCTAssertEqual(ResultPaths(site: "../Site").siteRelative("../Site/apps/x"), "apps/x")
        XCTAssertEqual(ResultPaths(site: "../Site").siteRelative("other/x"), "other/x", "no way to tell: kept as written")
        XCTAssertEqual(ResultPaths(site: "Site").siteRelative("/abs/x"), "/abs/x")
    }

    func testParserIsStrictAndExact() throws {
        func fails(_ text: String) -> String? {
            do { _ = try JSONParser.parse(Data(text.utf8)); return nil } catch { return error.description }
        }
        XCTAssertEqual(fails(#"{"a": 1, "a": 2}"#), "1:10: duplicate key \"a\"")
        XCTAssertEqual(fails("{\n  \"a\": [1,]\n}"), "2:11: unexpected character where a value was expected")
        XCTAssertEqual(fails(#"["\ud800"]"#), "1:9: a lone surrogate in a \\u escape")
        XCTAssertEqual(fails("[" + String(repeating: "[", count: 80) + String(repeating: "]", count: 81)), "1:65: nested deeper than 64 levels")
        XCTAssertEqual(fails("01"), "1:2: unexpected text after the document")
        XCTAssertEqual(fails("\"a\u{1}\""), "1:3: a control character must be escaped in a string")
        XCTAssertEqual(try JSONParser.parse(Data(#"["\ud83d\ude00", "\u00e9\n"]"#.utf8)), .array(["😀", "é\n"]))
        for value in [0.1, 1.0 / 3, 24.0, 1e-05, 123_456.789, -0.5, 5e300] {
            let text = JSONValue.array([.number(value)]).serialized()
            XCTAssertEqual(try JSONParser.parse(Data(text.utf8)), .array([.number(value)]), text)
        }
        XCTAssertEqual(try JSONParser.parse(Data("[12, -3, 1e2]".utf8)), .array([.int(12), .int(-3), .number(100)]))
    }
}
