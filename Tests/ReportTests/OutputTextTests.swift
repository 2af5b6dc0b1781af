import Foundation
import Manifest
import Report
import XCTest

final class OutputTextTests: XCTestCase {
    func testCompilerStyleLinesAndSummary() throws {
        let audits = try OutputFixture.audits()
        var quiet = OutputFixture.context
        quiet.showsAnswers = false
        let lines = TextReport.render(audits, context: quiet).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, audits.flatMap(\.activeFindings).count + 1)
        let dict = try OutputFixture.line(of: "<dict>", in: "apps/trainer/Trainer/Info.plist")
        XCTAssertTrue(lines.contains { $0.hasPrefix("Site/apps/trainer/Trainer/Info.plist:\(dict): error: NSHealthUpdateUsageDescription is missing") && $0.hasSuffix(" [usage-string-missing]") })
        for line in lines.dropLast() {
            XCTAssertNotNil(line.firstMatch(of: /^Site\/[^:]+:\d+(:\d+)?: (error|warning|note): .+ \[[a-z0-9-]+\]$/), line)
        }
        XCTAssertGreaterThan(audits.count, 1)
        XCTAssertTrue(lines.last!.hasPrefix("\(audits.count) apps audited: "), lines.last!)
    }

    func testSuppressedOnlyWithShowSuppressedAndMessagesStayOnOneLine() throws {
        let audit = try OutputFixture.audit(findings: [
            OutputFixture.finding(message: "first\nsecond", line: 4, column: 2),
            OutputFixture.finding(message: "quiet", suppressed: .inline),
        ])
        var context = OutputFixture.context
        context.showsAnswers = false
        XCTAssertEqual(TextReport.render([audit], context: context).split(separator: "\n").first,
                       "Site/apps/veloride/VeloRide/Info.plist:4:2: warning: first second [usage-string-vague]")
        XCTAssertFalse(TextReport.render([audit], context: context).contains("quiet"))
        context.showSuppressed = true
        XCTAssertTrue(TextReport.render([audit], context: context).contains("warning: quiet [usage-string-vague] (suppressed, inline: accepted for launch)"))
    }

    func testPathsRelativeToTheSiteWhenRunInsideIt() throws {
        let finding = OutputFixture.finding(file: OutputFixture.site + "/healthaudit.yml", line: 3)
        XCTAssertTrue(TextReport.line(finding, context: OutputFixture.context).hasPrefix("Site/healthaudit.yml:3: "))
        let inside = OutputContext(sitePrefix: "", siteDirectory: OutputFixture.site)
        XCTAssertTrue(TextReport.line(finding, context: inside).hasPrefix("healthaudit.yml:3: "))
    }

    /// The headline first: per app its verdict and six lines (mark, number, the checklist's
    /// question, the answer, a short reason), then the findings; `--quiet` leaves the block out.
    func testSixAnswersPerAppComeBeforeTheFindings() throws {
        let audits = try OutputFixture.audits()
        let text = TextReport.render(audits, context: OutputFixture.context)
        let lines = text.components(separatedBy: "\n")
        let firstFinding = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("Site/") })
        for audit in audits {
            let header = try XCTUnwrap(lines.firstIndex(of: "\(audit.manifest.name) (\(audit.manifest.id)): \(audit.verdict.rawValue)"), text)
            XCTAssertLessThan(header, firstFinding)
            let block = lines[(header + 1)...(header + 6)]
            for (line, answer) in zip(block, audit.answers) {
                let question = answer.question.text.replacingOccurrences(of: "`", with: "'")
                XCTAssertTrue(line.hasPrefix("  \(answer.mark.rawValue) "), line)
                XCTAssertTrue(line.contains(" Q\(answer.question.rawValue) \(question) \(answer.status.rawValue) — "), line)
                XCTAssertFalse(line.contains("`"), "code spans are quoted as in the findings: \(line)")
                XCTAssertLessThanOrEqual(line.count, 4 + 8 + 4 + question.count + 16 + TextReport.reasonLimit + 2, line)
            }
            XCTAssertEqual(lines[header + 7], "", "a blank line closes each app's block")
        }
        let trainer = try OutputFixture.audit("trainer")
        XCTAssertTrue(trainer.answers.contains { $0.mark == .fail } && trainer.answers.contains { $0.mark == .pass }, "the fixture shows both marks")

        var quiet = OutputFixture.context
        quiet.showsAnswers = false
        let findingsOnly = TextReport.render(audits, context: quiet)
        XCTAssertTrue(text.hasSuffix(findingsOnly), "the findings and the count follow the block unchanged")
        XCTAssertFalse(findingsOnly.contains(" Q1 "))
    }

    /// An answer quotes the app (a reason names its files and values, the header its name): it is
    /// escaped as a finding's message is — one line, control and bidi characters and runner
    /// commands shown as escapes — and a long reason is cut to one short line.
    func testAnswersEscapeAppTextLikeFindings() throws {
        let hostile = "first\nsecond \u{202E}txt.exe ::error::x ##[group]"
        var audit = try OutputFixture.audit(findings: [OutputFixture.finding(message: hostile)])
        audit.manifest.config.name = "::warning::Name\rInjected"
        audit.answers[0].reason = hostile
        audit.answers[1].status = .cannotTell
        audit.answers[1].reason = "cannot tell — " + String(repeating: "`HKHealthStore` word ", count: 20)
        let text = TextReport.render([audit], context: OutputFixture.context)
        let lines = text.components(separatedBy: "\n")
        // Line breaks folded to spaces as in finding messages; a leading `:` escaped against `::command::`.
        XCTAssertEqual(lines[0], "\\u{003A}:warning::Name Injected (veloride): \(audit.verdict.rawValue)")
        let finding = try XCTUnwrap(lines.first { $0.hasPrefix("Site/") })
        let escapedMessage = try XCTUnwrap(finding.firstMatch(of: /warning: (.+) \[usage-string-vague\]/)).1
        XCTAssertTrue(lines[1].hasSuffix(" — " + escapedMessage), "reason escaped as the finding's message is:\n\(lines[1])\n\(finding)")
        XCTAssertTrue(lines[2].contains(" cannot tell — 'HKHealthStore' word"), lines[2])
        XCTAssertFalse(lines[2].contains("cannot tell — cannot tell"), lines[2])
        XCTAssertTrue(lines[2].hasSuffix(" …"), lines[2])
        XCTAssertLessThan(lines[2].count, 260, lines[2])
        XCTAssertEqual(lines.count, 1 + 6 + 1 + 1 + 1 + 1, text)
    }
}
