import Foundation
import Report
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Writes the site into a temporary folder beside the target and swaps it in only when every
/// file is written: a failed or interrupted build leaves the previous site as it was.
public struct SiteWriter {
    public let output: String

    public init(output: String) { self.output = output }

    var parent: String { (output as NSString).deletingLastPathComponent }
    var name: String { (output as NSString).lastPathComponent }
    var stagingPrefix: String { ".\(name)-tmp-" }
    var retiredPrefix: String { ".\(name)-old-" }

    public struct UnsafePath: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "refusing to write '\(path)': output paths must stay inside the output folder" }
    }

    /// Rejects any page path that could leave the output folder.
    public static func validate(_ path: String) throws {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0"),
              parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { throw UnsafePath(path: path) }
    }

    public func write(_ files: [OutputFile]) throws {
        let fileManager = FileManager.default
        for file in files { try Self.validate(file.path) }
        let paths = files.map(\.path)
        if Set(paths).count != paths.count { throw UnsafePath(path: "duplicate output path") }
        try fileManager.createDirectory(atPath: parent.isEmpty ? "." : parent, withIntermediateDirectories: true)
        removeLeftovers()
        let staging = (parent.isEmpty ? "." : parent) + "/" + stagingPrefix + UUID().uuidString
        do {
            try fileManager.createDirectory(atPath: staging, withIntermediateDirectories: false)
            // Folders first, serially; then the files on every core (file creation waits on the
            // disk far more than on the CPU, so several in flight finish sooner).
            var madeDirectories: Set<String> = []
            for file in files {
                let directory = ((staging + "/" + file.path) as NSString).deletingLastPathComponent
                if madeDirectories.insert(directory).inserted {
                    try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
                }
            }
            let failures = FailureBox()
            DispatchQueue.concurrentPerform(iterations: files.count) { index in
                let file = files[index]
                let path = staging + "/" + file.path
                do {
                    if let previous = file.reusing {
                        // Unchanged page: a hard link to the previous site's file (which is about to be retired).
                        if (try? FileManager.default.linkItem(atPath: previous, toPath: path)) == nil {
                            try FileManager.default.copyItem(atPath: previous, toPath: path)
                        }
                    } else {
                        try Self.writeNew(file.data, to: path)
                    }
                } catch {
                    failures.record(error)
                }
            }
            if let error = failures.first { throw error }
            try swapIn(staging)
        } catch {
            try? fileManager.removeItem(atPath: staging)
            throw error
        }
    }

    private final class FailureBox: @unchecked Sendable {
        private var errors: [Error] = []
        private let lock = NSLock()
        func record(_ error: Error) { lock.lock(); errors.append(error); lock.unlock() }
        var first: Error? { lock.lock(); defer { lock.unlock() }; return errors.first }
    }

    /// A plain create-and-write: the staging folder is what makes the site atomic, so per-file
    /// atomic writes (a temporary file and a rename each) would only double the work.
    static func writeNew(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
                }
                offset += written
            }
        }
    }

    /// Two renames: the old site moves aside, the new one takes its name, then the old is removed.
    private func swapIn(_ staging: String) throws {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: output) else {
            try fileManager.moveItem(atPath: staging, toPath: output)
            return
        }
        let retired = (parent.isEmpty ? "." : parent) + "/" + retiredPrefix + UUID().uuidString
        try fileManager.moveItem(atPath: output, toPath: retired)
        do {
            try fileManager.moveItem(atPath: staging, toPath: output)
        } catch {
            try? fileManager.moveItem(atPath: retired, toPath: output)
            throw error
        }
        try? fileManager.removeItem(atPath: retired)
    }

    /// Staging folders of a build that was killed midway are removed by the next build.
    func removeLeftovers() {
        let fileManager = FileManager.default
        let folder = parent.isEmpty ? "." : parent
        let entries = ((try? fileManager.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        // Killed between the two renames: the retired folder is the only copy of the last good site.
        if !fileManager.fileExists(atPath: output), let retired = entries.first(where: { $0.hasPrefix(retiredPrefix) }) {
            try? fileManager.moveItem(atPath: folder + "/" + retired, toPath: output)
        }
        for entry in entries where entry.hasPrefix(stagingPrefix) || entry.hasPrefix(retiredPrefix) {
            try? fileManager.removeItem(atPath: folder + "/" + entry)
        }
    }
}
