import Foundation

/// The parts of an Xcode project (`App.xcodeproj/project.pbxproj`) the audit needs: native targets and
/// their product types, build configurations and settings (each with its line), and the files of each
/// target's build phases with their paths resolved through the group tree.
public struct XcodeProject: Sendable {
    /// Site-relative path of `project.pbxproj`, for evidence.
    public let file: String
    /// Folder of the `.xcodeproj`, relative to the app root (`"."` or `"ios"`): `$(SRCROOT)`.
    public let projectDirectory: String
    /// `Runner` for `Runner.xcodeproj`: `$(PROJECT_NAME)`.
    public let name: String
    public let developmentRegion: String?
    public let targets: [Target]
    /// The project-level configurations (targets inherit from them).
    public let configurations: ConfigurationList
    /// Line of the `PBXProject` object.
    public let projectLine: Int

    private let objects: [String: OpenStepNode]
    private let groups: GroupTree
    private let rootObjectID: String

    public enum ProductKind: String, Sendable {
        case application = "application"
        case appExtension = "app extension"
        case watchApp = "watch app"
        case watchExtension = "watch extension"
        case tests = "tests"
        case framework = "framework or library"
        case other = "other"

        init(productType: String) {
            switch productType {
            case "com.apple.product-type.application", "com.apple.product-type.application.messages",
                 "com.apple.product-type.application.on-demand-install-capable":
                self = .application
            case "com.apple.product-type.app-extension", "com.apple.product-type.extensionkit-extension",
                 "com.apple.product-type.app-extension.messages", "com.apple.product-type.app-extension.messages-sticker-pack":
                self = .appExtension
            case "com.apple.product-type.application.watchapp", "com.apple.product-type.application.watchapp2",
                 "com.apple.product-type.application.watchapp2-container":
                self = .watchApp
            case "com.apple.product-type.watchkit-extension", "com.apple.product-type.watchkit2-extension":
                self = .watchExtension
            case "com.apple.product-type.bundle.unit-test", "com.apple.product-type.bundle.ui-testing":
                self = .tests
            case "com.apple.product-type.framework", "com.apple.product-type.library.static", "com.apple.product-type.library.dynamic",
                 "com.apple.product-type.bundle":
                self = .framework
            default:
                self = .other
            }
        }
    }

    public struct Target: Sendable {
        public var id: String
        public var name: String
        public var productType: String
        public var kind: ProductKind
        public var line: Int
        public var configurations: ConfigurationList
        /// Ids of the targets this one depends on (embedded extensions, watch apps).
        public var dependencies: [String]
        fileprivate var buildPhases: [String]
        fileprivate var synchronizedGroups: [String]
    }

    public struct ConfigurationList: Sendable {
        public var configurations: [Configuration]
        public var defaultName: String?
        public func named(_ name: String) -> Configuration? { configurations.first { $0.name == name } }
    }

    public struct Configuration: Sendable {
        public var name: String
        public var line: Int
        public var settings: [BuildSetting]
        /// The `.xcconfig` this configuration is based on, as a path relative to the app root.
        public var baseConfiguration: ResolvedFile?
    }

    /// One `KEY = value;` line of a configuration's `buildSettings`.
    public struct BuildSetting: Sendable {
        public var key: String
        /// List values (`("$(inherited)", "@executable_path/Frameworks")`) are joined with spaces, as Xcode does.
        public var value: String
        public var line: Int
        public var file: String
        /// Byte offset of the key in the project file (for quoting a long line).
        public var offset: Int?
    }

    /// A file of the project with its path relative to the app root (nil when it lives outside the
    /// project, e.g. in the SDK or the build folder).
    public struct ResolvedFile: Sendable, Hashable {
        public var path: String?
        public var name: String
        public var line: Int
        /// Why the path could not be used, when `path` is nil.
        public var reason: String?
        /// Paths the file would have through the other groups that list it (see `GroupTree`).
        public var otherPaths: [String] = []
    }

    /// Reads `<projectDirectory>/<name>.xcodeproj/project.pbxproj`. `projectPath` is relative to the app root.
    public init(data: Data, file: String, projectPath: String) throws {
        let root = try OpenStepPlistParser.parse(data, file: file)
        self.file = file
        let folder = (projectPath as NSString).deletingLastPathComponent
        projectDirectory = folder.isEmpty ? "." : folder
        name = ((projectPath as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let objectsNode = root["objects"], let objectEntries = objectsNode.entries else {
            throw InputError("not an Xcode project: no 'objects' dictionary", file: file, line: root.line)
        }
        var objects: [String: OpenStepNode] = [:]
        for entry in objectEntries { objects[entry.key] = entry.value }
        self.objects = objects
        guard let rootID = root["rootObject"]?.string, let project = objects[rootID], project["isa"]?.string == "PBXProject" else {
            throw InputError("not an Xcode project: 'rootObject' does not name a PBXProject", file: file, line: root["rootObject"]?.line ?? root.line)
        }
        rootObjectID = rootID
        projectLine = project.line
        developmentRegion = project["developmentRegion"]?.string
        groups = GroupTree(objects: objects, fileOrder: objectEntries.map(\.key), mainGroup: project["mainGroup"]?.string)
        var partial = PathResolver(objects: objects, groups: groups, projectDirectory: projectDirectory,
                                   projectDirPath: project["projectDirPath"]?.string ?? "", mainGroup: project["mainGroup"]?.string, file: file)
        configurations = Self.configurationList(project["buildConfigurationList"]?.string, objects: objects, file: file, resolver: &partial)
        var targets: [Target] = []
        for id in project["targets"]?.strings ?? [] {
            guard let target = objects[id], target["isa"]?.string == "PBXNativeTarget" else { continue }
            let productType = target["productType"]?.string ?? ""
            let dependencies = (target["dependencies"]?.strings ?? []).compactMap { objects[$0]?["target"]?.string }
            targets.append(Target(
                id: id, name: target["name"]?.string ?? id, productType: productType, kind: ProductKind(productType: productType),
                line: target.line, configurations: Self.configurationList(target["buildConfigurationList"]?.string, objects: objects, file: file, resolver: &partial),
                dependencies: dependencies, buildPhases: target["buildPhases"]?.strings ?? [],
                synchronizedGroups: target["fileSystemSynchronizedGroups"]?.strings ?? []
            ))
        }
        self.targets = targets
    }

    private static func configurationList(_ id: String?, objects: [String: OpenStepNode], file: String, resolver: inout PathResolver) -> ConfigurationList {
        guard let id, let list = objects[id] else { return ConfigurationList(configurations: [], defaultName: nil) }
        let configurations = (list["buildConfigurations"]?.strings ?? []).compactMap { configID -> Configuration? in
            guard let node = objects[configID] else { return nil }
            let settings = (node["buildSettings"]?.entries ?? []).map { entry in
                BuildSetting(key: entry.key, value: entry.value.strings.joined(separator: " "), line: entry.keyLine, file: file, offset: entry.keyOffset)
            }
            let base = node["baseConfigurationReference"]?.string.map { resolver.resolve($0) }
            return Configuration(name: node["name"]?.string ?? configID, line: node.line, settings: settings, baseConfiguration: base)
        }
        return ConfigurationList(configurations: configurations, defaultName: list["defaultConfigurationName"]?.string)
    }

    private var resolver: PathResolver {
        let project = objects[rootObjectID]
        return PathResolver(objects: objects, groups: groups, projectDirectory: projectDirectory,
                            projectDirPath: project?["projectDirPath"]?.string ?? "", mainGroup: project?["mainGroup"]?.string, file: file)
    }

    /// Files of the target's build phases of one kind (`PBXSourcesBuildPhase`, `PBXResourcesBuildPhase`).
    public func files(of target: Target, phase isa: String) -> [ResolvedFile] {
        var resolver = self.resolver
        return target.buildPhases.compactMap { objects[$0] }.filter { $0["isa"]?.string == isa }.flatMap { phase in
            (phase["files"]?.strings ?? []).compactMap { buildFileID -> ResolvedFile? in
                guard let buildFile = objects[buildFileID], let ref = buildFile["fileRef"]?.string else { return nil }
                var resolved = resolver.resolve(ref)
                resolved.line = buildFile.line
                return resolved
            }
        }
    }

    /// The strings files and string catalogs the target's Resources phase copies into the bundle: a
    /// variant group's per-language files (`en.lproj/InfoPlist.strings`) and `.xcstrings` catalogs,
    /// wherever they sit in the project.
    public func localizedResources(of target: Target) -> [ResolvedFile] {
        var resolver = self.resolver
        var result: [ResolvedFile] = []
        for phase in target.buildPhases.compactMap({ objects[$0] }) where phase["isa"]?.string == "PBXResourcesBuildPhase" {
            for buildFileID in phase["files"]?.strings ?? [] {
                guard let ref = objects[buildFileID]?["fileRef"]?.string, let object = objects[ref] else { continue }
                if object["isa"]?.string == "PBXVariantGroup" {
                    result += (object["children"]?.strings ?? []).map { resolver.resolve($0) }
                } else {
                    result.append(resolver.resolve(ref))
                }
            }
        }
        return result.filter { file in file.path.map { $0.hasSuffix(".strings") || $0.hasSuffix(".xcstrings") } ?? false }
    }

    /// Folders of the local Swift packages whose products the target links
    /// (`XCSwiftPackageProductDependency` → `XCLocalSwiftPackageReference.relativePath`), relative to
    /// the project's folder, with the line of the reference.
    public func localPackages(of target: Target) -> [(path: String, line: Int, products: [String])] {
        guard let node = objects[target.id] else { return [] }
        var found: [(path: String, line: Int, products: [String])] = []
        var indexByPackage: [String: Int] = [:]
        for id in node["packageProductDependencies"]?.strings ?? [] {
            guard let product = objects[id], let packageID = product["package"]?.string,
                  let reference = objects[packageID], reference["isa"]?.string == "XCLocalSwiftPackageReference",
                  let path = reference["relativePath"]?.string else { continue }
            let name = product["productName"]?.string
            if let index = indexByPackage[packageID] {
                if let name, !found[index].products.contains(name) { found[index].products.append(name) }
                continue
            }
            indexByPackage[packageID] = found.count
            found.append((projectDirectory == "." ? path : projectDirectory + "/" + path, reference.line, name.map { [$0] } ?? []))
        }
        return found
    }

    /// Package products the target links with no package reference: a local package added to the
    /// project as a folder (its `Package.swift` makes it one), the way Xcode did before
    /// `XCLocalSwiftPackageReference`.
    public func unreferencedPackageProducts(of target: Target) -> [String] {
        guard let node = objects[target.id] else { return [] }
        return (node["packageProductDependencies"]?.strings ?? []).compactMap { id in
            guard let product = objects[id], product["package"] == nil else { return nil }
            return product["productName"]?.string
        }
    }

    /// Folders the project references as files (`lastKnownFileType = folder` or `wrapper`), relative
    /// to the app root, with their lines: where a local package added as a folder sits.
    public func folderReferences() -> [(path: String, line: Int)] {
        var resolver = self.resolver
        return objects.filter { $0.value["isa"]?.string == "PBXFileReference" && ["folder", "wrapper"].contains($0.value["lastKnownFileType"]?.string ?? "") }
            .sorted { $0.value.line < $1.value.line }
            .compactMap { entry in resolver.resolve(entry.key).path.map { ($0, entry.value.line) } }
    }

    /// Folders of Xcode 16's synchronized groups (every file inside belongs to the target), with the
    /// files the target excludes, both relative to the app root.
    public func synchronizedFolders(of target: Target) -> [(folder: ResolvedFile, excluded: Set<String>)] {
        var resolver = self.resolver
        return target.synchronizedGroups.compactMap { id -> (ResolvedFile, Set<String>)? in
            guard let group = objects[id] else { return nil }
            let folder = resolver.resolve(id)
            var excluded: Set<String> = []
            for exceptionID in group["exceptions"]?.strings ?? [] {
                guard let exception = objects[exceptionID], exception["target"]?.string == target.id else { continue }
                excluded.formUnion(exception["membershipExceptions"]?.strings ?? [])
            }
            return (folder, excluded)
        }
    }

    /// The group folder holding the target's files: the group named like the target, else the
    /// folder most of its sources live in.
    public func folder(of target: Target) -> String? {
        var resolver = self.resolver
        // In group-tree order, so of two groups named like the target the first in the navigator wins.
        for id in groups.order {
            guard let object = objects[id], object["isa"]?.string == "PBXGroup" || object["isa"]?.string == "PBXFileSystemSynchronizedRootGroup" else { continue }
            let label = object["path"]?.string ?? object["name"]?.string
            if label == target.name, let path = resolver.resolve(id).path { return path }
        }
        let folders = files(of: target, phase: "PBXSourcesBuildPhase").compactMap { $0.path.map { ($0 as NSString).deletingLastPathComponent } }
        let counts = Dictionary(folders.map { ($0, 1) }, uniquingKeysWith: +)
        return counts.max { a, b in (a.value, b.key) < (b.value, a.key) }?.key
    }
}

/// The group tree, walked once in a fixed order so every run resolves the same way.
///
/// A member listed in several groups takes as its parent the group that lists it first in a depth-first,
/// pre-order walk from the main group in `children` order: the first place it appears in Xcode's
/// navigator with every group expanded. Groups the main group does not reach are walked afterwards in
/// the order the project file lists them. The other groups are kept (`otherParents`) so discovery can
/// say which paths were not chosen.
struct GroupTree: Sendable {
    static let groupKinds: Set<String> = ["PBXGroup", "PBXVariantGroup", "XCVersionGroup"]

    private(set) var parents: [String: String] = [:]
    private(set) var otherParents: [String: [String]] = [:]
    /// Every member (groups and files), in walk order.
    private(set) var order: [String] = []

    init(objects: [String: OpenStepNode], fileOrder: [String], mainGroup: String?) {
        var visited: Set<String> = []
        let groupIDs = fileOrder.filter { Self.groupKinds.contains(objects[$0]?["isa"]?.string ?? "") }
        for start in (mainGroup.map { [$0] } ?? []) + groupIDs where !visited.contains(start) {
            walk(from: start, objects: objects, visited: &visited)
        }
    }

    /// Pre-order depth-first walk with an explicit stack (a hostile project may nest groups deeply).
    private mutating func walk(from start: String, objects: [String: OpenStepNode], visited: inout Set<String>) {
        visited.insert(start)
        order.append(start)
        var stack: [(children: [String], next: Int, group: String)] = [(objects[start]?["children"]?.strings ?? [], 0, start)]
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].children.count else { stack.removeLast(); continue }
            let child = stack[top].children[stack[top].next]
            let group = stack[top].group
            stack[top].next += 1
            if parents[child] == nil, child != start { parents[child] = group } else if parents[child] != group {
                otherParents[child, default: []].append(group)
            }
            guard !visited.contains(child) else { continue }
            visited.insert(child)
            order.append(child)
            if let node = objects[child], Self.groupKinds.contains(node["isa"]?.string ?? "") {
                stack.append((node["children"]?.strings ?? [], 0, child))
            }
        }
    }
}

/// Resolves a file reference's path by walking up its groups: `<group>` is relative to the parent
/// group, `SOURCE_ROOT` (and `SRCROOT`/`PROJECT_DIR`) to the project folder; `SDKROOT`,
/// `BUILT_PRODUCTS_DIR`, `DEVELOPER_DIR` and absolute paths point outside the project and are ignored.
private struct PathResolver {
    let objects: [String: OpenStepNode]
    let groups: GroupTree
    let projectDirectory: String
    let projectDirPath: String
    let mainGroup: String?
    let file: String
    var cache: [String: String?] = [:]
    var reasons: [String: String] = [:]

    init(objects: [String: OpenStepNode], groups: GroupTree, projectDirectory: String, projectDirPath: String, mainGroup: String?, file: String) {
        self.objects = objects; self.groups = groups; self.projectDirectory = projectDirectory
        self.projectDirPath = projectDirPath; self.mainGroup = mainGroup; self.file = file
    }

    mutating func resolve(_ id: String) -> XcodeProject.ResolvedFile {
        let node = objects[id]
        let name = node?["path"]?.string.map { ($0 as NSString).lastPathComponent } ?? node?["name"]?.string ?? id
        let path = folder(of: id, depth: 0)
        var resolved = XcodeProject.ResolvedFile(path: path, name: name, line: node?.line ?? 1, reason: path == nil ? (reasons[id] ?? "not found in the project") : nil)
        if (node?["sourceTree"]?.string ?? "<group>") == "<group>" {
            let own = node?["path"]?.string ?? ""
            for other in (groups.otherParents[id] ?? []).prefix(8) {
                guard let base = folder(of: other, depth: 1), !own.hasPrefix("/"), let alternative = AppFiles.normalize(AppFiles.join(base, own)) else { continue }
                if alternative != path, !resolved.otherPaths.contains(alternative) { resolved.otherPaths.append(alternative) }
            }
        }
        return resolved
    }

    private var root: String {
        let joined = projectDirectory == "." ? projectDirPath : (projectDirPath.isEmpty ? projectDirectory : projectDirectory + "/" + projectDirPath)
        return joined.isEmpty ? "." : joined
    }

    private mutating func folder(of id: String, depth: Int) -> String? {
        if let cached = cache[id] { return cached }
        guard depth < InputLimits.maxNestingDepth, let node = objects[id] else { return nil }
        let own = node["path"]?.string ?? ""
        let tree = node["sourceTree"]?.string ?? "<group>"
        let base: String?
        if id == mainGroup {
            base = root
        } else {
            switch tree {
            case "<group>":
                if let parent = groups.parents[id] { base = folder(of: parent, depth: depth + 1) } else { base = root }
                if base == nil { reasons[id] = groups.parents[id].flatMap { reasons[$0] } ?? "its group is outside the project" }
            case "SOURCE_ROOT", "SRCROOT", "PROJECT_DIR":
                base = root
            case "<absolute>":
                base = nil; reasons[id] = "absolute path '\(own)'"
            default:
                base = nil; reasons[id] = "relative to \(tree), outside the project"
            }
        }
        var result: String?
        if let base {
            let joined = own.isEmpty ? base : (base == "." ? own : base + "/" + own)
            if own.hasPrefix("/") {
                reasons[id] = "absolute path '\(own)'"
            } else if let contained = try? ContainedPath.resolve(joined, in: "") {
                result = contained.isEmpty ? "." : String(contained.dropFirst())
            } else {
                reasons[id] = "'\(joined)' leaves the app folder"
            }
        }
        cache[id] = result
        return result
    }
}
