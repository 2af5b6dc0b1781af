import Foundation

/// Finds the apps in a folder the way their toolchains see them, for `healthaudit check` without a
/// config: each folder is offered to the app-kind drivers (`AppKindDrivers.all`: React Native /
/// Expo, Capacitor, Cordova, Flutter, XcodeGen, Tuist, Xcode) in turn. Dependency and build
/// folders are never entered.
public enum AppDiscovery {
    public struct App: Sendable, Equatable {
        public var id: String
        public var name: String
        /// `swift`, `react-native`, `flutter` or `cordova`.
        public var kind: String
        /// Relative to the searched folder.
        public var root: String
        /// Relative to `root`; nil for React Native (its own discovery finds `ios/`).
        public var project: String?
        /// An XcodeGen spec relative to `root`, when its paths are relative to a folder above it.
        public var xcodegen: String? = nil
        /// What was recognised, for the message and the generated config's comment.
        public var reason: String
    }

    static let skipped: Set<String> = ["Pods", "node_modules", "DerivedData", "build", ".build", "Carthage", ".git", "vendor", ".dart_tool",
                                       "Build", "android", ".expo", "dist", "Tests", "fastlane"]
    static let maxDepth = 6

    /// Reads through `fileSystem`, by default one confined to `folder`: a symlinked `package.json`
    /// or project file cannot make discovery read outside the folder it was pointed at.
    public static func find(in folder: String, fileSystem: FileSystem? = nil, parseBudget: ParseBudget = ParseBudget()) -> [App] {
        survey(in: folder, fileSystem: fileSystem, parseBudget: parseBudget).apps
    }

    /// A folder that looks like a project but is not one, with why (shown beside the apps found).
    public struct Skipped: Sendable, Equatable {
        /// Relative to the searched folder.
        public var path: String
        public var reason: String
    }

    /// The apps found, and the project folders passed over with why: an `.xcodeproj` folder
    /// without its `project.pbxproj` is not a project (Xcode cannot open it), so the spec beside
    /// it (`project.yml`, `Project.swift`) is the app, else the folder is reported as skipped.
    public static func survey(in folder: String, fileSystem: FileSystem? = nil, parseBudget: ParseBudget = ParseBudget()) -> (apps: [App], skipped: [Skipped]) {
        let fileSystem = fileSystem ?? LocalFileSystem(confinedTo: [folder])
        let budget = parseBudget
        var apps: [App] = []
        var skipped: [Skipped] = []
        // App roots whose folders belong to them: a React Native, Flutter, Capacitor or Cordova
        // app's ios/ is not another app. A native app's folder may hold other apps (an example
        // app, a second product), so it claims nothing below.
        var claimed: [String] = []
        walk(folder, relative: "", depth: 0, fileSystem: fileSystem) { relative, names in
            let here = relative.isEmpty ? "." : relative
            if claimed.contains(where: { $0 == "." || here == $0 || here.hasPrefix($0 + "/") }) { return }
            let visited = DiscoveryFolder(searchRoot: folder, relative: relative, names: names, fileSystem: fileSystem, parseBudget: budget)
            // The first driver that recognises the folder has it.
            for driver in AppKindDrivers.all {
                guard let found = driver.detect(in: visited) else { continue }
                apps += found.apps
                skipped += found.skipped
                if found.claimsFolder { claimed.append(here) }
                return
            }
        }
        // Ids must be unique: a second app of the same name gets its folder in the id.
        var seen: [String: Int] = [:]
        let unique = apps.map { app in
            var app = app
            let count = seen[app.id, default: 0]
            seen[app.id] = count + 1
            if count > 0 { app.id += "-\(count + 1)" }
            return app
        }
        // A Flutter or React Native app's own ios/ folder is the app's to report, not a skipped project.
        let appFolders = unique.filter { $0.kind != "swift" }.map(\.root)
        skipped = skipped.filter { entry in !appFolders.contains { entry.path.hasPrefix($0 == "." ? "" : $0 + "/") } }
        let (kept, libraries) = withoutLibraryProjects(unique, in: folder, fileSystem: fileSystem)
        return (kept, skipped + libraries)
    }

    /// A project that builds a framework another found app links (a workspace sibling, a library
    /// checked out beside the app) is that app's code, read with it; its own application targets are
    /// the library's example apps, not apps of the repository.
    private static func withoutLibraryProjects(_ apps: [App], in folder: String, fileSystem: FileSystem) -> ([App], [Skipped]) {
        let projects = Set(apps.compactMap { app in app.kind == "swift" && app.root == "." ? app.project : nil }).sorted()
        guard projects.count > 1 else { return (apps, []) }
        var built: [String: Set<String>] = [:], linked: [String: Set<String>] = [:]
        for path in projects {
            guard let data = try? fileSystem.contents(of: folder + "/" + path + "/project.pbxproj"),
                  let project = try? XcodeProject(data: data, file: path + "/project.pbxproj", projectPath: path) else { continue }
            let own = Set(project.targets.map(\.name))
            built[path] = Set(project.targets.filter { $0.kind == .framework }.map(\.name))
            linked[path] = Set(project.targets.filter { $0.kind == .application }.flatMap { project.files(of: $0, phase: "PBXFrameworksBuildPhase") }
                .map(\.name).filter { $0.hasSuffix(".framework") }.map { String($0.dropLast(".framework".count)) }.filter { !own.contains($0) })
        }
        var skipped: [Skipped] = []
        var libraries: Set<String> = []
        for path in projects {
            let frameworks = built[path] ?? []
            guard let user = projects.first(where: { other in
                other != path && !(linked[other] ?? []).isDisjoint(with: frameworks) && (linked[path] ?? []).isDisjoint(with: built[other] ?? [])
            }) else { continue }
            libraries.insert(path)
            let names = (linked[user] ?? []).intersection(frameworks).sorted().map { $0 + ".framework" }.joined(separator: ", ")
            skipped.append(Skipped(path: path, reason: "builds \(names), which \(user) links: read as that app's code, not audited as an app of its own"))
        }
        return (apps.filter { app in !libraries.contains(app.project ?? "") }, skipped)
    }

    /// What an audit of a found app showed, for `init`'s comments and `permissions:` block.
    public struct Findings: Sendable {
        /// The application target, then its extensions.
        public var targets: [String]
        public var read: [String]
        public var share: [String]
        /// Requests whose types the code builds at run time: `init` asks for them under `requested:`.
        public var unresolvedRead: UnresolvedRequests
        public var unresolvedShare: UnresolvedRequests
        public init(targets: [String], read: [String], share: [String],
                    unresolvedRead: UnresolvedRequests = UnresolvedRequests(), unresolvedShare: UnresolvedRequests = UnresolvedRequests()) {
            self.targets = targets; self.read = read; self.share = share
            self.unresolvedRead = unresolvedRead; self.unresolvedShare = unresolvedShare
        }
    }

    /// A commented `healthaudit.yml` for the found apps (what `check` uses when there is none);
    /// with `findings`, each app also lists its targets and the types its code requests, and a
    /// `permissions:` block granting them, to edit for the daily summaries.
    public static func config(for apps: [App], title: String, findings: [String: Findings] = [:]) -> String {
        var yaml = "# healthaudit.yml — written from what was found; edit freely (every key: https://github.com/healthaudit/healthaudit/blob/main/docs/config.md).\n"
        yaml += "title: \(quoted(title))\napps:\n"
        for app in apps {
            yaml += "  # \(comment(app.reason))\n"
            if let found = findings[app.id] {
                yaml += "  # Targets audited: \(comment(found.targets.joined(separator: ", ")))\n"
            }
            yaml += "  - id: \(app.id)\n    name: \(quoted(app.name))\n"
            if app.kind != "swift" { yaml += "    kind: \(app.kind)\n" }
            yaml += "    root: \(quoted(app.root))\n"
            if let project = app.project { yaml += "    project: \(quoted(project))\n" }
            if let spec = app.xcodegen { yaml += "    xcodegen: \(quoted(spec))\n" }
            if let found = findings[app.id] { yaml += requestedBlock(found) + permissionsBlock(found) }
        }
        if apps.isEmpty { yaml += "  []\n" }
        return yaml
    }

    /// A `requested:` block to fill for each direction the code leaves unknown. Its lists start
    /// empty: a list written here replaces "unknown" everywhere, so `init` must not fill one with
    /// only the types it did find (the app would then seem to ask for exactly those).
    private static func requestedBlock(_ found: Findings) -> String {
        let unknown = [("read", found.read, found.unresolvedRead), ("share", found.share, found.unresolvedShare)].filter { !$0.2.isEmpty }
        guard !unknown.isEmpty else { return "" }
        var yaml = "    # The code builds these requests at run time: list every type each asks for (e.g. [stepCount, heartRate]) and grant them under `permissions:`.\n"
        yaml += "    requested:\n"
        for (direction, names, unresolved) in unknown {
            yaml += "      # \(comment(unresolved.phrase { $0 }))" + (names.isEmpty ? "" : "; found in the code: \(comment(names.sorted().joined(separator: ", ")))") + "\n"
            yaml += "      \(direction): []\n"
        }
        return yaml
    }

    /// The requested types, all granted: the simulated person's answers behind the daily summaries.
    private static func permissionsBlock(_ found: Findings) -> String {
        let types = Set(found.read + found.share).filter { HealthKitType.named($0) != nil }.sorted()
        let read = UnresolvedRequests.describe(found.read.sorted(), unresolved: found.unresolvedRead, name: { $0 }, place: { $0 })
        let share = UnresolvedRequests.describe(found.share.sorted(), unresolved: found.unresolvedShare, name: { $0 }, place: { $0 })
        guard !types.isEmpty else {
            if !found.unresolvedRead.isEmpty || !found.unresolvedShare.isEmpty {
                return "    # Requested in the code — read: \(comment(read)); share: \(comment(share)).\n"
            }
            return "    # No requested HealthKit type was found in the code; list them under `requested:` if the audit missed them.\n"
        }
        let readSet = Set(found.read), shareSet = Set(found.share)
        var yaml = "    # Requested in the code — read: \(comment(read)); share: \(comment(share)).\n"
        yaml += "    # The simulated person's answers behind the daily summaries: granted or denied; edit to try others.\n"
        yaml += "    permissions:\n"
        for type in types {
            let answers = [readSet.contains(type) ? "read: granted" : nil, shareSet.contains(type) ? "share: granted" : nil].compactMap { $0 }
            yaml += "      \(type): { \(answers.joined(separator: ", ")) }\n"
        }
        return yaml
    }

    private static func walk(_ folder: String, relative: String, depth: Int, fileSystem: FileSystem, visit: (String, [String]) -> Void) {
        let path = relative.isEmpty ? folder : folder + "/" + relative
        guard depth <= maxDepth, let entries = try? fileSystem.entries(in: path) else { return }
        visit(relative, entries.map(\.name))
        for entry in entries where entry.isFolder && !skipped.contains(entry.name) && !entry.name.hasPrefix(".")
            && !entry.name.hasSuffix(".xcodeproj") && !entry.name.hasSuffix(".xcworkspace") && !entry.name.hasSuffix(".app") {
            let name = entry.name
            walk(folder, relative: relative.isEmpty ? name : relative + "/" + name, depth: depth + 1, fileSystem: fileSystem, visit: visit)
        }
    }

    static func identifier(_ name: String, folder: String) -> String {
        let base = name == "." ? (folder as NSString).lastPathComponent : (name as NSString).lastPathComponent
        let id = base.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? String($0) : "-" }.joined()
            .split(separator: "-").joined(separator: "-")
        return id.isEmpty || !(id.first!.isLetter || id.first!.isNumber) ? "app" + id : id
    }

    static func displayName(_ name: String, folder: String) -> String {
        name == "." ? (folder as NSString).lastPathComponent : (name as NSString).lastPathComponent
    }

    /// A YAML double-quoted scalar that reads back as `text`: a folder named with a line break
    /// must not fold into another path, nor end the line and write config of its own.
    private static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": output += "\\\\"
            case "\"": output += "\\\""
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// Text after `#`: one line, whatever a target's name holds.
    private static func comment(_ text: String) -> String {
        String(text.unicodeScalars.map { scalar -> Character in
            scalar.properties.isWhitespace || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? " " : Character(scalar)
        })
    }
}

private extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
