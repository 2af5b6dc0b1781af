import Manifest

/// Question 1 for JavaScript / TypeScript: whether each library call that fails without Health (a
/// request, a read, a write) has an availability check before it on every path the app's code
/// shows — in its own function before the call, in a function of the app it calls first (`await
/// initializeHealthKit()`, which checks and throws), or in every caller of its function, up to
/// four calls out. A function no code calls (a component, a handler, a hook) is an entry point:
/// it has only its own checks. Calls in functions nothing names at all are left out, as Swift's.
struct ScriptAvailabilityPaths {
    let context: AuditContext
    /// The deciding availability checks in the app's JavaScript: file and token.
    private let checkTokens: [(file: Int, token: Int)]
    /// The app's functions that check: awaiting one first guards what follows (it throws or returns early).
    private let checking: Set<String>
    /// Names that hold a check's answer (`isAvailable`, set by `setIsAvailable(available)` in the
    /// check's callback): an exit when one is false guards what follows.
    private let flags: Set<String>

    init(context: AuditContext, checks: [HealthKitFact]) {
        self.context = context
        let files = context.manifest.javaScriptSources
        checkTokens = checks.compactMap { fact -> (file: Int, token: Int)? in
            guard case .token(.javaScript, let file, let token)? = fact.site else { return nil }
            return (file, token)
        }
        var checking = Set(checkTokens.compactMap { JavaScriptBindings.enclosingFunction(of: $0.token, in: files[$0.file])?.name })
        // A function that awaits a checking function checks too (`requestPermission` awaiting
        // `requestHealthPermissions`, which asks `isAvailable` and returns false): two more levels.
        for _ in 0..<2 {
            var added: Set<String> = []
            for file in files {
                let tokens = file.tokens
                for index in tokens.indices where index >= 1 && tokens[index - 1].isIdentifier("await") && tokens[index].kind == .identifier {
                    let chain = file.chain(startingAt: index)
                    guard let name = chain.names.last, checking.contains(name), file.callParen(after: chain.end) != nil,
                          let around = JavaScriptBindings.enclosingFunction(of: index, in: file)?.name, !checking.contains(around) else { continue }
                    added.insert(around)
                }
            }
            if added.isEmpty { break }
            checking.formUnion(added)
        }
        self.checking = checking
        // App-wide: a hook that keeps the answer hands it out under the same name (`const { isAvailable } = useHealthKit()`).
        var flags = checkTokens.reduce(into: Set<String>()) { found, check in found.formUnion(Self.flags(settingAnswerOf: check.token, in: files[check.file])) }
        // The answer of the app's own checking function too: `const available = await isHealthKitAvailable(); setIsAvailable(available)`.
        for file in files {
            let tokens = file.tokens
            for index in tokens.indices where tokens[index].kind == .identifier && checking.contains(tokens[index].text)
                && index >= 1 && !tokens[index - 1].isIdentifier("function") && file.callParen(after: index) != nil {
                flags.formUnion(Self.flags(settingAnswerOf: index, in: file))
            }
        }
        self.flags = flags
    }

    /// `isAvailable((err, available) => setIsAvailable(available))`, `const result = await Health.isAvailable();
    /// setReady(result.available)`: the state (or variable) the check's answer is put in.
    static func flags(settingAnswerOf check: Int, in file: JavaScriptFile) -> Set<String> {
        let tokens = file.tokens
        guard let open = file.callParen(after: check), let close = file.partner[open] else { return [] }
        var answers: Set<String> = []
        var scope = open..<close
        // The callback's parameters (`(err, available)`), or the name the awaited answer is bound to.
        for k in open..<close where tokens[k].isPunctuator("=>") {
            var p = k - 1
            if tokens[p].isPunctuator(")"), let start = file.partner[p] { p = start }
            // Parameter names, not their types (`available: boolean`); an error-first callback's error is no answer.
            let names = (p..<k).filter { tokens[$0].kind == .identifier && !(tokens[$0 - 1].isPunctuator(":")) }.map { tokens[$0].text }
            answers.formUnion(names.count >= 2 ? Array(names.dropFirst()) : names)
            break
        }
        if answers.isEmpty {
            var before = file.chain(endingAt: check).start - 1
            if before >= 0, tokens[before].isIdentifier("await") { before -= 1 }
            if before >= 1, tokens[before].isPunctuator("="), tokens[before - 1].kind == .identifier { answers.insert(tokens[before - 1].text) }
            let end = file.parent[check].flatMap { file.partner[$0] } ?? tokens.count
            scope = close..<end
        }
        guard !answers.isEmpty else { return [] }
        var found: Set<String> = []
        func holdsAnswer(_ range: Range<Int>) -> Bool { range.contains { tokens[$0].kind == .identifier && answers.contains(tokens[$0].text) } }
        for k in scope where tokens[k].kind == .identifier && k + 1 < tokens.count && !(k >= 1 && tokens[k - 1].isPunctuator(".")) {
            let name = tokens[k].text
            if name.hasPrefix("set"), name.count > 3, tokens[k + 1].isPunctuator("("), let end = file.partner[k + 1], holdsAnswer((k + 2)..<end) {
                // `setIsAvailable(available)` → the state `isAvailable`.
                let state = name.dropFirst(3)
                found.insert(state.prefix(1).lowercased() + state.dropFirst())
            } else if tokens[k + 1].isPunctuator("="), holdsAnswer((k + 2)..<min(k + 6, tokens.count)) {
                // `ready = available`, `ready = result.available`.
                found.insert(name)
            }
        }
        return found
    }

    /// Whether `token` only runs when a flag holding the check's answer is true: after `if (… || !flag …) return`
    /// in the range, or inside `if (flag && …) {`.
    private func flagGuards(_ token: Int, from start: Int, in fileIndex: Int) -> Bool {
        let names = flags
        guard !names.isEmpty else { return false }
        let file = context.manifest.javaScriptSources[fileIndex]
        let tokens = file.tokens
        func mentions(_ range: Range<Int>, negated: Bool) -> Bool {
            range.contains { i in tokens[i].kind == .identifier && names.contains(tokens[i].text) && !(i >= 1 && tokens[i - 1].isPunctuator("."))
                && (i >= 1 && tokens[i - 1].isPunctuator("!")) == negated }
        }
        // Inside `if (flag …) {` (no `||` at its top level).
        var brace = file.parent[token]
        while let open = brace, open >= start {
            if tokens[open].isPunctuator("{"), open >= 1, tokens[open - 1].isPunctuator(")"), let paren = file.partner[open - 1], paren >= 1,
               tokens[paren - 1].isIdentifier("if") {
                let condition = (paren + 1)..<(open - 1)
                if mentions(condition, negated: false), !condition.contains(where: { tokens[$0].isPunctuator("||") && file.parent[$0] == paren }) { return true }
            }
            brace = file.parent[open]
        }
        // `if (!flag) return;` or `if (a || !flag) { …; return; }` before it.
        for k in start..<token where tokens[k].isIdentifier("if") && k + 1 < token && tokens[k + 1].isPunctuator("(") {
            guard let close = file.partner[k + 1], close + 1 < token, mentions((k + 2)..<close, negated: true),
                  !((k + 2)..<close).contains(where: { tokens[$0].isPunctuator("&&") && file.parent[$0] == k + 1 }) else { continue }
            let body = close + 1
            if tokens[body].isIdentifier("return") || tokens[body].isIdentifier("throw") { return true }
            if tokens[body].isPunctuator("{"), let end = file.partner[body], end < token,
               ((body + 1)..<end).contains(where: { (tokens[$0].isIdentifier("return") || tokens[$0].isIdentifier("throw")) && file.parent[$0] == body }) { return true }
        }
        return false
    }

    /// The first unguarded call: its fact, its function, and the entry point it is reached from.
    func unguarded(in target: String, calls: [HealthKitFact]) -> (fact: HealthKitFact, function: String, entry: String)? {
        let files = context.manifest.javaScriptSources
        guard !checkTokens.isEmpty else { return nil }
        for fact in calls where fact.target == target && [.authorizationRequest, .read, .write].contains(fact.kind) {
            guard case .token(.javaScript, let fileIndex, let token)? = fact.site,
                  let call = context.javaScriptCalls.first(where: { $0.file == fileIndex && $0.token == token }),
                  !call.library.decidesAvailabilityItself else { continue }
            var visited: Set<String> = []
            if let entry = openPath(from: token, in: fileIndex, like: call, depth: 0, visited: &visited) {
                let function = JavaScriptBindings.enclosingFunction(of: token, in: files[fileIndex])?.name ?? "top-level code"
                return (fact, function, entry)
            }
        }
        return nil
    }

    /// The entry point of a path to `token` with no check on it, or nil when every path has one.
    private func openPath(from token: Int, in fileIndex: Int, like call: JavaScriptHealthKitCall, depth: Int, visited: inout Set<String>) -> String? {
        let files = context.manifest.javaScriptSources
        let file = files[fileIndex]
        guard let function = JavaScriptBindings.enclosingFunction(of: token, in: file) else {
            return checkedBefore(token, from: 0, in: fileIndex) ? nil : "top-level code"
        }
        if checkedBefore(token, from: function.body, in: fileIndex) { return nil }
        // Past four calls out, or round a cycle, the path is not followed: no claim is made of it.
        guard depth < 4, visited.insert(function.name).inserted else { return nil }
        let own = nameToken(function, in: file)
        let callers = AppWrapper(name: function.name, body: function.body, owner: AppWrapper.owningClass(of: function.body, in: file))
            .callers(in: files, like: call, libraryCalls: context.javaScriptCalls)
        if callers.isEmpty {
            // A function nothing in the app calls (an export of a module the app imports, named nowhere) never runs.
            if context.uncalledScripts.javaScript.contains(path: file.path, line: file.tokens[function.body].line) { return nil }
            // Exported and called by no code of the app: a router or a framework calls it (an Expo
            // Router screen is its file's default export), so it is an entry point.
            if let own, (max(0, own - 4)..<own).contains(where: { file.tokens[$0].isIdentifier("export") }) { return function.name }
            // Named elsewhere (a handler, a component in JSX) it is an entry point; named nowhere, it never runs.
            let named = files.contains { other in other.tokens.indices.contains { other.tokens[$0].isIdentifier(function.name) && !(other.path == file.path && $0 == own) } }
            return named ? function.name : nil
        }
        for (caller, callerFile) in callers {
            guard let callerIndex = files.firstIndex(where: { $0.path == callerFile.path }) else { continue }
            if let entry = openPath(from: caller.token, in: callerIndex, like: call, depth: depth + 1, visited: &visited) {
                return entry
            }
        }
        return nil
    }

    /// The token naming `function` (`function NAME(`, `NAME(…) {`, `const NAME = … =>`), for telling its own name from a use.
    private func nameToken(_ function: (name: String, body: Int), in file: JavaScriptFile) -> Int? {
        var index = function.body - 1
        while index >= 0, index > function.body - 40 {
            if file.tokens[index].isIdentifier(function.name) { return index }
            index -= 1
        }
        return nil
    }

    /// A deciding availability check between `start` and `token` in the same file, or an awaited
    /// call of an app function that checks.
    private func checkedBefore(_ token: Int, from start: Int, in fileIndex: Int) -> Bool {
        if checkTokens.contains(where: { $0.file == fileIndex && $0.token >= start && $0.token < token }) { return true }
        if flagGuards(token, from: start, in: fileIndex) { return true }
        let tokens = context.manifest.javaScriptSources[fileIndex].tokens
        return (start..<token).contains { index in
            tokens[index].kind == .identifier && checking.contains(tokens[index].text) && context.manifest.javaScriptSources[fileIndex].callParen(after: index) != nil
        }
    }
}
