import Foundation

/// Which of a Flutter app's Dart files are compiled into it. Dart builds the app from its entry
/// point, `lib/main.dart` (or a flavour's `lib/main_<flavour>.dart`), and the files it reaches
/// through `import`, `export` and `part` (relative paths, or `package:<the app's name>/…`); a file
/// nothing imports — an abandoned service, a test helper kept under `lib/` — is not in the app, and
/// judging it as the app's gives findings about code that never runs. Without an entry point every
/// file is kept.
enum DartShippedFiles {
    /// `package`: the app's name in its `pubspec.yaml`, for `package:` imports of its own files.
    static func select(_ files: [JavaScriptFile], package: String?) -> ShippedScripts {
        guard let entryIndex = files.firstIndex(where: { Self.isEntry($0.path, named: "main.dart") }) else {
            return ShippedScripts(kept: files, leftOut: [], entry: nil)
        }
        // Everything shown under the entry's `lib/` folder.
        let lib = String(files[entryIndex].path.dropLast("main.dart".count))
        let indexByPath = Dictionary(files.enumerated().map { ($0.element.path, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let entries = files.indices.filter { index in
            let path = files[index].path
            guard path.hasPrefix(lib), !path.dropFirst(lib.count).contains("/") else { return false }
            let name = String(path.dropFirst(lib.count))
            return name == "main.dart" || (name.hasPrefix("main_") && name.hasSuffix(".dart"))
        }
        var reached = Set(entries), queue = entries
        while let index = queue.popLast() {
            for target in directives(in: files[index]).compactMap({ resolve($0, from: files[index].path, lib: lib, package: package) }) {
                guard let next = indexByPath[target], reached.insert(next).inserted else { continue }
                queue.append(next)
            }
        }
        var kept: [JavaScriptFile] = [], leftOut: [(path: String, reason: String)] = []
        for (index, file) in files.enumerated() {
            if reached.contains(index) { kept.append(file) } else { leftOut.append((file.path, "not imported from \(lib)main.dart")) }
        }
        return ShippedScripts(kept: kept, leftOut: leftOut, entry: files[entryIndex].path)
    }

    static func isEntry(_ path: String, named name: String) -> Bool {
        path == "lib/" + name || path.hasSuffix("/lib/" + name)
    }

    /// The URIs of a file's `import`, `export` and `part` directives (every URI of a conditional
    /// import: `import 'a.dart' if (dart.library.io) 'b.dart'`). Directives come before any
    /// declaration, at the top level; `part of` names the library the file belongs to, not a file it adds.
    static func directives(in file: JavaScriptFile) -> [String] {
        var uris: [String] = []
        let tokens = file.tokens
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            guard file.parent[index] == nil, token.kind == .identifier, ["import", "export", "part"].contains(token.text),
                  index + 1 < tokens.count, tokens[index + 1].kind == .string else { index += 1; continue }
            var next = index + 1
            while next < tokens.count, !tokens[next].isPunctuator(";") {
                if tokens[next].kind == .string { uris.append(tokens[next].value) }
                next += 1
            }
            index = next + 1
        }
        return uris
    }

    /// The shown path a URI names, or nil for `dart:` libraries and other packages.
    static func resolve(_ uri: String, from path: String, lib: String, package: String?) -> String? {
        if uri.hasPrefix("package:") {
            guard let package, uri.hasPrefix("package:\(package)/") else { return nil }
            return normalize(lib + uri.dropFirst("package:\(package)/".count))
        }
        guard !uri.contains(":") else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        return normalize((folder.isEmpty ? "" : folder + "/") + uri)
    }

    /// `a/b/../c/./d.dart` → `a/c/d.dart`.
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }
}
