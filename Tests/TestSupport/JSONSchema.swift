import Foundation
import XCTest

/// Validates JSON documents against a JSON Schema with Python's jsonschema (`.ci/setup` installs it),
/// the validator picked from the schema's `$schema`. A missing validator skips the test on a
/// developer's machine and fails it in CI (`CI` set), so CI can never pass without validating.
public enum JSONSchema {
    /// The errors of `document` (JSON text) against the schema in `schemaPath`, one line each
    /// (`path/to/value: message`); empty when it is valid.
    public static func errors(_ document: String, schemaPath: String) throws -> [String] {
        try errors([document], schemaPath: schemaPath)[0]
    }

    /// The same for several documents, with one Python process.
    public static func errors(_ documents: [String], schemaPath: String) throws -> [[String]] {
        let directory = URL(fileURLWithPath: Repository.temporaryPath("healthaudit-schema"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (index, document) in documents.enumerated() {
            let path = directory.appendingPathComponent("document-\(index).json").path
            try document.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        // One block per document, each ended by a line holding only NUL (never part of a message).
        let script = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            sys.exit(3)
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        validator = cls(schema)
        for path in sys.argv[2:]:
            document = json.load(open(path, encoding="utf-8"))
            for error in sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path))):
                print("/".join(map(str, error.absolute_path)) + ": " + error.message[:300].replace("\\n", " "))
            print("\\0")
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schemaPath] + paths
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: break
        // The validator is missing: a skip on a developer's machine, a failure in CI (`CI=true`).
        case 3, 127:
            let reason = "python3 with jsonschema is needed (run .ci/setup)"
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail(reason); throw CocoaError(.executableNotLoadable) }
            throw XCTSkip(reason)
        // Anything else — invalid JSON, a broken schema — is a real failure.
        default:
            XCTFail("schema validation failed to run: \(failure)")
            throw CocoaError(.fileReadCorruptFile)
        }
        var blocks: [[String]] = [[]]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "\0" { blocks.append([]) } else if !line.isEmpty { blocks[blocks.count - 1].append(String(line)) }
        }
        blocks.removeLast()
        guard blocks.count == documents.count else {
            XCTFail("schema validation answered for \(blocks.count) of \(documents.count) documents: \(text)")
            throw CocoaError(.fileReadCorruptFile)
        }
        return blocks
    }
}
