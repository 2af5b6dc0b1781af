import Foundation

/// Code the app builds from its own repository although no target of the project compiles it: local
/// Swift packages the target links (their `Package.swift` targets) and development CocoaPods
/// (`pod 'Kit', :path => '../'`, their podspec's `source_files`). Modular apps keep their HealthKit
/// code there. Only folders inside the app are read; the rest is noted.
struct LocalDependencies {
    let files: AppFiles

    /// Swift files of the local packages at `packages` (folders relative to the app root) and of the
    /// packages they depend on by path, two levels deep. `products`: the products the app links from
    /// each package, by its written path, when the project says.
    func packageSources(_ packages: [(path: String, at: FileLocation)], products: [String: [String]] = [:], into discovery: inout Discovery) -> [String] {
        var found: [String] = []
        var pending = packages.map { (folder: $0.path, at: $0.at, depth: 0) }
        var seen: Set<String> = []
        while !pending.isEmpty {
            let (written, at, depth) = pending.removeFirst()
            guard let folder = AppFiles.normalize(written) else {
                // Above the app folder but in the repository (`.local(path: "../")`): read as
                // `extra_sources` are, which the loader keeps inside the repository.
                if depth == 0, addAbove(written, at: at, into: &discovery) { continue }
                if depth == 0, let repository = repositoryUnderAnotherName(written, products: products[written] ?? []) {
                    discovery.note("local package '\(written)' names a folder beside the repository; the repository's own Package.swift makes "
                                   + "\((products[written] ?? []).joined(separator: ", ")), so it is read as that package (the repository cloned under that name)",
                                   origin: "XCLocalSwiftPackageReference", at: at)
                    if let inside = AppFiles.normalize(repository) { pending.append((inside, at, depth + 1)) } else { _ = addAbove(repository, at: at, into: &discovery) }
                    continue
                }
                discovery.note("local package '\(written)' is outside the app folder; its code is not read (list its sources under `extra_sources` to audit them)", origin: "XCLocalSwiftPackageReference", at: at)
                continue
            }
            guard seen.insert(folder).inserted else { continue }
            let manifest = AppFiles.join(folder, "Package.swift")
            guard let text = files.text(manifest) else {
                discovery.note("local package \(files.display(folder)) has no Package.swift in the repository (generated or installed later); its code is not read",
                               origin: "XCLocalSwiftPackageReference", at: at)
                continue
            }
            let package = PackageManifestScan(text: text)
            var added: [String] = []
            for target in package.linkable {
                guard let path = target.folder else { continue }
                added += ((try? files.files(under: AppFiles.join(folder, path))) ?? []).filter { $0.hasSuffix(".swift") }
            }
            found += added
            discovery.fact("\(Plural.count(added.count, "Swift file")) from the local package \(files.display(folder)) (\(package.linkable.map(\.shownName).joined(separator: ", ")))",
                           origin: "Package.swift", at: FileLocation(file: files.display(manifest), line: 1))
            if depth < 2 {
                pending += package.pathDependencies.map { (AppFiles.join(folder, $0.path), FileLocation(file: files.display(manifest), line: $0.line), depth + 1) }
            }
        }
        return found
    }

    /// A local package above the app's root: its targets' folders join `extra_sources`, when its
    /// `Package.swift` can be read (the file system refuses what lies outside the repository).
    private func addAbove(_ written: String, at: FileLocation, into discovery: inout Discovery) -> Bool {
        guard let folder = Self.climbing(written), let text = files.text(AppFiles.join(folder, "Package.swift")) else { return false }
        let package = PackageManifestScan(text: text)
        let folders = package.linkable.compactMap(\.folder).map { AppFiles.join(folder, $0) }.filter(files.isDirectory)
        let known = Set(discovery.config.extraSources.map(\.value))
        discovery.config.extraSources += folders.filter { !known.contains($0) }.map { Located($0, at: at) }
        discovery.fact("\(Plural.count(folders.count, "source folder")) from the local package \(files.display(folder)) (\(package.linkable.map(\.shownName).joined(separator: ", "))), above the app folder",
                       origin: "Package.swift", at: FileLocation(file: files.display(AppFiles.join(folder, "Package.swift")), line: 1))
        return !folders.isEmpty
    }

    /// `../health-vaults` written in a project at the repository's top (`../../name` one folder down):
    /// a folder beside the repository, which is where Xcode finds the repository itself when its
    /// clone carries that name — the way a project refers to a `Package.swift` of its own
    /// repository. Trusted only when that `Package.swift` can make every product the app links
    /// from the reference (by name, or by names it computes); the repository's folder relative to
    /// the app root, or nil.
    private func repositoryUnderAnotherName(_ written: String, products: [String]) -> String? {
        guard !products.isEmpty, let climbed = Self.climbing(written) else { return nil }
        let parts = climbed.split(separator: "/")
        let appDepth = AppFiles.normalize(files.app.rootInSite).map { $0 == "." ? 0 : $0.split(separator: "/").count } ?? 0
        guard parts.count == appDepth + 2, parts.dropLast().allSatisfy({ $0 == ".." }), parts.last != ".." else { return nil }
        let repository = appDepth == 0 ? "." : Array(repeating: "..", count: appDepth).joined(separator: "/")
        guard let text = files.text(AppFiles.join(repository, "Package.swift")) else { return nil }
        let package = PackageManifestScan(text: text)
        return products.allSatisfy(package.mayMake) ? repository : nil
    }

    /// `../Kit/./Sources` → `../Kit/Sources`: a relative path that may climb, resolved as far as
    /// it can be; nil when absolute.
    static func climbing(_ path: String) -> String? {
        guard !path.hasPrefix("/") else { return nil }
        var parts: [String] = []
        for part in path.split(separator: "/").map(String.init) where part != "." && !part.isEmpty {
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// Swift files of the development pods named in `podfile`.
    func podSources(podfile: String, into discovery: inout Discovery) -> [String] {
        guard let text = files.text(podfile) else { return [] }
        let podfileFolder = (podfile as NSString).deletingLastPathComponent
        var found: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard let pod = Self.developmentPod(in: code) else { continue }
            let at = FileLocation(file: files.display(podfile), line: index + 1)
            guard let folder = AppFiles.normalize(AppFiles.join(podfileFolder.isEmpty ? "." : podfileFolder, pod.path)) else {
                discovery.note("development pod \(pod.name) ('\(pod.path)') is outside the app folder; its code is not read", origin: "Podfile", at: at)
                continue
            }
            let podspec = AppFiles.join(folder, pod.name + ".podspec")
            guard let spec = files.text(podspec) else {
                discovery.note("development pod \(pod.name) has no \(pod.name).podspec in \(files.display(folder)); its code is not read", origin: "Podfile", at: at)
                continue
            }
            let added = Self.sourcePatterns(in: spec).flatMap { pattern -> [String] in
                let literal = String(pattern.prefix { !"*{?[".contains($0) })
                let base = literal.hasSuffix("/") || !pattern.contains("*") ? literal : (literal as NSString).deletingLastPathComponent
                let folderPath = AppFiles.join(folder, base.isEmpty ? "." : String(base.trimmingCharacters(in: CharacterSet(charactersIn: "/"))))
                if folderPath.hasSuffix(".swift") { return files.exists(folderPath) ? [folderPath] : [] }
                return ((try? files.files(under: folderPath)) ?? []).filter { $0.hasSuffix(".swift") }
            }
            found += added
            discovery.fact("\(Plural.count(added.count, "Swift file")) from the development pod \(pod.name) (\(files.display(podspec)) source_files)", origin: "Podfile", at: at)
        }
        return found
    }

    /// `pod 'Kit', :path => '../'` (or `path: '../'`): the pod's name and path.
    static func developmentPod(in line: String) -> (name: String, path: String)? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("pod "), let range = trimmed.range(of: #"(:path\s*=>|path:)\s*['"]([^'"]+)['"]"#, options: .regularExpression) else { return nil }
        let quoted = Self.quotedStrings(in: String(trimmed[range]))
        guard let name = Self.quotedStrings(in: trimmed).first, let path = quoted.first else { return nil }
        return (name.split(separator: "/").first.map(String.init) ?? name, path)
    }

    /// The quoted patterns of `s.source_files = 'A/**/*', 'B/*.swift'` (or an array).
    static func sourcePatterns(in podspec: String) -> [String] {
        podspec.split(separator: "\n").filter { $0.contains("source_files") && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            .flatMap { quotedStrings(in: String($0)) }
    }

    static func quotedStrings(in text: String) -> [String] {
        var result: [String] = []
        var quote: Character?
        var current = ""
        for character in text {
            if let open = quote {
                if character == open { result.append(current); current = ""; quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
            }
        }
        return result
    }
}

/// What a `Package.swift` declares, read as text: its non-test targets (name, `path:`) and its
/// dependencies by path. Computed manifests are read only as far as their literals go.
struct PackageManifestScan {
    struct Target {
        /// Nil when computed (`name: Module.shared`).
        var name: String?
        var path: String?
        var isExecutable: Bool
        /// Its sources' folder in the package: `path`, else `Sources/<name>`.
        var folder: String? { path ?? name.map { "Sources/\($0)" } }
        var shownName: String { name ?? path ?? "?" }
    }
    var targets: [Target] = []
    /// Library products' names; nil for one computed.
    var libraries: [String?] = []
    var pathDependencies: [(path: String, line: Int)] = []

    /// Targets an app can link: an executable target's code never reaches it.
    var linkable: [Target] { targets.filter { !$0.isExecutable } }

    /// Whether the package can make `product`: a library or target of that name, or a name computed.
    func mayMake(_ product: String) -> Bool {
        libraries.contains(product) || targets.contains { $0.name == product }
            || libraries.contains(nil) || targets.contains { $0.name == nil && !$0.isExecutable }
    }

    init(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where line.contains(".package(") && line.contains("path:") {
            if let range = line.range(of: #"path:\s*"([^"]+)""#, options: .regularExpression) {
                pathDependencies += LocalDependencies.quotedStrings(in: String(line[range])).prefix(1).map { ($0, index + 1) }
            }
        }
        libraries = Self.calls(#"\.library\("#, in: text).map { Self.value(of: "name", in: $0.body) }
        targets = Self.calls(#"\.(target|executableTarget)\("#, in: text).compactMap { call in
            let name = Self.value(of: "name", in: call.body), path = Self.value(of: "path", in: call.body)
            // A computed name with no path has no folder to read.
            guard name != nil || path != nil, call.body.contains("name:") else { return nil }
            return Target(name: name, path: path, isExecutable: call.head.hasPrefix(".executableTarget"))
        }
    }

    /// The argument text of each call matched by `pattern` (which ends at its `(`), with the match.
    private static func calls(_ pattern: String, in text: String) -> [(head: String, body: String)] {
        var found: [(head: String, body: String)] = []
        var rest = Substring(text)
        while let start = rest.range(of: pattern, options: .regularExpression) {
            var depth = 0, end = start.upperBound
            var index = rest.index(before: start.upperBound)
            while index < rest.endIndex {
                if rest[index] == "(" { depth += 1 } else if rest[index] == ")" { depth -= 1; if depth == 0 { end = index; break } }
                index = rest.index(after: index)
            }
            found.append((String(rest[start]), String(rest[start.upperBound..<end])))
            rest = rest[end...]
            if end == start.upperBound { break }
        }
        return found
    }

    /// The string literal after `label:` at the top level of a target's arguments.
    /// The first `label:` is the call's own (a computed `name: Module.kit` is not mistaken for a
    /// dependency's `.product(name: "Other")` further on).
    private static func value(of label: String, in body: String) -> String? {
        guard let first = body.range(of: label + #":\s*"#, options: .regularExpression),
              let range = body.range(of: label + #":\s*"([^"]*)""#, options: .regularExpression), range.lowerBound == first.lowerBound else { return nil }
        return LocalDependencies.quotedStrings(in: String(body[range])).first
    }
}
