import Foundation
import Yams

/// An XcodeGen app (`project.yml`, no committed `.xcodeproj`): the application target's
/// `info.properties` are its Info.plist and `entitlements.properties` its entitlements (XcodeGen
/// writes both files at generation time, so they are often not committed), and its `sources`
/// paths its Swift folders. Keys cite their `project.yml` lines. Keys written in the config win.
struct XcodeGenDiscovery {
    let files: AppFiles
    static let fileName = "project.yml"
    /// The spec to read, relative to the app root (`project: Apps/App/project.yml`, else `project.yml`).
    var spec = XcodeGenDiscovery.fileName

    /// One file of the spec: the root `project.yml` or a file it includes.
    private struct SpecFile {
        var path: String
        var shown: String
        var text: String
        var root: Node
    }

    func discover(into discovery: inout Discovery) throws {
        var specs: [SpecFile] = []
        var budget = SpecBudget()
        try read(spec, into: &specs, budget: &budget, discovery: &discovery, depth: 0)
        guard let main = specs.first else { return }
        // XcodeGen merges included specs under the including one: the root spec's keys win.
        let templates = Self.templates(in: specs.map(\.root))
        let targetNodes = specs.flatMap { file in
            (file.root.mapping?["targets"]?.mapping ?? [:]).map { (file: file, key: $0.key, value: Self.applyingTemplates(to: $0.value, named: $0.key.string ?? "", templates: templates)) }
        }
        // The application target named like the app, else the first one.
        // A watchOS application is the app's watch app, never the app itself.
        let applications = targetNodes.filter { $0.value.mapping?["type"]?.string == "application" && $0.value.mapping?["platform"]?.string != "watchOS" }
            .compactMap { node -> String? in node.key.string }
        guard let name = applications.first(where: { $0 == discovery.config.name }) ?? applications.first else { return }
        let parts = targetNodes.filter { $0.key.string == name }
        let explicit = discovery.config.explicitKeys
        let defined = parts.first { $0.value.mapping?["type"]?.string == "application" } ?? parts[0]
        discovery.fact("XcodeGen target \(name) in \(defined.file.shown)" + (specs.count > 1 ? " (\(specs.count) spec files with its includes)" : ""),
                       origin: main.shown, at: FileLocation(file: defined.file.shown, line: defined.value.mark?.line))
        /// The file a section of a target is written in: the target's own, else the template's that gave it.
        func file(of section: String, in part: (file: SpecFile, key: Node, value: Node)) -> SpecFile {
            let raw = part.file.root.mapping?["targets"]?.mapping?[part.key.string ?? ""]
            if raw?.mapping?[section] != nil { return part.file }
            var pending = (raw?.mapping?["templates"]?.sequence ?? []).compactMap(\.string)
            var seen: Set<String> = []
            while let name = pending.first {
                pending.removeFirst()
                guard seen.insert(name).inserted, seen.count < 32 else { continue }
                for spec in specs {
                    guard let template = spec.root.mapping?["targetTemplates"]?.mapping?[name] else { continue }
                    if template.mapping?[section] != nil { return spec }
                    pending += (template.mapping?["templates"]?.sequence ?? []).compactMap(\.string)
                }
            }
            return part.file
        }
        func document(_ section: String) -> PropertyListDocument? {
            let documents = parts.compactMap { part in
                part.value.mapping?[section]?.mapping?["properties"].map { properties in
                    let source = file(of: section, in: part)
                    return Self.document(properties, path: source.shown, text: source.text)
                }
            }
            guard let first = documents.first else { return nil }
            return documents.dropFirst().reduce(first) { $0.merging($1) }
        }
        if !explicit.contains("info_plist"), let info = document("info") {
            discovery.infoPlists[discovery.config.id] = info
            discovery.fact("Info.plist from info.properties", origin: Self.fileName, at: FileLocation(file: info.path, line: info.rootLine))
        }
        if !explicit.contains("entitlements"), let entitlements = document("entitlements") {
            discovery.entitlements[discovery.config.id] = entitlements
            discovery.fact("entitlements from entitlements.properties", origin: Self.fileName, at: FileLocation(file: entitlements.path, line: entitlements.rootLine))
        }
        // Build settings of the project, then the target (which wins): `settings.base`, the Release
        // `configs`, or a flat mapping. Usage strings set as INFOPLIST_KEY_* are read from here.
        let projectSettings = specs.reversed().compactMap { spec in spec.root.mapping?["settings"].map { (spec.shown, spec.text, $0) } }
        let written = Self.settings(in: projectSettings + parts.reversed().compactMap { part in part.value.mapping?["settings"].map { (part.file.shown, part.file.text, $0) } })
        for (key, value) in written where discovery.config.buildSettings[key] == nil || !explicit.contains("build_settings") {
            discovery.config.buildSettings[key] = value.value
            discovery.config.buildSettingOrigins[key] = value.origin
        }
        let specFolder = (defined.file.path as NSString).deletingLastPathComponent
        /// A path XcodeGen resolves against the spec's folder, when the file is committed.
        func committed(_ path: String?) -> String? {
            guard let path, !path.contains("$") else { return nil }
            return [AppFiles.normalize(AppFiles.join(specFolder.isEmpty ? "." : specFolder, path)), AppFiles.normalize(path)].compactMap { $0 }.first(where: files.exists)
        }
        if !explicit.contains("info_plist"), discovery.infoPlists[discovery.config.id] == nil,
           let path = committed(parts.lazy.compactMap { $0.value.mapping?["info"]?.mapping?["path"]?.string }.first ?? written["INFOPLIST_FILE"]?.value) {
            discovery.config.infoPlist = path
            discovery.fact("Info.plist \(files.display(path))", origin: Self.fileName, at: FileLocation(file: defined.file.shown, line: defined.value.mark?.line))
        }
        if !explicit.contains("entitlements"), discovery.entitlements[discovery.config.id] == nil,
           let path = committed(parts.lazy.compactMap { $0.value.mapping?["entitlements"]?.mapping?["path"]?.string }.first ?? written["CODE_SIGN_ENTITLEMENTS"]?.value) {
            discovery.config.entitlements = path
            discovery.fact("entitlements \(files.display(path))", origin: Self.fileName, at: FileLocation(file: defined.file.shown, line: defined.value.mark?.line))
        }
        if !explicit.contains("extensions") {
            addCompanionTargets(of: name, in: targetNodes, into: &discovery)
        }
        if !explicit.contains("sources") {
            // Folders only (a header or a plist listed as a source is no Swift). A path is relative to the spec file that writes it (`path: "."` in `OBAKitCore/project.yml`
            // is `OBAKitCore`), else to the app root (a spec generated with `--project-root`).
            func sourcePaths(of target: String) -> [String] {
                targetNodes.filter { $0.key.string == target }.flatMap { part -> [String] in
                    let folder = (part.file.path as NSString).deletingLastPathComponent
                    return (part.value.mapping?["sources"]?.sequence ?? []).compactMap { $0.string ?? $0.mapping?["path"]?.string }.compactMap { written in
                        [AppFiles.normalize(AppFiles.join(folder.isEmpty ? "." : folder, written)), AppFiles.normalize(written)].compactMap { $0 }
                            .first(where: files.isDirectory)
                    }
                }
            }
            var paths = sourcePaths(of: name)
            // The frameworks the app depends on (`dependencies: - target: OBAKit`) are its code too,
            // as a linked framework target is in an Xcode project; extensions are not.
            let linked = linkedFrameworks(of: name, in: targetNodes.map { ($0.key.string, $0.value) })
            for framework in linked {
                let added = sourcePaths(of: framework).filter { !paths.contains($0) }
                paths += added
                if !added.isEmpty {
                    discovery.fact("\(Plural.count(added.count, "source folder")) from the framework target \(framework) it depends on", origin: Self.fileName,
                                   at: FileLocation(file: defined.file.shown, line: defined.value.mark?.line))
                }
            }
            // Local packages (`packages: Kit: {path: ../Kit}`, `dependencies: - package: Kit`) and
            // development pods are the app's code as well, read as its dependencies.
            let packageNames = Set(([name] + linked).flatMap { target in
                targetNodes.filter { $0.key.string == target }.flatMap { $0.value.mapping?["dependencies"]?.sequence ?? [] }.compactMap { $0.mapping?["package"]?.string }
            })
            var local: [(path: String, at: FileLocation)] = []
            for spec in specs {
                let folder = (spec.path as NSString).deletingLastPathComponent
                for (key, value) in spec.root.mapping?["packages"]?.mapping ?? [:] {
                    guard let package = key.string, packageNames.contains(package), let path = value.mapping?["path"]?.string,
                          !local.contains(where: { $0.path == AppFiles.join(folder.isEmpty ? "." : folder, path) }) else { continue }
                    local.append((AppFiles.join(folder.isEmpty ? "." : folder, path), FileLocation(file: spec.shown, line: key.mark?.line)))
                }
            }
            let dependencies = LocalDependencies(files: files)
            var seen = Set(paths)
            let packaged = dependencies.packageSources(local, into: &discovery)
            let pods = dependencies.podSources(podfile: AppFiles.join(specFolder.isEmpty ? "." : specFolder, "Podfile"), into: &discovery)
            let added = (packaged + pods).filter { seen.insert($0).inserted }
            if !paths.isEmpty || !added.isEmpty {
                discovery.config.sources = paths + added
                discovery.config.dependencySources = Set(added)
                discovery.fact("\(Plural.count(paths.count, "source folder")) from sources", origin: Self.fileName, at: FileLocation(file: defined.file.shown, line: defined.value.mark?.line))
            }
        }
    }

    /// Settings as XcodeGen writes them, each with the line it is on: later mappings win.
    static func settings(in mappings: [(shown: String, text: String, node: Node)]) -> [String: (value: String, origin: SettingOrigin)] {
        var result: [String: (value: String, origin: SettingOrigin)] = [:]
        for (shown, text, node) in mappings {
            let lines = TextLines.split(text)
            func add(_ mapping: Node.Mapping?, level: String) {
                for (key, value) in mapping ?? [:] {
                    guard let name = key.string, let scalar = value.string ?? value.sequence?.compactMap(\.string).joined(separator: " ") else { continue }
                    let line = key.mark?.line ?? 1
                    let quote = line >= 1 && line <= lines.count ? lines[line - 1].trimmingCharacters(in: .whitespaces) : "\(name): \(scalar)"
                    result[name] = (scalar, SettingOrigin(location: FileLocation(file: shown, line: line), quote: quote, level: level))
                }
            }
            guard let mapping = node.mapping else { continue }
            let structured = mapping["base"] != nil || mapping["configs"] != nil || mapping["groups"] != nil
            if structured {
                add(mapping["base"]?.mapping, level: "\(shown) settings.base")
                // The Release configuration (the one archived), whatever its case.
                let configs = mapping["configs"]?.mapping ?? [:]
                if let release = configs.first(where: { $0.key.string?.lowercased() == "release" }) { add(release.value.mapping, level: "\(shown) settings.configs") }
            } else {
                add(mapping, level: "\(shown) settings")
            }
        }
        return result
    }

    /// XcodeGen's product types for targets beside the app: app extensions, and watch apps (which
    /// ask for HealthKit access themselves).
    static let extensionTypes: Set<String> = ["app-extension", "app-extension.messages", "app-extension.intents-service", "extensionkit-extension"]
    static let watchTypes: Set<String> = ["application.watchapp2", "application.watchapp", "application.watchapp2-container", "watchkit2-extension", "watchkit-extension"]

    /// The app's extensions and watch app, each with its Info.plist, entitlements and sources as
    /// the spec gives them: the targets the app embeds (`dependencies: - target:`), else every
    /// extension or watch target of the spec.
    private func addCompanionTargets(of app: String, in targets: [(file: SpecFile, key: Node, value: Node)], into discovery: inout Discovery) {
        func kind(_ node: Node) -> TargetKind? {
            let type = node.mapping?["type"]?.string ?? ""
            let platform = node.mapping?["platform"]?.string ?? ""
            if Self.watchTypes.contains(type) || (type == "application" && platform == "watchOS") { return .watchApp }
            if Self.extensionTypes.contains(type) { return platform == "watchOS" ? .watchApp : .appExtension }
            return nil
        }
        let embedded = Set(targets.filter { $0.key.string == app }.flatMap { $0.value.mapping?["dependencies"]?.sequence ?? [] }.compactMap { $0.mapping?["target"]?.string })
        var candidates: [(name: String, kind: TargetKind, parts: [(file: SpecFile, key: Node, value: Node)])] = []
        for target in targets {
            guard let name = target.key.string, name != app, !candidates.contains(where: { $0.name == name }),
                  let kind = targets.filter({ $0.key.string == name }).lazy.compactMap({ kind($0.value) }).first else { continue }
            candidates.append((name, kind, targets.filter { $0.key.string == name }))
        }
        if candidates.contains(where: { embedded.contains($0.name) }) { candidates = candidates.filter { embedded.contains($0.name) || $0.kind == .watchApp } }
        var taken = Set([discovery.config.id] + discovery.config.extensions.map(\.id))
        for candidate in candidates.prefix(16) {
            let id = ProjectDiscovery.identifier(for: candidate.name, taken: taken)
            taken.insert(id)
            let first = candidate.parts[0]
            var config = ExtensionConfig(id: id, name: candidate.name, kind: candidate.kind, infoPlist: nil, entitlements: nil, sources: [],
                                         location: FileLocation(file: first.file.shown, line: first.value.mark?.line))
            let folder = (first.file.path as NSString).deletingLastPathComponent
            func folderOrFile(_ written: String, directory: Bool) -> String? {
                [AppFiles.normalize(AppFiles.join(folder.isEmpty ? "." : folder, written)), AppFiles.normalize(written)].compactMap { $0 }
                    .first(where: directory ? files.isDirectory : files.exists)
            }
            for part in candidate.parts {
                if let properties = part.value.mapping?["info"]?.mapping?["properties"] {
                    discovery.infoPlists[id] = Self.document(properties, path: part.file.shown, text: part.file.text)
                } else if config.infoPlist == nil, let path = part.value.mapping?["info"]?.mapping?["path"]?.string.flatMap({ folderOrFile($0, directory: false) }) {
                    config.infoPlist = path
                }
                if let properties = part.value.mapping?["entitlements"]?.mapping?["properties"] {
                    discovery.entitlements[id] = Self.document(properties, path: part.file.shown, text: part.file.text)
                } else if config.entitlements == nil, let path = part.value.mapping?["entitlements"]?.mapping?["path"]?.string.flatMap({ folderOrFile($0, directory: false) }) {
                    config.entitlements = path
                }
                config.sources += (part.value.mapping?["sources"]?.sequence ?? []).compactMap { $0.string ?? $0.mapping?["path"]?.string }
                    .compactMap { folderOrFile($0, directory: true) }.filter { !config.sources.contains($0) }
            }
            discovery.config.extensions.append(config)
            discovery.fact("\(candidate.kind == .watchApp ? "watch app" : "extension") \(candidate.name) (XcodeGen target)", origin: Self.fileName,
                           at: config.location)
        }
    }

    static let frameworkTypes: Set<String> = ["framework", "library.static", "library.dynamic", "framework.static"]

    /// Framework and library targets `target` depends on, directly or through them, in spec order.
    private func linkedFrameworks(of target: String, in targets: [(String?, Node)]) -> [String] {
        func type(_ name: String) -> String? { targets.first { $0.0 == name && $0.1.mapping?["type"] != nil }?.1.mapping?["type"]?.string }
        func dependencies(_ name: String) -> [String] {
            targets.filter { $0.0 == name }.flatMap { $0.1.mapping?["dependencies"]?.sequence ?? [] }.compactMap { $0.mapping?["target"]?.string }
        }
        var found: [String] = []
        var pending = dependencies(target)
        while let next = pending.first, found.count < 32 {
            pending.removeFirst()
            guard !found.contains(next), next != target, let kind = type(next), Self.frameworkTypes.contains(kind) else { continue }
            found.append(next)
            pending += dependencies(next)
        }
        return found
    }

    /// What `check` without a config needs of a spec: its application target (declared in the
    /// spec or a file it includes), the project's `name:`, and whether its source paths start at
    /// the searched folder rather than the spec's own (`xcodegen --project-root`). Paths are
    /// relative to `folder`; nil when the spec declares no application.
    struct Application {
        var target: String
        var projectName: String?
        var pathsFromSearchRoot: Bool
    }

    static func application(spec: String, in folder: String, fileSystem: FileSystem) -> Application? {
        var budget = SpecBudget()
        var overBudget = false
        /// Each file once, within the spec's budget; nil for one that is absent, unreadable or over it.
        func node(_ relative: String) -> Node? {
            guard budget.visited.insert(relative).inserted, let data = try? fileSystem.contents(of: folder + "/" + relative) else { return nil }
            let text = String(decoding: data, as: UTF8.self)
            do { try budget.spend(text, file: relative) } catch {
                overBudget = true
                return nil
            }
            guard let node = try? YAMLReader.composeExpanding(text, file: relative, limit: budget.valuesLeft) else { return nil }
            budget.count(node)
            return node
        }
        guard let root = node(spec) else {
            // Found all the same, named after its folder: the audit then says why it is not read.
            let name = ((folder + "/" + spec) as NSString).deletingLastPathComponent
            return overBudget ? Application(target: (name as NSString).lastPathComponent, projectName: nil, pathsFromSearchRoot: false) : nil
        }
        let specFolder = (spec as NSString).deletingLastPathComponent
        var files = [root]
        for include in Self.includes(of: root) {
            guard let written = include.string ?? include.mapping?["path"]?.string else { continue }
            let candidates = [AppFiles.normalize(AppFiles.join(specFolder.isEmpty ? "." : specFolder, written)), AppFiles.normalize(written)].compactMap { $0 }
            if let found = candidates.first(where: { fileSystem.fileExists(folder + "/" + $0) && !budget.visited.contains($0) }).flatMap(node) { files.append(found) }
        }
        let templates = Self.templates(in: files)
        let targets = files.flatMap { file in
            (file.mapping?["targets"]?.mapping ?? [:]).map { (key: $0.key.string, value: applyingTemplates(to: $0.value, named: $0.key.string ?? "", templates: templates)) }
        }
        guard let target = targets.first(where: { $0.value.mapping?["type"]?.string == "application" && $0.value.mapping?["platform"]?.string != "watchOS" })?.key
        else { return nil }
        let sources = targets.filter { $0.key == target }.flatMap { $0.value.mapping?["sources"]?.sequence ?? [] }
            .compactMap { $0.string ?? $0.mapping?["path"]?.string }
        let exists = { (base: String, path: String) in
            AppFiles.normalize(AppFiles.join(base.isEmpty ? "." : base, path)).map { fileSystem.fileExists(folder + "/" + $0) } ?? false
        }
        let fromSearchRoot = !specFolder.isEmpty && specFolder != "." && !sources.isEmpty
            && !sources.contains { exists(specFolder, $0) } && sources.contains { exists(".", $0) }
        return Application(target: target, projectName: root.mapping?["name"]?.string, pathsFromSearchRoot: fromSearchRoot)
    }

    /// The files a spec includes as XcodeGen reads `include:`: one path, or a list of paths and
    /// `{path:, enable:}` entries, an entry with `enable: false` left out.
    static func includes(of root: Node) -> [Node] {
        guard let include = root.mapping?["include"] else { return [] }
        let entries = include.sequence.map(Array.init) ?? [include]
        return entries.filter { entry in
            !["false", "NO", "no", "False"].contains(entry.mapping?["enable"]?.string ?? "")
        }
    }

    /// `targetTemplates:` of the spec and the files it includes, by name (the first definition wins).
    static func templates(in roots: [Node]) -> [String: Node] {
        var found: [String: Node] = [:]
        for root in roots {
            for (key, value) in root.mapping?["targetTemplates"]?.mapping ?? [:] {
                if let name = key.string, found[name] == nil { found[name] = value }
            }
        }
        return found
    }

    /// A target with the templates it lists merged under it, as XcodeGen applies them: each
    /// template (and the templates it lists) in order, the target's own keys winning, mappings
    /// merged key by key, `${target_name}` replaced by the target's name.
    static func applyingTemplates(to target: Node, named name: String, templates: [String: Node]) -> Node {
        guard let listed = target.mapping?["templates"]?.sequence, !templates.isEmpty else { return target }
        var visited: Set<String> = []
        func expanded(_ template: String, depth: Int) -> Node? {
            guard depth < 8, visited.insert(template).inserted, let node = templates[template] else { return nil }
            let inner = (node.mapping?["templates"]?.sequence ?? []).compactMap { $0.string }.compactMap { expanded($0, depth: depth + 1) }
            return inner.reversed().reduce(node) { merged(over: $1, $0) }
        }
        let base = listed.compactMap { $0.string }.compactMap { expanded($0, depth: 0) }
        guard let first = base.first else { return target }
        let combined = base.dropFirst().reduce(first) { merged(over: $0, $1) }
        return merged(over: substituting(combined, name: name, depth: 0), target)
    }

    /// `top` laid over `bottom`: keys of `top` win; two mappings under one key are merged the same way.
    private static func merged(over bottom: Node, _ top: Node) -> Node {
        guard let below = bottom.mapping, let above = top.mapping else { return top }
        var pairs: [(Node, Node)] = []
        var keys: Set<String> = []
        for (key, value) in above {
            let name = key.string ?? ""
            keys.insert(name)
            if let under = below[name], under.mapping != nil, value.mapping != nil { pairs.append((key, merged(over: under, value))) } else { pairs.append((key, value)) }
        }
        for (key, value) in below where !keys.contains(key.string ?? "") && key.string != "templates" { pairs.append((key, value)) }
        return .mapping(Node.Mapping(pairs, above.tag, above.style, above.mark))
    }

    private static func substituting(_ node: Node, name: String, depth: Int) -> Node {
        guard depth < InputLimits.maxNestingDepth else { return node }
        switch node {
        case .scalar(let scalar):
            guard scalar.string.contains("${target_name}") || scalar.string.contains("$target_name") else { return node }
            var copy = scalar
            copy.string = scalar.string.replacingOccurrences(of: "${target_name}", with: name).replacingOccurrences(of: "$target_name", with: name)
            return .scalar(copy)
        case .sequence(let sequence):
            return .sequence(Node.Sequence(sequence.map { substituting($0, name: name, depth: depth + 1) }, sequence.tag, sequence.style, sequence.mark))
        case .mapping(let mapping):
            return .mapping(Node.Mapping(mapping.map { ($0.key, substituting($0.value, name: name, depth: depth + 1)) }, mapping.tag, mapping.style, mapping.mark))
        case .alias: return node
        }
    }

    /// What one spec may read with its includes: each file once, and a bound on bytes and values in
    /// all (YAML is read at a few MB/s), so a file included a hundred times, or a spec of megabytes,
    /// is not read for minutes. Over the bound is an input error naming the file.
    struct SpecBudget {
        static let maxFiles = 64
        static let scope = "this XcodeGen spec and the files it includes"
        var visited: Set<String> = []
        private var files = 0
        private var bytes = 0
        private var values = 0

        /// Counts `text` against the budget before it is parsed.
        mutating func spend(_ text: String, file: String) throws {
            files += 1
            if files > Self.maxFiles { throw InputError("\(Self.scope) are more than \(Self.maxFiles) files; not read", file: file, line: 1) }
            try YAMLReader.checkSize(text, file: file, spent: (bytes, values), scope: Self.scope)
            bytes += text.utf8.count
        }

        /// Adds a parsed file's values, its aliases expanded (`composeExpanding` has checked that they fit).
        mutating func count(_ node: Node) { values += Self.values(in: node) }

        /// The values the next file may expand to.
        var valuesLeft: Int { max(0, InputLimits.maxYAMLValues - values) }

        private static func values(in node: Node) -> Int {
            switch node {
            case .scalar, .alias: return 1
            case .sequence(let items): return items.reduce(1) { $0 + values(in: $1) }
            case .mapping(let pairs): return pairs.reduce(1) { $0 + values(in: $1.key) + values(in: $1.value) }
            }
        }
    }

    /// Reads a spec file and, depth first, the files its `include:` names: relative to the including
    /// file, else to the app root (specs generated with `--project-root`). Four levels at most, each
    /// file once.
    private func read(_ path: String, into specs: inout [SpecFile], budget: inout SpecBudget, discovery: inout Discovery, depth: Int) throws {
        guard depth <= 4, budget.visited.insert(path).inserted, let text = files.text(path) else { return }
        let shown = files.display(path)
        try budget.spend(text, file: shown)
        let root: Node
        do { root = try YAMLReader.composeExpanding(text, file: shown, limit: budget.valuesLeft) } catch let error as InputError {
            let problem = error.problems.first ?? InputProblem("unreadable", file: shown)
            // A file that does not parse, or whose aliases expand past the bound: the audit goes on
            // without that file and says so.
            discovery.note("\(shown) is not read (\(problem.message)); name info_plist and entitlements in the config to audit them",
                           origin: Self.fileName, at: problem.location)
            return
        } catch {
            return
        }
        budget.count(root)
        specs.append(SpecFile(path: path, shown: shown, text: text, root: root))
        let folder = (path as NSString).deletingLastPathComponent
        for include in Self.includes(of: root) {
            guard let written = include.string ?? include.mapping?["path"]?.string else { continue }
            let candidates = [AppFiles.normalize(AppFiles.join(folder.isEmpty ? "." : folder, written)), AppFiles.normalize(written)].compactMap { $0 }
            if let found = candidates.first(where: files.exists) {
                try read(found, into: &specs, budget: &budget, discovery: &discovery, depth: depth + 1)
            } else {
                discovery.note("\(shown) includes \(written), which is not in the app folder; not read", origin: Self.fileName,
                               at: FileLocation(file: shown, line: include.mark?.line))
            }
        }
    }

    /// A mapping of plist keys as a property-list document, each key citing its line.
    static func document(_ node: Node, path: String, text: String) -> PropertyListDocument {
        var root: [String: PlistValue] = [:], lines: [String: Int] = [:]
        for (key, value) in node.mapping ?? [:] {
            guard let name = key.string else { continue }
            root[name] = plistValue(value, depth: 0)
            lines[name] = key.mark?.line
        }
        return .synthesized(path: path, format: .xcodeGen, root: root, keyLines: lines, rootLine: node.mark?.line ?? 1, text: text)
    }

    private static func plistValue(_ node: Node, depth: Int) -> PlistValue {
        guard depth < InputLimits.maxNestingDepth else { return .string("") }
        switch node {
        case .scalar(let scalar):
            switch scalar.string {
            case "true", "YES", "yes": return .bool(true)
            case "false", "NO", "no": return .bool(false)
            default: return .string(scalar.string)
            }
        case .sequence(let items): return .array(items.map { plistValue($0, depth: depth + 1) })
        case .mapping(let pairs):
            var result: [String: PlistValue] = [:]
            for (key, value) in pairs { if let name = key.string { result[name] = plistValue(value, depth: depth + 1) } }
            return .dictionary(result)
        case .alias: return .string("")
        }
    }
}
