import Foundation

/// Reads every file an app's config entry names into an `AppManifest`. Problems with one file are
/// collected and reported together; an app with an unreadable file is not audited half-way.
public struct ManifestLoader {
    let fileSystem: FileSystem
    let siteDirectory: String
    /// How far `extra_sources` may climb: the repository holding the site (`SiteBoundary`).
    let boundary: String
    /// The run's parse time: every app this loader reads shares it (Tuist manifests, then sources).
    let parseBudget: ParseBudget

    public init(siteDirectory: String, fileSystem: FileSystem = LocalFileSystem(), parseBudget: ParseBudget = ParseBudget()) {
        self.siteDirectory = siteDirectory
        self.fileSystem = fileSystem
        self.parseBudget = parseBudget
        boundary = SiteBoundary.of(siteDirectory)
    }

    /// Loads the app, or keeps it as not loaded with its problems: one app's broken project must
    /// not stop the audit of the others (see `AppManifest.loadProblems`).
    public func loadIsolating(_ app: AppConfig) -> AppManifest {
        let problems: [InputProblem]
        do { return try load(app) } catch let error as InputError {
            problems = error.problems
        } catch {
            problems = [InputProblem("\(error)", at: app.location)]
        }
        var manifest = AppManifest.unloaded(app, problems: problems)
        manifest.loadProblemQuotes = problems.map(quote)
        return manifest
    }

    /// The line a problem cites, as written, for its evidence; "" when there is none to read.
    private func quote(_ problem: InputProblem) -> String {
        guard let line = problem.location.line, line >= 1,
              let path = try? ContainedPath.resolve(problem.location.file, in: siteDirectory, within: boundary),
              !fileSystem.isDirectory(path), let data = try? fileSystem.contents(of: path) else { return "" }
        let lines = TextLines.split(String(decoding: data, as: UTF8.self))
        return line <= lines.count ? lines[line - 1].trimmingCharacters(in: .whitespaces) : ""
    }

    public func load(_ app: AppConfig) throws -> AppManifest {
        // `project:` and `kind: react-native` entries are completed from the project's own files first.
        let discovered = try ProjectDiscovery(fileSystem: fileSystem, parseBudget: parseBudget).discover(app)
        let app = discovered.config
        var errors: [InputProblem] = []
        func attempt<T>(_ body: () throws -> T) -> T? {
            do { return try body() } catch let error as InputError { errors += error.problems } catch { errors.append(InputProblem("\(error)", at: app.location)) }
            return nil
        }
        var inputs: [String] = []
        // Paths discovery found in a project manifest (not written in the config) may sit above the
        // manifest's folder, as Tuist and XcodeGen resolve them (`../Watch/Sources/**` in a workspace):
        // still inside the repository. What the config writes keeps its documented rule.
        let found = { (key: String) in app.isDiscovered || !app.explicitKeys.contains(key) }
        func plist(_ relative: String?, key: String) -> PropertyListDocument? {
            guard let relative else { return nil }
            return attempt { () throws -> PropertyListDocument in
                let (path, display) = try resolve(relative, app: app, climbing: found(key))
                inputs.append(display)
                return try PropertyListDocument.parse(try read(path, display: display), path: display)
            }
        }
        // The per-folder limit alone let five roots read 100,000 files: the app has one budget.
        var sourceBudget = InputLimits.maxFilesPerApp
        func sources(_ roots: [String], climbing: Bool = false, dependency: (String) -> Bool = { _ in false }) -> [SourceFile] {
            roots.flatMap { root in
                attempt { () throws -> [SourceFile] in
                    let (path, display) = try resolve(root, app: app, climbing: climbing)
                    if root.hasSuffix(".swift"), fileSystem.fileExists(path), !fileSystem.isDirectory(path) {
                        inputs.append(display)
                        return [SourceFile(path: display, text: String(decoding: try read(path, display: display), as: UTF8.self), isDependency: dependency(root))]
                    }
                    guard fileSystem.isDirectory(path) else { throw InputError("source folder not found", file: display) }
                    let files = try fileSystem.files(under: path).filter { $0.hasSuffix(".swift") }
                    sourceBudget -= files.count
                    if sourceBudget < 0 {
                        throw InputError("app '\(app.id)' has more than \(InputLimits.maxFilesPerApp) Swift files across its source roots; list fewer roots in 'sources'", file: display)
                    }
                    let shown = files.map { display + "/" + $0 }
                    inputs.append(contentsOf: shown)
                    let contents = fileSystem.contents(ofAll: files.map { path + "/" + $0 })
                    return try zip(shown, contents).map { shown, read in
                        do {
                            return SourceFile(path: shown, text: String(decoding: try read.get(), as: UTF8.self), isDependency: dependency(root))
                        } catch let error as InputError {
                            throw error.cited(in: shown)
                        }
                    }
                } ?? []
            }
        }

        // `extra_sources` add to what was found or listed; a file both ways is read once.
        func sources(_ listed: [String], extra: [Located<String>], key: String) -> [SourceFile] {
            let listedFiles = sources(listed, climbing: found(key)) { app.dependencySources.contains($0) }
            let known = Set(listedFiles.map(\.path))
            return listedFiles + sources(extra.map(\.value), climbing: true) { _ in true }.filter { !known.contains($0.path) }
        }
        var main = TargetManifest(id: app.id, name: app.name, kind: .app, infoPlist: plist(app.infoPlist, key: "info_plist") ?? discovered.infoPlists[app.id],
                                  entitlements: plist(app.entitlements, key: "entitlements") ?? discovered.entitlements[app.id],
                                  sources: sources(app.sources, extra: app.extraSources, key: "sources"))
        main.compilationConditions = app.compilationConditions
        main.uncommittedInfoPlist = discovered.uncommittedInfoPlists[app.id]
        let extensions = app.extensions.map { ext in
            var target = TargetManifest(id: ext.id, name: ext.name, kind: ext.kind, infoPlist: plist(ext.infoPlist, key: "extensions") ?? discovered.infoPlists[ext.id],
                                        entitlements: plist(ext.entitlements, key: "extensions") ?? discovered.entitlements[ext.id],
                                        sources: sources(ext.sources, extra: ext.extraSources, key: "extensions"))
            target.linkedSources = Set(ext.linkedSources.compactMap { try? resolve($0, app: app).1 })
            target.compilationConditions = ext.compilationConditions
            target.uncommittedInfoPlist = discovered.uncommittedInfoPlists[ext.id]
            target.mergedInfoPlistKeys = discovered.mergedInfoPlistKeys[ext.id]
            return target
        }
        let scripts = discovered.javaScript.compactMap { relative in
            attempt { () throws -> JavaScriptFile in
                let (path, display) = try resolve(relative, app: app)
                inputs.append(display)
                return JavaScriptFile(path: display, text: String(decoding: try read(path, display: display), as: UTF8.self))
            }
        }
        inputs += discovered.inputs
        let privacy = plist(app.privacyManifest, key: "privacy_manifest")

        var infoStrings: [StringsFile] = [], otherStrings: [StringsFile] = []
        var catalog: StringCatalog?
        var otherCatalogs: [StringCatalog] = []
        var localizedRead: Set<String> = []
        /// One strings file or catalog: `*.lproj/InfoPlist.strings` localize the Info.plist, other
        /// `*.lproj/*.strings` tables do not (a usage key there is a mistake), `InfoPlist.xcstrings` does.
        func localized(_ full: String, shown: String) {
            guard localizedRead.insert(shown).inserted else { return }
            if shown.hasSuffix(".strings"), shown.split(separator: "/").dropLast().last?.hasSuffix(".lproj") == true {
                guard let parsed = attempt({ try StringsFile.parse(try read(full, display: shown), path: shown) }) else { return }
                inputs.append(shown)
                if shown.hasSuffix("/InfoPlist.strings") { infoStrings.append(parsed) } else { otherStrings.append(parsed) }
            } else if shown == "InfoPlist.xcstrings" || shown.hasSuffix("/InfoPlist.xcstrings") {
                inputs.append(shown)
                catalog = attempt { try StringCatalog.parse(try read(full, display: shown), path: shown) }
            } else if shown.hasSuffix(".xcstrings") {
                // Only searched for misplaced usage keys: one the audit cannot parse changes no answer.
                guard let data = try? read(full, display: shown), let parsed = try? StringCatalog.parse(data, path: shown) else { return }
                inputs.append(shown)
                otherCatalogs.append(parsed)
            }
        }
        // The Info.plist's folder stands in for the target's resources only when no project lists them.
        let besideInfoPlist = app.localizationsListedByProject ? nil : app.infoPlist.map { ($0 as NSString).deletingLastPathComponent }
        if let folder = app.localizations ?? besideInfoPlist {
            attempt {
                let (path, display) = try resolve(folder.isEmpty ? "." : folder, app: app)
                guard fileSystem.isDirectory(path) else { throw InputError("localizations folder not found", file: display) }
                for file in try fileSystem.files(under: path) { localized(path + "/" + file, shown: display.isEmpty ? file : display + "/" + file) }
            }
        }
        for file in app.localizationFiles {
            attempt {
                let (path, display) = try resolve(file, app: app)
                localized(path, shown: display)
            }
        }
        if !errors.isEmpty { throw InputError(errors) }
        var manifest = AppManifest(config: app, main: main, extensions: extensions, privacyManifest: privacy,
                                   infoPlistStrings: infoStrings.sorted { $0.locale < $1.locale }, otherStrings: otherStrings,
                                   stringCatalog: catalog, inputFiles: Array(Set(inputs)).sorted())
        manifest.otherCatalogs = otherCatalogs
        manifest.discovery = discovered.facts
        manifest.entitlementCandidates = discovered.entitlementCandidates
        manifest.entitlementsUnsetAt = discovered.entitlementsUnsetAt
        manifest.unanalysed = discovered.unanalysed
        manifest.parseBudget = parseBudget
        manifest.javaScriptSources = shipped(scripts, folder: app.root, reactNative: app.kind == .reactNative, into: &manifest)
        manifest.healthKitDependencies = HealthKitDependencies.find(root: app.root, site: siteDirectory, project: app.project?.value, display: shown, fileSystem: fileSystem)
        // What the app's kind adds: a Capacitor or Flutter app's web or Dart code beside its iOS
        // project, a Cordova app's declared usage strings, React Native's requested permissions.
        for driver in AppKindDrivers.all { driver.complete(&manifest, loader: self) }
        // An app of which nothing could be read would pass with every answer "cannot tell": a
        // mistyped root must fail the run, not read as a clean audit.
        if manifest.holdsNothingToAudit {
            throw InputError("app '\(app.id)': nothing to audit under '\(app.rootInSite)': no project, Info.plist, entitlements, INFOPLIST_KEY_ build "
                             + "settings, HealthKit dependency, or Swift, JavaScript or Dart sources were found; point `root` at the app, or configure "
                             + "`project:`, `info_plist:`, `entitlements:` or `sources:`", at: app.location)
        }
        return manifest
    }

    /// The script files that ship in the app (see `ShippedScripts`); what is left out is noted.
    /// `folder` is the web code's folder (absolute): the React Native app's root, Capacitor's or Cordova's.
    func shipped(_ files: [JavaScriptFile], folder: String, reactNative: Bool, into manifest: inout AppManifest) -> [JavaScriptFile] {
        guard !files.isEmpty else { return files }
        let shown = folder == siteDirectory ? "" : (folder.hasPrefix(siteDirectory + "/") ? String(folder.dropFirst(siteDirectory.count + 1)) : folder)
        var main: String?
        if reactNative, let data = try? fileSystem.contents(of: folder + "/package.json"),
           let json = try? LocatedJSON.parse(data, file: (shown.isEmpty ? "" : shown + "/") + "package.json") {
            main = json["main"]?.string
        }
        let selection = ShippedScripts.select(files, root: shown, main: main, reactNative: reactNative)
        if let fact = selection.summary(origin: reactNative ? "imports from the app's entry" : "script folders") { manifest.discovery.append(fact) }
        return selection.kept
    }

    /// Shown relative to the site folder.
    func shown(_ path: String) -> String {
        path.hasPrefix(siteDirectory + "/") ? String(path.dropFirst(siteDirectory.count + 1)) : path
    }

    /// The files at `paths` (absolute), tokenized, shown relative to the site folder; unreadable ones left out.
    func scripts(at paths: [String]) -> [JavaScriptFile] {
        paths.compactMap { path in (try? fileSystem.contents(of: path)).map { JavaScriptFile(path: shown(path), text: String(decoding: $0, as: UTF8.self)) } }
    }

    /// The absolute path to read and the site-relative path to show.
    /// `climbing`: the path may go above the app's root, within the site folder (`extra_sources`).
    private func resolve(_ relative: String, app: AppConfig, climbing: Bool = false) throws -> (String, String) {
        do {
            // Normalized (`./apps/x/` → `apps/x`) so a file reached two ways shows, and is read, once.
            let path = climbing ? try ContainedPath.resolve(relative, in: app.root, within: boundary)
                : try ContainedPath.resolve(relative, in: app.root)
            // Shown relative to the site folder, normalized (`./apps/x/` → `apps/x`) so a file reached
            // two ways shows, and is read, once; `../MyApp/…` for an app beside the config's folder.
            return (path, SiteBoundary.display(path, site: siteDirectory))
        } catch {
            throw InputError("\(error.reason): '\(relative)'", at: app.location)
        }
    }

    private func read(_ path: String, display: String) throws -> Data {
        guard fileSystem.fileExists(path) else { throw InputError("file not found", file: display) }
        do { return try fileSystem.contents(of: path) } catch let error as InputError {
            throw error.cited(in: display)
        }
    }
}
