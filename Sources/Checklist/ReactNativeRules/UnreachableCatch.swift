import Manifest

/// Whether a `catch` block can run at all: `try { steps = await this.getStepsForDate(d) } catch { … 0 … }`
/// never runs when every awaited call is to the app's own function that cannot reject — a
/// `new Promise((resolve) => …)` with no reject, an `async` function that throws nowhere and
/// catches what it awaits. A fallback there is never shown, whatever it holds.
///
/// Conservative by construction: a `throw` in the `try`, an awaited call the app does not define
/// (a library, `Promise.all`), a function defined twice under one name, or a returned promise of
/// any other kind makes the catch reachable.
struct UnreachableCatch {
    private let flows: [JSFlow]
    /// App functions by name, across all files: (file, function index).
    private let byName: [String: [(file: Int, function: Int)]]

    init(flows: [JSFlow]) {
        self.flows = flows
        var byName: [String: [(file: Int, function: Int)]] = [:]
        for (file, flow) in flows.enumerated() {
            // Block bodies, and arrows that return `new Promise(…)` (not a type such as `ask: () => Promise<void>`).
            for (index, function) in flow.functions.enumerated() where function.isBlock || Self.returnsOnlyNewPromise(function, flow.file) {
                if let name = function.name { byName[name, default: []].append((file, index)) }
            }
        }
        self.byName = byName
    }

    /// Calls that return at once and cannot return a rejected promise.
    private static let synchronousRoots: Set<String> = ["Math", "Number", "String", "Boolean", "parseInt", "parseFloat", "JSON", "Object", "Array", "Date"]

    /// `() => new Promise((resolve) => …)` and nothing after it (not `new Promise(…).then(fetchSteps)`).
    static func returnsOnlyNewPromise(_ function: JSFunction, _ file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        guard !function.isBlock, let first = function.body.first, first + 2 < tokens.count, tokens[first].isIdentifier("new"),
              tokens[first + 1].isIdentifier("Promise") else { return false }
        var open = first + 2
        if tokens[open].isPunctuator("<"), let close = (open..<min(tokens.count, open + 40)).first(where: { tokens[$0].isPunctuator(">") }) { open = close + 1 }
        guard open < tokens.count, tokens[open].isPunctuator("("), let close = file.partner[open] else { return false }
        return close + 1 >= function.body.upperBound
    }

    /// Whether the app's one function named `name` cannot reject (`askForSteps().catch(…)` then never runs its handler).
    func cannotReject(appFunction name: String) -> Bool { appFunctionCannotReject(name, depth: 0) }

    /// Whether token `index` of file `fileIndex` is inside a `catch` block that cannot run.
    func contains(_ index: Int, in fileIndex: Int) -> Bool {
        let flow = flows[fileIndex]
        let file = flow.file
        guard let tryBlock = Self.tryBlock(ofCatchAround: index, file) else { return false }
        return cannotReject(tryBlock, in: fileIndex, depth: 0, requireAwait: true)
    }

    /// The `{…}` of the `try` whose `catch` block holds `index` (the innermost one).
    static func tryBlock(ofCatchAround index: Int, _ file: JavaScriptFile) -> Range<Int>? {
        let tokens = file.tokens
        var brace = file.parent[index]
        while let open = brace {
            defer { brace = file.parent[open] }
            guard tokens[open].isPunctuator("{"), open >= 1 else { continue }
            var catchKeyword = open - 1
            if tokens[catchKeyword].isPunctuator(")"), let paren = file.partner[catchKeyword], paren >= 1 { catchKeyword = paren - 1 }
            guard tokens[catchKeyword].isIdentifier("catch"), catchKeyword >= 1, tokens[catchKeyword - 1].isPunctuator("}"),
                  let tryOpen = file.partner[catchKeyword - 1], tryOpen >= 1, tokens[tryOpen - 1].isIdentifier("try") else { continue }
            return (tryOpen + 1)..<(catchKeyword - 1)
        }
        return nil
    }

    /// Whether the code in `range` (its own level, not nested functions) can neither throw nor
    /// reject: no `throw`, each `await` on a call of an app function that cannot reject. With
    /// `requireAwait`, a range with no `await` is not judged (its synchronous code may throw).
    private func cannotReject(_ range: Range<Int>, in fileIndex: Int, depth: Int, requireAwait: Bool) -> Bool {
        let flow = flows[fileIndex]
        let tokens = flow.file.tokens
        let owner = flow.function(containing: range.lowerBound)?.start
        var awaits = 0
        for i in range where flow.function(containing: i)?.start == owner {
            if tokens[i].isIdentifier("throw") { return false }
            guard tokens[i].isIdentifier("await") else { continue }
            awaits += 1
            guard awaitedCannotReject(i, in: flow, depth: depth) else { return false }
        }
        return !requireAwait || awaits > 0
    }

    /// Whether the awaited call after `awaitIndex` cannot reject: a call of such an app function,
    /// `Promise.allSettled(…)`, or `Promise.all([…])` of such calls only.
    private func awaitedCannotReject(_ awaitIndex: Int, in flow: JSFlow, depth: Int) -> Bool {
        let file = flow.file
        let tokens = file.tokens
        if awaitIndex + 3 < tokens.count, tokens[awaitIndex + 1].isIdentifier("Promise"), tokens[awaitIndex + 2].isPunctuator(".") {
            let method = tokens[awaitIndex + 3]
            if method.isIdentifier("allSettled") { return true }
            guard method.isIdentifier("all"), awaitIndex + 5 < tokens.count, tokens[awaitIndex + 4].isPunctuator("("),
                  tokens[awaitIndex + 5].isPunctuator("["), let close = file.partner[awaitIndex + 5] else { return false }
            let elements = file.items(of: awaitIndex + 5)
            return !elements.isEmpty && close > awaitIndex + 5 && elements.allSatisfy { element in
                guard let first = element.first, tokens[first].kind == .identifier else { return false }
                let chain = file.chain(startingAt: first)
                guard let open = file.callParen(after: chain.end), file.partner[open] == element.upperBound - 1, let name = chain.names.last else { return false }
                return appFunctionCannotReject(name, depth: depth + 1)
            }
        }
        guard let callee = calledName(after: awaitIndex, in: flow) else { return false }
        return appFunctionCannotReject(callee, depth: depth + 1)
    }

    /// `await this.load(…)` / `await load(…)` → `load`; nil for anything but a plain call.
    private func calledName(after awaitIndex: Int, in flow: JSFlow) -> String? {
        let file = flow.file
        let tokens = file.tokens
        guard awaitIndex + 1 < tokens.count, tokens[awaitIndex + 1].kind == .identifier else { return nil }
        let chain = file.chain(startingAt: awaitIndex + 1)
        guard let open = file.callParen(after: chain.end), let close = file.partner[open] else { return nil }
        // The awaited value is the call itself, not something chained after it (`.then(…)`).
        if close + 1 < tokens.count, tokens[close + 1].isPunctuator(".") || tokens[close + 1].isPunctuator("?.") { return nil }
        return chain.names.last
    }

    /// Whether every app function named `name` cannot reject (and there is at least one).
    private func appFunctionCannotReject(_ name: String, depth: Int) -> Bool {
        guard depth <= 4, let candidates = byName[name], candidates.count == 1, let only = candidates.first else { return false }
        let flow = flows[only.file]
        let function = flow.functions[only.function]
        let tokens = flow.file.tokens
        let body = function.body
        guard !body.contains(where: { tokens[$0].isIdentifier("throw") }) else { return false }
        // Each promise it builds has no reject, or never uses it.
        for i in body where tokens[i].isIdentifier("Promise") && i >= 1 && tokens[i - 1].isIdentifier("new") {
            guard i + 1 < tokens.count, tokens[i + 1].isPunctuator("("),
                  let executor = flow.functions.first(where: { $0.start == i + 2 }) else { return false }
            if executor.parameters.count >= 2 {
                let reject = executor.parameters[1]
                if executor.body.contains(where: { tokens[$0].isIdentifier(reject) }) { return false }
            }
        }
        // `const ask = () => new Promise(…)`: the expression is what it returns.
        if !function.isBlock { return Self.returnsOnlyNewPromise(function, flow.file) }
        // What it awaits outside a `try` must not reject either; what it awaits inside a `try` is caught.
        for i in body where tokens[i].isIdentifier("await") && flow.function(containing: i)?.start == function.start {
            if Self.tryBlock(around: i, flow.file, within: body) { continue }
            guard awaitedCannotReject(i, in: flow, depth: depth) else { return false }
        }
        // What it returns: a promise of its own (judged above), a plain value, or another such function's result.
        for i in body where tokens[i].isIdentifier("return") && flow.function(containing: i)?.start == function.start {
            let value = flow.statement(at: i + 1 < tokens.count ? i + 1 : i)
            guard let first = value.first, value.contains(where: { tokens[$0].isPunctuator("(") }) else { continue }
            if tokens[first].isIdentifier("new"), first + 1 < tokens.count, tokens[first + 1].isIdentifier("Promise") { continue }
            if tokens[first].isIdentifier("await") { continue }  // judged with the awaits above
            let chain = flow.file.chain(startingAt: first)
            let root = tokens[first].isIdentifier("this") ? chain.names.dropFirst().first : chain.names.first
            if let root, Self.synchronousRoots.contains(root) { continue }
            guard let callee = chain.names.last, flow.file.callParen(after: chain.end) != nil,
                  appFunctionCannotReject(callee, depth: depth + 1) else { return false }
        }
        return true
    }

    /// Whether `index` is inside a `try { … }` block within `limit`.
    private static func tryBlock(around index: Int, _ file: JavaScriptFile, within limit: Range<Int>) -> Bool {
        let tokens = file.tokens
        var brace = file.parent[index]
        while let open = brace, limit.contains(open) {
            if tokens[open].isPunctuator("{"), open >= 1, tokens[open - 1].isIdentifier("try") { return true }
            brace = file.parent[open]
        }
        return false
    }
}
