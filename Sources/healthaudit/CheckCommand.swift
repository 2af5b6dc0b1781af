import ArgumentParser
import Checklist
import Foundation
import Manifest
import Report
import SiteBuild

extension ReportFormat: ExpressibleByArgument {}
extension Severity: ExpressibleByArgument {}

/// `healthaudit check`: the audit alone, for CI and code review, with linter-style exit codes.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Audit the apps without building the site; print findings and write CI reports.",
        discussion: """
        Prints findings as `path:line:column: severity: message [rule]`, paths relative to the current directory.

        Each --format is paired with the --output given in the same position; a missing output or `-` \
        means standard output. Formats: text, sarif (SARIF 2.1.0), junit, json (versioned schema), \
        markdown (a pull-request comment), github (workflow-command annotations).

        Exit codes: 0 when no active finding is at or above --fail-on (or with --no-fail); 1 when some are, \
        or with --strict-baseline when baselined findings no longer occur; 2 on a usage or input error \
        (bad option, unknown app, config or manifest errors, unreadable baseline, an output that is one of \
        the audit's inputs); 3 when an output cannot be written.
        """
    )

    @Option(help: "The site folder holding healthaudit.yml and the apps.")
    var site: String = "Site"

    @Option(name: .customLong("format"), help: ArgumentHelp("Output format (repeatable).", valueName: "format"))
    var formats: [ReportFormat] = []

    @Option(name: .customLong("output"), help: ArgumentHelp("Where the --format in the same position goes ('-' for standard output).", valueName: "path"))
    var outputs: [String] = []

    @Option(name: .customLong("fail-on"), help: ArgumentHelp("Lowest severity that fails the check.", valueName: "severity"))
    var failOn: Severity = .error

    @Flag(help: "Write every report and exit 0 whatever was found.")
    var noFail = false

    @Flag(help: "Also print suppressed findings (text and markdown; SARIF and JSON always include them, marked).")
    var showSuppressed = false

    @Option(help: ArgumentHelp("Accept the findings listed in this baseline file; report and fail on new ones only.", valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("Write the current findings as a baseline file (and accept them for this run).", valueName: "file"))
    var writeBaseline: String?

    @Flag(help: "With --baseline, also fail when a baselined finding no longer occurs (so the baseline shrinks).")
    var strictBaseline = false

    @Option(name: .customLong("app"), help: ArgumentHelp("Only audit this app id (repeatable).", valueName: "id"))
    var apps: [String] = []

    func validate() throws {
        if outputs.count > formats.count && !(formats.isEmpty && outputs.count == 1) {
            throw ValidationError("\(outputs.count) --output value(s) for \(formats.count) --format value(s): give one --format per --output")
        }
        if strictBaseline && baseline == nil { throw ValidationError("--strict-baseline needs --baseline FILE") }
    }

    func run() throws { try InputFailure.exitOnFailure(check) }

    private func check() throws {
        let siteDirectory = Paths.absolute(site)
        let context = OutputContext(sitePrefix: Paths.relative(siteDirectory), siteDirectory: siteDirectory, showSuppressed: showSuppressed)
        let run = try AuditRunner.audit(siteDirectory: siteDirectory, apps: apps)
        let writer = OutputWriter(inputs: run.inputs)
        let (audits, disappeared) = try applyBaseline(to: run.audits, context: context, writer: writer)
        try writeReports(audits, context: context, writer: writer)
        for entry in disappeared {
            OutputWriter.standardError("\(context.repositoryPath(entry.path)): \(strictBaseline ? "error" : "note"): "
                                       + "baselined finding no longer occurs: \(entry.message) [\(entry.ruleId)]\n")
        }
        if noFail { return }
        let failing = audits.flatMap(\.activeFindings).filter { $0.severity >= failOn }
        if !failing.isEmpty || (strictBaseline && !disappeared.isEmpty) {
            throw ExitCode(ExitStatus.findings)
        }
    }

    /// Writes `--write-baseline` (which then counts as this run's baseline), reads `--baseline`,
    /// and takes the accepted findings out of the audits.
    private func applyBaseline(to audits: [AppAudit], context: OutputContext, writer: OutputWriter) throws -> ([AppAudit], [BaselineEntry]) {
        var accepted: Baseline?
        if let writeBaseline {
            accepted = Baseline(audits: audits, context: context)
            try writer.write(accepted!.serialized(), to: writeBaseline)
        }
        if let baseline { accepted = try Self.readBaseline(baseline) }
        guard let accepted else { return (audits, []) }
        let comparison = accepted.compare(audits, context: context)
        return (comparison.audits, comparison.absent)
    }

    /// Each format to the output in the same position (stdout when there is none, or `-`).
    private func writeReports(_ audits: [AppAudit], context: OutputContext, writer: OutputWriter) throws {
        let pairs = (formats.isEmpty ? [.text] : formats).enumerated().map { ($1, $0 < outputs.count ? outputs[$0] : "-") }
        for (format, output) in pairs {
            try writer.write(format.render(audits, context: context), to: output)
        }
        // CI logs still get the count when every report went to a file.
        if !pairs.contains(where: { $0.1 == "-" && $0.0 == .text }) {
            OutputWriter.standardError(TextReport.summary(audits) + "\n")
        }
    }

    static func readBaseline(_ path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: Paths.absolute(path)) else {
            throw InputFailure("\(path): error: baseline file not found or unreadable")
        }
        do { return try Baseline(json: data) } catch let error as Baseline.FormatError {
            throw InputFailure("\(path): error: \(error.description)")
        }
    }
}

/// Loads and checks the site, restricted to `apps` when given. Input problems are printed as
/// `file:line: error: …` and become exit status 2.
enum AuditRunner {
    struct Run {
        var audits: [AppAudit]
        /// Every file the audit read (real paths): outputs must never overwrite one.
        var inputs: Set<String>
    }

    static func audit(siteDirectory: String, apps: [String]) throws -> Run {
        let (state, inputs) = try loadAndCheck(siteDirectory: siteDirectory)
        guard !apps.isEmpty else { return Run(audits: state.audits, inputs: inputs) }
        let known = state.audits.map(\.manifest.id)
        let unknown = apps.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw InputFailure("error: unknown app id(s) \(unknown.joined(separator: ", ")); the config lists: \(known.joined(separator: ", "))")
        }
        return Run(audits: state.audits.filter { apps.contains($0.manifest.id) }, inputs: inputs)
    }

    static func loadAndCheck(siteDirectory: String) throws -> (BuildState, Set<String>) {
        var options = BuildOptions(siteDirectory: siteDirectory, log: SilentLog())
        let recorder = RecordingFileSystem(options.fileSystem)
        options.fileSystem = recorder
        do {
            let state = try Pipeline.audit.run(options)
            return (state, recorder.readFiles)
        } catch let failure as BuildFailed {
            throw InputFailure(failure.description(sitePrefix: Paths.relative(siteDirectory)) + "\ncheck failed: \(failure.diagnostics.count) input problem(s)")
        }
    }
}

/// An input or usage problem already worded for the user: printed to stderr, exit status 2.
struct InputFailure: Error {
    var message: String
    /// `ExitStatus.inputError`, or `outputError` when an output could not be written.
    var status = ExitStatus.inputError
    init(_ message: String, status: Int32 = ExitStatus.inputError) {
        self.message = message
        self.status = status
    }

    static func exitOnFailure(_ body: () throws -> Void) throws {
        do { try body() } catch let failure as InputFailure {
            OutputWriter.standardError(failure.message + "\n")
            throw ExitCode(failure.status)
        }
    }
}

extension Paths {
    /// `path` relative to the current directory (`Site`, `../other/Site`), "" when it is the current directory.
    static func relative(_ path: String, from base: String = FileManager.default.currentDirectoryPath) -> String {
        let target = absolute(path).split(separator: "/"), origin = absolute(base).split(separator: "/")
        var shared = 0
        while shared < target.count, shared < origin.count, target[shared] == origin[shared] { shared += 1 }
        let parts = Array(repeating: "..", count: origin.count - shared) + target[shared...].map(String.init)
        return parts.joined(separator: "/")
    }
}
