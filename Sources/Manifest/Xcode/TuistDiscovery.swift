import Foundation
import SwiftParser
import SwiftSyntax

/// A Tuist app (`Project.swift`, no committed `.xcodeproj`): the manifest is Swift, read as
/// written — never run. The application target's `infoPlist:` (`.extendingDefault(with: [...])`,
/// `.dictionary`, or a file) is its Info.plist, `entitlements:` its entitlements, `sources:` globs
/// its Swift folders and `settings: .settings(base: [...])` / `deploymentTargets:` its build
/// settings. A manifest built by helper functions (`Project.app(...)`) is computed: discovery says
/// so and the config names the files instead. Keys written in the config win. The manifest is
/// parsed like any Swift source (`BoundedSwiftParse`) and read on a large stack: one that is refused
/// or does not parse in time is not analysed, which the audit reports as a finding.
struct TuistDiscovery {
    let files: AppFiles
    var budget = ParseBudget()
    static let fileName = "Project.swift"
    /// Tuist products audited as the app's extensions.
    static let extensionProducts: Set<String> = ["appExtension", "messagesExtension", "extensionKitExtension", "watch2Extension"]
    /// The manifest, relative to the app root (`tuist: Projects/App/Project.swift`, else `Project.swift`).
    var manifest = TuistDiscovery.fileName

    /// Whether a manifest's text declares an application target in one of the literal forms read
    /// here (for `check` without a config).
    static func declaresApp(_ text: String) -> Bool {
        text.contains("ProjectDescription") && text.range(of: #"product:\s*\.app\b"#, options: .regularExpression) != nil
    }

    /// The first application target's name in a manifest's text (for `check` without a config), or
    /// nil when there is none or the manifest is not analysed.
    static func applicationName(in text: String, budget: ParseBudget) -> String? {
        LargeStack.run {
            Manifest(text: text, shown: fileName, folder: "", budget: budget).targets().first { $0.product == "app" && !isWatchApp($0) }?.name
        }
    }

    /// The first `name:` a manifest writes as a plain literal: the project's, in a manifest built by
    /// helpers (`Project.makeModule(name: "Scales", targets: .app(…))`).
    static func projectName(in text: String) -> String? {
        text.firstMatch(of: #/\bname:\s*"([A-Za-z_][A-Za-z0-9_ .-]*)"/#).map { String($0.1) }
    }

    func discover(into discovery: inout Discovery) {
        let reader = self
        let before = discovery
        // Walks of the tree recurse once per level: a large stack even when discovery runs on the
        // main thread (`check` without a config).
        discovery = LargeStack.run {
            var discovery = before
            reader.read(into: &discovery)
            return discovery
        }
    }

    private func read(into discovery: inout Discovery) {
        guard let text = files.text(manifest) else { return }
        let shown = files.display(manifest)
        let file = Manifest(text: text, shown: shown, folder: (manifest as NSString).deletingLastPathComponent, budget: budget)
        if let refusal = file.refusal {
            let location = FileLocation(file: shown, line: refusal.line, column: refusal.column)
            discovery.note("\(shown) is not analysed (\(refusal.reason)): name info_plist, entitlements and sources in the config to audit the app",
                           origin: Self.fileName, at: location)
            discovery.unanalysed.append(UnanalysedFile(path: shown, line: refusal.line, column: refusal.column, reason: refusal.reason,
                                                       failsRun: refusal.failsRun, quote: file.lineText(refusal.line)))
            return
        }
        let targets = file.targets()
        // A watchOS application is the app's watch app, never the app itself.
        let applications = targets.filter { $0.product == "app" && !Self.isWatchApp($0) }
        // `Project.makeModule(name: "App", product: .app, …)`: a helper that hands its `product` to a target.
        var throughHelper: (target: Manifest.Target, helpers: TuistHelpers, function: String)?
        if applications.isEmpty, !discovery.config.explicitKeys.contains("sources"),
           let helpers = TuistHelpers.find(from: files.absolute(file.folder.isEmpty ? "." : file.folder), root: "", fileSystem: files.fileSystem),
           let (target, function) = parameterizedHelperApp(file, helpers: helpers) {
            throughHelper = (target, helpers, function)
        }
        guard let app = applications.first(where: { $0.name == discovery.config.name }) ?? applications.first ?? throughHelper?.target else {
            let helpers = TuistHelpers.find(from: files.absolute(file.folder.isEmpty ? "." : file.folder), root: "", fileSystem: files.fileSystem)
            if !discovery.config.explicitKeys.contains("sources"), let helpers, readThroughHelpers(file, helpers: helpers, into: &discovery) {
                declarationsBesideComputedManifest(file, into: &discovery)
                workspaceModules(of: file, helpers: helpers, into: &discovery)
                return
            }
            discovery.note("\(shown) declares no application target as a literal `.target(…, product: .app, …)` (it is computed, or names none); "
                           + "its sources are not read — name info_plist, entitlements and sources in the config to audit the app",
                           origin: Self.fileName, at: FileLocation(file: shown, line: file.projectLine))
            declarationsBesideComputedManifest(file, into: &discovery)
            return
        }
        let explicit = discovery.config.explicitKeys
        discovery.fact("Tuist target \(app.name) in \(shown)" + (applications.count > 1 ? "; the manifest also has \(applications.dropFirst().map(\.name).joined(separator: ", "))" : "")
                       + (throughHelper.map { " (made by the helper \($0.function), which passes on its `product: .app`)" } ?? ""),
                       origin: Self.fileName, at: FileLocation(file: shown, line: app.line))
        if !explicit.contains("info_plist") {
            let found = read(app.argument("infoPlist"), of: app, as: "Info.plist", into: &discovery, file: file)
            if let path = found.path { discovery.config.infoPlist = path } else if let document = found.document { discovery.infoPlists[discovery.config.id] = document }
        }
        if !explicit.contains("entitlements") {
            let found = read(app.argument("entitlements"), of: app, as: "entitlements", into: &discovery, file: file)
            if let path = found.path { discovery.config.entitlements = path } else if let document = found.document { discovery.entitlements[discovery.config.id] = document }
        }
        let folders = { (sources: ExprSyntax) in existingFolders(sources, in: file) }
        if !explicit.contains("sources"), let sources = app.sources {
            let unique = folders(sources)
            if !unique.isEmpty {
                discovery.config.sources = unique
                discovery.fact("\(Plural.count(unique.count, "source folder")) from sources", origin: Self.fileName, at: file.location(of: sources))
            }
        } else if !explicit.contains("sources"), let unique = app.resolvedSources {
            if !unique.isEmpty {
                discovery.config.sources = unique
                discovery.fact("\(Plural.count(unique.count, "source folder")) from the helper's sources", origin: Self.fileName, at: FileLocation(file: shown, line: app.line))
            }
        }
        if !explicit.contains("sources") {
            // Local packages (`.package(path:)`, `.local(path:)`), here or in Tuist's own
            // `Tuist/Package.swift`: the app's code, read as its dependencies.
            var local: [(path: String, at: FileLocation)] = []
            for (relative, base) in [(manifest, file.folder), (AppFiles.join(file.folder.isEmpty ? "." : file.folder, "Tuist/Package.swift"), AppFiles.join(file.folder.isEmpty ? "." : file.folder, "Tuist"))] {
                guard let text = relative == manifest ? file.text : files.text(relative) else { continue }
                for (path, line) in Self.packagePaths(in: text) {
                    let joined = AppFiles.join(base.isEmpty ? "." : base, path)
                    if !local.contains(where: { $0.path == joined }) { local.append((joined, FileLocation(file: files.display(relative), line: line))) }
                }
            }
            // The project's own module targets the app depends on by name, each read as the app's code.
            for module in dependencyModules(of: app, in: file) {
                let added = module.folders.filter { !discovery.config.sources.contains($0) }
                guard !added.isEmpty else { continue }
                discovery.config.sources += added
                discovery.fact("the app depends on the target \(module.name)\(module.byFolderName ? ", whose folder is found by its name" : ""): "
                               + "\(Plural.count(added.count, "source folder")) read as the app's code (\(added.joined(separator: ", ")))",
                               origin: Self.fileName, at: module.at)
            }
            let packaged = LocalDependencies(files: files).packageSources(local, into: &discovery)
            var seen = Set(discovery.config.sources)
            let added = packaged.filter { seen.insert($0).inserted }
            if !added.isEmpty {
                discovery.config.sources += added
                discovery.config.dependencySources.formUnion(added)
            }
        }
        // Extension and watch targets, and the lines of each one's call: a workspace module only they name is theirs.
        var extensionCalls: [(index: Int, lines: ClosedRange<Int>)] = []
        if !explicit.contains("extensions") {
            var taken: Set<String> = [discovery.config.id]
            // A manifest a helper makes has no `Project(targets:)`: its own targets are bound to names and passed to the helper.
            let written = targets.isEmpty && throughHelper != nil ? file.boundTargets() : targets
            for target in written where Self.extensionProducts.contains(target.product ?? "") || Self.isWatchApp(target) {
                let id = ProjectDiscovery.identifier(for: target.name, taken: taken)
                taken.insert(id)
                var config = ExtensionConfig(id: id, name: target.name, infoPlist: nil, entitlements: nil, sources: [], location: FileLocation(file: shown, line: target.line))
                if Self.isWatchApp(target) || target.product == "watch2Extension" { config.kind = .watchApp }
                var facts = Discovery(config: discovery.config)
                let info = read(target.argument("infoPlist"), of: target, as: "Info.plist", into: &facts, file: file)
                config.infoPlist = info.path
                if let document = info.document { discovery.infoPlists[id] = document }
                let entitlements = read(target.argument("entitlements"), of: target, as: "entitlements", into: &facts, file: file)
                config.entitlements = entitlements.path
                if let document = entitlements.document { discovery.entitlements[id] = document }
                config.sources = target.sources.map(folders) ?? []
                if let lines = target.lines { extensionCalls.append((discovery.config.extensions.count, lines)) }
                discovery.config.extensions.append(config)
                discovery.fact("\(config.kind == .watchApp ? "Watch app" : "Extension") target \(target.name) (.\(target.product ?? "")), audited as '\(id)'", origin: Self.fileName,
                               at: FileLocation(file: shown, line: target.line))
                discovery.facts += facts.facts.filter(\.isNote)
            }
        }
        if let throughHelper { workspaceModules(of: file, helpers: throughHelper.helpers, extensionCalls: extensionCalls, into: &discovery) }
        var settings = file.buildSettings(of: app)
        for (key, value) in discovery.config.buildSettings { settings[key] = value }
        if !settings.isEmpty {
            discovery.config.buildSettings = settings
            if let target = settings["IPHONEOS_DEPLOYMENT_TARGET"] {
                discovery.fact("IPHONEOS_DEPLOYMENT_TARGET = \(target)", origin: Self.fileName, at: FileLocation(file: shown, line: app.line))
            }
        }
    }

    /// Targets of the manifest the app names in its `dependencies:` (`.target(name: "SleepFeature")`, or a
    /// helper given the names, `targetDependencies(["SleepFeature"])`), with their source folders: a target
    /// written as a literal call gives its own `sources:`; one a helper makes from a spec
    /// (`featureTargets(spec)`, folders computed from `spec.name`) is found by its name, as Tuist projects lay
    /// modules out — the one folder named after it (its `Sources` folder when it has one), and only when
    /// exactly one folder has that name. Packages, SDKs and test targets are not modules of the app.
    private func dependencyModules(of app: Manifest.Target, in file: Manifest) -> [(name: String, folders: [String], byFolderName: Bool, at: FileLocation)] {
        guard let dependencies = app.argument("dependencies").flatMap(file.resolved) else { return [] }
        let notModules: Set<String> = ["package", "external", "sdk", "xcframework", "framework", "library", "project", "xctest", "macro"]
        var names: [(String, FileLocation)] = []
        for literal in Syntax(dependencies).descendants(StringLiteralExprSyntax.self) {
            guard let name = file.string(ExprSyntax(literal)), !name.isEmpty, !name.hasSuffix("Tests"), name != app.name,
                  !names.contains(where: { $0.0 == name }) else { continue }
            // The call the name is an argument of: `.package(product: "X")` names a package, not a target.
            var node = literal.parent
            while let current = node, !current.is(FunctionCallExprSyntax.self) { node = current.parent }
            let call = node?.as(FunctionCallExprSyntax.self)
            let callee = call?.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            if let callee, notModules.contains(callee) { continue }
            names.append((name, file.location(of: literal)))
        }
        guard !names.isEmpty else { return [] }
        // Declared targets only (a `product:`), not the `.target(name:)` that names one as a dependency.
        let literalTargets = file.targetCalls().filter { $0.product != nil }
        // An embedded app, extension or watch app is its own target, audited as such: never the app's code.
        let linked: Set<String> = ["framework", "staticFramework", "staticLibrary", "dynamicLibrary"]
        let base = file.folder.isEmpty ? "." : file.folder
        // The folders under the manifest's, by name: listed only once a name is not a literal target.
        var folders: [String: [String]]?
        var holdsSwift: Set<String> = []
        var modules: [(name: String, folders: [String], byFolderName: Bool, at: FileLocation)] = []
        for (name, at) in names {
            if let target = literalTargets.first(where: { $0.name == name }) {
                guard linked.contains(target.product ?? ""), let sources = target.sources else { continue }
                let found = existingFolders(sources, in: file)
                if !found.isEmpty { modules.append((name, found, false, at)) }
                continue
            }
            if folders == nil { (folders, holdsSwift) = swiftFolders(under: base) }
            guard let named = folders?[name], named.count == 1, let folder = named.first else { continue }
            let sources = folder + "/Sources"
            modules.append((name, [AppFiles.join(base, holdsSwift.contains(sources) ? sources : folder)], true, at))
        }
        return modules
    }

    /// The folders under `base` that hold Swift files, by their last name, and all of them (Swift files only
    /// say which folders hold code; dependencies, tooling and tests are not searched).
    private func swiftFolders(under base: String) -> (byName: [String: [String]], all: Set<String>) {
        var byName: [String: [String]] = [:]
        var all: Set<String> = []
        let skipped = AppFiles.skippedFolders.union(["Tuist", ".git", "Derived", "Tests", "fastlane"])
        for path in ((try? files.fileSystem.files(under: files.absolute(base), skipping: skipped)) ?? []) where path.hasSuffix(".swift") {
            var parts = path.split(separator: "/").dropLast()
            while let last = parts.last {
                let folder = parts.joined(separator: "/")
                if !all.insert(folder).inserted { break }
                byName[String(last), default: []].append(folder)
                parts = parts.dropLast()
            }
        }
        return (byName, all)
    }

    /// The existing folders a `sources:` argument's globs start from, each once.
    private func existingFolders(_ sources: ExprSyntax, in file: Manifest) -> [String] {
        var seen: Set<String> = []
        return file.globs(sources).compactMap { Self.folder(ofGlob: $0, in: file.folder) }
            .filter { (files.isDirectory($0) || files.exists($0)) && seen.insert($0).inserted }
    }

    /// A watch application: `product: .watch2App`, or `.app` for `destinations: .watchOS` (also
    /// `[.appleWatch]`) or the older `platform: .watchOS`.
    static func isWatchApp(_ target: Manifest.Target) -> Bool {
        if target.product == "watch2App" { return true }
        guard target.product == "app" else { return false }
        let platform = (target.argument("destinations") ?? target.argument("platform"))?.trimmedDescription ?? ""
        return platform.contains("watchOS") || platform.contains("appleWatch")
    }

    /// The path of an absolute `path` relative to the app root, climbing (`../Feature/Sources`) when it is above it.
    private func relative(_ path: String) -> String? {
        let root = files.app.root.split(separator: "/"), parts = path.split(separator: "/")
        var common = 0
        while common < root.count, common < parts.count, root[common] == parts[common] { common += 1 }
        let climbed = Array(repeating: "..", count: root.count - common) + parts[common...].map(String.init)
        return climbed.isEmpty ? "." : climbed.joined(separator: "/")
    }

    /// A path for messages, relative to the site folder.
    private func shown(_ relative: String) -> String {
        let display = files.display(relative)
        return LocalDependencies.climbing(display) ?? display
    }

    /// The existing folders the `sources:` globs of `target` (written in `helper`, parsed as
    /// `parsed`) start from, resolved from `manifestFolder` as Tuist resolves a manifest's paths.
    private func sourceFolders(of target: Manifest.Target, in parsed: Manifest, from manifestFolder: String) -> [String] {
        guard var sources = target.sources else { return [] }
        // `sources: sources`, the helper's own parameter: its default (`["Sources/**"]`), from the manifest's folder.
        if let name = sources.as(DeclReferenceExprSyntax.self)?.baseName.text, let value = Self.parameterDefault(name, around: sources) { sources = value }
        var seen: Set<String> = []
        return parsed.globs(sources).compactMap { glob -> String? in
            // A path computed from the helper's arguments (`"Targets/\(name)/Sources"`) is not followed.
            guard !glob.contains("\\(") else { return nil }
            let cut = glob.firstIndex { "*?{[".contains($0) }.map { String(glob[..<$0]) } ?? glob
            var folder = cut.hasSuffix("/") ? String(cut.dropLast()) : (cut == glob ? cut : (cut as NSString).deletingLastPathComponent)
            if folder.isEmpty { folder = "." }
            return LocalDependencies.climbing(AppFiles.join(manifestFolder.isEmpty ? "." : manifestFolder, folder))
        }.filter { (files.isDirectory($0) || files.exists($0)) && seen.insert($0).inserted }
    }

    /// The application target a manifest makes through a helper that passes its parameters on to a
    /// target (`Project.makeModule(name: "App", product: .app, infoPlist: …, entitlements: …)` into
    /// `Target(name: name, product: product, …)`): the call's arguments, each under the target's
    /// label its parameter is passed to; `sources:`, when the call leaves it out, from the helper
    /// (its literal, or the parameter's default), resolved from the manifest's folder as Tuist does.
    private func parameterizedHelperApp(_ file: Manifest, helpers: TuistHelpers) -> (Manifest.Target, String)? {
        for function in helpers.called(in: file.text) {
            guard let path = relative(function.file), let text = files.text(path) else { continue }
            let helper = Manifest(text: text, shown: shown(path), folder: file.folder, budget: budget)
            guard helper.refusal == nil, let declaration = Syntax(helper.tree).descendants(FunctionDeclSyntax.self).first(where: {
                $0.name.text == function.name && function.lines.contains(helper.line($0))
            }) else { continue }
            let parameters = Array(declaration.signature.parameterClause.parameters)
            /// The parameter a target's argument passes on unchanged (`product: product`).
            func parameter(passedAs label: String, in target: Manifest.Target) -> FunctionParameterSyntax? {
                guard let name = target.argument(label)?.as(DeclReferenceExprSyntax.self)?.baseName.text else { return nil }
                return parameters.first { ($0.secondName ?? $0.firstName).text == name }
            }
            for target in helper.targetCalls() where function.lines.contains(target.line) {
                guard let product = parameter(passedAs: "product", in: target) else { continue }
                for call in file.calls(named: function.name) {
                    var given: [String: ExprSyntax] = [:]
                    for argument in call.arguments { if let label = argument.label?.text { given[label] = argument.expression } }
                    guard given[product.firstName.text]?.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "app" else { continue }
                    var arguments: [String: ExprSyntax] = [:]
                    for label in target.arguments.keys {
                        if let passed = parameter(passedAs: label, in: target), let value = given[passed.firstName.text] { arguments[label] = value }
                    }
                    guard let name = arguments["name"].flatMap(file.string) else { continue }
                    var app = Manifest.Target(name: name, product: "app", line: file.line(call), arguments: arguments)
                    if arguments["sources"] == nil {
                        // The helper's own `sources:` (a literal, or its parameter's default), from the manifest's folder.
                        app.resolvedSources = sourceFolders(of: target, in: helper, from: file.folder)
                    }
                    return (app, function.name)
                }
            }
        }
        return nil
    }

    /// The default value of the parameter `name` of the function around `node`, when it has one.
    static func parameterDefault(_ name: String, around node: some SyntaxProtocol) -> ExprSyntax? {
        var current = Syntax(node).parent
        while let syntax = current, !syntax.is(FunctionDeclSyntax.self) { current = syntax.parent }
        guard let function = current?.as(FunctionDeclSyntax.self) else { return nil }
        return function.signature.parameterClause.parameters.first { ($0.secondName ?? $0.firstName).text == name }?.defaultValue?.value
    }

    /// The targets the called helpers write, each with the parsed helper file it is in.
    private func helperTargets(_ called: [TuistHelpers.Function], manifestFolder: String) -> [(target: Manifest.Target, parsed: Manifest, function: TuistHelpers.Function)] {
        var parsedFiles: [String: Manifest] = [:]
        var result: [(Manifest.Target, Manifest, TuistHelpers.Function)] = []
        for function in called {
            guard let path = relative(function.file) else { continue }
            if parsedFiles[path] == nil {
                guard let text = files.text(path) else { continue }
                parsedFiles[path] = Manifest(text: text, shown: shown(path), folder: manifestFolder, budget: budget)
            }
            guard let parsed = parsedFiles[path], parsed.refusal == nil else { continue }
            for target in parsed.targetCalls() where function.lines.contains(target.line) { result.append((target, parsed, function)) }
        }
        return result
    }

    /// A manifest whose application target a helper makes (`[Target].app(…)` writing
    /// `.target(…, product: .app, sources: "Sources/**")`): the target's literal `sources:` globs,
    /// from the manifest's folder, are the app's sources. False when none is found.
    private func readThroughHelpers(_ file: Manifest, helpers: TuistHelpers, into discovery: inout Discovery) -> Bool {
        let makers = helpers.called(in: file.text).filter(\.makesApp)
        guard let (target, parsed, function) = helperTargets(makers, manifestFolder: file.folder).first(where: { $0.target.product == "app" }) else { return false }
        let folders = sourceFolders(of: target, in: parsed, from: file.folder)
        guard !folders.isEmpty else { return false }
        discovery.config.sources = folders
        discovery.fact("\(file.shown) builds its application target with the helper \(function.name) (\(parsed.shown):\(target.line)): "
                       + "\(Plural.count(folders.count, "source folder")) from its sources",
                       origin: Self.fileName, at: FileLocation(file: file.shown, line: file.projectLine))
        return true
    }

    /// The workspace's other manifests that the app's manifest names (`.feature(.SwimlightMain)`,
    /// `.project(target: "Core", …)`) and that make no application target: framework modules the
    /// app links, whose sources are the app's dependency code.
    /// A module named only inside an extension's or watch app's target call (`dependencies: [.project(target:
    /// "WatchApp", …)]`) is that target's code, not the app's.
    private func workspaceModules(of file: Manifest, helpers: TuistHelpers, extensionCalls: [(index: Int, lines: ClosedRange<Int>)] = [],
                                  into discovery: inout Discovery) {
        let own = files.absolute(manifest)
        let found = ((try? files.fileSystem.files(under: helpers.workspace, skipping: AppFiles.skippedFolders.union(["Tuist", ".git", "Derived"]))) ?? [])
            .filter { ($0 as NSString).lastPathComponent == Self.fileName }.sorted().prefix(64)
        for path in found where helpers.workspace + "/" + path != own {
            guard let manifestPath = relative(helpers.workspace + "/" + path), let text = files.text(manifestPath),
                  !Self.declaresApp(text), !helpers.makesApp(text) else { continue }
            let folder = (manifestPath as NSString).deletingLastPathComponent
            let module = Manifest(text: text, shown: shown(manifestPath), folder: folder, budget: budget)
            guard module.refusal == nil, let name = module.projectName, name != discovery.config.name else { continue }
            let mentions = file.lines(mentioning: name)
            guard !mentions.isEmpty else { continue }
            let owner = extensionCalls.first { call in mentions.allSatisfy(call.lines.contains) }?.index
            var targets = module.targets().map { ($0, module) }
            if targets.isEmpty { targets = helperTargets(helpers.called(in: text), manifestFolder: folder).map { ($0.target, $0.parsed) } }
            var added: [String] = []
            for (target, parsed) in targets where target.product != "app" && !(target.product ?? "").lowercased().contains("test") {
                added += sourceFolders(of: target, in: parsed, from: folder).filter { !added.contains($0) && !discovery.config.sources.contains($0) }
            }
            guard !added.isEmpty else { continue }
            if let owner {
                let target = discovery.config.extensions[owner]
                let own = added.filter { AppFiles.normalize($0) != nil && !target.sources.contains($0) }
                guard !own.isEmpty else { continue }
                discovery.config.extensions[owner].sources += own
                discovery.fact("\(Plural.count(own.count, "source folder")) of the workspace module \(name) (\(module.shown)), which only the target \(target.name) names, read as its code",
                               origin: Self.fileName, at: FileLocation(file: module.shown, line: module.projectLine))
                continue
            }
            for folder in added {
                if AppFiles.normalize(folder) != nil {
                    discovery.config.sources.append(folder)
                    discovery.config.dependencySources.insert(folder)
                } else if !discovery.config.extraSources.contains(where: { $0.value == folder }) {
                    discovery.config.extraSources.append(Located(folder, at: FileLocation(file: module.shown, line: module.projectLine)))
                }
            }
            discovery.fact("\(Plural.count(added.count, "source folder")) of the workspace module \(name) (\(module.shown)), which the app's manifest names, read as its dependency code",
                           origin: Self.fileName, at: FileLocation(file: module.shown, line: module.projectLine))
        }
    }

    /// A manifest built by helper functions still sits beside the files it names: the one
    /// `.entitlements` file and the one `Info.plist` in its folder are the app's (each noted), so
    /// what the app declares is known even though its targets, and so its code, are not.
    private func declarationsBesideComputedManifest(_ file: Manifest, into discovery: inout Discovery) {
        let found = (try? files.files(under: file.folder.isEmpty ? "." : file.folder, skipping: ["Tests", "UITests", "Derived", "Tuist", "Pods"])) ?? []
        let explicit = discovery.config.explicitKeys
        // Among several, the one that turns HealthKit on is the app's (its extensions seldom do alone).
        let allEntitlements = found.filter { $0.hasSuffix(".entitlements") }
        let healthKit = allEntitlements.filter { files.text($0)?.contains("com.apple.developer.healthkit") == true }
        let entitlements = allEntitlements.count > 1 && healthKit.count == 1 ? healthKit : allEntitlements
        let plists = found.filter { ($0 as NSString).lastPathComponent == "Info.plist" }
        if !explicit.contains("entitlements") {
            if entitlements.count == 1 {
                discovery.config.entitlements = entitlements[0]
                discovery.note("\(files.display(entitlements[0])), \(allEntitlements.count == 1 ? "the one entitlements file" : "the one entitlements file turning HealthKit on") beside the computed manifest, is read as the app's",
                               origin: Self.fileName, at: FileLocation(file: file.shown, line: file.projectLine))
            } else if entitlements.count > 1 {
                discovery.entitlementCandidates = entitlements.map(files.display)
            }
        }
        if !explicit.contains("info_plist"), plists.count == 1 {
            discovery.config.infoPlist = plists[0]
            discovery.note("\(files.display(plists[0])), the one Info.plist beside the computed manifest, is read as the app's",
                           origin: Self.fileName, at: FileLocation(file: file.shown, line: file.projectLine))
        }
    }

    /// A manifest that builds its project through `ProjectDescriptionHelpers`, calling a helper that
    /// makes an application target (`product: .app`): an app, though its targets are computed. A
    /// manifest calling only helpers that make frameworks is a module of the workspace, not an app.
    /// The helpers live in `Tuist/ProjectDescriptionHelpers` at the manifest's folder or above it, up to `root`.
    static func declaresAppThroughHelpers(_ text: String, folder: String, root: String, fileSystem: FileSystem) -> Bool {
        guard text.contains("ProjectDescriptionHelpers"), let helpers = TuistHelpers.find(from: folder, root: root, fileSystem: fileSystem) else { return false }
        return helpers.makesApp(text)
    }

    /// An `infoPlist:` / `entitlements:` argument: a file (`"App/Info.plist"`, `.file(path:)`), keys
    /// written in the manifest (`.extendingDefault(with:)`, `.dictionary`), or Tuist's default plist.
    private func read(_ argument: ExprSyntax?, of target: Manifest.Target, as what: String, into discovery: inout Discovery,
                      file: Manifest) -> (path: String?, document: PropertyListDocument?) {
        guard let argument else {
            // No `infoPlist:` is Tuist's default Info.plist, which holds no usage strings.
            guard what == "Info.plist" else { return (nil, nil) }
            discovery.fact("Info.plist: Tuist's default (no infoPlist:)", origin: Self.fileName, at: FileLocation(file: file.shown, line: target.line))
            return (nil, file.document([], at: target.line))
        }
        let location = file.location(of: argument)
        if let path = file.path(argument) {
            let relative = Self.manifestPath(path, from: file.folder)
            guard let relative, files.exists(relative) else {
                discovery.note("\(what) '\(path)' named in \(file.shown) is not in the app folder; not read", origin: Self.fileName, at: location)
                return (nil, nil)
            }
            discovery.fact("\(what) \(files.display(relative))", origin: Self.fileName, at: location)
            return (relative, nil)
        } else if let dictionary = file.plistDictionary(argument) {
            discovery.fact("\(what) from the keys written in \(file.shown)", origin: Self.fileName, at: location)
            return (nil, file.document(dictionary, at: location.line ?? target.line))
        } else if argument.trimmedDescription == ".default" {
            discovery.fact("\(what): Tuist's default", origin: Self.fileName, at: location)
            return (nil, file.document([], at: location.line ?? target.line))
        } else {
            discovery.note("\(what) of \(target.name) is computed in \(file.shown) (`\(XcodeDiscovery.clip(argument.trimmedDescription))`); name it in the config to audit it",
                           origin: Self.fileName, at: location)
            return (nil, nil)
        }
    }

    /// `.package(path: "../Kit")` and `.local(path: "Kit")` in a manifest, with their lines.
    static func packagePaths(in text: String) -> [(path: String, line: Int)] {
        var result: [(String, Int)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where line.contains("path:") && (line.contains(".package(") || line.contains(".local(")) {
            guard let range = line.range(of: #"(\.package|\.local)\(\s*(name:\s*"[^"]*",\s*)?path:\s*"([^"]+)""#, options: .regularExpression) else { continue }
            if let path = LocalDependencies.quotedStrings(in: String(line[range])).last { result.append((path, index + 1)) }
        }
        return result
    }

    /// `App/Sources/**` → `App/Sources`; nil for a glob with no folder before its first wildcard.
    static func folder(ofGlob glob: String, in manifestFolder: String) -> String? {
        let cut = glob.firstIndex { "*?{[".contains($0) }.map { String(glob[..<$0]) } ?? glob
        var folder = cut.hasSuffix("/") ? String(cut.dropLast()) : (cut == glob ? cut : (cut as NSString).deletingLastPathComponent)
        if folder.isEmpty { folder = "." }
        return manifestPath(folder, from: manifestFolder)
    }

    /// A path a manifest names, relative to the app root: it may climb above it (`../Watch/Sources`,
    /// a workspace's sibling folder), as Tuist resolves it from the manifest; reads stay confined to
    /// the repository by the file system.
    static func manifestPath(_ path: String, from manifestFolder: String) -> String? {
        guard !path.hasPrefix("/"), !path.hasPrefix("~") else { return nil }
        let joined = AppFiles.join(manifestFolder.isEmpty ? "." : manifestFolder, path)
        return AppFiles.normalize(joined) ?? LocalDependencies.climbing(joined)
    }
}

extension TuistDiscovery {
    /// One parsed `Project.swift`.
    struct Manifest {
        let shown: String
        /// The manifest's folder relative to the app root: Tuist paths are relative to it.
        let folder: String
        let tree: SourceFileSyntax
        let converter: SourceLocationConverter
        let text: String
        /// Top-level `let name = expression` bindings: targets are often declared before the project.
        let bindings: [String: ExprSyntax]
        /// Top-level functions without parameters that return one expression (`appInfoPlist()`).
        let builders: [String: ExprSyntax]
        /// Why the manifest was not parsed (the tree is then empty), or nil.
        let refusal: BoundedSwiftParse.Refusal?

        struct Target {
            var name: String
            var product: String?
            var line: Int
            /// The lines of the target's call (where its `dependencies:` are named).
            var lines: ClosedRange<Int>? = nil
            var arguments: [String: ExprSyntax]
            /// Existing source folders already resolved (a helper's own `sources:`), when `arguments` has none.
            var resolvedSources: [String]?
            func argument(_ label: String) -> ExprSyntax? { arguments[label] }
            /// `sources:` globs, or Tuist 4's `buildableFolders:` (folders synchronized whole, `["App/Sources"]`).
            var sources: ExprSyntax? { arguments["sources"] ?? arguments["buildableFolders"] }
        }

        /// Calls of a function by its name (`Project.makeModule(…)`, `makeModule(…)`).
        func calls(named name: String) -> [FunctionCallExprSyntax] {
            Syntax(tree).descendants(FunctionCallExprSyntax.self).filter { call in
                let called = call.calledExpression
                return called.as(DeclReferenceExprSyntax.self)?.baseName.text == name || called.as(MemberAccessExprSyntax.self)?.declName.baseName.text == name
            }
        }

        init(text: String, shown: String, folder: String, budget: ParseBudget) {
            self.text = text
            self.shown = shown
            self.folder = folder
            switch BoundedSwiftParse.parse(text, budget: budget) {
            case .parsed(let parsed):
                tree = parsed
                refusal = nil
            case .refused(let why):
                tree = Parser.parse(source: "")
                refusal = why
            }
            converter = SourceLocationConverter(fileName: shown, tree: tree)
            var bindings: [String: ExprSyntax] = [:]
            var builders: [String: ExprSyntax] = [:]
            for item in tree.statements {
                // `func appInfoPlist() -> InfoPlist { .extendingDefault(with: [...]) }`: a builder without
                // parameters whose body is the one expression it returns, called as `appInfoPlist()`.
                if let function = item.item.as(FunctionDeclSyntax.self), function.signature.parameterClause.parameters.isEmpty,
                   let body = function.body, body.statements.count == 1, let only = body.statements.first?.item {
                    if let returned = only.as(ReturnStmtSyntax.self)?.expression { builders[function.name.text] = returned }
                    else if let expression = only.as(ExprSyntax.self) { builders[function.name.text] = expression }
                    continue
                }
                guard let variable = item.item.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings {
                    if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value {
                        bindings[name] = value
                    }
                }
            }
            self.bindings = bindings
            self.builders = builders
        }

        func line(_ node: some SyntaxProtocol) -> Int { node.startLocation(converter: converter).line }

        /// A line of the manifest as written, clipped, for a finding's quote.
        func lineText(_ number: Int) -> String {
            var current = 1
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if current == number { return Clipped.text(line.trimmingCharacters(in: .whitespaces), limit: Clipped.quoteLimit) }
                current += 1
            }
            return ""
        }
        func location(of node: some SyntaxProtocol) -> FileLocation { FileLocation(file: shown, line: line(node)) }

        /// The `Project(…)` call, for a note's line.
        var projectLine: Int {
            tree.tokens(viewMode: .sourceAccurate).first { $0.text == "Project" }.map { line($0) } ?? 1
        }

        /// `.target(name:, …)`, `Target.target(…)` and `Target(…)` calls in `Project(targets: [...])`,
        /// following names bound at the top level.
        func targets() -> [Target] {
            guard let project = tree.statements.lazy.compactMap({ projectCall(in: Syntax($0.item)) }).first,
                  let list = argument("targets", of: project) else { return [] }
            return elements(of: list).compactMap { element -> Target? in
                guard let call = resolved(element)?.as(FunctionCallExprSyntax.self), Self.isTargetCall(call) else { return nil }
                var arguments: [String: ExprSyntax] = [:]
                for argument in call.arguments { if let label = argument.label?.text { arguments[label] = argument.expression } }
                guard let name = arguments["name"].flatMap(string) else { return nil }
                let product = arguments["product"]?.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                return Target(name: name, product: product, line: line(call), lines: lines(of: call), arguments: arguments)
            }
        }

        /// The elements of an array literal, or of arrays joined with `+` (`[appTarget, widgetTarget] +
        /// coreTargets + featureSpecs.flatMap(featureTargets)`), following names bound at the top level;
        /// a computed part (a `flatMap` over specs) adds nothing.
        func elements(of expression: ExprSyntax, depth: Int = 0) -> [ExprSyntax] {
            guard depth < 8, let expression = resolved(expression) else { return [] }
            if let array = expression.as(ArrayExprSyntax.self) { return array.elements.map(\.expression) }
            if let sequence = expression.as(SequenceExprSyntax.self) {
                let parts = Array(sequence.elements)
                // Operands at even positions, `+` between them: anything else is not a concatenation.
                guard parts.count % 2 == 1, stride(from: 1, to: parts.count, by: 2).allSatisfy({ parts[$0].as(BinaryOperatorExprSyntax.self)?.operator.text == "+" })
                else { return [] }
                return stride(from: 0, to: parts.count, by: 2).flatMap { elements(of: parts[$0], depth: depth + 1) }
            }
            return []
        }

        /// Targets bound to top-level names (`let watchTarget = Target(…)`), in a manifest whose project a
        /// helper makes (`Project.makeModule(…, target: watchTarget)`), so `targets()` has none.
        func boundTargets() -> [Target] {
            tree.statements.compactMap { item -> Target? in
                guard let variable = item.item.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
                      let call = binding.initializer?.value.as(FunctionCallExprSyntax.self), Self.isTargetCall(call) else { return nil }
                var arguments: [String: ExprSyntax] = [:]
                for argument in call.arguments { if let label = argument.label?.text { arguments[label] = argument.expression } }
                guard let name = arguments["name"].flatMap(string) else { return nil }
                let product = arguments["product"]?.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                return Target(name: name, product: product, line: line(call), lines: lines(of: call), arguments: arguments)
            }
        }

        /// The project's name: the `name:` of the call bound to `project` (a literal, or a top-level
        /// constant such as `let moduleName = "Core"`), else the first literal `name:` in the text.
        var projectName: String? {
            if let call = bindings["project"]?.as(FunctionCallExprSyntax.self),
               let name = call.arguments.first(where: { $0.label?.text == "name" }).flatMap({ string($0.expression) }) {
                return name
            }
            return TuistDiscovery.projectName(in: text)
        }

        /// The lines on which `name` is written as a whole word.
        func lines(mentioning name: String) -> [Int] {
            guard let pattern = try? NSRegularExpression(pattern: "\\b" + NSRegularExpression.escapedPattern(for: name) + "\\b") else { return [] }
            let lineStarts = text.utf16.indices.filter { text.utf16[$0] == 0x0A }.map { $0.utf16Offset(in: text) }
            return pattern.matches(in: text, range: NSRange(location: 0, length: text.utf16.count)).map { match in
                var low = 0, high = lineStarts.count
                while low < high { let mid = (low + high) / 2; if lineStarts[mid] < match.range.location { low = mid + 1 } else { high = mid } }
                return low + 1
            }
        }

        private func lines(of node: some SyntaxProtocol) -> ClosedRange<Int> {
            line(node)...node.endLocation(converter: converter).line
        }

        /// Every target call written anywhere in the file (in a helper's function body), named or not.
        func targetCalls() -> [Target] {
            Syntax(tree).descendants(FunctionCallExprSyntax.self).filter(Self.isTargetCall).map { call in
                var arguments: [String: ExprSyntax] = [:]
                for argument in call.arguments { if let label = argument.label?.text { arguments[label] = argument.expression } }
                let product = arguments["product"]?.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                return Target(name: arguments["name"].flatMap(string) ?? "", product: product, line: line(call), arguments: arguments)
            }
        }

        private func projectCall(in node: Syntax) -> FunctionCallExprSyntax? {
            for call in node.descendants(FunctionCallExprSyntax.self) {
                let callee = Self.callee(call)
                if callee == "Project" || callee == "Project.init" { return call }
            }
            return nil
        }

        private static func isTargetCall(_ call: FunctionCallExprSyntax) -> Bool {
            ["Target", "Target.target", ".target", "Target.init"].contains(callee(call) ?? "")
        }

        /// `Name`, `Name.member` or `.member` for a call of that shape, else nil: read from the
        /// callee's own tokens, never its whole text (in a chain of calls each callee holds all
        /// the calls before it, and reading each one's text took quadratic time).
        private static func callee(_ call: FunctionCallExprSyntax) -> String? {
            let called = call.calledExpression
            if let name = called.as(DeclReferenceExprSyntax.self) { return name.baseName.text }
            guard let member = called.as(MemberAccessExprSyntax.self) else { return nil }
            let name = member.declName.baseName.text
            guard let base = member.base else { return "." + name }
            return base.as(DeclReferenceExprSyntax.self).map { $0.baseName.text + "." + name }
        }

        private func argument(_ label: String, of call: FunctionCallExprSyntax) -> ExprSyntax? {
            call.arguments.first { $0.label?.text == label }?.expression
        }

        /// A name bound at the top level stands for its value.
        func resolved(_ expression: ExprSyntax) -> ExprSyntax? {
            if let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text { return bindings[name] }
            if let call = expression.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
               let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, let built = builders[name] {
                return built
            }
            return expression
        }

        /// A string literal without interpolation.
        func string(_ expression: ExprSyntax) -> String? {
            // `"Kaso reads sleep data " + "to compare it with spending."`: literals joined with `+`.
            if let sequence = resolved(expression)?.as(SequenceExprSyntax.self) {
                let parts = Array(sequence.elements)
                guard parts.count % 2 == 1, stride(from: 1, to: parts.count, by: 2).allSatisfy({ parts[$0].as(BinaryOperatorExprSyntax.self)?.operator.text == "+" })
                else { return nil }
                var joined = ""
                for index in stride(from: 0, to: parts.count, by: 2) {
                    guard parts[index].is(StringLiteralExprSyntax.self), let piece = string(parts[index]) else { return nil }
                    joined += piece
                }
                return joined
            }
            guard let literal = resolved(expression)?.as(StringLiteralExprSyntax.self) else { return nil }
            var text = ""
            for segment in literal.segments {
                guard let piece = segment.as(StringSegmentSyntax.self) else { return nil }
                text += piece.content.text
            }
            return text
        }

        /// A path argument: `"App/Info.plist"`, `.file(path: "…")`, `.relativeToManifest("…")`.
        func path(_ expression: ExprSyntax, depth: Int = 0) -> String? {
            if let text = string(expression) { return text }
            guard depth < 8 else { return nil }
            guard let call = resolved(expression)?.as(FunctionCallExprSyntax.self),
                  let callee = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
                  ["file", "relativeToManifest", "path"].contains(callee), let first = call.arguments.first?.expression else { return nil }
            return path(first, depth: depth + 1)
        }

        /// Source globs: `["App/**"]`, `.paths([...])`, `SourceFilesList(globs: [...])`, `.glob("…")`.
        func globs(_ expression: ExprSyntax, depth: Int = 0) -> [String] {
            guard depth < 8, let expression = resolved(expression) else { return [] }
            if let text = string(expression) { return [text] }
            if let array = expression.as(ArrayExprSyntax.self) { return array.elements.flatMap { globs($0.expression, depth: depth + 1) } }
            if let call = expression.as(FunctionCallExprSyntax.self) { return call.arguments.flatMap { globs($0.expression, depth: depth + 1) } }
            return []
        }

        /// `.extendingDefault(with: [...])`, `.dictionary([...])`, or a bare `[...]` literal.
        func plistDictionary(_ expression: ExprSyntax, depth: Int = 0) -> [(key: String, value: PlistValue, line: Int)]? {
            guard depth < 8, let expression = resolved(expression) else { return nil }
            if let dictionary = expression.as(DictionaryExprSyntax.self) { return entries(dictionary) }
            guard let call = expression.as(FunctionCallExprSyntax.self),
                  let callee = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
                  ["extendingDefault", "dictionary"].contains(callee), let first = call.arguments.first?.expression else { return nil }
            return plistDictionary(first, depth: depth + 1)
        }

        private func entries(_ dictionary: DictionaryExprSyntax, depth: Int = 0) -> [(key: String, value: PlistValue, line: Int)] {
            guard case .elements(let elements) = dictionary.content else { return [] }
            return elements.compactMap { element in
                guard let key = string(element.key) else { return nil }
                return (key, plistValue(element.value, depth: depth + 1), line(element.key))
            }
        }

        /// `"text"`, `true`, `42`, `.string("…")`, `.boolean(true)`, `.integer(1)`, `.array([...])`,
        /// `.dictionary([...])` and nested literals; anything computed is an empty string.
        func plistValue(_ expression: ExprSyntax, depth: Int) -> PlistValue {
            guard depth < InputLimits.maxNestingDepth, let expression = resolved(expression) else { return .string("") }
            if let text = string(expression) { return .string(text) }
            if let boolean = expression.as(BooleanLiteralExprSyntax.self) { return .bool(boolean.literal.text == "true") }
            if let integer = expression.as(IntegerLiteralExprSyntax.self), let value = Int(integer.literal.text) { return .integer(value) }
            if let real = expression.as(FloatLiteralExprSyntax.self), let value = Double(real.literal.text) { return .real(value) }
            if let array = expression.as(ArrayExprSyntax.self) { return .array(array.elements.map { plistValue($0.expression, depth: depth + 1) }) }
            if let dictionary = expression.as(DictionaryExprSyntax.self) {
                var result: [String: PlistValue] = [:]
                for entry in entries(dictionary, depth: depth + 1) { result[entry.key] = entry.value }
                return .dictionary(result)
            }
            if let call = expression.as(FunctionCallExprSyntax.self), let first = call.arguments.first?.expression,
               ["string", "boolean", "integer", "real", "array", "dictionary"].contains(call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? "") {
                return plistValue(first, depth: depth + 1)
            }
            return .string("")
        }

        /// Keys written in the manifest as a property-list document citing their lines.
        func document(_ entries: [(key: String, value: PlistValue, line: Int)], at line: Int) -> PropertyListDocument {
            var root: [String: PlistValue] = [:], lines: [String: Int] = [:]
            for entry in entries { root[entry.key] = entry.value; lines[entry.key] = entry.line }
            return .synthesized(path: shown, format: .tuist, root: root, keyLines: lines, rootLine: line, text: text)
        }

        /// `settings: .settings(base: [...])` string values and `deploymentTargets: .iOS("17.0")`
        /// (older Tuist: `deploymentTarget: .iOS(targetVersion: "15.0", …)`).
        func buildSettings(of target: Target) -> [String: String] {
            var settings: [String: String] = [:]
            if let call = target.argument("settings").flatMap(resolved)?.as(FunctionCallExprSyntax.self),
               let base = argument("base", of: call).flatMap(resolved)?.as(DictionaryExprSyntax.self) {
                for entry in entries(base) { if let value = entry.value.string, !value.isEmpty { settings[entry.key] = value } }
            }
            if let call = (target.argument("deploymentTargets") ?? target.argument("deploymentTarget")).flatMap(resolved)?.as(FunctionCallExprSyntax.self),
               call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "iOS",
               let version = call.arguments.first.flatMap({ string($0.expression) }) {
                settings["IPHONEOS_DEPLOYMENT_TARGET"] = version
            }
            return settings
        }
    }
}

private extension SyntaxProtocol {
    /// Every node of type `T` below this one, in source order.
    func descendants<T: SyntaxProtocol>(_ type: T.Type) -> [T] {
        var found: [T] = []
        var pending = Array(children(viewMode: .sourceAccurate).reversed())
        while let next = pending.popLast() {
            if let match = next.as(T.self) { found.append(match) }
            pending += next.children(viewMode: .sourceAccurate).reversed()
        }
        return found
    }
}
