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
        let tokens = context.manifest.javaScriptSources[fileIndex].tokens
        return (start..<token).contains { index in
            tokens[index].kind == .identifier && checking.contains(tokens[index].text) && context.manifest.javaScriptSources[fileIndex].callParen(after: index) != nil
        }
    }
}
