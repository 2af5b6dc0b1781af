import Foundation
import Yams

/// An XcodeGen app (`project.yml`, no committed `.xcodeproj`): the application target's
/// `info.properties` are its Info.plist and `entitlements.properties` its entitlements (XcodeGen
/// writes both files at generation time, so they are often not committed), and its `sources`
/// paths its Swift folders. Keys cite their `project.yml` lines. Keys written in the config win.
struct XcodeGenDiscovery {
    let files: AppFiles
    static let fileName = "project.yml"

    func discover(into discovery: inout Discovery) throws {
        guard let text = files.text(Self.fileName) else { return }
        let shown = files.display(Self.fileName)
        let root: Node
        do { root = try YAMLReader.compose(text, file: shown) } catch let error as InputError {
            let problem = error.problems.first ?? InputProblem("unreadable", file: shown)
            // XcodeGen files often use anchors, which this reader refuses (alias bombs): not an error
            // of the app, so the audit goes on without project.yml and says so.
            discovery.note("\(shown) is not read (\(problem.message)); name info_plist and entitlements in the config to audit them",
                           origin: Self.fileName, at: problem.location)
            return
        }
        guard let targets = root.mapping?["targets"]?.mapping else { return }
        // The application target named like the app, else the first one.
        let applications = targets.compactMap { key, value -> (name: String, node: Node)? in
            guard let name = key.string, value.mapping?["type"]?.string == "application" else { return nil }
            return (name, value)
        }
        guard let target = applications.first(where: { $0.name == discovery.config.name }) ?? applications.first else { return }
        let explicit = discovery.config.explicitKeys
        discovery.fact("XcodeGen target \(target.name) in \(shown)", origin: Self.fileName, at: FileLocation(file: shown, line: (target.node.mark?.line)))
        if !explicit.contains("info_plist"), let properties = target.node.mapping?["info"]?.mapping?["properties"] {
            discovery.infoPlists[discovery.config.id] = Self.document(properties, path: shown, text: text)
            discovery.fact("Info.plist from info.properties", origin: Self.fileName, at: FileLocation(file: shown, line: properties.mark?.line))
        }
        if !explicit.contains("entitlements"), let properties = target.node.mapping?["entitlements"]?.mapping?["properties"] {
            discovery.entitlements[discovery.config.id] = Self.document(properties, path: shown, text: text)
            discovery.fact("entitlements from entitlements.properties", origin: Self.fileName, at: FileLocation(file: shown, line: properties.mark?.line))
        }
        if !explicit.contains("sources"), let sources = target.node.mapping?["sources"]?.sequence {
            let paths = sources.compactMap { $0.string ?? $0.mapping?["path"]?.string }.filter { files.isDirectory($0) || files.exists($0) }
            discovery.config.sources = paths
            discovery.fact("\(paths.count) source folder(s) from sources", origin: Self.fileName, at: FileLocation(file: shown, line: target.node.mark?.line))
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
