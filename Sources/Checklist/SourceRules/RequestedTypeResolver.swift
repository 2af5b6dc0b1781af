import Foundation
import Manifest
import SwiftSyntax

/// A call through which a parameter's value was followed: `fetch(types: [...])` for `func fetch(types:)`.
struct TypeSetCaller {
    let source: ParsedSource
    let call: FunctionCallExprSyntax
    /// The called function's name, for messages.
    let function: String
}

/// The type names one set argument of `requestAuthorization(toShare:read:)` resolves to.
struct TypeSet {
    /// Catalogued names with the expression that names each and its file (for evidence: a type
    /// reached through a caller is named in the caller's file).
    var names: [(name: String, node: Syntax, source: ParsedSource)] = []
    /// Names HealthKit has that the audit's catalogue does not (`activitySummary`).
    var uncatalogued: [String] = []
    /// Expressions the resolver could not follow, as written, with why.
    var unresolved: [(text: String, reason: String?)] = []
    /// The calls whose arguments were followed to reach these names, innermost first.
    var callers: [TypeSetCaller] = []

    var isResolved: Bool { unresolved.isEmpty }

    /// Every distinct type named, catalogued or not.
    var distinctNames: [String] {
        var seen: Set<String> = []
        return (names.map(\.name) + uncatalogued).filter { seen.insert($0).inserted }
    }

    mutating func merge(_ other: TypeSet) {
        names += other.names; uncatalogued += other.uncatalogued; unresolved += other.unresolved; callers += other.callers
    }

    static func unresolved(_ expr: some SyntaxProtocol, _ reason: String? = nil) -> TypeSet {
        TypeSet(unresolved: [(expr.trimmedText, reason)])
    }
}

/// One authorization request in the app's code and what it asks for.
struct ResolvedRequest {
    /// The three ways HealthKit is asked: the sets below mean the same in the first two.
    enum Form: String {
        /// `requestAuthorization(toShare:read:)`.
        case requestAuthorization
        /// SwiftUI's `.healthDataAccessRequest(store:shareTypes:readTypes:trigger:)`, which asks the same way.
        case dataAccessRequest = "healthDataAccessRequest"
        /// `requestPerObjectReadAuthorization(for:predicate:)`: one type, read, object by object.
        case perObject = "requestPerObjectReadAuthorization"
    }

    let form: Form
    let source: ParsedSource
    let call: FunctionCallExprSyntax
    let share: TypeSet
    let read: TypeSet

    var isResolved: Bool { share.isResolved && read.isResolved }
}

/// Resolves the sets passed to `requestAuthorization` by following the code that builds them:
/// literals; constants of the function, type or file (or `SomeType.member` anywhere in the app);
/// a property assigned earlier in the same function; a local set filled by `insert` (also in a
/// `for` loop over a list of identifiers); the `return` of an app function; and a parameter, through
/// every call in the app that passes it. Anything else is reported as unresolved rather than guessed.
struct RequestedTypeResolver {
    let sources: [ParsedSource]

    private static let maxDepth = 14
    /// Expressions one resolution may visit: following parameters through callers fans out.
    private static let maxSteps = 4_000
    /// Calls followed for one parameter.
    private static let maxCallers = 16

    /// The work of one resolution: a step budget, and the parameters already followed (a
    /// parameter reached twice adds nothing, and recursion would never end).
    private final class Walk {
        var steps = 0
        var followed: Set<String> = []
    }

    func requests() -> [ResolvedRequest] {
        let resolver = self
        return ParallelMap.map(sources) { source in
            let sheets = source.calls(named: "requestAuthorization").filter(HealthKitVocabulary.isFrameworkRequest).map { call in
                let (share, read) = ExprShape.requestArguments(call)
                return ResolvedRequest(form: .requestAuthorization, source: source, call: call,
                                       share: resolver.resolve(share, source), read: resolver.resolve(read, source))
            }
            let modifiers = source.calls(named: "healthDataAccessRequest").filter { ExprShape.labels($0).contains("readTypes") }.map { call in
                ResolvedRequest(form: .dataAccessRequest, source: source, call: call,
                                share: resolver.argument(call, "shareTypes", source), read: resolver.argument(call, "readTypes", source))
            }
            let perObject = source.calls(named: "requestPerObjectReadAuthorization").filter { ExprShape.labels($0).contains("for") }.map { call in
                ResolvedRequest(form: .perObject, source: source, call: call, share: TypeSet(), read: resolver.argument(call, "for", source))
            }
            // In source order, as the rules report them.
            return (sheets + modifiers + perObject).sorted { $0.call.position < $1.call.position }
        }.flatMap { $0 }
    }

    /// The types an expression names, e.g. the argument of `authorizationStatus(for:)`.
    func types(of expr: ExprSyntax, in source: ParsedSource) -> TypeSet { resolve(expr, source, depth: 0, Walk()) }

    private func argument(_ call: FunctionCallExprSyntax, _ label: String, _ source: ParsedSource) -> TypeSet {
        resolve(ExprShape.argument(call, label: label), source)
    }

    private func resolve(_ expr: ExprSyntax?, _ source: ParsedSource) -> TypeSet {
        guard let expr else { return TypeSet() }
        return resolve(expr, source, depth: 0, Walk())
    }

    // MARK: Sets and single types

    private func resolve(_ expr: ExprSyntax, _ source: ParsedSource, depth: Int, _ walk: Walk) -> TypeSet {
        walk.steps += 1
        guard depth <= Self.maxDepth, walk.steps <= Self.maxSteps else { return .unresolved(expr, "too deeply nested") }
        let e = ExprShape.stripped(expr)
        if e.is(NilLiteralExprSyntax.self) { return TypeSet() }
        if let array = e.as(ArrayExprSyntax.self) {
            var set = TypeSet()
            for element in array.elements { set.merge(resolve(element.expression, source, depth: depth + 1, walk)) }
            return set
        }
        if let sequence = e.as(SequenceExprSyntax.self) {
            // `a + b` on arrays.
            let items = Array(sequence.elements)
            guard items.count >= 3, items.enumerated().allSatisfy({ index, item in
                index % 2 == 0 || item.as(BinaryOperatorExprSyntax.self)?.operator.text == "+"
            }) else { return .unresolved(e) }
            var set = TypeSet()
            for (index, item) in items.enumerated() where index % 2 == 0 { set.merge(resolve(item, source, depth: depth + 1, walk)) }
            return set
        }
        if let call = e.as(FunctionCallExprSyntax.self) { return resolveCall(call, source, depth: depth, walk) }
        if e.is(DeclReferenceExprSyntax.self) || e.is(MemberAccessExprSyntax.self) {
            // A loop variable over a list of types is each of them: the list's union.
            return follow(e, source, depth: depth, walk, value: resolve, element: resolve)
        }
        return .unresolved(e)
    }

    /// Member calls that make a type from an identifier.
    private static let typeFactories: Set<String> = [
        "quantityType", "categoryType", "characteristicType", "correlationType", "clinicalType", "documentType",
        // Swift 2: `HKCategoryType.categoryTypeForIdentifier(HKCategoryTypeIdentifierSleepAnalysis)`.
        "quantityTypeForIdentifier", "categoryTypeForIdentifier", "characteristicTypeForIdentifier", "correlationTypeForIdentifier",
    ]
    /// Type initializers taking an identifier: `HKQuantityType(.stepCount)`.
    private static let typeInitializers: Set<String> = [
        "HKQuantityType", "HKCategoryType", "HKCharacteristicType", "HKCorrelationType", "HKClinicalType", "HKObjectType", "HKSampleType",
    ]
    /// Factories without an identifier: `HKObjectType.workoutType()`.
    private static let fixedTypes: [String: String] = [
        "workoutType": "workout", "workoutRoute": "workoutRoute", "electrocardiogramType": "electrocardiogram",
        "audiogramSampleType": "audiogram", "activitySummaryType": "activitySummary", "heartbeat": "heartbeat",
        "visionPrescriptionType": "visionPrescription", "stateOfMindType": "stateOfMind",
    ]

    private func resolveCall(_ call: FunctionCallExprSyntax, _ source: ParsedSource, depth: Int, _ walk: Walk) -> TypeSet {
        let name = ExprShape.calledName(call) ?? ""
        let base = ExprShape.base(of: call)
        let firstArgument = call.arguments.first?.expression
        if name == "Set" || name == "Array" {
            guard let firstArgument else { return TypeSet() }
            guard call.arguments.count == 1, call.arguments.first?.label == nil else { return .unresolved(call) }
            return resolve(firstArgument, source, depth: depth + 1, walk)
        }
        if name == "union" || name == "formUnion", let base, let firstArgument {
            var set = resolve(base, source, depth: depth + 1, walk)
            set.merge(resolve(firstArgument, source, depth: depth + 1, walk))
            return set
        }
        if (name == "map" || name == "compactMap"), let base, let closure = ClosureShape.completion(of: call),
           closure.statements.calls.contains(where: { Self.typeInitializers.contains(ExprShape.calledName($0) ?? "")
               || Self.typeFactories.contains(ExprShape.calledName($0) ?? "") }) {
            // `[.stepCount, .heartRate].map { HKQuantityType($0) }`
            return identifiers(base, source, depth: depth + 1, walk)
        }
        let isInitializer = Self.typeInitializers.contains(name) || (name == "init" && base == nil)
        if isInitializer || Self.typeFactories.contains(name) {
            guard let firstArgument else { return .unresolved(call) }
            return identifier(firstArgument, source, depth: depth + 1, walk, naming: (Syntax(call), source))
        }
        if let fixed = Self.fixedTypes[name] { return named(fixed, call, source) }
        if call.arguments.isEmpty, let function = appFunction(called: call, in: source) {
            // `allTypes()`: what the app's own function returns.
            let returns = Self.returnedExpressions(of: function.decl)
            guard !returns.isEmpty else { return .unresolved(call) }
            var set = TypeSet()
            for returned in returns { set.merge(resolve(returned, function.source, depth: depth + 1, walk)) }
            return set
        }
        return .unresolved(call)
    }

    private func named(_ name: String, _ node: some SyntaxProtocol, _ source: ParsedSource) -> TypeSet {
        HealthKitType.named(name) != nil ? TypeSet(names: [(name, Syntax(node), source)]) : TypeSet(uncatalogued: [name])
    }

    // MARK: Identifiers

    /// A type identifier: `.stepCount`, `HKQuantityTypeIdentifier.stepCount`, `"HKQuantityTypeIdentifierStepCount"`, or a constant bound to one.
    /// `naming`: the expression that makes the type, and its file, cited as the type's evidence.
    private func identifier(_ expr: ExprSyntax, _ source: ParsedSource, depth: Int, _ walk: Walk, naming: (node: Syntax, source: ParsedSource)) -> TypeSet {
        walk.steps += 1
        guard depth <= Self.maxDepth, walk.steps <= Self.maxSteps else { return .unresolved(expr, "too deeply nested") }
        let e = ExprShape.stripped(expr)
        if let member = e.as(MemberAccessExprSyntax.self), member.base == nil || member.base!.trimmedText.hasSuffix("Identifier") {
            return named(member.declName.baseName.text, naming.node, naming.source)
        }
        // The raw value (`"HKQuantityTypeIdentifierStepCount"`), or Swift 2's constant of that name.
        let swift2Constant = e.as(DeclReferenceExprSyntax.self)?.baseName.text
        if let literal = ExprShape.stringLiteral(e) ?? (e.as(FunctionCallExprSyntax.self).flatMap { ExprShape.argument($0, label: "rawValue") }
                                                         .flatMap(ExprShape.stringLiteral)) ?? swift2Constant.flatMap(Self.identifierConstant) {
            for prefix in Self.identifierPrefixes where literal.hasPrefix(prefix) {
                let rest = literal.dropFirst(prefix.count)
                return named(rest.prefix(1).lowercased() + rest.dropFirst(), naming.node, naming.source)
            }
            return .unresolved(e)
        }
        if e.is(DeclReferenceExprSyntax.self) || e.is(MemberAccessExprSyntax.self) {
            // A loop variable over identifiers (`for id in ids { HKQuantityType(id) }`) names each of them.
            return follow(e, source, depth: depth, walk,
                          value: { self.identifier($0, $1, depth: $2, $3, naming: naming) },
                          element: { self.identifiers($0, $1, depth: $2, $3) })
        }
        return .unresolved(e)
    }

    private static let identifierPrefixes = ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCharacteristicTypeIdentifier",
                                             "HKCorrelationTypeIdentifier", "HKClinicalTypeIdentifier"]

    /// `HKQuantityTypeIdentifierStepCount`: a name that is itself an identifier's raw value.
    private static func identifierConstant(_ name: String) -> String? {
        identifierPrefixes.contains { name.hasPrefix($0) && name.count > $0.count } ? name : nil
    }

    /// A list of identifiers (`[.stepCount, .heartRate]`), for `.map { HKQuantityType($0) }`.
    private func identifiers(_ expr: ExprSyntax, _ source: ParsedSource, depth: Int, _ walk: Walk) -> TypeSet {
        walk.steps += 1
        guard depth <= Self.maxDepth, walk.steps <= Self.maxSteps else { return .unresolved(expr, "too deeply nested") }
        let e = ExprShape.stripped(expr)
        if let array = e.as(ArrayExprSyntax.self) {
            var set = TypeSet()
            for element in array.elements { set.merge(identifier(element.expression, source, depth: depth + 1, walk, naming: (Syntax(element), source))) }
            return set
        }
        if e.is(DeclReferenceExprSyntax.self) || e.is(MemberAccessExprSyntax.self) {
            return follow(e, source, depth: depth, walk, value: identifiers, element: { expr, _, _, _ in .unresolved(expr) })
        }
        return .unresolved(e)
    }

    // MARK: Names

    private typealias Step = (ExprSyntax, ParsedSource, Int, Walk) -> TypeSet

    /// Resolves what a name is bound to with `value` for each value it may hold, `element` for the
    /// list a loop variable runs over, and through every caller for a parameter.
    private func follow(_ reference: ExprSyntax, _ source: ParsedSource, depth: Int, _ walk: Walk, value: Step, element: Step) -> TypeSet {
        switch lookup(reference, source) {
        case .values(let values):
            var set = TypeSet()
            for (expr, valueSource) in values { set.merge(value(expr, valueSource, depth + 1, walk)) }
            return set
        case .element(let sequence, let sequenceSource):
            return element(sequence, sequenceSource, depth + 1, walk)
        case .parameter(let function, let index):
            let name = function.name.text
            let key = "\(source.file.path):\(function.position.utf8Offset):\(index)"
            guard walk.followed.insert(key).inserted else { return TypeSet() }
            let (calls, more) = callers(of: function, parameter: index, in: source)
            guard !calls.isEmpty else { return .unresolved(reference, "a parameter of `\(name)`") }
            var set = more ? .unresolved(reference, "a parameter of `\(name)`, passed by more than \(Self.maxCallers) calls") : TypeSet()
            for (argument, callSource, call) in calls {
                var passed = value(argument, callSource, depth + 1, walk)
                passed.callers.insert(TypeSetCaller(source: callSource, call: call, function: name), at: 0)
                set.merge(passed)
            }
            return set
        case .unresolved(let reason):
            return .unresolved(reference, reason)
        }
    }

    private enum Binding {
        /// Every value the name may hold at the use (one for a constant; several when assigned in branches).
        case values([(ExprSyntax, ParsedSource)])
        /// A `for` loop variable: each element of this list.
        case element(of: ExprSyntax, ParsedSource)
        /// The `index`th parameter of a function: whatever its callers pass.
        case parameter(FunctionDeclSyntax, index: Int)
        case unresolved(String?)

        static func value(_ expr: ExprSyntax, _ source: ParsedSource) -> Binding { .values([(expr, source)]) }
    }

    /// The value bound to a name, looked up from the use outwards: locals, loop variables, `guard
    /// let`s and parameters of the enclosing function, assignments to a property earlier in it,
    /// members of the enclosing types, declarations of the file; `Type.member` also in other files.
    private func lookup(_ reference: ExprSyntax, _ source: ParsedSource) -> Binding {
        guard let name = ExprShape.referencedName(reference) else { return .unresolved(nil) }
        let member = reference.as(MemberAccessExprSyntax.self)
        let baseText = member?.base?.trimmedText
        // `self.x` / `Self.x` / `x`: start at the use; `Other.x`: the type named Other.
        if baseText == nil || baseText == "self" || baseText == "Self" {
            let function = SyntaxScope.function(of: reference)
            if baseText == nil {
                if Self.closureDeclares(name, around: reference, below: function) { return .unresolved("a closure parameter") }
                if let loop = reference.ancestors.compactMap({ $0.as(ForStmtSyntax.self) })
                    .first(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name && $0.body.position <= reference.position }) {
                    return .element(of: loop.sequence, source)
                }
                // A local shadows a parameter of the same name (`var types = types`).
                if let (binding, initial) = localBinding(name, before: reference, in: function) {
                    // Flow-insensitive: the initial value and whatever the code puts in before the use.
                    let isVar = binding.parent?.parent?.as(VariableDeclSyntax.self)?.bindingSpecifier.tokenKind == .keyword(.var)
                    let values = (initial.map { [$0] } ?? [])
                        + Self.contributions(to: name, in: function, between: binding, and: reference, throughSelf: false, mutating: isVar).parts
                    return values.isEmpty ? .unresolved("no value before this use") : .values(values.map { ($0, source) })
                }
                if let decl = function.as(FunctionDeclSyntax.self),
                   let index = Array(decl.signature.parameterClause.parameters).firstIndex(where: { $0.localName == name }) {
                    return .parameter(decl, index: index)
                }
                if function.as(InitializerDeclSyntax.self)?.signature.parameterClause.parameters.contains(where: { $0.localName == name }) == true {
                    return .unresolved("a parameter of `init`")
                }
            }
            let declared: Binding? = {
                for type in SyntaxScope.types(around: reference) {
                    if let value = memberBinding(name, in: type) { return value.map { .value($0, source) } ?? .unresolved("no initial value") }
                }
                if let value = fileBinding(name, in: source.tree) { return value.map { .value($0, source) } ?? .unresolved("no initial value") }
                return nil
            }()
            if !function.is(SourceFileSyntax.self) {
                // `self.types = allTypes()` earlier in this function is what the use sees.
                let (assigned, buildsOnItself) = Self.contributions(to: name, in: function, between: function, and: reference, throughSelf: true, mutating: true)
                if !assigned.isEmpty || buildsOnItself {
                    // `types = types.union(x)` keeps what the property held before.
                    if buildsOnItself, case .values(let before)? = declared { return .values(assigned.map { ($0, source) } + before) }
                    if buildsOnItself, let declared { return declared }
                    return .values(assigned.map { ($0, source) })
                }
            }
            return declared ?? .unresolved(nil)
        }
        let typeName = baseText!.split(separator: ".").last.map(String.init) ?? baseText!
        for other in [source] + sources.filter({ $0.file.path != source.file.path }) {
            for type in other.tree.collect(DeclSyntax.self) where SyntaxScope.typeName(of: type) == typeName {
                if let value = memberBinding(name, in: type) { return value.map { .value($0, other) } ?? .unresolved("no initial value") }
            }
        }
        return .unresolved(nil)
    }

    /// `x` or `self.x`.
    private static func refers(_ expr: ExprSyntax, to name: String) -> Bool {
        if let reference = expr.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == name }
        if let member = expr.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text == name && member.base?.trimmedText == "self" }
        return false
    }

    private static func encloses(_ node: some SyntaxProtocol, _ use: some SyntaxProtocol) -> Bool {
        node.encloses(use)
    }

    /// A closure between the use and its function that takes a parameter of that name (`{ types in … }`).
    private static func closureDeclares(_ name: String, around use: some SyntaxProtocol, below function: Syntax) -> Bool {
        for ancestor in use.ancestors {
            if ancestor == function { return false }
            guard let closure = ancestor.as(ClosureExprSyntax.self), let signature = closure.signature else { continue }
            switch signature.parameterClause {
            case .simpleInput(let names)?: if names.contains(where: { $0.name.text == name }) { return true }
            case .parameterClause(let clause)?: if clause.parameters.contains(where: { $0.localName == name }) { return true }
            case nil: continue
            }
        }
        return false
    }

    /// What an assignment or mutation of `name` adds: `x = x + [a]` and `x = x.union(a)` add `a`
    /// and build on the old value; `x = v` adds `v` alone.
    private static func added(to name: String, by items: [ExprSyntax]) -> (parts: [ExprSyntax], buildsOnItself: Bool) {
        if items.count == 1 {
            let value = ExprShape.stripped(items[0])
            if let call = value.as(FunctionCallExprSyntax.self), ["union", "formUnion"].contains(ExprShape.calledName(call) ?? ""),
               let base = ExprShape.base(of: call), refers(ExprShape.stripped(base), to: name) {
                return (call.arguments.map(\.expression), true)
            }
            return ([items[0]], false)
        }
        // `x + [a] + b`: the operands other than `x` (only `+` chains are sets; anything else is kept whole for the resolver to refuse).
        let operators = items.enumerated().filter { $0.offset % 2 == 1 }.map { $0.element.as(BinaryOperatorExprSyntax.self)?.operator.text }
        guard operators.allSatisfy({ $0 == "+" }) else { return (items, false) }
        let operands = items.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let own = operands.filter { refers(ExprShape.stripped($0), to: name) }
        return (operands.filter { !refers(ExprShape.stripped($0), to: name) }, !own.isEmpty)
    }

    /// The nearest `let`/`var`/`guard let` named `name` above `use` in the function, with its value
    /// (nil when bound without one); `.some(nil)` when bound by a pattern the resolver cannot read.
    /// A binding that contains the use (`var types = types`) is not it.
    private func localBinding(_ name: String, before use: some SyntaxProtocol, in function: Syntax) -> (Syntax, ExprSyntax?)? {
        var best: (AbsolutePosition, Syntax, ExprSyntax?)?
        for binding in function.collect(PatternBindingSyntax.self)
        where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name && binding.endPosition <= use.position
            && !isMember(binding) {
            if best == nil || best!.0 < binding.position { best = (binding.position, Syntax(binding), value(of: binding)) }
        }
        for condition in function.collect(OptionalBindingConditionSyntax.self)
        where condition.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name && condition.endPosition <= use.position {
            if let initializer = condition.initializer, best == nil || best!.0 < condition.position {
                best = (condition.position, Syntax(condition), initializer.value)
            }
        }
        return best.map { ($0.1, $0.2) }
    }

    /// What code in `function` puts into `name` after `start` ends and before `use`: `x = v` (a
    /// value built on `x` itself adds only its new part), and when `mutating`, `x += v`,
    /// `x.insert(v)`, `x.formUnion(v)`, `x.append(v)` — loops and branches included. With
    /// `throughSelf`, `self.x` is the same name (a property). `buildsOnItself`: some of it keeps
    /// what `x` held before.
    private static func contributions(to name: String, in function: Syntax, between start: some SyntaxProtocol, and use: some SyntaxProtocol,
                                      throughSelf: Bool, mutating: Bool) -> (parts: [ExprSyntax], buildsOnItself: Bool) {
        func names(_ expr: ExprSyntax) -> Bool { throughSelf ? refers(expr, to: name) : expr.as(DeclReferenceExprSyntax.self)?.baseName.text == name }
        // From the end of a local's declaration; a property's start is the function, so from its start.
        let from = start.id == function.id ? function.position : start.endPosition
        let range = from..<use.position
        var parts: [ExprSyntax] = []
        var buildsOnItself = false
        for sequence in function.collect(SequenceExprSyntax.self) where range.contains(sequence.position) && !encloses(sequence, use) {
            let items = Array(sequence.elements)
            guard items.count >= 3, names(items[0]) else { continue }
            if items[1].is(AssignmentExprSyntax.self) {
                let addition = added(to: name, by: Array(items[2...]))
                parts += addition.parts
                buildsOnItself = buildsOnItself || addition.buildsOnItself
            } else if mutating, items[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "+=" {
                parts += added(to: name, by: Array(items[2...])).parts
                buildsOnItself = true
            }
        }
        guard mutating else { return (parts, buildsOnItself) }
        for call in function.collect(FunctionCallExprSyntax.self) where range.contains(call.position) && !encloses(call, use) {
            guard let called = call.calledExpression.as(MemberAccessExprSyntax.self), let base = called.base, names(base),
                  ["insert", "formUnion", "append"].contains(called.declName.baseName.text),
                  let argument = call.arguments.first?.expression else { continue }
            parts.append(argument)
            buildsOnItself = true
        }
        return (parts, buildsOnItself)
    }

    private func isMember(_ binding: PatternBindingSyntax) -> Bool {
        binding.enclosing(MemberBlockItemSyntax.self) != nil && !SyntaxScope.isFunctionBoundary(SyntaxScope.function(of: binding))
    }

    // MARK: Functions

    /// The calls in the app that pass the `index`th parameter of `function`, with the argument each
    /// passes (or the parameter's default value where a call leaves it out). A call matches by name
    /// and labels, from where the function can be called: a nested function from its enclosing
    /// body, a method bare from its own type, or through a receiver that may be its type (`Kit.shared`,
    /// `self`, a name declared as or made from the type, or one the file does not declare).
    private func callers(of function: FunctionDeclSyntax, parameter index: Int, in source: ParsedSource) -> (found: [(ExprSyntax, ParsedSource, FunctionCallExprSyntax)], more: Bool) {
        let parameters = Array(function.signature.parameterClause.parameters)
        let owner = SyntaxScope.types(around: function).first.flatMap(SyntaxScope.typeName)
        let enclosingFunction = function.parent.map { SyntaxScope.function(of: $0) }.flatMap { SyntaxScope.isFunctionBoundary($0) ? $0 : nil }
        var found: [(ExprSyntax, ParsedSource, FunctionCallExprSyntax)] = []
        let candidates = enclosingFunction.map { enclosing in source.calls(named: function.name.text).filter { Self.encloses(enclosing, $0) }.map { ($0, source) } }
            ?? sources.flatMap { other in other.calls(named: function.name.text).map { ($0, other) } }
        for (call, other) in candidates where mayCall(call, in: other, owner: owner, nested: enclosingFunction != nil) {
            guard let arguments = Self.match(call, to: parameters) else { continue }
            if found.count == Self.maxCallers { return (found, true) }
            if let argument = arguments[index] {
                found.append((argument, other, call))
            } else if let defaultValue = parameters[index].defaultValue?.value {
                found.append((defaultValue, source, call))
            }
        }
        return (found, false)
    }

    private func mayCall(_ call: FunctionCallExprSyntax, in source: ParsedSource, owner: String?, nested: Bool) -> Bool {
        guard let base = ExprShape.base(of: call) else {
            // A bare call: from inside the owner type (or anywhere, for a free function).
            return nested || owner == nil || SyntaxScope.types(around: call).contains { SyntaxScope.typeName(of: $0) == owner }
        }
        // A nested or free function is never called through a receiver.
        guard let owner, !nested else { return false }
        let path = base.trimmedText.split(separator: ".").map { String($0.prefix { $0 != "(" && $0 != "<" }) }
        if path.contains(owner) { return true }
        guard let root = path.first else { return true }
        if root == "self" || root == "Self" || root == "super" {
            return SyntaxScope.types(around: call).contains { SyntaxScope.typeName(of: $0) == owner }
        }
        if root.first?.isUppercase == true { return false }
        // `manager.f(…)`: the file's declarations of `manager` decide; none leaves it possible.
        let declarations = source.tree.collect(PatternBindingSyntax.self).filter { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == root }
            .map { ($0.typeAnnotation?.trimmedText ?? "") + ($0.initializer?.trimmedText ?? "") }
            + source.tree.collect(FunctionParameterSyntax.self).filter { $0.localName == root }.map(\.type.trimmedText)
        return declarations.isEmpty || declarations.contains { $0.contains(owner) }
    }

    /// The argument passed for each parameter (nil where the default is used), or nil when the
    /// call's labels do not fit the parameters.
    private static func match(_ call: FunctionCallExprSyntax, to parameters: [FunctionParameterSyntax]) -> [ExprSyntax?]? {
        let arguments = Array(call.arguments)
        var result: [ExprSyntax?] = []
        var next = 0
        var trailing = (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count
        for parameter in parameters {
            let label = parameter.firstName.text == "_" ? nil : parameter.firstName.text
            if next < arguments.count, arguments[next].label?.text == label {
                result.append(arguments[next].expression)
                next += 1
            } else if parameter.defaultValue != nil {
                result.append(nil)
            } else if trailing > 0 {
                trailing -= 1
                result.append(nil)
            } else {
                return nil
            }
        }
        return next == arguments.count ? result : nil
    }

    /// The function a bare or `self.` call names: in the enclosing types first, then the file, then
    /// the one function of that name in the app.
    private func appFunction(called call: FunctionCallExprSyntax, in source: ParsedSource) -> (decl: FunctionDeclSyntax, source: ParsedSource)? {
        guard let name = ExprShape.calledName(call) else { return nil }
        let base = ExprShape.base(of: call)?.trimmedText
        guard base == nil || base == "self" || base == "Self" else { return nil }
        func functions(in node: some SyntaxProtocol) -> [FunctionDeclSyntax] {
            node.collect(FunctionDeclSyntax.self).filter { $0.name.text == name && $0.signature.parameterClause.parameters.isEmpty && $0.body != nil }
        }
        for type in SyntaxScope.types(around: call) {
            if let found = functions(in: type).first { return (found, source) }
        }
        let inFile = functions(in: source.tree)
        if inFile.count == 1 { return (inFile[0], source) }
        let everywhere = sources.flatMap { other in functions(in: other.tree).map { ($0, other) } }
        return everywhere.count == 1 ? everywhere[0] : nil
    }

    /// What a function returns: its `return` expressions outside nested closures and functions, or
    /// its single expression.
    private static func returnedExpressions(of function: FunctionDeclSyntax) -> [ExprSyntax] {
        guard let body = function.body else { return [] }
        if body.statements.count == 1, let only = body.statements.first?.item.as(ExprSyntax.self) { return [only] }
        return body.collect(ReturnStmtSyntax.self).filter { statement in
            SyntaxScope.body(of: statement).id == Syntax(function).id
        }.compactMap(\.expression)
    }

    // MARK: Members

    /// A stored or single-expression computed member of `type`; `.some(nil)` when it has no value to read.
    private func memberBinding(_ name: String, in type: DeclSyntax) -> ExprSyntax?? {
        let members: MemberBlockItemListSyntax?
        if let d = type.as(StructDeclSyntax.self) { members = d.memberBlock.members }
        else if let d = type.as(ClassDeclSyntax.self) { members = d.memberBlock.members }
        else if let d = type.as(EnumDeclSyntax.self) { members = d.memberBlock.members }
        else if let d = type.as(ActorDeclSyntax.self) { members = d.memberBlock.members }
        else if let d = type.as(ExtensionDeclSyntax.self) { members = d.memberBlock.members }
        else { members = nil }
        for item in members ?? [] {
            guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                return .some(value(of: binding))
            }
        }
        return nil
    }

    /// A top-level or member declaration named `name` anywhere in the file, when there is exactly one.
    private func fileBinding(_ name: String, in tree: SourceFileSyntax) -> ExprSyntax?? {
        let candidates = tree.collect(PatternBindingSyntax.self).filter { binding in
            binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
                && !SyntaxScope.isFunctionBoundary(SyntaxScope.function(of: binding))
        }
        guard candidates.count == 1 else { return nil }
        return .some(value(of: candidates[0]))
    }

    /// `= value`, the single expression of a computed property (`{ [...] }` / `{ return [...] }`), or
    /// what a getter that builds its set step by step returns at its end (`var types = Set<…>()`,
    /// `if let t = … { types.insert(t) }`, `return types`) when that is its only `return`: the name
    /// returned is then looked up inside the getter, with what the code puts into it.
    private func value(of binding: PatternBindingSyntax) -> ExprSyntax? {
        if let initializer = binding.initializer { return initializer.value }
        guard let accessors = binding.accessorBlock?.accessors else { return nil }
        let statements: CodeBlockItemListSyntax
        switch accessors {
        case .getter(let items): statements = items
        case .accessors(let list):
            guard let getter = list.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) }), let body = getter.body else { return nil }
            statements = body.statements
        }
        guard let item = statements.last?.item else { return nil }
        if statements.count == 1, let expr = item.as(ExprSyntax.self) { return expr }
        guard let last = item.as(ReturnStmtSyntax.self), statements.collect(ReturnStmtSyntax.self).count == 1 else { return nil }
        return last.expression
    }
}

/// The types the code asks for: Swift `requestAuthorization` sets as resolved, and what a React
/// Native app's `initHealthKit(permissions)` asks for (`permissions.read` → read, `write` → share);
/// what could not be resolved becomes a note.
struct CodeRequestedTypes {
    var read: Set<String> = []
    var share: Set<String> = []
    /// The calls a set of which could not be followed (`file:line`), by direction.
    var unresolvedRead: [String] = []
    var unresolvedShare: [String] = []
    var notes: [String] = []

    init(swift requests: [ResolvedRequest], reactNative: ReactNativeHealthScan?) {
        for request in requests {
            let location = request.source.location(of: request.call)
            let place = "\(location.file):\(location.line ?? 0)"
            for (kind, set) in [("share", request.share), ("read", request.read)] {
                for (name, _, _) in set.names {
                    if kind == "read" { read.insert(name) } else { share.insert(name) }
                }
                var seen: Set<String> = []
                let unknown = set.uncatalogued.filter { seen.insert($0).inserted }.sorted()
                if unknown.count == 1 {
                    notes.append("\(place): \(request.form.rawValue) \(kind) set asks for `\(unknown[0])`, which the audit does not know")
                } else if !unknown.isEmpty {
                    // One line for a long list: a framework that asks for everything would fill the page.
                    let shown = unknown.prefix(6).map { "`\($0)`" }.joined(separator: ", ") + (unknown.count > 6 ? ", and \(unknown.count - 6) more" : "")
                    notes.append("\(place): \(request.form.rawValue) \(kind) set asks for \(unknown.count) types the audit does not know: \(shown)")
                }
                if !set.unresolved.isEmpty {
                    if kind == "read" { unresolvedRead.append(place) } else { unresolvedShare.append(place) }
                }
                for (text, reason) in set.unresolved {
                    let shown = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                    let clipped = shown.count > 80 ? shown.prefix(77) + "…" : Substring(shown)
                    notes.append("\(place): \(request.form.rawValue) \(kind) set `\(clipped)` could not be resolved" + (reason.map { " (\($0))" } ?? ""))
                }
            }
        }
        if let scan = reactNative {
            read.formUnion(scan.readTypes)
            share.formUnion(scan.writeTypes)
            unresolvedRead += scan.unresolvedReadPlaces
            unresolvedShare += scan.unresolvedWritePlaces
            notes += scan.notes
        }
    }
}
