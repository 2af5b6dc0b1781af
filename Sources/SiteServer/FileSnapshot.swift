import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Modification time and size of every file and folder under some roots. Linux has no FSEvents,
/// so `serve` compares two of these every few hundred milliseconds.
public struct FileSnapshot: Equatable, Sendable {
    public struct Stamp: Equatable, Sendable {
        var seconds: Int
        var nanoseconds: Int
        var size: Int64
    }

    public private(set) var stamps: [String: Stamp] = [:]

    /// A bound on the walk, so a site folder that links to something huge can't stall the loop.
    static let limit = 50_000

    /// Walks `roots`, skipping any path `skip` says to (the output folder and its staging siblings).
    /// Symlinked folders are followed (an app folder may be a link to the real checkout), each real
    /// folder once.
    public init(roots: [String], skip: (String) -> Bool) {
        var visited: Set<FolderID> = []
        for root in roots { walk(root, skip: skip, visited: &visited) }
    }

    private struct FolderID: Hashable { var device: UInt64; var inode: UInt64 }

    private mutating func walk(_ path: String, skip: (String) -> Bool, visited: inout Set<FolderID>) {
        guard stamps.count < Self.limit, !skip(path) else { return }
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        let isFolder = info.st_mode & S_IFMT == S_IFDIR
        // A folder's own time changes whenever an entry is added or renamed in it, which the
        // entries show anyway; the output's parent would otherwise change on every build.
        stamps[path] = isFolder ? Stamp(seconds: 0, nanoseconds: 0, size: -1)
            : Stamp(seconds: Int(modified.tv_sec), nanoseconds: Int(modified.tv_nsec), size: Int64(info.st_size))
        guard isFolder,
              visited.insert(FolderID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted,
              let entries = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        // `.git` is never a build input, and changes with every commit or checkout.
        for entry in entries.sorted() where entry != ".git" {
            walk(path + "/" + entry, skip: skip, visited: &visited)
        }
    }
}
