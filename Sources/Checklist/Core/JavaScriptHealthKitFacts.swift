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
    public let library: HealthKitLibrary
}

/// A JavaScript or Dart library that reaches HealthKit, and how its methods map onto facts.
public struct HealthKitLibrary: Sendable, Hashable {
    public let name: String
    let modules: Set<String>
    let methods: [String: HealthKitFact.Kind]
    let prefixes: [String: HealthKitFact.Kind]
    /// Results are promises (a rejection must be caught), not Node-style callbacks.
    public let promises: Bool
    /// Property paths the library is reached through without an import: a call whose receiver
    /// chain ends with one is the library's (`NativeModules.AppleHealthKit`, Cordova's `navigator.health`).
    let globals: [[String]]
    /// Methods a prefix would claim that touch no HealthKit data (Android-only calls).
    var ignored: Set<String> = []
    /// Its own code checks `isHealthDataAvailable()` before it calls HealthKit (read in its source):
    /// an app that reaches HealthKit only through it leaves that decision to code not in the app.
    var decidesAvailabilityItself = false
    /// Generic method names that count only on a receiver named for health (`healthKit.query(…)`, not `db.query(…)`).
    var healthReceiverOnly: Set<String> = []

    func kind(of method: String) -> HealthKitFact.Kind? {
        if ignored.contains(method) { return nil }
        if let kind = methods[method] { return kind }
        return prefixes.first { method.hasPrefix($0.key) && method.count > $0.key.count && method[method.index(method.startIndex, offsetBy: $0.key.count)].isUppercase }?.value
    }

    public static let reactNativeHealth = HealthKitLibrary(
        name: "react-native-health", modules: ["react-native-health"],
        methods: ["isAvailable": .availabilityCheck, "initHealthKit": .authorizationRequest, "getAuthStatus": .statusCheck, "setObserver": .read],
        prefixes: ["get": .read, "save": .write, "delete": .write], promises: false, globals: [["AppleHealthKit"]])

    public static let kingstinct = HealthKitLibrary(
        name: "@kingstinct/react-native-healthkit", modules: ["@kingstinct/react-native-healthkit"],
        methods: ["isHealthDataAvailable": .availabilityCheck, "isHealthDataAvailableAsync": .availabilityCheck,
                  "requestAuthorization": .authorizationRequest, "useHealthkitAuthorization": .authorizationRequest,
                  "authorizationStatusFor": .statusCheck, "getRequestStatusForAuthorization": .requestStatusCheck,
                  "subscribeToChanges": .read, "enableBackgroundDelivery": .read, "deleteObjects": .write],
        prefixes: ["query": .read, "get": .read, "useMostRecent": .read, "useStatistics": .read, "useSources": .read,
                   "save": .write, "delete": .write],
        promises: true, globals: [])

    public static let capacitorHealth = HealthKitLibrary(
        name: "@capgo/capacitor-health", modules: ["@capgo/capacitor-health", "capacitor-health", "@perfood/capacitor-healthkit"],
        methods: ["isAvailable": .availabilityCheck, "requestAuthorization": .authorizationRequest, "requestAuthorizations": .authorizationRequest,
                  "checkAuthorization": .statusCheck],
        prefixes: ["read": .read, "query": .read, "save": .write, "delete": .write], promises: true, globals: [])

    /// Flutter's `package:health`; the plugin offers no HealthKit availability check on iOS.
    public static let flutterHealth = HealthKitLibrary(
        name: "package:health", modules: ["package:health/health.dart"],
        methods: ["requestAuthorization": .authorizationRequest, "hasPermissions": .statusCheck, "delete": .write],
        prefixes: ["get": .read, "write": .write, "delete": .write], promises: true, globals: [],
        ignored: ["getHealthConnectSdkStatus", "isHealthConnectAvailable", "installHealthConnect", "isDataTypeAvailable",
                  "getHealthConnectSdkStatusNative", "isHealthDataHistoryAvailable", "isHealthDataInBackgroundAvailable"])

    /// Cordova's `cordova-plugin-health` (`navigator.health`) and the older `HealthKit` plugin
    /// (`window.plugins.healthkit`); Node-style callbacks `(args, success, error)`.
    public static let cordovaHealth = HealthKitLibrary(
        name: "cordova-plugin-health", modules: ["cordova-plugin-health"],
        methods: ["isAvailable": .availabilityCheck, "available": .availabilityCheck, "requestAuthorization": .authorizationRequest,
                  "isAuthorized": .statusCheck, "checkAuthStatus": .statusCheck, "query": .read, "queryAggregated": .read,
                  "store": .write, "delete": .write],
        prefixes: ["read": .read, "query": .read, "save": .write, "delete": .write], promises: false,
        globals: [["navigator", "health"], ["cordova", "plugins", "health"], ["plugins", "healthkit"]],
        ignored: ["promptInstallFit", "disconnect", "getHealthConnectFromStore", "launchPrivacyPolicy", "openHealthSettings"])

    /// Stanford Spezi's `SpeziHealthKit` (Swift, SwiftPM identity `spezihealthkit`): a module the app
    /// configures (`HealthKit { CollectSamples(.stepCount) }`, each collector reading its type) and
    /// asks through (`healthKit.askForAuthorization()`, which calls `requestAuthorization` after its
    /// own `isHealthDataAvailable()` guard); `didAskForAuthorization` only says whether the sheet was
    /// shown; `query` / `continuousQuery` / `oldestSampleDate` read. Found by `import SpeziHealthKit`.
    public static let speziHealthKit = HealthKitLibrary(
        name: "SpeziHealthKit", modules: ["SpeziHealthKit", "SpeziHealthKitUI"],
        methods: ["askForAuthorization": .authorizationRequest, "didAskForAuthorization": .requestStatusCheck,
                  "CollectSample": .read, "CollectSamples": .read, "query": .read, "continuousQuery": .read, "oldestSampleDate": .read],
        prefixes: [:], promises: true, globals: [], decidesAvailabilityItself: true,
        healthReceiverOnly: ["query", "continuousQuery", "oldestSampleDate"])

    /// Swift frameworks that wrap HealthKit, found by the modules a file imports.
    static let swiftWrappers = [speziHealthKit]

    /// The JavaScript libraries, found by their module names in imports (Cordova's by its global path).
    static let all = [reactNativeHealth, kingstinct, capacitorHealth, cordovaHealth]
}

/// The JavaScript / TypeScript extractor of `HealthKitUsage`: calls of the libraries above,
/// classified into the same facts as Swift's, once per file.
enum JavaScriptHealthKitFacts {
    static func extract(_ files: [JavaScriptFile], target: String) -> (facts: [HealthKitFact], calls: [JavaScriptHealthKitCall]) {
        var facts: [HealthKitFact] = []
        var calls: [JavaScriptHealthKitCall] = []
        let bindings = JavaScriptBindings.resolve(files)
        for (index, file) in files.enumerated() {
            for call in Self.calls(in: file, fileIndex: index, bindings: bindings[index]) {
                // An availability check counts only where it decides something (a condition), not
                // where its value is only shown (`isHealthDataAvailable() ? '✅' : '❌'`).
                if call.kind == .availabilityCheck && !Self.decides(call, in: file) { continue }
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
        // `const available = await isHealthDataAvailableAsync()` → how `available` is used.
        guard let name = call.resultName(in: file) else { return false }
        return ((close + 1)..<file.tokens.count).contains { i in file.tokens[i].isIdentifier(name) && isCondition(start: i, end: i, in: file) }
    }

    private static func isCondition(start: Int, end: Int, in file: JavaScriptFile) -> Bool {
        file.isOperand(start: start, end: end, unwrappingParentheses: false,
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
        let before = file.index(beforeAwaited: file.chain(endingAt: token).start)
        guard before >= 1, file.tokens[before].isPunctuator("="), file.tokens[before - 1].kind == .identifier else { return nil }
        return file.tokens[before - 1].text
    }
}
