import Manifest

/// The names each JavaScript / TypeScript file binds to a HealthKit library, followed through the
/// app's own code: static imports and `require`, dynamic `await import('…')`, aliases
/// (`AppleHealthKit = hkModule.default || hkModule`), the app's functions that hand the module back
/// (`const hk = await getHealthKit()`), and modules of the app that re-export the library
/// (`export * from '@kingstinct/react-native-healthkit'`) or export one of those names.
struct JavaScriptBindings {
    /// Names a member call goes through to reach the library (`HK.requestAuthorization`).
    var receivers: [String: HealthKitLibrary] = [:]
    /// Bare functions: local name → (the library's name, library).
    var functions: [String: (String, HealthKitLibrary)] = [:]
    /// The app's functions that return the library's module (`getHealthKit`).
    var providers: [String: HealthKitLibrary] = [:]

    var isEmpty: Bool { receivers.isEmpty && functions.isEmpty && providers.isEmpty }

    /// What a file exports that another file can import: named exports and the default one, each
    /// a receiver, a provider or a library function; `everything` when it re-exports a whole library.
    fileprivate struct Exports {
        var named: [String: Bound] = [:]
        var defaultExport: Bound?
        var everything: HealthKitLibrary?
    }

    fileprivate enum Bound {
        case receiver(HealthKitLibrary)
        case provider(HealthKitLibrary)
        case function(String, HealthKitLibrary)
    }

    /// Every file's bindings, settled over a few passes (an alias of an alias, a provider imported
    /// from a module that re-exports another): real apps settle in two or three.
    /// `plugins`: the app's own Capacitor plugins by `jsName` (`AppPlugins`), bound where
    /// `registerPlugin('<jsName>')` is assigned.
    static func resolve(_ files: [JavaScriptFile], plugins: [String: HealthKitLibrary] = [:]) -> [JavaScriptBindings] {
        var result = files.map { _ in JavaScriptBindings() }
        // Files that mention no library and import nothing of the app's own cannot bind anything.
        let relevant = files.indices.filter { index in
            files[index].tokens.contains { $0.kind == .string && ($0.value.hasPrefix(".") || $0.value.hasPrefix("@/") || $0.value.hasPrefix("~/")
                || library(named: $0.value) != nil || plugins[$0.value] != nil) }
        }
        guard !relevant.isEmpty else { return result }
        let paths = ModulePaths(files: files)
        var exports = files.map { _ in Exports() }
        for _ in 0..<6 {
            var changed = false
            for index in relevant {
                var bindings = result[index]
                let before = bindings.count
                bindings.bindImports(in: files[index], exports: exports, paths: paths)
                if !plugins.isEmpty { bindings.bindPlugins(in: files[index], plugins: plugins) }
                bindings.bindAliases(in: files[index])
                if bindings.count != before { changed = true }
                result[index] = bindings
                let fileExports = Self.exports(of: files[index], bindings: bindings)
                if fileExports.count != exports[index].count { changed = true }
                exports[index] = fileExports
            }
            if !changed { break }
        }
        return result
    }

    private var count: Int { receivers.count + functions.count + providers.count }

    static func library(named module: String) -> HealthKitLibrary? { HealthKitLibrary.all.first { $0.modules.contains(module) } }

    // MARK: Imports

    /// `import … from`, `require(…)` and `import(…)` of a library, or of an app module that exports one.
    private mutating func bindImports(in file: JavaScriptFile, exports: [Exports], paths: ModulePaths) {
        let tokens = file.tokens
        for (index, token) in tokens.enumerated() where token.kind == .string {
            let direct = Self.library(named: token.value)
            let exported = direct == nil ? paths.file(importing: token.value, from: file.path).map { exports[$0] } : nil
            guard direct != nil || exported.map({ !$0.isEmpty }) == true else { continue }
            if index >= 1, tokens[index - 1].isIdentifier("from") {
                bindStatic(at: index, in: file, library: direct, exports: exported)
            } else if index >= 2, tokens[index - 1].isPunctuator("("),
                      tokens[index - 2].isIdentifier("require") || (tokens[index - 2].isIdentifier("import") && !(index >= 3 && tokens[index - 3].isIdentifier("typeof"))) {
                bindDynamic(at: index - 2, in: file, library: direct, exports: exported)
            }
        }
    }

    /// `import X, { a as b, type T } from '…'` / `import * as X from '…'` (re-exports start with `export`: not bindings).
    private mutating func bindStatic(at index: Int, in file: JavaScriptFile, library: HealthKitLibrary?, exports: Exports?) {
        let tokens = file.tokens
        var start = index - 2
        while start > 0, !tokens[start].isIdentifier("import"), !tokens[start].isIdentifier("export"), !tokens[start].isPunctuator(";") { start -= 1 }
        guard start >= 0, tokens[start].isIdentifier("import") else { return }
        var i = start + 1
        while i < index - 1 {
            let t = tokens[i]
            if t.isPunctuator("*"), i + 2 < index, tokens[i + 1].isIdentifier("as") {
                if let library = library ?? exports?.everything { receivers[tokens[i + 2].text] = library }
                i += 3
                continue
            }
            if t.isPunctuator("{"), let close = file.partner[i] {
                for item in file.items(of: i) {
                    let parts = item.map { tokens[$0] }.filter { !$0.isIdentifier("type") }
                    guard let first = parts.first, first.kind == .identifier else { continue }
                    let local = parts.count == 3 && parts[1].isIdentifier("as") ? parts[2].text : first.text
                    if let library {
                        // A named import is a function (`{ requestAuthorization }`) or the plugin
                        // object (Capacitor's `{ Health }`): bound as both, its use decides.
                        functions[local] = (first.text, library)
                        receivers[local] = library
                    } else if let exports {
                        if first.text == "default" { bind(local, exports.defaultExport) } else { bind(local, exports.named[first.text] ?? exports.everything.map { .function(first.text, $0) }) }
                        if let everything = exports.everything, exports.named[first.text] == nil, first.text != "default" { receivers[local] = everything }
                    }
                }
                i = close + 1
                continue
            }
            if t.kind == .identifier, !t.isIdentifier("type") {
                if let library { receivers[t.text] = library } else { bind(t.text, exports?.defaultExport) }
            }
            i += 1
        }
    }

    /// `const X = require('…')`, `X = await import('…')`, `const { a } = await import('…')`,
    /// `import('…').then((X) => …)`; `callee` is the `require` / `import` token.
    private mutating func bindDynamic(at callee: Int, in file: JavaScriptFile, library: HealthKitLibrary?, exports: Exports?) {
        let tokens = file.tokens
        guard let library = library ?? exports?.everything ?? exports?.defaultExport.flatMap(Self.receiverLibrary) else { return }
        var before = callee - 1
        if before >= 0, tokens[before].isIdentifier("await") { before -= 1 }
        if before >= 0, tokens[before].isPunctuator("=") {
            bindAssigned(before, library: library, in: file)
        } else if before >= 0, tokens[before].isIdentifier("return") {
            if let name = Self.enclosingFunctionName(of: before, in: file) { providers[name] = library }
        }
        // `import('…').then((m) => …)`: the callback's parameter.
        if let close = file.partner[callee + 1], close + 3 < tokens.count, tokens[close + 1].isPunctuator("."), tokens[close + 2].isIdentifier("then"),
           tokens[close + 3].isPunctuator("(") {
            var p = close + 4
            if p < tokens.count, tokens[p].isPunctuator("(") { p += 1 }
            if p < tokens.count, tokens[p].kind == .identifier, !tokens[p].isIdentifier("async") { receivers[tokens[p].text] = library }
        }
    }

    /// The name (or destructured names) an `=` at `equals` binds to the library.
    private mutating func bindAssigned(_ equals: Int, library: HealthKitLibrary, in file: JavaScriptFile) {
        let tokens = file.tokens
        var lhs = equals - 1
        // `let cachedModule: HealthKitModule | null = …`: the name before a type annotation.
        var scan = lhs
        while scan > 0, scan > equals - 12, !tokens[scan].isPunctuator(":"), !tokens[scan].isPunctuator(";"), !tokens[scan].isPunctuator("}"), !tokens[scan].isPunctuator("{") { scan -= 1 }
        if scan > 1, tokens[scan].isPunctuator(":"), tokens[scan - 1].kind == .identifier, file.parent[scan] == file.parent[equals],
           ["let", "const", "var", "private", "public", "protected", "readonly", "static"].contains(tokens[scan - 2].text) { lhs = scan - 1 }
        if tokens[lhs].kind == .identifier {
            receivers[tokens[lhs].text] = library
        } else if tokens[lhs].isPunctuator("}"), let open = file.partner[lhs] {
            for item in file.items(of: open) {
                let parts = item.map { tokens[$0] }
                guard let first = parts.first, first.kind == .identifier else { continue }
                // `{ requestAuthorization: ask }` binds `ask`.
                let local = parts.count == 3 && parts[1].isPunctuator(":") && parts[2].kind == .identifier ? parts[2].text : first.text
                // As with a named static import: a function (`{ requestAuthorization }`) or the plugin
                // object (`const { Health } = await import('@capgo/capacitor-health')`), its use decides.
                functions[local] = (first.text, library)
                receivers[local] = library
            }
        }
    }

    /// `const HealthKit = registerPlugin<HealthKitPlugin>('HealthKit')`: the app's own plugin.
    private mutating func bindPlugins(in file: JavaScriptFile, plugins: [String: HealthKitLibrary]) {
        let tokens = file.tokens
        for (index, token) in tokens.enumerated() where token.kind == .string && index >= 2 && tokens[index - 1].isPunctuator("(") {
            guard let library = plugins[token.value] else { continue }
            // Back over a type argument (`registerPlugin<HealthKitPlugin>(`).
            var callee = index - 2
            if tokens[callee].isPunctuator(">") {
                // Nested type arguments (`registerPlugin<{ f(): Promise<{ granted: boolean }> }>(`): count the angle brackets.
                var depth = 0
                while callee > 0 {
                    if tokens[callee].isPunctuator(">") { depth += 1 } else if tokens[callee].isPunctuator("<") { depth -= 1; if depth == 0 { break } }
                    callee -= 1
                }
                callee -= 1
            }
            guard callee >= 1, tokens[callee].isIdentifier("registerPlugin") else { continue }
            var before = callee - 1
            if tokens[before].isPunctuator("."), before >= 1 { before -= 2 }  // `Capacitor.registerPlugin(`
            if before >= 0, tokens[before].isIdentifier("await") { before -= 1 }
            if before >= 1, tokens[before].isPunctuator("=") { bindAssigned(before, library: library, in: file) }
        }
    }

    // MARK: Aliases and providers

    /// `AppleHealthKit = hkModule.default || hkModule`, `const hk = await getHealthKit()`, and the
    /// app's functions that return a receiver (`function getHK() { return AppleHealthKit }`).
    private mutating func bindAliases(in file: JavaScriptFile) {
        let tokens = file.tokens
        guard !receivers.isEmpty || !providers.isEmpty else { return }
        for index in tokens.indices {
            let token = tokens[index]
            if token.isPunctuator("="), index >= 1, let library = moduleValue(startingAt: index + 1, in: file) {
                bindAssigned(index, library: library, in: file)
            } else if token.isIdentifier("return"), let library = moduleValue(startingAt: index + 1, in: file),
                      let name = Self.enclosingFunctionName(of: index, in: file) {
                providers[name] = library
            } else if token.isPunctuator("=>"), index + 1 < tokens.count, !tokens[index + 1].isPunctuator("{"),
                      let library = moduleValue(startingAt: index + 1, in: file), let name = Self.arrowName(endingAt: index - 1, in: file) {
                providers[name] = library
            }
        }
    }

    /// The library an expression is the module of: a receiver (`hkModule`, `hkModule.default`,
    /// `a.default || a`), or a provider's call (`await getHealthKit()`); nil for anything computed from it.
    private func moduleValue(startingAt start: Int, in file: JavaScriptFile) -> HealthKitLibrary? {
        let tokens = file.tokens
        var i = start
        if i < tokens.count, tokens[i].isIdentifier("await") { i += 1 }
        while i < tokens.count, tokens[i].isPunctuator("(") { i += 1 }
        // `this.module`, `this.getModule()`.
        if i + 2 < tokens.count, tokens[i].isIdentifier("this"), tokens[i + 1].isPunctuator(".") { i += 2 }
        guard i < tokens.count, tokens[i].kind == .identifier else { return nil }
        let name = tokens[i].text
        var next = i + 1
        let library: HealthKitLibrary
        if let receiver = receivers[name] {
            library = receiver
            if next + 1 < tokens.count, tokens[next].isPunctuator("."), tokens[next + 1].isIdentifier("default") { next += 2 }
        } else if let provider = providers[name], next < tokens.count, tokens[next].isPunctuator("("), let close = file.partner[next], close == next + 1 {
            library = provider
            next = close + 1
        } else {
            return nil
        }
        guard next < tokens.count else { return library }
        let after = tokens[next]
        // A member, a call or an index of it is something else (`hk.getSteps()`).
        if after.isPunctuator(".") || after.isPunctuator("?.") || after.isPunctuator("(") || after.isPunctuator("[") || after.isPunctuator("=") { return nil }
        return library
    }

    /// The name of the function whose body holds `index`: `function NAME(…) {`, `NAME(…) {` (a
    /// method), or `const NAME = (async) (…) => {`.
    static func enclosingFunctionName(of index: Int, in file: JavaScriptFile) -> String? { enclosingFunction(of: index, in: file)?.name }

    /// The `new` of `new Promise(` or `new Promise<boolean>(` when `open` is that call's `(`, else nil.
    static func promiseNew(opening open: Int, in file: JavaScriptFile) -> Int? {
        let tokens = file.tokens
        guard tokens[open].isPunctuator("(") else { return nil }
        var i = open - 1
        if i >= 0, tokens[i].isPunctuator(">") {
            while i > 0, !tokens[i].isPunctuator("<") { i -= 1 }
            i -= 1
        }
        return i >= 1 && tokens[i].isIdentifier("Promise") && tokens[i - 1].isIdentifier("new") ? i - 1 : nil
    }

    /// The innermost named function around `index`: its name and the `{` of its body.
    static func enclosingFunction(of index: Int, in file: JavaScriptFile) -> (name: String, body: Int)? {
        let tokens = file.tokens
        var brace = file.parent[index]
        while let open = brace {
            guard tokens[open].isPunctuator("{") else { brace = file.parent[open]; continue }
            if open >= 1, tokens[open - 1].isPunctuator("=>") {
                if let name = arrowName(endingAt: open - 2, in: file) { return (name, open) }
                // `new Promise((resolve) => { … })`: the executor runs as part of the function around it.
                guard let call = file.parent[open], tokens[call].isPunctuator("("), call >= 2, tokens[call - 1].isIdentifier("Promise"),
                      tokens[call - 2].isIdentifier("new") else { return nil }
                brace = file.parent[call]
                continue
            }
            // Back over a return type annotation to the parameters' `)`, and over an object type in it
            // (`): Promise<{ days: number[] }> {`), whose `{` follows `<`, `:`, `|`, `&` or `,`.
            var j = open - 1
            var budget = 16
            while j >= 0, budget > 0, file.parent[j] == file.parent[open], !tokens[j].isPunctuator(")"),
                  !tokens[j].isPunctuator(";"), !tokens[j].isPunctuator("{"), !tokens[j].isPunctuator("=") {
                if tokens[j].isPunctuator("}") {
                    guard let typeOpen = file.partner[j], typeOpen >= 1, ["<", ":", "|", "&", ","].contains(tokens[typeOpen - 1].text),
                          tokens[typeOpen - 1].kind == .punctuator else { break }
                    j = typeOpen - 1
                    budget -= 1
                    continue
                }
                j -= 1
                budget -= 1
            }
            if j >= 1, tokens[j].isPunctuator(")"), let paren = file.partner[j], paren >= 1 {
                let name = tokens[paren - 1].text
                // A block of a statement: its function is further out.
                if !["if", "for", "while", "switch", "catch", "with"].contains(name) {
                    // Only the innermost function counts: a `return` in a callback returns from the callback.
                    return tokens[paren - 1].kind == .identifier && name != "function" ? (name, open) : nil
                }
            }
            brace = file.parent[open]
        }
        return nil
    }

    /// `const NAME = async (…) =>` / `const NAME = x =>`, given the index just before `=>`.
    static func arrowName(endingAt end: Int, in file: JavaScriptFile) -> String? {
        let tokens = file.tokens
        guard end >= 0 else { return nil }
        var i = end
        // Back over a return type annotation (`(): Promise<M> =>`).
        var scan = i
        while scan > 0, scan > end - 12, !tokens[scan].isPunctuator(")"), !tokens[scan].isPunctuator("="), !tokens[scan].isPunctuator(";") { scan -= 1 }
        if tokens[scan].isPunctuator(")") { i = scan }
        if tokens[i].isPunctuator(")"), let open = file.partner[i] { i = open - 1 } else if tokens[i].kind == .identifier { i -= 1 } else { return nil }
        if i >= 0, tokens[i].isIdentifier("async") { i -= 1 }
        // `const NAME = useCallback(async () => …, [deps])`: React keeps the function under that name.
        if i >= 3, tokens[i].isPunctuator("("), memoizingHooks.contains(tokens[i - 1].text), tokens[i - 2].isPunctuator("="), tokens[i - 3].kind == .identifier {
            return tokens[i - 3].text
        }
        guard i >= 1, tokens[i].isPunctuator("="), tokens[i - 1].kind == .identifier else { return nil }
        return tokens[i - 1].text
    }

    /// Hooks that hand back the function they are given.
    static let memoizingHooks: Set<String> = ["useCallback", "useEvent", "useEffectEvent"]

    private mutating func bind(_ local: String, _ bound: Bound?) {
        switch bound {
        case .receiver(let library)?: receivers[local] = library
        case .provider(let library)?: providers[local] = library
        case .function(let name, let library)?: functions[local] = (name, library)
        case nil: break
        }
    }

    private static func receiverLibrary(_ bound: Bound) -> HealthKitLibrary? {
        if case .receiver(let library) = bound { return library }
        return nil
    }

    // MARK: Exports

    /// `export * from 'lib'`, `export { default as Health } from 'lib'`, `export const HK = …`,
    /// `export function getHK()`, `export { HK }`, `export default HK`, `module.exports = HK`.
    private static func exports(of file: JavaScriptFile, bindings: JavaScriptBindings) -> Exports {
        var exports = Exports()
        let tokens = file.tokens
        func bound(_ name: String) -> Bound? {
            if let library = bindings.providers[name] { return .provider(library) }
            if let (original, library) = bindings.functions[name], library.kind(of: original) != nil { return .function(original, library) }
            return bindings.receivers[name].map(Bound.receiver)
        }
        for index in tokens.indices {
            let token = tokens[index]
            if token.isIdentifier("export"), index + 1 < tokens.count {
                let next = tokens[index + 1]
                if next.isPunctuator("*"), index + 3 < tokens.count, tokens[index + 2].isIdentifier("from"), let library = library(named: tokens[index + 3].value) {
                    exports.everything = library
                } else if next.isPunctuator("{"), let close = file.partner[index + 1] {
                    let source = close + 2 < tokens.count && tokens[close + 1].isIdentifier("from") ? library(named: tokens[close + 2].value) : nil
                    for item in file.items(of: index + 1) {
                        let parts = item.map { tokens[$0] }.filter { !$0.isIdentifier("type") }
                        guard let first = parts.first, first.kind == .identifier else { continue }
                        let exported = parts.count == 3 && parts[1].isIdentifier("as") ? parts[2].text : first.text
                        let value: Bound? = source.map { library in
                            first.text == "default" || library.kind(of: first.text) == nil ? .receiver(library) : .function(first.text, library)
                        } ?? bound(first.text)
                        guard let value else { continue }
                        if exported == "default" { exports.defaultExport = value } else { exports.named[exported] = value }
                    }
                } else if next.isIdentifier("default"), index + 2 < tokens.count, tokens[index + 2].kind == .identifier, let value = bound(tokens[index + 2].text) {
                    exports.defaultExport = value
                } else {
                    // `export (async) function NAME` / `export const NAME`.
                    var i = index + 1
                    while i < tokens.count, i < index + 4, ["async", "function", "const", "let", "var"].contains(tokens[i].text) { i += 1 }
                    if i < tokens.count, i > index + 1, tokens[i].kind == .identifier, let value = bound(tokens[i].text) { exports.named[tokens[i].text] = value }
                }
            } else if token.isIdentifier("module"), index + 4 < tokens.count, tokens[index + 1].isPunctuator("."), tokens[index + 2].isIdentifier("exports"),
                      tokens[index + 3].isPunctuator("="), tokens[index + 4].kind == .identifier, let value = bound(tokens[index + 4].text) {
                exports.defaultExport = value
            }
        }
        return exports
    }
}

private extension JavaScriptBindings.Exports {
    var isEmpty: Bool { named.isEmpty && defaultExport == nil && everything == nil }
    var count: Int { named.count + (defaultExport == nil ? 0 : 1) + (everything == nil ? 0 : 1) }
}

/// The app's own modules by the paths an import names: relative (`./health`, `../lib/health`) or
/// through a root alias (`@/lib/health`, `~/lib/health`), with or without an extension or `/index`.
private struct ModulePaths {
    private var byPath: [String: Int] = [:]

    init(files: [JavaScriptFile]) {
        for (index, file) in files.enumerated() {
            var path = file.path
            for ext in [".tsx", ".ts", ".jsx", ".js", ".mjs", ".cjs", ".mts"] where path.hasSuffix(ext) { path.removeLast(ext.count); break }
            byPath[path] = byPath[path] ?? index
            if path.hasSuffix("/index") { byPath[String(path.dropLast(6))] = byPath[String(path.dropLast(6))] ?? index }
        }
    }

    func file(importing specifier: String, from importer: String) -> Int? {
        var path: String
        if specifier.hasPrefix(".") {
            var parts = importer.split(separator: "/").dropLast().map(String.init)
            for part in specifier.split(separator: "/") {
                if part == ".." { if !parts.isEmpty { parts.removeLast() } } else if part != "." { parts.append(String(part)) }
            }
            path = parts.joined(separator: "/")
        } else if specifier.hasPrefix("@/") || specifier.hasPrefix("~/") {
            path = String(specifier.dropFirst(2))
            // The alias names the app's root, which may sit below the site folder: the one file ending so.
            if let index = byPath[path] { return index }
            let matches = byPath.filter { $0.key.hasSuffix("/" + path) }
            return matches.count == 1 ? matches.first!.value : nil
        } else {
            return nil
        }
        for ext in [".tsx", ".ts", ".jsx", ".js", ".mjs", ".cjs", ".mts"] where path.hasSuffix(ext) { path.removeLast(ext.count); break }
        return byPath[path]
    }
}
