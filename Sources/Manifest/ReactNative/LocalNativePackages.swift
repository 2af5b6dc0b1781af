import Foundation

/// Native code a JavaScript app builds from its own repository: packages its `package.json` takes
/// from a folder (`"@capgo/capacitor-health": "file:.."`, `link:`, `portal:` — a plugin developed
/// beside its example app, a module of a monorepo) and Expo's local modules (`modules/<name>` with
/// an `expo-module.config.json`, linked without a dependency). Their Swift is compiled into the
/// app, so it is read as the app's dependency code, as `extra_sources` are: a plugin's own
/// `isHealthDataAvailable()` or `authorizationStatus(for:)` then decides the answers it should.
/// Only folders inside the repository are read.
struct LocalNativePackages {
    struct Package: Equatable {
        /// The dependency's name, or the module folder's.
        var name: String
        /// The folder of its iOS code (absolute).
        var iosFolder: String
        /// Where the app names it: its `package.json` line, or the module's config.
        var location: FileLocation
    }

    let fileSystem: FileSystem
    /// The repository holding the site: nothing above it is read.
    let boundary: String
    let display: (String) -> String

    static let dependencyKeys = ["dependencies", "devDependencies", "optionalDependencies"]
    static let folderSchemes = ["file:", "link:", "portal:"]
    /// Folders of a package that are not compiled into the app.
    static let skippedFolders: Set<String> = ["Tests", "Test", "Example", "Examples", "example", "node_modules", "Pods", "build", "DerivedData"]

    /// The local packages of the JavaScript project in `folder` (absolute), sorted by name.
    func packages(of folder: String) -> [Package] {
        var found: [Package] = []
        let manifest = folder + "/package.json"
        if let json = object(at: manifest) {
            let text = (try? fileSystem.contents(of: manifest)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            for key in Self.dependencyKeys {
                for (name, value) in (json[key] as? [String: Any]) ?? [:] {
                    guard let spec = value as? String, let scheme = Self.folderSchemes.first(where: spec.hasPrefix),
                          let package = try? ContainedPath.resolve(String(spec.dropFirst(scheme.count)), in: folder, within: boundary),
                          let ios = iosFolder(ofPackage: package) else { continue }
                    found.append(Package(name: name, iosFolder: ios, location: FileLocation(file: display(manifest), line: Self.line(naming: name, in: text))))
                }
            }
        }
        // Expo autolinks every module in `modules/` that has a module config.
        let modules = folder + "/modules"
        for entry in (try? fileSystem.entries(in: modules)) ?? [] where entry.isFolder {
            let module = modules + "/" + entry.name
            let config = module + "/expo-module.config.json"
            guard fileSystem.fileExists(config), fileSystem.isDirectory(module + "/ios"), !found.contains(where: { $0.iosFolder == module + "/ios" }) else { continue }
            found.append(Package(name: entry.name, iosFolder: module + "/ios", location: FileLocation(file: display(config), line: 1)))
        }
        return found.sorted { $0.name < $1.name }
    }

    /// The plugins a Flutter app's `pubspec.yaml` takes from a folder (`my_plugin: {path: ../}`, under
    /// `dependencies` or `dependency_overrides`; dev dependencies do not ship), with an `ios` or
    /// `darwin` folder: a plugin developed beside its example app, or a package of a monorepo.
    func flutterPackages(of folder: String) -> [Package] {
        let manifest = folder + "/pubspec.yaml"
        guard fileSystem.fileExists(manifest), let data = try? fileSystem.contents(of: manifest), data.count <= InputLimits.maxFileBytes else { return [] }
        var found: [Package] = []
        for dependency in Self.pathDependencies(inPubspec: String(decoding: data, as: UTF8.self)) {
            guard let package = try? ContainedPath.resolve(dependency.path, in: folder, within: boundary),
                  let ios = ["ios", "darwin"].map({ package + "/" + $0 }).first(where: fileSystem.isDirectory),
                  !found.contains(where: { $0.iosFolder == ios }) else { continue }
            found.append(Package(name: dependency.name, iosFolder: ios, location: FileLocation(file: display(manifest), line: dependency.line)))
        }
        return found.sorted { $0.name < $1.name }
    }

    /// `name:` entries with a nested `path:` in the `dependencies` and `dependency_overrides`
    /// sections of a pubspec (block style, as `flutter pub add --path` writes it).
    static func pathDependencies(inPubspec text: String) -> [(name: String, path: String, line: Int)] {
        var result: [(name: String, path: String, line: Int)] = []
        var inSection = false
        var current: (name: String, indent: Int, line: Int)?
        for (index, raw) in TextLines.split(text).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            let indent = line.prefix { $0 == " " }.count
            if indent == 0 {
                inSection = trimmed == "dependencies:" || trimmed == "dependency_overrides:"
                current = nil
                continue
            }
            guard inSection, let colon = trimmed.firstIndex(of: ":") else { continue }
            let key = String(trimmed[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
            let value = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
            if let owner = current, indent > owner.indent {
                if key == "path", !value.isEmpty { result.append((owner.name, value, owner.line)) }
            } else {
                current = value.isEmpty ? (key, indent, index + 1) : nil
            }
        }
        return result
    }

    /// The Swift files of `package`, sorted; tests and examples left out.
    func swiftFiles(of package: Package) -> [String] {
        ((try? fileSystem.files(under: package.iosFolder, skipping: Self.skippedFolders)) ?? [])
            .filter { $0.hasSuffix(".swift") && !$0.hasSuffix("Package.swift") }
            .sorted().map { package.iosFolder + "/" + $0 }
    }

    /// A Capacitor plugin's `capacitor.ios.src` (default `ios`), or an `ios` folder: nil when there is none.
    private func iosFolder(ofPackage package: String) -> String? {
        let declared = (object(at: package + "/package.json")?["capacitor"] as? [String: Any]).flatMap { $0["ios"] as? [String: Any] }?["src"] as? String
        guard let folder = try? ContainedPath.resolve(declared ?? "ios", in: package, within: boundary), fileSystem.isDirectory(folder) else { return nil }
        return folder
    }

    /// A JSON object file, when it is one and no larger than a manifest may be.
    private func object(at path: String) -> [String: Any]? {
        guard fileSystem.fileExists(path), !fileSystem.isDirectory(path), let data = try? fileSystem.contents(of: path),
              data.count <= InputLimits.maxFileBytes else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The line of `"name":` in the manifest (1 when not found).
    static func line(naming name: String, in text: String) -> Int {
        let needle = "\"\(name)\""
        for (index, line) in TextLines.split(text).enumerated() where line.contains(needle) { return index + 1 }
        return 1
    }
}

extension ManifestLoader {
    /// Adds the Swift of the local native packages of the JavaScript project in `folder` to the
    /// app target, as dependency code. An entry that lists its `extra_sources` chose them itself.
    func addLocalNativeCode(of folder: String, to manifest: inout AppManifest) {
        addLocalNativeCode(to: &manifest, origin: "package.json") { $0.packages(of: folder) }
    }

    /// The same for the Flutter plugins the app's `pubspec.yaml` in `folder` takes from a folder.
    func addLocalFlutterPlugins(of folder: String, to manifest: inout AppManifest) {
        addLocalNativeCode(to: &manifest, origin: "pubspec.yaml") { $0.flutterPackages(of: folder) }
    }

    private func addLocalNativeCode(to manifest: inout AppManifest, origin: String, packages: (LocalNativePackages) -> [LocalNativePackages.Package]) {
        guard !manifest.config.explicitKeys.contains("extra_sources") else { return }
        let local = LocalNativePackages(fileSystem: fileSystem, boundary: boundary) { SiteBoundary.display($0, site: siteDirectory) }
        var known = Set(manifest.main.sources.map(\.path))
        for package in packages(local) {
            var added = 0
            for path in local.swiftFiles(of: package) {
                let shown = SiteBoundary.display(path, site: siteDirectory)
                guard known.insert(shown).inserted, let data = try? fileSystem.contents(of: path), data.count <= InputLimits.maxFileBytes else { continue }
                manifest.main.sources.append(SourceFile(path: shown, text: String(decoding: data, as: UTF8.self), isDependency: true))
                added += 1
            }
            guard added > 0 else { continue }
            manifest.discovery.append(DiscoveredFact("\(Plural.count(added, "Swift file")) of the local package \(package.name) (\(SiteBoundary.display(package.iosFolder, site: siteDirectory))) read as the app's dependency code",
                                                     origin: origin, location: package.location))
        }
    }
}
