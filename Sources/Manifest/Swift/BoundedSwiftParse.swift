import Foundation
import SwiftParser
import SwiftSyntax

/// The one way Swift is parsed — app sources and Tuist manifests alike — so no file can make
/// swift-syntax run away with the audit:
///
/// 1. `SwiftNestingScan` refuses nesting swift-syntax is slow or deep with, before it sees the file.
/// 2. The parse draws on the run's `ParseBudget`; once that is spent, files are refused and the
///    run fails rather than passing without them.
/// 3. Every parse, however small the file, has a deadline in CPU time: other work, or other slow
///    parses, cannot make a file miss it. Its error recovery is quadratic on some malformed text
///    (the fuzzer's 60 KB line of `<data>` took a minute), which no cheap scan predicts.
///    swift-syntax cannot be cancelled, so with the budget's `ParseIsolation` (the command line's)
///    a file is first parsed in a worker process, killed at the deadline; only a file parsed there
///    in time is parsed here. Without one, or when no worker can be started, the parse runs on a
///    parser thread that, past its deadline, is abandoned at `SCHED_IDLE` priority. Either way the
///    time is charged to the budget (so a run gives up on only a few files before the budget
///    refuses the rest), and the contents are not parsed again in this process.
/// 4. The tree is refused when swift-syntax itself stopped at its nesting limit (`<…>` and `#if`
///    count there, which the scan leaves to it).
public enum BoundedSwiftParse {
    public enum Outcome {
        case parsed(SourceFileSyntax)
        case refused(Refusal)
    }

    /// Why a file was not parsed, and where (line 1 for the whole file).
    public struct Refusal: Sendable, Hashable {
        public var line: Int
        public var column: Int?
        public var reason: String
        /// Refused because the run's budget was spent, not for anything in the file.
        public var failsRun: Bool
        public init(line: Int, column: Int?, reason: String, failsRun: Bool) {
            self.line = line; self.column = column; self.reason = reason; self.failsRun = failsRun
        }
    }

    /// swift-syntax's own limit, the same as the scan's.
    public static let maximumNestingLevel = SwiftNestingScan.Limits().any

    /// What a file's outcome depends on besides its text and the tool: the scan's limits, swift-syntax's
    /// and the per-file deadline (part of every cache key).
    public static var settings: String {
        let limits = SwiftNestingScan.Limits(), budget = ParseBudget()
        return "scan \(limits.square) \(limits.any) \(limits.chainLinks) \(limits.readings); nesting \(maximumNestingLevel); "
            + "deadline \(budget.fileBase) + \(budget.filePerMiB)/MiB"
    }

    /// `cache`: refusals of earlier runs (`SwiftFileCache`). A file refused before, with the same
    /// text, tool and limits, is refused again without the scan or the parse — the same finding, and
    /// the same CPU time charged to the budget, so what the budget refuses later is the same with
    /// the cache or without. A refusal for the spent budget depends on the run, not the file, and
    /// is never cached; a parsed file is always scanned and parsed (its tree is not kept, and an
    /// entry saying "parsed" could come from anyone: it would never be trusted to skip the scan).
    public static func parse(_ text: String, budget: ParseBudget, cache: SwiftFileCache? = nil) -> Outcome {
        let bytes = text.utf8.count
        guard budget.admit(bytes: bytes) else {
            return .refused(Refusal(line: 1, column: nil, reason: "the run's parse budget (\(budgetText(budget))) is spent", failsRun: true))
        }
        let perFile = budget.deadline(forBytes: bytes)
        let known = cache?.facts(for: text)
        if let known, case .refused = known.outcome, let refusal = cachedRefusal(known, text: text, deadline: perFile) {
            budget.charge(known.chargedSeconds)
            return .refused(refusal)
        }
        // A file a worker parsed in time before needs no worker now: the parse here still has its
        // deadline, so an entry that lies costs only the kill, never a verdict.
        let isolation = known?.outcome == .parsed ? nil : budget.isolation
        let outcome = parseUncached(text, budget: budget, deadline: perFile, isolation: isolation)
        if let cache {
            switch outcome.result {
            case .refused(let refusal):
                cache.store(SwiftFileFacts(outcome: .refused, line: refusal.line, column: refusal.column, reason: refusal.reason,
                                           chargedSeconds: outcome.charged), for: text)
            case .parsed where outcome.isolated:
                cache.store(SwiftFileFacts(outcome: .parsed, chargedSeconds: outcome.charged), for: text)
            case .parsed: break
            }
        }
        return outcome.result
    }

    private static func parseUncached(_ text: String, budget: ParseBudget, deadline perFile: Double,
                                      isolation: ParseIsolation?) -> (result: Outcome, charged: Double, isolated: Bool) {
        if let excess = SwiftNestingScan.excess(in: text) {
            return (.refused(Refusal(line: excess.line, column: excess.column, reason: excess.reason, failsRun: false)), 0, false)
        }
        if tooSlow.contains(text) { return (.refused(slow(perFile)), 0, false) }
        var isolated = false
        switch isolation?.parse(text, cpuSeconds: perFile) {
        case .finished?: isolated = true
        case .killed(let seconds)?:
            budget.charge(seconds)
            tooSlow.insert(text)
            return (.refused(slow(perFile)), seconds, false)
        case .crashed(let signal)?:
            return (.refused(Refusal(line: 1, column: nil, reason: crashReason(signal), failsRun: false)), 0, false)
        case .unavailable?, nil: break
        }
        // The file gets its whole deadline even when less of the budget is left: a parse is never
        // abandoned for the budget's sake (each abandoned parse leaves a thread behind), and the
        // run overdraws by at most one deadline per parsing worker.
        let tree: SourceFileSyntax
        let charged: Double
        switch parseOnParserThread(text, cpuSeconds: perFile) {
        case .finished(let parsed, let seconds):
            budget.charge(seconds)
            tree = parsed
            charged = seconds
        case .abandoned(let seconds):
            budget.charge(seconds)
            tooSlow.insert(text)
            return (.refused(slow(perFile)), seconds, false)
        }
        if tree.hasMaximumNestingLevelOverflow {
            return (.refused(Refusal(line: 1, column: nil, reason: nestingLimitReason, failsRun: false)), charged, false)
        }
        return (.parsed(tree), charged, isolated)
    }

    private static let nestingLimitReason = "nested deeper than swift-syntax's limit of \(maximumNestingLevel) levels (generic `<…>` and `#if` included)"

    /// The signal's number only: its name would differ by platform, and the reason is cached.
    static func crashReason(_ signal: Int32) -> String {
        "the Swift parser crashed on this file (signal \(signal)) in the worker process that parses it first"
    }

    /// A cached refusal, trusted only as far as the tool could have written it: its reason is one
    /// of the tool's own (none of the entry's text reaches a report), and its place is in the file.
    private static func cachedRefusal(_ facts: SwiftFileFacts, text: String, deadline: Double) -> Refusal? {
        guard let line = facts.line, let reason = facts.reason,
              SwiftNestingScan.Limits().reasons.contains(reason) || reason == nestingLimitReason || reason == slow(deadline).reason
                || ParseIsolation.crashSignals.contains(where: { reason == crashReason($0) }),
              line <= text.utf8.lazy.filter({ $0 == 0x0A }).count + 1 else { return nil }
        return Refusal(line: line, column: facts.column, reason: reason, failsRun: false)
    }


    private static func slow(_ seconds: Double) -> Refusal {
        Refusal(line: 1, column: nil, reason: "the Swift parser did not finish within \(Int(seconds)) s of CPU time (its error recovery is slow on some malformed files)", failsRun: false)
    }

    private static func budgetText(_ budget: ParseBudget) -> String {
        "\(Int(budget.base)) s plus \(Int(budget.perMiB)) s per MiB of Swift"
    }

    static func parseNow(_ text: String) -> SourceFileSyntax {
        var source = text
        return source.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: maximumNestingLevel) }
    }

    /// CPU time that abandoned parses have used since they were abandoned, in this process: a cost
    /// the audit does not wait for, which a measure of what an input costs the audit leaves out
    /// (the fuzzer's), and how many of them are still running.
    public static var abandoned: (running: Int, cpuSeconds: Double) { AbandonedThreads.shared.total }

    // MARK: The parser thread

    /// Contents whose parse ran out of time once are not parsed again in this process (`serve`
    /// rebuilds on every save).
    private static let tooSlow = SlowContents()
    /// Parser threads are reused: starting one per file cost as much as the parse itself.
    private static let idle = ParserThreads()

    private enum ThreadedOutcome {
        case finished(SourceFileSyntax, cpuSeconds: Double)
        case abandoned(cpuSeconds: Double)
    }

    /// Parses on a large-stack parser thread while this one waits, until the parser thread has
    /// used `cpuSeconds` of CPU. Waiting is in wall time, which is never shorter than the CPU time
    /// it covers, so no polling is needed while the parse is young.
    private static func parseOnParserThread(_ text: String, cpuSeconds: Double) -> ThreadedOutcome {
        let job = ParseJob()
        let thread = idle.take()
        let startCPU = thread.clock.seconds
        thread.run {
            job.finish(parseNow(text))
        }
        var used = 0.0
        while true {
            let remaining = cpuSeconds - used
            if job.done.wait(timeout: .now() + max(remaining, 0.001)) == .success {
                let tree = job.tree!
                idle.give(thread)
                return .finished(tree, cpuSeconds: max(0, thread.clock.seconds - startCPU))
            }
            used = thread.clock.seconds - startCPU
            if used >= cpuSeconds {
                // Still parsing: never handed work again; it finishes at idle priority and ends.
                thread.abandon()
                return .abandoned(cpuSeconds: used)
            }
        }
    }

    private final class ParseJob: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var result: SourceFileSyntax?
        func finish(_ tree: SourceFileSyntax) { lock.lock(); result = tree; lock.unlock(); done.signal() }
        var tree: SourceFileSyntax? { lock.lock(); defer { lock.unlock() }; return result }
    }

    /// One long-lived thread that runs the jobs it is handed, one at a time, until abandoned.
    private final class ParserThread: @unchecked Sendable {
        private let wake = DispatchSemaphore(value: 0)
        private let started = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var job: (@Sendable () -> Void)?
        private var abandoned = false
        /// The thread's CPU clock, known once it runs.
        private(set) var clock = ThreadClock.current

        init() {
            let thread = Thread { [self] in
                clock = ThreadClock.current
                started.signal()
                loop()
            }
            thread.stackSize = LargeStack.size
            thread.start()
            started.wait()
        }

        func run(_ body: @escaping @Sendable () -> Void) {
            lock.lock(); job = body; lock.unlock()
            wake.signal()
        }

        func abandon() {
            lock.lock(); abandoned = true; lock.unlock()
            clock.lowerPriority()
            AbandonedThreads.shared.add(self)
            wake.signal()
        }

        private func loop() {
            while true {
                wake.wait()
                lock.lock()
                let next = job
                job = nil
                let stop = abandoned
                lock.unlock()
                if let next { next() }
                if stop {
                    AbandonedThreads.shared.finished(self)
                    return
                }
            }
        }
    }

    /// Abandoned threads still parsing, with their CPU clock when abandoned, and the CPU time of
    /// those that have finished since.
    private final class AbandonedThreads: @unchecked Sendable {
        static let shared = AbandonedThreads()
        private var running: [ObjectIdentifier: (thread: ParserThread, startCPU: Double)] = [:]
        private var finishedCPU = 0.0
        private let lock = NSLock()

        func add(_ thread: ParserThread) {
            lock.lock(); running[ObjectIdentifier(thread)] = (thread, thread.clock.seconds); lock.unlock()
        }

        /// Called on the thread itself, whose clock is still valid.
        func finished(_ thread: ParserThread) {
            lock.lock()
            if let entry = running.removeValue(forKey: ObjectIdentifier(thread)) { finishedCPU += thread.clock.seconds - entry.startCPU }
            lock.unlock()
        }

        var total: (running: Int, cpuSeconds: Double) {
            lock.lock(); defer { lock.unlock() }
            return (running.count, finishedCPU + running.values.reduce(0) { $0 + ($1.thread.clock.seconds - $1.startCPU) })
        }
    }

    private final class ParserThreads: @unchecked Sendable {
        private var threads: [ParserThread] = []
        private let lock = NSLock()
        func take() -> ParserThread {
            lock.lock()
            if let thread = threads.popLast() { lock.unlock(); return thread }
            lock.unlock()
            return ParserThread()
        }
        func give(_ thread: ParserThread) { lock.lock(); threads.append(thread); lock.unlock() }
    }

    private final class SlowContents: @unchecked Sendable {
        private var digests: Set<String> = []
        private let lock = NSLock()
        func contains(_ text: String) -> Bool {
            let digest = StableDigest.hex(text)
            lock.lock(); defer { lock.unlock() }
            return digests.contains(digest)
        }
        func insert(_ text: String) {
            let digest = StableDigest.hex(text)
            lock.lock(); digests.insert(digest); lock.unlock()
        }
    }
}

/// A thread's CPU time: the deadline of a parse is measured in it, so that other threads, however
/// busy, cannot make a parse miss its deadline. (Where the platform offers no per-thread clock to
/// another thread, wall time stands in.)
struct ThreadClock: @unchecked Sendable {
    #if canImport(Glibc)
    private let clockID: clockid_t
    private let thread: pthread_t

    static var current: ThreadClock {
        var id = clockid_t()
        let thread = pthread_self()
        if pthread_getcpuclockid(thread, &id) != 0 { id = CLOCK_MONOTONIC }
        return ThreadClock(clockID: id, thread: thread)
    }

    var seconds: Double {
        var time = timespec()
        clock_gettime(clockID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `SCHED_IDLE` (5 in Linux's headers, which Glibc's module does not export): the thread runs
    /// only when no other thread wants the CPU.
    func lowerPriority() {
        var parameters = sched_param()
        parameters.sched_priority = 0
        _ = pthread_setschedparam(thread, 5, &parameters)
    }
    #else
    static var current: ThreadClock { ThreadClock() }
    var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    func lowerPriority() {}
    #endif
}
