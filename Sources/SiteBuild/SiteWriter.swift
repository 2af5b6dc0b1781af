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

    /// Writes `files` as the whole new site. The caller holds the `OutputLock` and has checked the
    /// `OutputClaim`; failures are `OutputFailure`s and leave the previous site as it was.
    public func write(_ files: [OutputFile]) throws {
        for file in files { try Self.validate(file.path) }
        let paths = files.map(\.path)
        if Set(paths).count != paths.count { throw UnsafePath(path: "duplicate output path") }
        let staging = try begin()
        do {
            // File creation waits on the disk far more than on the CPU: several in flight finish sooner.
            let failures = FailureBox()
            DispatchQueue.concurrentPerform(iterations: files.count) { index in
                do { try staging.write(files[index]) } catch { failures.record(error) }
            }
            if let error = failures.first { throw error }
            try staging.commit()
        } catch {
            staging.discard()
            throw error
        }
    }

    /// An unchanged page: a hard link to the previous site's file (which is about to be retired),
    /// reached through the output's own folders only. A symlinked folder planted in the old output
    /// (`pages -> /outside`) must never bring an outside file into the new site.
    private static func reuse(_ previous: String, of output: String, to path: String) throws {
        let prefix = output + "/"
        let notOwn = OutputFailure(path: previous, operation: "reuse the unchanged page", reason: "it is no longer a file of the previous site")
        guard previous.hasPrefix(prefix), let parent = PosixFiles.openParent(of: String(previous.dropFirst(prefix.count)), below: output) else { throw notOwn }
        defer { close(parent.descriptor) }
        guard PosixFiles.isRegularFile(parent.name, in: parent.descriptor) else { throw notOwn }
        // linkat without AT_SYMLINK_FOLLOW links the name itself, which was just seen to be a regular file.
        if linkat(parent.descriptor, parent.name, AT_FDCWD, path, 0) == 0 { return }
        let descriptor = openat(parent.descriptor, parent.name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw OutputFailure(path: previous, operation: "reuse the unchanged page", reason: "it disappeared from the previous site")
        }
        let data = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readDataToEndOfFile()
        try Self.writeNew(data, to: path)
    }

    /// A new, empty staging folder beside the output, after removing what killed builds left.
    /// Safe only under the `OutputLock`.
    public func begin() throws -> Staging {
        let folder = parent.isEmpty ? "." : parent
        try PosixFiles.makeDirectories(folder)
        try removeLeftovers()
        let staging = folder + "/" + stagingPrefix + UUID().uuidString
        try PosixFiles.makeDirectory(staging)
        return Staging(writer: self, folder: staging)
    }

    /// The new site as it is written, file by file from any thread (pages go to disk as they are
    /// rendered, so a site is never held in memory whole), then swapped in at once or removed.
    public final class Staging: @unchecked Sendable {
        let writer: SiteWriter
        public let folder: String
        private let lock = NSLock()
        private var madeDirectories: Set<String>
        private var paths: Set<String> = []
        private var isOpen = true

        init(writer: SiteWriter, folder: String) {
            self.writer = writer
            self.folder = folder
            madeDirectories = [folder]
        }

        /// One file of the new site; its folders are made as needed.
        public func write(_ file: OutputFile) throws {
            try SiteWriter.validate(file.path)
            let path = folder + "/" + file.path
            let directory = (path as NSString).deletingLastPathComponent
            try lock.withLock {
                guard paths.insert(file.path).inserted else { throw UnsafePath(path: "duplicate output path \(file.path)") }
                if madeDirectories.insert(directory).inserted { try PosixFiles.makeDirectories(directory) }
            }
            if let previous = file.reusing {
                try SiteWriter.reuse(previous, of: writer.output, to: path)
            } else {
                try SiteWriter.writeNew(file.data, to: path)
            }
        }

        /// Swaps the new site in; on failure it is removed and the previous site stays.
        public func commit() throws {
            lock.lock()
            defer { lock.unlock() }
            guard isOpen else { throw UnsafePath(path: "a staging folder that was already swapped in or removed") }
            isOpen = false
            do { try writer.swapIn(folder) } catch {
                try? FileManager.default.removeItem(atPath: folder)
                throw error
            }
        }

        /// Removes the new site, unless it was swapped in.
        public func discard() {
            lock.lock()
            defer { lock.unlock() }
            guard isOpen else { return }
            isOpen = false
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    final class FailureBox: @unchecked Sendable {
        private var errors: [Error] = []
        private let lock = NSLock()
        func record(_ error: Error) { lock.lock(); errors.append(error); lock.unlock() }
        var first: Error? { lock.lock(); defer { lock.unlock() }; return errors.first }
    }

    /// A plain create-and-write: the staging folder is what makes the site atomic, so per-file
    /// atomic writes (a temporary file and a rename each) would only double the work.
    static func writeNew(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputFailure(path: path, operation: "create the file", code: errno) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw OutputFailure(path: path, operation: "write the file", code: errno)
                }
                offset += written
            }
        }
    }

    /// Two renames: the old site moves aside, the new one takes its name, then the old is removed.
    fileprivate func swapIn(_ staging: String) throws {
        var info = stat()
        guard lstat(output, &info) == 0 else {
            try PosixFiles.rename(staging, to: output)
            return
        }
        let retired = (parent.isEmpty ? "." : parent) + "/" + retiredPrefix + UUID().uuidString
        try PosixFiles.rename(output, to: retired)
        do {
            try PosixFiles.rename(staging, to: output)
        } catch var failure as OutputFailure {
            if Foundation.rename(retired, output) != 0 {
                failure.previousSiteIntact = false
                failure.recoveredAt = retired
            }
            throw failure
        }
        try? FileManager.default.removeItem(atPath: retired)
    }

    /// A build killed between the two renames of `swapIn` left no output, and the retired folder is
    /// the only copy of the last good site: it is put back before anything else a command does
    /// (under the `OutputLock`: a live build's retired folder looks the same), so a build that then
    /// fails on its input leaves the site where it was, as it says. Returns the name restored from.
    public func restoreInterrupted() throws -> String? {
        var info = stat()
        guard lstat(output, &info) != 0, errno == ENOENT else { return nil }
        let folder = parent.isEmpty ? "." : parent
        guard let retired = leftovers(in: folder).first(where: { $0.hasPrefix(retiredPrefix) }) else { return nil }
        if Foundation.rename(folder + "/" + retired, output) != 0 {
            var failure = OutputFailure(path: output, operation: "put back the previous site from \(retired), left by an interrupted build", code: errno)
            failure.previousSiteIntact = false
            failure.recoveredAt = folder + "/" + retired
            throw failure
        }
        return retired
    }

    /// Staging and retired folders beside the output, sorted.
    private func leftovers(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().filter { entry in
            var info = stat()
            return (entry.hasPrefix(stagingPrefix) || entry.hasPrefix(retiredPrefix))
                && lstat(folder + "/" + entry, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        }
    }

    /// Staging folders of a build that was killed midway are removed by the next build. Safe
    /// only under the `OutputLock`: a live build's staging folder looks the same.
    func removeLeftovers() throws {
        _ = try restoreInterrupted()
        let folder = parent.isEmpty ? "." : parent
        for entry in leftovers(in: folder) {
            try? FileManager.default.removeItem(atPath: folder + "/" + entry)
        }
    }
}
