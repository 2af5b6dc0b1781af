import Manifest

/// JavaScript / TypeScript (or Dart) functions nothing in the app names: a finding inside one describes code
/// that never runs (a service method left unused, called only from another unused method). Found,
/// as `UncalledFunctions` finds Swift's, by name across the app's script files as written — strings,
/// comments and a single-file component's template included, the cautious count — and to a fixed
/// point, so a use inside an uncalled function does not count. Entry points are never uncalled: an
/// export (the module's interface; a default export is a screen a file router mounts), a component's
/// lifecycle method, a constructor.
struct UncalledScriptFunctions {
    /// Per file path, the line ranges of the uncalled functions' bodies, with where each is declared.
    private let ranges: [String: [(lines: ClosedRange<Int>, declaration: Evidence)]]

    static let entries: Set<String> = [
        "constructor", "render", "componentDidMount", "componentDidUpdate", "componentWillUnmount", "shouldComponentUpdate",
        "getDerivedStateFromProps", "getSnapshotBeforeUpdate", "componentDidCatch", "getDerivedStateFromError",
        "setup", "data", "mounted", "created", "beforeMount", "beforeUnmount", "unmounted", "ngOnInit", "ngOnDestroy",
        "main", "default",
        // Flutter's framework calls these on the app's widgets and states.
        "build", "initState", "dispose", "didChangeDependencies", "didUpdateWidget", "createState", "deactivate", "reassemble",
    ]

    private struct Function {
        let file: Int
        let name: String
        let declaration: Evidence
        let lines: ClosedRange<Int>
    }

    /// `files`: the app's JavaScript / TypeScript files, or its Dart files (one language at a time).
    init(files: [JavaScriptFile]) {
        var functions: [Function] = []
        let imported = Self.importedModules(files)
        for (index, file) in files.enumerated() {
            let tokens = file.tokens
            // A classic script (no import, export or require) declares globals, which its page's HTML may call.
            let isModule = tokens.contains { $0.isIdentifier("import") || $0.isIdentifier("export") || $0.isIdentifier("require") }
            for open in tokens.indices where tokens[open].isPunctuator("{") {
                guard let close = file.partner[open], open + 1 < tokens.count,
                      let function = JavaScriptBindings.enclosingFunction(of: open + 1, in: file), function.body == open,
                      !Self.entries.contains(function.name), !Self.isDefaultExport(before: open, in: file) else { continue }
                let declaration = Self.nameToken(of: function.name, before: open, in: file)
                // An exported function is the module's interface, like Swift's `public`: code the audit did not
                // read may call it — unless the module is one the app's own files import (`./services/health`):
                // then its exports are the app's to call, and one nothing names is dead. Methods of a class
                // and a module's own functions are the app's to call.
                if let declaration, Self.isExported(declaration, in: file), !imported.contains(Self.moduleName(of: file.path)) { continue }
                let isDart = file.path.hasSuffix(".dart")
                if !isModule && !isDart, declaration.map({ file.parent[$0] == nil }) ?? false { continue }
                // Dart: a method the framework calls (`@override`), or a constructor (`Name(…) {`, `Name.named(…) {`).
                if isDart, let declaration, Self.isOverride(declaration, in: file) || function.name.first?.isUppercase == true
                    || (declaration >= 2 && tokens[declaration - 1].isPunctuator(".") && tokens[declaration - 2].text.first?.isUppercase == true) { continue }
                let at = declaration ?? open
                functions.append(Function(file: index, name: function.name, declaration: Evidence(location: file.location(of: at), quote: file.quote(at)),
                                          lines: tokens[open].line...tokens[close].line))
            }
        }
        guard !functions.isEmpty else { ranges = [:]; return }
        // Every whole-word occurrence of each name, by file and line, in the files as written.
        let names = Set(functions.map(\.name))
        var occurrences: [String: [(file: Int, line: Int)]] = [:]
        for (index, file) in files.enumerated() {
            // A name that only labels or hands the function on under its own name calls nothing.
            var handOn = Self.handOnTokens(in: file, names: names)
            for (offset, line) in file.textLines.enumerated() {
                for word in Self.words(in: line) where names.contains(String(word)) {
                    let key = HandOn(name: String(word), line: offset + 1)
                    if let left = handOn[key], left > 0 { handOn[key] = left - 1; continue }
                    occurrences[String(word), default: []].append((index, offset + 1))
                }
            }
        }
        var dead = Set<Int>()
        // Each round adds the functions whose every use is in their own body, their declaration's line,
        // or the body of a function already found uncalled.
        for _ in 0..<6 {
            var added = false
            for (position, function) in functions.enumerated() where !dead.contains(position) {
                let used = (occurrences[function.name] ?? []).contains { use in
                    if use.file == function.file && (use.line == function.declaration.location.line || function.lines.contains(use.line)) { return false }
                    return !dead.contains { other in functions[other].file == use.file && functions[other].lines.contains(use.line) }
                }
                if !used { dead.insert(position); added = true }
            }
            if !added { break }
        }
        var ranges: [String: [(lines: ClosedRange<Int>, declaration: Evidence)]] = [:]
        for position in dead.sorted() {
            let function = functions[position]
            ranges[files[function.file].path, default: []].append((function.lines, function.declaration))
        }
        self.ranges = ranges
    }

    private struct HandOn: Hashable { let name: String; let line: Int }

    /// How many times, per line, a name only labels a member or hands a function on under its own name:
    /// a key or a TypeScript member (`getDailySteps: (date: Date) => Promise<number>;`) and a shorthand
    /// property of a JSX attribute's object literal (a React context's `value={{ getDailySteps }}`). The function runs only
    /// if something calls that property, which is itself a use of the name elsewhere. Destructuring
    /// (`const { getDailySteps } = useHealth()`), imports and exports still count as uses.
    private static func handOnTokens(in file: JavaScriptFile, names: Set<String>) -> [HandOn: Int] {
        let tokens = file.tokens
        var found: [HandOn: Int] = [:]
        for index in tokens.indices.dropFirst().dropLast() where tokens[index].kind == .identifier && names.contains(tokens[index].text) {
            let before = tokens[index - 1], after = tokens[index + 1]
            guard ["{", ",", ";", "("].contains(where: before.isPunctuator), let open = file.parent[index] else { continue }
            let key = HandOn(name: tokens[index].text, line: tokens[index].line)
            if tokens[open].isPunctuator("(") {
                // A named argument's label (Dart `f(steps: x)`) names no function.
                if after.isPunctuator(":") { found[key, default: 0] += 1 }
                continue
            }
            guard tokens[open].isPunctuator("{"), !Self.isPattern(open, in: file) else { continue }
            let isLabel = after.isPunctuator(":") || (after.isPunctuator("?") && index + 2 < tokens.count && tokens[index + 2].isPunctuator(":"))
            // A shorthand hands the function on only in a JSX attribute's object (`value={{ getDailySteps }}`, a
            // context's value, which callers reach by name): a map indexed at run time (`readers[kind]()`) or a
            // hook's returned object keeps it used, and a lone `{handler}` is a JSX expression that uses it. (The
            // tokenizer skips a JSX element's text: `value={{ … }}` is two braces that close together.)
            let inAttribute = open >= 1 && tokens[open - 1].isPunctuator("{") && file.partner[open].map { $0 + 1 } == file.partner[open - 1]
            if isLabel || ((after.isPunctuator(",") || after.isPunctuator("}")) && inAttribute) { found[key, default: 0] += 1 }
        }
        return found
    }

    /// Whether the braces opened at `open` are a pattern, an import or an export, which name a function to use
    /// it: `const { getDailySteps: read } = useHealth()`, `({ getDailySteps }) =>`, `import { a } from`.
    private static func isPattern(_ open: Int, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        if open >= 1, ["import", "export", "const", "let", "var", "("].contains(tokens[open - 1].text) { return true }
        guard let close = file.partner[open], close + 1 < tokens.count else { return false }
        return ["=", ")", ":"].contains(where: tokens[close + 1].isPunctuator)
    }

    /// The modules the files import by a relative path (`'./services/healthkit'`, `'../lib/health.js'`),
    /// resolved against the importing file's folder, without extension: `src/services/healthkit`.
    static func importedModules(_ files: [JavaScriptFile]) -> Set<String> {
        var modules: Set<String> = []
        for file in files {
            let tokens = file.tokens
            let folder = file.path.split(separator: "/").dropLast().map(String.init)
            for (index, token) in tokens.enumerated() where token.kind == .string && index >= 1 {
                let before = tokens[index - 1]
                let isSpecifier = before.isIdentifier("from") || before.isIdentifier("import")
                    || (before.isPunctuator("(") && index >= 2 && (tokens[index - 2].isIdentifier("require") || tokens[index - 2].isIdentifier("import")))
                guard isSpecifier, token.value.hasPrefix(".") else { continue }
                var parts = folder
                for part in token.value.split(separator: "/") {
                    if part == "." { continue }
                    if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
                    parts.append(String(part))
                }
                guard let last = parts.popLast() else { continue }
                parts.append(Self.withoutExtension(last))
                modules.insert(parts.joined(separator: "/"))
            }
        }
        return modules
    }

    /// `src/services/healthkit.ts` → `src/services/healthkit`; `src/health/index.ts` → `src/health` (what an import names).
    static func moduleName(of path: String) -> String {
        var parts = path.split(separator: "/").map(String.init)
        guard let last = parts.popLast() else { return path }
        let name = withoutExtension(last)
        if name == "index", !parts.isEmpty { return parts.joined(separator: "/") }
        parts.append(name)
        return parts.joined(separator: "/")
    }

    /// `health.ts` → `health`; `health.styles.ts` → `health.styles`; `health` → `health`.
    private static func withoutExtension(_ name: String) -> String {
        let known = ["ts", "tsx", "js", "jsx", "mjs", "cjs", "vue", "dart"]
        guard let dot = name.lastIndex(of: "."), known.contains(String(name[name.index(after: dot)...])) else { return name }
        return String(name[..<dot])
    }

    /// Whether `line` of `path` is inside a function nothing in the app calls.
    func contains(path: String, line: Int) -> Bool { declaration(around: line, in: path) != nil }

    /// Where the uncalled function around `line` of `path` is declared (the outermost one), or nil.
    func declaration(around line: Int, in path: String) -> Evidence? {
        ranges[path]?.filter { $0.lines.contains(line) }.max { $0.lines.count < $1.lines.count }?.declaration
    }

    /// `@override` on the line of, or the line before, a Dart method's name.
    private static func isOverride(_ name: Int, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        var k = name - 1
        while k >= 1, k > name - 12, tokens[name].line - tokens[k].line <= 1 {
            if tokens[k].isIdentifier("override"), tokens[k - 1].isPunctuator("@") { return true }
            if tokens[k].isPunctuator(";") || tokens[k].isPunctuator("}") || tokens[k].isPunctuator("{") { return false }
            k -= 1
        }
        return false
    }

    /// `export default function Screen() {` / `export default async () => {`.
    private static func isDefaultExport(before open: Int, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        var k = open - 1
        let floor = max(0, open - 64)
        while k > floor, !tokens[k].isPunctuator(";"), !tokens[k].isPunctuator("}"), !(tokens[k].isPunctuator("{") && file.partner[k] != nil) {
            if tokens[k].isIdentifier("default"), k >= 1, tokens[k - 1].isIdentifier("export") { return true }
            if let partner = file.partner[k], partner < k { k = partner }
            k -= 1
        }
        return false
    }

    /// `export function f`, `export async function f`, `export const f = …`, `exports.f = …`.
    private static func isExported(_ name: Int, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        var k = name - 1
        while k >= 0, ["function", "async", "const", "let", "var", "*"].contains(tokens[k].text) { k -= 1 }
        if k >= 0, tokens[k].isIdentifier("export") { return true }
        return name >= 2 && tokens[name - 1].isPunctuator(".") && (tokens[name - 2].isIdentifier("exports") || tokens[name - 2].isIdentifier("module"))
    }

    /// The token naming the function, the nearest one before its body.
    private static func nameToken(of name: String, before open: Int, in file: JavaScriptFile) -> Int? {
        var k = open - 1
        while k >= max(0, open - 64) {
            if file.tokens[k].isIdentifier(name) { return k }
            k -= 1
        }
        return nil
    }

    /// Identifier-like words of a line (`$` and `_` are word characters in JavaScript).
    private static func words(in line: Substring) -> [Substring] {
        var words: [Substring] = []
        var start: Substring.Index?
        for index in line.indices {
            let c = line[index]
            if c.isLetter || c.isNumber || c == "_" || c == "$" {
                if start == nil { start = index }
            } else if let s = start {
                words.append(line[s..<index]); start = nil
            }
        }
        if let s = start { words.append(line[s...]) }
        return words
    }
}

/// The app's uncalled functions in both script languages, found once per app (`AuditContext`): the
/// findings filter, the write gates (question 6) and question 1 leave out what they hold.
struct UncalledAppScripts: Sendable {
    let javaScript: UncalledScriptFunctions
    let dart: UncalledScriptFunctions

    init(_ manifest: AppManifest) {
        javaScript = UncalledScriptFunctions(files: manifest.javaScriptSources)
        dart = UncalledScriptFunctions(files: manifest.dartSources)
    }

    /// Where the uncalled function around a JavaScript or Dart fact is declared, or nil (a Swift fact,
    /// or code that runs).
    func declaration(around site: HealthKitFact.Site?, in manifest: AppManifest) -> Evidence? {
        guard case .token(let language, let file, let token)? = site else { return nil }
        let files = language == .dart ? manifest.dartSources : manifest.javaScriptSources
        guard files.indices.contains(file), files[file].tokens.indices.contains(token) else { return nil }
        return (language == .dart ? dart : javaScript).declaration(around: files[file].tokens[token].line, in: files[file].path)
    }
}
