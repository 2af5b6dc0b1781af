import Foundation

/// Links from a finding's location to its line on the forge, from the config's `source_url`
/// template: `{path}` (the file, relative to the repository), `{line}`, and `{commit}` (the checked
/// out commit, read from `.git` without running git; `HEAD` when it cannot be read).
public struct SourceLinks: Sendable {
    public let template: String
    public let commit: String
    /// The site folder relative to the repository ("" when they are one): locations are site-relative.
    public let sitePrefix: String

    public init(template: String, commit: String?, sitePrefix: String) {
        self.template = template; self.commit = commit ?? "HEAD"; self.sitePrefix = sitePrefix
    }

    /// For a site folder: the repository holding it, its commit and the site's place in it.
    public init(template: String, siteDirectory: String) {
        let (root, prefix) = Self.place(of: siteDirectory)
        self.init(template: template, commit: GitHead.commit(in: root), sitePrefix: prefix)
    }

    /// The repository holding a site folder, and the site's path in it ("" when it is the root).
    public static func place(of siteDirectory: String) -> (repository: String, sitePath: String) {
        let root = ProjectRoot.containing(siteDirectory)
        let site = RealPath.of(siteDirectory) ?? siteDirectory
        return (root, site == root || !site.hasPrefix(root + "/") ? "" : String(site.dropFirst(root.count + 1)))
    }

    /// Why a template cannot be used, or nil: an http(s) URL that names the file.
    public static func problem(_ template: String) -> String? {
        guard template.hasPrefix("https://") || template.hasPrefix("http://") else { return "must be an http(s) URL, found '\(template)'" }
        guard template.contains("{path}") else { return "must contain {path} (and usually {line} and {commit})" }
        guard !template.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" }) else { return "must not contain spaces, quotes or angle brackets" }
        return nil
    }

    /// The link for a site-relative file and line; nil for a path that leaves the repository.
    public func url(file: String, line: Int?) -> String? {
        let joined = sitePrefix.isEmpty ? file : sitePrefix + "/" + file
        guard let path = AppFiles.normalize(joined), path != "." else { return nil }
        let encoded = path.split(separator: "/").map { segment in
            segment.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? String(segment)
        }.joined(separator: "/")
        return template.replacingOccurrences(of: "{commit}", with: commit)
            .replacingOccurrences(of: "{path}", with: encoded)
            .replacingOccurrences(of: "{line}", with: String(line ?? 1))
    }

    /// RFC 3986's unreserved characters: everything else in a file name is percent-encoded.
    private static let segmentCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}

/// The commit checked out in a repository, read from `.git/HEAD` (and the ref it names, loose or
/// packed). Only a `.git` folder inside the repository is read; a worktree's `.git` file pointing
/// elsewhere is not followed.
public enum GitHead {
    public static func commit(in repository: String) -> String? {
        let git = repository + "/.git"
        var info = stat()
        guard lstat(git, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, let head = read(git + "/HEAD") else { return nil }
        if isHash(head) { return head }
        guard head.hasPrefix("ref: refs/"), !head.contains("..") else { return nil }
        let ref = String(head.dropFirst("ref: ".count))
        if let loose = read(git + "/" + ref), isHash(loose) { return loose }
        for line in (read(git + "/packed-refs") ?? "").split(separator: "\n") where line.hasSuffix(" " + ref) {
            let hash = String(line.prefix { $0 != " " })
            if isHash(hash) { return hash }
        }
        return nil
    }

    /// A small regular file only: never a symlink, a FIFO or a device planted as `.git/HEAD`.
    private static func read(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size < 4_000_000,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func isHash(_ text: String) -> Bool {
        // Lowercase ASCII, as git writes it (`isHexDigit` also takes fullwidth digits).
        (text.utf8.count == 40 || text.utf8.count == 64) && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
