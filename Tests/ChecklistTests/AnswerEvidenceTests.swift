import Checklist
import Foundation
import Manifest
import TestSupport
import XCTest

/// Every answer is a claim with evidence (`../shared/checklist-answers.md`): over every example app
/// — the embedded `Site/`, every rule's triggering and non-triggering examples, and the answer
/// fixtures — each yes / no cites at least one place, every cited place is a real line of a file
/// the audit read whose text is the quote, and every place the reason names is one it cites.
final class AnswerEvidenceTests: XCTestCase {
    /// `name.ext:line` as reasons and messages name places.
    static let placePattern = try! NSRegularExpression(pattern: #"([A-Za-z0-9_+\-.]+\.[A-Za-z]+):(\d+)"#)

    /// Problems with one audit's answers; `root` is the folder the evidence paths are relative to.
    static func problems(in audit: AppAudit, root: String) -> [String] {
        problems(in: audit.answers, app: audit.manifest.id, root: root)
    }

    static func problems(in answers: [Answer], app: String, root: String) -> [String] {
        var problems: [String] = []
        for answer in answers {
            let label = "\(app) Q\(answer.question.rawValue) (\(answer.status.rawValue): \(answer.reason))"
            if (answer.status == .yes || answer.status == .no) && answer.evidence.isEmpty {
                problems.append("\(label): a yes or no cites nothing")
            }
            for evidence in answer.evidence {
                if let problem = quoteProblem(evidence, root: root) { problems.append("\(label): \(problem)") }
            }
            let cited = Set(answer.evidence.map(\.place))
            let reason = answer.reason as NSString
            for match in placePattern.matches(in: answer.reason, range: NSRange(location: 0, length: reason.length)) {
                let place = reason.substring(with: match.range)
                if !cited.contains(place) { problems.append("\(label): names \(place) without citing it") }
            }
        }
        return problems
    }

    /// Why a piece of evidence is not the file's text at its line, or nil when it is. A quote is
    /// text of the line as written — the whole line trimmed, or the part a rule looked at (a string
    /// catalog's key) — and a property list key's quote may run on to its value's line; a long one
    /// is clipped with "…".
    static func quoteProblem(_ evidence: Evidence, root: String) -> String? {
        let where_ = evidence.location.description
        guard let line = evidence.location.line else { return "\(where_) cites no line" }
        guard let data = FileManager.default.contents(atPath: root + "/" + evidence.location.file) else { return "\(where_): no such file" }
        if data.starts(with: Array("bplist".utf8)) { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard line >= 1, line <= lines.count else { return "\(where_): the file has \(lines.count) lines" }
        var quote = evidence.quote
        let clipped = quote.hasSuffix("…") && quote.unicodeScalars.count > Clipped.quoteLimit
        if clipped { quote = String(quote.dropLast()) }
        let here = lines[line - 1]
        let withNext = line < lines.count ? here + " " + lines[line] : here
        guard !quote.trimmingCharacters(in: .whitespaces).isEmpty else { return "\(where_) quotes nothing" }
        let matches = clipped ? withNext.hasPrefix(quote) : (here.contains(quote) || quote == withNext)
        return matches ? nil : "\(where_) quotes \"\(evidence.quote)\" but the line is \"\(here)\""
    }

    /// Writes an example, audits it and checks its answers against the files on disk.
    static func problems(of example: RuleExample, named name: String) throws -> [String] {
        let directory = Repository.temporaryDirectory("healthaudit-answers")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try example.write(to: directory)
        let config = try ConfigLoader().load(siteDirectory: directory)
        let audit = Checklist().audit(ManifestLoader(siteDirectory: directory).loadIsolating(config.apps[0]))
        return problems(in: audit, root: directory).map { "\(name): \($0)" }
    }

    func testTheExampleSitesAnswersCiteRealLines() throws {
        let config = try ConfigLoader().load(siteDirectory: Repository.site)
        XCTAssertFalse(config.apps.isEmpty)
        for app in config.apps {
            let audit = Checklist().audit(try ManifestLoader(siteDirectory: Repository.site).load(app))
            let problems = Self.problems(in: audit, root: Repository.site)
            XCTAssertTrue(problems.isEmpty, problems.joined(separator: "\n"))
        }
    }

    func testEveryRuleExamplesAnswersCiteRealLines() throws {
        var examples: [(example: RuleExample, name: String)] = []
        for rule in RuleCatalog.all {
            let description = rule.description
            for (kind, kindExamples) in [("triggering", description.triggering), ("non-triggering", description.nonTriggering)] {
                for (index, example) in kindExamples.enumerated() {
                    examples.append((example, "\(description.id) \(kind) #\(index + 1)"))
                }
            }
        }
        // Each example in a folder of its own: audited on every core, the problems in catalogue order.
        let problems = try ParallelMap.map(examples) { item in Result { try Self.problems(of: item.example, named: item.name) } }
            .flatMap { try $0.get() }
        XCTAssertGreaterThan(examples.count, 100, "every rule's examples are audited")
        XCTAssertTrue(problems.isEmpty, "\(problems.count) problems:\n" + problems.joined(separator: "\n"))
    }

    func testTheAnswerFixturesAnswersCiteRealLines() throws {
        var problems: [String] = []
        for (name, example) in AnswerFixtures.all { problems += try Self.problems(of: example, named: name) }
        XCTAssertTrue(problems.isEmpty, problems.joined(separator: "\n"))
    }

    func testTheFindingsSitesAnswersCiteRealLines() throws {
        let site = try TestSite(files: InlineApp.findingsSite)
        defer { site.remove() }
        let config = try ConfigLoader().load(siteDirectory: site.site)
        for app in config.apps {
            let audit = Checklist().audit(try ManifestLoader(siteDirectory: site.site).load(app))
            let problems = Self.problems(in: audit, root: site.site)
            XCTAssertTrue(problems.isEmpty, problems.joined(separator: "\n"))
        }
    }

    /// The check itself fails on what it is meant to catch.
    func testTheCheckCatchesAMisquoteAWrongLineAndAnUncitedPlace() throws {
        let directory = Repository.temporaryDirectory("healthaudit-answers")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "let a = 1\n    let b = 2\n".write(toFile: directory + "/A.swift", atomically: true, encoding: .utf8)
        XCTAssertNil(Self.quoteProblem(Evidence(location: FileLocation(file: "A.swift", line: 2), quote: "let b = 2"), root: directory))
        XCTAssertNotNil(Self.quoteProblem(Evidence(location: FileLocation(file: "A.swift", line: 1), quote: "let b = 2"), root: directory))
        XCTAssertNotNil(Self.quoteProblem(Evidence(location: FileLocation(file: "A.swift", line: 3), quote: ""), root: directory), "an empty quote shows nothing")
        XCTAssertNotNil(Self.quoteProblem(Evidence(location: FileLocation(file: "A.swift", line: 4), quote: "let a = 1"), root: directory))
        XCTAssertNotNil(Self.quoteProblem(Evidence(location: FileLocation(file: "B.swift", line: 1), quote: "let a = 1"), root: directory))
        let evidence = Evidence(location: FileLocation(file: "A.swift", line: 1), quote: "let a = 1")
        var answer = Answer(question: .writeStatusRechecked, status: .no, reason: "the write at A.swift:1 is unchecked", evidence: [evidence], ruleIDs: [])
        XCTAssertEqual(Self.problems(in: [answer], app: "x", root: directory), [])
        answer.reason = "the write at A.swift:2 is unchecked"
        XCTAssertEqual(Self.problems(in: [answer], app: "x", root: directory).count, 1)
        answer.evidence = []
        XCTAssertEqual(Self.problems(in: [answer], app: "x", root: directory).count, 2, "a no citing nothing, naming a place it does not cite")
    }
}
