import Manifest

/// The app's own JavaScript / Dart function around a library call, when it hands the call's
/// outcome to its callers (`return await _health.requestAuthorization(…)`, or `await
/// hk.requestAuthorization(…); return true`), and the places the app calls that function: what a
/// rule says about the library's result it then says at those calls.
struct AppWrapper {
    /// The app function's name and the `{` of its body.
    let name: String
    let body: Int
    /// It returns an app plugin's whole result object (`return await Plugin.request()`), whose
    /// callers then read the key; any other wrapper hands back the value itself.
    var returnsObject = false
    /// The class the function is a method of (`HealthService`), when it is one: a call of the same
    /// name on another type (`Geolocator.requestPermission()`) is not this function.
    var owner: String?

    /// The function around `call` that returns its outcome: the call's value itself, or `true`
    /// once it completed. Nil when the value stays inside (it is then judged where it is).
    static func around(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> AppWrapper? {
        guard var wrapper = ownerless(call, in: file) else { return nil }
        wrapper.owner = owningClass(of: wrapper.body, in: file)
        return wrapper
    }

    /// `class NAME … {` around the body `{` at `body`.
    static func owningClass(of body: Int, in file: JavaScriptFile) -> String? {
        let tokens = file.tokens
        var brace = file.parent[body]
        while let open = brace {
            if tokens[open].isPunctuator("{") {
                var k = open - 1
                while k > 0, k > open - 16, file.parent[k] == file.parent[open], !tokens[k].isPunctuator(";"), !tokens[k].isPunctuator("}"),
                      !tokens[k].isPunctuator("{"), !tokens[k].isIdentifier("class") { k -= 1 }
                if k >= 0, k + 1 < open, tokens[k].isIdentifier("class"), tokens[k + 1].kind == .identifier { return tokens[k + 1].text }
            }
            brace = file.parent[open]
        }
        return nil
    }

    /// The wrapper around `call`, before its owning class is looked up.
    private static func ownerless(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> AppWrapper? {
        guard let function = JavaScriptBindings.enclosingFunction(of: call.token, in: file), let close = file.partner[function.body] else { return nil }
        let tokens = file.tokens
        let start = file.chain(endingAt: call.token).start
        let before = file.index(beforeAwaited: start)
        if before >= 0, tokens[before].isIdentifier("return") || tokens[before].isPunctuator("=>") {
            return AppWrapper(name: function.name, body: function.body, returnsObject: call.library.isAppPlugin)
        }
        // `return (await Plugin.request()).granted`: an app plugin's result, unwrapped.
        if let (open, _) = call.keyRead(endingCallAt: file.partner[call.paren] ?? call.paren, in: file),
           open >= 1, tokens[open - 1].isIdentifier("return") || tokens[open - 1].isPunctuator("=>") {
            return AppWrapper(name: function.name, body: function.body)
        }
        // `resolve(true)` in the request's own callback, inside the function's `new Promise`.
        if ((call.paren + 1)..<(file.partner[call.paren] ?? call.paren)).contains(where: { index in
            tokens[index].isIdentifier("resolve") && index + 3 < tokens.count && tokens[index + 1].isPunctuator("(") && tokens[index + 2].isIdentifier("true")
        }) {
            return AppWrapper(name: function.name, body: function.body)
        }
        // `return true`, or the name the result is bound to (`final result = await …; return result;`),
        // after the call, in the same function (not in a callback).
        let bound = call.resultName(in: file)
        let returnsTrue = ((call.paren + 1)..<close).contains { index in
            guard tokens[index].isIdentifier("return"), index + 2 < tokens.count else { return false }
            let value = tokens[index + 1]
            let returned = value.isIdentifier("true") || (bound.map(value.isIdentifier) == true && (tokens[index + 2].isPunctuator(";") || tokens[index + 2].isPunctuator("}")))
            return returned && JavaScriptBindings.enclosingFunction(of: index, in: file)?.body == function.body
        }
        if returnsTrue { return AppWrapper(name: function.name, body: function.body) }
        // `await request(…); return { success: true, note: '…' }`: an outcome object whose key is true once
        // the request returned (its callers read the key).
        let returnsTrueKey = ((call.paren + 1)..<close).contains { index in
            guard tokens[index].isIdentifier("return"), index + 1 < tokens.count, tokens[index + 1].isPunctuator("{"),
                  JavaScriptBindings.enclosingFunction(of: index, in: file)?.body == function.body else { return false }
            return file.items(of: index + 1).contains { item in
                item.count == 3 && tokens[item.lowerBound].kind == .identifier && tokens[item.lowerBound + 1].isPunctuator(":")
                    && tokens[item.lowerBound + 2].isIdentifier("true")
            }
        }
        return returnsTrueKey ? AppWrapper(name: function.name, body: function.body) : nil
    }

    /// The app's calls of this function in `files` (declarations and calls on a receiver named for
    /// another permission — notifications, location — left out), each as a call of `library`'s `method`.
    /// The library's own calls of the same name (`_health.hasPermissions(…)` inside `hasPermissions()`) are not callers.
    func callers(in files: [JavaScriptFile], like call: JavaScriptHealthKitCall, libraryCalls: [JavaScriptHealthKitCall]) -> [(call: JavaScriptHealthKitCall, file: JavaScriptFile)] {
        var result: [(call: JavaScriptHealthKitCall, file: JavaScriptFile)] = []
        let library = Set(libraryCalls.map { [$0.file, $0.token] })
        for (index, file) in files.enumerated() {
            let tokens = file.tokens
            for token in tokens.indices where tokens[token].isIdentifier(name) && !library.contains([index, token]) {
                guard let paren = file.callParen(after: token), let close = file.partner[paren], !Self.isDeclaration(token, close: close, in: file) else { continue }
                let names = file.chain(endingAt: token).names.dropLast()
                let receiver = names.joined(separator: ".").lowercased()
                if HealthKitVocabulary.otherPermissions.contains(where: receiver.contains) { continue }
                // Dart: a method of the app's class, called on another class by name (`Geolocator.requestPermission()`),
                // is another package's. (JavaScript modules export instances under capitalized names: not there.)
                if let owner, file.path.hasSuffix(".dart"), let root = names.first, root.first?.isUppercase == true, root != owner { continue }
                result.append((JavaScriptHealthKitCall(file: index, token: token, paren: paren, method: call.method, kind: call.kind,
                                                       library: returnsObject ? call.library : call.library.unwrapped()), file))
            }
        }
        return result
    }

    /// A function's declaration rather than a call: `function f(`, a method `f() {` / `f(): T {`,
    /// Dart's `Future<bool> f() async {` / `bool f();`, an arrow's `f = () =>` is not at the name.
    private static func isDeclaration(_ name: Int, close: Int, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        let previous = name >= 1 ? tokens[name - 1] : nil
        if previous?.isIdentifier("function") == true { return true }
        guard close + 1 < tokens.count else { return false }
        let next = tokens[close + 1]
        if next.isPunctuator("{") || next.isPunctuator("=>") || next.isIdentifier("async") { return true }
        // A TypeScript return type, or a Dart declaration after its type (`Future<bool> f();`).
        let callContext = ["?", "(", ",", "=", "!", "&&", "||", "??", ".", "?.", "[", ":"]
        if next.isPunctuator(":"), let previous, !(previous.kind == .punctuator && callContext.contains(previous.text)),
           !["return", "await", "case"].contains(previous.text) { return true }
        if next.isPunctuator(";"), let previous, previous.isPunctuator(">") || (previous.kind == .identifier && !["return", "await", "yield", "else", "throw", "new"].contains(previous.text)) {
            return true
        }
        return false
    }
}
