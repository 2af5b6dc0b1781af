import Manifest

/// Adds to each finding the lines around its quoted one, from the text the audit read: Swift,
/// JavaScript and Dart sources and the property lists (a synthesized one — build settings, an
/// Expo or XcodeGen config — quotes its own file's lines).
struct FindingContext {
    let manifest: AppManifest
    let sources: [ParsedSource]

    func apply(to findings: [Finding]) -> [Finding] {
        // Only the files findings point at are split into lines: an app of a thousand files has a few.
        let wanted = Set(findings.map(\.location.file))
        guard !wanted.isEmpty else { return findings }
        var texts: [String: [Substring]] = [:]
        for file in manifest.javaScriptSources + manifest.dartSources where wanted.contains(file.path) { texts[file.path] = file.textLines }
        for target in manifest.targets {
            for document in [target.infoPlist, target.entitlements].compactMap({ $0 }) where document.format != .binary && wanted.contains(document.path) {
                texts[document.path] = document.textLines
            }
        }
        for source in sources where texts[source.file.path] == nil && wanted.contains(source.file.path) {
            texts[source.file.path] = source.file.text.split(separator: "\n", omittingEmptySubsequences: false)
        }
        return findings.map { finding in
            // A missing key is cited at the plist's root, whose surroundings say nothing.
            guard let line = finding.location.line, !finding.quote.hasPrefix("missing: "), let lines = texts[finding.location.file] else { return finding }
            var finding = finding
            finding.context = QuoteContext.around(line, in: lines)
            return finding
        }
    }
}
