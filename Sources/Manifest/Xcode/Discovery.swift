import Foundation

/// Something project discovery found — a target, the Info.plist it uses, a build setting — with where
/// it was read, so the report shows how the audited files were chosen.
public struct DiscoveredFact: Sendable, Hashable {
    /// What was found, as plain text (escaped when rendered).
    public var text: String
    /// Where it comes from: `target Runner (Release), INFOPLIST_FILE`, `app.json expo.ios.infoPlist`.
    public var origin: String
    public var location: FileLocation?
    /// A point to look at rather than a plain fact: an ambiguity settled by a documented choice, a
    /// setting that differs between configurations, a file that is not used.
    public var isNote: Bool

    public init(_ text: String, origin: String, location: FileLocation? = nil, isNote: Bool = false) {
        self.text = text; self.origin = origin; self.location = location; self.isNote = isNote
    }
}

/// What discovery adds to an app's config entry before its files are read.
struct Discovery {
    var config: AppConfig
    var facts: [DiscoveredFact] = []
    /// Info.plists and entitlements that exist only as settings (Xcode's generated Info.plist, an
    /// Expo config), by target id.
    var infoPlists: [String: PropertyListDocument] = [:]
    var entitlements: [String: PropertyListDocument] = [:]
    /// `.entitlements` files present although the project names none (set by an uncommitted
    /// `.xcconfig`, or per scheme): the HealthKit entitlement cannot be judged.
    var entitlementCandidates: [String] = []
    /// INFOPLIST_FILE paths the project names but the repository lacks (git-ignored, not committed),
    /// by target id, for targets whose Info.plist Xcode also generates from INFOPLIST_KEY_* settings:
    /// the settings' keys are known, the file's are not.
    var uncommittedInfoPlists: [String: String] = [:]
    /// Extension and watch targets' `INFOPLIST_KEY_*` settings that Xcode merges into their Info.plist file, by target id.
    var mergedInfoPlistKeys: [String: PropertyListDocument] = [:]
    /// The app target's build configuration, when it sets no CODE_SIGN_ENTITLEMENTS and no file exists.
    var entitlementsUnsetAt: FileLocation?
    /// JavaScript / TypeScript files, relative to the app root.
    var javaScript: [String] = []
    /// Site-relative paths of the files discovery read (project file, app.json, package.json).
    var inputs: [String] = []
    /// Manifests read but not analysed (a Tuist `Project.swift` refused by `BoundedSwiftParse`).
    var unanalysed: [UnanalysedFile] = []

    mutating func fact(_ text: String, origin: String, at location: FileLocation? = nil) {
        facts.append(DiscoveredFact(text, origin: origin, location: location))
    }

    mutating func note(_ text: String, origin: String, at location: FileLocation? = nil) {
        facts.append(DiscoveredFact(text, origin: origin, location: location, isNote: true))
    }
}

/// Paths of one app: relative to its root for reading, relative to the site for showing.
struct AppFiles {
    let fileSystem: FileSystem
    let app: AppConfig

    /// Folders never searched: dependencies, build output and caches.
    static let skippedFolders: Set<String> = ["Pods", "Carthage", ".build", "DerivedData", "node_modules", "build"]

    /// `a/./b/../c` → `a/c`; nil when the path is absolute or climbs out of the root.
    static func normalize(_ path: String) -> String? {
        guard !path.hasPrefix("/"), let resolved = try? ContainedPath.resolve(path, in: "") else { return nil }
        return resolved.isEmpty ? "." : String(resolved.dropFirst())
    }

    static func join(_ folder: String, _ path: String) -> String {
        folder == "." || folder.isEmpty ? path : folder + "/" + path
    }

    func absolute(_ relative: String) -> String { relative == "." ? app.root : app.root + "/" + relative }

    func display(_ relative: String) -> String {
        let base = app.rootInSite == "." ? "" : (AppFiles.normalize(app.rootInSite) ?? app.rootInSite)
        if relative == "." { return base.isEmpty ? "." : base }
        return base.isEmpty ? relative : base + "/" + relative
    }

    func exists(_ relative: String) -> Bool { fileSystem.fileExists(absolute(relative)) && !fileSystem.isDirectory(absolute(relative)) }
    func isDirectory(_ relative: String) -> Bool { fileSystem.isDirectory(absolute(relative)) }

    func read(_ relative: String) throws -> Data {
        guard exists(relative) else { throw InputError("file not found", file: display(relative)) }
        do { return try fileSystem.contents(of: absolute(relative)) } catch let error as InputError {
            throw error.cited(in: display(relative))
        }
    }

    func text(_ relative: String) -> String? {
        (try? read(relative)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Why the file system refuses to read an existing file (it leads outside the project, or into
    /// git's data), in its words; nil when the file is missing or reads.
    func refusal(_ relative: String) -> String? {
        guard exists(relative) else { return nil }
        do { _ = try fileSystem.contents(of: absolute(relative)); return nil } catch let error as InputError {
            return error.problems.first?.message
        } catch { return nil }
    }

    /// Files below a folder, relative to the app root, never entering `skippedFolders` (plus `extra`).
    func files(under folder: String, skipping extra: Set<String> = []) throws -> [String] {
        guard isDirectory(folder) else { return [] }
        return try fileSystem.files(under: absolute(folder), skipping: Self.skippedFolders.union(extra)).map { AppFiles.join(folder, $0) }
    }
}

extension PropertyListDocument {
    /// A document built from settings rather than a plist file: keys cite the lines they were
    /// written on (`INFOPLIST_KEY_*` in the project file, `expo.ios.infoPlist` in app.json).
    static func synthesized(path: String, format: Format, root: [String: PlistValue], keyLines: [String: Int], rootLine: Int, text: String) -> PropertyListDocument {
        PropertyListDocument(path: path, format: format, root: root, keyLines: keyLines, rootLine: rootLine,
                             lines: TextLines.split(text))
    }
}

/// Fills in what a short config entry leaves out: an Xcode project's targets, Info.plists,
/// entitlements, sources and build settings (`project:`), or a React Native app's iOS side, Expo
/// config and JavaScript (`kind: react-native`), through the entry's app-kind driver
/// (`AppKindDrivers.reader`). Keys written in the entry win.
struct ProjectDiscovery {
    let fileSystem: FileSystem
    var parseBudget = ParseBudget()

    func discover(_ app: AppConfig) throws -> Discovery {
        var app = app
        for driver in AppKindDrivers.all { app = try driver.prepare(app, fileSystem: fileSystem) }
        var discovery = Discovery(config: app)
        let files = AppFiles(fileSystem: fileSystem, app: app)
        try AppKindDrivers.reader(of: app, files: files)?.discover(app, files: files, parseBudget: parseBudget, into: &discovery)
        return discovery
    }

    /// `RunnerWidget` → `runner-widget`, `CoS Widget` → `cos-widget`: an id for the output folder.
    static func identifier(for name: String, taken: Set<String>) -> String {
        var out = ""
        var previous: Character = " "
        for character in name {
            if character.isUppercase && (previous.isLowercase || previous.isNumber) { out.append("-") }
            out.append(character.isASCII && (character.isLetter || character.isNumber) ? Character(character.lowercased()) : "-")
            previous = character
        }
        var id = out.split(separator: "-").joined(separator: "-")
        if !Identifier.isValid(id) { id = "target" }
        var unique = id
        var counter = 2
        while taken.contains(unique) { unique = "\(id)-\(counter)"; counter += 1 }
        return unique
    }
}
