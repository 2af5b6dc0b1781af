import Foundation
import Manifest

extension SourceLinks {
    /// Links to the repository and commit of a GitHub Actions run, from the variables the runner
    /// sets (`GITHUB_SERVER_URL`, `GITHUB_REPOSITORY`, `GITHUB_SHA`); the CLI reads the environment
    /// and hands it here. Nil unless all three are set and well formed: no link beats a wrong one,
    /// and nothing in them can leave the URL (a repository is `owner/name`, a commit is hex).
    public init?(gitHubEnvironment environment: [String: String], sitePrefix: String) {
        guard let server = environment["GITHUB_SERVER_URL"], let repository = environment["GITHUB_REPOSITORY"],
              let commit = environment["GITHUB_SHA"] else { return nil }
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        let nameCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        let parts = repository.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.unicodeScalars.allSatisfy(nameCharacters.contains) }),
              (commit.utf8.count == 40 || commit.utf8.count == 64), commit.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        let template = "\(base)/\(repository)/blob/{commit}/{path}#L{line}"
        guard Self.problem(template) == nil, let host = URL(string: base)?.host, !host.isEmpty,
              !base.contains(where: { $0 == "\\" || $0 == "#" || $0 == "?" || $0.isWhitespace }) else { return nil }
        self.init(template: template, commit: commit, sitePrefix: sitePrefix)
    }
}
