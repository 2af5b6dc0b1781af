import Foundation

/// A package the app depends on that links HealthKit: the app then uses HealthKit even when none
/// of its own code calls it, and needs what any HealthKit app needs (both usage strings, the
/// entitlement).
public struct HealthKitDependency: Sendable, Hashable {
    public var package: String
    public var ecosystem: HealthKitPackage.Ecosystem
    /// The resolved version from a lockfile, else the range the manifest asks for; nil when neither says.
    public var version: String?
    /// Named by the app's own manifest (`package.json`, `Podfile`, `pubspec.yaml`), or only pulled
    /// in by another package (seen in a lockfile alone); nil when the lockfile cannot tell (SwiftPM).
    public var isDirect: Bool?
    public var location: FileLocation
    public var quote: String
    /// What the package does with HealthKit, from the table.
    public var known: HealthKitPackage

    public var isSDK: Bool { known.isSDK }
}

/// Finds packages known to link HealthKit in the app's manifests and lockfiles — `package.json`
/// with `package-lock.json` / `yarn.lock` / `pnpm-lock.yaml`, `pubspec.yaml` with `pubspec.lock`,
/// `Podfile` with `Podfile.lock`, and SwiftPM's `Package.resolved` — at the app root, its `ios/`,
/// and the folders above it (a Capacitor app's `ios/App` sits two levels below its `package.json`),
/// never above the site folder. One row per package: the manifest's line when it names it, the
/// lockfile's version.
public enum HealthKitDependencies {
    /// `project`: the app's Xcode project (relative to `root`), whose SwiftPM resolution is read even
    /// when the app's root is the site folder, which is never listed.
    public static func find(root: String, site: String, project: String? = nil, display: (String) -> String, fileSystem: FileSystem) -> [HealthKitDependency] {
        var found: [HealthKitDependency] = []
        func read(_ path: String) -> String? {
            guard fileSystem.fileExists(path), !fileSystem.isDirectory(path), let data = try? fileSystem.contents(of: path) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        let ios = fileSystem.isDirectory(root + "/ios") ? [root + "/ios"] : []
        var folders = folders(from: root, site: site)
        folders.insert(contentsOf: ios, at: 1)
        var fromAbove: [HealthKitDependency] = []
        for folder in folders {
            for (name, reader) in readers {
                guard let text = read(folder + "/" + name) else { continue }
                let rows = reader(text, display(folder + "/" + name))
                // A workspace's lockfile above the app lists every workspace's packages: there only
                // the manifests' rows count, and lockfile rows just complete them.
                if folder == root || ios.contains(folder) { found += rows } else { fromAbove += rows }
            }
        }
        let named = Set((found + fromAbove).filter { $0.isDirect == true }.map { $0.ecosystem.rawValue + " " + $0.known.name })
        found += fromAbove.filter { $0.isDirect == true || named.contains($0.ecosystem.rawValue + " " + $0.known.name) }
        // SwiftPM's resolution of an Xcode project or workspace lives inside its bundle, beside the
        // app's own files (never listed in the site folder itself, whose output changes every build).
        var seenBundles: Set<String> = []
        for folder in [root] + ios {
            // The site folder is not listed (its output changes every build): there the app's own project is looked in.
            let bundles = folder == site ? (project.map { [$0] } ?? []).filter { $0.hasSuffix(".xcodeproj") && !$0.contains("/") }
                : ((try? fileSystem.entries(in: folder)) ?? []).map(\.name).filter { $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }.sorted()
            for bundle in bundles where seenBundles.insert(folder + "/" + bundle).inserted {
                let inner = bundle.hasSuffix(".xcodeproj") ? "/project.xcworkspace/xcshareddata/swiftpm/Package.resolved" : "/xcshareddata/swiftpm/Package.resolved"
                let path = folder + "/" + bundle + inner
                if let text = read(path) { found += Lockfiles.packageResolved(text, file: display(path)) }
            }
        }
        return merged(found)
    }

    /// The files read in each folder, by name, with their reader.
    static let readers: [(String, @Sendable (String, String) -> [HealthKitDependency])] = [
        ("package.json", { scan($0, file: $1, dart: false) }),
        ("package-lock.json", Lockfiles.packageLock), ("yarn.lock", Lockfiles.yarnLock), ("pnpm-lock.yaml", Lockfiles.pnpmLock),
        ("pubspec.yaml", { scan($0, file: $1, dart: true) }), ("pubspec.lock", Lockfiles.pubspecLock),
        ("Podfile", Lockfiles.podfile), ("Podfile.lock", Lockfiles.podfileLock), ("Package.resolved", Lockfiles.packageResolved),
    ]

    /// One row per package: a manifest's line (a direct dependency) wins over a lockfile's, whose
    /// version fills in; a package only in a lockfile is indirect unless the lockfile says otherwise.
    static func merged(_ all: [HealthKitDependency]) -> [HealthKitDependency] {
        var rows: [String: HealthKitDependency] = [:]
        var order: [String] = []
        for dependency in all {
            let key = dependency.ecosystem.rawValue + " " + dependency.known.name
            guard var row = rows[key] else { rows[key] = dependency; order.append(key); continue }
            if dependency.isDirect == true && row.isDirect != true {
                let version = row.version
                row = dependency
                row.version = version ?? dependency.version
            } else if row.version == nil || row.version?.first.map({ "^~<>=".contains($0) }) == true, let version = dependency.version {
                row.version = version
            }
            rows[key] = row
        }
        // A plugin's pod is the plugin itself: its row stands for both.
        let plugins = Set(rows.values.flatMap(\.known.pods))
        return order.compactMap { rows[$0] }.filter { !($0.ecosystem == .cocoapods && plugins.contains($0.package)) }
    }

    /// The app root and up to two folders above it, never above the site folder: where a
    /// toolchain's manifest sits when the audited root is its `ios/` (or `ios/App`) folder.
    static func folders(from root: String, site: String) -> [String] {
        var result = [root]
        while result.count < 3, let last = result.last, last != site, last.hasPrefix(site + "/") {
            result.append((last as NSString).deletingLastPathComponent)
        }
        return result
    }

    /// Dependency lines naming a known plugin: `"@capgo/capacitor-health": "^7.0.0"` or `  health: ^10.0.0`.
    public static func scan(_ text: String, file: String, dart: Bool) -> [HealthKitDependency] {
        var found: [HealthKitDependency] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // A dependency line starts with the package's name, `"name":` or `name:`: it is looked up
            // by that name, so a large manifest costs one dictionary lookup per line.
            let start = line.drop { $0 == " " || $0 == "\t" }
            let known: HealthKitPackage?
            var version: String?
            if dart {
                // `  health: ^13.1.0`, or the block form `  health:` with `git:` / `path:` below.
                guard line.hasPrefix(" "), let colon = start.firstIndex(of: ":") else { continue }
                known = HealthKitPackage.named(String(start[..<colon]), in: .pub)
                version = known == nil ? nil : start[start.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            } else {
                guard start.first == "\"", let close = start.dropFirst().firstIndex(of: "\""),
                      start[start.index(after: close)...].drop(while: { $0 == " " || $0 == "\t" }).first == ":" else { continue }
                known = HealthKitPackage.named(String(start[start.index(after: start.startIndex)..<close]), in: .npm)
                version = known == nil ? nil : Lockfiles.quoted(after: ":", in: start)
            }
            guard known != nil else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let known {
                found.append(HealthKitDependency(package: known.name, ecosystem: known.ecosystem, version: version?.isEmpty == false ? version : nil,
                                                 isDirect: true, location: FileLocation(file: file, line: index + 1),
                                                 quote: Clipped.text(trimmed, limit: Clipped.quoteLimit), known: known))
            }
        }
        return found
    }
}

/// Readers of each toolchain's lockfile (and the Podfile), line by line so every row cites its line.
enum Lockfiles {
    typealias Lines = [(number: Int, text: Substring)]

    static func lines(_ text: String) -> Lines {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { ($0.offset + 1, $0.element) }
    }

    static func row(_ known: HealthKitPackage, version: String?, direct: Bool?, file: String, line: (number: Int, text: Substring)) -> HealthKitDependency {
        HealthKitDependency(package: known.name, ecosystem: known.ecosystem, version: version, isDirect: direct,
                            location: FileLocation(file: file, line: line.number),
                            quote: Clipped.text(line.text.trimmingCharacters(in: .whitespaces), limit: Clipped.quoteLimit), known: known)
    }

    /// The first `"…"` string after `marker`: `"version": "1.2.3"` → `1.2.3`.
    static func quoted(after marker: String, in line: some StringProtocol) -> String? {
        guard let range = line.range(of: marker) else { return nil }
        let rest = line[range.upperBound...]
        guard let open = rest.firstIndex(of: "\"") else { return nil }
        let afterOpen = rest.index(after: open)
        guard let close = rest[afterOpen...].firstIndex(of: "\"") else { return nil }
        return String(rest[afterOpen..<close])
    }

    /// The value on the first of the lines below `start` that `extract` reads one from.
    static func firstValue(in lines: Lines, from start: Int, within: Int = 8, _ extract: (Substring) -> String?) -> String? {
        for line in lines[(start + 1)..<min(lines.count, start + 1 + within)] { if let version = extract(line.text) { return version } }
        return nil
    }

    // MARK: CocoaPods

    /// `PODS:` entries `  - RNAppleHealthKit (1.7.0)` (subspecs `ResearchKit/Core (2.0)` count for
    /// their pod); a pod also under `DEPENDENCIES:` is the Podfile's own.
    static func podfileLock(_ text: String, file: String) -> [HealthKitDependency] {
        var section = ""
        var rows: [HealthKitDependency] = []
        var direct: Set<String> = []
        for line in lines(text) {
            if let first = line.text.first, first != " " { section = line.text.trimmingCharacters(in: .whitespaces); continue }
            guard line.text.hasPrefix("  - ") else { continue }
            let entry = line.text.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\" :"))
            let name = String(entry.prefix { $0 != " " && $0 != "/" && $0 != "(" })
            guard let known = HealthKitPackage.named(name, in: .cocoapods) else { continue }
            if section == "DEPENDENCIES:" { direct.insert(known.name); continue }
            guard section == "PODS:", !rows.contains(where: { $0.known == known }) else { continue }
            let version = entry.firstIndex(of: "(").map { String(entry[entry.index(after: $0)...].prefix { $0 != ")" }) }
            rows.append(row(known, version: version, direct: false, file: file, line: line))
        }
        return rows.map { var row = $0; row.isDirect = direct.contains(row.known.name); return row }
    }

    /// `pod 'ResearchKit', '~> 2.0'` lines of a Podfile.
    static func podfile(_ text: String, file: String) -> [HealthKitDependency] {
        lines(text).compactMap { line in
            let trimmed = line.text.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("pod "), let name = trimmed.dropFirst(4).split(separator: ",").first?
                    .trimmingCharacters(in: CharacterSet(charactersIn: "'\" ")).split(separator: "/").first,
                  let known = HealthKitPackage.named(String(name), in: .cocoapods) else { return nil }
            return row(known, version: nil, direct: true, file: file, line: line)
        }
    }

    // MARK: SwiftPM

    /// `Package.resolved` v2/v3 (`"identity" : "spezihealthkit"`) and v1 (`"repositoryURL"`), with
    /// each pin's version. SwiftPM does not say which pins are the app's own.
    static func packageResolved(_ text: String, file: String) -> [HealthKitDependency] {
        let all = lines(text)
        return all.enumerated().compactMap { index, line -> HealthKitDependency? in
            let identity: String?
            if let value = quoted(after: "\"identity\"", in: line.text) { identity = value }
            else if let url = quoted(after: "\"repositoryURL\"", in: line.text) { identity = repositoryName(url) }
            else { identity = nil }
            guard let identity, let known = HealthKitPackage.named(identity, in: .swiftPM) else { return nil }
            let version = firstValue(in: all, from: index, within: 10) { quoted(after: "\"version\"", in: $0) }
            return row(known, version: version, direct: nil, file: file, line: line)
        }
    }

    /// `https://github.com/StanfordSpezi/SpeziHealthKit.git` → `spezihealthkit`, SwiftPM's identity.
    static func repositoryName(_ url: String) -> String {
        var name = url.split(separator: "/").last.map(String.init) ?? url
        if name.hasSuffix(".git") { name.removeLast(4) }
        return name.lowercased()
    }

    // MARK: pub

    /// `pubspec.lock`: `  health:` under `packages:`, its `dependency: "direct main"` and `version: "13.1.0"`.
    static func pubspecLock(_ text: String, file: String) -> [HealthKitDependency] {
        let all = lines(text)
        return all.enumerated().compactMap { index, line -> HealthKitDependency? in
            guard line.text.hasPrefix("  "), !line.text.hasPrefix("   "), line.text.hasSuffix(":"),
                  let known = HealthKitPackage.named(line.text.trimmingCharacters(in: CharacterSet(charactersIn: " :")), in: .pub) else { return nil }
            let version = firstValue(in: all, from: index) { quoted(after: "version:", in: $0) }
            let direct = firstValue(in: all, from: index) { quoted(after: "dependency:", in: $0) }?.hasPrefix("direct") ?? false
            return row(known, version: version, direct: direct, file: file, line: line)
        }
    }

    // MARK: npm, yarn, pnpm

    /// `package-lock.json` v2/v3: `"node_modules/react-native-health": {` with its `"version"`.
    static func packageLock(_ text: String, file: String) -> [HealthKitDependency] {
        let all = lines(text)
        var seen: Set<String> = []
        return all.enumerated().compactMap { index, line -> HealthKitDependency? in
            let trimmed = line.text.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("\"node_modules/"), trimmed.hasSuffix("{") else { return nil }
            // The last `node_modules/` segment is the package, wherever it is nested.
            let path = trimmed.dropFirst().prefix { $0 != "\"" }
            guard let name = path.components(separatedBy: "node_modules/").last, let known = HealthKitPackage.named(name, in: .npm),
                  seen.insert(known.name).inserted else { return nil }
            return row(known, version: firstValue(in: all, from: index) { quoted(after: "\"version\"", in: $0) }, direct: false, file: file, line: line)
        }
    }

    /// `yarn.lock` (classic and Berry): `"@kingstinct/react-native-healthkit@^8.0.0":` with `version`.
    static func yarnLock(_ text: String, file: String) -> [HealthKitDependency] {
        let all = lines(text)
        var seen: Set<String> = []
        return all.enumerated().compactMap { index, line -> HealthKitDependency? in
            guard let first = line.text.first, first != " ", first != "#", line.text.hasSuffix(":") else { return nil }
            let spec = line.text.trimmingCharacters(in: CharacterSet(charactersIn: "\" :")).split(separator: ",").first ?? ""
            let unquoted = spec.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
            // The name ends at the `@` that starts the range (a scope's `@` is the first character).
            guard let at = unquoted.dropFirst().firstIndex(of: "@"), let known = HealthKitPackage.named(String(unquoted[..<at]), in: .npm),
                  seen.insert(known.name).inserted else { return nil }
            let version = firstValue(in: all, from: index) { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("version") else { return nil }
                return trimmed.dropFirst("version".count).trimmingCharacters(in: CharacterSet(charactersIn: "\": "))
            }
            return row(known, version: version, direct: false, file: file, line: line)
        }
    }

    /// `pnpm-lock.yaml`: `  /react-native-health@1.19.0:` (v6) or `  react-native-health@1.19.0:` (v9).
    static func pnpmLock(_ text: String, file: String) -> [HealthKitDependency] {
        var seen: Set<String> = []
        return lines(text).compactMap { line in
            guard line.text.hasPrefix("  "), !line.text.hasPrefix("   "), line.text.hasSuffix(":") else { return nil }
            var key = line.text.trimmingCharacters(in: CharacterSet(charactersIn: " :'\""))
            if key.hasPrefix("/") { key.removeFirst() }
            guard let at = key.dropFirst().firstIndex(of: "@"), let known = HealthKitPackage.named(String(key[..<at]), in: .npm),
                  seen.insert(known.name).inserted else { return nil }
            let version = String(key[key.index(after: at)...].prefix { $0 != "(" })
            return row(known, version: version, direct: false, file: file, line: line)
        }
    }
}
