import Foundation
import Report

/// What the last successful build was made from, kept inside the output as a dot-file
/// (`Site/public/.healthaudit-cache.json`) and swapped in with the site, so the two never disagree:
/// the digest of every input, and each cached page's key.
public struct BuildCache: Codable, Sendable, Equatable {
    public static let version = 1

    public var version = BuildCache.version
    public var inputDigest: String
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
        files.allSatisfy { PosixFiles.isRegularFile($0, below: output) }
    }
}

/// Renders the pending files on every core, reusing unchanged pages of the previous site.
enum ParallelRender {
    static func files(_ plan: [PendingFile], previous: BuildCache?, output: String) -> (files: [OutputFile], reused: Int) {
        let results = ResultBox(count: plan.count)
        DispatchQueue.concurrentPerform(iterations: plan.count) { index in
            let pending = plan[index]
            if let key = pending.key, previous?.keys[pending.path] == key,
               PosixFiles.isRegularFile(pending.path, below: output) {
                results.set(index, OutputFile(path: pending.path, reusing: output + "/" + pending.path))
            } else {
                results.set(index, OutputFile(path: pending.path, data: pending.render()))
            }
        }
        let files = results.values
        return (files, files.filter { $0.reusing != nil }.count)
    }

    private final class ResultBox: @unchecked Sendable {
        private var slots: [OutputFile?]
        private let lock = NSLock()
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ file: OutputFile) { lock.lock(); slots[index] = file; lock.unlock() }
        var values: [OutputFile] { slots.map { $0! } }
    }
}
