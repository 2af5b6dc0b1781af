import Foundation

/// A Flutter app: `pubspec.yaml` with `ios/Runner.xcodeproj`. Audited through its iOS side — the
/// Xcode project under `ios/` is read as a native app's — plus its Dart code under `lib/`.
struct FlutterDriver: AppKindDriver {
    func detect(in folder: DiscoveryFolder) -> Detection? {
        guard folder.names.contains("pubspec.yaml"), folder.fileSystem.isDirectory(folder.path + "/ios/Runner.xcodeproj") else { return nil }
        if let skipped = folder.uncommittedProjectWithoutHealthKit("ios/Runner.xcodeproj") { return Detection(skipped: [skipped], claimsFolder: true) }
        // Named as its pubspec names it: a monorepo's examples are all folders called `example`.
        return folder.claim("flutter", named: Self.pubspecName(folder.path + "/pubspec.yaml", fileSystem: folder.fileSystem),
                            reason: "Flutter app (pubspec.yaml, ios/Runner.xcodeproj)")
    }

    func prepare(_ app: AppConfig, fileSystem: FileSystem) throws -> AppConfig {
        app.kind == .flutter ? try FlutterProject(fileSystem: fileSystem).iosSide(of: app) : app
    }

    var traits: KindTraits? { KindTraits(kind: .flutter, entryFile: "pubspec.yaml", language: .dart, findsXcodeProject: true) }

    /// The Dart code of a Flutter app, or of a native app whose audited root is a Flutter app's `ios/`.
    func complete(_ manifest: inout AppManifest, loader: ManifestLoader) {
        guard manifest.config.kind == .swift || manifest.config.kind == .flutter,
              let flutter = FlutterSources.folder(root: manifest.config.root, site: loader.siteDirectory, fileSystem: loader.fileSystem) else { return }
        let files = loader.scripts(at: FlutterSources.files(in: flutter, fileSystem: loader.fileSystem))
        let package = Self.pubspecName((flutter as NSString).deletingLastPathComponent + "/pubspec.yaml", fileSystem: loader.fileSystem)
        let selection = DartShippedFiles.select(files, package: package)
        if let fact = selection.summary(origin: "imports from lib/main.dart", noun: "Dart file") { manifest.discovery.append(fact) }
        manifest.dartSources = selection.kept
        // A plugin taken by path (`my_plugin: {path: ../}`) compiles its Swift into the app.
        loader.addLocalFlutterPlugins(of: (flutter as NSString).deletingLastPathComponent, to: &manifest)
    }

    /// `name:` at the top of a pubspec.yaml, when it is a plain Dart package name.
    static func pubspecName(_ path: String, fileSystem: FileSystem) -> String? {
        guard let data = try? fileSystem.contents(of: path) else { return nil }
        for line in String(decoding: data.prefix(4096), as: UTF8.self).split(separator: "\n") where line.hasPrefix("name:") {
            let value = line.dropFirst("name:".count).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return !value.isEmpty && value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) ? value : nil
        }
        return nil
    }
}

/// A Flutter app is audited through its iOS side: its Xcode project (`ios/Runner.xcodeproj`, or
/// the one project in `ios/`) is read as a native app's; the Dart code and `pubspec.yaml` sit at
/// the root (`FlutterSources`, `HealthKitDependencies`).
struct FlutterProject {
    let fileSystem: FileSystem

    func iosSide(of app: AppConfig) throws -> AppConfig {
        guard app.project == nil, app.xcodeGenSpec == nil, app.tuistManifest == nil else { return app }
        let ios = app.root + "/ios"
        guard fileSystem.fileExists(app.root + "/pubspec.yaml") else {
            throw InputError("Flutter app '\(app.id)' has no pubspec.yaml at its root '\(app.rootInSite)': point `root` at the folder holding pubspec.yaml", at: app.location)
        }
        let projects = ((try? fileSystem.entries(in: ios)) ?? []).map(\.name).filter { $0.hasSuffix(".xcodeproj") }.sorted()
        guard let project = projects.contains("Runner.xcodeproj") ? "Runner.xcodeproj" : projects.first else {
            throw InputError("Flutter app '\(app.id)' has no ios/*.xcodeproj under '\(app.rootInSite)': add the iOS platform (`flutter create --platforms=ios .`) or set `project:`",
                             at: app.location)
        }
        // The root stays the Flutter folder, so every other path of the entry keeps meaning what it says.
        var app = app
        // A discovered entry has no config line to cite: its project folder is what the problems rest on.
        let location = app.isDiscovered ? FileLocation(file: AppFiles(fileSystem: fileSystem, app: app).display("ios/" + project)) : app.location
        app.project = Located("ios/" + project, at: location)
        return app
    }
}

/// A Flutter app's Dart code: the `lib/` folder beside the `pubspec.yaml` at the app root or the
/// folders above it (the audited root is usually `ios/`), never above the site folder.
public enum FlutterSources {
    public static func folder(root: String, site: String, fileSystem: FileSystem) -> String? {
        HealthKitDependencies.folders(from: root, site: site)
            .first { fileSystem.fileExists($0 + "/pubspec.yaml") && fileSystem.isDirectory($0 + "/lib") }.map { $0 + "/lib" }
    }

    /// Dart files under `lib`, sorted; generated code (`*.g.dart`, `*.freezed.dart`, `generated/`) is not the app's own.
    public static func files(in lib: String, fileSystem: FileSystem) -> [String] {
        ((try? fileSystem.files(under: lib, skipping: ["generated", ".dart_tool"])) ?? [])
            .filter { $0.hasSuffix(".dart") && !$0.hasSuffix(".g.dart") && !$0.hasSuffix(".freezed.dart") && !$0.hasSuffix(".mocks.dart") }
            .map { lib + "/" + $0 }
    }
}
