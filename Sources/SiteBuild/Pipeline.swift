import Checklist
import Foundation
import Manifest
import Report
import Summary

/// What a build needs to know: where things are, and the seams tests replace.
public struct BuildOptions: Sendable {
    public var siteDirectory: String
    public var outputDirectory: String
    /// A folder overriding the built-in templates file by file; nil for the built-in ones alone.
    public var templatesDirectory: String?
    /// The templates folder is the site's own `templates/`, found rather than given: a file of the
    /// repository like any other, so it must lie inside it (a committed symlink to `/` must not make
    /// every file of the machine a template, nor an Info.plist). A folder given with `--templates`
    /// (false) is trusted, for templates alone.
    public var templatesFoundInSite = false
    /// The repository holding the site (its git top level, else the site folder): every input read
    /// must stay inside it, symlinks resolved.
    public var projectRoot: String { ProjectRoot.containing(siteDirectory) }
    /// Confined to the project unless a test or command sets its own.
    public var fileSystem: FileSystem {
        get { customFileSystem ?? LocalFileSystem(confinedTo: [projectRoot]) }
        set { customFileSystem = newValue }
    }
    private var customFileSystem: FileSystem?
    /// What the templates are read through: a given folder confines template reads to itself and
    /// widens no other read; the site's own folder is read as the rest of the site is.
    public var templateFileSystem: FileSystem {
        guard let templatesDirectory, !templatesFoundInSite else { return fileSystem }
        return LocalFileSystem(confinedTo: [templatesDirectory])
    }
    public var clock: BuildClock
    public var log: BuildLog
    /// Identifies the tool binary (version, size, modification time): a rebuilt tool invalidates the cache.
    public var toolFingerprint: String = ToolFingerprint.current()
    /// Bytes one site may have; more is an input error before anything is written.
    public var outputByteBudget = InputLimits.maxOutputBytes
    /// `build --results DIR`: the site is rendered from these `check --format json` results, and
    /// no source is read (`siteDirectory` is then this folder).
    public var resultsDirectory: String?
    /// `--history DIR`: each run's results are kept there and the pages draw findings over time.
    public var historyDirectory: String?
    /// The site's title for a build from results (default: the results' own, when they agree).
    public var title: String?
    /// Where a site built from results is published (`--base-url`).
    public var baseURL: String?
    /// The config was written by discovery (`check` with no config): each app's problems cite its
    /// own files, and an app that cannot be loaded is kept as such while the others are audited.
    public var discoveredApps = false
    /// The run's Swift parse budget, shared with the discovery that found the apps (Tuist manifests):
    /// one run, one allowance.
    public var parseBudget = ParseBudget()
    /// Per-file facts of earlier checks (`check`'s `--cache-path`); nil: none kept or read.
    public var swiftFileCache: SwiftFileCache?

    public init(siteDirectory: String, outputDirectory: String? = nil, templatesDirectory: String? = nil,
                fileSystem: FileSystem? = nil, clock: BuildClock = SystemClock(), log: BuildLog = StandardErrorLog()) {
        self.siteDirectory = siteDirectory
        self.outputDirectory = outputDirectory ?? siteDirectory + "/public"
        self.templatesDirectory = templatesDirectory
        customFileSystem = fileSystem
        self.clock = clock
        self.log = log
    }
}

/// The state the steps pass along, filled in as the build goes.
public struct BuildState: Sendable {
    public var config: ProjectConfig?
    public var manifests: [AppManifest] = []
    public var contentPages: [ContentPage] = []
    public var templates: TemplateSet?
    public var audits: [AppAudit] = []
    public var summaries: [String: AppSummary] = [:]
    /// What the apps' reports are made from (their inputs' digest; `--history` builds have none):
    /// it keys the pages showing apps, and the reports kept for the next build.
    public var appsDigest: String?
    /// The reports read back from the last build (`AppsCache`): no audit, no simulation this time.
    public var keptApps: [AppReport]?
    /// The reports the pages were rendered from.
    var renderedApps: [AppReport] = []
    /// Links from locations to the forge, when the config gives `source_url`.
    public var sourceLinks: SourceLinks?
    /// Every page of the new site, in plan order: rendered straight into `staging`.
    public var pagePaths: [String] = []
    /// The new site being written, from `render` until `write` swaps it in (or the build fails
    /// and it is removed).
    var staging: SiteWriter.Staging?
    /// `write` swapped the new site in: a later failure must not say the previous site is untouched.
    public var siteReplaced = false
    /// Digest of every input (config, manifests, sources, content, templates, tool).
    public var inputDigest: String = ""
    /// Nothing changed since the last build and its output is whole: the remaining steps have nothing to do.
    public var upToDate = false
    /// The last build's cache, when this tool wrote it: its pages, reports and traces may be reused.
    var previous: BuildCache?
    /// What `load` asked of the file system (sources and content, then templates), for the next build.
    var traces: [FileTrace]?
    /// The pages linked from the previous site instead of rendered, in plan order.
    public var reusedPaths: [String] = []
    public var reusedFiles: Int { reusedPaths.count }
    public var cacheKeys: [String: String] = [:]
    /// Held from the `output` step to the end of the run.
    public var outputLock: OutputLock?
    public var outputFound: OutputClaim.Found = .missing
    /// `build --results`: what the results hold.
    public var results: ResultSet?
    /// `--history`: the records read before this run, and what this run adds.
    var historyListing = HistoryStore.Listing()
    public var historyPlan: HistoryStore.Plan?

    /// The commit the pages were audited at: the site's repository's, or the one all results share.
    func auditedCommit(_ options: BuildOptions) -> String? {
        if let results {
            let commits = Set(results.runs.compactMap(\.record.commit))
            return commits.count == 1 ? commits.first : nil
        }
        return GitHead.commit(in: SourceLinks.place(of: options.siteDirectory).repository)
    }

    /// What the pages show: the apps of the results, or the audits and simulations of this build.
    func siteInput(baseURL: String? = nil) -> SiteInput? {
        if let results {
            var input = SiteInput(title: results.title, apps: results.apps, history: historyPlan?.history)
            input.baseURL = baseURL ?? ""
            input.appsDigest = appsDigest
            return input
        }
        guard let config else { return nil }
        let apps = keptApps ?? audits.map { AppReport(audit: $0, summary: summaries[$0.manifest.id], sourceLinks: sourceLinks) }
        var input = SiteInput(title: config.title, apps: apps, contentPages: contentPages, history: historyPlan?.history)
        input.baseURL = config.baseURL
        input.appsDigest = appsDigest
        return input
    }
}

/// One named step of the build (as in Publish's pipelines): it reads and extends the state and
/// throws `InputError`s, which the pipeline tags with the step's name.
public struct BuildStep: Sendable {
    public var name: String
    public var run: @Sendable (inout BuildState, BuildOptions) throws -> String

    public init(_ name: String, run: @escaping @Sendable (inout BuildState, BuildOptions) throws -> String) {
        self.name = name
        self.run = run
    }
}

public struct Pipeline: Sendable {
    public var steps: [BuildStep]

    public init(steps: [BuildStep]) { self.steps = steps }

    /// output → load → check → simulate → render → write.
    public static let site = Pipeline(steps: [.claimOutput, .load, .check, .simulate, .render, .write])
    /// With `--history`: this run's results join the history, and the pages draw the trend.
    public static let siteWithHistory = Pipeline(steps: [.claimOutput, .load, .check, .simulate, .history, .render, .write, .record])
    /// `build --results`: output → load (results, templates) → render → write, no source read.
    public static let results = Pipeline(steps: [.claimOutput, .loadResults, .render, .write])
    public static let resultsWithHistory = Pipeline(steps: [.claimOutput, .loadResults, .history, .render, .write, .record])

    /// The pipeline the options ask for.
    public static func build(for options: BuildOptions) -> Pipeline {
        switch (options.resultsDirectory != nil, options.historyDirectory != nil) {
        case (false, false): .site
        case (false, true): .siteWithHistory
        case (true, false): .results
        case (true, true): .resultsWithHistory
        }
    }
    /// The audit alone, for `healthaudit check`.
    public static let audit = Pipeline(steps: [.loadInputs, .check])
    /// The audit and each app's simulation, for `check --format json`.
    public static let auditAndSimulate = Pipeline(steps: [.loadInputs, .check, .simulate])

    /// Runs every step on a thread with a large stack (see `LargeStack`): hostile nesting in an
    /// app's files must not overflow the small stack of a Dispatch worker, where `serve` builds.
    @discardableResult
    public func run(_ options: BuildOptions) throws -> BuildState {
        let pipeline = self
        let outcome: Result<BuildState, Error> = LargeStack.run { Result { try pipeline.runSteps(options) } }
        return try outcome.get()
    }

    private func runSteps(_ options: BuildOptions) throws -> BuildState {
        var state = BuildState()
        defer {
            // A failed build leaves no half-written site behind, then lets the next build in.
            state.staging?.discard()
            state.outputLock?.release()
        }
        for (index, step) in steps.enumerated() {
            do {
                let started = DispatchTime.now().uptimeNanoseconds
                let summary = try step.run(&state, options)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                options.log.step(index + 1, of: steps.count, "\(step.name): \(summary) (\(String(format: "%.2f", seconds)) s)")
            } catch let error as InputError {
                var failure = BuildFailed(diagnostics: error.problems.map { BuildDiagnostic(step: step.name, problem: $0) }, siteReplaced: state.siteReplaced)
                failure.hadPreviousSite = state.outputFound.isSite
                throw failure
            } catch var error as BuildFailed {
                error.siteReplaced = state.siteReplaced
                error.hadPreviousSite = state.outputFound.isSite
                throw error
            } catch var error as OutputFailure {
                error.hadPreviousSite = state.outputFound.isSite
                throw error
            } catch let error as HistoryWriteFailure {
                throw error
            } catch var error as InternalFailure {
                error.siteReplaced = state.siteReplaced
                error.hadPreviousSite = state.outputFound.isSite
                throw error
            } catch {
                var failure = InternalFailure(step: step.name, reason: "\(error)")
                failure.siteReplaced = state.siteReplaced
                failure.hadPreviousSite = state.outputFound.isSite
                throw failure
            }
        }
        return state
    }
}
