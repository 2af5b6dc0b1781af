import Foundation
import Manifest
import SwiftSyntax

/// The type names one set argument of `requestAuthorization(toShare:read:)` resolves to.
struct TypeSet {
    /// Catalogued names with the expression that names each (for evidence).
    var names: [(name: String, node: Syntax)] = []
    /// Names HealthKit has that the audit's catalogue does not (`activitySummary`).
    var uncatalogued: [String] = []
    /// Expressions the resolver could not follow, as written, with why.
    var unresolved: [(text: String, reason: String?)] = []

    var isResolved: Bool { unresolved.isEmpty }

    mutating func merge(_ other: TypeSet) {
        names += other.names; uncatalogued += other.uncatalogued; unresolved += other.unresolved
    }

    static func unresolved(_ expr: some SyntaxProtocol, _ reason: String? = nil) -> TypeSet {
        TypeSet(unresolved: [(expr.trimmedText, reason)])
    }
}

/// One `requestAuthorization(toShare:read:)` call in the app's code and what it asks for.
struct ResolvedRequest {
    let source: ParsedSource
    let call: FunctionCallExprSyntax
    let share: TypeSet
    let read: TypeSet

    var isResolved: Bool { share.isResolved && read.isResolved }
}

/// Resolves the sets passed to `requestAuthorization` when they are literals or bound to
/// constants in the same function, type or file (or `SomeType.member` anywhere in the app).
/// Anything else is reported as unresolved rather than guessed.
struct RequestedTypeResolver {
    let sources: [ParsedSource]

    private static let maxDepth = 8

    func requests() -> [ResolvedRequest] {
        let resolver = self
        return ParallelMap.map(sources) { source in
            source.calls(named: "requestAuthorization").filter(HealthKitVocabulary.isFrameworkRequest).map { call in
                ResolvedRequest(source: source, call: call,
                                share: resolver.argument(call, "toShare", source), read: resolver.argument(call, "read", source))
            }
        }.flatMap { $0 }
    }

    /// The types an expression names, e.g. the argument of `authorizationStatus(for:)`.
    func types(of expr: ExprSyntax, in source: ParsedSource) -> TypeSet { resolve(expr, source, depth: 0) }

    private func argument(_ call: FunctionCallExprSyntax, _ label: String, _ source: ParsedSource) -> TypeSet {
        guard let expr = ExprShape.argument(call, label: label) else { return TypeSet() }
        return resolve(expr, source, depth: 0)
    }

    // MARK: Sets and single types

    private func resolve(_ expr: ExprSyntax, _ source: ParsedSource, depth: Int) -> TypeSet {
        guard depth <= Self.maxDepth else { return .unresolved(expr, "too deeply nested") }
        let e = ExprShape.stripped(expr)
        if e.is(NilLiteralExprSyntax.self) { return TypeSet() }
        if let array = e.as(ArrayExprSyntax.self) {
            var set = TypeSet()
            for element in array.elements { set.merge(resolve(element.expression, source, depth: depth + 1)) }
            return set
        }
        if let sequence = e.as(SequenceExprSyntax.self) {
            // `a + b` on arrays.
            let items = Array(sequence.elements)
            guard items.count >= 3, items.enumerated().allSatisfy({ index, item in
                index % 2 == 0 || item.as(BinaryOperatorExprSyntax.self)?.operator.text == "+"
            }) else { return .unresolved(e) }
            var set = TypeSet()
            for (index, item) in items.enumerated() where index % 2 == 0 { set.merge(resolve(item, source, depth: depth + 1)) }
            return set
        }
        if let call = e.as(FunctionCallExprSyntax.self) { return resolveCall(call, source, depth: depth) }
        if e.is(DeclReferenceExprSyntax.self) || e.is(MemberAccessExprSyntax.self) {
            switch lookup(e, source) {
            case .value(let value, let valueSource): return resolve(value, valueSource, depth: depth + 1)
            case .unresolved(let reason): return .unresolved(e, reason)
            }
        }
        return .unresolved(e)
    }

    /// Member calls that make a type from an identifier.
    private static let typeFactories: Set<String> = ["quantityType", "categoryType", "characteristicType", "correlationType", "clinicalType"]
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

    private func resolveCall(_ call: FunctionCallExprSyntax, _ source: ParsedSource, depth: Int) -> TypeSet {
        let name = ExprShape.calledName(call) ?? ""
        let base = ExprShape.base(of: call)
        let firstArgument = call.arguments.first?.expression
        if name == "Set" || name == "Array" {
            guard let firstArgument else { return TypeSet() }
            guard call.arguments.count == 1, call.arguments.first?.label == nil else { return .unresolved(call) }
            return resolve(firstArgument, source, depth: depth + 1)
        }
        if name == "union" || name == "formUnion", let base, let firstArgument {
            var set = resolve(base, source, depth: depth + 1)
            set.merge(resolve(firstArgument, source, depth: depth + 1))
            return set
        }
        if (name == "map" || name == "compactMap"), let base, let closure = ClosureShape.completion(of: call),
           closure.statements.calls.contains(where: { Self.typeInitializers.contains(ExprShape.calledName($0) ?? "")
               || Self.typeFactories.contains(ExprShape.calledName($0) ?? "") }) {
            // `[.stepCount, .heartRate].map { HKQuantityType($0) }`
            return identifiers(base, source, depth: depth + 1)
        }
        let isInitializer = Self.typeInitializers.contains(name) || (name == "init" && base == nil)
        if isInitializer || Self.typeFactories.contains(name) {
            guard let firstArgument else { return .unresolved(call) }
            return identifier(firstArgument, source, depth: depth + 1, naming: call)
        }
        if let fixed = Self.fixedTypes[name] { return named(fixed, call) }
        return .unresolved(call)
    }

    private func named(_ name: String, _ node: some SyntaxProtocol) -> TypeSet {
        HealthKitType.named(name) != nil ? TypeSet(names: [(name, Syntax(node))]) : TypeSet(uncatalogued: [name])
    }

    // MARK: Identifiers

    /// A type identifier: `.stepCount`, `HKQuantityTypeIdentifier.stepCount`, `"HKQuantityTypeIdentifierStepCount"`, or a constant bound to one.
    private func identifier(_ expr: ExprSyntax, _ source: ParsedSource, depth: Int, naming node: some SyntaxProtocol) -> TypeSet {
        guard depth <= Self.maxDepth else { return .unresolved(expr, "too deeply nested") }
        let e = ExprShape.stripped(expr)
        if let member = e.as(MemberAccessExprSyntax.self), member.base == nil || member.base!.trimmedText.hasSuffix("Identifier") {
            return named(member.declName.baseName.text, node)
        }
        if let literal = ExprShape.stringLiteral(e) ?? (e.as(FunctionCallExprSyntax.self).flatMap { ExprShape.argument($0, label: "rawValue") }
                                                         .flatMap(ExprShape.stringLiteral)) {
            for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCharacteristicTypeIdentifier",
                           "HKCorrelationTypeIdentifier", "HKClinicalTypeIdentifier"] where literal.hasPrefix(prefix) {
                let rest = literal.dropFirst(prefix.count)
                return named(rest.prefix(1).lowercased() + rest.dropFirst(), node)
            }
            return .unresolved(e)
        }
        if e.is(DeclReferenceExprSyntax.self) || e.is(MemberAccessExprSyntax.self) {
            switch lookup(e, source) {
            case .value(let value, let valueSource): return identifier(value, valueSource, depth: depth + 1, naming: node)
            case .unresolved(let reason): return .unresolved(e, reason)
            }
        }
        return .unresolved(e)
    }

    /// A list of identifiers (`[.stepCount, .heartRate]`), for `.map { HKQuantityType($0) }`.
    private func identifiers(_ expr: ExprSyntax, _ source: ParsedSource, depth: Int) -> TypeSet {
        let e = ExprShape.stripped(expr)
        if let array = e.as(ArrayExprSyntax.self) {
            var set = TypeSet()
            for element in array.elements { set.merge(identifier(element.expression, source, depth: depth + 1, naming: element)) }
            return set
        }
        if e.is(DeclReferenceExprSyntax.self) || e.is(MemberAccessExprSyntax.self), case .value(let value, let valueSource) = lookup(e, source) {
            return identifiers(value, valueSource, depth: depth + 1)
        }
        return .unresolved(e)
    }

    // MARK: Constants

    private enum Binding {
        case value(ExprSyntax, ParsedSource)
        case unresolved(String?)
    }

    /// The value bound to a name, looked up from the use outwards: locals and `guard let`s of the
    /// enclosing function, members of the enclosing types, declarations of the file; `Type.member`
    /// also in other files of the app.
    private func lookup(_ reference: ExprSyntax, _ source: ParsedSource) -> Binding {
        guard let name = ExprShape.referencedName(reference) else { return .unresolved(nil) }
        let member = reference.as(MemberAccessExprSyntax.self)
        let baseText = member?.base?.trimmedText
        // `self.x` / `Self.x` / `x`: start at the use; `Other.x`: the type named Other.
        if baseText == nil || baseText == "self" || baseText == "Self" {
            if baseText == nil {
                let function = SyntaxScope.function(of: reference)
                let parameters = function.as(FunctionDeclSyntax.self)?.signature.parameterClause.parameters
                    ?? function.as(InitializerDeclSyntax.self)?.signature.parameterClause.parameters
                if parameters?.contains(where: { ($0.secondName ?? $0.firstName).text == name }) == true {
                    return .unresolved("a parameter of `\(SyntaxScope.functionName(of: reference) ?? "the function")`")
                }
                if let local = localBinding(name, before: reference, in: function) { return local.map { .value($0, source) } ?? .unresolved(nil) }
            }
            for type in SyntaxScope.types(around: reference) {
                if let value = memberBinding(name, in: type) { return value.map { .value($0, source) } ?? .unresolved("no initial value") }
            }
            if let value = fileBinding(name, in: source.tree) { return value.map { .value($0, source) } ?? .unresolved("no initial value") }
            return .unresolved(nil)
        }
        let typeName = baseText!.split(separator: ".").last.map(String.init) ?? baseText!
        for other in [source] + sources.filter({ $0.file.path != source.file.path }) {
            for type in other.tree.collect(DeclSyntax.self) where SyntaxScope.typeName(of: type) == typeName {
                if let value = memberBinding(name, in: type) { return value.map { .value($0, other) } ?? .unresolved("no initial value") }
            }
        }
        return .unresolved(nil)
    }

    /// The nearest `let`/`var`/`guard let` named `name` above `use` in the function; `.some(nil)` when bound without a value.
    private func localBinding(_ name: String, before use: some SyntaxProtocol, in function: Syntax) -> ExprSyntax?? {
        var best: (AbsolutePosition, ExprSyntax?)?
        for binding in function.collect(PatternBindingSyntax.self)
        where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name && binding.position < use.position
            && !isMember(binding) {
            if best == nil || best!.0 < binding.position { best = (binding.position, value(of: binding)) }
        }
        for condition in function.collect(OptionalBindingConditionSyntax.self)
        where condition.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name && condition.position < use.position {
            if let initializer = condition.initializer, best == nil || best!.0 < condition.position { best = (condition.position, initializer.value) }
        }
        return best.map { $0.1 }
    }

    private func isMember(_ binding: PatternBindingSyntax) -> Bool {
        binding.enclosing(MemberBlockItemSyntax.self) != nil && !SyntaxScope.isFunctionBoundary(SyntaxScope.function(of: binding))
    }

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

    /// `= value`, or the single expression of a computed property (`{ [...] }` / `{ return [...] }`).
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
        guard statements.count == 1, let item = statements.first?.item else { return nil }
        if let expr = item.as(ExprSyntax.self) { return expr }
        return item.as(ReturnStmtSyntax.self)?.expression
    }
}

/// The types the code asks for: Swift `requestAuthorization` sets as resolved, and what a React
/// Native app's `initHealthKit(permissions)` asks for (`permissions.read` → read, `write` → share);
/// what could not be resolved becomes a note.
struct CodeRequestedTypes {
    var read: Set<String> = []
    var share: Set<String> = []
    var notes: [String] = []

    init(swift requests: [ResolvedRequest], reactNative: ReactNativeHealthScan?) {
        for request in requests {
            let location = request.source.location(of: request.call)
            let place = "\(location.file):\(location.line ?? 0)"
            for (kind, set) in [("share", request.share), ("read", request.read)] {
                for (name, _) in set.names {
                    if kind == "read" { read.insert(name) } else { share.insert(name) }
                }
                for name in set.uncatalogued {
                    notes.append("\(place): requestAuthorization \(kind) set asks for `\(name)`, which the audit does not know")
                }
                for (text, reason) in set.unresolved {
                    let shown = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                    let clipped = shown.count > 80 ? shown.prefix(77) + "…" : Substring(shown)
                    notes.append("\(place): requestAuthorization \(kind) set `\(clipped)` could not be resolved" + (reason.map { " (\($0))" } ?? ""))
                }
            }
        }
        if let scan = reactNative {
            read.formUnion(scan.readTypes)
            share.formUnion(scan.writeTypes)
            notes += scan.notes
        }
    }
}
