import Manifest

/// One `--format` value: a format alone (`sarif`), or with the file it goes to (`sarif=out.sarif`).
public struct FormatOption: Sendable, Hashable {
    public var format: ReportFormat
    /// The file written beside the format (`NAME=FILE`); nil takes the `--output` in its position.
    public var output: String?

    public init(format: ReportFormat, output: String? = nil) { self.format = format; self.output = output }

    /// `NAME` or `NAME=FILE`; nil for an unknown name or an empty file.
    public init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let format = ReportFormat(rawValue: String(parts[0])) else { return nil }
        if parts.count == 2 && parts[1].isEmpty { return nil }
        self.init(format: format, output: parts.count == 2 ? String(parts[1]) : nil)
    }

    /// As the user would write it again.
    var written: String { "--format " + format.rawValue + (output.map { "=" + $0 } ?? "") }
}

/// The reports `check` writes, each format with its output: `--format NAME=FILE`, else the
/// `--output` in the same position among the formats written without a file (`-` or none: stdout).
/// An output whose extension names another format (`.sarif`, `.xml`, `.json`, `.md`) is refused,
/// with the pairing the user most likely meant: written the way SwiftLint users write it
/// (`--format text --format sarif --output a.sarif`), positions silently put each file one format off.
public struct ReportPlan: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var format: ReportFormat
        public var output: String
        public init(format: ReportFormat, output: String) { self.format = format; self.output = output }
    }

    /// Why the options were refused, one line each, the last saying what to write instead.
    public struct Refusal: Error, Sendable, Equatable {
        public var lines: [String]
    }

    public var reports: [Entry]

    public init(formats: [FormatOption], outputs: [String]) throws(Refusal) {
        let positional = formats.filter { $0.output == nil }
        // `--output FILE` alone: the text report, to that file.
        if formats.isEmpty && outputs.count == 1 {
            reports = [Entry(format: .text, output: outputs[0])]
        } else if outputs.count > positional.count {
            throw Refusal(lines: ["error: \(Plural.count(outputs.count, "--output value")) for \(Plural.count(positional.count, "--format value")) without a file: "
                                  + "give one --format per --output, or write each file beside its format (--format sarif=FILE)"])
        } else {
            var next = 0
            reports = (formats.isEmpty ? [FormatOption(format: .text)] : formats).map { option in
                if let output = option.output { return Entry(format: option.format, output: output) }
                defer { next += 1 }
                return Entry(format: option.format, output: next < outputs.count ? outputs[next] : "-")
            }
        }
        var problems: [String] = []
        for report in reports {
            guard let expected = Self.formats(forExtensionOf: report.output), !expected.contains(report.format) else { continue }
            problems.append("\(report.output): error: --format \(report.format.rawValue) would be written to \(report.output), but a .\(Self.fileExtension(report.output)!) file is for \(expected[0].rawValue)")
        }
        var seen: Set<String> = []
        for report in reports where report.output != "-" && !seen.insert(report.output).inserted {
            problems.append("\(report.output): error: two reports would be written to this file")
        }
        guard problems.isEmpty else {
            throw Refusal(lines: problems + ["did you mean: " + Self.suggestion(formats: formats.isEmpty ? [FormatOption(format: .text)] : formats, reports: reports)])
        }
    }

    /// Formats a file's extension stands for, the one it names first (`.json` holds any JSON report).
    static func formats(forExtensionOf path: String) -> [ReportFormat]? {
        switch fileExtension(path)?.lowercased() {
        case "sarif": [.sarif]
        case "xml": [.junit]
        case "json": [.json, .gitlab, .sarif]
        case "md", "markdown": [.markdown]
        default: nil
        }
    }

    static func fileExtension(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = String(name[name.index(after: dot)...])
        return ext.isEmpty ? nil : ext
    }

    /// Each file beside the format its extension names (a format asked for, else the one it
    /// names), every other file where it was, the formats left over on stdout.
    static func suggestion(formats: [FormatOption], reports: [Entry]) -> String {
        var options: [FormatOption] = formats.map { FormatOption(format: $0.format) }
        var placed = Array(repeating: false, count: options.count)
        var added: [FormatOption] = []
        var seen: Set<String> = []
        for report in reports where report.output != "-" && seen.insert(report.output).inserted {
            let wanted = Self.formats(forExtensionOf: report.output) ?? [report.format]
            if let index = options.indices.first(where: { !placed[$0] && wanted.contains(options[$0].format) }) {
                options[index].output = report.output
                placed[index] = true
            } else {
                added.append(FormatOption(format: wanted[0], output: report.output))
            }
        }
        return (options + added).map(\.written).joined(separator: " ")
    }
}
