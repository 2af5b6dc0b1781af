import Foundation
import Manifest

/// Decides, before any work, whether the build may replace the output folder. The build deletes
/// the old output wholesale, so it only ever replaces a folder that is missing, empty, or a site
/// this tool wrote (it carries `OutputClaim.markerName`). Hugo never cleans a destination unless
/// asked; users point this tool at their source trees, so it is stricter still.
public struct OutputClaim: Sendable {
    /// Written into every site, so the next build knows the folder is its own to replace.
    public static let markerName = ".healthaudit-site"
    static let markerText = "This folder was written by healthaudit; every build replaces all of it.\n"

    public var output: String
    public var siteDirectory: String
    public var templatesDirectory: String?
    public var projectRoot: String
    public var homeDirectory: String?

    public init(output: String, siteDirectory: String, templatesDirectory: String?, projectRoot: String,
                homeDirectory: String? = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) {
        self.output = output
        self.siteDirectory = siteDirectory
        self.templatesDirectory = templatesDirectory
        self.projectRoot = projectRoot
        self.homeDirectory = homeDirectory
    }

    /// What the build found at the output path, for the step's log line.
    public enum Found: Equatable, Sendable {
        case missing, empty, healthauditSite
        /// A site written by a version that kept its cache beside the output (`.public.cache.json`).
        case legacySite(cacheFile: String)

        /// The folder holds a site an earlier build wrote.
        public var isSite: Bool {
            switch self {
            case .missing, .empty: false
            case .healthauditSite, .legacySite: true
            }
        }

        var description: String {
            switch self {
            case .missing: "a new folder"
            case .empty: "an empty folder"
            case .healthauditSite, .legacySite: "a site healthaudit wrote"
            }
        }
    }

    /// Throws an `InputError` at the output path saying why the folder is not the tool's to replace.
    public func check() throws -> Found {
        let fileManager = FileManager.default
        var info = stat()
        if lstat(output, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            throw refusal("is a symbolic link; give the folder it points to, or a new folder")
        }
        let real = RealPath.of(output) ?? (output as NSString).standardizingPath
        try refuseDangerous(real)
        guard fileManager.fileExists(atPath: real) else { return .missing }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw refusal("is a file, not a folder; healthaudit writes a site only into a folder") }
        let entries: [String]
        do { entries = try SystemError.names(in: real).sorted() } catch let error as SystemError.UnlistableFolder {
            throw refusal("cannot be listed (\(error.reason)); healthaudit replaces only folders it can see are its own")
        }
        if entries.isEmpty { return .empty }
        if entries.contains(Self.markerName) { return .healthauditSite }
        let legacyCache = BuildCache.legacyPath(for: output)
        let shown = entries.prefix(3).joined(separator: ", ") + (entries.count > 3 ? ", …" : "")
        var cacheInfo = stat()
        if lstat(legacyCache, &cacheInfo) == 0 {
            if LegacySite.describes(real, cacheFile: legacyCache) { return .legacySite(cacheFile: legacyCache) }
            throw refusal("holds \(Plural.count(entries.count, "item")) (\(shown)) that the \((legacyCache as NSString).lastPathComponent) beside it "
                          + "does not list as the site an earlier healthaudit wrote; give a new or empty folder — a build replaces the whole folder")
        }
        throw refusal("holds \(Plural.count(entries.count, "item")) healthaudit did not write (\(shown)); give a new or empty folder — a build replaces the whole folder")
    }

    /// Folders no flag can make the tool replace: what it reads, what holds it, and the obvious disasters.
    private func refuseDangerous(_ real: String) throws {
        if real == "/" { throw refusal("is the file system root") }
        if let home = homeDirectory.flatMap(RealPath.of), home != "/", RealPath.isInside(home, real) {
            throw refusal(real == home ? "is your home folder" : "contains your home folder")
        }
        let project = RealPath.of(projectRoot) ?? projectRoot
        let site = RealPath.of(siteDirectory) ?? siteDirectory
        let templates = templatesDirectory.map { RealPath.of($0) ?? $0 }
        if real == project, project != site { throw refusal("is the repository root") }
        if real == site { throw refusal("is the site folder (healthaudit.yml, the apps, the content)") }
        if real == templates { throw refusal("is the templates folder") }
        if RealPath.isInside(site, real) { throw refusal("contains the site folder \(site)") }
        if RealPath.isInside(project, real) { throw refusal("contains the repository \(project)") }
        if let templates, RealPath.isInside(templates, real) || RealPath.isInside(real, templates) {
            throw refusal("overlaps the templates folder \(templates)")
        }
    }

    /// Every build replaces the output: a history inside it would be lost, and an output inside
    /// the history would be read as records.
    public func checkApart(fromHistory history: String) throws {
        let real = RealPath.of(output) ?? (output as NSString).standardizingPath
        let kept = RealPath.of(history) ?? (history as NSString).standardizingPath
        if real == kept || RealPath.isInside(kept, real) { throw refusal("contains the history folder \(kept), which every build would replace") }
        if RealPath.isInside(real, kept) { throw refusal("is inside the history folder \(kept)") }
    }

    private func refusal(_ reason: String) -> InputError {
        InputError("refusing to write the site here: the output folder \(reason)", file: output)
    }
}

/// A site written before the marker existed, whose cache sat beside it (`.public.cache.json`).
/// A file of that name proves nothing — anyone can put one beside any folder — so the folder is
/// taken for that site only when the cache reads as one and lists exactly the folder's files.
enum LegacySite {
    /// More than the largest cache a site within the output budget can have.
    static let maxCacheBytes = 64 << 20

    /// What such a cache held that proves anything: its version (1) and the site's files.
    private struct Cache: Decodable {
        var version: Int
        var inputDigest: String
        var keys: [String: String]
        var files: [String]
    }

    static func describes(_ folder: String, cacheFile: String) -> Bool {
        guard let data = try? LocalFileSystem().contents(of: cacheFile, limit: maxCacheBytes),
              let cache = try? JSONDecoder().decode(Cache.self, from: data), cache.version == 1, !cache.files.isEmpty,
              cache.files.allSatisfy({ (try? SiteWriter.validate($0)) != nil }) else { return false }
        let listed = Set(cache.files)
        guard listed.count == cache.files.count, let found = regularFiles(in: folder, atMost: listed.count) else { return false }
        return found == listed
    }

    /// Every file under `folder` as a relative path; nil when one is not a regular file or folder
    /// (a symlink was never part of a site), a folder cannot be listed, or there are more than `limit`
    /// (a large foreign folder is not walked to the end).
    static func regularFiles(in folder: String, atMost limit: Int) -> Set<String>? {
        var files: Set<String> = []
        var pending = [""]
        // Each folder of a site holds a file, so a site has fewer folders than files.
        var entries = 0
        while let relative = pending.popLast() {
            guard let names = try? SystemError.names(in: relative.isEmpty ? folder : folder + "/" + relative) else { return nil }
            entries += names.count
            if entries > 2 * limit { return nil }
            for name in names {
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(folder + "/" + path, &info) == 0 else { return nil }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: pending.append(path)
                case S_IFREG:
                    files.insert(path)
                    if files.count > limit { return nil }
                default: return nil
                }
            }
        }
        return files
    }
}

/// An advisory lock (`flock`) on the output's parent folder, held for a whole build: two builds
/// into one output (two CI steps, `serve` and a manual build) run one after the other and never
/// remove each other's staging folder. It creates no file; the kernel drops it if the process dies.
/// The folders it had to create are removed again on release when the build left them empty, so a
/// failed first build leaves no empty `Site/` behind.
public final class OutputLock: @unchecked Sendable {
    private var descriptor: Int32
    private let folder: String
    /// The folders this lock created, outermost first.
    private var created: [String] = []
    private let mutex = NSLock()

    /// Locks `folder` (created if missing), waiting for another build when one holds it.
    public init(folder: String, onWait: (String) -> Void) throws {
        self.folder = folder
        descriptor = -1
        var waited = false
        while true {
            try PosixFiles.makeDirectories(folder, created: &created)
            descriptor = open(folder, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
            guard descriptor >= 0 else { throw OutputFailure(path: folder, operation: "open the output's parent folder", code: errno) }
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK else { throw failure("lock the output's parent folder", code: errno) }
                if !waited { onWait("waiting for another healthaudit build writing into \(folder)") }
                waited = true
                while flock(descriptor, LOCK_EX) != 0 {
                    guard errno == EINTR else { throw failure("lock the output's parent folder", code: errno) }
                }
            }
            // The build that held the lock may have removed the folder it had created (and failed to
            // fill): a lock on a removed folder excludes no one, so lock the folder now at the path.
            if Self.isSameFolder(descriptor, folder) { return }
            close(descriptor)
            descriptor = -1
        }
    }

    private func failure(_ operation: String, code: Int32) -> OutputFailure {
        close(descriptor)
        descriptor = -1
        return OutputFailure(path: folder, operation: operation, code: code)
    }

    private static func isSameFolder(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat(), current = stat()
        return fstat(descriptor, &opened) == 0 && lstat(path, &current) == 0 && opened.st_dev == current.st_dev && opened.st_ino == current.st_ino
    }

    public func release() {
        mutex.lock()
        defer { mutex.unlock() }
        guard descriptor >= 0 else { return }
        // Still under the lock; rmdir removes only an empty folder, so a written site keeps its own.
        for path in created.reversed() {
            if rmdir(path) != 0 { break }
        }
        created = []
        close(descriptor) // closing drops the flock
        descriptor = -1
    }

    deinit { release() }
}

/// The output could not be written (permissions, a full disk): not an input problem, exit 3.
public struct OutputFailure: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var reason: String
    /// False only when the old site was moved aside and could not be put back; `recoveredAt` says where it is.
    public var previousSiteIntact = true
    public var recoveredAt: String?
    /// The output held a site before this build (false: there was none to leave untouched).
    public var hadPreviousSite = true

    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        reason = SystemError.text(code)
    }

    public init(path: String, operation: String, reason: String) {
        self.path = path
        self.operation = operation
        self.reason = reason
    }

    public var description: String {
        let outcome = !previousSiteIntact
            ? "the previous site was moved aside and could not be put back: it is in \(recoveredAt ?? "?")"
            : SiteOutcome.text(siteReplaced: false, hadPreviousSite: hadPreviousSite)
        return "\(path): error: cannot \(operation): \(reason); \(outcome)"
    }
}

/// POSIX calls with their `errno`, so an output failure says "Permission denied" and where.
enum PosixFiles {
    /// A regular file itself, not through a symbolic link: the previous site's pages are reused
    /// only if they are what a build wrote (a symlink planted there must never enter a new site).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// `relative` is a regular file of `folder` reached without any symbolic link below `folder`:
    /// each folder on the way is opened with `O_NOFOLLOW`, so a planted `pages -> /outside` (which
    /// passes an `lstat` of the page itself) never makes an outside file look like the site's own.
    static func isRegularFile(_ relative: String, below folder: String) -> Bool {
        guard let parent = openParent(of: relative, below: folder) else { return false }
        defer { close(parent.descriptor) }
        return isRegularFile(parent.name, in: parent.descriptor)
    }

    /// Every one of `relatives` is a regular file of `folder`, as `isRegularFile(_:below:)` says,
    /// a folder on the way opened once for a run of files in it (sorted, a site's thousands of
    /// pages come folder by folder).
    static func areRegularFiles(_ relatives: [String], below folder: String) -> Bool {
        var current: (parent: Substring, descriptor: Int32)?
        defer { if let current { close(current.descriptor) } }
        for relative in relatives {
            let slash = relative.lastIndex(of: "/")
            let parent = slash.map { relative[..<$0] } ?? ""
            let name = slash.map { String(relative[relative.index(after: $0)...]) } ?? relative
            if current?.parent != parent {
                if let current { close(current.descriptor) }
                current = nil
                guard let found = openParent(of: relative, below: folder) else { return false }
                current = (parent, found.descriptor)
            }
            guard !name.isEmpty, isRegularFile(name, in: current!.descriptor) else { return false }
        }
        return true
    }

    /// The folder holding `relative` (a path below `folder`), opened one component at a time
    /// without following symbolic links, and the file's name in it; the caller closes it.
    static func openParent(of relative: String, below folder: String) -> (descriptor: Int32, name: String)? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.last, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        var descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        for part in parts.dropLast() {
            let next = openat(descriptor, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            close(descriptor)
            guard next >= 0 else { return nil }
            descriptor = next
        }
        return (descriptor, name)
    }

    /// `name` in the open folder is a regular file itself, not a symbolic link.
    static func isRegularFile(_ name: String, in folder: Int32) -> Bool {
        var info = stat()
        return fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    static func makeDirectories(_ path: String) throws {
        var created: [String] = []
        try makeDirectories(path, created: &created)
    }

    /// Creates `path` and its missing parents, appending each folder it made to `created`, outermost first.
    static func makeDirectories(_ path: String, created: inout [String]) throws {
        if path.isEmpty || path == "/" { return }
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw OutputFailure(path: path, operation: "create the folder", code: ENOTDIR)
        }
        try makeDirectories((path as NSString).deletingLastPathComponent, created: &created)
        if mkdir(path, 0o755) == 0 {
            created.append(path)
        } else if errno != EEXIST {
            throw OutputFailure(path: path, operation: "create the folder", code: errno)
        }
    }

    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o755) != 0 { throw OutputFailure(path: path, operation: "create the folder", code: errno) }
    }

    static func rename(_ from: String, to: String) throws {
        if Foundation.rename(from, to) != 0 {
            throw OutputFailure(path: to, operation: "move \((from as NSString).lastPathComponent) into place", code: errno)
        }
    }
}
