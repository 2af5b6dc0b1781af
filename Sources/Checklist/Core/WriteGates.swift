import Manifest
import SwiftSyntax

/// One HealthKit write and what runs before it at write time: the fresh status check that decides
/// it (if any) and whether its failure is seen. Question 6 reads the gates; question 3 reads which
/// status checks decide writes from the same gates, so the two answers cannot disagree.
public struct WriteGate: Sendable {
    public var write: HealthKitFact
    /// Where the write is decided by a fresh status check: `authorizationStatus(for:)` itself, an app
    /// helper that asks it (`isShareAuthorized`), or a wrapper's status call; nil when nothing is asked.
    public var check: Evidence?
    /// The status calls that check rests on (the helper's own `authorizationStatus(for:)`).
    public var statusCalls: [Evidence]
    /// Whether the write's failure is caught or thrown on (good practice, not a re-check); nil when
    /// the code does not show it either way.
    public var failureHandled: Bool?

    public var isChecked: Bool { check != nil }
}

/// Builds the gates of every write fact of an app, from the same facts the answers cite.
enum WriteGates {
    static func of(_ usage: HealthKitUsage, sources: [ParsedSource], manifest: AppManifest,
                   javaScriptCalls: [JavaScriptHealthKitCall], dartCalls: [JavaScriptHealthKitCall]) -> [WriteGate] {
        let writes = usage.facts(.write)
        guard !writes.isEmpty else { return [] }
        let swift = writes.contains { $0.language == .swift } ? GateFinder(sources: sources) : nil
        var scripts = ScriptStatusGates(manifest: manifest, javaScriptCalls: javaScriptCalls, dartCalls: dartCalls)
        return writes.map { write in
            switch write.site {
            case .syntax(let node)?:
                guard let swift, let call = node.as(FunctionCallExprSyntax.self) else { break }
                let check = swift.check(before: node)
                return WriteGate(write: write, check: check?.evidence, statusCalls: check?.statusCalls ?? [],
                                 failureHandled: swift.failureHandled(call))
            case .token(let language, let file, let token)?:
                return scripts.gate(write, language: language, file: file, token: token)
            case nil:
                break
            }
            return WriteGate(write: write, check: nil, statusCalls: [], failureHandled: nil)
        }
    }
}

/// Swift: the check of one kind (`authorizationStatus(for:)` for writes, `isHealthDataAvailable()`
/// for every HealthKit call) that runs before a node — in its function, through an app helper that
/// asks it, or, for a function the app calls, in every one of its callers.
struct GateFinder {
    /// The call a gate rests on, by the name called.
    struct Gate: Sendable {
        var name: String
        /// Whether a check made when an instance is set up (in an initializer, or where a stored
        /// property such as the store is created) guards all of the type's code. True for
        /// availability, which cannot change while the app runs; never for status, which can.
        var setUpGuardsType = false
        static let status = Gate(name: HealthKitVocabulary.statusCheck)
        static let availability = Gate(name: HealthKitVocabulary.availabilityCheck, setUpGuardsType: true)
        func matches(_ call: FunctionCallExprSyntax) -> Bool { ExprShape.calledName(call) == name }
    }

    struct Check {
        var evidence: Evidence
        var statusCalls: [Evidence]
    }

    private let gate: Gate
    private let sourcesByTree: [SyntaxIdentifier: ParsedSource]
    /// Functions and computed properties whose body asks the gate's call, with those calls.
    let helpers: [String: [Evidence]]
    /// Types whose instances are set up behind the check (see `Gate.setUpGuardsType`), with the check.
    private let guardedTypes: [String: Evidence]
    private let callIndex: CallIndex

    init(sources: [ParsedSource], gate: Gate = .status) {
        self.gate = gate
        sourcesByTree = Dictionary(sources.map { ($0.tree.id, $0) }) { first, _ in first }
        let helpers = Self.helpers(sources, gate: gate)
        // A flag set from the check (`initialized = initializeHealthKit()`) is as good as the check for
        // availability, which cannot change while the app runs; never for status, which can.
        self.helpers = gate.setUpGuardsType ? helpers.merging(Self.flags(sources, gate: gate, helpers: helpers)) { first, _ in first } : helpers
        guardedTypes = gate.setUpGuardsType ? Self.typesSetUpBehind(gate, sources, helpers: self.helpers) : [:]
        callIndex = CallIndex(sources)
    }

    /// Names assigned the result of the check or of a helper that makes it.
    private static func flags(_ sources: [ParsedSource], gate: Gate, helpers: [String: [Evidence]]) -> [String: [Evidence]] {
        var flags: [String: [Evidence]] = [:]
        for source in sources {
            for assignment in ExprShape.assignments(in: source.tree) {
                guard let name = ExprShape.referencedName(assignment.lhs) ?? assignment.lhs.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
                      let call = assignment.rhs.items.lazy.flatMap(\.calls).first(where: { call in
                          gate.matches(call) || ExprShape.calledName(call).map { helpers[$0] != nil } == true
                      }) else { continue }
                flags[name, default: []].append(Evidence(location: source.location(of: call), quote: source.quote(call)))
            }
        }
        return flags
    }

    /// Types with a check in an initializer or in a stored property's initial value
    /// (`let store: HKHealthStore? = HKHealthStore.isHealthDataAvailable() ? HKHealthStore() : nil`).
    private static func typesSetUpBehind(_ gate: Gate, _ sources: [ParsedSource], helpers: [String: [Evidence]]) -> [String: Evidence] {
        var guarded: [String: Evidence] = [:]
        for source in sources {
            // An initializer that asks through a helper (`guard isAvailableOnCurrentDevice else { return }`).
            for initializer in source.tree.collect(InitializerDeclSyntax.self) {
                guard let body = initializer.body,
                      let token = body.tokens(viewMode: .sourceAccurate).first(where: { helpers[$0.text] != nil && $0.tokenKind != .keyword(.func) }),
                      let type = SyntaxScope.types(around: initializer).first, let name = SyntaxScope.typeName(of: type), guarded[name] == nil else { continue }
                guarded[name] = Evidence(location: source.location(of: token), quote: source.quote(token))
            }
            for check in source.calls(named: gate.name) {
                let function = SyntaxScope.function(of: check)
                let setUp = function.is(InitializerDeclSyntax.self)
                    || (function.is(SourceFileSyntax.self) && check.ancestors.contains { $0.is(PatternBindingSyntax.self) })
                guard setUp, let type = SyntaxScope.types(around: check).first, let name = SyntaxScope.typeName(of: type),
                      guarded[name] == nil else { continue }
                guarded[name] = Evidence(location: source.location(of: check), quote: source.quote(check))
            }
        }
        return guarded
    }

    /// Functions and computed properties whose body asks the gate's call (`func canWrite() -> Bool`,
    /// `var isShareAuthorized: Bool`, `var isAvailable: Bool`): calling one is a check too.
    static func helpers(_ sources: [ParsedSource], gate: Gate = .status) -> [String: [Evidence]] {
        var helpers: [String: [Evidence]] = [:]
        for source in sources {
            // Every function or accessor around a check, found from the checks up.
            for check in source.calls(named: gate.name) {
                let evidence = Evidence(location: source.location(of: check), quote: source.quote(check))
                for ancestor in check.ancestors {
                    if let function = ancestor.as(FunctionDeclSyntax.self), let body = function.body, body.encloses(check) {
                        helpers[function.name.text, default: []].append(evidence)
                    } else if let binding = ancestor.as(PatternBindingSyntax.self), let accessors = binding.accessorBlock, accessors.encloses(check),
                              binding.parent?.parent?.is(VariableDeclSyntax.self) == true,
                              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                        helpers[name, default: []].append(evidence)
                    }
                }
            }
        }
        return helpers
    }

    /// The check that runs before `node`, or nil.
    func check(before node: Syntax) -> Check? { check(before: node, depth: 0) }

    private func check(before node: Syntax, depth: Int) -> Check? {
        let function = SyntaxScope.function(of: node)
        guard let source = sourcesByTree[node.root.id] else { return nil }
        if let call = function.calls.first(where: { call in
            call.position < node.position && (gate.matches(call) || ExprShape.calledName(call).map { helpers[$0] != nil } == true)
        }) {
            let evidence = Evidence(location: source.location(of: call), quote: source.quote(call))
            let inner = gate.matches(call) ? [evidence] : ExprShape.calledName(call).flatMap { helpers[$0] } ?? []
            return Check(evidence: evidence, statusCalls: inner)
        }
        if !helpers.isEmpty, let token = function.tokens(viewMode: .sourceAccurate).first(where: { $0.position < node.position && helpers[$0.text] != nil }) {
            return Check(evidence: Evidence(location: source.location(of: token), quote: source.quote(token)), statusCalls: helpers[token.text] ?? [])
        }
        if !guardedTypes.isEmpty, let type = SyntaxScope.types(around: node).first, let name = SyntaxScope.typeName(of: type),
           let evidence = guardedTypes[name] {
            return Check(evidence: evidence, statusCalls: [evidence])
        }
        // A function the app calls: checked if every caller checks before calling it (a writer called only from a guarded flush).
        guard depth < 4, let declaration = function.as(FunctionDeclSyntax.self) else { return nil }
        let callers = (callIndex.byName[declaration.name.text] ?? []).filter { !declaration.encloses(Syntax($0)) }
        guard !callers.isEmpty, callers.count <= 20 else { return nil }
        var first: Check?
        for caller in callers {
            guard let found = check(before: Syntax(caller), depth: depth + 1) else { return nil }
            if first == nil { first = found }
        }
        return first
    }

    /// Whether a Swift write's failure is caught or thrown on: nil when its error is dropped.
    func failureHandled(_ call: FunctionCallExprSyntax) -> Bool? {
        // Builders and sessions report through later calls: their handling is not this call's.
        guard ["save", "delete", "deleteObjects"].contains(ExprShape.calledName(call) ?? "") else { return nil }
        return FailureHandling.swallowed(by: call) == nil
    }

    /// Every call of the app by called name, to find a function's callers; merged from the files'
    /// own indexes the first time a function has to be traced to its callers.
    final class CallIndex: @unchecked Sendable {
        private let sources: [ParsedSource]
        init(_ sources: [ParsedSource]) { self.sources = sources }

        lazy var byName: [String: [FunctionCallExprSyntax]] = {
            var merged: [String: [FunctionCallExprSyntax]] = [:]
            for source in sources {
                for (name, calls) in source.callsByName { merged[name, default: []].append(contentsOf: calls) }
            }
            return merged
        }()
    }
}

/// How a Swift save's failure is dropped.
enum FailureHandling {
    /// How the save's failure is dropped (`try?`, a completion that ignores its error), or nil when it is caught or thrown on.
    static func swallowed(by call: FunctionCallExprSyntax) -> String? {
        var node = Syntax(call).parent
        while let current = node, !current.is(CodeBlockItemSyntax.self) {
            if let attempt = current.as(TryExprSyntax.self), attempt.questionOrExclamationMark != nil {
                return "drops its error with `try\(attempt.questionOrExclamationMark!.text)`"
            }
            node = current.parent
        }
        let closure = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self)
        guard let closure else { return nil }
        let parameters = closure.signature?.parameterClause.map { clause -> [String] in
            if let list = clause.as(ClosureShorthandParameterListSyntax.self) { return list.map(\.name.text) }
            if let list = clause.as(ClosureParameterClauseSyntax.self) { return list.parameters.map { ($0.secondName ?? $0.firstName).text } }
            return []
        } ?? []
        let used = Set(closure.statements.tokens(viewMode: .sourceAccurate).map(\.text))
        if parameters.isEmpty { return used.contains("$1") ? nil : "ignores the error its completion handler receives" }
        return parameters.contains(where: { $0 != "_" && used.contains($0) }) ? nil : "ignores the success and error its completion handler receives"
    }
}

/// JavaScript / TypeScript and Dart: a write is checked when the library's status call runs before
/// it in the same function, or the write runs in the status call's own callback.
private struct ScriptStatusGates {
    let manifest: AppManifest
    let javaScriptCalls: [JavaScriptHealthKitCall]
    let dartCalls: [JavaScriptHealthKitCall]
    private var flows: [String: JSFlow] = [:]

    init(manifest: AppManifest, javaScriptCalls: [JavaScriptHealthKitCall], dartCalls: [JavaScriptHealthKitCall]) {
        self.manifest = manifest; self.javaScriptCalls = javaScriptCalls; self.dartCalls = dartCalls
    }

    mutating func gate(_ write: HealthKitFact, language: HealthKitFact.Language, file index: Int, token: Int) -> WriteGate {
        let files = language == .dart ? manifest.dartSources : manifest.javaScriptSources
        let calls = language == .dart ? dartCalls : javaScriptCalls
        guard files.indices.contains(index), let call = calls.first(where: { $0.file == index && $0.token == token }) else {
            return WriteGate(write: write, check: nil, statusCalls: [], failureHandled: nil)
        }
        let file = files[index]
        let key = "\(language.rawValue):\(index)"
        if flows[key] == nil { flows[key] = JSFlow(file) }
        let flow = flows[key]!
        // Dart methods (`Future<void> save() async {`) are found by their body's braces; a status
        // call in another method (a wrapper of its own) does not check this write.
        let method = language == .dart ? JavaScriptBindings.enclosingFunction(of: token, in: file).flatMap { function in
            file.partner[function.body].map { function.body..<$0 }
        } : nil
        let body = method ?? flow.function(containing: token)?.body ?? 0..<token
        let status = calls.first { other in
            guard other.file == index, other.kind == .statusCheck, other.library == call.library else { return false }
            let before = other.token < token && body.contains(other.token)
            let around = other.paren < token && (file.partner[other.paren].map { token < $0 } ?? false)
            return before || around
        }
        let evidence = status.map { Evidence(location: file.location(of: $0.token), quote: file.quote($0.token)) }
        let handled: Bool? = call.library.promises || language == .dart ? WriteErrorUnhandledRule.isHandled(call, in: file) : nil
        return WriteGate(write: write, check: evidence, statusCalls: evidence.map { [$0] } ?? [], failureHandled: handled)
    }
}
