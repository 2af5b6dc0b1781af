import Foundation

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
