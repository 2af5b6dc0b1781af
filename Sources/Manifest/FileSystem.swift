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
    /// The names directly in `directory`, sorted, each marked as a folder or not. A symlink is
    /// never a folder here, so a walk built on this cannot loop or leave the project.
    func entries(in directory: String) throws -> [FolderEntry]
    /// Several files at once, each file's contents or its error, in the order asked.
    func contents(ofAll paths: [String]) -> [Result<Data, Error>]
}

/// One name in a folder listing.
public struct FolderEntry: Hashable, Sendable {
    public var name: String
    public var isFolder: Bool
    public init(name: String, isFolder: Bool) {
        self.name = name
        self.isFolder = isFolder
    }
}

extension FileSystem {
    /// Side by side on every core: an app's thousand source files are read (and confined) at once.
    public func contents(ofAll paths: [String]) -> [Result<Data, Error>] {
        ParallelMap.map(paths) { path in Result { try contents(of: path) } }
    }

    public func files(under directory: String, skipping folders: Set<String>) throws -> [String] {
        try files(under: directory).filter { path in !path.split(separator: "/").dropLast().contains { folders.contains(String($0)) } }
    }
}

public enum InputLimits {
    /// Manifests and sources larger than this are refused rather than read (a 10 MB usage string is an attack, not a manifest).
    public static let maxFileBytes = 8 * 1024 * 1024
    public static let maxFilesPerRoot = 20_000
    public static let maxNestingDepth = 64
    /// Apps in one config, and source files across all roots of one app: bounds on the total work.
    public static let maxApps = 200
    public static let maxFilesPerApp = 50_000
    /// Bytes read by one run, every app together (the largest real app measured reads about 60 MiB).
    public static let maxBytesPerRun = 1024 * 1024 * 1024
    /// Bytes of one built site (200 apps' pages are a few hundred MiB at most).
    public static let maxOutputBytes = 1024 * 1024 * 1024
    /// Formats read by a library slower than the 20 MB/s every reader must reach are bounded
    /// instead: Foundation's XML plist parser runs at about 10 MB/s, Yams at 3–4 MB/s (a node and a
    /// tag per value). Real Info.plists and specs are a few KiB; these limits keep the largest
    /// accepted file well under a second.
    public static let maxPropertyListBytes = 1024 * 1024
    public static let maxYAMLBytes = 2 * 1024 * 1024
    /// Values (scalars, lists and mappings) of one YAML file, or of an XcodeGen spec with its includes.
    public static let maxYAMLValues = 100_000
}

public struct LocalFileSystem: FileSystem {
    /// Real (symlink-free) folders every read must stay inside; empty means unconfined.
    public let roots: [String]
    /// The same folders as the caller spelled them, to find the part of a path below its root.
    private let spelledRoots: [String]
    /// Real paths of git's own folders for the roots (a `.git` symlink's target, the folder a `.git`
    /// file names with `gitdir:`, and its common folder): never read, whatever they are called.
    private let gitFolders: [String]

    /// Reads anything: for tests and tools that are handed exact paths.
    public init() { roots = []; spelledRoots = []; gitFolders = [] }

    /// Reads only files whose real path (symlinks resolved) lies inside one of `roots`: a
    /// repository must not make the audit read `~/.ssh/id_rsa` through a symlinked Info.plist.
    /// Nothing in a `.git` folder is read either, though it lies inside the repository.
    public init(confinedTo roots: [String]) {
        self.roots = roots.map { RealPath.of($0) ?? ($0 as NSString).standardizingPath }
        spelledRoots = roots.map { ($0 as NSString).standardizingPath }
        gitFolders = self.roots.flatMap(GitMetadata.folders(of:))
    }

    public func contents(of path: String) throws -> Data { try contents(of: path, limit: InputLimits.maxFileBytes) }

    /// The file's bytes, refusing more than `limit` (results files may be larger than a manifest).
    public func contents(of path: String, limit: Int) throws -> Data {
        try checkConfinement(path)
        // O_NONBLOCK: a FIFO planted where an Info.plist should be must not block the audit forever;
        // it is refused below as "not a regular file". (Regular files ignore the flag.)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let reason = errno
            if reason == ENOENT { throw InputError("file not found", file: path) }
            throw InputError("file cannot be read: \(SystemError.text(reason))", file: path)
        }
        defer { close(descriptor) }
        // One open, one fstat, one read: the checks are made on the open file, not before it.
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw InputError("file cannot be read: \(SystemError.text(errno))", file: path) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw InputError("expected a file, found a folder", file: path)
        default: throw InputError("not a regular file (a FIFO, socket or device); not read", file: path)
        }
        let size = Int(info.st_size)
        if size > limit {
            throw InputError("file is \(size) bytes, over the \(limit)-byte limit", file: path)
        }
        var data = Data(count: size)
        var offset = 0
        var failure: Int32 = 0
        data.withUnsafeMutableBytes { buffer in
            while offset < size {
                let count = read(descriptor, buffer.baseAddress! + offset, size - offset)
                if count < 0 { if errno == EINTR { continue }; failure = errno; return }
                if count == 0 { break }
                offset += count
            }
        }
        if failure != 0 { throw InputError("file cannot be read: \(SystemError.text(failure))", file: path) }
        if offset < size { data.count = offset }
        return data
    }

    /// Refuses a path whose real location is outside every root, or in git's own data below one.
    /// The message never names the target: where a hostile symlink points is nobody's business in
    /// a report.
    func checkConfinement(_ path: String) throws {
        guard !roots.isEmpty else { return }
        if GitMetadata.isNamed(below(path, spelledRoots)) {
            throw InputError(GitMetadata.refusal, file: path)
        }
        guard let real = RealPath.of(path) else { return }
        guard let root = roots.filter({ RealPath.isInside(real, $0) }).max(by: { $0.count < $1.count }) else {
            throw InputError("leads outside the project (through a symbolic link or an absolute path); not read", file: path)
        }
        if GitMetadata.isNamed(below(real, [root])) || gitFolders.contains(where: { RealPath.isInside(real, $0) }) {
            throw InputError(GitMetadata.refusal, file: path)
        }
    }

    /// The part of `path` below the longest of `folders` that holds it (all of it when none does).
    private func below(_ path: String, _ folders: [String]) -> Substring {
        let holding = folders.filter { $0 != "/" && RealPath.isInside(path, $0) }.max { $0.count < $1.count }
        return holding.map { path.dropFirst($0.count) } ?? path[...]
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

    public func entries(in directory: String) throws -> [FolderEntry] {
        try checkConfinement(directory)
        return try SystemError.names(in: directory).sorted().map { name in
            var info = stat()
            return FolderEntry(name: name, isFolder: lstat(directory + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR)
        }
    }

    public func files(under directory: String, skipping folders: Set<String>) throws -> [String] {
        try checkConfinement(directory)
        var found: [String] = []
        try collect(directory, prefix: "", skipping: folders, into: &found)
        return found.sorted()
    }

    private func collect(_ directory: String, prefix: String, skipping folders: Set<String>, into found: inout [String]) throws {
        let names = try SystemError.names(in: directory).sorted()
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

/// Git's own data: `.git` folders hold credentials (`actions/checkout` keeps the job's token in
/// `.git/config` as `extraheader = AUTHORIZATION: basic …`, valid `.xcconfig` syntax), never an
/// app's inputs, so no read enters one: not by its name, a symlink, nor a project's file reference.
public enum GitMetadata {
    public static let refusal = "lies in a .git folder (git's own data, which may hold credentials); not read"

    /// Characters macOS's HFS+ ignores in names, so `.g\u{200C}it` is `.git` there (as git checks).
    private static let ignoredByHFS: Set<Unicode.Scalar> = Set(
        [0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x206A, 0x206B, 0x206C, 0x206D, 0x206E, 0x206F, 0xFEFF]
            .compactMap(Unicode.Scalar.init))

    /// A name the file system may take for `.git`: any case (macOS, Windows), with characters HFS+
    /// ignores, trailing dots and spaces (Windows drops them), or the short name `git~1`.
    public static func isGitName<S: StringProtocol>(_ name: S) -> Bool {
        // Most names are plain ASCII without a `~` nor a trailing dot or space: only `.git` itself then.
        let bytes = Array(name.utf8)
        if bytes.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "~") }), let last = bytes.last, last != UInt8(ascii: "."), last != UInt8(ascii: " ") {
            return bytes.count == 4 && bytes.elementsEqual(".git".utf8) { ((0x41...0x5A).contains($0) ? $0 | 0x20 : $0) == $1 }
        }
        var scalars = String.UnicodeScalarView(name.unicodeScalars.filter { !ignoredByHFS.contains($0) })
        while let last = scalars.last, last == "." || last == " ", scalars.count > 4 { scalars.removeLast() }
        let plain = String(scalars).lowercased()
        return plain == ".git" || plain == "git~1"
    }

    /// Some component of `path` is a `.git` name.
    public static func isNamed<S: StringProtocol>(_ path: S) -> Bool {
        path.split(separator: "/").contains { isGitName($0) }
    }

    /// Real paths of the git data of the repository at `root` (a real path): its `.git` folder,
    /// wherever a `.git` symlink leads, and the folders a `.git` file names (`gitdir:` and the
    /// `commondir` beside it, for worktrees and submodules).
    static func folders(of root: String) -> [String] {
        let dotGit = (root == "/" ? "" : root) + "/.git"
        var info = stat()
        guard lstat(dotGit, &info) == 0 else { return [] }
        var found = [RealPath.of(dotGit)].compactMap { $0 }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_size < 4096, let data = FileManager.default.contents(atPath: dotGit) else { return found }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("gitdir:") else { return found }
        let named = text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespaces)
        let gitDirectory = named.hasPrefix("/") ? named : root + "/" + named
        guard let real = RealPath.of(gitDirectory) else { return found }
        found.append(real)
        if let common = try? String(contentsOfFile: real + "/commondir", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !common.isEmpty,
           let commonReal = RealPath.of(common.hasPrefix("/") ? common : real + "/" + common) {
            found.append(commonReal)
        }
        // A `gitdir:` naming the repository or a folder holding it would forbid every read: ignored.
        return found.filter { !RealPath.isInside(root, $0) }
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

extension ContainedPath {
    /// Joins `relative` to `base` (a folder inside `boundary`, written below it), letting `..` climb
    /// above `base` but never above `boundary`: a sibling package of the app, still inside the site.
    public static func resolve(_ relative: String, in base: String, within boundary: String) throws(PathEscape) -> String {
        let below = base == boundary ? "" : base.hasPrefix(boundary + "/") ? String(base.dropFirst(boundary.count + 1))
            : boundary.isEmpty ? base : nil
        guard let below else { throw PathEscape(path: relative, reason: "the app's folder is outside the site folder") }
        if relative.hasPrefix("/") || relative.hasPrefix("~") { throw PathEscape(path: relative, reason: "absolute paths are not allowed") }
        do {
            return try resolve(below.isEmpty ? relative : below + "/" + relative, in: boundary)
        } catch {
            throw PathEscape(path: relative, reason: "the path leaves the site folder", leavesBoundary: true)
        }
    }
}

public struct PathEscape: Error, Sendable {
    public var path: String
    public var reason: String
    /// The path resolves outside the folder it must stay in (rather than, say, through a bad link).
    public var leavesBoundary = false
}

/// Symlink-free absolute paths, for confinement checks.
public enum RealPath {
    /// The real path of an existing file or folder; for a missing one, the real path of its
    /// nearest existing ancestor plus the rest (so a file about to be created can be checked too).
    public static func of(_ path: String) -> String? {
        // Most paths exist: realpath(3) resolves `.`, `..` and links itself, with no Foundation
        // path standardizing (which cost more than the read of a small source file).
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        var missing: [String] = []
        var current = (path as NSString).standardizingPath
        while !current.isEmpty {
            if let resolved = realpath(current, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                return missing.isEmpty ? base : (base == "/" ? "" : base) + "/" + missing.reversed().joined(separator: "/")
            }
            guard errno == ENOENT || errno == ENOTDIR else { return nil }
            missing.append((current as NSString).lastPathComponent)
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current { return nil }
            current = parent
        }
        return nil
    }

    /// `path` is `folder` or below it (both real paths).
    public static func isInside(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}

/// The folder a site's config may point into, spelled like the site folder (no symlinks resolved,
/// so paths joined to it compare with paths joined to the site): the git repository holding the
/// site (see `ProjectRoot`), else the site folder itself. A config beside a tool's folder may name
/// `root: ../MyApp` as long as the app is in the same repository; reads are still confined to the
/// repository after resolving symlinks.
public enum SiteBoundary {
    public static func of(_ siteDirectory: String) -> String {
        // A relative spelling cannot be climbed lexically; the command line always passes absolute folders.
        guard siteDirectory.hasPrefix("/") else { return siteDirectory }
        let repository = ProjectRoot.containing(siteDirectory)
        guard let site = RealPath.of(siteDirectory), site != repository, RealPath.isInside(site, repository) else { return siteDirectory }
        let depth = site.dropFirst(repository.count).split(separator: "/").count
        var lexical = siteDirectory.split(separator: "/", omittingEmptySubsequences: true)
        guard lexical.count >= depth, !lexical.suffix(depth).contains("..") else { return siteDirectory }
        lexical.removeLast(depth)
        return (siteDirectory.hasPrefix("/") ? "/" : "") + lexical.joined(separator: "/")
    }

    /// `path` (below `boundary`, both spelled alike) relative to `siteDirectory`, climbing with `..`
    /// where the path lies beside the site: how reports show an app outside the config's folder.
    public static func display(_ path: String, site siteDirectory: String) -> String {
        let target = path.split(separator: "/"), site = siteDirectory.split(separator: "/")
        var common = 0
        while common < target.count, common < site.count, target[common] == site[common] { common += 1 }
        let parts = Array(repeating: "..", count: site.count - common) + target[common...].map(String.init)
        return parts.joined(separator: "/")
    }
}

/// Paths as a terminal shows them: `prefix/relative` with `dir/..` pairs folded, leading `..` kept
/// (`tools/audit` + `../../MyApp/Info.plist` → `MyApp/Info.plist`).
public enum DisplayPath {
    public static func join(_ prefix: String, _ relative: String) -> String {
        var parts: [Substring] = []
        for part in (prefix + "/" + relative).split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}

/// The repository that holds a site: the nearest folder at or above it with a `.git` (folder, or
/// file for worktrees and submodules), else the site folder itself. Reads are confined to it.
public enum ProjectRoot {
    public static func containing(_ folder: String) -> String {
        let start = RealPath.of(folder) ?? (folder as NSString).standardizingPath
        var current = start
        while true {
            if FileManager.default.fileExists(atPath: current + "/.git") { return current }
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { return start }
            current = parent
        }
    }
}

/// A size as people read it in a message: bytes below 1 MiB, whole MiB above.
public enum ByteCount {
    public static func text(_ bytes: Int) -> String {
        bytes < 1_048_576 ? "\(bytes) bytes" : "\(bytes / 1_048_576) MiB"
    }
}

public enum SystemError {
    /// `strerror` text for an errno value ("Permission denied", "No space left on device").
    public static func text(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A folder that cannot be listed, with the system's reason instead of Foundation's dump.
    public struct UnlistableFolder: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot list the folder \(path): \(reason)" }
    }

    /// The names in a folder (without `.` and `..`), by `opendir`/`readdir`.
    public static func names(in folder: String) throws -> [String] {
        guard let handle = opendir(folder) else { throw UnlistableFolder(path: folder, reason: text(errno)) }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// Wraps a file system and remembers every question asked of it — each file read with a digest
/// of its bytes, each existence check and folder listing with its answer — so a build's cache key
/// is exactly what it read (no read site has to remember to record itself), and a command knows
/// which files are inputs its outputs must never overwrite.
public final class RecordingFileSystem: FileSystem, @unchecked Sendable {
    private let base: FileSystem
    private var answers: [String: (question: FileQuestion, answer: String)] = [:]
    /// Each file read, as it was on disk when read: a later run that finds it so may skip reading it.
    private var signatures: [String: FileSignature] = [:]
    private var read: Set<String> = []
    private let lock = NSLock()

    private var bytesRead = 0
    private let byteBudget: Int

    /// Every run reads through one recorder, so it also keeps the run's total within `byteBudget`.
    public init(_ base: FileSystem, byteBudget: Int = InputLimits.maxBytesPerRun) {
        self.base = base
        self.byteBudget = byteBudget
    }

    /// Every file read so far, as real paths where they resolve (resolved when asked: most runs never ask).
    public var readFiles: Set<String> {
        lock.lock(); defer { lock.unlock() }
        return Set(read.map { RealPath.of($0) ?? $0 })
    }

    /// One line per question and answer, sorted: `read <path> <digest>`, `exists <path> true`, ….
    public var record: [String] {
        lock.lock(); defer { lock.unlock() }
        return answers.map { "\($0.key) \($0.value.answer)" }.sorted()
    }

    /// Every question with its answer (and each file's signature when read), for the next run to ask again.
    public var trace: [TracedQuestion] {
        lock.lock(); defer { lock.unlock() }
        return answers.values.map { entry in
            var signature: FileSignature?
            if case .read(let path) = entry.question { signature = signatures[path] }
            return TracedQuestion(question: entry.question, answer: entry.answer, signature: signature)
        }.sorted { $0.question.key < $1.question.key }
    }

    private func note(_ question: FileQuestion, _ value: String) { lock.lock(); answers[question.key] = (question, value); lock.unlock() }

    /// A file found unchanged since a run that read it (see `FileTrace`): recorded as read, not read.
    func noteUnchanged(_ path: String, digest: String, signature: FileSignature) {
        lock.lock()
        answers[FileQuestion.read(path).key] = (.read(path), digest)
        signatures[path] = signature
        lock.unlock()
    }

    public func contents(of path: String) throws -> Data {
        try record(path, Self.read(path, from: base)).get()
    }

    /// Read side by side, recorded in the order asked: the byte budget is spent in that order, so
    /// a run over it names the same file every time.
    public func contents(ofAll paths: [String]) -> [Result<Data, Error>] {
        let base = base
        let reads = ParallelMap.map(paths) { Self.read($0, from: base) }
        return zip(paths, reads).map { record($0, $1) }
    }

    /// A file's bytes with what the record keeps of them; the costly part, done on any thread.
    private struct FileRead {
        var data: Data
        var digest: String
        var signature: FileSignature?
    }

    private static func read(_ path: String, from base: FileSystem) -> Result<FileRead, Error> {
        // The signature is taken after the read: a file changed in between is caught by `FileTrace`'s rule on recent changes.
        Result { try base.contents(of: path) }.map { FileRead(data: $0, digest: StableDigest.hex($0), signature: FileSignature.of(path)) }
    }

    private func record(_ path: String, _ file: Result<FileRead, Error>) -> Result<Data, Error> {
        Result {
            do {
                let file = try file.get()
                let data = file.data
                note(.read(path), file.digest)
                lock.lock()
                signatures[path] = file.signature
                read.insert(path)
                bytesRead += data.count
                let total = bytesRead
                lock.unlock()
                if total > byteBudget {
                    throw InputError("the run has read \(ByteCount.text(total)), over the limit of \(ByteCount.text(byteBudget)) per run; audit fewer apps or narrow `sources:`", file: path)
                }
                return data
            } catch {
                note(.read(path), "error: \(error)")
                throw error
            }
        }
    }

    public func fileExists(_ path: String) -> Bool {
        let answer = base.fileExists(path)
        note(.exists(path), "\(answer)")
        return answer
    }

    public func isDirectory(_ path: String) -> Bool {
        let answer = base.isDirectory(path)
        note(.folder(path), "\(answer)")
        return answer
    }

    public func files(under directory: String) throws -> [String] {
        try files(under: directory, skipping: [])
    }

    public func entries(in directory: String) throws -> [FolderEntry] {
        let key = FileQuestion.entries(directory)
        do {
            let found = try base.entries(in: directory)
            note(key, StableDigest.hex(Data(found.map { $0.name + ($0.isFolder ? "/" : "") }.joined(separator: "\n").utf8)))
            return found
        } catch {
            note(key, "error: \(error)")
            throw error
        }
    }

    public func files(under directory: String, skipping folders: Set<String>) throws -> [String] {
        let key = FileQuestion.list(directory, skipping: folders.sorted())
        do {
            let found = try base.files(under: directory, skipping: folders)
            note(key, StableDigest.hex(Data(found.joined(separator: "\n").utf8)))
            return found
        } catch {
            note(key, "error: \(error)")
            throw error
        }
    }
}

/// A file system with a few files laid over it (a config written from discovery, never on disk),
/// and some paths read from other files, live: `<site>/healthaudit.yml` from the `.healthaudit.yml`
/// or `--config` file a user chose, so `serve` sees each edit of it.
public struct OverlayFileSystem: FileSystem {
    let base: FileSystem
    let files: [String: Data]
    let aliases: [String: String]

    public init(_ base: FileSystem, files: [String: Data] = [:], aliases: [String: String] = [:]) {
        self.base = base
        self.files = files
        self.aliases = aliases
    }

    public func contents(of path: String) throws -> Data { try files[path] ?? base.contents(of: aliases[path] ?? path) }
    public func fileExists(_ path: String) -> Bool { files[path] != nil || base.fileExists(aliases[path] ?? path) }
    public func isDirectory(_ path: String) -> Bool { files[path] == nil && aliases[path] == nil && base.isDirectory(path) }
    public func files(under directory: String) throws -> [String] { try base.files(under: directory) }
    public func entries(in directory: String) throws -> [FolderEntry] {
        guard !files.isEmpty else { return try base.entries(in: directory) }
        let laid = files.keys.filter { ($0 as NSString).deletingLastPathComponent == directory }.map { FolderEntry(name: ($0 as NSString).lastPathComponent, isFolder: false) }
        let below: [FolderEntry]
        do { below = try base.entries(in: directory) } catch { if laid.isEmpty { throw error }; below = [] }
        return Array(Set(below + laid)).sorted { $0.name < $1.name }
    }
    public func files(under directory: String, skipping folders: Set<String>) throws -> [String] {
        try base.files(under: directory, skipping: folders)
    }
}
