import Checklist
import Foundation
import Manifest
@_spi(Testing) import SwiftParser
@_spi(RawSyntax) import SwiftSyntax
@testable import SiteBuild
import XCTest
import TestSupport

/// Issue 33, items 3, 9 and 10: Swift sources and Tuist manifests are parsed on a bounded path
/// (`BoundedSwiftParse`), and a file that is not analysed is a warning finding in every output —
/// junk may never hide a real finding. Every input is written here; no outcome depends on timing
/// (refusals come from the scan before any parse, deadlines are set far from the parse's time).
final class ParseBudgetTests: XCTestCase {
    var site: TestSite!

    override func setUpWithError() throws { site = try TestSite() }
    override func tearDown() { site.remove() }

    static let steady = "apps/steady/Steady"

    /// A real finding in a large, well-formed file (9 KB): `read-status-probed`, an error, at line 9.
    static var realFile: String {
        let filler = (0..<120).map { "    func helper\($0)(_ value: Double) -> Double { value * \($0).0 + 1 }" }.joined(separator: "\n")
        return """
        import HealthKit

        final class BirthdayReader {
            let store = HKHealthStore()

            func age() throws -> Int? {
                guard HKHealthStore.isHealthDataAvailable() else { return nil }
                let birthday = HKCharacteristicType(.dateOfBirth)
                guard store.authorizationStatus(for: birthday) == .sharingAuthorized else { return nil }
                let components = try store.dateOfBirthComponents()
                return Calendar.current.dateComponents([.year], from: components.date ?? .now, to: .now).year
            }

        \(filler)
        }

        """
    }

    func steadyAudit() throws -> AppAudit { try XCTUnwrap(try site.audit().audits.first { $0.manifest.id == "steady" }) }

    func notAnalysed(_ audit: AppAudit) -> [String] {
        audit.findings.filter { $0.ruleID == "file-not-analysed" }.map { "\($0.severity) \($0.location): \($0.message)" }
    }

    // MARK: Item 3: junk does not hide a real finding

    /// 80 small malformed files with brackets nested deep inside string interpolations (each took
    /// swift-syntax seconds to minutes, and their abandoned parses starved the large file of its
    /// deadline) beside a large file with a real error: the scan refuses each junk file before any
    /// parse, with a warning naming file, line and column, and the real error is still found.
    func testEightyJunkFilesDoNotHideTheRealFinding() throws {
        XCTAssertGreaterThan(Self.realFile.utf8.count, 8 * 1024)
        try site.write(Self.steady + "/Health/BirthdayReader.swift", Self.realFile)
        for index in 0..<80 {
            let depth = 20 + index % 8
            try site.write(Self.steady + "/Junk/Junk\(index).swift",
                           "let s = \"\\(" + String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth) + ")\"\n")
        }
        let audit = try steadyAudit()
        let real = try XCTUnwrap(audit.findings.first { $0.ruleID == "read-status-probed" })
        XCTAssertEqual(real.severity, .error)
        XCTAssertEqual("\(real.location)", "\(Self.steady)/Health/BirthdayReader.swift:9:15")
        XCTAssertEqual(notAnalysed(audit), (0..<80).map { "warning \(Self.steady)/Junk/Junk\($0).swift:1:24: not analysed: `[` nested deeper than 12" }.sorted())
        XCTAssertEqual(audit.verdict, .fails)
    }

    /// The same through the CLI: `check` fails on the real error (exit 1), and on junk alone passes
    /// by default but fails with `--fail-on warning`; every output names the file not analysed.
    func testTheCLIFailsOnTheRealFindingAndOnJunkWithFailOnWarning() throws {
        try HealthAuditBinary.requireBuilt()
        try site.write(Self.steady + "/Junk.swift", "let s = \"\\(" + String(repeating: "[", count: 30) + "1" + String(repeating: "]", count: 30) + ")\"\n")
        let junkOnly = try site.runCLI(["check", "--site", "Site", "--app", "steady"])
        XCTAssertEqual(junkOnly.status, 0, junkOnly.output)
        XCTAssertTrue(junkOnly.output.contains("Site/apps/steady/Steady/Junk.swift:1:24: warning: not analysed: '[' nested deeper than 12 [file-not-analysed]"), junkOnly.output)
        let strict = try site.runCLI(["check", "--site", "Site", "--app", "steady", "--fail-on", "warning"])
        XCTAssertEqual(strict.status, 1, strict.output)

        try site.write(Self.steady + "/Health/BirthdayReader.swift", Self.realFile)
        let outputs = ["json", "sarif", "junit", "markdown", "github", "gitlab"].map { (format: $0, path: site.root + "/out." + $0) }
        let run = try site.runCLI(["check", "--site", "Site", "--app", "steady"] + outputs.flatMap { ["--format", $0.format, "--output", $0.path] }
                                  + ["--format", "text"])
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(run.output.contains("[read-status-probed]"), run.output)
        XCTAssertTrue(run.output.contains("Junk.swift:1:24: warning: not analysed"), run.output)
        for output in outputs {
            let text = try String(contentsOfFile: output.path, encoding: .utf8)
            XCTAssertTrue(text.contains("file-not-analysed"), "\(output.format) names the rule")
            XCTAssertTrue(text.contains("Junk.swift"), "\(output.format) names the file")
            XCTAssertTrue(text.contains("nested deeper than 12"), "\(output.format) says why")
        }
        // The site's app page lists it with the other findings.
        XCTAssertEqual(try site.runCLI(["build", "--site", "Site", "--output", site.output]).status, 0)
        let page = try site.read("apps/steady/index.html")
        XCTAssertTrue(page.contains("file-not-analysed") && page.contains("Junk.swift"), "the app page shows the file not analysed")
    }

    // MARK: Answers: code the rules did not see never reads as good code

    static func answersSite(junk: Bool, ignore: Bool) -> [String: String] {
        var yaml = "title: Answers\napps:\n  - id: reader\n    name: Reader\n    root: apps/reader\n    info_plist: Info.plist\n"
            + "    entitlements: App.entitlements\n    sources: [Sources]\n    requested:\n      read: [stepCount]\n      share: []\n"
        if ignore { yaml += "    ignore:\n      - rule: file-not-analysed\n        reason: generated fixture, no HealthKit code\n" }
        var files = [
            "healthaudit.yml": yaml,
            "apps/reader/Info.plist": RuleExample.plist(["CFBundleName": "Reader", "NSHealthShareUsageDescription": RuleExample.goodShare,
                                                         "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            "apps/reader/App.entitlements": RuleExample.healthKitEntitlement,
            "apps/reader/Sources/Steps.swift": """
            import HealthKit

            final class Steps {
                let store = HKHealthStore()

                func start() {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)]) { _, error in
                        if let error { print(error) }
                    }
                }
            }

            """,
        ]
        if junk { files["apps/reader/Sources/Junk.swift"] = "let s = \"\\(" + String(repeating: "[", count: 30) + "1" + String(repeating: "]", count: 30) + ")\"\n" }
        return files
    }

    func answers(junk: Bool, ignore: Bool = false) throws -> [ReviewQuestion: Answer] {
        let reader = try TestSite(files: Self.answersSite(junk: junk, ignore: ignore))
        defer { reader.remove() }
        let audit = try XCTUnwrap(try reader.audit().audits.first)
        return Dictionary(uniqueKeysWithValues: audit.answers.map { ($0.question, $0) })
    }

    /// A file not analysed may hold what a question turns on: every answer about code that rests on
    /// what the rules did not find (yes for 1, 2 and 6, no for 3, "nothing writes" for 6) becomes
    /// "cannot tell", naming the file and why; question 4 (the Info.plist) and question 5 (no
    /// extension target, which the file cannot add) keep theirs. Suppressing the finding with a
    /// reason gives the answers back.
    func testAFileNotAnalysedMakesAnswersAboutCodeCannotTell() throws {
        let clean = try answers(junk: false)
        XCTAssertEqual(clean.mapValues(\.status), [.availabilityChecked: .yes, .completionInterpreted: .yes, .readStatusProbed: .no,
                                                   .usageStringsMeaningful: .yes, .widgetsDoNotRequest: .notApplicable,
                                                   .writeStatusRechecked: .notApplicable], "\(clean.mapValues(\.reason))")
        let junk = try answers(junk: true)
        for question in [ReviewQuestion.availabilityChecked, .completionInterpreted, .readStatusProbed, .writeStatusRechecked] {
            let answer = try XCTUnwrap(junk[question])
            XCTAssertEqual(answer.status, .cannotTell, "question \(question.rawValue): \(answer.reason)")
            XCTAssertTrue(answer.reason.hasPrefix("cannot tell — " + clean[question]!.reason + "; but the audit could not analyse 1 file of its code: "
                                                  + "Junk.swift:1 (`[` nested deeper than 12)"), answer.reason)
            XCTAssertTrue(answer.evidence.contains { $0.location == FileLocation(file: "apps/reader/Sources/Junk.swift", line: 1, column: 24) },
                          "\(answer.evidence)")
        }
        XCTAssertEqual(junk[.usageStringsMeaningful]?.status, .yes)
        XCTAssertEqual(junk[.widgetsDoNotRequest]?.status, .notApplicable)
        let ignored = try answers(junk: true, ignore: true)
        XCTAssertEqual(ignored.mapValues(\.status), clean.mapValues(\.status))
        XCTAssertEqual(ignored.mapValues(\.reason), clean.mapValues(\.reason))
    }

    // MARK: Item 9: no lexical trick hides nesting from the scan

    /// Each way brackets used to slip past the scan (inside an interpolation, after a `"\\"`
    /// string) and the other lexical states it must follow: every file is refused at the `[` that
    /// passes the limit, before swift-syntax sees it.
    func testNoLexicalTrickHidesNesting() throws {
        let deep = String(repeating: "[", count: 24) + "1" + String(repeating: "]", count: 24)
        let cases: [(name: String, text: String, line: Int, column: Int)] = [
            ("Interpolated", "let s = \"\\(\(deep))\"\n", 1, 24),
            ("AfterEscapedBackslash", "let a = \"\\\\\"; let b = \(deep)\n", 1, 35),
            ("AfterEscapedQuote", "let a = \"\\\"\"; let b = \(deep)\n", 1, 35),
            ("RawInterpolated", "let s = #\"\\#(\(deep))\"#\n", 1, 26),
            ("AfterRawBackslash", "let a = #\"\\\"#; let b = \(deep)\n", 1, 36),
            ("AfterMultiline", "let a = \"\"\"\n    \"\n    \"\"\"\nlet b = \(deep)\n", 4, 21),
            ("MultilineInterpolated", "let a = \"\"\"\n    \\(\(deep))\n    \"\"\"\n", 2, 19),
            ("NestedInterpolation", "let s = \"\\(\"\\(\(deep))\")\"\n", 1, 27),
            ("AfterApostrophe", "let a = 'x'; let b = \(deep)\n", 1, 34),
            ("AfterBlockComment", "/* /* */ */ let b = \(deep)\n", 1, 33),
            ("AfterRegex", "let r = /\\//; let b = \(deep)\n", 1, 35),
            ("AfterBackquotedName", "let `a b` = 1; let c = \(deep)\n", 1, 36),
            // The parser's own recovery ends this interpolation at the quote: the brackets are code.
            ("ClosedByRecovery", "let s = \"\\(a \"\(deep)\"\n", 1, 27),
            ("InterpolationWithLabel", "let s = \"\\(a: \(deep))\"\n", 1, 27),
        ]
        for item in cases { try site.write(Self.steady + "/Tricks/\(item.name).swift", item.text) }
        let audit = try steadyAudit()
        XCTAssertEqual(notAnalysed(audit), cases.map { "warning \(Self.steady)/Tricks/\($0.name).swift:\($0.line):\($0.column): not analysed: `[` nested deeper than 12" }.sorted())
    }

    /// The 84-byte file of the report (12 s to parse, four times longer for each two more levels):
    /// refused at once, whatever its size.
    func testTheEightyFourByteFileIsRefusedBeforeParsing() throws {
        let text = "let x = \"\\(" + String(repeating: "[", count: 35) + "1" + String(repeating: "]", count: 35) + ")\""
        XCTAssertEqual(text.utf8.count, 84)
        XCTAssertEqual(SwiftNestingScan.excess(in: text), SwiftNestingScan.Excess(line: 1, column: 24, reason: "`[` nested deeper than 12"))
        guard case .refused(let refusal) = BoundedSwiftParse.parse(text, budget: ParseBudget()) else { return XCTFail("parsed") }
        XCTAssertEqual(refusal, BoundedSwiftParse.Refusal(line: 1, column: 24, reason: "`[` nested deeper than 12", failsRun: false))
    }

    /// The scan is a bound on swift-syntax's own nesting: on thousands of strings built from the
    /// lexer's hard parts (quotes, raw delimiters, escapes, interpolations, comments, regex
    /// delimiters, backquotes, line breaks), the deepest run of `[` in the parser's tokens and in the
    /// lexer's (which its look-ahead reads) never exceeds what the scan reports. `[` is the bound
    /// swift-syntax does not keep itself (its look-ahead doubles per level); other nesting stops at
    /// the parser's own `maximumNestingLevel`, whose overflow refuses the tree, so the scan's count
    /// of it only places the message early (on tangles of broken literals it may read a level or two
    /// fewer than the parser).
    func testTheScanBoundsTheParsersNestingOnRandomText() {
        let pieces = ["\"", "\"\"\"", "#\"", "\"#", "##\"", "\"##", "\\(", "\\#(", ")", "(", "[", "]", "{", "}", "/", "#/", "/#", "//",
                      "/*", "*/", "\n", "'", "`", "<#", "#>", "\\\\", "\\", "x", " ", "??", ",", ":", "#if", "#endif", "a", "1", ".",
                      "!", "?", "=", "\r", "#", "f(", "return ", "try? ", "+", ";", "\u{A0}", "é"]
        var state: UInt64 = 33
        func next() -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
        }
        var unbounded = SwiftNestingScan.Limits()
        unbounded.square = .max; unbounded.any = .max; unbounded.readings = .max
        let texts = (0..<4000).map { _ in (0...(next() % 60)).map { _ in pieces[next() % pieces.count] }.joined() }
        // The same texts in the same order, checked on every core.
        let failures = ParallelMap.map(texts) { text -> String? in
            let reach = SwiftNestingScan.scan(text, limits: unbounded).reach
            let parser = Self.parserDepths(text), lexer = Self.lexerDepths(text)
            guard parser.square > reach.square || lexer.square > reach.square else { return nil }
            return "\(text.debugDescription): scan \(reach.square)/\(reach.any), parser \(parser.square)/\(parser.any), lexer \(lexer.square)/\(lexer.any)"
        }.compactMap { $0 }
        XCTAssertEqual(failures, [])
    }

    /// The deepest unclosed run of `[` and of any bracket in a token stream.
    struct Depths {
        var square = 0, any = 0
        private var openSquare = 0, openAny = 0
        mutating func add(_ kind: RawTokenKind) {
            switch kind {
            case .leftSquare: openSquare += 1; openAny += 1
            case .leftParen, .leftBrace, .poundIf: openAny += 1
            case .rightSquare: openSquare = max(0, openSquare - 1); openAny = max(0, openAny - 1)
            case .rightParen, .rightBrace, .poundEndif: openAny = max(0, openAny - 1)
            default: break
            }
            square = max(square, openSquare); any = max(any, openAny)
        }
    }

    static func parserDepths(_ text: String) -> Depths {
        var source = text
        let tree = source.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: 1000) }
        var depths = Depths()
        for token in tree.tokens(viewMode: .sourceAccurate) { depths.add(token.rawTokenKind) }
        return depths
    }

    static func lexerDepths(_ text: String) -> Depths {
        var source = text
        var depths = Depths()
        source.withUTF8 { buffer in
            var tracker = LookaheadTracker()
            withUnsafeMutablePointer(to: &tracker) { pointer in
                for lexeme in Lexer.tokenize(buffer, lookaheadTracker: pointer, experimentalFeatures: []) {
                    if lexeme.rawTokenKind == .endOfFile { break }
                    depths.add(lexeme.rawTokenKind)
                }
            }
        }
        return depths
    }

    /// Real code is never refused: every Swift file of the embedded site and of this repository's
    /// own sources passes the scan.
    /// Readings kept alive for long are bounded in total, not only at each byte (a fuzzer's 794 KB
    /// tangle kept dozens for the whole file: 19 s): past the budget the file is refused, naming
    /// where; within it the same text passes.
    func testManyReadingsForLongAreRefused() {
        // An interpolation whose quote swift-syntax's recovery may take either way: both readings are followed.
        let text = String(repeating: "let s = \"\\(a \"b\"\n", count: 20)
        var tight = SwiftNestingScan.Limits()
        tight.extraStepsBase = 20
        tight.extraStepsPerByte = 0
        let refused = SwiftNestingScan.scan(text, limits: tight)
        XCTAssertGreaterThan(refused.reach.readings, 1, "the text forks readings")
        XCTAssertEqual(refused.excess?.reason, tight.reasons.first { $0.contains("for too long") })
        XCTAssertNil(SwiftNestingScan.excess(in: text))
    }

    func testRealSwiftPassesTheScan() throws {
        var checked = 0
        for folder in [Repository.site, Repository.root + "/Sources"] {
            for path in try LocalFileSystem().files(under: folder) where path.hasSuffix(".swift") {
                let text = try String(contentsOfFile: folder + "/" + path, encoding: .utf8)
                XCTAssertNil(SwiftNestingScan.excess(in: text), path)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 200)
    }

    // MARK: The run's budget and the parse deadline

    /// With the run's budget spent, files are not parsed, and each is an error: the run cannot
    /// vouch for them, so the check fails rather than passing without them.
    func testASpentBudgetFailsTheRun() throws {
        try site.write(Self.steady + "/Health/BirthdayReader.swift", Self.realFile)
        let config = try ConfigLoader().load(siteDirectory: site.site)
        let app = try XCTUnwrap(config.apps.first { $0.id == "steady" })
        let manifest = try ManifestLoader(siteDirectory: site.site, parseBudget: ParseBudget(base: 0, perMiB: 0)).load(app)
        let audit = Checklist().audit(manifest)
        let refused = audit.findings.filter { $0.ruleID == "file-not-analysed" }
        XCTAssertEqual(refused.count, manifest.targets.flatMap(\.sources).count)
        XCTAssertEqual(Set(refused.map(\.severity)), [.error])
        XCTAssertEqual(Set(refused.map(\.message)), ["not analysed: the run's parse budget (0 s plus 0 s per MiB of Swift) is spent"])
        XCTAssertEqual(audit.verdict, .fails)
    }

    /// Found by the Swift fuzz target: swift-syntax's error recovery is quadratic on a run of
    /// `<data>` (60 KB took a minute). The deadline is in the parse's own CPU time, set here far
    /// below the parse (a tenth of a second against some eight seconds in a debug build for this
    /// 1.5 KB run; a longer one would only go on longer at idle priority), and the rest of the app is audited.
    func testAParseThatOutlivesItsDeadlineIsAbandonedWithAWarning() throws {
        // Its own text: contents abandoned once in this process (another test's) are refused at once.
        let slow = "import HealthKit\n\nstruct Budgeted {\n    pri" + String(repeating: "<data>", count: 250) + "\n}\n"
        let budget = ParseBudget(fileBase: 0.1, filePerMiB: 0)
        guard case .refused(let refusal) = BoundedSwiftParse.parse(slow, budget: budget) else { return XCTFail("parsed") }
        XCTAssertEqual(refusal.reason, "the Swift parser did not finish within 0 s of CPU time (its error recovery is slow on some malformed files)")
        XCTAssertFalse(refusal.failsRun)
        XCTAssertGreaterThanOrEqual(budget.secondsSpent, 0.1)
        // Its thread goes on at idle priority (the `<data>` run takes seconds more), counted apart.
        XCTAssertGreaterThanOrEqual(BoundedSwiftParse.abandoned.running, 1)
    }

    // MARK: Item 10: Tuist manifests take the same path

    func tuistSite(_ manifest: String) throws -> TestSite {
        let files = [
            "healthaudit.yml": "title: Tuist\napps:\n  - id: tuisted\n    name: Tuisted\n    root: apps/tuisted\n    tuist: Project.swift\n",
            "apps/tuisted/Project.swift": manifest,
            "apps/tuisted/App/Info.plist": RuleExample.plist(["CFBundleName": "Tuisted", "NSHealthShareUsageDescription": RuleExample.goodShare]),
            "apps/tuisted/App/Sources/App.swift": "import HealthKit\nlet store = HKHealthStore()\n",
        ]
        return try TestSite(files: files)
    }

    static func project(_ extra: String) -> String {
        """
        import ProjectDescription

        let project = Project(
            name: "Tuisted",
            targets: [
                .target(name: "Tuisted", destinations: .iOS, product: .app, bundleId: "org.example.tuisted",
                        infoPlist: "App/Info.plist", sources: ["App/Sources/**"]),
            ]
        )
        \(extra)
        """
    }

    func tuistAudit(_ manifest: String) throws -> AppAudit {
        let tuist = try tuistSite(manifest)
        defer { tuist.remove() }
        return try XCTUnwrap(try tuist.audit().audits.first)
    }

    /// 24 nested `[` (20–49 s, parsed on the main thread during discovery): refused, a warning at
    /// the bracket, and the app still audited from its config's files.
    func testATuistManifestWithDeepBracketsIsRefused() throws {
        let audit = try tuistAudit(Self.project("let deep = " + String(repeating: "[", count: 24) + "1" + String(repeating: "]", count: 24)))
        XCTAssertEqual(notAnalysed(audit), ["warning apps/tuisted/Project.swift:10:24: not analysed: `[` nested deeper than 12"])
        XCTAssertTrue(audit.manifest.discovery.contains { $0.isNote && $0.text.hasPrefix("apps/tuisted/Project.swift is not analysed (`[` nested deeper than 12)") })
    }

    /// A 200,000-link member chain crashed discovery with SIGSEGV: refused, a warning at its line.
    func testATuistManifestWithAHugeChainIsRefused() throws {
        let audit = try tuistAudit(Self.project("let chain = x" + String(repeating: ".b", count: 200_000)))
        XCTAssertEqual(notAnalysed(audit), ["warning apps/tuisted/Project.swift:10:20014: not analysed: an expression chains more than 10000 members or calls"])
    }

    /// A 5,000-call chain (24–47 s: every call's callee was read as text) is within the bounds and
    /// read at once: the application target is still found.
    func testATuistManifestWithALongCallChainIsRead() throws {
        let audit = try tuistAudit(Self.project("let chain = f" + String(repeating: "()", count: 5_000)))
        XCTAssertEqual(notAnalysed(audit), [])
        XCTAssertTrue(audit.manifest.discovery.contains { $0.text.hasPrefix("Tuist target Tuisted in apps/tuisted/Project.swift") }, "\(audit.manifest.discovery.map(\.text))")
    }

    /// `check` without a config reads the manifest on the main thread to name the app: the same
    /// bounded path, so the 200,000-link chain neither crashes nor hangs discovery.
    func testDiscoveryWithoutAConfigSurvivesAHugeChain() throws {
        let folder = Repository.temporaryDirectory("healthaudit-tuist-discovery")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try (Self.project("let chain = x" + String(repeating: ".b", count: 200_000))).write(toFile: folder + "/Project.swift", atomically: true, encoding: .utf8)
        let apps = AppDiscovery.find(in: folder)
        XCTAssertEqual(apps.map(\.kind), ["swift"])
        XCTAssertEqual(apps.map(\.reason), ["Tuist app (Project.swift with an application target)"])
    }
}
