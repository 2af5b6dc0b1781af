import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses in a child process that can be killed. swift-syntax cannot be cancelled, so a parse that
/// runs past its deadline in this process keeps its thread until it ends by itself. With isolation,
/// a file's first parse runs in a worker — this same binary, started with `workerArgument` — that
/// is killed when it has used the file's deadline in CPU time; only a file the worker parsed in
/// time is parsed again here, for its tree. A file that kills the worker (a crash in swift-syntax)
/// is refused instead of crashing the audit.
///
/// Workers are kept and reused; each reads requests on its standard input (a 64-bit little-endian
/// length, the deadline in CPU seconds as a little-endian double, then the UTF-8 text) and answers on its standard output (one status byte). They read
/// nothing else, and end when this process closes their socket (on exit).
public final class ParseIsolation: @unchecked Sendable {
    /// The hidden argument that makes the binary a parse worker (`runWorker`).
    public static let workerArgument = "__parse-worker"

    /// The isolation every `ParseBudget` made without one uses: set once by the command line
    /// (its own binary as the worker); nil in library use and in tests that do not set it.
    public static var shared: ParseIsolation? {
        get { sharedSlot.withLock { $0 } }
        set { sharedSlot.withLock { $0 = newValue } }
    }
    private static let sharedSlot = LockedValue<ParseIsolation?>(nil)

    public enum Outcome: Equatable, Sendable {
        /// The worker parsed the file within its deadline.
        case finished(cpuSeconds: Double)
        /// The worker was killed at the deadline, having used `cpuSeconds`.
        case killed(cpuSeconds: Double)
        /// The worker died of a signal while parsing: swift-syntax crashes on the text.
        case crashed(signal: Int32)
        /// No worker could be started or reached: the caller parses in process, as without isolation.
        case unavailable
    }

    public let executable: String
    public let arguments: [String]
    private let idle = LockedValue<[Worker]>([])
    private let counts = LockedValue<(started: Int, killed: Int)>((0, 0))

    /// `executable` and `arguments` start one worker (`arguments` default to `workerArgument`).
    public init(executable: String, arguments: [String] = [ParseIsolation.workerArgument]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// This binary as its own worker, or nil when its path cannot be known. On Linux the running
    /// image itself (`/proc/self/exe`), so a binary rebuilt or removed while `serve` runs never
    /// becomes the worker of the old one, whose requests it might read differently.
    public static func ownBinary() -> ParseIsolation? {
        #if os(Linux)
        guard FileManager.default.fileExists(atPath: "/proc/self/exe") else { return nil }
        return ParseIsolation(executable: "/proc/self/exe")
        #else
        return Bundle.main.executablePath.map { ParseIsolation(executable: $0) }
        #endif
    }

    /// Workers started and killed at a deadline by this isolation so far.
    public var workersStarted: Int { counts.withLock { $0.started } }
    public var workersKilled: Int { counts.withLock { $0.killed } }

    /// Parses `text` in a worker, killing it once it has used `cpuSeconds` of CPU time.
    public func parse(_ text: String, cpuSeconds: Double) -> Outcome {
        var request = [UInt8]()
        let utf8 = text.utf8
        request.reserveCapacity(16 + utf8.count)
        withUnsafeBytes(of: UInt64(utf8.count).littleEndian) { request.append(contentsOf: $0) }
        withUnsafeBytes(of: cpuSeconds.bitPattern.littleEndian) { request.append(contentsOf: $0) }
        request.append(contentsOf: utf8)
        // A kept worker may have gone away since (its socket then fails): one fresh try after it.
        for attempt in 0..<2 {
            guard let worker = take(fresh: attempt > 0) else { return .unavailable }
            let startCPU = worker.clock.seconds
            guard worker.send(request) else { worker.end(); continue }
            switch worker.awaitAnswer(startCPU: startCPU, cpuSeconds: cpuSeconds) {
            case .answered(let status):
                guard status == Worker.parsedStatus else { worker.end(); return .unavailable }
                let used = max(0, worker.clock.seconds - startCPU)
                give(worker)
                return .finished(cpuSeconds: used)
            case .overDeadline(let used):
                worker.end()
                counts.withLock { $0.killed += 1 }
                return .killed(cpuSeconds: used)
            case .died(let signal):
                // Its own CPU limit (set past the deadline, for when this process is gone) is a deadline too.
                if signal == SIGXCPU {
                    counts.withLock { $0.killed += 1 }
                    return .killed(cpuSeconds: cpuSeconds)
                }
                if let signal, Self.crashSignals.contains(signal) { return .crashed(signal: signal) }
                // Killed by someone else (the OOM killer), or gone by itself: not the file's doing.
                if attempt == 0 { continue }
                return .unavailable
            }
        }
        return .unavailable
    }

    /// Ends the kept workers and waits for them (at exit, so that none outlives the run and their
    /// CPU time is the run's, as a shell's `time` counts it).
    public func endWorkers() {
        for worker in idle.withLock({ workers -> [Worker] in defer { workers = [] }; return workers }) { worker.finish() }
    }

    private func take(fresh: Bool) -> Worker? {
        if !fresh, let kept = idle.withLock({ $0.popLast() }) { return kept }
        guard let worker = Worker.start(executable: executable, arguments: arguments) else { return nil }
        counts.withLock { $0.started += 1 }
        return worker
    }

    private func give(_ worker: Worker) {
        let limit = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let kept = idle.withLock { workers -> Bool in
            guard workers.count < limit else { return false }
            workers.append(worker)
            return true
        }
        if !kept { worker.end() }
    }

    // MARK: The worker's side

    /// Runs the worker's loop on a large-stack thread until its input ends, then exits: the whole
    /// life of a process started with `workerArgument`.
    /// Signals a crashing parse ends a process with: SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV.
    static let crashSignals: Set<Int32> = [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV]

    public static func runWorker() -> Never {
        let thread = Thread {
            while let (text, deadline) = readRequest() {
                limitCPU(to: deadline)
                // The tree is not sent: the caller parses again, for its own.
                withExtendedLifetime(BoundedSwiftParse.parseNow(text)) {}
                var status = Worker.parsedStatus
                guard writeAll(1, &status, 1) else { exit(0) }
            }
            exit(0)
        }
        thread.stackSize = LargeStack.size
        thread.start()
        while true { sleep(3_600) }
    }

    /// The largest request a worker accepts (larger Swift files are refused before parsing).
    static let maximumRequestBytes: UInt64 = 256 << 20

    private static func readRequest() -> (text: String, deadline: Double)? {
        var header = [UInt8](repeating: 0, count: 16)
        guard readAll(0, &header, 16) else { return nil }
        let count = header.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        let deadline = header.withUnsafeBytes { Double(bitPattern: UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))) }
        guard count <= maximumRequestBytes, deadline.isFinite, deadline > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(count))
        guard count == 0 || readAll(0, &bytes, Int(count)) else { return nil }
        return (String(decoding: bytes, as: UTF8.self), deadline)
    }

    /// The worker's own CPU limit for the next parse: what it has used so far, the deadline and a
    /// margin. The caller kills it at the deadline; this ends it (SIGXCPU) if the caller is gone
    /// — killed, or stopped before its exit handlers ran — rather than leave it parsing alone.
    private static func limitCPU(to deadline: Double) {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF_WHO, &usage) == 0 else { return }
        let used = Double(usage.ru_utime.tv_sec) + Double(usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        var limit = rlimit()
        guard getrlimit(RLIMIT_CPU_RESOURCE, &limit) == 0 else { return }
        limit.rlim_cur = min(rlim_t((used + deadline + 2).rounded(.up)), limit.rlim_max)
        _ = setrlimit(RLIMIT_CPU_RESOURCE, &limit)
    }
}

/// One worker process, and this side of its socket.
private final class Worker: @unchecked Sendable {
    static let parsedStatus: UInt8 = 1

    let pid: pid_t
    let socket: Int32
    let clock: ProcessClock
    private var ended = false

    private init(pid: pid_t, socket: Int32) {
        self.pid = pid
        self.socket = socket
        clock = ProcessClock(pid: pid)
    }

    static func start(executable: String, arguments: [String]) -> Worker? {
        var pair: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else { return nil }
        let (mine, theirs) = (pair[0], pair[1])
        #if canImport(Darwin)
        _ = fcntl(mine, F_SETFD, FD_CLOEXEC); _ = fcntl(theirs, F_SETFD, FD_CLOEXEC)
        var on: Int32 = 1
        setsockopt(mine, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        defer { close(theirs) }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, theirs, 0)
        posix_spawn_file_actions_adddup2(&actions, theirs, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
            close(mine)
            return nil
        }
        return Worker(pid: pid, socket: mine)
    }

    func send(_ bytes: [UInt8]) -> Bool {
        var bytes = bytes
        return writeAll(socket, &bytes, bytes.count)
    }

    enum Answer {
        case answered(UInt8)
        case overDeadline(cpuSeconds: Double)
        /// The worker is gone: with the signal that ended it, or nil when it exited by itself.
        case died(signal: Int32?)
    }

    /// Waits for the one-byte answer while the worker has used less than `cpuSeconds` since
    /// `startCPU`. Waiting is in wall time, never shorter than the CPU time it covers.
    func awaitAnswer(startCPU: Double, cpuSeconds: Double) -> Answer {
        var used = 0.0
        while true {
            let remaining = max(cpuSeconds - used, 0.001)
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining * 1_000 + 1, 60_000)))
            if ready > 0 {
                var status: UInt8 = 0
                if readAll(socket, &status, 1) { return .answered(status) }
                return .died(signal: reap())
            }
            if ready < 0 && errno != EINTR { return .died(signal: reap()) }
            used = clock.seconds - startCPU
            if used >= cpuSeconds {
                kill(pid, SIGKILL)
                _ = reap()
                return .overDeadline(cpuSeconds: used)
            }
        }
    }

    /// Ends an idle worker as it ends by itself: its input closes, it exits, and is waited for.
    func finish() {
        guard !ended else { return }
        shutdown(socket, Int32(SHUT_WR))
        _ = reap()
    }

    /// Ends the worker (killed: it may be mid-parse) and releases its socket.
    func end() {
        kill(pid, SIGKILL)
        _ = reap()
    }

    /// Waits for the worker's end, closes the socket: the signal it died of, if any.
    private func reap() -> Int32? {
        guard !ended else { return nil }
        ended = true
        close(socket)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFSIGNALED / WTERMSIG, which Swift does not import as macros.
        let signal = status & 0x7F
        return signal != 0 && signal != 0x7F ? signal : nil
    }
}

/// Another process's CPU time (user and system), where the platform offers it; else wall time,
/// which is never shorter.
private struct ProcessClock: Sendable {
    #if canImport(Glibc)
    private let clockID: clockid_t?

    init(pid: pid_t) {
        var id = clockid_t()
        clockID = clock_getcpuclockid(pid, &id) == 0 ? id : nil
    }

    var seconds: Double {
        var time = timespec()
        guard let clockID, clock_gettime(clockID, &time) == 0 else {
            return Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    #else
    init(pid: pid_t) {}
    var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    #endif
}

private func readAll(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Bool {
    var done = 0
    while done < count {
        let got = read(fd, buffer + done, count - done)
        if got > 0 { done += got } else if got < 0 && errno == EINTR { continue } else { return false }
    }
    return true
}

private func writeAll(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Bool {
    var done = 0
    while done < count {
        #if canImport(Glibc)
        let wrote = Glibc.send(fd, buffer + done, count - done, Int32(MSG_NOSIGNAL))
        #else
        let wrote = write(fd, buffer + done, count - done)
        #endif
        if wrote > 0 { done += wrote } else if wrote < 0 && errno == EINTR { continue } else { return false }
    }
    return true
}

#if canImport(Glibc)
private let RLIMIT_CPU_RESOURCE = __rlimit_resource_t(RLIMIT_CPU.rawValue)
private let RUSAGE_SELF_WHO = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
private let RLIMIT_CPU_RESOURCE = RLIMIT_CPU
private let RUSAGE_SELF_WHO = RUSAGE_SELF
#endif

/// A value behind a lock.
final class LockedValue<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body(&value)
    }
}
