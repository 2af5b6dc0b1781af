import Foundation
import Manifest
import Report

/// Each app's report as the last build rendered it, kept in the output beside the build cache
/// (`.healthaudit-apps.json`, the JSON `check --format json` writes) and swapped in with the site:
/// a build whose audit inputs are unchanged (only content pages or templates changed) reads the
/// reports back instead of auditing and simulating again. The pages render from reports alone, so
/// read-back reports give the same bytes (as `build --results` does).
enum AppsCache {
    static let fileName = ".healthaudit-apps.json"
    /// Far above any real site's reports; a bigger file is not ours.
    static let maxBytes = 256 * 1024 * 1024

    /// The reports as one more file of the new site.
    static func file(_ apps: [AppReport], title: String, options: BuildOptions, sourceURL: String?) -> OutputFile {
        let source = ResultSource(siteDirectory: options.siteDirectory, urlTemplate: sourceURL)
        var context = OutputContext(sitePrefix: source.sitePath, siteDirectory: options.siteDirectory)
        context.title = title
        context.source = source
        return OutputFile(path: fileName, text: JSONReport.document(apps, context: context).serialized())
    }

    /// The reports of the last build (`cache`, which this tool wrote), when they were made from the
    /// same audit inputs (`digest`) and the file is the one the cache names. Untrusted like any file on disk: read
    /// through `ResultReader`, and anything unexpected (another app list, a partial result) means
    /// no reports: the build audits as if there were no cache.
    static func load(output: String, cache: BuildCache, digest: String, appIDs: [String]) -> [AppReport]? {
        guard cache.appsDigest == digest,
              let expected = cache.appsFile,
              let data = try? LocalFileSystem(confinedTo: [output]).contents(of: output + "/" + fileName, limit: maxBytes),
              StableDigest.hex(data) == expected,
              let result = try? ResultReader.read(data), !result.isPartial,
              result.apps.map(\.id) == appIDs else { return nil }
        return result.apps
    }
}
