import Manifest
import SwiftSyntax

/// Code inside `#if DEBUG` never ships: a finding there is kept, as a note that says so, so that a
/// developer probe cannot fail the build of a well-made app.
struct DebugOnlyCode {
    /// Line ranges of `#if DEBUG` clauses, per file.
    let ranges: [String: [ClosedRange<Int>]]

    init(sources: [ParsedSource]) {
        var ranges: [String: [ClosedRange<Int>]] = [:]
        for source in sources where ByteSearch.contains(source.file.text, "DEBUG") {
            for clause in source.tree.collect(IfConfigClauseSyntax.self) where clause.condition?.trimmedText == "DEBUG" {
                guard let first = clause.firstToken(viewMode: .sourceAccurate), let last = clause.lastToken(viewMode: .sourceAccurate),
                      let start = source.location(of: first).line, let end = source.location(of: last).line else { continue }
                ranges[source.file.path, default: []].append(start...end)
            }
        }
        self.ranges = ranges
    }

    func soften(_ findings: [Finding]) -> [Finding] {
        guard !ranges.isEmpty else { return findings }
        return findings.map { finding in
            guard let line = finding.location.line, ranges[finding.location.file]?.contains(where: { $0.contains(line) }) == true else { return finding }
            var softened = finding
            softened.severity = .note
            softened.message += " (in `#if DEBUG` code, which does not ship)"
            return softened
        }
    }
}
