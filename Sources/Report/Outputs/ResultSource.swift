import Foundation
import Manifest

/// Where a run's sources come from, as its JSON result's `source` block says: the checked-out
/// commit (history keys runs by it), the config's `source_url`, and the site's place in the
/// repository, so a site built from results links locations to the forge as a source build does.
public struct ResultSource: Sendable, Hashable {
    /// Read from `.git` without running git; nil outside a repository.
    public var commit: String?
    public var urlTemplate: String?
    /// The site folder relative to the repository root, "" when it is the root.
    public var sitePath: String

    public init(commit: String? = nil, urlTemplate: String? = nil, sitePath: String = "") {
        self.commit = commit; self.urlTemplate = urlTemplate; self.sitePath = sitePath
    }

    /// For a site folder: the repository holding it, its commit and the site's place in it.
    public init(siteDirectory: String, urlTemplate: String?) {
        let (root, path) = SourceLinks.place(of: siteDirectory)
        self.init(commit: GitHead.commit(in: root), urlTemplate: urlTemplate, sitePath: path)
    }

    public var links: SourceLinks? { urlTemplate.map { SourceLinks(template: $0, commit: commit, sitePrefix: sitePath) } }
}
