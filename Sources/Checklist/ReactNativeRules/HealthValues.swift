import Manifest

/// Where the values a HealthKit library returns go in an app's JavaScript: from a read call's
/// result (awaited, passed to a callback, `.then`) into names, React state, object keys and the
/// app's own functions that return them. Rules about values start from here, so a name that merely
/// sounds like health data (`parseInt(calories, 10)` of a form field, `tourStep`) is not one.
///
/// Flow-insensitive and scoped by function: a name holds a health value when any assignment to it,
/// in the function that declares it, does.
struct HealthValues {
    let flows: [JSFlow]
    /// Per file, the names (by declaring scope) that hold a health value.
    private(set) var held: [Set<Binding>]
    /// Per file, `setSteps`-style setters handed a health value, and object keys given one.
    private(set) var setters: [Set<String>]
    private(set) var keys: [Set<String>]
    /// The app's functions that return a health value (by name, across files).
    private(set) var readers: Set<String> = []
    /// Every function the app declares, by name: one that is not a reader computes the app's own value
    /// from what it is handed (`calculateReadiness(healthData)` is a score, not Health's answer).
    private let computing: Set<String>
    private let scopes: [Scopes]
    /// Per file, tokens that are a health value by themselves: a read call's method name, a read
    /// method handed to a helper, a call typed with a result type (`call<HealthValue>(…)`).
    private let sources: [Set<Int>]
    private let resultTypes: [Set<String>]
    /// Per file, the read calls whose callbacks receive the data.
    private let reads: [[JavaScriptHealthKitCall]]

    /// A name in the scope that declares it: a function (its first token) or the module (-1).
    struct Binding: Hashable {
        let scope: Int
        let name: String
    }

    /// Library methods that return a subscription or a flag, not data.
    static let notData: Set<String> = ["subscribeToChanges", "enableBackgroundDelivery", "disableBackgroundDelivery", "disableAllBackgroundDelivery", "setObserver"]

    init(files: [JavaScriptFile], calls: [JavaScriptHealthKitCall]) {
        flows = files.map(JSFlow.init)
        scopes = flows.map(Scopes.init)
        // Not one that hands on what it is given (`latest(results)` returning `results[…]`, `sum(samples)` returning
        // `samples.reduce(…)`): its result is the same Health value.
        computing = Set(flows.flatMap { flow in flow.functions.filter { !Self.passesOnParameter($0, in: flow) }.compactMap(\.name) })
        var reads = [[JavaScriptHealthKitCall]](repeating: [], count: files.count)
        for call in calls where call.kind == .read && !Self.notData.contains(call.method) && call.file < files.count { reads[call.file].append(call) }
        self.reads = reads
        let bindings = JavaScriptBindings.resolve(files)
        resultTypes = files.indices.map { JavaScriptHealthKitFacts.resultTypeNames(in: files[$0], bindings: bindings[$0]) }
        sources = files.indices.map { index in
            Set(reads[index].map(\.token)).union(JavaScriptHealthKitFacts.readReferences(in: files[index], bindings: bindings[index]))
        }
        held = Array(repeating: [], count: files.count)
        setters = held.map { _ in [] }
        keys = setters
        // Nothing read, nothing handed to a helper, no result type named: nothing to follow.
        guard sources.contains(where: { !$0.isEmpty }) || resultTypes.contains(where: { !$0.isEmpty }) else { return }
        // Each pass may add names, setters, keys and readers; a few passes settle real apps.
        for _ in 0..<6 {
            var changed = false
            for index in files.indices { changed = propagate(in: index) || changed }
            if !changed { break }
        }
    }

    // MARK: Queries

    /// Whether the tokens of `range` compute a health value: a read, a call of a reader, or a use of
    /// a name holding one. A function literal's body counts (`setSteps(prev => prev + result.value)`).
    func carries(_ range: Range<Int>, in file: Int) -> Bool {
        let flow = flows[file]
        let tokens = flow.file.tokens
        var i = range.lowerBound
        while i < min(range.upperBound, tokens.count) {
            defer { i += 1 }
            // `byDay[dateOfSample]`: the key does not make the value Health data.
            if tokens[i].isPunctuator("["), i >= 1, Self.indexes(after: tokens[i - 1]), let close = flow.file.partner[i], close < range.upperBound {
                i = close
                continue
            }
            if sources[file].contains(i) { return true }
            let token = tokens[i]
            guard token.kind == .identifier else { continue }
            if readers.contains(token.text), flow.file.callParen(after: i) != nil, !isDeclaration(i, in: file) { return true }
            // `calculateReadiness(healthData)`: the app's own computation of its arguments is not a health value.
            // A generic helper handed the read itself (`call<HealthValue>(AppleHealthKit.getStepCount, …)`) passes it on.
            if computing.contains(token.text), !(i >= 1 && (tokens[i - 1].isPunctuator(".") || tokens[i - 1].isPunctuator("?."))),
               let open = flow.file.callParen(after: i), let close = flow.file.partner[open], close < range.upperBound, !isDeclaration(i, in: file),
               !(i + 1..<close).contains(where: { sources[file].contains($0) || resultTypes[file].contains(tokens[$0].text) }) {
                i = close
                continue
            }
            if let open = flow.file.callParen(after: i), open > i + 1, (i + 1..<open).contains(where: { resultTypes[file].contains(tokens[$0].text) }) {
                return true
            }
            if isUse(i, in: file), held[file].contains(scopes[file].binding(of: token.text, at: i)) { return true }
        }
        return false
    }

    /// Whether a function returns an expression that starts with one of its parameters (`return results[0]`,
    /// `samples => samples.reduce(…)`, `return await rows.map(…)`).
    static func passesOnParameter(_ function: JSFunction, in flow: JSFlow) -> Bool {
        let tokens = flow.file.tokens
        let parameters = Set(function.parameters)
        guard !parameters.isEmpty else { return false }
        func startsWithParameter(_ index: Int) -> Bool {
            var i = index
            while i < tokens.count, tokens[i].isIdentifier("await") || tokens[i].isPunctuator("(") { i += 1 }
            return i < tokens.count && tokens[i].kind == .identifier && parameters.contains(tokens[i].text)
        }
        if !function.isBlock { return function.body.first.map(startsWithParameter) ?? false }
        return function.body.contains { i in
            tokens[i].isIdentifier("return") && i + 1 < tokens.count && flow.function(containing: i)?.start == function.start && startsWithParameter(i + 1)
        }
    }

    /// Whether a `[` after this token indexes a value (`byDay[key]`, `rows()[0]`), not opens an array (`return [a, b]`).
    private static func indexes(after token: JSToken) -> Bool {
        if token.kind == .identifier { return !["return", "await", "yield", "typeof", "of", "in", "case", "else", "do", "new", "throw", "void", "delete"].contains(token.text) }
        return token.isPunctuator(")") || token.isPunctuator("]") || token.isPunctuator("?.")
    }

    /// Whether `setter` (`setSteps`) is handed a health value in the file.
    func isHealthSetter(_ setter: String, in file: Int) -> Bool { setters[file].contains(setter) }

    /// Whether `range` of a file holds a Health read: a library read, or a call of the app's own function that returns one.
    func readsHealth(_ range: Range<Int>, in file: Int) -> Bool {
        let tokens = flows[file].file.tokens
        return reads[file].contains { range.contains($0.token) }
            || range.contains { tokens[$0].kind == .identifier && readers.contains(tokens[$0].text) && flows[file].file.callParen(after: $0) != nil }
    }

    /// Whether an object key is given a health value in the file (`{ steps: result.value }`).
    func isHealthKey(_ key: String, in file: Int) -> Bool { keys[file].contains(key) }

    // MARK: Propagation

    private mutating func propagate(in index: Int) -> Bool {
        let flow = flows[index]
        let file = flow.file
        let tokens = file.tokens
        var changed = false
        func hold(_ name: String, scope: Int) {
            if held[index].insert(Binding(scope: scope, name: name)).inserted { changed = true }
        }
        // Callbacks of callback-style reads receive the data: `(err, results)`, Cordova's `(data)`.
        for call in reads[index] where !call.library.promises {
            guard let close = file.partner[call.paren] else { continue }
            let callbacks = file.items(of: call.paren).compactMap { flow.function(startingAt: $0) }
            guard let callback = callbacks.first, call.paren < callback.start, callback.start < close else { continue }
            let parameters = scopes[index].parameters(of: callback)
            let data = call.library == .cordovaHealth ? Array(parameters.prefix(1)) : Array(parameters.dropFirst())
            for name in data { hold(name, scope: callback.start) }
        }
        // Functions handed to a method of a health value: `.then(r => …)`, `.map(s => …)`, `.reduce((sum, s) => …, 0)`.
        for function in flow.functions {
            guard let open = file.parent[function.start], tokens[open].isPunctuator("("), open >= 2,
                  tokens[open - 1].kind == .identifier, !["catch", "finally"].contains(tokens[open - 1].text),
                  tokens[open - 2].isPunctuator(".") || tokens[open - 2].isPunctuator("?."),
                  let receiver = Self.receiver(endingBefore: open - 2, in: file), carries(receiver, in: index) else { continue }
            for name in scopes[index].parameters(of: function) { hold(name, scope: function.start) }
        }
        // Parameters typed with a result type: `(samples: HealthValue[]) =>`.
        for function in flow.functions {
            for (name, type) in scopes[index].typedParameters(of: function) where type.contains(where: resultTypes[index].contains) {
                hold(name, scope: function.start)
            }
        }
        // `const x = …`, `const { a, b } = …`, `x = …`, `obj.key = …`.
        for i in tokens.indices where tokens[i].kind == .identifier {
            if ["const", "let", "var"].contains(tokens[i].text), i + 1 < tokens.count {
                guard let (names, equals, annotation) = scopes[index].declarator(at: i) else {
                    // `for (const sample of samples)`
                    if let (names, of) = scopes[index].forOf(at: i), let close = file.parent[i].flatMap({ file.partner[$0] }), carries((of + 1)..<close, in: index) {
                        for name in names { hold(name, scope: scopes[index].scope(of: i)) }
                    }
                    continue
                }
                let scope = scopes[index].scope(of: i)
                let value = Self.expression(from: equals + 1, in: file)
                let typed = annotation.contains { resultTypes[index].contains(tokens[$0].text) }
                if typed || (!isFunctionLiteral(at: equals + 1, in: index) && carries(value, in: index)) {
                    for name in names { hold(name, scope: scope) }
                }
                continue
            }
            guard i + 1 < tokens.count, tokens[i + 1].isPunctuator("=") else { continue }
            let afterDot = i >= 1 && (tokens[i - 1].isPunctuator(".") || tokens[i - 1].isPunctuator("?."))
            let value = Self.expression(from: i + 2, in: file)
            guard !isFunctionLiteral(at: i + 2, in: index), carries(value, in: index) else { continue }
            if afterDot {
                if keys[index].insert(tokens[i].text).inserted { changed = true }
            } else {
                let binding = scopes[index].binding(of: tokens[i].text, at: i)
                hold(binding.name, scope: binding.scope)
            }
        }
        // `setSteps(result.value)`: the state of `const [steps, setSteps] = useState(…)` holds health data.
        for (setter, state) in scopes[index].stateSetters {
            for (call, open) in flow.calls(named: { $0 == setter }) where !(call >= 1 && tokens[call - 1].isPunctuator(".")) {
                guard let close = file.partner[open], carries((open + 1)..<close, in: index) else { continue }
                if setters[index].insert(setter).inserted { changed = true }
                hold(state.name, scope: state.scope)
            }
        }
        // `{ steps: result.value }`, `{ steps }`.
        for open in tokens.indices where tokens[open].isPunctuator("{") && file.partner[open] != nil && isObjectLiteral(open, in: file) {
            for item in file.items(of: open) {
                let first = tokens[item.lowerBound]
                guard first.kind == .identifier || first.kind == .string else { continue }
                let value: Range<Int>
                if item.count == 1, first.kind == .identifier { value = item }
                else if item.count > 2, tokens[item.lowerBound + 1].isPunctuator(":") { value = (item.lowerBound + 2)..<item.upperBound }
                else { continue }
                if carries(value, in: index), keys[index].insert(first.value).inserted { changed = true }
            }
        }
        // The app's functions that return a health value, and promises resolved with one.
        for function in flow.functions {
            guard let name = function.name, !readers.contains(name) else { continue }
            var returns = false
            if !function.isBlock {
                returns = carries(function.body, in: index)
            } else {
                for i in function.body {
                    let value: Range<Int>
                    if tokens[i].isIdentifier("return"), flow.function(containing: i)?.start == function.start {
                        value = Self.expression(from: i + 1, in: file)
                    } else if tokens[i].isIdentifier("resolve"), i + 1 < tokens.count, tokens[i + 1].isPunctuator("("), let close = file.partner[i + 1],
                              flow.namedFunction(containing: i)?.start == function.start {
                        // `new Promise((resolve) => read(…, (err, r) => resolve(r.value)))`
                        value = (i + 2)..<close
                    } else {
                        continue
                    }
                    if carries(value, in: index) { returns = true; break }
                }
            }
            if returns { readers.insert(name); changed = true }
        }
        return changed
    }

    private func isFunctionLiteral(at start: Int, in file: Int) -> Bool {
        flows[file].functions.contains { $0.start == start }
    }

    private func isDeclaration(_ index: Int, in file: Int) -> Bool {
        let tokens = flows[file].file.tokens
        if index >= 1, tokens[index - 1].isIdentifier("function") { return true }
        return flows[file].functions.contains { $0.start == index }
    }

    /// An identifier read as a value: not a property (`x.steps`), not a key (`{ steps: … }`).
    private func isUse(_ index: Int, in file: Int) -> Bool {
        let file = flows[file].file
        let tokens = file.tokens
        if index >= 1, tokens[index - 1].isPunctuator(".") || tokens[index - 1].isPunctuator("?.") { return false }
        if index + 1 < tokens.count, tokens[index + 1].isPunctuator(":"), index >= 1, tokens[index - 1].isPunctuator("{") || tokens[index - 1].isPunctuator(","),
           let parent = file.parent[index], tokens[parent].isPunctuator("{") {
            return false
        }
        return true
    }

    /// `{` opening an object literal, not a block: after `=`, `(`, `,`, `:`, `?`, `return`, `=>` followed by `(`, `[`, `??`, `||`, `...`.
    private func isObjectLiteral(_ open: Int, in file: JavaScriptFile) -> Bool {
        guard open >= 1 else { return false }
        let before = file.tokens[open - 1]
        if before.isIdentifier("return") { return true }
        return ["=", "(", ",", ":", "?", "[", "??", "||", "&&"].contains(where: before.isPunctuator)
    }

    /// The expression ending just before `end` that a member access applies to: `samples.filter(…)` of `.reduce`.
    static func receiver(endingBefore end: Int, in file: JavaScriptFile) -> Range<Int>? {
        let tokens = file.tokens
        var i = end - 1
        var start = end
        while i >= 0 {
            let token = tokens[i]
            if token.isCloser, let open = file.partner[i] { start = open; i = open - 1; continue }
            let nonNull = token.isPunctuator("!") && i + 1 < tokens.count && tokens[i + 1].isPunctuator(".")
            if token.kind == .identifier || token.kind == .string || token.kind == .template || token.kind == .number
                || token.isPunctuator(".") || token.isPunctuator("?.") || nonNull {
                if token.kind == .identifier, ["return", "await", "typeof", "new", "const", "let", "var"].contains(token.text) { break }
                start = i; i -= 1; continue
            }
            break
        }
        return start < end ? start..<end : nil
    }

    /// The expression starting at `start`, up to a `;`, a `,` or closer at its level, or a new
    /// statement on a later line (JavaScript's automatic semicolons).
    static func expression(from start: Int, in file: JavaScriptFile) -> Range<Int> {
        let tokens = file.tokens
        var i = start
        while i < tokens.count {
            let token = tokens[i]
            if token.isPunctuator(";") || token.isPunctuator(",") || token.isCloser { break }
            if i > start, token.line != tokens[i - 1].line, token.kind != .punctuator, ends(tokens[i - 1]) { break }
            if token.isOpener, let close = file.partner[i] { i = close + 1; continue }
            i += 1
        }
        return start..<i
    }

    /// A token after which a line break ends the statement: a name, a literal or a closer.
    private static func ends(_ token: JSToken) -> Bool {
        token.kind != .punctuator || token.isCloser
    }
}

/// Names declared per function of one file, to tell apart two functions' `result`.
struct Scopes {
    let flow: JSFlow
    /// Names declared by each scope: a function's first token, or -1 for the module.
    private var declared: [Int: Set<String>] = [:]
    /// The function scope enclosing each function (-1 for the module).
    private var outer: [Int: Int] = [:]
    /// `const [steps, setSteps] = useState(…)`: setter → the state's binding.
    private(set) var stateSetters: [(setter: String, state: HealthValues.Binding)] = []

    init(_ flow: JSFlow) {
        self.flow = flow
        let tokens = flow.file.tokens
        for function in flow.functions {
            outer[function.start] = flow.function(containing: function.start)?.start ?? -1
            declared[function.start, default: []].formUnion(parameters(of: function))
        }
        for i in tokens.indices where tokens[i].kind == .identifier {
            if ["const", "let", "var"].contains(tokens[i].text), let (names, equals, _) = declarator(at: i) {
                let scope = scope(of: i)
                declared[scope, default: []].formUnion(names)
                // `const [steps, setSteps] = useState(0)`
                if names.count == 2, tokens[i + 1].isPunctuator("["), equals + 1 < tokens.count, tokens[equals + 1].kind == .identifier,
                   tokens[equals + 1].text.hasPrefix("use"), flow.file.callParen(after: equals + 1) != nil {
                    stateSetters.append((names[1], HealthValues.Binding(scope: scope, name: names[0])))
                }
            } else if ["const", "let", "var"].contains(tokens[i].text), let (names, _) = forOf(at: i) {
                declared[scope(of: i), default: []].formUnion(names)
            } else if tokens[i].isIdentifier("function"), i + 1 < tokens.count, tokens[i + 1].kind == .identifier {
                declared[scope(of: i), default: []].insert(tokens[i + 1].text)
            }
        }
    }

    /// The function scope a token is in (-1 for the module).
    func scope(of index: Int) -> Int { flow.function(containing: index)?.start ?? -1 }

    /// The binding a name used at `index` refers to: the nearest enclosing scope declaring it.
    func binding(of name: String, at index: Int) -> HealthValues.Binding {
        var scope = scope(of: index)
        while scope != -1 {
            if declared[scope]?.contains(name) == true { return HealthValues.Binding(scope: scope, name: name) }
            scope = outer[scope] ?? -1
        }
        return HealthValues.Binding(scope: -1, name: name)
    }

    /// `const|let|var PATTERN (: Type)? = …` at `keyword`: the names bound, the `=`, and the annotation's tokens.
    func declarator(at keyword: Int) -> (names: [String], equals: Int, annotation: Range<Int>)? {
        let file = flow.file
        let tokens = file.tokens
        let first = keyword + 1
        guard first < tokens.count else { return nil }
        var names: [String] = []
        var next: Int
        if tokens[first].kind == .identifier {
            names = [tokens[first].text]
            next = first + 1
        } else if tokens[first].isPunctuator("{") || tokens[first].isPunctuator("["), let close = file.partner[first] {
            names = patternNames(first..<(close + 1))
            next = close + 1
        } else {
            return nil
        }
        var annotation = next..<next
        if next < tokens.count, tokens[next].isPunctuator(":") {
            var j = next + 1
            while j < tokens.count, !tokens[j].isPunctuator("="), !tokens[j].isPunctuator(";"), j - next < 40 {
                if tokens[j].isOpener, let match = file.partner[j] { j = match }
                j += 1
            }
            annotation = (next + 1)..<j
            next = j
        }
        guard next < tokens.count, tokens[next].isPunctuator("=") else { return nil }
        return (names, next, annotation)
    }

    /// `for (const PATTERN of …)` at `keyword`: the names and the `of`.
    func forOf(at keyword: Int) -> (names: [String], of: Int)? {
        let file = flow.file
        let tokens = file.tokens
        guard keyword >= 2, tokens[keyword - 1].isPunctuator("("), tokens[keyword - 2].isIdentifier("for"), keyword + 1 < tokens.count else { return nil }
        let first = keyword + 1
        let end = tokens[first].isOpener ? (file.partner[first] ?? first) : first
        guard end + 1 < tokens.count, tokens[end + 1].isIdentifier("of") else { return nil }
        return (patternNames(first..<(end + 1)), end + 1)
    }

    /// Names a destructuring pattern binds: `{ a, b: c, d = 1, ...rest }` → a, c, d, rest; `[x, , y]` → x, y.
    func patternNames(_ range: Range<Int>) -> [String] {
        let file = flow.file
        let tokens = file.tokens
        guard let open = range.first, tokens[open].isOpener else {
            return range.first.map { tokens[$0].kind == .identifier ? [tokens[$0].text] : [] } ?? []
        }
        let isObject = tokens[open].isPunctuator("{")
        var names: [String] = []
        for item in file.items(of: open) {
            var start = item.lowerBound
            if tokens[start].isPunctuator("...") { start += 1 }
            guard start < item.upperBound else { continue }
            // `key: target` in an object pattern binds the target.
            if isObject, let colon = (start..<item.upperBound).first(where: { tokens[$0].isPunctuator(":") && file.parent[$0] == open }) {
                start = colon + 1
            }
            guard start < item.upperBound else { continue }
            if tokens[start].isOpener, let close = file.partner[start] {
                names += patternNames(start..<(close + 1))
            } else if tokens[start].kind == .identifier {
                names.append(tokens[start].text)
            }
        }
        return names
    }

    /// The parameter list's `(`, or nil for `x => …`.
    private func parameterParen(of function: JSFunction) -> Int? {
        let tokens = flow.file.tokens
        let limit = function.body.lowerBound
        var i = function.start
        while i < limit, i < tokens.count {
            if tokens[i].isPunctuator("(") { return i }
            if tokens[i].isPunctuator("=>") { return nil }
            if tokens[i].isPunctuator("<"), let end = (i..<min(limit, i + 30)).first(where: { tokens[$0].isPunctuator(">") }) { i = end + 1; continue }
            i += 1
        }
        return nil
    }

    /// Every name a function's parameters bind, destructured ones included.
    func parameters(of function: JSFunction) -> [String] {
        let tokens = flow.file.tokens
        guard let open = parameterParen(of: function) else {
            var i = function.start
            if tokens[i].isIdentifier("async"), i + 1 < tokens.count { i += 1 }
            return tokens[i].kind == .identifier ? [tokens[i].text] : []
        }
        return flow.file.items(of: open).flatMap { item -> [String] in
            let end = (item.lowerBound..<item.upperBound).first { i in
                (tokens[i].isPunctuator(":") || tokens[i].isPunctuator("=")) && flow.file.parent[i] == open
            } ?? item.upperBound
            let pattern = tokens[item.lowerBound].isPunctuator("...") ? (item.lowerBound + 1)..<end : item.lowerBound..<end
            return pattern.isEmpty ? [] : patternNames(pattern)
        }
    }

    /// Parameters with a type annotation: name and the annotation's token texts (`samples: HealthValue[]`).
    func typedParameters(of function: JSFunction) -> [(name: String, type: [String])] {
        let file = flow.file
        let tokens = file.tokens
        guard let open = parameterParen(of: function) else { return [] }
        return file.items(of: open).compactMap { item in
            guard tokens[item.lowerBound].kind == .identifier,
                  let colon = (item.lowerBound..<item.upperBound).first(where: { tokens[$0].isPunctuator(":") && file.parent[$0] == open }) else { return nil }
            return (tokens[item.lowerBound].text, ((colon + 1)..<item.upperBound).map { tokens[$0].text })
        }
    }
}
