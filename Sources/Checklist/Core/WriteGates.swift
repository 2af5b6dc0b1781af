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
    /// The declaration of the function the write is in, when nothing in the app calls or names it:
    /// the write never runs.
    public var uncalledFunction: Evidence?

    public var isChecked: Bool { check != nil }
    /// Shipping code that can run: not in `#if DEBUG` code, not in a function nothing calls.
    public var runs: Bool { write.ships && uncalledFunction == nil }
}

/// Builds the gates of every write fact of an app, from the same facts the answers cite.
enum WriteGates {
    static func of(_ usage: HealthKitUsage, sources: [ParsedSource], manifest: AppManifest,
                   javaScriptCalls: [JavaScriptHealthKitCall], dartCalls: [JavaScriptHealthKitCall],
                   uncalledSwift uncalled: UncalledFunctions?, statusHelpers: [String: GateFinder.EvidenceList],
                   uncalledScripts: UncalledAppScripts) -> [WriteGate] {
        let writes = usage.facts(.write)
        guard !writes.isEmpty else { return [] }
        let swift = writes.contains { $0.language == .swift } ? GateFinder(sources: sources, helpers: statusHelpers) : nil
        var scripts = ScriptStatusGates(manifest: manifest, javaScriptCalls: javaScriptCalls, dartCalls: dartCalls)
        return writes.map { write in
            switch write.site {
            case .syntax(let node)?:
                guard let swift, let call = node.as(FunctionCallExprSyntax.self) else { break }
                let check = swift.check(before: node)
                return WriteGate(write: write, check: check?.evidence, statusCalls: check?.statusCalls ?? [],
                                 failureHandled: swift.failureHandled(call), uncalledFunction: uncalled?.declaration(around: node))
            case .token(let language, let file, let token)?:
                var gate = scripts.gate(write, language: language, file: file, token: token)
                gate.uncalledFunction = uncalledScripts.declaration(around: write.site, in: manifest)
                return gate
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
        /// The status calls the check rests on, flattened only when read (an availability check's are never read).
        var resting: EvidenceList
        var statusCalls: [Evidence] { resting.flattened }

        init(evidence: Evidence, resting: EvidenceList) { self.evidence = evidence; self.resting = resting }
        init(evidence: Evidence, statusCalls: [Evidence]) { self.init(evidence: evidence, resting: EvidenceList(statusCalls)) }
    }

    /// A helper's evidence: the checks it rests on, in order. A helper's list is appended whole to
    /// every function that calls it, and a function calling one of a thousand same-named helpers (each
    /// with its own check) gathered a thousand copies of the list per call — a million `Evidence`
    /// values on the 1,000-file benchmark app, a fifth of its `check`. Kept as the lists appended
    /// instead, and flattened (in the same order, so every answer is the same) only when read.
    struct EvidenceList: Sendable {
        private enum Part: Sendable {
            case evidence([Evidence])
            case list(EvidenceList)
        }
        private var parts: [Part] = []

        init() {}
        init(_ evidence: [Evidence]) { if !evidence.isEmpty { parts = [.evidence(evidence)] } }

        mutating func append(_ evidence: [Evidence]) { if !evidence.isEmpty { parts.append(.evidence(evidence)) } }
        mutating func append(_ list: EvidenceList) { if !list.parts.isEmpty { parts.append(.list(list)) } }

        var flattened: [Evidence] {
            var result: [Evidence] = []
            flatten(into: &result)
            return result
        }

        private func flatten(into result: inout [Evidence]) {
            for part in parts {
                switch part {
                case .evidence(let evidence): result.append(contentsOf: evidence)
                case .list(let list): list.flatten(into: &result)
                }
            }
        }
    }

    private let gate: Gate
    private let sourcesByTree: [SyntaxIdentifier: ParsedSource]
    /// Functions and computed properties whose body asks the gate's call, with those calls.
    let helpers: [String: EvidenceList]
    /// Types whose instances are set up behind the check (see `Gate.setUpGuardsType`), with the check.
    private let guardedTypes: [String: Evidence]
    private let callIndex: CallIndex

    /// `helpers`: the gate's helpers when the caller already found them (`AuditContext.statusHelpers`).
    init(sources: [ParsedSource], gate: Gate = .status, helpers known: [String: EvidenceList]? = nil) {
        self.gate = gate
        sourcesByTree = Dictionary(sources.map { ($0.tree.id, $0) }) { first, _ in first }
        let helpers = known ?? Self.helpers(sources, gate: gate)
        // A flag set from the check (`initialized = initializeHealthKit()`) is as good as the check for
        // availability, which cannot change while the app runs; never for status, which can.
        self.helpers = gate.setUpGuardsType ? helpers.merging(Self.flags(sources, gate: gate, helpers: helpers)) { first, _ in first } : helpers
        guardedTypes = gate.setUpGuardsType ? Self.typesSetUpBehind(gate, sources, helpers: self.helpers) : [:]
        callIndex = CallIndex(sources)
    }

    /// Names assigned the result of the check or of a helper that makes it.
    private static func flags(_ sources: [ParsedSource], gate: Gate, helpers: [String: EvidenceList]) -> [String: EvidenceList] {
        var flags: [String: EvidenceList] = [:]
        for source in sources {
            for assignment in ExprShape.assignments(in: source.tree) {
                guard let name = ExprShape.referencedName(assignment.lhs) ?? assignment.lhs.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
                      let call = assignment.rhs.items.lazy.flatMap(\.calls).first(where: { call in
                          gate.matches(call) || ExprShape.calledName(call).map { helpers[$0] != nil } == true
                      }) else { continue }
                flags[name, default: EvidenceList()].append([Evidence(location: source.location(of: call), quote: source.quote(call))])
            }
        }
        return flags
    }

    /// Types with a check in an initializer or in a stored property's initial value
    /// (`let store: HKHealthStore? = HKHealthStore.isHealthDataAvailable() ? HKHealthStore() : nil`).
    private static func typesSetUpBehind(_ gate: Gate, _ sources: [ParsedSource], helpers: [String: EvidenceList]) -> [String: Evidence] {
        var guarded: [String: Evidence] = [:]
        for source in sources {
            // An initializer that asks through a helper (`guard isAvailableOnCurrentDevice else { return }`).
            for initializer in source.tree.collect(InitializerDeclSyntax.self) {
                guard let body = initializer.body,
                      let token = body.tokens(viewMode: .sourceAccurate).first(where: { helpers[$0.text] != nil && Self.asksThrough($0) }),
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

    /// Whether a token naming a helper asks through it where it stands: a reference tested in a condition
    /// (`guard isAvailableOnCurrentDevice else { return }`) or called (`guard available() else …`) — not a
    /// property of the same name being decoded (`end = try container.decode(…)` beside a helper `end(…)`).
    static func asksThrough(_ token: TokenSyntax) -> Bool {
        guard let reference = token.parent?.as(DeclReferenceExprSyntax.self), !isShadowed(token) else { return false }
        var node = Syntax(reference)
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { node = Syntax(member) }
        if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id { return true }
        // `guard isAvailable else …`, or `store = Health.isAvailable ? HKHealthStore() : nil`.
        return reference.ancestors.contains { ancestor in
            ancestor.is(ConditionElementSyntax.self) || ancestor.as(TernaryExprSyntax.self)?.condition.encloses(reference) == true
        }
    }

    /// Whether a bare name (not called, not a member) is a parameter of a function, initializer or closure
    /// around it: `application.applicationIconBadgeNumber` in `application(_ application:…)`, or
    /// `end > start` in `init(start:end:)`, names the parameter, not a helper of the same name.
    static func isShadowed(_ token: TokenSyntax) -> Bool {
        guard let reference = token.parent?.as(DeclReferenceExprSyntax.self), reference.parent?.as(MemberAccessExprSyntax.self)?.declName.id != reference.id
        else { return false }
        if let call = reference.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == reference.id { return false }
        let name = token.text
        return reference.ancestors.contains { ancestor in
            let signature = ancestor.as(FunctionDeclSyntax.self)?.signature ?? ancestor.as(InitializerDeclSyntax.self)?.signature
            if let signature { return signature.parameterClause.parameters.contains { $0.localName == name } }
            return ancestor.as(ClosureExprSyntax.self).map { ClosureShape.parameterNames($0).contains(name) } ?? false
        }
    }

    /// Functions and computed properties whose body asks the gate's call (`func canWrite() -> Bool`,
    /// `var isShareAuthorized: Bool`, `var isAvailable: Bool`): calling one is a check too.
    static func helpers(_ sources: [ParsedSource], gate: Gate = .status) -> [String: EvidenceList] {
        var helpers: [String: EvidenceList] = [:]
        guard sources.contains(where: { !$0.calls(named: gate.name).isEmpty }) else { return helpers }
        /// Every function or accessor around `call`, named with what it rests on.
        func addEnclosing(_ call: some SyntaxProtocol, resting evidence: EvidenceList, into found: inout [String: EvidenceList]) {
            for ancestor in call.ancestors {
                // A check dispatched to run later (`DispatchQueue.main.async { … }`) has not run when the function returns.
                if let closure = ancestor.as(ClosureExprSyntax.self), Self.runsLater(closure) { return }
                if let function = ancestor.as(FunctionDeclSyntax.self), let body = function.body, body.encloses(call) {
                    found[function.name.text, default: EvidenceList()].append(evidence)
                } else if let binding = ancestor.as(PatternBindingSyntax.self), let accessors = binding.accessorBlock, accessors.encloses(call),
                          binding.parent?.parent?.is(VariableDeclSyntax.self) == true,
                          let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                    found[name, default: EvidenceList()].append(evidence)
                }
            }
        }
        for source in sources {
            // Every function or accessor around a check, found from the checks up.
            for check in source.calls(named: gate.name) {
                addEnclosing(check, resting: EvidenceList([Evidence(location: source.location(of: check), quote: source.quote(check))]), into: &helpers)
            }
        }
        // A function that asks through a helper asks too (`evaluate()` calling
        // `authorizationStatusForMindfulSession()`, `promptAvailable()` reading the property
        // `Self.isAvailable`): two more levels.
        var frontier = helpers
        for _ in 0..<2 where !frontier.isEmpty {
            var added: [String: EvidenceList] = [:]
            for source in sources {
                // The file's identifiers by name (from its index): a name the file never spells needs no search.
                let identifiers = SyntaxIndex.shared.identifiers(in: Syntax(source.tree))
                for (name, evidence) in frontier.sorted(by: { $0.key < $1.key }) {
                    for call in source.calls(named: name) { addEnclosing(call, resting: evidence, into: &added) }
                    guard let positions = identifiers[name] else { continue }
                    for position in positions {
                        guard let token = source.tree.token(at: position), token.text == name,
                              let reference = token.parent?.as(DeclReferenceExprSyntax.self), reference.baseName.id == token.id,
                              reference.parent?.as(FunctionCallExprSyntax.self) == nil,
                              reference.parent?.as(MemberAccessExprSyntax.self).map({ $0.parent?.is(FunctionCallExprSyntax.self) != true }) != false
                        else { continue }
                        addEnclosing(reference, resting: evidence, into: &added)
                    }
                }
            }
            frontier = added.filter { helpers[$0.key] == nil }
            helpers.merge(frontier) { first, _ in first }
        }
        return helpers
    }

    /// The check that runs before `node`, or nil.
    func check(before node: Syntax) -> Check? { check(before: node, depth: 0) }

    private func check(before node: Syntax, depth: Int) -> Check? {
        let function = SyntaxScope.function(of: node)
        guard let source = sourcesByTree[node.root.id] else { return nil }
        // A status whose answer was "not authorized" where the write runs (`case .notDetermined:` → ask → save) checked nothing for it.
        let answersWrite = { (check: Syntax) in self.gate.setUpGuardsType || !Self.runsWhereNotAuthorized(node, after: check) }
        if let call = function.calls.first(where: { call in
            call.position < node.position && (gate.matches(call) || ExprShape.calledName(call).map { helpers[$0] != nil } == true)
                && Self.runsOnPath(of: node, Syntax(call), in: function) && answersWrite(Syntax(call))
        }) {
            let evidence = Evidence(location: source.location(of: call), quote: source.quote(call))
            let inner = gate.matches(call) ? EvidenceList([evidence]) : ExprShape.calledName(call).flatMap { helpers[$0] } ?? EvidenceList()
            return Check(evidence: evidence, resting: inner)
        }
        // A reference to a helper, not the function's own name (a function reading a helper is one itself).
        // References only: `case "addHealthStature":` names no helper, whatever its text, nor does a parameter
        // that shares a helper's name (`_ application: UIApplication` beside a helper `application(…)`).
        if !helpers.isEmpty, let token = function.tokens(viewMode: .sourceAccurate).first(where: {
            $0.position < node.position && $0.tokenKind.isIdentifier && helpers[$0.text] != nil && $0.parent?.is(DeclReferenceExprSyntax.self) == true
                && !Self.isShadowed($0)
                && Self.runsOnPath(of: node, Syntax($0), in: function) && answersWrite(Syntax($0))
        }) {
            return Check(evidence: Evidence(location: source.location(of: token), quote: source.quote(token)), resting: helpers[token.text] ?? EvidenceList())
        }
        if !guardedTypes.isEmpty, let type = SyntaxScope.types(around: node).first, let name = SyntaxScope.typeName(of: type),
           let evidence = guardedTypes[name] {
            return Check(evidence: evidence, statusCalls: [evidence])
        }
        // A function the app calls: checked if every caller checks before calling it (a writer called only from a guarded flush).
        guard depth < 4, let declaration = function.as(FunctionDeclSyntax.self) else { return nil }
        // Only calls that can reach this declaration: a notification center's `requestAuthorization(options:)`
        // is not a caller of the app's `requestAuthorization()`.
        let callers = (callIndex.byName[declaration.name.text] ?? []).filter { !declaration.encloses(Syntax($0)) && ExprShape.fits($0, declaration) }
        guard !callers.isEmpty, callers.count <= 20 else { return nil }
        var first: Check?
        for caller in callers {
            guard let found = check(before: Syntax(caller), depth: depth + 1) else { return nil }
            if first == nil { first = found }
        }
        return first
    }

    /// Whether `node` runs only where the status asked at `check` was not `.sharingAuthorized`: in a
    /// `case .notDetermined:` / `case .sharingDenied:` of a switch written after the check, or in the body of
    /// an `if` testing `== .notDetermined`, `== .sharingDenied` or `!= .sharingAuthorized`.
    static func runsWhereNotAuthorized(_ node: Syntax, after check: Syntax) -> Bool {
        let unauthorized = [".notDetermined", ".sharingDenied"]
        // The name the status is bound to (`let state = getStatus(…)`), for telling a switch on it from one on another enum.
        let bound = check.ancestors.first(where: { $0.is(PatternBindingSyntax.self) })?.as(PatternBindingSyntax.self)?
            .pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        for ancestor in node.ancestors {
            // `if store.authorizationStatus(for: t) == .notDetermined { ask; save }`: the check in the condition itself.
            if let ifExpression = ancestor.as(IfExprSyntax.self), ifExpression.body.encloses(node),
               ifExpression.conditions.encloses(check) || ancestor.position > check.position {
                let condition = ifExpression.conditions.trimmedText.filter { !$0.isWhitespace }
                // One plain comparison only: `a || b` or a negation can hold when authorized.
                guard !condition.contains("||"), !condition.contains("!(") else { continue }
                if unauthorized.contains(where: { condition.hasSuffix("==" + $0) || condition.hasSuffix("==HKAuthorizationStatus" + $0) })
                    || condition.hasSuffix("!=.sharingAuthorized") || condition.hasSuffix("!=HKAuthorizationStatus.sharingAuthorized") { return true }
                continue
            }
            guard ancestor.position > check.position else { return false }
            if let label = ancestor.as(SwitchCaseSyntax.self)?.label.as(SwitchCaseLabelSyntax.self),
               let subject = ancestor.ancestors.first(where: { $0.is(SwitchExprSyntax.self) })?.as(SwitchExprSyntax.self)?.subject,
               subject.encloses(check) || (bound != nil && subject.trimmedText == bound) {
                let patterns = label.caseItems.map { $0.pattern.trimmedText.filter { !$0.isWhitespace } }
                if !patterns.isEmpty, patterns.allSatisfy({ pattern in unauthorized.contains(where: pattern.hasSuffix) }) { return true }
            }
        }
        return false
    }

    /// Dispatchers whose closure runs after the call that hands it over has returned.
    static let laterDispatchers: Set<String> = ["async", "asyncAfter", "Task", "detached", "addOperation", "perform", "scheduledTimer"]

    /// Whether `closure` is handed to a dispatcher that runs it later (`DispatchQueue.main.async { … }`,
    /// `Task { … }`): the code around it goes on, and returns, before it runs.
    static func runsLater(_ closure: ClosureExprSyntax) -> Bool {
        var node = Syntax(closure).parent
        // A trailing closure's call, or the call whose argument list holds it.
        while let current = node, !current.is(FunctionCallExprSyntax.self), !current.is(CodeBlockItemSyntax.self) { node = current.parent }
        guard let call = node?.as(FunctionCallExprSyntax.self) else { return false }
        let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            ?? call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? ""
        return laterDispatchers.contains(name)
    }

    /// Whether `check`, written before `node` in `function`, runs on the way to it: not inside a
    /// closure that does not also hold `node` — a check in a sibling closure (`.refreshable { … }`
    /// beside `.onReceive { … }` in a view's body, another callback) runs at another time, if ever.
    /// Nor in another `case` of a switch, or in the body of an `if` (or its `else`) that does not hold `node`:
    /// that branch is one path of several.
    static func runsOnPath(of node: Syntax, _ check: Syntax, in function: Syntax) -> Bool {
        for ancestor in check.ancestors {
            if ancestor.id == function.id { return true }
            if ancestor.is(ClosureExprSyntax.self), !ancestor.encloses(node) { return false }
            // A sibling branch: the switch or `if` that owns the check's branch also holds the write, in another branch
            // (a check in a branch that ends before the write, `if let t … { ok = status(t) }` then `guard ok`, is kept).
            if ancestor.is(SwitchCaseSyntax.self), !ancestor.encloses(node),
               ancestor.ancestors.first(where: { $0.is(SwitchExprSyntax.self) })?.encloses(node) == true { return false }
            if let block = ancestor.as(CodeBlockSyntax.self), !block.encloses(node), let branch = block.parent?.as(IfExprSyntax.self),
               branch.body.id == block.id || branch.elseBody?.id == block.id, branch.encloses(node) {
                return false
            }
        }
        return true
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
            if let list = clause.as(ClosureParameterClauseSyntax.self) { return list.parameters.map { $0.localName } }
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

/// Functions nothing in the app calls or names: a write in one never runs (a method left unused
/// after a rewrite). Found by name across every source, as `DebugReachability` finds uses; a name
/// mentioned anywhere else, even in a comment, counts as a use (the cautious answer). Methods the
/// system calls are never uncalled: overrides, attributed (`@objc`, `@IBAction`) or public ones,
/// delegate callbacks (`workoutBuilder(_ workoutBuilder: HKLiveWorkoutBuilder, …)`) and the entry
/// points of intents and widgets.
struct UncalledFunctions {
    private let sourcesByTree: [SyntaxIdentifier: ParsedSource]
    private let texts: [String]
    static let systemEntries: Set<String> = [
        "perform", "handle", "confirm", "resolve", "main", "body", "run", "start", "execute",
        "getTimeline", "getSnapshot", "placeholder", "timeline", "snapshot", "recommendations", "relevances",
    ]

    /// Nil unless the sources hold the app's entry point (`@main`, `UIApplicationMain`, `main.swift`):
    /// without the whole app, a function no file names may be called from code that was not read.
    init?(sources: [ParsedSource]) {
        guard sources.contains(where: { source in
            source.file.path.hasSuffix("/main.swift") || source.file.path == "main.swift"
                || ["@main", "@UIApplicationMain", "UIApplicationMain(", "@NSApplicationMain"].contains { ByteSearch.contains(source.file.text, $0) }
        }) else { return nil }
        sourcesByTree = Dictionary(sources.map { ($0.tree.id, $0) }) { first, _ in first }
        texts = sources.map(\.file.text)
    }

    /// Where the function around `node` is declared, when nothing else in the app names it.
    func declaration(around node: Syntax) -> Evidence? {
        guard let function = SyntaxScope.function(of: node).as(FunctionDeclSyntax.self), let source = sourcesByTree[node.root.id] else { return nil }
        let name = function.name.text
        guard function.attributes.isEmpty, !Self.systemEntries.contains(name), !Self.isDelegateCallback(function),
              !function.modifiers.contains(where: { ["override", "public", "open", "dynamic"].contains($0.name.text) }),
              !SyntaxScope.types(around: function).contains(where: { $0.is(ProtocolDeclSyntax.self) }) else { return nil }
        // Its own body's mentions are no use of it (a wrapper named `authorizationStatus(for:)` around HealthKit's, a recursion).
        let own = function.body.map { Self.wordCount(of: name, in: $0.description, upTo: .max) } ?? 0
        guard uses(of: name, upTo: 2 + own) - own <= 1 else { return nil }
        return Evidence(location: source.location(of: function.name), quote: source.quote(function.name))
    }

    /// `locationManager(_ manager: CLLocationManager, …)`: an unlabeled first parameter whose type
    /// ends with the method's name is how delegate protocols name their callbacks.
    static func isDelegateCallback(_ function: FunctionDeclSyntax) -> Bool {
        guard let first = function.signature.parameterClause.parameters.first, first.firstName.tokenKind == .wildcard else { return false }
        let type = first.type.trimmedDescription.lowercased().filter { $0.isLetter || $0.isNumber }
        return type.hasSuffix(function.name.text.lowercased())
    }

    /// Whole-word occurrences of `name` in the app's sources, counted up to `limit`.
    private func uses(of name: String, upTo limit: Int) -> Int {
        var count = 0
        for text in texts where ByteSearch.contains(text, name) {
            count += Self.wordCount(of: name, in: text, upTo: limit - count)
            if count >= limit { return count }
        }
        return count
    }

    private static func wordCount(of name: String, in text: String, upTo limit: Int) -> Int {
        var text = text, name = name
        return text.withUTF8 { haystack in
            name.withUTF8 { pattern in
                func isWord(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "_") || (byte >= 48 && byte <= 57) || (byte | 0x20 >= 97 && byte | 0x20 <= 122) || byte >= 0x80 }
                var count = 0, index = 0
                let last = haystack.count - pattern.count
                while index <= last, count < limit {
                    var matched = 0
                    while matched < pattern.count, haystack[index + matched] == pattern[matched] { matched += 1 }
                    if matched == pattern.count, index == 0 || !isWord(haystack[index - 1]),
                       index + pattern.count == haystack.count || !isWord(haystack[index + pattern.count]) {
                        count += 1
                    }
                    index += 1
                }
                return count
            }
        }
    }
}

private extension TokenKind {
    var isIdentifier: Bool { if case .identifier = self { return true } else { return false } }
}
