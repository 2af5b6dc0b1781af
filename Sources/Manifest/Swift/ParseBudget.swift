import Foundation

/// The parse time one run may spend: every Swift parse of the run (sources and Tuist manifests)
/// draws on it, measured in the parsing thread's own CPU time. It grows with the source parsed —
/// real code parses at well over 1 MiB a second, far inside the allowance — so only parses that
/// run long eat into the base. Once it is spent, further files are not parsed and the run fails
/// (`UnanalysedFile.failsRun`): junk may cost a run its time, never its verdict.
public final class ParseBudget: @unchecked Sendable {
    /// Seconds any run may spend beyond what its source's size allows.
    public let base: Double
    /// Seconds allowed per MiB of source offered for parsing.
    public let perMiB: Double
    /// One file's deadline: `fileBase` seconds plus `filePerMiB` per MiB of it (an 8 MiB generated
    /// file, the largest read, gets 35 s; the largest file of the real-app corpus, 400 KB, parses in 0.1 s).
    public let fileBase: Double
    public let filePerMiB: Double
    /// Where each file's first parse runs, so a parse past its deadline can be killed (nil: in
    /// this process, where it can only be abandoned).
    public let isolation: ParseIsolation?
    private var offered = 0
    private var spent = 0.0
    private let lock = NSLock()

    /// The run's allowance in a release build: 5 s plus 4 s per MiB.
    public static let releaseBase = 5.0, releasePerMiB = 4.0
    #if DEBUG
    /// swift-syntax built without optimisation parses 10–20 times slower (about 15 s of CPU per MiB
    /// of real code): a debug build's run gets ten times the allowance, so its tests and a developer's
    /// audits of real apps do not fail for want of it. File deadlines stay as in release: the slow
    /// malformed files they stop are what the tests measure.
    public static let buildFactor = 10.0
    #else
    public static let buildFactor = 1.0
    #endif

    public init(base: Double = ParseBudget.releaseBase * ParseBudget.buildFactor, perMiB: Double = ParseBudget.releasePerMiB * ParseBudget.buildFactor,
                fileBase: Double = 3, filePerMiB: Double = 4, isolation: ParseIsolation? = ParseIsolation.shared) {
        self.base = base
        self.isolation = isolation
        self.perMiB = perMiB
        self.fileBase = fileBase
        self.filePerMiB = filePerMiB
    }

    /// The CPU seconds one file of `bytes` may take to parse.
    public func deadline(forBytes bytes: Int) -> Double { fileBase + filePerMiB * Double(bytes) / 1_048_576 }

    /// Offers `bytes` of source for parsing: whether any of the run's budget is left for it.
    func admit(bytes: Int) -> Bool {
        lock.lock(); defer { lock.unlock() }
        offered += bytes
        return base + perMiB * Double(offered) / 1_048_576 - spent > 0
    }

    func charge(_ seconds: Double) {
        lock.lock(); spent += seconds; lock.unlock()
    }

    /// CPU seconds spent parsing so far.
    public var secondsSpent: Double { lock.lock(); defer { lock.unlock() }; return spent }
}
