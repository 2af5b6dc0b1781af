import Foundation

/// Polls the inputs of a build and calls back once per burst of changes: a save that touches
/// several files (or an editor writing a temporary file and renaming it) makes one rebuild.
public struct ChangeWatcher: Sendable {
    /// The site folder (config, content, app folders and their source roots) and the templates.
    public var roots: [String]
    /// The build's own output, and the hidden files the build keeps beside it, are not inputs.
    public var output: String
    public var interval: Duration
    /// A burst that never settles still rebuilds after this long.
    public var maxDelay: Duration

    public init(roots: [String], output: String, interval: Duration = .milliseconds(300), maxDelay: Duration = .seconds(3)) {
        self.roots = roots
        self.output = output
        self.interval = interval
        self.maxDelay = maxDelay
    }

    public func isOutput(_ path: String) -> Bool {
        if path == output || path.hasPrefix(output + "/") { return true }
        let parent = (output as NSString).deletingLastPathComponent
        let name = (output as NSString).lastPathComponent
        guard (path as NSString).deletingLastPathComponent == parent else { return false }
        // The writer's hidden siblings: `.public-tmp-…` (staging), `.public-old-…` (retired site)
        // and `.public.cache.json` (what the last build was made from).
        let entry = (path as NSString).lastPathComponent
        return entry.hasPrefix(".\(name)-") || entry.hasPrefix(".\(name).")
    }

    public func snapshot() -> FileSnapshot {
        FileSnapshot(roots: roots, skip: isOutput)
    }

    /// The walk is blocking file-system work (up to 50,000 stats), so it runs on a Dispatch
    /// thread: the cooperative pool's threads stay free to answer requests.
    public func snapshotOffPool() async -> FileSnapshot {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { continuation.resume(returning: snapshot()) }
        }
    }

    /// Calls `changed` after each settled burst, until the task is cancelled. Changes are
    /// measured from `baseline` (taken before the first build, so an edit made while it ran
    /// counts), and edits made while `changed` runs from the snapshot taken before it.
    public func run(from baseline: FileSnapshot, _ changed: @Sendable () async -> Void) async {
        var last = baseline
        var debouncer = Debouncer(maxDelay: maxDelay)
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            let now = await snapshotOffPool()
            let differs = now != last
            last = now
            if debouncer.poll(changed: differs, at: .now) { await changed() }
        }
    }
}

/// Decides when a burst of changes has settled: at the first poll that sees no further change,
/// or once changes have gone on for `maxDelay` without a pause.
public struct Debouncer: Sendable {
    public var maxDelay: Duration
    private var burstStart: ContinuousClock.Instant?

    public init(maxDelay: Duration) { self.maxDelay = maxDelay }

    /// Whether to rebuild now, given what this poll saw.
    public mutating func poll(changed: Bool, at now: ContinuousClock.Instant) -> Bool {
        if changed {
            let start = burstStart ?? now
            burstStart = start
            if now - start < maxDelay { return false }
        }
        guard burstStart != nil else { return false }
        burstStart = nil
        return true
    }
}
