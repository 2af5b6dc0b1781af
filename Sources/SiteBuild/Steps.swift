import Checklist
import Foundation
import Manifest
import Report
import Summary

extension BuildStep {
    /// Config, every app's manifests and the content pages; problems from all apps are collected.
    public static let loadInputs = BuildStep("load") { state, options in
        let (config, errors) = try loadConfigAndApps(&state, options)
        var all = errors
        do {
            state.contentPages = try ContentLoader(fileSystem: options.fileSystem)
                .load(directory: config.contentDirectory, displayPrefix: Self.display(config.contentDirectory, site: options.siteDirectory))
        } catch let error as InputError { all += error.problems }
        if !all.isEmpty { throw InputError(all) }
        return "\(Plural.count(config.apps.count, "app")), \(Plural.count(state.contentPages.count, "content page")) from \(options.siteDirectory)"
    }

    /// The config and every app's manifests (cheap next to thousands of content pages). A config
    /// problem does not hide the problems of the apps that were read well.
    static func loadConfigAndApps(_ state: inout BuildState, _ options: BuildOptions) throws -> (ProjectConfig, [InputProblem]) {
        let loaded = try ConfigLoader(fileSystem: options.fileSystem).loadCollecting(siteDirectory: options.siteDirectory)
        var config = loaded.0
        let configErrors = loaded.1
        let loader = ManifestLoader(siteDirectory: options.siteDirectory, fileSystem: options.fileSystem, parseBudget: options.parseBudget)
        var errors = configErrors + RuleSettings.problems(in: config.rules)
        for index in config.apps.indices {
            if options.discoveredApps {
                config.apps[index].citeDiscoveredFiles()
                state.manifests.append(loader.loadIsolating(config.apps[index]))
            } else {
                do { state.manifests.append(try loader.load(config.apps[index])) } catch let error as InputError { errors += error.problems }
            }
            errors += ScenarioSelection.problems(in: config.apps[index])
        }
        state.config = config
        return (config, errors)
    }

    /// `loadInputs` plus the templates, which only the site needs. Everything is read through a
    /// recording file system, whose record becomes the cache key.
    public static let load = BuildStep("load") { state, options in
        let started = FileTrace.now()
        // Pages, reports and traces are taken only from a site this very tool built.
        state.previous = BuildCache.load(for: options.outputDirectory).flatMap { $0.tool == options.toolFingerprint ? $0 : nil }
        // Unchanged since the last build and the output still whole: skip every later step.
        if let previous = state.previous, let apps = UpToDateCheck.appCount(previous, &state, options) {
            state.upToDate = true
            return "\(Plural.count(apps, "app")) from \(options.siteDirectory); inputs unchanged since the last build"
        }
        let recorder = RecordingFileSystem(options.fileSystem)
        var recording = options
        recording.fileSystem = recorder
        var errors: [InputProblem] = []
        let templateRecorder = RecordingFileSystem(options.templateFileSystem)
        state.templates = try collecting(&errors) { try loadTemplates(options, through: templateRecorder) }
        // A broken config still reports the template problems of the same run.
        guard let (config, appErrors) = try collecting(&errors, { try loadConfigAndApps(&state, recording) }) else {
            throw InputError(errors)
        }
        errors += appErrors
        // What the audits read, before the content joins the record: an edited page leaves it as it was.
        let auditRecord = recorder.record
        // Content pages are read through the recorder too (parsing their front matter is cheap),
        // so the record is everything this build read, each file once.
        do {
            state.contentPages = try ContentLoader(fileSystem: recorder)
                .load(directory: config.contentDirectory, displayPrefix: Self.display(config.contentDirectory, site: options.siteDirectory))
        } catch let error as InputError { errors += error.problems }
        state.sourceLinks = config.sourceURL.map { SourceLinks(template: $0, siteDirectory: options.siteDirectory) }
        guard let (environment, range) = try collecting(&errors, { try Self.environment(config, &state, options) }) else { throw InputError(errors) }
        state.inputDigest = InputDigest.compute(record: recorder.record + templateRecorder.record + environment, options: options, summaryRange: range)
        state.traces = [FileTrace(started: started, questions: recorder.trace), FileTrace(started: started, questions: templateRecorder.trace)]
        // With --history the pages also show the run being recorded: never reused, always audited.
        if options.historyDirectory == nil {
            state.appsDigest = InputDigest.compute(record: ["apps"] + auditRecord + environment, options: options, summaryRange: range)
        }
        if !errors.isEmpty { throw InputError(errors) }
        // The same inputs after all (a trace that could not be asked again, a file touched but not changed).
        if let previous = state.previous, previous.inputDigest == state.inputDigest, previous.outputIsWhole(options.outputDirectory) {
            state.upToDate = true
            return "\(Plural.count(config.apps.count, "app")) from \(options.siteDirectory); inputs unchanged since the last build"
        }
        return "\(Plural.count(config.apps.count, "app")), \(Plural.count(state.contentPages.count, "content page")) from \(options.siteDirectory), templates from \(options.templatesDirectory ?? "the tool (built-in)")"
    }

    /// What the pages depend on besides the files read: the source links (a new commit changes
    /// every one, though no input file changed), with --history the history and the commit (the
    /// record's key), and the summaries' days.
    static func environment(_ config: ProjectConfig, _ state: inout BuildState, _ options: BuildOptions) throws -> ([String], DayRange?) {
        let links = config.sourceURL.map { SourceLinks(template: $0, siteDirectory: options.siteDirectory) }.map { ["source " + $0.template + " " + $0.commit] } ?? []
        let history = try readHistory(&state, options)
        return (links + history, config.apps.isEmpty ? nil : options.summaryRange(for: config))
    }

    public static let check = BuildStep("check") { state, options in
        if state.upToDate { return "skipped (up to date)" }
        if let digest = state.appsDigest, let previous = state.previous, !state.manifests.isEmpty,
           let kept = AppsCache.load(output: options.outputDirectory, cache: previous, digest: digest, appIDs: state.manifests.map(\.id)) {
            state.keptApps = kept
            return "\(Plural.count(kept.count, "app")) unchanged since the last build: reports read back, not audited again"
        }
        let checklist = Checklist()
        state.audits = checklist.audit(state.manifests, cache: options.swiftFileCache)
        let findings = state.audits.flatMap(\.activeFindings).count
        return "\(Plural.count(state.audits.count, "app")) audited, \(Plural.count(findings, "finding"))"
    }

    /// Simulated Health data for the summary range, seen through each app's permissions.
    public static let simulate = BuildStep("simulate") { state, options in
        guard let config = state.config, !state.upToDate else { return "skipped (up to date)" }
        guard state.keptApps == nil else { return "skipped (reports read back)" }
        // No app, no summaries: don't generate a week of samples nobody reads (a content-only site).
        guard !state.audits.isEmpty else { return "no apps to simulate" }
        let range = options.summaryRange(for: config)
        let builder = SummaryBuilder(config: config, range: range)
        var errors: [InputProblem] = []
        for audit in state.audits {
            do { state.summaries[audit.manifest.id] = try builder.summarize(audit) } catch let error as InputError { errors += error.problems }
        }
        if !errors.isEmpty { throw InputError(errors) }
        return "\(Plural.count(range.days.count, "day")) × \(Plural.count(state.summaries.count, "app")) from \(builder.data.sampleCount) simulated samples"
    }

    /// Renders in parallel straight into the new site's staging folder, counting bytes as pages
    /// are rendered: a site over the budget stops there, and is removed (the previous site stays).
    /// A content page whose inputs are unchanged is reused from the last site.
    public static let render = BuildStep("render") { state, options in
        guard var input = state.siteInput(baseURL: options.baseURL), let templates = state.templates, !state.upToDate else { return "skipped (up to date)" }
        input.footer = SiteFooter(commit: state.auditedCommit(options), date: options.clock.now())
        // With --history, the date of the last recorded run: the same results again record no run and change no byte.
        if let stamp = state.historyPlan?.history.site.last?.stamp, let day = SiteFooter.day(stamp: stamp) { input.footer.date = day }
        let plan = SiteRenderer(templates: templates).plan(input)
        let previous = state.previous
        let staging = try SiteWriter(output: options.outputDirectory).begin()
        state.staging = staging
        let rendered = try ParallelRender.write(plan, previous: previous, into: staging, budget: options.outputByteBudget)
        if let over = rendered.overBudget {
            // Bounded before the site replaces anything: a config or a result cannot make the tool fill the disk.
            throw InputError("the site would be more than \(ByteCount.text(over)), over the limit of \(ByteCount.text(options.outputByteBudget)); audit fewer apps or days",
                             file: options.resultsDirectory == nil ? ConfigLoader.fileName : ".")
        }
        state.pagePaths = plan.map(\.path)
        state.renderedApps = input.apps
        state.reusedPaths = rendered.reused
        state.cacheKeys = Dictionary(plan.compactMap { pending in pending.key.map { (pending.path, $0) } }, uniquingKeysWith: { first, _ in first })
        return "\(Plural.count(plan.count - rendered.reused.count, "file")) rendered, \(rendered.reused.count) unchanged"
    }

    /// Checks the output is the tool's to replace and takes the output lock, before any other work.
    public static let claimOutput = BuildStep("output") { state, options in
        let claim = OutputClaim(output: options.outputDirectory, siteDirectory: options.siteDirectory,
                                templatesDirectory: options.templatesDirectory, projectRoot: options.projectRoot)
        _ = try claim.check()
        if let history = options.historyDirectory { try claim.checkApart(fromHistory: history) }
        state.outputLock = try OutputLock(folder: (options.outputDirectory as NSString).deletingLastPathComponent, onWait: options.log.note)
        // Before anything else: a build killed between its two renames left the site aside.
        let restored = try SiteWriter(output: options.outputDirectory).restoreInterrupted()
        // Checked again under the lock: another build may have just written the folder.
        state.outputFound = try claim.check()
        return "\(options.outputDirectory) is \(state.outputFound.description)" + (restored.map { " (put back from \($0), left by an interrupted build)" } ?? "")
    }

    /// The ownership marker and the cache join the rendered pages in the staging folder, and the
    /// whole is swapped in at once.
    public static let write = BuildStep("write") { state, options in
        if state.upToDate { return "skipped (up to date): \(options.outputDirectory)" }
        guard let staging = state.staging else { throw InternalFailure(step: "write", reason: "no rendered site to write") }
        let marker = OutputFile(path: OutputClaim.markerName, data: Data(OutputClaim.markerText.utf8))
        var cache = BuildCache(inputDigest: state.inputDigest, tool: options.toolFingerprint, keys: state.cacheKeys, files: (state.pagePaths + [marker.path]).sorted())
        cache.traces = state.traces
        try staging.write(marker)
        // The reports, for a next build whose audit inputs are unchanged (a results build has no audit to spare).
        if let digest = state.appsDigest, state.results == nil, let config = state.config {
            let kept = AppsCache.file(state.renderedApps, title: config.title, options: options, sourceURL: config.sourceURL)
            try staging.write(kept)
            cache.appsDigest = digest
            cache.appsFile = StableDigest.hex(kept.data)
            cache.files = (cache.files + [kept.path]).sorted()
        }
        try staging.write(cache.outputFile())
        try staging.commit()
        state.staging = nil
        state.siteReplaced = true
        if case .legacySite(let cacheFile) = state.outputFound { try? FileManager.default.removeItem(atPath: cacheFile) }
        return "\(Plural.count(state.pagePaths.count, "file")) written to \(options.outputDirectory)"
    }

    /// The templates: the built-in set, overridden by the templates folder's files. The site's
    /// own folder must itself resolve inside the repository.
    static func loadTemplates(_ options: BuildOptions, through fileSystem: FileSystem) throws -> TemplateSet {
        if options.templatesFoundInSite, let folder = options.templatesDirectory,
           let real = RealPath.of(folder), !RealPath.isInside(real, RealPath.of(options.projectRoot) ?? options.projectRoot) {
            throw InputError("the site's templates folder leads outside the repository (through a symbolic link); not read — give a folder you trust with --templates",
                             file: "templates")
        }
        return try TemplateSet(directory: options.templatesDirectory, fileSystem: fileSystem)
    }

    /// Runs `body`, moving its input errors into `errors` (nil then) so one run reports them all.
    static func collecting<T>(_ errors: inout [InputProblem], _ body: () throws -> T) throws -> T? {
        do { return try body() } catch let error as InputError {
            errors += error.problems
        }
        return nil
    }

    /// Site-relative, like every other input's location: the command line adds the site folder
    /// once (it used to be added twice: `Site/Site/content/…`).
    static func display(_ path: String, site: String) -> String {
        path.hasPrefix(site + "/") ? String(path.dropFirst(site.count + 1)) : path
    }
}
