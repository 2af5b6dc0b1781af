import Foundation

/// Which of a JavaScript app's script files end up in the iOS app. A repository holds more than the
/// app: a server, backend functions, scripts, Storybook, tests, web-only code. Their code is not the
/// app's, and judging it as the app's (a server's `parseInt(req.body.steps) || 0`) gives false findings.
///
/// Decided from the project's structure: files reached by imports from the app's entry (package.json
/// `main`, `index.js`, Expo Router's `app/` folder). Without an entry, folders that are outside the app
/// by their role (`server/`, `scripts/`, `stories/`, …) are left out unless the app's code imports them.
/// Files that never ship on iOS whatever imports them (tests, stories, `.web.tsx`, Expo `+api` routes)
/// are always left out.
public struct ShippedScripts: Sendable {
    public let kept: [JavaScriptFile]
    /// Left-out files (as shown) and why, in path order.
    public let leftOut: [(path: String, reason: String)]
    /// What the app was followed from (`index.js`, `app/ (Expo Router)`), or nil when no entry was found.
    public let entry: String?

    /// Folders at the top of the web code that hold code outside the app by their role; kept when
    /// the app's code imports them. Deeper down the same names are the app's (`app/tools/` is a route).
    static let outsideFolders: Set<String> = [
        "server", "backend", "functions", "cloud-functions", "edge-functions", "supabase", "convex", "netlify", "lambda", "lambdas",
        "scripts", "tools", "tooling", "test", "tests", "cypress", "playwright", "detox", "docs", "website", "fastlane",
    ]
    /// Folders outside the app wherever they are.
    static let outsideFoldersAnywhere: Set<String> = ["storybook", ".storybook", "stories", "__fixtures__"]
    /// File-name endings of code that never runs in the app: tests, stories, Expo Router's server
    /// routes and web shell.
    static let outsideStems = [".test", ".spec", ".e2e", ".stories", ".story", "+api", "+html"]
    /// React Native builds the iOS bundle from `.ios` / `.native` / plain files, never these.
    static let otherPlatformStems = [".web", ".android"]
    static let scriptExtensions = ["ts", "tsx", "js", "jsx", "mjs", "cjs", "vue", "svelte"]

    /// - Parameters:
    ///   - root: the app's folder as files are shown ("" when it is the site folder).
    ///   - main: package.json's `main`, when the app has one.
    ///   - reactNative: a React Native app, followed from its entry (package.json `main`, else `index`
    ///     or `App`; Expo Router's `app/`), whose `.web` / `.android` files are not in the iOS bundle.
    ///     Capacitor and Cordova web code is not followed: their bundlers' entries vary.
    public static func select(_ files: [JavaScriptFile], root: String, main: String?, reactNative: Bool) -> ShippedScripts {
        let graph = ImportGraph(files: files, root: root)
        let stems = outsideStems + (reactNative ? otherPlatformStems : [])
        var reasons: [Int: String] = [:]
        var never: [Int] = []
        for index in files.indices {
            if let ending = fileEnding(graph.relative[index], among: stems) {
                reasons[index] = "a `\(ending)` file does not ship in the iOS app"
                never.append(index)
            } else if let reason = outsideByFolder(graph.relative[index]) {
                reasons[index] = reason
            }
        }
        let entries = reactNative ? graph.entries(main: main) : nil
        // Without an entry: everything not outside by its role, and what that imports.
        let start = entries?.files ?? files.indices.filter { reasons[$0] == nil }
        let reached = graph.reachable(from: start, skipping: never)
        var kept: [JavaScriptFile] = [], leftOut: [(String, String)] = []
        for (index, file) in files.enumerated() {
            if reached.contains(index) { kept.append(file); continue }
            leftOut.append((file.path, reasons[index] ?? "not imported from \(entries?.description ?? "the app")"))
        }
        return ShippedScripts(kept: kept, leftOut: leftOut, entry: entries?.description)
    }

    /// Why a path (relative to the app) is in a folder outside the app by its role, or nil.
    static func outsideByFolder(_ relative: String) -> String? {
        let folders = relative.split(separator: "/").map(String.init).dropLast()
        if let top = folders.first, outsideFolders.contains(top) { return "in \(top)/, outside the app" }
        for (index, folder) in folders.enumerated() {
            if outsideFoldersAnywhere.contains(folder) { return "in \(folders[...index].joined(separator: "/"))/, outside the app" }
            // Next.js and Expo Router API routes run on a server: `app/api/…`, `src/pages/api/…`.
            if folder == "api", index > 0, ["app", "pages"].contains(folders[index - 1]) {
                return "in \(folders[...index].joined(separator: "/"))/, server routes"
            }
        }
        return nil
    }

    /// The ending among `stems` of a file's name (`Steps.stories.tsx` → `.stories`), or nil.
    static func fileEnding(_ relative: String, among stems: [String]) -> String? {
        let name = stem(relative.split(separator: "/").last.map(String.init) ?? relative)
        return stems.first { name.hasSuffix($0) }
    }

    /// `Steps.web.tsx` → `Steps.web`; `index.d.ts` is not a script here.
    static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), scriptExtensions.contains(String(name[name.index(after: dot)...])) else { return name }
        return String(name[..<dot])
    }

    /// The discovery note for what was left out: how many, and the first few folders.
    /// `noun`: what the files are called in the fact ("script file", "Dart file").
    public func summary(origin: String, noun: String = "script file") -> DiscoveredFact? {
        guard !leftOut.isEmpty else { return nil }
        var folders: [String] = []
        for (path, _) in leftOut {
            let folder = (path as NSString).deletingLastPathComponent
            if !folders.contains(folder) { folders.append(folder) }
        }
        let shown = folders.prefix(4).map { $0.isEmpty ? "./" : $0 + "/" }.joined(separator: ", ") + (folders.count > 4 ? ", …" : "")
        let how = entry.map { "followed from \($0)" } ?? "no entry file found, so folders such as server/, scripts/ and stories/ are left out unless the app imports them"
        return DiscoveredFact("\(Plural.count(leftOut.count, noun)) not audited as the app's code (\(shown)): \(how)", origin: origin)
    }
}

/// The app's own imports between its script files (`import … from './x'`, `require('@/lib/x')`,
/// `import('./Screen')`, `export * from`): packages are not followed.
struct ImportGraph {
    let files: [JavaScriptFile]
    /// Each file's path relative to the app's folder.
    let relative: [String]
    /// Module keys (path without extension, platform suffix or `/index`) → files.
    private let byKey: [String: [Int]]
    /// Last component of each key → keys, for alias imports (`@/lib/health`, `~/hooks/x`).
    private let keysByName: [String: [String]]

    init(files: [JavaScriptFile], root: String) {
        self.files = files
        let prefix = root.isEmpty || root == "." ? "" : root + "/"
        relative = files.map { $0.path.hasPrefix(prefix) ? String($0.path.dropFirst(prefix.count)) : $0.path }
        var byKey: [String: [Int]] = [:]
        for (index, path) in relative.enumerated() {
            for key in Self.keys(of: path) { byKey[key, default: []].append(index) }
        }
        self.byKey = byKey
        var byName: [String: [String]] = [:]
        for key in byKey.keys.sorted() { byName[String(key.split(separator: "/").last ?? ""), default: []].append(key) }
        keysByName = byName
    }

    /// `src/Steps.ios.tsx` → `src/Steps.ios`, `src/Steps`; `src/health/index.ts` → also `src/health`.
    static func keys(of path: String) -> [String] {
        var key = path
        if let dot = key.lastIndex(of: "."), ShippedScripts.scriptExtensions.contains(String(key[key.index(after: dot)...])) { key = String(key[..<dot]) }
        var keys = [key]
        for platform in [".ios", ".native"] where key.hasSuffix(platform) { keys.append(String(key.dropLast(platform.count))) }
        for candidate in keys where candidate == "index" || candidate.hasSuffix("/index") {
            keys.append(candidate == "index" ? "" : String(candidate.dropLast("/index".count)))
        }
        return keys
    }

    /// The module specifiers a file imports, with nothing but string literals read.
    static func specifiers(in file: JavaScriptFile) -> [String] {
        let tokens = file.tokens
        var result: [String] = []
        for (index, token) in tokens.enumerated() where token.kind == .string && index >= 1 {
            let previous = tokens[index - 1]
            if previous.isIdentifier("from") || previous.isIdentifier("import") {
                result.append(token.value)
            } else if previous.isPunctuator("("), index >= 2, tokens[index - 2].isIdentifier("require") || tokens[index - 2].isIdentifier("import"),
                      index + 1 < tokens.count, tokens[index + 1].isPunctuator(")") {
                result.append(token.value)
            }
        }
        return result
    }

    /// `require.context('./app')` (Expo Router's own root, as `<ExpoRoot context={…}>`): the bundler
    /// takes every file of that folder and below.
    static func contextFolders(in file: JavaScriptFile) -> [String] {
        let tokens = file.tokens
        return tokens.indices.compactMap { index in
            guard index + 4 < tokens.count, tokens[index].isIdentifier("require"), tokens[index + 1].isPunctuator("."),
                  tokens[index + 2].isIdentifier("context"), tokens[index + 3].isPunctuator("("), tokens[index + 4].kind == .string else { return nil }
            return tokens[index + 4].value
        }
    }

    /// The files in a folder named relative to file `index`, and below it.
    func filesUnder(_ folder: String, from index: Int) -> [Int] {
        let base = (relative[index] as NSString).deletingLastPathComponent
        guard let joined = AppFiles.normalize(base.isEmpty ? folder : base + "/" + folder) else { return [] }
        let prefix = joined == "." || joined.isEmpty ? "" : joined + "/"
        return relative.indices.filter { relative[$0].hasPrefix(prefix) && $0 != index }
    }

    /// The files a specifier names: relative ones by path, others by the end of their path (an alias
    /// such as `@/lib/x` or a module-resolver root); nothing for a package.
    func resolve(_ specifier: String, from index: Int) -> [Int] {
        var spec = specifier
        if let dot = spec.lastIndex(of: "."), spec[spec.index(after: dot)...].allSatisfy({ $0.isLetter }),
           ShippedScripts.scriptExtensions.contains(String(spec[spec.index(after: dot)...])) {
            spec = String(spec[..<dot])  // `./health.js` names `health.ts` in TypeScript's ESM style
        }
        if spec.hasPrefix("./") || spec.hasPrefix("../") || spec == "." || spec == ".." {
            let folder = (relative[index] as NSString).deletingLastPathComponent
            guard let joined = AppFiles.normalize(folder.isEmpty ? spec : folder + "/" + spec) else { return [] }
            return byKey[joined == "." ? "" : joined] ?? []
        }
        let parts = spec.split(separator: "/").map(String.init)
        guard let name = parts.last else { return [] }
        var found: [Int] = []
        for suffix in [parts.joined(separator: "/"), parts.dropFirst().joined(separator: "/")] where !suffix.isEmpty {
            for key in keysByName[name] ?? [] where key == suffix || key.hasSuffix("/" + suffix) {
                found += byKey[key] ?? []
            }
            if !found.isEmpty { break }
        }
        return found
    }

    /// The files imports lead to from `start`, never entering `skipping`.
    func reachable(from start: [Int], skipping: [Int]) -> Set<Int> {
        let skipped = Set(skipping)
        var seen = Set(start.filter { !skipped.contains($0) })
        var queue = Array(seen).sorted()
        while let next = queue.popLast() {
            let imported = Self.specifiers(in: files[next]).flatMap { resolve($0, from: next) }
                + Self.contextFolders(in: files[next]).flatMap { filesUnder($0, from: next) }
            for target in imported where !skipped.contains(target) && seen.insert(target).inserted {
                queue.append(target)
            }
        }
        return seen
    }

    /// The app's entry files: package.json `main` (or `index`, then `App`), and with Expo Router every
    /// route under `app/` (or `src/app/`). Nil when none is found.
    func entries(main: String?) -> (files: [Int], description: String)? {
        var start: [Int] = []
        var shown: [String] = []
        var router = false
        let written = main.map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }
        switch written {
        case "expo-router/entry":
            router = true
        case let main? where main.hasPrefix("node_modules/expo/AppEntry") || main == "expo/AppEntry":
            start = byKey["App"] ?? []
        case let main? where !main.isEmpty:
            start = resolveFromRoot(main)
        default:
            start = byKey["index"] ?? []
            if start.isEmpty { start = byKey["App"] ?? [] }
        }
        shown += start.map { "`\(relative[$0])`" }
        // `import 'expo-router/entry'` in the entry file.
        if start.contains(where: { Self.specifiers(in: files[$0]).contains("expo-router/entry") }) { router = true }
        if router {
            let folder = relative.contains { $0.hasPrefix("src/app/") } && !relative.contains { $0.hasPrefix("app/") } ? "src/app/" : "app/"
            let routes = relative.indices.filter { relative[$0].hasPrefix(folder) }
            if !routes.isEmpty {
                start += routes
                shown.append("`\(folder)` (Expo Router)")
            }
        }
        guard !start.isEmpty else { return nil }
        return (start, shown.joined(separator: " and "))
    }

    private func resolveFromRoot(_ path: String) -> [Int] {
        guard let normalized = AppFiles.normalize(path) else { return [] }
        var key = normalized
        if let dot = key.lastIndex(of: "."), ShippedScripts.scriptExtensions.contains(String(key[key.index(after: dot)...])) { key = String(key[..<dot]) }
        return byKey[key] ?? []
    }
}
