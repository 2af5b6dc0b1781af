import Foundation
import Manifest
import Report

extension BuildStep {
    /// `build --results`: the templates, every result of the folder and the history; no source.
    /// Problems of every file are reported together, and nothing is written.
    public static let loadResults = BuildStep("load") { state, options in
        guard let directory = options.resultsDirectory else { throw InternalFailure(step: "load", reason: "no results folder") }
        let recorder = RecordingFileSystem(options.templateFileSystem)
        var errors: [InputProblem] = []
        state.templates = try collecting(&errors) { try loadTemplates(options, through: recorder) }
        state.results = try collecting(&errors) { try ResultFolder.load(directory, title: options.title, keepingHistory: options.historyDirectory != nil) }
        let history = try collecting(&errors) { try readHistory(&state, options) } ?? []
        if !errors.isEmpty { throw InputError(errors) }
        let results = state.results!
        state.inputDigest = InputDigest.compute(record: recorder.record + results.record + history + ["title " + results.title, "base " + (options.baseURL ?? "")],
                                                options: options, summaryRange: nil)
        // The pages showing apps are reused while the results are the same (with --history they also show this run).
        if options.historyDirectory == nil { state.appsDigest = InputDigest.compute(record: ["apps"] + results.record, options: options, summaryRange: nil) }
        let summary = "\(Plural.count(results.apps.count, "app")) from \(Plural.count(results.resultCount, "result")) in \(directory), templates from \(options.templatesDirectory ?? "the tool (built-in)")"
        state.previous = BuildCache.load(for: options.outputDirectory).flatMap { $0.tool == options.toolFingerprint ? $0 : nil }
        if let cache = state.previous, cache.inputDigest == state.inputDigest, cache.outputIsWhole(options.outputDirectory) {
            state.upToDate = true
            return summary + "; inputs unchanged since the last build"
        }
        return summary
    }

    /// The history's records (read in `load`: they are inputs of the build's cache key), as
    /// cache-key lines; the commit joins them for a build from sources, since it keys the record.
    static func readHistory(_ state: inout BuildState, _ options: BuildOptions) throws -> [String] {
        guard let directory = options.historyDirectory else { return [] }
        state.historyListing = try HistoryStore(directory: directory).load()
        let commit = options.resultsDirectory == nil ? ["commit " + (GitHead.commit(in: options.projectRoot) ?? "none")] : []
        return commit + state.historyListing.entries.map { "history \($0.path) \($0.digest)" }
    }

    /// This run's results beside the recorded ones: the trend the pages draw, and the records to add.
    public static let history = BuildStep("history") { state, options in
        guard let directory = options.historyDirectory, !state.upToDate else { return "skipped (up to date)" }
        let store = HistoryStore(directory: directory)
        let runs = try state.results?.runs ?? [sourceRun(state, options)]
        let stamp = HistoryStore.stamp(options.clock.now())
        let plan: HistoryStore.Plan
        let shown = Set(state.results?.apps.map(\.id) ?? state.audits.map(\.manifest.id))
        do { plan = try store.plan(runs, listing: state.historyListing, stamp: stamp, showing: shown) } catch let error as InputError {
            throw error
        } catch let error as OutputFailure {
            throw error
        } catch {
            throw InternalFailure(step: "history", reason: "this run's results do not read back: \(error)")
        }
        state.historyPlan = plan
        let runCount = plan.history.site.count
        return "\(Plural.count(runCount, "run")) recorded in \(directory); this run (\(FindingHistory.date(stamp))) adds \(Plural.count(plan.writes.count, "record"))"
            + (plan.unchanged > 0 ? ", \(plan.unchanged) unchanged since the last" : "")
    }

    /// The audits of a build from sources as the JSON `check` writes (their fingerprints are what runs are matched by).
    private static func sourceRun(_ state: BuildState, _ options: BuildOptions) throws -> HistoryStore.Run {
        let source = ResultSource(siteDirectory: options.siteDirectory, urlTemplate: state.config?.sourceURL)
        var context = OutputContext(sitePrefix: source.sitePath, siteDirectory: options.siteDirectory)
        context.title = state.config?.title ?? ProjectConfig.defaultTitle
        context.source = source
        do {
            return HistoryStore.Run(origin: "site", record: try ResultReader.historyRecord(JSONReport.document(state.audits, context: context), stamp: ""))
        } catch {
            throw InternalFailure(step: "history", reason: "this run's results do not read back: \(error)")
        }
    }

    /// After the site is in place: the new records join the history (never before, so a failed
    /// build records nothing). `history` checked everything the writes need, so only the disk can
    /// fail here, and the message says the new site is in place.
    public static let record = BuildStep("record") { state, options in
        guard let directory = options.historyDirectory, let plan = state.historyPlan, !state.upToDate else { return "skipped (up to date)" }
        do {
            let written = try HistoryStore(directory: directory).write(plan)
            return "\(Plural.count(written, "record")) written to \(directory)"
        } catch {
            // The site is whole but its history is not: the next build must not take itself for up to date.
            unlink(options.outputDirectory + "/" + BuildCache.fileName)
            if let failure = error as? OutputFailure { throw HistoryWriteFailure(path: failure.path, operation: failure.operation, reason: failure.reason) }
            throw HistoryWriteFailure(path: directory, operation: "write a history record", reason: "\(error)")
        }
    }
}
