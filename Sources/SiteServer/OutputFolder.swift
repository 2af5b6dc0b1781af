import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built site on disk: the one place where request paths become file paths. Whatever the
/// path checks let through, the real path (symlinks resolved) must still be inside the folder.
public struct OutputFolder: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    public enum Lookup: Equatable, Sendable {
        /// A regular file inside the folder, by its real path.
        case file(String)
        /// A folder asked for without its trailing slash: relative links need the slash.
        case addSlash
        case notFound
        case forbidden(String)
    }

    public func lookup(_ request: RequestPath) -> Lookup {
        guard case .segments(let segments, let isFolder) = request else {
            if case .refused(let reason) = request { return .forbidden(reason) }
            return .notFound
        }
        // The writer swaps the folder by renaming, so resolve the root on every request.
        guard let root = Self.realPath(path) else { return .notFound }
        let candidate = ([path] + segments).joined(separator: "/")
        guard let real = Self.realPath(candidate) else { return .notFound }
        guard Self.isInside(real, root: root) else { return .forbidden("resolves outside the output folder") }
        switch Self.kind(real) {
        case .directory:
            guard isFolder else { return .addSlash }
            guard let index = Self.realPath(real + "/index.html") else { return .notFound }
            guard Self.isInside(index, root: root) else { return .forbidden("index resolves outside the output folder") }
            return Self.kind(index) == .file ? .file(index) : .notFound
        case .file:
            return isFolder ? .notFound : .file(real)
        case .other:
            return .notFound
        }
    }

    static func isInside(_ real: String, root: String) -> Bool {
        real == root || real.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    enum Kind { case file, directory, other }

    static func kind(_ path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }
}
