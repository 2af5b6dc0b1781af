import Foundation
import XCTest

/// Runs the built `healthaudit` binary in a folder and captures its exit status and output.
public enum HealthAuditBinary {
    public static var path: String { Repository.binary }

    public struct Run {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Fails the test (never skips it) when the CLI is not built: `swift test` builds every product.
    public static func requireBuilt(file: StaticString = #filePath, line: UInt = #line) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("swift test builds the CLI; missing \(path)", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
    }

    /// Runs `binary` (default: the built CLI; a test may pass a copy of it).
    public static func run(_ arguments: [String], in directory: String, binary: String = path, environment: [String: String] = [:]) throws -> Run {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            XCTFail("\(binary) is not built")
            throw CocoaError(.fileNoSuchFile)
        }
        let capture = URL(fileURLWithPath: Repository.temporaryDirectory("healthaudit-capture"))
        defer { try? FileManager.default.removeItem(at: capture) }
        let out = capture.appendingPathComponent("stdout"), err = capture.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        // Files, not pipes: a large report on stdout cannot block the child.
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return Run(status: process.terminationStatus,
                   stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self), stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}
