import Checklist
import Manifest
import XCTest

/// One check for every rule, whatever language its examples are written in (SwiftLint's
/// `verifyRule`): triggering examples find exactly at their `↓` markers (or somewhere, when
/// unmarked) with a line, column and quote, never above the rule's severity; non-triggering
/// examples find nothing; and the triggering code, wrapped in a comment or a string literal, or
/// preceded by an inline suppression, no longer raises an active finding. Returns what failed,
/// one line each (empty when the rule passes), so rules can be verified on several threads.
func verifyRule(_ rule: any Rule.Type) throws -> [String] {
    let id = rule.description.id
    var problems = Problems()
    func findings(_ app: AppManifest) -> [Finding] {
        Checklist(rules: [rule.init()]).audit(app).findings.filter { $0.ruleID == id }
    }
    func findings(_ example: RuleExample) throws -> [Finding] { findings(try example.load()) }
    for (index, example) in rule.description.triggering.enumerated() {
        let label = "\(id): triggering example \(index)"
        let app = try example.load()
        let found = findings(app)
        problems.expect(!found.isEmpty, "\(label) found nothing")
        // A rule must say it applies to every kind of app it reports on (JUnit lists it only there).
        problems.expect(rule.description.applies(to: app), "\(label): found on a \(app.codeKinds) app, but reads \(rule.description.reads)")
        if !example.markers.isEmpty {
            // A finding in a manifest (a plist key, a strings entry) has a line but no column: its marker pins the line.
            problems.expectEqual(found.map { "\($0.location.file):\($0.location.line ?? 0)" + ($0.location.column.map { ":\($0)" } ?? "") }.sorted(),
                                 example.markers.map { marker in
                                     let path = "apps/example/\(RuleExample.appPath(marker.file)):\(marker.line)"
                                     return CodeLanguage(path: marker.file) == nil ? path : path + ":\(marker.column)"
                                 }.sorted(),
                                 label)
        }
        for finding in found {
            problems.expect((finding.location.line ?? 0) >= 1, "\(label): \(finding.message)")
            problems.expect(!finding.quote.isEmpty, "\(label) quotes nothing")
            problems.expect(finding.severity <= rule.description.severity, "\(label): \(finding.severity) is above the rule's \(rule.description.severity)")
        }

        // Findings in code must come from code, not from the same words in a comment or a string.
        let inCode = found.filter { CodeLanguage(path: $0.location.file) != nil }
        guard !inCode.isEmpty else { continue }
        for (how, wrapping) in [("commented out", CodeLanguage.commentedOut), ("in a string literal", CodeLanguage.quoted)] {
            let wrapped = example.rewritingCode { language, _, text in wrapping(language)(text) }
            let stillFound = try findings(wrapped).filter { CodeLanguage(path: $0.location.file) != nil }
            problems.expectEqual(stillFound.map { "\($0.location): \($0.message)" }, [], "\(label), code \(how)")
        }
        let lines = Dictionary(grouping: inCode, by: \.location.file).mapValues { Set($0.compactMap(\.location.line)) }
        let suppressed = example.rewritingCode { _, path, text in
            RuleExample.suppressing(id, atLines: lines["apps/example/" + RuleExample.appPath(path)] ?? [], in: text)
        }
        let audit = try Checklist(rules: [rule.init()]).audit(suppressed.load())
        let active = audit.activeFindings.filter { $0.ruleID == id && CodeLanguage(path: $0.location.file) != nil }
        problems.expectEqual(active.map { "\($0.location): \($0.message)" }, [], "\(label), with an inline suppression")
        problems.expect(audit.findings.contains { $0.ruleID == id && $0.suppression?.origin == .inline }, "\(label): the suppressed finding is kept, marked")
    }
    for (index, example) in rule.description.nonTriggering.enumerated() {
        problems.expectEqual(try findings(example).map { "\($0.location): \($0.message)" }, [], "\(id): non-triggering example \(index)")
    }
    return problems.all
}

/// Failed expectations as XCTest words them, kept to be asserted on the test's own thread.
struct Problems {
    private(set) var all: [String] = []

    mutating func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { all.append(message()) }
    }

    mutating func expectEqual<T: Equatable>(_ value: T, _ expected: T, _ message: @autoclosure () -> String) {
        if value != expected { all.append("(\"\(value)\") is not equal to (\"\(expected)\") - \(message())") }
    }
}

/// The languages rules read code in; all three write `//` comments.
enum CodeLanguage {
    case swift, javaScript, dart

    init?(path: String) {
        switch (path as NSString).pathExtension {
        case "swift": self = .swift
        case "js", "jsx", "ts", "tsx", "mjs", "cjs": self = .javaScript
        case "dart": self = .dart
        default: return nil
        }
    }

    /// Every line behind `//`.
    static func commentedOut(_ language: CodeLanguage) -> (String) -> String {
        { text in text.split(separator: "\n", omittingEmptySubsequences: false).map { "// " + $0 }.joined(separator: "\n") }
    }

    /// The whole text as the value of one string literal, escaped for the language, one line per
    /// concatenated piece so line numbers stay close.
    static func quoted(_ language: CodeLanguage) -> (String) -> String {
        { text in
            let pieces = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                var escaped = line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                if language == .dart { escaped = escaped.replacingOccurrences(of: "$", with: "\\$") }
                return "\"" + escaped + "\\n\""
            }
            switch language {
            case .swift: return "let text = " + pieces.joined(separator: " +\n    ")
            case .javaScript: return "export const text = " + pieces.joined(separator: " +\n    ") + ";"
            case .dart: return "const text = " + pieces.joined(separator: "\n    ") + ";"
            }
        }
    }
}

extension RuleExample {
    /// Where an example file lands in the app (files under `js/` sit at the app root).
    static func appPath(_ file: String) -> String { file.hasPrefix("js/") ? String(file.dropFirst(3)) : file }

    /// The example with each code file rewritten (markers are dropped: they no longer apply).
    func rewritingCode(_ rewrite: (CodeLanguage, String, String) -> String) -> RuleExample {
        var copy = self
        for (path, text) in files {
            if let language = CodeLanguage(path: path) { copy.files[path] = rewrite(language, path, text) }
        }
        copy.markers = []
        return copy
    }

    /// `text` with a reasoned `healthaudit:disable-next-line` comment above each of `lines`.
    static func suppressing(_ rule: String, atLines lines: Set<Int>, in text: String) -> String {
        var result: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if lines.contains(index + 1) {
                let indent = line.prefix { $0 == " " || $0 == "\t" }
                result.append(indent + "// healthaudit:disable-next-line \(rule) -- verified by the rule's own test")
            }
            result.append(String(line))
        }
        return result.joined(separator: "\n")
    }
}

/// Every rule in the catalogue, verified the same way.
final class RuleVerificationTests: XCTestCase {
    func testEveryRule() throws {
        XCTAssertFalse(RuleCatalog.all.isEmpty)
        for rule in RuleCatalog.all {
            XCTAssertFalse(rule.description.triggering.isEmpty, "\(rule.description.id) has no triggering example")
            XCTAssertFalse(rule.description.nonTriggering.isEmpty, "\(rule.description.id) has no non-triggering example")
        }
        // Each example in a folder of its own: rules verified on every core, problems in catalogue order.
        let problems = try ParallelMap.map(RuleCatalog.all) { rule in Result { try verifyRule(rule) } }.flatMap { try $0.get() }
        XCTAssertTrue(problems.isEmpty, "\(problems.count) problems:\n" + problems.joined(separator: "\n"))
    }

    /// The wrappers themselves: a rule that fires on code stops firing when it is a comment or a string.
    func testTheWrappersKeepTheCodeButNotItsMeaning() {
        let code = "let a = \"x\\(y)\" // $z\nf()"
        XCTAssertEqual(CodeLanguage.commentedOut(.swift)(code), "// let a = \"x\\(y)\" // $z\n// f()")
        XCTAssertEqual(CodeLanguage.quoted(.swift)(code), "let text = \"let a = \\\"x\\\\(y)\\\" // $z\\n\" +\n    \"f()\\n\"")
        XCTAssertEqual(CodeLanguage.quoted(.dart)("a = '$b';"), "const text = \"a = '\\$b';\\n\";")
        XCTAssertEqual(RuleExample.suppressing("r", atLines: [2], in: "a\n  b"), "a\n  // healthaudit:disable-next-line r -- verified by the rule's own test\n  b")
    }
}

/// Every rule names the Apple documentation or App Review guideline it rests on.
final class RuleReferenceTests: XCTestCase {
    func testEveryRuleRestsOnAppleDocuments() {
        for rule in RuleCatalog.all {
            let references = rule.description.references
            XCTAssertFalse(references.isEmpty, "\(rule.description.id) names no reference")
            for reference in references {
                XCTAssertTrue(reference.url.hasPrefix("https://developer.apple.com/"), "\(rule.description.id): \(reference.url)")
                XCTAssertFalse(reference.title.isEmpty)
            }
        }
        XCTAssertEqual(Set(RuleReferences.table.keys), Set(RuleCatalog.all.map { $0.description.id }), "no reference for a rule that does not exist")
    }
}
