import Manifest

/// One call of a JavaScript HealthKit library, kept with its place in the token stream so rules
/// that need control flow (is it awaited, caught, in a condition?) can look around it.
public struct JavaScriptHealthKitCall: Sendable {
    /// Index into `AppManifest.javaScriptSources`.
    public let file: Int
    /// The token of the method name; `paren` is its call's `(`.
    public let token: Int
    public let paren: Int
    public let method: String
    public let kind: HealthKitFact.Kind
    /// Its description in `HealthKitLibrary.registry` (Manifest).
    public let library: HealthKitLibrary
}

/// The JavaScript / TypeScript extractor of `HealthKitUsage`: calls of `HealthKitLibrary.all`,
/// classified into the same facts as Swift's, once per file.
enum JavaScriptHealthKitFacts {
    static func extract(_ files: [JavaScriptFile], target: String, plugins: [String: HealthKitLibrary] = [:]) -> (facts: [HealthKitFact], calls: [JavaScriptHealthKitCall]) {
        var facts: [HealthKitFact] = []
        var calls: [JavaScriptHealthKitCall] = []
        let bindings = JavaScriptBindings.resolve(files, plugins: plugins)
        for (index, file) in files.enumerated() {
            for call in Self.calls(in: file, fileIndex: index, bindings: bindings[index]) {
                // An availability check counts only where it decides something (a condition), not
                // where its value is only shown (`isHealthDataAvailable() ? '✅' : '❌'`).
                if call.kind == .availabilityCheck && !Self.decides(call, in: file) { continue }
                // Health Connect's side of a cross-platform app never runs on an iPhone.
                if PlatformBranches.excludesIOS(call.token, in: file) { continue }
                calls.append(call)
                var fact = HealthKitFact(kind: call.kind, target: target, isExtension: false,
                                         evidence: Evidence(location: file.location(of: call.token), quote: file.quote(call.token)),
                                         site: .token(language: .javaScript, file: index, token: call.token))
                fact.library = call.library
                facts.append(fact)
            }
        }
        return (facts, calls)
    }

    static func calls(in file: JavaScriptFile, fileIndex: Int, bindings: JavaScriptBindings) -> [JavaScriptHealthKitCall] {
        let (receivers, functions) = (bindings.receivers, bindings.functions)
        // Libraries reached through a global path whose last name the file mentions.
        let reachable = HealthKitLibrary.all.filter { library in
            let lastNames = Set(library.globals.compactMap(\.last))
            return !lastNames.isEmpty && file.tokens.contains { $0.kind == .identifier && lastNames.contains($0.text) }
        }
        guard !receivers.isEmpty || !functions.isEmpty || !reachable.isEmpty else { return [] }
        var result: [JavaScriptHealthKitCall] = []
        let tokens = file.tokens
        for index in tokens.indices where tokens[index].kind == .identifier {
            guard let paren = file.callParen(after: index) else { continue }
            let afterDot = index >= 1 && (tokens[index - 1].isPunctuator(".") || tokens[index - 1].isPunctuator("?."))
            let method: String, library: HealthKitLibrary
            if afterDot {
                let names = file.chain(endingAt: index).names.dropLast()
                let global = reachable.first { library in library.globals.contains { names.count >= $0.count && Array(names.suffix($0.count)) == $0 } }
                guard let found = names.lazy.compactMap({ receivers[$0] }).first ?? global else { continue }
                (method, library) = (tokens[index].text, found)
            } else if let (name, found) = functions[tokens[index].text], !(index >= 1 && tokens[index - 1].isIdentifier("function")) {
                (method, library) = (name, found)
            } else {
                continue
            }
            guard let kind = library.kind(of: method) else { continue }
            result.append(JavaScriptHealthKitCall(file: fileIndex, token: index, paren: paren, method: method, kind: kind, library: library))
        }
        return result
    }

    /// Read methods a file names without calling them, handed to the app's own helper that calls
    /// them (`call(AppleHealthKit.getStepCount, options)`): token indices of the method names.
    static func readReferences(in file: JavaScriptFile, bindings: JavaScriptBindings) -> [Int] {
        let (receivers, functions) = (bindings.receivers, bindings.functions)
        guard !receivers.isEmpty || !functions.isEmpty else { return [] }
        let tokens = file.tokens
        return tokens.indices.filter { index in
            guard tokens[index].kind == .identifier, file.callParen(after: index) == nil else { return false }
            let afterDot = index >= 1 && (tokens[index - 1].isPunctuator(".") || tokens[index - 1].isPunctuator("?."))
            let library: HealthKitLibrary?
            let method: String
            if afterDot {
                library = file.chain(endingAt: index).names.dropLast().lazy.compactMap { receivers[$0] }.first
                method = tokens[index].text
            } else if let (name, found) = functions[tokens[index].text], index >= 1, tokens[index - 1].isPunctuator("(") || tokens[index - 1].isPunctuator(",") {
                (method, library) = (name, found)
            } else {
                return false
            }
            return library?.kind(of: method) == .read
        }
    }

    /// Types a file imports from a HealthKit library that describe results (`HealthValue`,
    /// `QuantitySample`), not the inputs of a call (`HealthInputOptions`, `HealthKitPermissions`).
    static func resultTypeNames(in file: JavaScriptFile, bindings: JavaScriptBindings) -> Set<String> {
        let inputs = ["Options", "Permissions", "Permission", "Input", "Params", "Constants"]
        return Set(bindings.functions.compactMap { local, imported -> String? in
            let (name, library) = imported
            guard name.first?.isUppercase == true, library.kind(of: name) == nil, !inputs.contains(where: name.hasSuffix) else { return nil }
            return local
        })
    }

    /// Whether the call's value decides something: a condition, an operand of `!` / `&&` / `||`,
    /// a returned value, or a variable that is then used so.
    static func decides(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> Bool {
        let start = file.chain(endingAt: call.token).start
        guard let close = file.partner[call.paren] else { return false }
        if isCondition(start: start, end: close, in: file) { return true }
        // `if (!(await isHealthDataAvailable()))`: the awaited value is the operand.
        if start >= 1, file.tokens[start - 1].isIdentifier("await"), isCondition(start: start, end: close, in: file, unwrappingParentheses: true) { return true }
        if callbackResultDecides(call, close: close, in: file) { return true }
        // `const available = await isHealthDataAvailableAsync()`, or `const { available } = await Health.isAvailable()`
        // (one field taken out of the answer) → how `available` is used.
        guard let name = call.resultName(in: file) ?? destructuredName(of: call, in: file) else { return false }
        return ((close + 1)..<file.tokens.count).contains { i in file.tokens[i].isIdentifier(name) && isCondition(start: i, end: i, in: file) }
    }

    /// `const { available } = await Health.isAvailable()`: the one name a single-field destructuring binds.
    private static func destructuredName(of call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> String? {
        let tokens = file.tokens
        let before = file.index(beforeAwaited: file.chain(endingAt: call.token).start)
        guard before >= 1, tokens[before].isPunctuator("="), tokens[before - 1].isPunctuator("}"), let open = file.partner[before - 1] else { return nil }
        let items = file.items(of: open)
        guard items.count == 1, let only = items.first, let last = only.last, tokens[last].kind == .identifier else { return nil }
        return tokens[last].text
    }

    /// A callback's result decides: `isAvailable((err, available) => { … resolve(!!available) })`
    /// (react-native-health's style) — the result parameter (the last of two or more, error first)
    /// is a condition or an operand of `!` / `&&` / `||`, returned, or handed to `resolve(…)`, which
    /// makes it the value of the app's own promise, as `return` makes it a function's.
    private static func callbackResultDecides(_ call: JavaScriptHealthKitCall, close: Int, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        for open in (call.paren + 1)..<close where tokens[open].isPunctuator("(") {
            guard let end = file.partner[open], end < close,
                  end + 1 < close && tokens[end + 1].isPunctuator("=>") || open >= 1 && tokens[open - 1].isIdentifier("function") else { continue }
            // Names open the list or follow a comma (`(err: any, available: boolean)`: not the types).
            let parameters = ((open + 1)..<end).filter { tokens[$0].kind == .identifier && (tokens[$0 - 1].isPunctuator(",") || $0 - 1 == open) }
            guard let result = parameters.last.map({ tokens[$0].text }) else { continue }
            return ((end + 1)..<close).contains { i in
                tokens[i].isIdentifier(result) && (isCondition(start: i, end: i, in: file)
                    || i >= 2 && tokens[i - 1].isPunctuator("(") && tokens[i - 2].isIdentifier("resolve") && tokens[i + 1].isPunctuator(")"))
            }
        }
        return false
    }

    private static func isCondition(start: Int, end: Int, in file: JavaScriptFile, unwrappingParentheses: Bool = false) -> Bool {
        file.isOperand(start: start, end: end, unwrappingParentheses: unwrappingParentheses,
                       after: { $0.isPunctuator("!") || $0.isPunctuator("&&") || $0.isPunctuator("||") || $0.isIdentifier("return") },
                       before: { $0.isPunctuator("&&") || $0.isPunctuator("||") })
    }
}

extension JavaScriptFile {
    /// The index before `start`, past an `await`.
    func index(beforeAwaited start: Int) -> Int {
        start >= 1 && tokens[start - 1].isIdentifier("await") ? start - 2 : start - 1
    }

    /// Whether `open` is the `(` of `if (…)` / `while (…)`.
    func isConditionParen(_ open: Int) -> Bool {
        open >= 1 && tokens[open].isPunctuator("(") && ["if", "while"].contains(where: tokens[open - 1].isIdentifier)
    }

    /// Whether the expression `start...end` (an `await` before it included) opens or closes the
    /// condition of an `if` / `while`, comes after a token `after` accepts, or before one `before` accepts.
    /// `unwrappingParentheses` looks around `(await x)` as around `x`.
    func isOperand(start: Int, end: Int, unwrappingParentheses: Bool, after: (JSToken) -> Bool, before: (JSToken) -> Bool) -> Bool {
        var previous = index(beforeAwaited: start)
        var last = end
        while unwrappingParentheses, previous >= 0, tokens[previous].isPunctuator("("), partner[previous] == last + 1, !isConditionParen(previous) {
            last += 1
            previous -= 1
        }
        if previous >= 0, after(tokens[previous]) || isConditionParen(previous) { return true }
        guard last + 1 < tokens.count else { return false }
        let next = tokens[last + 1]
        return before(next) || next.isPunctuator(")") && partner[last + 1].map(isConditionParen) == true
    }
}

extension JavaScriptHealthKitCall {
    /// The name the call's (awaited) result is bound to: `const result = await Health.x(…)` → `result`.
    func resultName(in file: JavaScriptFile) -> String? {
        let tokens = file.tokens
        let start = file.chain(endingAt: token).start
        let before = file.index(beforeAwaited: start)
        if let key = library.requestResults[method]?.key {
            // An app plugin resolves an object: the request's result is its `key`, destructured
            // (`const { granted } = await Plugin.request()`) or read at once (`(await Plugin.request()).granted`).
            if before >= 1, tokens[before].isPunctuator("="), tokens[before - 1].isPunctuator("}"), let open = file.partner[before - 1] {
                for item in file.items(of: open) {
                    let parts = item.map { tokens[$0] }
                    guard let first = parts.first, first.isIdentifier(key) else { continue }
                    return parts.count == 3 && parts[1].isPunctuator(":") && parts[2].kind == .identifier ? parts[2].text : key
                }
                return nil
            }
            // `const granted = (await Plugin.request()).granted`.
            if let end = file.partner[paren], let (open, _) = keyRead(endingCallAt: end, in: file),
               open >= 2, tokens[open - 1].isPunctuator("="), tokens[open - 2].kind == .identifier {
                return tokens[open - 2].text
            }
            return nil
        }
        guard before >= 1, tokens[before].isPunctuator("="), tokens[before - 1].kind == .identifier else { return nil }
        return tokens[before - 1].text
    }

    /// `(await Plugin.request()).KEY`: the `(` before the awaited call and the index after `KEY`,
    /// for an app plugin's request whose result is `KEY`.
    func keyRead(endingCallAt close: Int, in file: JavaScriptFile) -> (open: Int, after: Int)? {
        guard let key = library.requestResults[method]?.key else { return nil }
        let tokens = file.tokens
        let start = file.chain(endingAt: token).start
        var open = start - 1
        if open >= 0, tokens[open].isIdentifier("await") { open -= 1 }
        guard open >= 0, tokens[open].isPunctuator("("), file.partner[open] == close + 1, close + 3 < tokens.count,
              tokens[close + 2].isPunctuator(".") || tokens[close + 2].isPunctuator("?."), tokens[close + 3].isIdentifier(key) else { return nil }
        return (open, close + 4)
    }
}
