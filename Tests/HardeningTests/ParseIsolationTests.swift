import Foundation
import Manifest
import XCTest
import TestSupport

/// Issue 33, item 3: a parse that outlives its deadline is killed, not only abandoned. Each file's
/// first parse runs in a worker process (the built binary with its hidden worker argument), which
/// is killed at the deadline; a worker's crash refuses the file instead of crashing the audit; and
/// where no worker can run, the parse runs in process as before.
final class ParseIsolationTests: XCTestCase {
    static let realFile = "import HealthKit\n\nfinal class Reader {\n    let store = HKHealthStore()\n    func steps() -> Int { 42 }\n}\n"

    func worker() throws -> ParseIsolation {
        try HealthAuditBinary.requireBuilt()
        return ParseIsolation(executable: HealthAuditBinary.path)
    }

    /// The fuzzer's `<data>` run (a minute of error recovery), with a deadline of a fifth of a
    /// second: the worker is killed, the file refused with the deadline's reason, its CPU time
    /// charged — and no thread of this process is left parsing it.
    func testAParsePastItsDeadlineKillsTheWorker() throws {
        let isolation = try worker()
        // Its own text: contents refused once in this process are refused at once after.
        let slow = "import HealthKit\n\nstruct Killed {\n    pri" + String(repeating: "<data>", count: 10_003) + "\n}\n"
        let budget = ParseBudget(fileBase: 0.2, filePerMiB: 0, isolation: isolation)
        let abandonedBefore = BoundedSwiftParse.abandoned.running
        guard case .refused(let refusal) = BoundedSwiftParse.parse(slow, budget: budget) else { return XCTFail("parsed") }
        XCTAssertEqual(refusal.reason, "the Swift parser did not finish within 0 s of CPU time (its error recovery is slow on some malformed files)")
        XCTAssertFalse(refusal.failsRun)
        XCTAssertEqual(isolation.workersKilled, 1)
        XCTAssertGreaterThanOrEqual(budget.secondsSpent, 0.2)
        XCTAssertEqual(BoundedSwiftParse.abandoned.running, abandonedBefore, "no parse of it was left running here")
    }

    /// A file the worker parsed in time is parsed here for its tree; the worker is kept for the next.
    func testAFileParsedInTimeIsParsedHereAndTheWorkerKept() throws {
        let isolation = try worker()
        let budget = ParseBudget(isolation: isolation)
        for text in [Self.realFile, Self.realFile + "\nlet second = 2\n"] {
            guard case .parsed(let tree) = BoundedSwiftParse.parse(text, budget: budget) else { return XCTFail("refused") }
            XCTAssertEqual(tree.description, text)
        }
        XCTAssertEqual(isolation.workersStarted, 1)
        XCTAssertEqual(isolation.workersKilled, 0)
    }

    /// A worker that dies of a signal mid-parse (here a shell that reads the request and sends
    /// itself SIGSEGV, as a crash in swift-syntax would end it): the file is refused, at line 1,
    /// with a warning's reason; this process never parses it.
    func testAWorkerThatCrashesRefusesTheFile() throws {
        let crashing = ParseIsolation(executable: "/bin/sh", arguments: ["-c", "head -c 8 >/dev/null; kill -SEGV $$"])
        guard case .refused(let refusal) = BoundedSwiftParse.parse(Self.realFile + "// crashes\n", budget: ParseBudget(isolation: crashing)) else {
            return XCTFail("parsed")
        }
        XCTAssertEqual(refusal.line, 1)
        XCTAssertEqual(refusal.reason, "the Swift parser crashed on this file (signal 11) in the worker process that parses it first")
        XCTAssertFalse(refusal.failsRun)
    }

    /// A crash is remembered: with the cache, the next run refuses the file for the same reason
    /// without a worker, and the reason is one the tool could have written (so it is trusted).
    func testACachedCrashIsRefusedAgainWithoutAWorker() throws {
        let folder = Repository.temporaryDirectory("parse-isolation-crash-cache")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try XCTUnwrap(SwiftFileCache(folder: folder, tool: "isolation test", settings: "test"))
        let text = Self.realFile + "// crashes, cached\n"
        let crashing = ParseIsolation(executable: "/bin/sh", arguments: ["-c", "head -c 8 >/dev/null; kill -SEGV $$"])
        guard case .refused(let first) = BoundedSwiftParse.parse(text, budget: ParseBudget(isolation: crashing), cache: cache),
              case .refused(let again) = BoundedSwiftParse.parse(text, budget: ParseBudget(isolation: nil), cache: cache) else { return XCTFail("parsed") }
        XCTAssertEqual(again, first)
        XCTAssertEqual(cache.facts(for: text)?.outcome, .refused)
    }

    /// No worker (a binary that is missing, or one that exits at once): the file is parsed in
    /// process, with its deadline, as without isolation — never refused for the tool's own trouble.
    func testWithoutAWorkerTheParseRunsHere() throws {
        for isolation in [ParseIsolation(executable: "/nonexistent/healthaudit"), ParseIsolation(executable: "/bin/true", arguments: [])] {
            guard case .parsed = BoundedSwiftParse.parse(Self.realFile, budget: ParseBudget(isolation: isolation)) else {
                return XCTFail("refused with \(isolation.executable)")
            }
        }
    }

    /// With a cache, a file a worker parsed in time is parsed by none on the next run.
    func testACachedParseSkipsTheWorker() throws {
        let folder = Repository.temporaryDirectory("parse-isolation-cache")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try XCTUnwrap(SwiftFileCache(folder: folder, tool: "isolation test", settings: "test"))
        let text = Self.realFile + "// cached\n"
        let first = try worker(), second = try worker()
        guard case .parsed = BoundedSwiftParse.parse(text, budget: ParseBudget(isolation: first), cache: cache),
              case .parsed = BoundedSwiftParse.parse(text, budget: ParseBudget(isolation: second), cache: cache) else { return XCTFail("refused") }
        XCTAssertEqual(first.workersStarted, 1)
        XCTAssertEqual(second.workersStarted, 0)
        XCTAssertEqual(cache.facts(for: text)?.outcome, .parsed)
    }

    /// A worker stops by itself past its deadline (its own CPU limit, SIGXCPU) when no caller
    /// kills it — the caller killed, or stopped before its exit handlers ran: here a request
    /// written by hand with a half-second deadline, and nobody watching.
    func testAWorkerLeftAloneStopsAtItsOwnLimit() throws {
        try HealthAuditBinary.requireBuilt()
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: HealthAuditBinary.path)
        worker.arguments = [ParseIsolation.workerArgument]
        let input = Pipe()
        worker.standardInput = input
        worker.standardOutput = FileHandle.nullDevice
        worker.standardError = FileHandle.nullDevice
        try worker.run()
        let text = Array(("import HealthKit\n\nstruct Alone {\n    pri" + String(repeating: "<data>", count: 10_007) + "\n}\n").utf8)
        var request = [UInt8]()
        withUnsafeBytes(of: UInt64(text.count).littleEndian) { request.append(contentsOf: $0) }
        withUnsafeBytes(of: (0.5).bitPattern.littleEndian) { request.append(contentsOf: $0) }
        request += text
        try input.fileHandleForWriting.write(contentsOf: Data(request))
        worker.waitUntilExit()
        XCTAssertEqual(worker.terminationReason, .uncaughtSignal)
        XCTAssertEqual(worker.terminationStatus, SIGXCPU)
    }

}
