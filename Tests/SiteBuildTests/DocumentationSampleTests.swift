import Foundation
import XCTest
import Report
import SiteBuild
import TestSupport

/// The README and docs/ show what the tool prints, never what it once printed: every block marked
/// `<!-- sample: NAME -->` is produced again here and compared byte for byte. The README's quick
/// start is run as a new user runs it, and every relative link of the documentation resolves.
final class DocumentationSampleTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws {
        root = Repository.temporaryDirectory("healthaudit-docs")
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: root) }

    // MARK: The quick start

    /// A copy of the binary on an otherwise bare PATH, an empty folder holding one example app as
    /// `MyApp`, and each `$ ` line of the quick start's sample run as written, in order, in one
    /// shell: what each prints (stderr and stdout as a terminal interleaves them) is the sample.
    func testTheQuickStartPrintsItsSample() throws {
        try HealthAuditBinary.requireBuilt()
        let sample = try DocumentationSample.named("quick start", in: "README.md")
        let commands = DocumentationSample.commands(in: sample)
        XCTAssertEqual(commands.map(\.command), ["cd MyApp && healthaudit check", "healthaudit init"],
                       "the quick start audits an app, then writes its config")

        let bin = root + "/bin", capture = root + "/capture", home = root + "/home"
        for folder in [bin, capture, home] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: HealthAuditBinary.path, toPath: bin + "/healthaudit")
        let work = root + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repository.site + "/apps/runner", toPath: work + "/MyApp")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work), ["MyApp"], "one app, nothing else")

        // `{ …; }` keeps a `cd` for the commands after it, as in a terminal.
        var script = "cd \"$WORK\" || exit 99\n"
        for (index, step) in commands.enumerated() {
            script += "{ \(step.command); } >\"$CAPTURE/\(index).out\" 2>&1; echo $? >\"$CAPTURE/\(index).status\"\n"
        }
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", script]
        // A new user's environment: no CI variables, a cache folder of its own, only the copy on the PATH.
        shell.environment = ["PATH": bin + ":/usr/bin:/bin", "HOME": home, "XDG_CACHE_HOME": home + "/.cache",
                             "WORK": work, "CAPTURE": capture]
        try shell.run()
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0)

        for (index, step) in commands.enumerated() {
            let printed = try String(contentsOfFile: capture + "/\(index).out", encoding: .utf8)
            XCTAssertEqual(printed, step.output, "README.md's quick start: `\(step.command)` printed:\n\(printed)")
        }
        let statuses = try commands.indices.map { try String(contentsOfFile: capture + "/\($0).status", encoding: .utf8) }
        XCTAssertEqual(statuses, ["1\n", "0\n"], "check fails on the app's error; init succeeds")
        XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/MyApp/healthaudit.yml"), "init wrote the config the quick start then serves")
    }

    /// Under 60 lines from the top of the README to the end of its quick start.
    func testTheQuickStartIsShort() throws {
        let lines = try String(contentsOfFile: Repository.root + "/README.md", encoding: .utf8).components(separatedBy: "\n")
        let start = try XCTUnwrap(lines.firstIndex(of: "## Quick start"))
        let next = try XCTUnwrap(lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") })
        let last = try XCTUnwrap(lines[..<next].lastIndex { !$0.isEmpty })
        XCTAssertLessThan(last + 1, 60, "the quick start ends on line \(last + 1)")
    }

    /// The two commands of a fresh machine stay in the README as `.ci/run` and the Makefile run them.
    func testTheFreshMachineCommandsAreTheOnesCIRuns() throws {
        let readme = try String(contentsOfFile: Repository.root + "/README.md", encoding: .utf8)
        let test = "bash .ci/setup && swift test --explicit-target-dependency-import-check error"
        XCTAssertTrue(readme.contains("```sh\nbash .ci/setup && swift run healthaudit build\n```\n"))
        XCTAssertTrue(readme.contains("```sh\n\(test)\n```\n"))
        XCTAssertTrue(try String(contentsOfFile: Repository.root + "/.ci/run", encoding: .utf8).contains("(\(test))"))
    }

    // MARK: docs/commands.md

    /// The six steps of a first build of `Site/`, built in-process from a copy; only the run's
    /// folder and the times differ from the sample.
    func testTheBuildSampleIsTheBuildOfSite() throws {
        let sample = try DocumentationSample.named("build", in: "docs/commands.md")
        try FileManager.default.copyItem(atPath: Repository.site, toPath: root + "/Site")
        let log = RecordingLog()
        let options = BuildOptions(siteDirectory: root + "/Site", log: log)
        _ = try Pipeline.build(for: options).run(options)
        let printed = log.text.replacingOccurrences(of: root, with: "/…")
        XCTAssertEqual(Self.withoutTimes(printed), Self.withoutTimes(sample), "docs/commands.md's build sample; the build printed:\n\(printed)")
    }

    static func withoutTimes(_ text: String) -> String {
        text.replacing(/\(\d+\.\d\d s\)$/.anchorsMatchLineEndings(), with: "(… s)")
    }

    // MARK: Links

    /// Every relative link of README.md and docs/*.md names a file of the repository and, with a
    /// `#fragment`, a heading of that file; so does the SARIF `helpUri` each rule falls back to.
    func testEveryRelativeLinkResolves() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Repository.root + "/docs").filter { $0.hasSuffix(".md") }.sorted()
        XCTAssertGreaterThan(docs.count, 5)
        var checked = 0
        for document in ["README.md"] + docs.map { "docs/" + $0 } {
            let folder = (document as NSString).deletingLastPathComponent
            for link in DocumentationSample.links(in: try Self.read(document)) where !link.contains("://") && !link.hasPrefix("mailto:") {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? document : ((folder as NSString).appendingPathComponent(parts[0]) as NSString).standardizingPath
                XCTAssertTrue(FileManager.default.fileExists(atPath: Repository.root + "/" + target), "\(document): \(link) names no file")
                if parts.count == 2, target.hasSuffix(".md") {
                    XCTAssertTrue(DocumentationSample.anchors(in: try Self.read(target)).contains(parts[1]), "\(document): \(link): no such heading in \(target)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 20)

        let helpUri = ToolInfo().ruleDocumentationURI("cached-authorization")
        let path = try XCTUnwrap(helpUri.firstMatch(of: /\/blob\/main\/([^?#]+)\?rule=cached-authorization#(.+)$/))
        XCTAssertTrue(DocumentationSample.anchors(in: try Self.read(String(path.1))).contains(String(path.2)), helpUri)
        XCTAssertTrue(try Self.read(String(path.1)).contains("`cached-authorization`"), "the rule is listed where its helpUri leads")
    }

    static func read(_ document: String) throws -> String {
        try String(contentsOfFile: Repository.root + "/" + document, encoding: .utf8)
    }
}

/// Reads the samples, links and headings of the Markdown documentation.
enum DocumentationSample {
    struct Step: Equatable {
        var command: String
        var output: String
    }

    /// The fenced block right after `<!-- sample: NAME -->` in `document`, without its fences.
    static func named(_ name: String, in document: String) throws -> String {
        let text = try String(contentsOfFile: Repository.root + "/" + document, encoding: .utf8)
        let marker = "<!-- sample: \(name) -->\n```\n"
        let parts = text.components(separatedBy: marker)
        guard parts.count == 2, let end = parts[1].range(of: "\n```\n") else {
            XCTFail("\(document) holds no single `<!-- sample: \(name) -->` before a fenced block")
            throw CocoaError(.fileReadCorruptFile)
        }
        return String(parts[1][..<end.lowerBound]) + "\n"
    }

    /// A terminal transcript: each `$ ` line is a command, the lines up to the next its output.
    static func commands(in transcript: String) -> [Step] {
        var steps: [Step] = []
        for line in transcript.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2)), output: ""))
            } else if !steps.isEmpty {
                steps[steps.count - 1].output += line + "\n"
            }
        }
        return steps
    }

    /// Inline link targets outside code: `[text](target)`.
    static func links(in markdown: String) -> [String] {
        prose(markdown).flatMap { line in
            line.replacing(/``[^`]*``|`[^`]*`/, with: "").matches(of: /\]\(([^)\s]+)\)/).map { String($0.1) }
        }
    }

    /// The anchors GitHub gives headings: lowercased, punctuation dropped, spaces as hyphens.
    static func anchors(in markdown: String) -> Set<String> {
        Set(prose(markdown).filter { $0.hasPrefix("#") }.map { heading in
            let title = heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            return String(title.compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
            })
        })
    }

    /// The lines outside fenced code blocks.
    static func prose(_ markdown: String) -> [String] {
        var inFence = false
        return markdown.components(separatedBy: "\n").filter { line in
            if line.hasPrefix("```") { inFence.toggle(); return false }
            return !inFence
        }
    }
}

/// Keeps the build's step lines as `StandardErrorLog` prints them.
final class RecordingLog: BuildLog, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded = ""

    var text: String { lock.withLock { recorded } }

    func step(_ index: Int, of count: Int, _ message: String) {
        lock.withLock { recorded += Console.text(["[\(index)/\(count)] \(message)"]) }
    }
}
