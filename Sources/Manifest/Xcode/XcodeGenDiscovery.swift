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
        let targetNodes = specs.flatMap { file in (file.root.mapping?["targets"]?.mapping ?? [:]).map { (file: file, key: $0.key, value: $0.value) } }
        // The application target named like the app, else the first one.
        let applications = targetNodes.filter { $0.value.mapping?["type"]?.string == "application" }.compactMap { node -> String? in node.key.string }
        guard let name = applications.first(where: { $0 == discovery.config.name }) ?? applications.first else { return }
        let parts = targetNodes.filter { $0.key.string == name }
        let explicit = discovery.config.explicitKeys
        let defined = parts.first { $0.value.mapping?["type"]?.string == "application" } ?? parts[0]
        discovery.fact("XcodeGen target \(name) in \(defined.file.shown)" + (specs.count > 1 ? " (\(specs.count) spec files with its includes)" : ""),
                       origin: main.shown, at: FileLocation(file: defined.file.shown, line: defined.value.mark?.line))
        func document(_ section: String) -> PropertyListDocument? {
            let documents = parts.compactMap { part in
                part.value.mapping?[section]?.mapping?["properties"].map { Self.document($0, path: part.file.shown, text: part.file.text) }
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
            if !paths.isEmpty {
                discovery.config.sources = paths
                discovery.fact("\(Plural.count(paths.count, "source folder")) from sources", origin: Self.fileName, at: FileLocation(file: defined.file.shown, line: defined.value.mark?.line))
            }
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
            guard let node = try? YAMLReader.compose(text, file: relative) else { return nil }
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
        for include in root.mapping?["include"]?.sequence ?? [] {
            guard let written = include.string ?? include.mapping?["path"]?.string else { continue }
            let candidates = [AppFiles.normalize(AppFiles.join(specFolder.isEmpty ? "." : specFolder, written)), AppFiles.normalize(written)].compactMap { $0 }
            if let found = candidates.first(where: { fileSystem.fileExists(folder + "/" + $0) && !budget.visited.contains($0) }).flatMap(node) { files.append(found) }
        }
        let targets = files.flatMap { file in (file.mapping?["targets"]?.mapping ?? [:]).map { (key: $0.key.string, value: $0.value) } }
        guard let target = targets.first(where: { $0.value.mapping?["type"]?.string == "application" })?.key else { return nil }
        let sources = targets.filter { $0.key == target }.flatMap { $0.value.mapping?["sources"]?.sequence ?? [] }
            .compactMap { $0.string ?? $0.mapping?["path"]?.string }
        let exists = { (base: String, path: String) in
            AppFiles.normalize(AppFiles.join(base.isEmpty ? "." : base, path)).map { fileSystem.fileExists(folder + "/" + $0) } ?? false
        }
        let fromSearchRoot = !specFolder.isEmpty && specFolder != "." && !sources.isEmpty
            && !sources.contains { exists(specFolder, $0) } && sources.contains { exists(".", $0) }
        return Application(target: target, projectName: root.mapping?["name"]?.string, pathsFromSearchRoot: fromSearchRoot)
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

        /// Adds a parsed file's values (`spend` has checked that they fit).
        mutating func count(_ node: Node) { values += Self.values(in: node) }

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
        do { root = try YAMLReader.compose(text, file: shown) } catch let error as InputError {
            let problem = error.problems.first ?? InputProblem("unreadable", file: shown)
            // XcodeGen files often use anchors, which this reader refuses (alias bombs): not an error
            // of the app, so the audit goes on without that file and says so.
            discovery.note("\(shown) is not read (\(problem.message)); name info_plist and entitlements in the config to audit them",
                           origin: Self.fileName, at: problem.location)
            return
        } catch {
            return
        }
        budget.count(root)
        specs.append(SpecFile(path: path, shown: shown, text: text, root: root))
        let folder = (path as NSString).deletingLastPathComponent
        for include in root.mapping?["include"]?.sequence ?? [] {
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
