import Manifest

/// A function in JavaScript / TypeScript source: arrow, `function`, or method shorthand.
struct JSFunction {
    /// The name it is declared or assigned under (`const load = async () => …` → `load`).
    var name: String?
    var parameters: [String]
    /// First token of the function expression (its `async`, `function`, or parameter list).
    var start: Int
    /// Token range of the body (inside the braces for a block body).
    var body: Range<Int>
    var isBlock: Bool
}

/// Structural queries over one JavaScript file that the React Native rules share.
struct JSFlow {
    let file: JavaScriptFile
    let functions: [JSFunction]

    private var tokens: [JSToken] { file.tokens }

    /// For each token, the index in `functions` of the innermost function around it (and the innermost named one).
    private let innermost: [Int?]
    private let innermostNamed: [Int?]

    init(_ file: JavaScriptFile) {
        self.file = file
        let functions = JSFlow.findFunctions(file)
        self.functions = functions
        var innermost = [Int?](repeating: nil, count: file.tokens.count)
        var innermostNamed = innermost
        // Outer functions first, so inner ones overwrite them.
        for index in functions.indices.sorted(by: { functions[$0].body.count > functions[$1].body.count }) {
            let body = functions[index].body.clamped(to: 0..<file.tokens.count)
            for token in body {
                innermost[token] = index
                if functions[index].name != nil { innermostNamed[token] = index }
            }
        }
        self.innermost = innermost
        self.innermostNamed = innermostNamed
    }

    private static let controlKeywords: Set<String> = ["if", "for", "while", "switch", "catch", "with", "function", "return", "typeof", "await", "new", "else", "do"]

    private static func findFunctions(_ file: JavaScriptFile) -> [JSFunction] {
        let tokens = file.tokens
        var result: [JSFunction] = []
        func name(before start: Int) -> String? {
            var i = start - 1
            if i >= 0, tokens[i].isIdentifier("async") { i -= 1 }
            guard i >= 1 else { return nil }
            // `{ load: async () => … }`
            if tokens[i].isPunctuator(":"), tokens[i - 1].kind == .identifier || tokens[i - 1].kind == .string { return tokens[i - 1].value }
            // `const load = useCallback(async () => …, [])` (or `React.useCallback`, `const load: Loader = …`): the hook
            // hands back this very function, so it is named as the binding is.
            if tokens[i].isPunctuator("("), i >= 2, tokens[i - 1].isIdentifier("useCallback") {
                i -= 2
                if i >= 1, tokens[i].isPunctuator("."), tokens[i - 1].isIdentifier("React") { i -= 2 }
            }
            guard i >= 1, tokens[i].isPunctuator("=") else { return nil }
            // `const load = …`, `const load: Loader = …`, `this.load = …`
            var k = i - 1
            var steps = 0
            while k >= 2, steps < 30 {
                if tokens[k].isPunctuator(":"), tokens[k - 1].kind == .identifier, ["const", "let", "var"].contains(tokens[k - 2].text) { return tokens[k - 1].text }
                if tokens[k].isPunctuator(";") || tokens[k].isPunctuator("=") { break }
                k -= 1; steps += 1
            }
            return tokens[i - 1].kind == .identifier ? tokens[i - 1].text : nil
        }
        func parameters(_ open: Int) -> [String] {
            file.items(of: open).compactMap { item in
                let first = item.lowerBound
                if tokens[first].kind == .identifier { return tokens[first].text }
                if tokens[first].isPunctuator("...") && first + 1 < item.upperBound { return tokens[first + 1].text }
                return nil
            }
        }
        /// From the `(` of a parameter list, where its `{` body starts (after an optional `: Type`).
        func blockAfterParameters(_ open: Int) -> Int? {
            guard let close = file.partner[open], close + 1 < tokens.count else { return nil }
            var i = close + 1
            if tokens[i].isPunctuator(":") {
                var steps = 0
                i += 1
                while i < tokens.count, steps < 40, !tokens[i].isPunctuator("{") || isTypeLiteral(i) {
                    if tokens[i].isPunctuator(";") || tokens[i].isPunctuator("=>") || tokens[i].isPunctuator("=") { return nil }
                    if tokens[i].isOpener, let match = file.partner[i] { i = match }
                    i += 1; steps += 1
                }
            }
            return i < tokens.count && tokens[i].isPunctuator("{") ? i : nil
        }
        func isTypeLiteral(_ brace: Int) -> Bool {
            // `): { a: number } {` — the first brace group after `:` is a type when another `{` follows it.
            guard let close = file.partner[brace], close + 1 < tokens.count else { return false }
            return tokens[close + 1].isPunctuator("{")
        }
        for (index, token) in tokens.enumerated() {
            if token.isPunctuator("=>") {
                var start: Int, params: [String]
                let before = index - 1
                guard before >= 0 else { continue }
                // `x => …`, but not the return type of `(x: T): number => …` (or `: Foo.Bar`, `: A | B`).
                let typed = before >= 1 && [":", ".", "|", "&"].contains(where: tokens[before - 1].isPunctuator)
                if tokens[before].kind == .identifier && !typed {
                    start = before
                    params = [tokens[before].text]
                } else {
                    // `(a, b) =>` or `(a): Type =>`: the nearest `)` before the arrow whose next token is `=>` or `:`.
                    var close = before
                    var steps = 0
                    while close > 0, steps < 40, !(tokens[close].isPunctuator(")") && (tokens[close + 1].isPunctuator("=>") || tokens[close + 1].isPunctuator(":"))) {
                        close -= 1; steps += 1
                    }
                    guard tokens[close].isPunctuator(")"), let open = file.partner[close] else { continue }
                    start = open
                    params = parameters(open)
                    // `<T>(…) =>` type parameters and `async` belong to the function.
                    if start > 0, tokens[start - 1].isPunctuator(">") {
                        var j = start - 1
                        while j > 0, !tokens[j].isPunctuator("<") { j -= 1 }
                        start = j
                    }
                }
                if start > 0, tokens[start - 1].isIdentifier("async") { start -= 1 }
                guard index + 1 < tokens.count else { continue }
                let body: Range<Int>, isBlock: Bool
                if tokens[index + 1].isPunctuator("{"), let close = file.partner[index + 1] {
                    body = (index + 2)..<close
                    isBlock = true
                } else {
                    var end = index + 1
                    while end < tokens.count {
                        let t = tokens[end]
                        if t.isPunctuator(",") || t.isPunctuator(";") { break }
                        if t.isCloser { break }
                        if t.isOpener, let match = file.partner[end] { end = match }
                        end += 1
                    }
                    body = (index + 1)..<end
                    isBlock = false
                }
                result.append(JSFunction(name: name(before: start), parameters: params, start: start, body: body, isBlock: isBlock))
            } else if token.isIdentifier("function") {
                var i = index + 1
                var declared: String?
                if i < tokens.count, tokens[i].isPunctuator("*") { i += 1 }
                if i < tokens.count, tokens[i].kind == .identifier { declared = tokens[i].text; i += 1 }
                if i < tokens.count, tokens[i].isPunctuator("<"), let generic = (i..<min(tokens.count, i + 20)).first(where: { tokens[$0].isPunctuator(">") }) { i = generic + 1 }
                guard i < tokens.count, tokens[i].isPunctuator("("), let brace = blockAfterParameters(i), let close = file.partner[brace] else { continue }
                var start = index
                if start > 0, tokens[start - 1].isIdentifier("async") { start -= 1 }
                result.append(JSFunction(name: declared ?? name(before: start), parameters: parameters(i), start: start, body: (brace + 1)..<close, isBlock: true))
            } else if token.kind == .identifier, !controlKeywords.contains(token.text), index + 1 < tokens.count, tokens[index + 1].isPunctuator("("),
                      index == 0 || !(tokens[index - 1].isPunctuator(".") || tokens[index - 1].isPunctuator("?.") || tokens[index - 1].isIdentifier("function")),
                      let brace = blockAfterParameters(index + 1), let close = file.partner[brace] {
                // Method shorthand: `load(options) { … }` in a class or object literal.
                let previous = index > 0 ? tokens[index - 1] : nil
                guard previous == nil || previous!.isPunctuator("{") || previous!.isPunctuator("}") || previous!.isPunctuator(",") || previous!.isPunctuator(";")
                    || ["async", "static", "get", "set", "public", "private", "protected"].contains(previous!.text) else { continue }
                result.append(JSFunction(name: token.text, parameters: parameters(index + 1), start: index, body: (brace + 1)..<close, isBlock: true))
            }
        }
        return result
    }

    /// The innermost function whose body holds token `index`.
    func function(containing index: Int) -> JSFunction? {
        guard index >= 0, index < innermost.count else { return nil }
        return innermost[index].map { functions[$0] }
    }

    /// The nearest enclosing function that has a name (`requestHealthAccess` around a `new Promise` callback).
    func namedFunction(containing index: Int) -> JSFunction? {
        guard index >= 0, index < innermostNamed.count else { return nil }
        return innermostNamed[index].map { functions[$0] }
    }

    /// The function expression that is exactly the token range `item` (a callback argument).
    func function(startingAt item: Range<Int>) -> JSFunction? {
        functions.first { $0.start == item.lowerBound && $0.body.upperBound <= item.upperBound + 1 }
    }

    /// Indices of identifiers that are called: `name(` (member chains end at `name`).
    func calls(named filter: (String) -> Bool) -> [(index: Int, open: Int)] {
        tokens.indices.compactMap { index in
            guard tokens[index].kind == .identifier, filter(tokens[index].text), let open = file.callParen(after: index) else { return nil }
            if index > 0, tokens[index - 1].isIdentifier("function") { return nil }
            return (index, open)
        }
    }

    /// Whether the call whose callee chain ends at `index` is awaited (`await x.y(…)`).
    func isAwaited(_ index: Int) -> Bool {
        let start = file.chain(endingAt: index).start
        return start > 0 && tokens[start - 1].isIdentifier("await")
    }

    /// Awaited, or the first argument of an awaited call (`await withTimeout(requestPermissions(), 10_000)`):
    /// what follows waits for it either way. Not an element of `Promise.all([…])`, whose others run beside it.
    func isAwaitedOrWrapped(_ index: Int) -> Bool {
        if isAwaited(index) { return true }
        let start = file.chain(endingAt: index).start
        guard start >= 2, tokens[start - 1].isPunctuator("("), tokens[start - 2].kind == .identifier else { return false }
        return isAwaitedOrWrapped(start - 2)
    }

    /// The `if (…)` statements within a range: condition range, then-branch and else-branch ranges.
    func conditionals(in range: Range<Int>) -> [(condition: Range<Int>, then: Range<Int>, otherwise: Range<Int>?)] {
        range.compactMap { index -> (Range<Int>, Range<Int>, Range<Int>?)? in
            guard tokens[index].isIdentifier("if"), index + 1 < range.upperBound, tokens[index + 1].isPunctuator("("),
                  let close = file.partner[index + 1], close + 1 < tokens.count else { return nil }
            let then = statement(at: close + 1)
            var otherwise: Range<Int>?
            if then.upperBound < tokens.count, tokens[then.upperBound].isIdentifier("else"), then.upperBound + 1 < tokens.count {
                otherwise = statement(at: then.upperBound + 1)
            }
            return ((index + 2)..<close, then, otherwise)
        }
    }

    /// A statement starting at `index`: a `{…}` block (its inside plus braces), or tokens to `;` / the line's end.
    func statement(at index: Int) -> Range<Int> {
        if tokens[index].isPunctuator("{"), let close = file.partner[index] { return index..<(close + 1) }
        var end = index
        while end < tokens.count {
            let t = tokens[end]
            if t.isPunctuator(";") { end += 1; break }
            if t.isCloser { break }
            if end > index, t.line != tokens[end - 1].line, !tokens[end - 1].isPunctuator("."), !t.isPunctuator(".") { break }
            if t.isOpener, let match = file.partner[end] { end = match }
            end += 1
        }
        return index..<end
    }

    /// Lower-cased words of an identifier or text: `setPermissionDenied` → "setpermissiondenied".
    static func normalized(_ text: String) -> String { text.lowercased() }

    /// The first line in a range (tokens, strings, comments) whose text contains one of `words`:
    /// the token or comment that says it, for evidence. Nothing inside `skipping` counts, nor a
    /// comment on a line whose code is all inside it (a log call and its comment).
    func firstMention(of words: [String], in range: Range<Int>, excluding: Set<String> = [], skipping: [Range<Int>] = []) -> FileLocation? {
        guard !range.isEmpty else { return nil }
        var hits: [FileLocation] = []
        func skipped(_ index: Int) -> Bool { skipping.contains { $0.contains(index) } }
        for index in range where !skipped(index) {
            let token = tokens[index]
            guard token.kind == .identifier || token.kind == .string || token.kind == .template else { continue }
            let text = Self.normalized(token.value)
            if excluding.contains(text) { continue }
            if words.contains(where: text.contains) {
                // Cite the statement the word is in: the first token of its line within the range.
                let first = range.first { tokens[$0].line == token.line } ?? index
                hits.append(file.location(of: first))
            }
        }
        for comment in file.comments(in: range) {
            let code = range.filter { tokens[$0].line == comment.line }
            if !code.isEmpty, code.allSatisfy(skipped) { continue }
            let text = Self.normalized(comment.text)
            if words.contains(where: text.contains) {
                // Evidence for a trailing comment is the statement on its line; a comment alone is cited itself.
                if let first = range.first(where: { tokens[$0].line == comment.line }), tokens[first].column < comment.column {
                    hits.append(file.location(of: first))
                } else {
                    hits.append(FileLocation(file: file.path, line: comment.line, column: comment.column))
                }
            }
        }
        return hits.min()
    }

    /// Logging and crash-reporting calls in a range, each from its receiver to its `)`:
    /// `console.log(…)`, `logger.warn(…)`, `Sentry.captureException(…)`, `print(…)`.
    func loggingCalls(in range: Range<Int>) -> [Range<Int>] {
        var calls: [Range<Int>] = []
        var index = range.lowerBound
        while index < range.upperBound {
            guard tokens[index].kind == .identifier, let open = file.callParen(after: index), let close = file.partner[open], close < range.upperBound else {
                index += 1
                continue
            }
            let chain = file.chain(endingAt: index)
            if let first = chain.names.first, Self.loggers.contains(first) || Self.logMethods.contains(chain.names.last ?? "") {
                calls.append(chain.start..<(close + 1))
                index = close + 1
                continue
            }
            index += 1
        }
        return calls
    }

    static let loggers: Set<String> = ["console", "logger", "Logger", "log", "Log", "Sentry", "Crashlytics", "crashlytics", "debugPrint", "print"]
    static let logMethods: Set<String> = ["log", "debug", "info", "warn", "warning", "trace", "captureException", "captureMessage", "recordError",
                                          "logError", "logWarning", "logInfo", "logDebug"]

    /// Whether a branch does nothing but log and return: what its messages say, the app does not do.
    func onlyLogs(_ range: Range<Int>, logging: [Range<Int>]) -> Bool {
        range.allSatisfy { index in
            let token = tokens[index]
            if logging.contains(where: { $0.contains(index) }) { return true }
            if token.isPunctuator("{") || token.isPunctuator("}") || token.isPunctuator(";") { return true }
            // A bare `return`, not `return 'denied'`.
            if token.isIdentifier("return") {
                let next = index + 1
                return next >= range.upperBound || tokens[next].isPunctuator(";") || tokens[next].isPunctuator("}") || tokens[next].line != token.line
            }
            return false
        }
    }

    /// The root identifier of the receiver of a member call ending at `index` (`samples.filter(…).reduce` → `samples`).
    func receiverRoot(of index: Int) -> Int? {
        var i = index - 1
        guard i >= 0, tokens[i].isPunctuator(".") || tokens[i].isPunctuator("?.") else { return nil }
        i -= 1
        while i >= 0 {
            if tokens[i].isCloser, let open = file.partner[i] { i = open - 1; continue }
            if tokens[i].kind == .identifier {
                if i > 0, tokens[i - 1].isPunctuator(".") || tokens[i - 1].isPunctuator("?.") { i -= 2; continue }
                return i
            }
            return nil
        }
        return nil
    }
}

/// What the app's JavaScript does with react-native-health across files: which functions wrap
/// `initHealthKit` and which read data, so a call to `initHealth()` counts as asking.
struct HealthFlow {
    let flows: [JSFlow]
    /// Names of functions that call `initHealthKit` (directly, or through another wrapper).
    let initWrappers: Set<String>
    /// Names of functions whose body calls `initHealthKit` itself.
    let directWrappers: Set<String>
    /// Names of functions that read Health data (directly, or through another reader).
    let readers: Set<String>

    static let readExclusions: Set<String> = ["getAuthStatus"]

    static func isReadMethod(_ name: String) -> Bool {
        name.hasPrefix("get") && !readExclusions.contains(name)
    }

    init(files: [JavaScriptFile]) {
        flows = files.map(JSFlow.init)
        var direct: Set<String> = [], readers: Set<String> = []
        for flow in flows {
            for index in flow.file.healthKitMembers(named: { $0 == "initHealthKit" }) {
                if let name = flow.namedFunction(containing: index)?.name { direct.insert(name) }
            }
            for index in flow.file.healthKitMembers(named: HealthFlow.isReadMethod) {
                if let name = flow.namedFunction(containing: index)?.name { readers.insert(name) }
            }
        }
        var wrappers = direct
        for _ in 0..<4 {
            for flow in flows {
                for (index, _) in flow.calls(named: { wrappers.contains($0) }) {
                    if let name = flow.namedFunction(containing: index)?.name, !readers.contains(name) { wrappers.insert(name) }
                }
                for (index, _) in flow.calls(named: { readers.contains($0) }) {
                    if let name = flow.namedFunction(containing: index)?.name, !wrappers.contains(name) { readers.insert(name) }
                }
            }
        }
        directWrappers = direct
        initWrappers = wrappers
        self.readers = readers.subtracting(wrappers)
    }
}
