import Checklist
import Foundation
import Manifest
import XCTest

/// Ground truth: the Swift snippets of the shared seeds, labelled BAD or GOOD by the seeds themselves,
/// must trigger (or not) the source rules. Seeds are read in place, never copied into the repository.
final class SourceRuleSeedTests: XCTestCase {
    /// A fenced ```swift block (or part of one, split at its `// BAD` / `// GOOD` labels).
    struct Fragment {
        var seed: String
        var heading: String
        var label: Label
        var code: String
        /// Line of the fence in the seed, for failure messages.
        var line: Int

        enum Label { case bad, good, unlabelled }
        var name: String { "\(seed):\(line) [\(heading)]" }
    }

    /// Which rule a BAD fragment must trigger, by the section it sits in.
    private static let expectedRule: [(heading: String, rule: String)] = [
        ("Misinterpreting requestAuthorization Success", "success-read-as-granted"),
        ("Checking Read Permission Status", "read-status-probed"),
        ("Not Checking Device Availability", "availability-not-checked"),
        ("Widgets Requesting Authorization", "extension-requests-authorization"),
        ("Accessing Data Before Authorization Completes", "data-before-authorization"),
        ("Fatal Flaw", "authorization-from-error-text"),
        ("Fire-and-Forget", "fire-and-forget-authorization"),
        ("Age Fetching Method", "read-status-probed"),
    ]

    private func seedsDirectory() throws -> URL {
        // …/main/Tests/ChecklistTests/SourceRuleSeedTests.swift → …/shared/seeds
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let seeds = package.appendingPathComponent("../shared/seeds").standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: seeds.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            // Seeds live beside the checkout; CI (`CI=true`) always has them, so there a missing folder fails.
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("no seeds at \(seeds.path)"); throw CocoaError(.fileNoSuchFile) }
            throw XCTSkip("no seeds at \(seeds.path)")
        }
        return seeds
    }

    private func fragments() throws -> [Fragment] {
        let directory = try seedsDirectory()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".txt") }.sorted()
        return try files.flatMap { name in
            try Self.fragments(in: String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8), seed: name)
        }
    }

    /// Extracts ```swift and ```swift:… blocks; labels come from `// BAD` / `// GOOD` / `// BROKEN` /
    /// `// RESILIENT` comments inside a block, else from the section: "The Fatal Flaw" is BAD, and so
    /// is a block defining `fetchDateOfBirth`.
    static func fragments(in text: String, seed: String) -> [Fragment] {
        var result: [Fragment] = []
        var heading = ""
        var block: [String]?
        var start = 0
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var lines = block {
                if trimmed == "```" {
                    result += split(lines, seed: seed, heading: heading, line: start)
                    block = nil
                } else {
                    lines.append(line)
                    block = lines
                }
            } else if trimmed.hasPrefix("```swift") {
                block = []
                start = index + 1
            } else if trimmed.hasPrefix("#") {
                heading = trimmed.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            }
        }
        return result
    }

    private static func split(_ lines: [String], seed: String, heading: String, line: Int) -> [Fragment] {
        func label(of line: String) -> Fragment.Label? {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("// BAD") || t.hasPrefix("// BROKEN") { return .bad }
            if t.hasPrefix("// GOOD") || t.hasPrefix("// RESILIENT") { return .good }
            return nil
        }
        var fragments: [Fragment] = []
        var current: [String] = []
        var currentLabel: Fragment.Label?
        var currentLine = line
        func flush() {
            let code = current.joined(separator: "\n")
            guard !code.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
            var resolved = currentLabel ?? .unlabelled
            if resolved == .unlabelled && (heading.contains("Fatal Flaw") || code.contains("func fetchDateOfBirth")) { resolved = .bad }
            fragments.append(Fragment(seed: seed, heading: heading, label: resolved, code: code, line: currentLine))
        }
        for (offset, text) in lines.enumerated() {
            if let found = label(of: text) {
                flush()
                current = []
                currentLabel = found
                currentLine = line + offset + 1
            }
            current.append(text)
        }
        flush()
        return fragments
    }

    /// Statement-level fragments go inside a function; declarations stay as they are.
    static func wrap(_ code: String) -> String {
        let declarationStarts = ["func ", "private ", "fileprivate ", "internal ", "public ", "static ", "struct ", "class ", "final ",
                                 "enum ", "extension ", "protocol ", "actor ", "@", "import "]
        let first = code.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && !$0.hasPrefix("//") } ?? ""
        if declarationStarts.contains(where: first.hasPrefix) { return code }
        return "func __fragment() async throws {\n" + code + "\n}\n"
    }

    private func audit(_ fragment: Fragment) throws -> AppAudit {
        // No `requested:` in the config: fragments do not state what the app declares.
        let example = RuleExample.healthApp(["Sources/Fragment.swift": Self.wrap(fragment.code)], read: [], share: [])
        return Checklist(rules: RuleCatalog.sourceRules.map { $0.init() }).audit(try example.load())
    }

    func testBadSeedBlocksTriggerTheirRule() throws {
        let bad = try fragments().filter { $0.label == .bad }
        XCTAssertGreaterThanOrEqual(bad.count, 8, "expected the five BAD blocks of seed 003, seed 004's BROKEN, seed 000's and seed 002's")
        for fragment in bad {
            guard let rule = Self.expectedRule.first(where: { fragment.heading.contains($0.heading) })?.rule else {
                XCTFail("\(fragment.name): BAD block in a section with no expected rule")
                continue
            }
            let findings = try audit(fragment).findings
            XCTAssertTrue(findings.contains { $0.ruleID == rule },
                          "\(fragment.name): expected \(rule), found \(findings.map(\.ruleID))\n\(fragment.code)")
        }
    }

    func testGoodSeedBlocksTriggerNothing() throws {
        let good = try fragments().filter { $0.label == .good }
        XCTAssertGreaterThanOrEqual(good.count, 6, "expected the five GOOD blocks of seed 003 and seed 004's RESILIENT")
        for fragment in good {
            // Availability is an app-level question; a fragment cannot answer it — except the block that shows the check.
            let showsAvailability = fragment.heading.contains("Device Availability")
            let findings = try audit(fragment).findings.filter { showsAvailability || $0.ruleID != "availability-not-checked" }
            XCTAssertEqual(findings.map { "\($0.ruleID) at line \($0.location.line ?? 0): \($0.message)" }, [],
                           "\(fragment.name)\n\(fragment.code)")
        }
    }

    func testEverySeedBlockParsesAndAudits() throws {
        let all = try fragments()
        XCTAssertGreaterThanOrEqual(all.count, 20)
        for fragment in all {
            let audit = try audit(fragment)
            for finding in audit.findings {
                XCTAssertGreaterThanOrEqual(finding.location.line ?? 0, 1, fragment.name)
                XCTAssertFalse(finding.quote.isEmpty, fragment.name)
            }
        }
    }

    func testExtractionSplitsLabelledBlocks() {
        let text = """
        ### 9. Something
        ```swift
        // BAD: first
        a()
        // GOOD: second
        b()
        ```
        ```swift:1:2:path/File.swift
        c()
        ```
        ```
        not swift
        ```
        """
        let fragments = Self.fragments(in: text, seed: "x")
        XCTAssertEqual(fragments.map(\.label), [.bad, .good, .unlabelled])
        XCTAssertEqual(fragments.map(\.heading), ["9. Something", "9. Something", "9. Something"])
        XCTAssertEqual(fragments[2].code, "c()")
        XCTAssertTrue(Self.wrap("a()").hasPrefix("func __fragment() async throws {"))
        XCTAssertEqual(Self.wrap("struct A {}"), "struct A {}")
    }
}
