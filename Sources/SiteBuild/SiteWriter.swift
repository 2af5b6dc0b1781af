import Foundation
import Report
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
private let systemClose = Glibc.close
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
private let systemClose = Darwin.close
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
    /// reached through the output's own folders only (`folders`, each opened without following a
    /// symbolic link). A symlinked folder planted in the old output (`pages -> /outside`) must never
    /// bring an outside file into the new site. Returns the file's size; nil when it is no longer a
    /// regular file of the previous site.
    private static func reuse(_ relative: String, in folders: PreviousFolders, to path: String) throws -> Int? {
        guard let (folder, name) = folders.parent(of: relative) else { return nil }
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        // linkat without AT_SYMLINK_FOLLOW links the name itself, which was just seen to be a regular file.
        if linkat(folder, name, AT_FDCWD, path, 0) == 0 { return Int(info.st_size) }
        let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw OutputFailure(path: folders.output + "/" + relative, operation: "reuse the unchanged page", reason: "it disappeared from the previous site")
        }
        let data = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readDataToEndOfFile()
        try Self.writeNew(data, to: path)
        return data.count
    }

    /// The previous site's folders, each opened once (one component at a time, no symbolic link
    /// followed) for the pages linked from it, and closed when the new site is swapped in or removed.
    final class PreviousFolders: @unchecked Sendable {
        let output: String
        private let lock = NSLock()
        private var opened: [Substring: Int32?] = [:]

        init(output: String) { self.output = output }

        /// The open folder holding `relative`, and the file's name in it.
        func parent(of relative: String) -> (Int32, String)? {
            let slash = relative.lastIndex(of: "/")
            let parent = slash.map { relative[..<$0] } ?? ""
            let name = slash.map { String(relative[relative.index(after: $0)...]) } ?? relative
            guard !name.isEmpty, name != ".", name != ".." else { return nil }
            let descriptor = lock.withLock { () -> Int32? in
                if let known = opened[parent] { return known }
                let found = PosixFiles.openParent(of: relative, below: output)?.descriptor
                opened[parent] = found
                return found
            }
            return descriptor.map { ($0, name) }
        }

        func close() {
            lock.withLock {
                for case let descriptor? in opened.values { _ = systemClose(descriptor) }
                opened = [:]
            }
        }
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
        private let previousFolders: PreviousFolders

        init(writer: SiteWriter, folder: String) {
            self.writer = writer
            self.folder = folder
            madeDirectories = [folder]
            previousFolders = PreviousFolders(output: writer.output)
        }

        /// One file of the new site; its folders are made as needed.
        public func write(_ file: OutputFile) throws {
            try SiteWriter.writeNew(file.data, to: claim(file.path))
        }

        /// The previous site's page at the same path, linked into the new site; its size, or nil
        /// (and nothing written) when it is no longer a regular file of the previous site.
        func reuse(_ relative: String) throws -> Int? {
            let path = try claim(relative)
            guard let size = try SiteWriter.reuse(relative, in: previousFolders, to: path) else {
                lock.withLock { _ = paths.remove(relative) } // to be rendered instead
                return nil
            }
            return size
        }

        /// The file's place in the staging folder, its folders made; each path is written once.
        private func claim(_ relative: String) throws -> String {
            try SiteWriter.validate(relative)
            let path = folder + "/" + relative
            // A valid path has no empty part: its folder is all before the last slash.
            let directory = String(path[..<path.lastIndex(of: "/")!])
            let made = try lock.withLock {
                guard paths.insert(relative).inserted else { throw UnsafePath(path: "duplicate output path \(relative)") }
                return madeDirectories.contains(directory)
            }
            // Made outside the lock: on a file system slow to allocate inodes, a folder made under it
            // held every other thread's page back. Two threads making one folder is harmless (the
            // staging folder is this build's alone, and an existing folder is taken as made).
            if !made {
                try PosixFiles.makeDirectories(directory)
                lock.withLock { _ = madeDirectories.insert(directory) }
            }
            return path
        }

        /// Swaps the new site in; on failure it is removed and the previous site stays.
        public func commit() throws {
            lock.lock()
            defer { lock.unlock() }
            guard isOpen else { throw UnsafePath(path: "a staging folder that was already swapped in or removed") }
            isOpen = false
            previousFolders.close()
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
            previousFolders.close()
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
