import ArgumentParser
import Checklist
import Foundation
import Manifest
import Report
import SiteBuild
import Summary

extension FormatOption: ExpressibleByArgument {
    public static var allValueStrings: [String] { ReportFormat.allCases.map(\.rawValue) }
}
extension Severity: ExpressibleByArgument {}

/// `healthaudit check`: the audit alone, for CI and code review, with linter-style exit codes.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Audit the apps without building the site; print findings and write CI reports.",
        discussion: """
        Prints each app's six answers (mark, question, answer, a short reason; --quiet leaves them out), then \
        findings as `path:line:column: severity: message [rule]`, paths relative to the current directory.

        --format NAME=FILE writes that format to FILE; a --format without a file takes the --output in the \
        same position among those without one; a missing output or `-` means standard output. An output whose \
        extension names another format (.sarif, .xml for junit, .json, .md) is refused (exit 2, nothing written). Formats: text, sarif (SARIF 2.1.0), junit, json (versioned schema), \
        markdown (a pull-request comment), github (workflow-command annotations), gitlab (GitLab Code Quality).

        --changed-files FILE or --since REF report only the findings a change is responsible for: in code, \
        those on a changed line; in Info.plist, entitlements, projects and configs, those in a changed file. \
        Every output says how many were left out, and the exit status counts only the findings shown.

        Exit codes: 0 when no active finding is at or above --fail-on (or with --no-fail); 1 when some are, \
        or with --strict-baseline when baselined findings no longer occur; 2 on a usage or input error \
        (bad option, unknown app, config or manifest errors, unreadable baseline, an output that is one of \
        the audit's inputs; with no config, a discovered app that could not be loaded, after every report         is written); 3 when an output cannot be written.
        """
    )

    @Argument(help: "The folder to audit (default: the current one). Its healthaudit.yml — or the nearest one above it, up to the repository root — is used; with none, the apps in it are discovered.")
    var path: String?

    @Option(help: "The site folder holding healthaudit.yml and the apps (skips the lookup).")
    var site: String?

    @Option(help: ArgumentHelp("The config file to use (its folder is the site).", valueName: "file"))
    var config: String?

    @Option(name: .customLong("format"), help: ArgumentHelp("Output format, optionally with its file: sarif=out.sarif (repeatable).", valueName: "format[=file]"))
    var formats: [FormatOption] = []

    @Option(name: .customLong("output"), help: ArgumentHelp("Where the --format in the same position among those without a file goes ('-' for standard output).", valueName: "path"))
    var outputs: [String] = []

    @Option(name: .customLong("fail-on"), help: ArgumentHelp("Lowest severity that fails the check.", valueName: "severity"))
    var failOn: Severity = .error

    @Flag(help: "Text output: also list what discovery found for each app (targets, files, settings) and where it read it.")
    var verbose = false

    @Flag(name: [.customShort("q"), .long], help: "Text output: leave out each app's six answers, print findings and the count only.")
    var quiet = false

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

    @Option(name: .customLong("changed-files"), help: ArgumentHelp(
        "Only report findings on changed lines: a file of paths relative to the repository root, one a line, each optionally PATH:START-END ('-' reads standard input).",
        valueName: "file"))
    var changedFiles: String?

    @Option(help: ArgumentHelp("Only report findings on the lines changed since this git revision (git diff REF in the site's repository).", valueName: "ref"))
    var since: String?

    @Option(name: .customLong("cache-path"), help: ArgumentHelp(
        "Keep what each Swift file's check learnt in this folder, for the next check (default: $XDG_CACHE_HOME/healthaudit or ~/.cache/healthaudit; ~/Library/Caches/healthaudit on macOS).",
        valueName: "dir"))
    var cachePath: String?

    @Flag(help: "Neither read nor write the cache.")
    var noCache = false

    func validate() throws {
        if strictBaseline && baseline == nil { throw ValidationError("--strict-baseline needs --baseline FILE") }
        if changedFiles != nil && since != nil { throw ValidationError("give --changed-files or --since, not both") }
        if noCache && cachePath != nil { throw ValidationError("give --cache-path or --no-cache, not both") }
    }

    func run() throws { try CommandFailure.exitOnFailure(check) }

    private func check() throws {
        // Before anything is read or written: a file one format off is refused, with the pairing meant.
        let plan: ReportPlan
        do { plan = try ReportPlan(formats: formats, outputs: outputs) } catch { throw CommandFailure(lines: error.lines) }
        let located = try SiteLocator.locate(path: path, site: site, config: config)
        let siteDirectory = located.siteDirectory
        var context = OutputContext(sitePrefix: Paths.relative(siteDirectory), siteDirectory: siteDirectory, showSuppressed: showSuppressed,
                                    failOn: failOn, verbose: verbose)
        context.showsAnswers = !quiet
        // Read before the audit, so a bad list or revision fails fast.
        let changes = try changedLines(siteDirectory: siteDirectory)
        // An output over a file the user named (config, baseline, changed-files list) is refused
        // now, not after the audit; the files the audit reads are known only after it (below).
        let outputs = plan.reports.map(\.output) + (writeBaseline.map { [$0] } ?? [])
        let configFile = located.configFile ?? siteDirectory + "/" + ConfigLoader.fileName
        try OutputWriter(named: namedInputs(configFile: configFile)).refuseInputs(outputs)
        // JSON carries each app's summaries and scenarios, so a site can be built from it alone.
        let run = try AuditRunner.audit(siteDirectory: siteDirectory, apps: apps, configText: located.discoveredConfig, simulate: plan.reports.contains { $0.format == .json },
                                        discovered: located.isDiscovered, parseBudget: located.parseBudget, cache: swiftFileCache())
        context.title = run.title
        context.baseURL = run.baseURL
        context.source = ResultSource(siteDirectory: siteDirectory, urlTemplate: run.sourceURL)
        context.siteURL = run.baseURL.isEmpty ? nil : run.baseURL
        // The comment links findings through the config's `source_url`, else through the GitHub Actions run.
        context.findingLinks = context.source.links
            ?? SourceLinks(gitHubEnvironment: ProcessInfo.processInfo.environment, sitePrefix: context.source.sitePath)
        context.summaries = run.summaries
        // Every output is checked against every input before the first one is written.
        let writer = OutputWriter(auditInputs: run.inputs, named: namedInputs(configFile: configFile))
        try writer.refuseInputs(outputs)
        var (audits, disappeared) = try applyBaseline(to: run.audits, context: context, writer: writer)
        // A baselined result is not the whole project: the JSON says so, and `build --results` refuses it.
        // `--write-baseline` accepts every finding for this run, so its result is baselined too.
        if baseline != nil || writeBaseline != nil {
            context.baselined = run.audits.flatMap(\.activeFindings).count - audits.flatMap(\.activeFindings).count
        }
        if let changes {
            let layout = RepositoryLayout(root: changes.root, site: RealPath.of(siteDirectory) ?? siteDirectory)
            (audits, context.changeScope) = ChangeFilter(changes: changes.lines, layout: layout).apply(audits, context: context)
        }
        try writeReports(plan, audits, context: context, writer: writer)
        for entry in disappeared {
            Console.error("\(context.repositoryPath(entry.path)): \(strictBaseline ? "error" : "note"): "
                          + "baselined finding no longer occurs: \(entry.message) [\(entry.ruleId)]")
        }
        // An app that could not be loaded fails the run as an input error, once every report is written.
        let unloaded = audits.filter { !$0.manifest.loadProblems.isEmpty }
        if !unloaded.isEmpty {
            throw CommandFailure(lines: unloaded.flatMap { audit in
                audit.manifest.loadProblems.map { problem in
                    var shown = problem.location
                    shown.file = context.repositoryPath(shown.file)
                    return "\(shown): error: \(problem.message)"
                }
            } + ["check incomplete: \(Plural.count(unloaded.count, "app")) could not be loaded (\(unloaded.map(\.manifest.id).joined(separator: ", ")))"
                 + (audits.count > unloaded.count ? "; the others were audited" : "")])
        }
        if noFail { return }
        let failing = audits.flatMap(\.activeFindings).filter { $0.severity >= failOn }
        if !failing.isEmpty || (strictBaseline && !disappeared.isEmpty) {
            throw ExitCode(ExitStatus.findings)
        }
    }

    /// The cache the check reads and writes: `--cache-path`, else the platform's cache folder; none
    /// with `--no-cache`, or when the folder cannot be used (the check then runs without it).
    private func swiftFileCache() -> SwiftFileCache? {
        guard !noCache, let folder = cachePath.map(Paths.absolute) ?? SwiftFileCache.defaultFolder() else { return nil }
        return SwiftFileCache(folder: folder, tool: ToolFingerprint.current(), settings: BoundedSwiftParse.settings)
    }

    /// `--changed-files` or `--since`, with the repository root their paths are relative to.
    private func changedLines(siteDirectory: String) throws -> (lines: ChangedLines, root: String)? {
        if let changedFiles { return try ChangeSource.listed(in: changedFiles, siteDirectory: siteDirectory) }
        if let since { return try ChangeSource.since(since, siteDirectory: siteDirectory) }
        return nil
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

    /// The files this run reads that the user named, with what each is to the run.
    private func namedInputs(configFile: String) -> [(path: String, role: String)] {
        var named = [(configFile, "a file the audit reads")]
        if let baseline { named.append((baseline, "the baseline this run reads (--baseline)")) }
        if let changedFiles, changedFiles != "-" { named.append((changedFiles, "the changed-files list this run reads (--changed-files)")) }
        return named
    }

    private func writeReports(_ plan: ReportPlan, _ audits: [AppAudit], context: OutputContext, writer: OutputWriter) throws {
        for report in plan.reports {
            try writer.write(report.format.render(audits, context: context), to: report.output)
        }
        // CI logs still get the count when every report went to a file.
        if !plan.reports.contains(where: { $0.output == "-" && $0.format == .text }) {
            Console.error([TextReport.summary(audits)] + (context.changeScope.map { [$0.sentence] } ?? []))
        }
    }

    static func readBaseline(_ path: String) throws -> Baseline {
        // The user names this file; it is still read without blocking on a FIFO and within the size limit.
        let data: Data
        do { data = try LocalFileSystem().contents(of: Paths.absolute(path)) } catch let error as InputError {
            throw CommandFailure("\(path): error: baseline file not readable: \(error.problems.first?.message ?? "")")
        }
        do { return try Baseline(json: data) } catch let error as Baseline.FormatError {
            throw CommandFailure("\(path): error: \(error.description)")
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
        var title = ProjectConfig.defaultTitle
        var baseURL = ""
        var sourceURL: String?
        /// With `simulate`: each app's summaries and scenarios, by app id.
        var summaries: [String: AppSummary] = [:]
    }

    static func audit(siteDirectory: String, apps: [String], configText: String? = nil, simulate: Bool = false, discovered: Bool = false,
                      parseBudget: ParseBudget = ParseBudget(), cache: SwiftFileCache? = nil) throws -> Run {
        let (state, inputs) = try loadAndCheck(siteDirectory: siteDirectory, configText: configText, simulate: simulate, discovered: discovered,
                                               parseBudget: parseBudget, cache: cache)
        var run = Run(audits: state.audits, inputs: inputs, title: state.config?.title ?? ProjectConfig.defaultTitle,
                      baseURL: state.config?.baseURL ?? "", sourceURL: state.config?.sourceURL, summaries: state.summaries)
        guard !apps.isEmpty else { return run }
        let known = state.audits.map(\.manifest.id)
        let unknown = apps.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw CommandFailure("error: unknown app \(unknown.count == 1 ? "id" : "ids") \(unknown.joined(separator: ", ")); the config lists: \(known.joined(separator: ", "))")
        }
        run.audits = state.audits.filter { apps.contains($0.manifest.id) }
        return run
    }

    /// `configText`: a config laid over the site folder (never written to disk); `discovered`: written
    /// from discovery, so an app that cannot be loaded is reported while the others are audited.
    static func loadAndCheck(siteDirectory: String, configText: String? = nil, simulate: Bool = false,
                             discovered: Bool = false, parseBudget: ParseBudget = ParseBudget(), cache: SwiftFileCache? = nil) throws -> (BuildState, Set<String>) {
        var options = BuildOptions(siteDirectory: siteDirectory, log: SilentLog())
        options.discoveredApps = discovered
        options.parseBudget = parseBudget
        options.swiftFileCache = cache
        if let configText {
            options.fileSystem = OverlayFileSystem(options.fileSystem, files: [siteDirectory + "/" + ConfigLoader.fileName: Data(configText.utf8)])
        }
        let recorder = RecordingFileSystem(options.fileSystem)
        options.fileSystem = recorder
        do {
            let state = try (simulate ? Pipeline.auditAndSimulate : Pipeline.audit).run(options)
            return (state, recorder.readFiles)
        } catch let failure as BuildFailed {
            throw CommandFailure(lines: failure.lines(sitePrefix: Paths.relative(siteDirectory)) + ["check failed: \(Plural.count(failure.diagnostics.count, "input problem"))"])
        } catch let failure as InternalFailure {
            throw CommandFailure(failure.description, status: ExitStatus.internalError)
        }
    }
}

/// A failure already worded for the user (input, usage, output or internal): printed to stderr, exit `status`.
struct CommandFailure: Error {
    /// Each a line of its own on stderr (`Console`).
    var lines: [String]
    /// `ExitStatus.inputError`, `outputError` when an output could not be written, `internalError` for a bug.
    var status = ExitStatus.inputError
    init(_ message: String, status: Int32 = ExitStatus.inputError) {
        self.init(lines: [message], status: status)
    }

    init(lines: [String], status: Int32 = ExitStatus.inputError) {
        self.lines = lines
        self.status = status
    }

    static func exitOnFailure(_ body: () throws -> Void) throws {
        do { try body() } catch let failure as CommandFailure {
            Console.error(failure.lines)
            throw ExitCode(failure.status)
        }
    }
}

extension Paths {
    /// `path` relative to the current directory (`Site`, `../other/Site`), "" when it is the current directory.
    static func relative(_ path: String, from base: String = FileManager.default.currentDirectoryPath) -> String {
        SiteBoundary.display(absolute(path), site: absolute(base))
    }
}

/// Where `check` finds its config, as SwiftLint does: `--config FILE`, `--site DIR`, else
/// `healthaudit.yml` / `.healthaudit.yml` in the folder or the nearest one above it up to the
/// repository root, else `./Site/healthaudit.yml` (the embedded example), else the apps discovered
/// in the folder with a config written in memory.
enum SiteLocator {
    struct Located {
        var siteDirectory: String
        /// The config written from discovery, or read from a file not named `healthaudit.yml`.
        var discoveredConfig: String?
        /// The config file read, when one was found.
        var configFile: String?
        /// `discoveredConfig` was written from the apps found, not read from a file.
        var isDiscovered = false
        /// The parse budget discovery drew on; the audit draws on the same one.
        var parseBudget = ParseBudget()
    }

    static let names = [ConfigLoader.fileName, "." + ConfigLoader.fileName]

    /// The nearest config (`healthaudit.yml`, then `.healthaudit.yml`) at or above `start`, up to the repository root.
    static func nearestConfig(from start: String) -> (folder: String, name: String)? {
        let root = ProjectRoot.containing(start)
        var folder = RealPath.of(start) ?? start
        while true {
            if let name = names.first(where: { FileManager.default.fileExists(atPath: folder + "/" + $0) }) { return (folder, name) }
            if folder == root || folder == "/" { return nil }
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    /// The loader reads `<site>/healthaudit.yml`: a config under any other name is laid over that path.
    /// The file sits in the audited repository, so it is read like any input: confined to that
    /// repository (a symlink out of it is refused), a FIFO refused instead of blocking, size bounded.
    private static func located(configFile file: String) throws -> Located {
        let folder = (file as NSString).deletingLastPathComponent
        guard (file as NSString).lastPathComponent != ConfigLoader.fileName else { return Located(siteDirectory: folder, configFile: file) }
        let fileSystem = LocalFileSystem(confinedTo: [ProjectRoot.containing(folder)])
        do {
            return Located(siteDirectory: folder, discoveredConfig: String(decoding: try fileSystem.contents(of: file), as: UTF8.self), configFile: file)
        } catch let error as InputError { throw CommandFailure(lines: error.problems.map(\.description)) }
    }

    static func locate(path: String?, site: String?, config: String?) throws -> Located {
        let fileManager = FileManager.default
        if let config {
            let file = Paths.absolute(config)
            guard fileManager.fileExists(atPath: file) else { throw CommandFailure("\(config): error: config file not found") }
            return try located(configFile: file)
        }
        if let site { return Located(siteDirectory: Paths.absolute(site)) }
        let start = Paths.absolute(path ?? ".")
        guard fileManager.fileExists(atPath: start) else { throw CommandFailure("\(path ?? "."): error: folder not found") }
        if let (folder, name) = nearestConfig(from: start) { return try located(configFile: folder + "/" + name) }
        if path == nil, fileManager.fileExists(atPath: start + "/Site/" + ConfigLoader.fileName) {
            return Located(siteDirectory: start + "/Site")
        }
        let parseBudget = ParseBudget()
        let (apps, skipped) = AppDiscovery.survey(in: start, parseBudget: parseBudget)
        let skippedLines = skipped.map { "  skipped \($0.path) — \($0.reason)" }
        guard !apps.isEmpty else {
            throw CommandFailure(lines: ["\(path ?? "."): error: no healthaudit.yml here or above, and no iOS app found (an .xcodeproj with an application target, a React Native / Expo, Flutter or Capacitor app)"]
                                 + skippedLines)
        }
        Console.error(["healthaudit: no healthaudit.yml found; auditing \(Plural.count(apps.count, "discovered app")):"]
                      + apps.map { "  \($0.root)\($0.project.map { "/" + $0 } ?? "") — \($0.reason)" } + skippedLines)
        return Located(siteDirectory: RealPath.of(start) ?? start,
                       discoveredConfig: AppDiscovery.config(for: apps, title: (start as NSString).lastPathComponent), isDiscovered: true, parseBudget: parseBudget)
    }
}
