import Foundation
import Manifest
import Report

/// What the last successful build was made from, kept inside the output as a dot-file
/// (`Site/public/.healthaudit-cache.json`) and swapped in with the site, so the two never disagree:
/// the digest of every input, and each cached page's key.
public struct BuildCache: Codable, Sendable, Equatable {
    /// 2: the tool that wrote it, the apps' reports it keeps (`AppsCache`) and the build's traces.
    public static let version = 2

    public var version = BuildCache.version
    public var inputDigest: String
    /// The binary that built the site: pages are reused only by the same tool (a key does not say
    /// how the tool renders).
    public var tool: String
    /// What the apps' reports were made from, and the digest of the file keeping them; nil: none kept.
    public var appsDigest: String?
    public var appsFile: String?
    /// What the build asked of the file system (`FileTrace`): sources and content, then templates.
    /// A rebuild asks it again and reads only the files that changed.
    public var traces: [FileTrace]?
    /// Output path → key of the inputs it was rendered from (pages without a key are not listed).
    public var keys: [String: String]
    /// Every file of the output, to check it is still whole.
    public var files: [String]

    public static let fileName = ".healthaudit-cache.json"

    static func path(for output: String) -> String { output + "/" + fileName }

    /// Where versions before 0.4 kept it: beside the output, which wrote outside the output folder.
    static func legacyPath(for output: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).cache.json").path
    }

    static func load(for output: String) -> BuildCache? {
        guard let data = FileManager.default.contents(atPath: path(for: output)),
              let cache = try? JSONDecoder().decode(BuildCache.self, from: data), cache.version == version else { return nil }
        return cache
    }

    /// The cache as one more file of the site, written into the staging folder with the rest.
    func outputFile() -> OutputFile {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return OutputFile(path: Self.fileName, data: (try? encoder.encode(self)) ?? Data())
    }

    /// The previous output is still all there (nobody deleted or half-copied it) and every page is
    /// a regular file of it (a symlink planted in it, of a page or a folder, makes the whole output stale).
    func outputIsWhole(_ output: String) -> Bool {
        PosixFiles.areRegularFiles(files, below: output)
    }
}

/// Renders the pending files on every core into the staging folder, reusing unchanged pages of
/// the previous site. Each page is written as soon as it is rendered and then dropped, so memory
/// holds the pages in flight, not the site; bytes are counted as they come, and the first page
/// that would take the site over `budget` stops the rendering.
enum ParallelRender {
    struct Outcome {
        /// The pages linked from the previous site, in plan order.
        var reused: [String] = []
        /// The bytes reached when the budget was crossed; nil when the whole site fits.
        var overBudget: Int?
    }

    static func write(_ plan: [PendingFile], previous: BuildCache?, into staging: SiteWriter.Staging, budget: Int) throws -> Outcome {
        let tally = Tally(budget: budget)
        let failures = SiteWriter.FailureBox()
        let order = SpreadOrder(count: plan.count, parts: ProcessInfo.processInfo.activeProcessorCount)
        DispatchQueue.concurrentPerform(iterations: plan.count) { iteration in
            guard !tally.stopped else { return }
            let index = order.index(iteration)
            let pending = plan[index]
            do {
                // An unchanged page is linked from the previous site; one no longer a regular file there is rendered.
                if let key = pending.key, previous?.keys[pending.path] == key, let size = try staging.reuse(pending.path) {
                    _ = tally.add(size, reused: index)
                    return
                }
                let data = pending.render()
                guard tally.add(data.count, reused: nil) else { return }
                try staging.write(OutputFile(path: pending.path, data: data))
            } catch { failures.record(error); tally.stop() }
        }
        if let error = failures.first { throw error }
        return Outcome(reused: tally.reused.sorted().map { plan[$0].path }, overBudget: tally.overBudget)
    }

    /// The plan lists a folder's pages together (the apps, then each app's days). Threads taking
    /// pages in that order create files in one folder at once, and the kernel serialises creation
    /// within a folder: the second thread waits (spinning) while the first allocates an inode.
    /// Taken in this order instead, consecutive iterations come from `parts` distant stretches of
    /// the plan, each walked in order, so concurrent threads mostly write to different folders.
    struct SpreadOrder {
        let count: Int
        let parts: Int
        let stretch: Int

        init(count: Int, parts: Int) {
            self.count = count
            self.parts = max(1, min(parts, count))
            stretch = count == 0 ? 0 : (count + self.parts - 1) / self.parts
        }

        /// The plan index of iteration `iteration`; every index in 0..<count exactly once.
        /// Iterations 0, parts, 2·parts … walk stretch 0; 1, parts + 1 … stretch 1; and so on. The
        /// first `long` stretches hold `stretch` indices, the others one fewer (their last row is
        /// not there, and the iterations of that row are the long stretches' alone).
        func index(_ iteration: Int) -> Int {
            let long = count - (stretch - 1) * parts
            let row = iteration / parts, column = iteration % parts
            return column < long ? column * stretch + row : long * stretch + (column - long) * (stretch - 1) + row
        }
    }

    /// Bytes of the site so far, shared by the rendering threads.
    private final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private let budget: Int
        private var bytes = 0
        private(set) var reused: [Int] = []
        private(set) var overBudget: Int?
        private var halted = false

        init(budget: Int) { self.budget = budget }

        var stopped: Bool { lock.withLock { halted } }

        func stop() { lock.withLock { halted = true } }

        /// Counts a page; false when it takes the site over the budget (and every thread stops).
        func add(_ count: Int, reused index: Int?) -> Bool {
            lock.withLock {
                guard !halted else { return false }
                bytes += count
                if bytes > budget {
                    overBudget = bytes
                    halted = true
                    return false
                }
                if let index { reused.append(index) }
                return true
            }
        }
    }
}
