@testable import Checklist
import Foundation
import Manifest
import Report
import SiteBuild
import XCTest
import TestSupport

/// A small site written by these tests (Hugo's style), audited once per test process, and helpers
/// shared by the output tests (schema validation, synthetic findings).
/// Its apps (`InlineApp.findingsSite`) hold exactly the facts the output tests rely on.
enum OutputFixture {
    static let repository: String = {
        let path = Repository.temporaryDirectory("healthaudit-output-fixture")
        atexit { try? FileManager.default.removeItem(atPath: OutputFixture.repository) }
        return path
    }()
    static let site = repository + "/Site"

    /// As `healthaudit check` run from the fixture's repository root would see it.
    static let context = OutputContext(sitePrefix: "Site", siteDirectory: site)

    nonisolated(unsafe) private static var cached: [AppAudit]?

    static let files = InlineApp.findingsSite

    static func audits() throws -> [AppAudit] {
        if let cached { return cached }
        let fixture = try TestSite(files: files, root: repository)
        let options = BuildOptions(siteDirectory: fixture.site, templatesDirectory: Repository.templates, log: SilentLog())
        let audits = try Pipeline.audit.run(options).audits
        cached = audits
        return audits
    }

    /// The line of `text` in one of the fixture's files.
    static func line(of text: String, in path: String) throws -> Int {
        let lines = try XCTUnwrap(files[path]).components(separatedBy: "\n")
        return try XCTUnwrap(lines.firstIndex { $0.contains(text) }) + 1
    }

    static func audit(_ id: String) throws -> AppAudit {
        try XCTUnwrap(try audits().first { $0.manifest.id == id })
    }

    /// A fixture app's audit with its findings replaced, for cases the fixture does not contain.
    static func audit(_ id: String = "veloride", findings: [Finding]) throws -> AppAudit {
        var audit = try audit(id)
        audit.findings = findings
        return audit
    }

    static func finding(_ rule: String = "usage-string-vague", severity: Severity = .warning, message: String = "a message",
                        file: String = "apps/veloride/VeloRide/Info.plist", line: Int? = 12, column: Int? = nil,
                        quote: String = "<key>NSHealthShareUsageDescription</key>", suppressed: Suppression.Origin? = nil) -> Finding {
        var finding = Finding(ruleID: rule, severity: severity, message: message,
                              location: FileLocation(file: file, line: line, column: column), quote: quote, target: "veloride")
        if let suppressed {
            finding.suppression = Suppression(origin: suppressed, reason: "accepted for launch",
                                              location: FileLocation(file: file, line: line.map { $0 - 1 }))
        }
        return finding
    }

    static var sarifSchemaPath: String {
        Bundle.module.url(forResource: "Schemas", withExtension: nil)!.appendingPathComponent("sarif-schema-2.1.0.json").path
    }

    /// Validates `document` against the JSON Schema in `schemaPath` (Python's jsonschema; skipped on
    /// a laptop without it, a failure in CI); returns the errors, empty when valid.
    static func schemaErrors(_ document: String, schemaPath: String) throws -> [String] {
        try JSONSchema.errors(document, schemaPath: schemaPath)
    }

    static func writeTemporary(_ text: String) throws -> String {
        let path = Repository.temporaryPath("healthaudit", extension: "json")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}

final class OutputFixtureTests: XCTestCase {
    /// The facts the output tests rely on, stated once: if a rule changes, this fails first.
    func testTheFixtureHoldsWhatTheOutputTestsRelyOn() throws {
        let audits = try OutputFixture.audits()
        XCTAssertEqual(audits.map(\.manifest.id), ["veloride", "trainer", "steady"])
        let veloride = try OutputFixture.audit("veloride"), trainer = try OutputFixture.audit("trainer")
        let summary = audits.map { audit in audit.findings.map { "\($0.ruleID) \($0.severity) \($0.location.line ?? 0):\($0.location.column ?? 0)\($0.isSuppressed ? " suppressed" : "")" } }
        XCTAssertEqual(veloride.activeFindings.filter { $0.ruleID == "authorization-remembered" && $0.location.column != nil }.count, 2, "\(summary)")
        XCTAssertTrue(veloride.activeFindings.contains { $0.severity == .note }, "\(summary)")
        XCTAssertEqual(veloride.findings.filter(\.isSuppressed).map(\.ruleID), ["icloud-beside-healthkit"], "\(summary)")
        let missing = try XCTUnwrap(trainer.activeFindings.first { $0.ruleID == "usage-string-missing" }, "\(summary)")
        XCTAssertEqual(missing.severity, .error)
        XCTAssertEqual(missing.location.line, try OutputFixture.line(of: "<dict>", in: "apps/trainer/Trainer/Info.plist"))
        XCTAssertEqual(try OutputFixture.audit("steady").findings.map(\.ruleID), [], "\(summary)")
        XCTAssertEqual(Set(audits.flatMap(\.findings).map(\.severity)), Set(Severity.allCases))
    }

    func testSchemaValidatorReportsErrors() throws {
        let schema = try OutputFixture.writeTemporary(#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["a"]}"#)
        defer { try? FileManager.default.removeItem(atPath: schema) }
        XCTAssertEqual(try OutputFixture.schemaErrors(#"{"a": 1}"#, schemaPath: schema), [])
        XCTAssertEqual(try OutputFixture.schemaErrors(#"{"b": 1}"#, schemaPath: schema).count, 1)
    }
}
