import Foundation
import Manifest
import Report

/// One hash over everything a build reads, so an unchanged site is recognized without auditing it again.
enum InputDigest {
    static func compute(_ state: BuildState, _ options: BuildOptions, contentStamps: [String]) -> String {
        var parts: [String] = [options.toolFingerprint, options.siteDirectory, options.templatesDirectory]
        if let config = state.config {
            parts.append(StableDigest.hex((try? options.fileSystem.contents(of: config.file)) ?? Data()))
        }
        parts.append(state.templates?.digest ?? "")
        for manifest in state.manifests {
            for file in manifest.inputFiles {
                let data = (try? options.fileSystem.contents(of: options.siteDirectory + "/" + file)) ?? Data()
                parts.append(file + "=" + StableDigest.hex(data))
            }
        }
        parts += contentStamps
        return StableDigest.hex(Data(parts.joined(separator: "\n").utf8))
    }
}
