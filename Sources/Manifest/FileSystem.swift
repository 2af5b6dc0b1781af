import Foundation

/// The seam between the audit and the disk, so tests can point a whole build at a temporary folder
/// and the limits on untrusted input live in one place.
public protocol FileSystem: Sendable {
    func contents(of path: String) throws -> Data
    func fileExists(_ path: String) -> Bool
    func isDirectory(_ path: String) -> Bool
    /// Regular files below `directory`, sorted, as paths relative to it. Never follows symlinks
    /// (a symlink loop in a source root must not hang the audit).
    func files(under directory: String) throws -> [String]
    /// Like `files(under:)`, but never descends into folders with one of these names (`node_modules`,
    /// `Pods`): their files are neither listed nor counted against the limit.
    func files(under directory: String, skipping folders: Set<String>) throws -> [String]
}

extension FileSystem {
    public func files(under directory: String, skipping folders: Set<String>) throws -> [String] {
        try files(under: directory).filter { path in !path.split(separator: "/").dropLast().contains { folders.contains(String($0)) } }
    }
}

public enum InputLimits {
    /// Manifests and sources larger than this are refused rather than read (a 10 MB usage string is an attack, not a manifest).
    public static let maxFileBytes = 8 * 1024 * 1024
    public static let maxFilesPerRoot = 20_000
    public static let maxNestingDepth = 64
}

public struct LocalFileSystem: FileSystem {
    public init() {}

    public func contents(of path: String) throws -> Data {
        // One open, one fstat, one read: the size limit is checked on the open file, not before it.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InputError(fileExists(path) ? "file cannot be read" : "file not found", file: path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw InputError("file cannot be read", file: path) }
        let size = Int(info.st_size)
        if size > InputLimits.maxFileBytes {
            throw InputError("file is \(size) bytes, over the \(InputLimits.maxFileBytes)-byte limit", file: path)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw InputError("expected a file, found a folder", file: path) }
        var data = Data(count: size)
        var offset = 0
        let failed = data.withUnsafeMutableBytes { buffer -> Bool in
            while offset < size {
                let count = read(descriptor, buffer.baseAddress! + offset, size - offset)
                if count < 0 { if errno == EINTR { continue }; return true }
                if count == 0 { break }
                offset += count
            }
            return false
        }
        if failed { throw InputError("file cannot be read", file: path) }
        if offset < size { data.count = offset }
        return data
    }

    public func fileExists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    public func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    public func files(under directory: String) throws -> [String] {
        try files(under: directory, skipping: [])
    }

    public func files(under directory: String, skipping folders: Set<String>) throws -> [String] {
        var found: [String] = []
        try collect(directory, prefix: "", skipping: folders, into: &found)
        return found.sorted()
    }

    private func collect(_ directory: String, prefix: String, skipping folders: Set<String>, into found: inout [String]) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        for name in names where !name.hasPrefix(".") {
            let path = directory + "/" + name
            let relative = prefix.isEmpty ? name : prefix + "/" + name
            // lstat, not attributesOfItem: one system call, and a symlink is seen as a symlink.
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if folders.contains(name) { continue }
                try collect(path, prefix: relative, skipping: folders, into: &found)
            case S_IFREG:
                found.append(relative)
                if found.count > InputLimits.maxFilesPerRoot {
                    throw InputError("more than \(InputLimits.maxFilesPerRoot) files under this folder", file: directory)
                }
            default:
                continue // symlinks, sockets: skipped on purpose
            }
        }
    }
}

/// Joins a path from the config to its base folder, refusing absolute paths and any path that
/// climbs out of the base with `..`: manifests are untrusted and must not choose what we read.
public enum ContainedPath {
    public static func resolve(_ relative: String, in base: String) throws(PathEscape) -> String {
        if relative.hasPrefix("/") || relative.hasPrefix("~") { throw PathEscape(path: relative, reason: "absolute paths are not allowed") }
        var parts: [Substring] = []
        for part in relative.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if parts.isEmpty { throw PathEscape(path: relative, reason: "the path leaves its folder") }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.isEmpty ? base : base + "/" + parts.joined(separator: "/")
    }
}

public struct PathEscape: Error, Sendable {
    public var path: String
    public var reason: String
}
