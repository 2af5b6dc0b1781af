import Manifest

/// A file the audit read but did not analyse — a Swift file or Tuist manifest refused before parsing
/// (nesting beyond the bounds swift-syntax is safe with) or whose parse did not finish, JavaScript or
/// Dart read only up to a line — is a finding, not a note: code the rules never saw may hold exactly
/// what they look for, so the run says where and why, and `--fail-on warning` fails it.
struct FileNotAnalysedRule: Rule {
    static let description = RuleDescription(
        id: "file-not-analysed", title: "File not analysed", severity: .warning,
        questions: [],
        rationale: """
        The audit reads code to answer its questions, and a file it could not read answers nothing: a \
        request for authorization or a cached status in it goes unseen. Swift is parsed by swift-syntax, whose \
        time grows steeply with some nesting (each `[` nested in another doubles it) and whose error recovery is \
        slow on some malformed text; files past those bounds are refused before parsing rather than left to \
        stall the run, and a parse that does not finish in its time is given up. Real code stays far inside \
        the bounds, so such a file is either generated, broken, or written to hide something. Fix or remove \
        it, or, if it holds no HealthKit code, suppress this finding for it with a reason.
        """,
        triggering: [
            .healthApp(["Sources/Deep.swift": """
            import HealthKit

            let table = [[[[[[[[[[[[↓[1]]]]]]]]]]]]]
            """]),
            // Brackets inside an interpolation are code: they count.
            .healthApp(["Sources/Interpolated.swift": """
            import HealthKit

            let label = "\\([[[[[[[[[[[[↓[1]]]]]]]]]]]]])"
            """]),
            // After a string holding an escaped backslash, code goes on.
            .healthApp(["Sources/Escaped.swift": """
            import HealthKit

            let separator = "\\\\"; let table = [[[[[[[[[[[[↓[1]]]]]]]]]]]]]
            """]),
        ],
        nonTriggering: [
            .healthApp(["Sources/Tables.swift": """
            import HealthKit

            let table = [[[[[[[[[[[[1]]]]]]]]]]]]
            let text = "[[[[[[[[[[[[[[[[[[[[ \\\\"
            let raw = #"\\"[[[[[[[[[[[[[[[[[[[[[["#
            // [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
            /* [[[[[[[[[[[[[[[[[[[ /* [[[[[[[[[[[[[[[[ */ [[[[[[[[[[[[[[[[[[ */
            """]),
            .healthApp(["Sources/Multiline.swift": """
            import HealthKit

            let help = \"\"\"
                [[[[[[[[[[[[[[[[[[[[ \\(name ?? "[[[[[[[[[[[[[[") ]]]]
                \"\"\"
            let pattern = /[[a-z][0-9]]+/
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for source in context.sources {
            guard let refused = source.notAnalysed else { continue }
            findings.append(finding(refused, quote: source.lineText(refused.line), target: source.target))
        }
        for file in context.manifest.unanalysed {
            findings.append(finding(file, quote: file.quote, target: context.manifest.id))
        }
        for file in context.manifest.javaScriptSources + context.manifest.dartSources {
            guard let line = file.stoppedAtLine else { continue }
            let partial = UnanalysedFile(path: file.path, line: line, column: nil,
                                         reason: "expressions nested deeper than \(JSTokenizer.maxNesting)", isPartial: true)
            findings.append(finding(partial, quote: file.lineText(line), target: context.manifest.id))
        }
        return findings
    }

    private func finding(_ file: UnanalysedFile, quote: String, target: String) -> Finding {
        var result = finding(file.message, at: FileLocation(file: file.path, line: file.line, column: file.column), quote: quote, target: target)
        // A file left out because the run's parse budget ran out fails the check whatever else it finds.
        if file.failsRun { result.severity = .error }
        return result
    }
}
