import Foundation
import Manifest
import Report
import SiteBuild
import XCTest
import TestSupport

/// Issue 33, case 4: a folder, project, file or result named with a line break and `::stop-commands::`
/// printed raw on stderr became a command the GitHub Actions runner obeys. Every message goes
/// through `Console`, one line per line whatever a name holds; reports keep their own escaping.
final class WorkflowCommandTests: XCTestCase {
    // MARK: - The line every message is printed as

    func testALineBreakInANameStaysInsideItsLine() {
        XCTAssertEqual(VisibleText.line("Site/content/x\n::stop-commands::tok.md: error: [load] bad"),
                       "Site/content/x\\u{000A}::stop-commands::tok.md: error: [load] bad")
        XCTAssertEqual(VisibleText.line("a\r::error::forged"), "a\\u{000D}::error::forged")
        XCTAssertEqual(VisibleText.line("a\r\n::error::forged"), "a\\u{000D}\\u{000A}::error::forged")
        // Unicode's own line and paragraph separators end a line in some viewers.
        XCTAssertEqual(VisibleText.line("a\u{2028}b\u{2029}c\u{85}d"), "a\\u{2028}b\\u{2029}c\\u{0085}d")
    }

    /// The runner trims leading white space (any Unicode space) and obeys `::name::` at the start.
    func testALineCannotStartAWorkflowCommand() {
        XCTAssertEqual(VisibleText.line("::stop-commands::tok.swift:4:5: error: x"), "\\u{003A}:stop-commands::tok.swift:4:5: error: x")
        XCTAssertEqual(VisibleText.line("  ::stop-commands::tok — Xcode project"), "  \\u{003A}:stop-commands::tok — Xcode project")
        XCTAssertEqual(VisibleText.line("\t\u{A0}\u{3000}::error::x"), "\t\u{A0}\u{3000}\\u{003A}:error::x")
        // A colon later in the line is the tool's own `path:line: error:` syntax, untouched.
        XCTAssertEqual(VisibleText.line("Site/a.swift:4:5: error: say ::error::"), "Site/a.swift:4:5: error: say ::error::")
    }

    /// `##[name]` (GitHub's legacy form) and `##vso[…]` (Azure Pipelines) work anywhere in a line.
    func testALineCannotHoldALegacyRunnerCommand() {
        XCTAssertEqual(VisibleText.line("x ##[add-mask]secret"), "x #\\u{0023}[add-mask]secret")
        XCTAssertEqual(VisibleText.line("x ###[stop-commands]t"), "x ##\\u{0023}[stop-commands]t")
        XCTAssertEqual(VisibleText.line("x ##vso[task.setvariable variable=a]b ##VSO[x]"), "x #\\u{0023}vso[task.setvariable variable=a]b #\\u{0023}VSO[x]")
        // Other runs of `#` are text: a raw string delimiter, a heading.
        let rawString = "let s = ##\"a\"## ## b"
        XCTAssertEqual(VisibleText.line(rawString), rawString)
    }

    func testBidiAndControlCharactersAreEscaped() {
        XCTAssertEqual(VisibleText.line("ok\u{202E}fdp.swift\u{1B}[31m\u{0}"), "ok\\u{202E}fdp.swift\\u{001B}[31m\u{FFFD}")
    }

    func testAConsoleMessageIsOneLinePerLineGiven() {
        XCTAssertEqual(Console.text(["a\n::stop-commands::x", "build failed: 1 problem"]),
                       "a\\u{000A}::stop-commands::x\nbuild failed: 1 problem\n")
    }

    /// Every format that stays data in a JSON string, XML or HTML writes `##[` so it reads back the same.
    func testDocumentsSpellTheLegacyCommandHarmlessly() throws {
        let text = "quote ##[add-mask]x ##vso[y]"
        let json = JSONValue.string(text).serialized()
        XCTAssertEqual(json, #""quote #\u0023[add-mask]x #\u0023vso[y]""# + "\n")
        XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String, text)
        XCTAssertEqual(XMLText.escape(text), "quote #&#35;[add-mask]x #&#35;vso[y]")
        XCTAssertEqual(HTMLText.escape(text), "quote #&#35;[add-mask]x #&#35;vso[y]")
        XCTAssertEqual(MarkupEscaping.unescape(HTMLText.escape(text)), text)
        XCTAssertEqual(MarkdownText.code(text), "`quote #\\u{0023}[add-mask]x #\\u{0023}vso[y]`")
    }

    /// A build's diagnostics, in process: each problem one line, whatever the file is called.
    func testABuildFailureOverAHostileFileNamePrintsOneLineEach() throws {
        let site = try TestSite(files: ["healthaudit.yml": "title: T\napps: []\n",
                                        "content/x\n::stop-commands::tok.md": "---\ntitle: [\n---\n# A\n",
                                        "content/::error::y.md": "---\ntitle: [\n---\n# B\n"])
        defer { site.remove() }
        var lines: [String] = []
        XCTAssertThrowsError(try site.build()) { error in
            lines = (error as? BuildFailed)?.lines(sitePrefix: "") ?? []
        }
        XCTAssertEqual(lines.count, 2, "\(lines)")
        let printed = Console.text(lines)
        XCTAssertEqual(printed.split(separator: "\n", omittingEmptySubsequences: false).count, 3, printed)
        XCTAssertTrue(printed.contains("content/x\\u{000A}::stop-commands::tok.md:"), printed)
        assertNoForgedCommand(printed, intended: 0)
    }

    /// Discovery writes a config in memory: a folder named with a line break, a tab or U+2028
    /// reads back as itself (it folded into another path, and `check` failed).
    func testTheDiscoveredConfigKeepsAFolderNameWithALineBreak() throws {
        let folder = Repository.temporaryDirectory("healthaudit-discovered")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let name = "App\n::stop-commands::x\t\u{2028}\"q\"\\"
        try FileManager.default.copyItem(atPath: Repository.site + "/apps/runner", toPath: folder + "/" + name)
        let apps = AppDiscovery.find(in: folder)
        XCTAssertEqual(apps.map(\.project), [name + "/Runner.xcodeproj"])
        let yaml = AppDiscovery.config(for: apps, title: "T\n  - id: forged")
        XCTAssertFalse(yaml.contains("\n  - id: forged"), yaml)
        let config = try ConfigLoader().parse(yaml, file: ConfigLoader.fileName, siteDirectory: folder)
        XCTAssertEqual(config.apps.map(\.project?.value), [name + "/Runner.xcodeproj"])
        XCTAssertEqual(config.title, "T\n  - id: forged")
    }

    // MARK: - Whole runs over hostile names

    /// Runs of `check` (every format, discovery, --verbose), `build` and `build --results` over
    /// names holding `\n::stop-commands::`, `\r`, a leading `::`, `##[` and U+202E: no line of
    /// stdout or stderr is a command the tool did not mean, and each name still shows, escaped.
    func testNoRunPrintsACommandItDidNotMean() throws {
        try HealthAuditBinary.requireBuilt()
        let site = try TestSite(files: InlineApp.site([("pace", "Pace", nil)]))
        defer { site.remove() }
        // Source files with a finding (a read-status probe), named as an attacker would.
        let names = ["::stop-commands::tokA.swift", "Probe\n::stop-commands::tokB\r.swift", "Probe ##[add-mask]tokC.swift", "Probe\u{202E}tokD.swift"]
        for name in names { try site.write("apps/pace/Pace/" + name, Self.probe) }
        let health = site.site + "/apps/pace/Pace"

        func scan(_ arguments: [String], in folder: String, status: Int32, tokens: [String], annotations: Int = 0,
                  file: StaticString = #filePath, line: UInt = #line) throws -> HealthAuditBinary.Run {
            let run = try HealthAuditBinary.run(arguments, in: folder)
            XCTAssertEqual(run.status, status, "\(arguments): \(run.stderr)", file: file, line: line)
            let both = run.stdout + run.stderr
            for token in tokens { XCTAssertTrue(both.contains(token), "\(arguments): \(token) not shown", file: file, line: line) }
            assertNoForgedCommand(run.stdout, intended: annotations, file: file, line: line)
            assertNoForgedCommand(run.stderr, intended: 0, file: file, line: line)
            return run
        }
        let tokens = ["tokA", "tokB", "tokC", "tokD"]
        let text = try scan(["check", "--site", site.site, "--no-fail", "--verbose"], in: health, status: 0, tokens: tokens)
        let shown = "\n../../../apps/pace/Pace/"
        XCTAssertTrue(text.stdout.contains(shown + "::stop-commands::tokA.swift:4:5: error: "), text.stdout)
        XCTAssertTrue(text.stdout.contains(shown + "Probe ::stop-commands::tokB .swift:4:5: error: "), text.stdout)
        XCTAssertTrue(text.stdout.contains(shown + "Probe #\\u{0023}[add-mask]tokC.swift:4:5: error: "), text.stdout)
        XCTAssertTrue(text.stdout.contains(shown + "Probe\\u{202E}tokD.swift:4:5: error: "), text.stdout)
        _ = try scan(["check", "--site", site.site, "--no-fail", "--format", "json", "--format", "sarif", "--format", "junit",
                      "--format", "markdown", "--format", "gitlab"], in: health, status: 0, tokens: tokens)
        let github = try scan(["check", "--site", site.site, "--no-fail", "--format", "github"], in: health, status: 0, tokens: tokens,
                              annotations: try site.audit().audits.flatMap(\.activeFindings).count)
        XCTAssertTrue(github.stderr.contains(" audited: "), "the count still reaches the log: \(github.stderr)")

        // Discovery prints the folders and projects it found.
        let discovered = site.root + "/discovered"
        for folder in ["App\n::stop-commands::tokE", "::stop-commands::tokF"] {
            try FileManager.default.createDirectory(atPath: discovered, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Repository.site + "/apps/runner", toPath: discovered + "/" + folder)
        }
        let found = try scan(["check", "--no-fail"], in: discovered, status: 0, tokens: ["tokE", "tokF"])
        XCTAssertTrue(found.stderr.contains("\n  ./App\\u{000A}::stop-commands::tokE/Runner.xcodeproj — "), found.stderr)
        // Paths relative to the folder searched: the app folder starts each of its findings' lines.
        XCTAssertTrue(found.stdout.contains("\\u{003A}:stop-commands::tokF/Runner/Health/HeartRatePanel.swift:27:15: error: "), found.stdout)
        XCTAssertTrue(found.stdout.contains("App ::stop-commands::tokE/Runner/Health/HeartRatePanel.swift:27:15: error: "), found.stdout)

        // A build's input errors and progress lines, with a hostile output folder.
        try site.write("content/x\n::stop-commands::tokG\r.md", "---\ntitle: [\n---\n# A\n")
        let output = site.root + "/out\n::error::tokH"
        let build = try scan(["build", "--site", site.site, "--output", output], in: site.root, status: 2, tokens: ["tokG", "tokH"])
        XCTAssertTrue(build.stderr.contains("[1/6] output: \(site.root)/out\\u{000A}::error::tokH is a new folder"), build.stderr)
        XCTAssertTrue(build.stderr.contains("Site/content/x\\u{000A}::stop-commands::tokG\\u{000D}.md:"), build.stderr)

        // Result files named as an attacker would.
        let results = site.root + "/results"
        try FileManager.default.createDirectory(atPath: results, withIntermediateDirectories: true)
        try "{".write(toFile: results + "/r\n::stop-commands::tokI.json", atomically: false, encoding: .utf8)
        try "[]".write(toFile: results + "/::error::tokJ.json", atomically: false, encoding: .utf8)
        let assembled = try scan(["build", "--results", "results", "--output", "public"], in: site.root, status: 2, tokens: ["tokI", "tokJ"])
        XCTAssertTrue(assembled.stderr.contains("results/r\\u{000A}::stop-commands::tokI.json:"), assembled.stderr)
    }

    /// No source writes to stdout or stderr except through `Console`, the reports' own writer and
    /// the `rules --format json` document: a future message cannot bypass the escaping.
    func testEveryMessageGoesThroughConsole() throws {
        let allowed: Set = ["Sources/SiteBuild/Console.swift", "Sources/healthaudit/OutputWriter.swift", "Sources/healthaudit/RulesCommand.swift"]
        let needles = ["FileHandle.standard", "FileHandle(fileDescriptor", "print(", "dump(", "puts(", "perror(", "write("]
        let writes = /FileHandle\.standard(Error|Output)|FileHandle\(fileDescriptor: *(1|2|STDOUT_FILENO|STDERR_FILENO)\b|\bprint\(|\bdebugPrint\(|\bdump\(|\bfputs\(|\bputs\(|\bperror\(|\bwrite\((1|2|STDOUT_FILENO|STDERR_FILENO),/
        var offenders: [String] = []
        let sources = Repository.root + "/Sources"
        for file in try LocalFileSystem().files(under: sources) where file.hasSuffix(".swift") {
            // The fuzzer, the bench tool and the build plugin are developer tools, not the CLI.
            if file.hasPrefix("healthaudit-fuzz/") || file.hasPrefix("healthaudit-bench/") || file.hasPrefix("EmbedTemplates") { continue }
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            guard needles.contains(where: text.contains) else { continue }
            let path = "Sources/" + file
            for (number, line) in Self.codeLines(text, mentioning: needles) where line.contains(writes) {
                if allowed.contains(path), !line.contains(/\bprint\(/) { continue }
                offenders.append("\(path):\(number): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        XCTAssertEqual(offenders, [], "write messages with Console.error/Console.output")
    }

    // MARK: - Helpers

    static let probe = """
        import HealthKit

        func mayShowBirthday(store: HKHealthStore) -> Bool {
            store.authorizationStatus(for: HKCharacteristicType(.dateOfBirth)) == .sharingAuthorized
        }

        """

    /// The lines mentioning one of `needles`, with string literals and comments blanked (rule
    /// examples quote code that prints), outside multi-line literals.
    static func codeLines(_ source: String, mentioning needles: [String]) -> [(Int, String)] {
        var result: [(Int, String)] = []
        var inBlock = false
        for (index, raw) in source.components(separatedBy: "\n").enumerated() {
            let delimiters = raw.components(separatedBy: "\"\"\"").count - 1
            // The opening or closing line of a multi-line literal: code only before an opening one.
            let code = delimiters > 0 ? (inBlock ? "" : raw.components(separatedBy: "\"\"\"")[0]) : (inBlock ? "" : raw)
            if delimiters % 2 == 1 { inBlock.toggle() }
            guard needles.contains(where: code.contains) else { continue }
            var line = code.replacing(/"(\\.|[^"\\])*"/, with: "\"\"")
            if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]) }
            result.append((index + 1, line))
        }
        return result
    }
}

/// No line of `output`, as the Actions runner splits it (at `\n`, `\r` and `\r\n`) and trims it,
/// starts with `::` — but `intended` annotations (`::error file=…`) — or holds `##[` or `##vso[`.
func assertNoForgedCommand(_ output: String, intended: Int, file: StaticString = #filePath, line: UInt = #line) {
    var annotations = 0
    for raw in output.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
        let trimmed = raw.drop { $0.isWhitespace }
        XCTAssertFalse(trimmed.lowercased().contains("##[") || trimmed.lowercased().contains("##vso["), "legacy runner command: \(raw)", file: file, line: line)
        guard trimmed.hasPrefix("::") else { continue }
        if trimmed.wholeMatch(of: /::(error|warning|notice) file=[^,:]*,line=[0-9]+(,col=[0-9]+)?,title=[^:]*::.*/) != nil {
            annotations += 1
        } else {
            XCTFail("a line the runner would obey: \(raw)", file: file, line: line)
        }
    }
    XCTAssertEqual(annotations, intended, "annotations", file: file, line: line)
}
