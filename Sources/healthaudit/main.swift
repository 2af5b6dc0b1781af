import Manifest
import ArgumentParser
import Foundation
import Report
import SiteBuild

/// Exit codes shared by every command: 0 ok, 1 findings at or above the threshold, 2 usage or input
/// error (including an output folder the tool refuses to replace), 3 the output could not be written,
/// 70 (EX_SOFTWARE) an internal error: a bug in the tool, never blamed on an input.
enum ExitStatus {
    static let findings: Int32 = 1
    static let inputError: Int32 = 2
    static let outputError: Int32 = 3
    static let internalError: Int32 = 70
}

struct HealthAudit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthaudit",
        abstract: "Audit how iOS apps ask for and use HealthKit permissions, and publish the results as a static site.",
        discussion: "With no command: `build` when a config is found, else `check` (as SwiftLint's default is `lint`).",
        version: ToolInfo.currentVersion,
        subcommands: [Build.self, Check.self, EvidenceCommand.self, Serve.self, InitCommand.self, RulesCommand.self, ExplainCommand.self, TemplatesCommand.self],
        defaultSubcommand: Build.self
    )

    /// Bare `healthaudit`: builds the site of the config found here or above (or `./Site`'s);
    /// with none, audits the apps in the folder instead of failing a build with nothing to build.
    static func defaultArguments(in folder: String) -> [String] {
        let configured = SiteLocator.nearestConfig(from: folder) != nil
            || FileManager.default.fileExists(atPath: folder + "/Site/" + ConfigLoader.fileName)
        return configured ? [] : ["check"]
    }
}

/// Options every command that reads a site shares.
struct SiteOptions: ParsableArguments {
    @Option(help: "The site folder holding healthaudit.yml, the apps and content/ (default: the folder of the nearest healthaudit.yml or .healthaudit.yml, here or above up to the repository root, else ./Site).")
    var site: String?

    @Option(help: ArgumentHelp("The config file to use (its folder is the site).", valueName: "file"))
    var config: String?

    @Option(help: "A folder of Mustache templates and assets overriding the built-in ones file by file (default: <site>/templates when it exists; `healthaudit templates export DIR` writes the built-in set to start from).")
    var templates: String?

    var siteDirectory: String {
        if let config { return (Paths.absolute(config) as NSString).deletingLastPathComponent }
        if let site { return Paths.absolute(site) }
        return SiteLocator.nearestConfig(from: Paths.absolute("."))?.folder ?? Paths.absolute("Site")
    }

    /// The config file when it is not `<site>/healthaudit.yml` (a `.healthaudit.yml`, or `--config`
    /// naming another file): the loaders read it in that file's place.
    var configFile: String? {
        if let config {
            let file = Paths.absolute(config)
            return (file as NSString).lastPathComponent == ConfigLoader.fileName ? nil : file
        }
        guard site == nil, let found = SiteLocator.nearestConfig(from: Paths.absolute(".")), found.name != ConfigLoader.fileName else { return nil }
        return found.folder + "/" + found.name
    }

    /// `options` reading `configFile` (live, so `serve` rebuilds on its edits) as the site's config.
    /// With no config there is nothing to build: said before anything is created, with the command that writes one.
    func reading(_ options: BuildOptions) throws -> BuildOptions {
        if let config, !FileManager.default.fileExists(atPath: Paths.absolute(config)) {
            Console.error("\(config): error: config file not found")
            throw ExitCode(ExitStatus.inputError)
        }
        if config == nil, configFile == nil, !FileManager.default.fileExists(atPath: siteDirectory + "/" + ConfigLoader.fileName) {
            Console.error(site == nil
                ? "error: no healthaudit.yml here or above (up to the repository root), nor Site/healthaudit.yml: run `healthaudit init` to write one for the apps here, or `healthaudit check` to audit them without one"
                : "\(site!): error: no healthaudit.yml in the site folder: run `healthaudit init \(site!)` to write one for the apps there")
            throw ExitCode(ExitStatus.inputError)
        }
        guard let file = configFile else { return options }
        var options = options
        options.fileSystem = OverlayFileSystem(options.fileSystem, aliases: [options.siteDirectory + "/" + ConfigLoader.fileName: file])
        return options
    }

    /// nil: the templates compiled into the tool, which work wherever the binary is copied.
    func templatesDirectory() -> String? {
        if let templates { return Paths.absolute(templates) }
        let beside = siteDirectory + "/templates"
        var info = stat()
        // lstat: a committed symlink there is found too, and refused by the build if it leaves the repository.
        return lstat(beside, &info) == 0 ? beside : nil
    }

    /// `options` with the templates folder: `--templates DIR` is the user's and trusted for
    /// templates; `<site>/templates` is part of the repository and read as its other files are.
    func withTemplates(_ options: BuildOptions) -> BuildOptions {
        var options = options
        options.templatesDirectory = templatesDirectory()
        options.templatesFoundInSite = templates == nil && options.templatesDirectory != nil
        return options
    }
}

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the static site (default: Site/ into Site/public/).",
        discussion: """
        --results DIR renders the site from the `check --format json` results in DIR (one per repository \
        or CI job) without reading any source; --history DIR keeps each run's results there, keyed by date \
        and commit, and the pages draw each app's and each rule's findings over time (new, fixed, unchanged). \
        SOURCE_DATE_EPOCH, when set, is the run's date: whole seconds since 1970, at most 253402300799 \
        (9999-12-31T23:59:59Z); any other value is refused (exit 2).
        """)

    @OptionGroup var siteOptions: SiteOptions

    @Option(help: "Output folder (default: <site>/public; with --results, ./public). Replaced only when the new site is complete.")
    var output: String?

    @Option(help: ArgumentHelp("Render the site from the `check --format json` results (*.json) in this folder; no source is read.", valueName: "dir"))
    var results: String?

    @Option(help: ArgumentHelp("Keep each run's results in this folder, keyed by date and commit, and show findings over time.", valueName: "dir"))
    var history: String?

    @Option(help: ArgumentHelp("The site's title with --results (default: the results' own title when they agree).", valueName: "text"))
    var title: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("Where the site is published, with --results (a site's is its healthaudit.yml's base_url); used by 404.html.", valueName: "url"))
    var baseURL: String?

    func validate() throws {
        if results != nil && (siteOptions.site != nil || siteOptions.config != nil) {
            throw ValidationError("--results builds the site from results alone: give --results or --site/--config, not both")
        }
        if title != nil && results == nil { throw ValidationError("--title is for --results (a site's title is in its healthaudit.yml)") }
        if baseURL != nil && results == nil { throw ValidationError("--base-url is for --results (a site's is base_url in its healthaudit.yml)") }
    }

    /// The folder the build's diagnostics are relative to: the site, or the results.
    private var inputDirectory: String { results.map(Paths.absolute) ?? siteOptions.siteDirectory }

    func run() throws {
        var options = BuildOptions(siteDirectory: inputDirectory,
                                   outputDirectory: output.map(Paths.absolute) ?? (results == nil ? nil : Paths.absolute("public")),
                                   // With --results there is no site folder whose templates/ to take.
                                   templatesDirectory: siteOptions.templates.map(Paths.absolute))
        if results == nil { options = try siteOptions.reading(siteOptions.withTemplates(options)) }
        options.resultsDirectory = results.map(Paths.absolute)
        options.historyDirectory = history.map(Paths.absolute)
        options.title = title
        options.baseURL = baseURL
        do {
            try Pipeline.build(for: options).run(options)
        } catch let failure as BuildFailed {
            Console.error(failure.lines(sitePrefix: Paths.relative(inputDirectory))
                          + ["build failed: \(Plural.count(failure.diagnostics.count, "problem")); \(failure.outcome)"])
            throw ExitCode(ExitStatus.inputError)
        } catch let failure as OutputFailure {
            Console.error(["\(failure)", "build failed: the site could not be written"])
            throw ExitCode(ExitStatus.outputError)
        } catch let failure as HistoryWriteFailure {
            Console.error(["\(failure)", "build failed: the history could not be written"])
            throw ExitCode(ExitStatus.outputError)
        } catch let failure as InternalFailure {
            Console.error(["\(failure)", "build failed; \(failure.outcome)"])
            throw ExitCode(ExitStatus.internalError)
        }
    }
}

enum Paths {
    static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (joined as NSString).standardizingPath
    }
}

/// Runs the command line. ArgumentParser exits 64 (EX_USAGE) on a usage error; the documented status is 2.
func runHealthAudit() async {
    // `healthaudit chek`: a mistyped subcommand would otherwise be taken as an argument of `build`.
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let first = arguments.first, !first.hasPrefix("-") {
        let names = HealthAudit.configuration.subcommands.compactMap { $0.configuration.commandName ?? String(describing: $0).lowercased() }
        if !names.contains(first), let suggestion = Suggestion.closest(to: first, in: names) {
            Console.error("error: unknown command '\(first)'. Did you mean '\(suggestion)'?")
            exit(ExitStatus.inputError)
        }
    }
    do {
        var command = try HealthAudit.parseAsRoot(arguments.isEmpty ? HealthAudit.defaultArguments(in: Paths.absolute(".")) : arguments)
        // Before any command runs: a date out of range would trap in the calendar or name history
        // records no build reads back.
        do { _ = try SourceDateEpoch.date() } catch {
            Console.error(error.description)
            exit(ExitStatus.inputError)
        }
        if var asyncCommand = command as? AsyncParsableCommand { try await asyncCommand.run() } else { try command.run() }
    } catch {
        if HealthAudit.exitCode(for: error) == .validationFailure {
            // ArgumentParser's message and usage: its own lines.
            Console.error(HealthAudit.fullMessage(for: error).components(separatedBy: "\n"))
            exit(ExitStatus.inputError)
        }
        HealthAudit.exit(withError: error)
    }
}

/// glibc grows each thread's heap a few pages at a time, one `mprotect` each, and every call
/// stalls the other threads' page faults: a sixth of `check`'s time on two cores went there.
/// Growing in large steps, and keeping freed memory instead of returning it, removes that.
func tuneAllocator() {
    #if canImport(Glibc)
    // mallopt is in <malloc.h>, which Swift's Glibc module leaves out; the values are glibc's.
    typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
    let trimThreshold: Int32 = -1, topPad: Int32 = -2, mmapThreshold: Int32 = -3
    _ = mallopt(topPad, 64 << 20)
    _ = mallopt(mmapThreshold, 32 << 20)
    _ = mallopt(trimThreshold, 256 << 20)
    #endif
}

// A parse worker (`ParseIsolation`) is this binary started with one hidden argument.
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == ParseIsolation.workerArgument { ParseIsolation.runWorker() }
tuneAllocator()
ParseIsolation.shared = ParseIsolation.ownBinary()
atexit { ParseIsolation.shared?.endWorkers() }
await runHealthAudit()
