import Manifest

/// Adds to each finding the lines around its quoted one, from the text the audit read: Swift,
/// JavaScript and Dart sources and the property lists (a synthesized one — build settings, an
/// Expo or XcodeGen config — quotes its own file's lines).
struct FindingContext {
    private var texts: [String: [Substring]] = [:]

    init(manifest: AppManifest, sources: [ParsedSource]) {
        for file in manifest.javaScriptSources + manifest.dartSources { texts[file.path] = file.textLines }
        for target in manifest.targets {
            for document in [target.infoPlist, target.entitlements].compactMap({ $0 }) where document.format != .binary {
                texts[document.path] = document.textLines
            }
        }
        for source in sources where texts[source.file.path] == nil {
            texts[source.file.path] = source.file.text.split(separator: "\n", omittingEmptySubsequences: false)
        }
    }

    func apply(to findings: [Finding]) -> [Finding] {
        findings.map { finding in
            // A missing key is cited at the plist's root, whose surroundings say nothing.
            guard let line = finding.location.line, !finding.quote.hasPrefix("missing: "), let lines = texts[finding.location.file] else { return finding }
            var finding = finding
            finding.context = QuoteContext.around(line, in: lines)
            return finding
        }
    }
}
