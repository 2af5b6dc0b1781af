import Checklist
import Foundation
import Manifest
import Report
import Summary

extension BuildStep {
    /// Config, every app's manifests and the content pages; problems from all apps are collected.
    public static let loadInputs = BuildStep("load") { state, options in
        let config = try ConfigLoader(fileSystem: options.fileSystem).load(siteDirectory: options.siteDirectory)
        let loader = ManifestLoader(siteDirectory: options.siteDirectory, fileSystem: options.fileSystem)
        var errors: [InputError] = []
        for app in config.apps {
            do { state.manifests.append(try loader.load(app)) } catch let error as InputErrors { errors += error.errors }
        }
        do {
            state.contentPages = try ContentLoader(fileSystem: options.fileSystem)
                .load(directory: config.contentDirectory, displayPrefix: Self.display(config.contentDirectory, site: options.siteDirectory))
        } catch let error as InputErrors { errors += error.errors }
        if !errors.isEmpty { throw InputErrors(errors) }
        state.config = config
        return "\(config.apps.count) app(s), \(state.contentPages.count) content page(s) from \(options.siteDirectory)"
    }

    /// `loadInputs` plus the templates, which only the site needs.
    public static let load = BuildStep("load") { state, options in
        var templateErrors: [InputError] = []
        do { state.templates = try TemplateSet(directory: options.templatesDirectory, fileSystem: options.fileSystem) } catch let error as InputErrors {
            templateErrors = error.errors
        }
        let summary: String
        do { summary = try loadInputs.run(&state, options) } catch let error as InputErrors {
            throw InputErrors(error.errors + templateErrors)
        }
        if !templateErrors.isEmpty { throw InputErrors(templateErrors) }
        state.inputDigest = InputDigest.compute(state, options)
        if let cache = BuildCache.load(for: options.outputDirectory), cache.inputDigest == state.inputDigest,
           cache.outputIsWhole(options.outputDirectory) {
            state.upToDate = true
            return summary + "; inputs unchanged since the last build"
        }
        return summary + ", templates from \(options.templatesDirectory)"
    }

    public static let check = BuildStep("check") { state, _ in
        if state.upToDate { return "skipped (up to date)" }
        let checklist = Checklist()
        state.audits = state.manifests.map(checklist.audit)
        let findings = state.audits.flatMap(\.activeFindings).count
        return "\(state.audits.count) app(s) audited, \(findings) finding(s)"
    }

    /// Simulated Health data for the summary range, seen through each app's permissions.
    public static let simulate = BuildStep("simulate") { state, options in
        guard let config = state.config, !state.upToDate else { return "skipped (up to date)" }
        let zone = TimeZone(identifier: config.timeZone) ?? TimeZone(identifier: "UTC")!
        let range = config.summaries ?? DayRange.week(endingOn: options.clock.today(in: zone))
        let builder = SummaryBuilder(config: config, range: range)
        var errors: [InputError] = []
        for audit in state.audits {
            do { state.summaries[audit.manifest.id] = try builder.summarize(audit) } catch let error as InputErrors { errors += error.errors }
        }
        if !errors.isEmpty { throw InputErrors(errors) }
        return "\(range.days.count) day(s) × \(state.summaries.count) app(s) from \(builder.data.sampleCount) simulated samples"
    }

    /// Renders in parallel; a content page whose inputs are unchanged is reused from the last site.
    public static let render = BuildStep("render") { state, options in
        guard let config = state.config, let templates = state.templates, !state.upToDate else { return "skipped (up to date)" }
        let input = SiteInput(config: config, audits: state.audits, summaries: state.summaries, contentPages: state.contentPages)
        let plan = SiteRenderer(templates: templates).plan(input)
        let previous = BuildCache.load(for: options.outputDirectory)
        (state.files, state.reusedFiles) = ParallelRender.files(plan, previous: previous, output: options.outputDirectory)
        state.cacheKeys = Dictionary(uniqueKeysWithValues: plan.compactMap { pending in pending.key.map { (pending.path, $0) } })
        return "\(state.files.count - state.reusedFiles) file(s) rendered, \(state.reusedFiles) unchanged"
    }

    public static let write = BuildStep("write") { state, options in
        if state.upToDate { return "skipped (up to date): \(options.outputDirectory)" }
        // The cache goes first: a build interrupted after the swap must not trust a stale one.
        BuildCache.remove(for: options.outputDirectory)
        try SiteWriter(output: options.outputDirectory).write(state.files)
        try BuildCache(inputDigest: state.inputDigest, keys: state.cacheKeys, files: state.files.map(\.path).sorted())
            .save(for: options.outputDirectory)
        return "\(state.files.count) file(s) written to \(options.outputDirectory)"
    }

    static func display(_ path: String, site: String) -> String {
        let name = (site as NSString).lastPathComponent
        return path.hasPrefix(site + "/") ? name + "/" + path.dropFirst(site.count + 1) : path
    }
}
