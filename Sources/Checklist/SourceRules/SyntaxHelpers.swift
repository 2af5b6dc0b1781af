import Foundation
import SwiftSyntax

// Structural helpers shared by the source rules: walking, enclosing declarations, closures,
// "what runs after this statement" and "which branch runs when this condition holds".
// Everything works on the trees `ParsedSource` already parsed; nothing re-parses.

/// Each file is walked once, right after its parse, not once per question: rules ask `calls` or
/// `mentions` of thousands of subtrees, and re-walking each one made `check` 30 times slower than the
/// compiler's parser. The nodes of a kind are kept in source order per tree, and a subtree's are a
/// slice found by position; identifiers likewise, by name.
final class SyntaxIndex: @unchecked Sendable {
    static let shared = SyntaxIndex()
    private struct Key: Hashable { var root: SyntaxIdentifier; var kind: ObjectIdentifier }
    /// What one walk of a tree records: every node but tokens filed under its concrete type, and
    /// each identifier with the positions it is written at, both in source order.
    private struct TreeIndex {
        var buckets: [ObjectIdentifier: [Syntax]] = [:]
        var identifiers: [String: [AbsolutePosition]] = [:]
    }
    private var trees: [SyntaxIdentifier: TreeIndex] = [:]
    /// Per tree and abstract kind (`DeclSyntax`): merged from the concrete buckets.
    private var abstract: [Key: [Syntax]] = [:]
    private let lock = NSLock()
    /// Trees of finished audits are dropped wholesale past this many.
    private static let capacity = 4096
    private static let abstractKinds: Set<ObjectIdentifier> = [
        ObjectIdentifier(Syntax.self), ObjectIdentifier(DeclSyntax.self), ObjectIdentifier(ExprSyntax.self),
        ObjectIdentifier(StmtSyntax.self), ObjectIdentifier(TypeSyntax.self), ObjectIdentifier(PatternSyntax.self),
    ]

    /// The nodes of a kind (tokens excepted: ask `identifiers`), in source order.
    func all<Node: SyntaxProtocol>(_ kind: Node.Type, in root: Syntax) -> [Syntax] {
        let kindID = ObjectIdentifier(kind)
        if Self.abstractKinds.contains(kindID) { return abstractNodes(kind, in: root) }
        return index(of: root).buckets[kindID] ?? []
    }

    func identifiers(in root: Syntax) -> [String: [AbsolutePosition]] { index(of: root).identifiers }

    /// Builds a tree's index now, on the calling thread (each file's worker, right after its parse),
    /// rather than on whichever rule asks first.
    func prepare(_ tree: SourceFileSyntax) { _ = index(of: Syntax(tree)) }

    /// The tree's index, from one walk made on first use.
    private func index(of root: Syntax) -> TreeIndex {
        if let last = LastLookup.current, last.root == root.id { return last.index }
        lock.lock()
        if let known = trees[root.id] { lock.unlock(); LastLookup.current = LastLookup(root: root.id, index: known); return known }
        lock.unlock()
        let walker = IndexWalker()
        walker.walk(root)
        lock.lock()
        if trees.count >= Self.capacity { trees.removeAll(keepingCapacity: true) }
        trees[root.id] = walker.index
        lock.unlock()
        return walker.index
    }

    /// Each thread's last answer: rules ask about one file many times in a row, and the shared
    /// table's lock, taken for each of those questions on every core, cost a tenth of the rules' time.
    /// It holds the tree's nodes, so the tree (and its identifier) stays alive while it is remembered.
    private final class LastLookup {
        let root: SyntaxIdentifier
        let index: TreeIndex
        init(root: SyntaxIdentifier, index: TreeIndex) { self.root = root; self.index = index }

        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            pthread_key_create(&key) { pointer in
                #if canImport(Glibc)
                guard let pointer else { return }
                #endif
                Unmanaged<LastLookup>.fromOpaque(pointer).release()
            }
            return key
        }()

        static var current: LastLookup? {
            get { pthread_getspecific(key).map { Unmanaged<LastLookup>.fromOpaque($0).takeUnretainedValue() } }
            set {
                let old = pthread_getspecific(key)
                pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0).toOpaque() })
                if let old { Unmanaged<LastLookup>.fromOpaque(old).release() }
            }
        }
    }

    /// Drops the index of finished trees (`serve` audits again and again in one process).
    func forget(_ roots: [SyntaxIdentifier]) {
        let gone = Set(roots)
        lock.lock()
        for root in gone { trees[root] = nil }
        abstract = abstract.filter { !gone.contains($0.key.root) }
        lock.unlock()
    }

    /// The nodes of an abstract kind (`DeclSyntax`): the concrete buckets of that kind merged back
    /// into walk order (by position, an enclosing node before the nodes it starts with), no new walk.
    private func abstractNodes<Node: SyntaxProtocol>(_ kind: Node.Type, in root: Syntax) -> [Syntax] {
        let key = Key(root: root.id, kind: ObjectIdentifier(kind))
        lock.lock()
        if let known = abstract[key] { lock.unlock(); return known }
        lock.unlock()
        let found = index(of: root).buckets.values.filter { $0.first?.is(kind) ?? false }.joined()
            .sorted { $0.position != $1.position ? $0.position < $1.position : $0.endPosition > $1.endPosition }
        lock.lock()
        if abstract.count >= Self.capacity { abstract.removeAll(keepingCapacity: true) }
        abstract[key] = found
        lock.unlock()
        return found
    }

    /// The one walk: nodes into buckets, identifier tokens into the name index.
    private final class IndexWalker: SyntaxAnyVisitor {
        var index = TreeIndex()

        init() { super.init(viewMode: .sourceAccurate) }

        override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
            index.buckets[ObjectIdentifier(node.syntaxNodeType), default: []].append(node)
            return .visitChildren
        }

        override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
            switch token.tokenKind {
            case .identifier(let name), .dollarIdentifier(let name):
                index.identifiers[name, default: []].append(token.positionAfterSkippingLeadingTrivia)
                // Swift 2's spelling is found under today's name too (`SharingAuthorized`, `saveObject`).
                if let modern = ExprShape.modernName(name) { index.identifiers[modern, default: []].append(token.positionAfterSkippingLeadingTrivia) }
            default: break
            }
            return .skipChildren
        }
    }
}

extension SyntaxProtocol {
    /// The node's source text without its outer trivia: what `trimmedDescription` gives, read from
    /// the bytes instead of building a trimmed copy of the tree (which cost a tenth of `check`).
    var trimmedText: String {
        let bytes = syntaxTextBytes
        let start = leadingTriviaLength.utf8Length
        let end = max(start, bytes.count - trailingTriviaLength.utf8Length)
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    func collect<Node: SyntaxProtocol>(_ kind: Node.Type) -> [Node] {
        let all = SyntaxIndex.shared.all(kind, in: Syntax(self).root)
        let start = position, end = endPosition
        // First node starting at or after this one's start (source order = position order).
        var low = 0, high = all.count
        while low < high {
            let middle = (low + high) / 2
            if all[middle].position < start { low = middle + 1 } else { high = middle }
        }
        var result: [Node] = []
        var index = low
        while index < all.count, all[index].position < end || (all[index].position == end && all[index].endPosition == end) {
            let node = all[index]
            if node.endPosition <= end, let match = node.as(Node.self) { result.append(match) }
            index += 1
        }
        return result
    }

    var calls: [FunctionCallExprSyntax] { collect(FunctionCallExprSyntax.self) }

    /// Declarations of a few kinds below the node, in source order: each kind's own list, merged
    /// (cheaper than every `DeclSyntax` of the file).
    func declarations(_ kinds: [any DeclSyntaxProtocol.Type]) -> [DeclSyntax] {
        kinds.flatMap { kind in collect(kind).map { DeclSyntax(fromProtocol: $0) } }.sorted { $0.position < $1.position }
    }

    /// Parents, nearest first.
    var ancestors: [Syntax] {
        var result: [Syntax] = []
        var node = parent
        while let current = node {
            result.append(current)
            node = current.parent
        }
        return result
    }

    func enclosing<Node: SyntaxProtocol>(_ kind: Node.Type) -> Node? {
        for ancestor in ancestors { if let match = ancestor.as(kind) { return match } }
        return nil
    }

    /// Whether `other` lies inside this node. Positions are offsets in a file: a node of another
    /// file at the same offsets is not inside (OneBusAway's caller in one file counted as inside
    /// the function it calls in another, so the caller's availability check went unseen).
    func encloses(_ other: some SyntaxProtocol) -> Bool {
        position <= other.position && other.endPosition <= endPosition && root.id == other.root.id
    }

    /// Identifier tokens below the node (`$0` included), for cheap "does this code talk about X" tests.
    var identifierNames: [String] {
        tokens(viewMode: .sourceAccurate).compactMap { token in
            switch token.tokenKind {
            case .identifier(let name), .dollarIdentifier(let name): return ExprShape.modernName(name) ?? name
            default: return nil
            }
        }
    }

    /// Whether an identifier below the node passes `test`, from the tree's index of identifiers
    /// (each name with the positions it is written at), not by visiting the node's tokens.
    func mentions(_ test: (String) -> Bool) -> Bool {
        // A small node's own tokens are fewer than the file's distinct names.
        if totalLength.utf8Length < 4096 { return identifierNames.contains(where: test) }
        let identifiers = SyntaxIndex.shared.identifiers(in: Syntax(self).root)
        let start = position, end = endPosition
        return identifiers.contains { name, positions in test(name) && Self.anyWithin(positions, start, end) }
    }

    /// Whether any of `names` is written below the node: one index lookup per name.
    func mentions(anyOf names: some Sequence<String>) -> Bool {
        let identifiers = SyntaxIndex.shared.identifiers(in: Syntax(self).root)
        let start = position, end = endPosition
        return names.contains { name in identifiers[name].map { Self.anyWithin($0, start, end) } ?? false }
    }

    func mentions(_ name: String) -> Bool {
        guard let positions = SyntaxIndex.shared.identifiers(in: Syntax(self).root)[name] else { return false }
        return Self.anyWithin(positions, position, endPosition)
    }

    /// Whether a sorted list of positions has one in `start..<end`.
    private static func anyWithin(_ positions: [AbsolutePosition], _ start: AbsolutePosition, _ end: AbsolutePosition) -> Bool {
        var low = 0, high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < start { low = middle + 1 } else { high = middle }
        }
        return low < positions.count && positions[low] < end
    }
}

// MARK: - Declarations around a node

enum SyntaxScope {
    /// A function-like declaration: its body is where "the same function" ends.
    static func isFunctionBoundary(_ node: Syntax) -> Bool {
        node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self) || node.is(DeinitializerDeclSyntax.self)
            || node.is(AccessorDeclSyntax.self) || node.is(AccessorBlockSyntax.self) || node.is(SubscriptDeclSyntax.self)
    }

    /// The nearest enclosing function-like declaration, or the source file for top-level code.
    static func function(of node: some SyntaxProtocol) -> Syntax {
        for ancestor in node.ancestors where isFunctionBoundary(ancestor) || ancestor.is(SourceFileSyntax.self) { return ancestor }
        return Syntax(node.root)
    }

    /// The nearest function or closure: the code a statement belongs to when it runs.
    static func body(of node: some SyntaxProtocol) -> Syntax {
        for ancestor in node.ancestors where isFunctionBoundary(ancestor) || ancestor.is(ClosureExprSyntax.self)
            || ancestor.is(SourceFileSyntax.self) { return ancestor }
        return Syntax(node.root)
    }

    static func functionName(of node: some SyntaxProtocol) -> String? {
        let function = function(of: node)
        if let decl = function.as(FunctionDeclSyntax.self) { return decl.name.text }
        if function.is(InitializerDeclSyntax.self) { return "init" }
        return nil
    }

    /// Type-like declarations around a node, nearest first.
    static func types(around node: some SyntaxProtocol) -> [DeclSyntax] {
        node.ancestors.compactMap { ancestor in
            if ancestor.is(StructDeclSyntax.self) || ancestor.is(ClassDeclSyntax.self) || ancestor.is(EnumDeclSyntax.self)
                || ancestor.is(ActorDeclSyntax.self) || ancestor.is(ExtensionDeclSyntax.self) || ancestor.is(ProtocolDeclSyntax.self) {
                return ancestor.as(DeclSyntax.self)
            }
            return nil
        }
    }

    static func typeName(of decl: DeclSyntax) -> String? {
        if let d = decl.as(StructDeclSyntax.self) { return d.name.text }
        if let d = decl.as(ClassDeclSyntax.self) { return d.name.text }
        if let d = decl.as(EnumDeclSyntax.self) { return d.name.text }
        if let d = decl.as(ActorDeclSyntax.self) { return d.name.text }
        if let d = decl.as(ProtocolDeclSyntax.self) { return d.name.text }
        if let d = decl.as(ExtensionDeclSyntax.self) { return d.extendedType.trimmedText.split(separator: ".").last.map(String.init) }
        return nil
    }

    /// Inherited type names as written, last component only (`WidgetKit.Widget` → `Widget`).
    static func inheritedTypes(of decl: DeclSyntax) -> [String] {
        let clause: InheritanceClauseSyntax?
        if let d = decl.as(StructDeclSyntax.self) { clause = d.inheritanceClause }
        else if let d = decl.as(ClassDeclSyntax.self) { clause = d.inheritanceClause }
        else if let d = decl.as(EnumDeclSyntax.self) { clause = d.inheritanceClause }
        else if let d = decl.as(ActorDeclSyntax.self) { clause = d.inheritanceClause }
        else if let d = decl.as(ExtensionDeclSyntax.self) { clause = d.inheritanceClause }
        else { clause = nil }
        return clause?.inheritedTypes.compactMap { inherited in
            let text = inherited.type.trimmedText
            let base = text.split(separator: "<").first.map(String.init) ?? text
            return base.split(separator: ".").last.map(String.init)
        } ?? []
    }
}

// MARK: - Expressions

enum ExprShape {
    /// The expression without `try`, `await`, `!`, `?`, parentheses and `as` casts around it.
    static func stripped(_ expr: ExprSyntax) -> ExprSyntax {
        var current = expr
        while true {
            if let e = current.as(TryExprSyntax.self) { current = e.expression }
            else if let e = current.as(AwaitExprSyntax.self) { current = e.expression }
            else if let e = current.as(ForceUnwrapExprSyntax.self) { current = e.expression }
            else if let e = current.as(OptionalChainingExprSyntax.self) { current = e.expression }
            else if let e = current.as(TupleExprSyntax.self), e.elements.count == 1, let only = e.elements.first, only.label == nil { current = only.expression }
            else if let e = current.as(SequenceExprSyntax.self), e.elements.count == 3, e.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true,
                    let first = e.elements.first { current = first }
            else if let e = current.as(AsExprSyntax.self) { current = e.expression }
            else { return current }
        }
    }

    /// The name an expression refers to: `self.store` → `store`, `Self.readTypes` → `readTypes`, `types` → `types`.
    static func referencedName(_ expr: ExprSyntax) -> String? {
        let e = stripped(expr)
        if let ref = e.as(DeclReferenceExprSyntax.self) { return ref.baseName.text }
        if let member = e.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        return nil
    }

    /// `.sharingAuthorized`, `HKAuthorizationStatus.sharingAuthorized` → `sharingAuthorized`.
    static func memberName(_ expr: ExprSyntax) -> String? {
        stripped(expr).as(MemberAccessExprSyntax.self).map { member in
            let name = member.declName.baseName.text
            return modernName(name) ?? name
        }
    }

    /// Today's name for a Swift 2 spelling of HealthKit's API: a method (`legacyNames`) or a case of
    /// `HKAuthorizationStatus` (`.SharingAuthorized`); nil for any other name.
    static func modernName(_ name: String) -> String? {
        // Asked for every identifier of every file: most names are ruled out by their first byte.
        guard let first = name.utf8.first, legacyInitials.contains(first) else { return nil }
        return legacyNames[name] ?? legacyCases[name]
    }

    private static let legacyInitials = Set((Array(legacyNames.keys) + Array(legacyCases.keys)).compactMap(\.utf8.first))

    /// `HKAuthorizationStatus`'s and `HKAuthorizationRequestStatus`'s cases as Swift 2 wrote them.
    static let legacyCases: [String: String] = [
        "SharingAuthorized": "sharingAuthorized", "SharingDenied": "sharingDenied", "NotDetermined": "notDetermined",
        "ShouldRequest": "shouldRequest", "Unnecessary": "unnecessary",
    ]

    static func isBool(_ expr: ExprSyntax, _ value: Bool) -> Bool {
        stripped(expr).as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == (value ? .keyword(.true) : .keyword(.false))
    }

    /// The text of a string literal without interpolations, or nil when it is not a literal.
    static func stringLiteral(_ expr: ExprSyntax) -> String? {
        guard let literal = stripped(expr).as(StringLiteralExprSyntax.self) else { return nil }
        return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
    }

    /// The base of a member call: `store` in `store.save(x)`; nil for a bare call.
    static func base(of call: FunctionCallExprSyntax) -> ExprSyntax? {
        call.calledExpression.as(MemberAccessExprSyntax.self)?.base
    }

    /// The called name, also through generic arguments (`Set<HKObjectType>(…)` → `Set`). The
    /// Swift 2 spellings of `HKHealthStore`'s methods read as today's, so an app written before
    /// Swift 3 makes the same calls (their labels are judged where the call is).
    static func calledName(_ call: FunctionCallExprSyntax) -> String? {
        if let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self) {
            return referencedName(generic.expression)
        }
        return SourceQuery.calledName(call).map { legacyNames[$0] ?? $0 }
    }

    /// `requestAuthorizationToShareTypes(_:readTypes:completion:)`, `authorizationStatusForType(_:)`,
    /// `saveObject(_:withCompletion:)`, `deleteObject(_:withCompletion:)`, `executeQuery(_:)`.
    static let legacyNames: [String: String] = [
        "requestAuthorizationToShareTypes": "requestAuthorization", "authorizationStatusForType": "authorizationStatus",
        "saveObject": "save", "saveObjects": "save", "deleteObject": "delete", "executeQuery": "execute",
    ]

    /// The share and read arguments of HealthKit's request: `toShare:` / `read:`, or in the Swift 2
    /// form the unlabeled first argument and `readTypes:`.
    static func requestArguments(_ call: FunctionCallExprSyntax) -> (share: ExprSyntax?, read: ExprSyntax?) {
        if let read = argument(call, label: "readTypes"), let first = call.arguments.first, first.label == nil {
            return (first.expression, read)
        }
        return (argument(call, label: "toShare"), argument(call, label: "read"))
    }

    /// Whether the call's arguments fit the function's parameters by label, as Swift matches them:
    /// in order, a parameter with a default value may be left out, and trailing closures take the
    /// parameters left at the end.
    static func fits(_ call: FunctionCallExprSyntax, _ function: FunctionDeclSyntax) -> Bool {
        let parameters = function.signature.parameterClause.parameters.map { parameter in
            (label: parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text, optional: parameter.defaultValue != nil)
        }
        var next = 0
        for argument in call.arguments {
            let label = argument.label?.text
            while next < parameters.count, parameters[next].label != label, parameters[next].optional { next += 1 }
            guard next < parameters.count, parameters[next].label == label else { return false }
            next += 1
        }
        let trailing = (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count
        let left = parameters[next...]
        return trailing <= left.count && left.dropLast(trailing).allSatisfy(\.optional)
    }

    static func labels(_ call: FunctionCallExprSyntax) -> [String] {
        call.arguments.compactMap { $0.label?.text }
    }

    static func argument(_ call: FunctionCallExprSyntax, label: String) -> ExprSyntax? {
        call.arguments.first { $0.label?.text == label }?.expression
    }

    /// Operands of `a && b && c`, each as its sequence items; nil when `||` is involved
    /// (no single branch then). Operators are not folded by the parser, so this works on items.
    static func conjuncts(_ expr: ExprSyntax) -> [Operand]? {
        let e = stripped(expr)
        guard let sequence = e.as(SequenceExprSyntax.self) else { return [Operand(items: [e])] }
        let items = Array(sequence.elements)
        let operators = items.compactMap { $0.as(BinaryOperatorExprSyntax.self)?.operator.text }
        if operators.contains("||") { return nil }
        var parts: [Operand] = []
        var current: [ExprSyntax] = []
        for item in items {
            if item.as(BinaryOperatorExprSyntax.self)?.operator.text == "&&" {
                if !current.isEmpty { parts.append(Operand(items: current)) }
                current = []
            } else {
                current.append(item)
            }
        }
        if !current.isEmpty { parts.append(Operand(items: current)) }
        // A parenthesized operand `(a && b)` is searched again.
        return parts.flatMap { part -> [Operand] in
            if let only = part.single, stripped(only).is(SequenceExprSyntax.self) { return conjuncts(only) ?? [] }
            return [part]
        }
    }

    /// `lhs = rhs` assignments below a node; `rhs` as its sequence items (`a != nil` → three items).
    static func assignments(in node: some SyntaxProtocol) -> [(lhs: ExprSyntax, rhs: Operand, node: SequenceExprSyntax)] {
        node.collect(SequenceExprSyntax.self).compactMap { sequence in
            let items = Array(sequence.elements)
            guard let index = items.firstIndex(where: { $0.is(AssignmentExprSyntax.self) }), index > 0, index + 1 < items.count else { return nil }
            return (items[index - 1], Operand(items: Array(items[(index + 1)...])), sequence)
        }
    }
}

/// Part of an unfolded expression: one expression, or `lhs op rhs` items.
struct Operand {
    let items: [ExprSyntax]

    var single: ExprSyntax? { items.count == 1 ? items[0] : nil }

    /// `a == b` → (a, "==", b) when the operand is exactly one binary operation (or a parenthesized one).
    var binary: (ExprSyntax, String, ExprSyntax)? {
        if let single, let sequence = ExprShape.stripped(single).as(SequenceExprSyntax.self) {
            let inner = Array(sequence.elements)
            if inner.count == 3, let op = inner[1].as(BinaryOperatorExprSyntax.self) { return (inner[0], op.operator.text, inner[2]) }
            return nil
        }
        guard items.count == 3, let op = items[1].as(BinaryOperatorExprSyntax.self) else { return nil }
        return (items[0], op.operator.text, items[2])
    }

    func mentions(_ name: String) -> Bool { items.contains { $0.mentions(name) } }
    func encloses(_ node: some SyntaxProtocol) -> Bool { items.contains { $0.encloses(node) } }
}

// MARK: - Closures

enum ClosureShape {
    /// The completion closure of a call: its trailing closure, or a closure argument.
    static func completion(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        if let trailing = call.trailingClosure { return trailing }
        return call.arguments.reversed().lazy.compactMap { $0.expression.as(ClosureExprSyntax.self) }.first
    }

    /// Parameter names in order (`_` kept); empty when the closure uses `$0`-style names.
    static func parameterNames(_ closure: ClosureExprSyntax) -> [String] {
        guard let clause = closure.signature?.parameterClause else { return [] }
        switch clause {
        case .simpleInput(let list): return list.map(\.name.text)
        case .parameterClause(let params): return params.parameters.map { $0.localName }
        }
    }

    /// The closure passed to `Task { }` / `Task.detached { }` / `Task(priority:) { }`, if the call is one.
    static func taskBody(_ call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        let called = call.calledExpression.trimmedText
        guard called == "Task" || called == "Task.detached" || called.hasPrefix("Task<") else { return nil }
        return completion(of: call)
    }
}

// MARK: - Control flow

/// Which way a condition points: `.holds` when the condition is true in the branch taken when the tested thing holds.
enum Polarity { case holds, fails }

enum ControlFlow {
    /// The statements that follow the one containing `node` in its block (not further out).
    static func followingSiblings(of node: some SyntaxProtocol) -> [CodeBlockItemSyntax] {
        guard let item = Syntax(node).as(CodeBlockItemSyntax.self) ?? node.enclosing(CodeBlockItemSyntax.self),
              let list = item.parent?.as(CodeBlockItemListSyntax.self) else { return [] }
        return Array(list.drop { $0.id != item.id }.dropFirst())
    }

    /// Statements that run after `node` in the same function: the rest of its block, then the
    /// rest of each enclosing block, stopping at the enclosing closure or function.
    static func statementsAfter(_ node: some SyntaxProtocol) -> [CodeBlockItemSyntax] {
        var result: [CodeBlockItemSyntax] = []
        var current = Syntax(node)
        while let parent = current.parent {
            if parent.is(ClosureExprSyntax.self) || SyntaxScope.isFunctionBoundary(parent) { break }
            if let item = current.as(CodeBlockItemSyntax.self), let list = parent.as(CodeBlockItemListSyntax.self) {
                result += list.drop { $0.id != item.id }.dropFirst()
            }
            current = parent
        }
        return result
    }

    /// The code that runs when `polarity(condition)` says the tested thing holds (or fails): for
    /// `if`, its body or else branch; for `guard`, the rest of the block or its else body; for
    /// `switch`, the cases `casePolarity` accepts. `within` limits where to look.
    static func regions(within scope: some SyntaxProtocol, want: Polarity,
                        condition polarity: (Operand) -> Polarity?,
                        switchSubject: ((ExprSyntax) -> Bool)? = nil,
                        casePolarity: ((SwitchCaseLabelSyntax) -> Polarity?)? = nil) -> [(statement: Syntax, region: [Syntax])] {
        var found: [(Syntax, [Syntax])] = []
        for ifExpr in scope.collect(IfExprSyntax.self) {
            guard let pointing = direction(of: ifExpr.conditions, polarity) else { continue }
            if pointing == want {
                found.append((Syntax(ifExpr), [Syntax(ifExpr.body)]))
            } else if let elseBody = ifExpr.elseBody {
                found.append((Syntax(ifExpr), [Syntax(elseBody)]))
            }
        }
        for guardStmt in scope.collect(GuardStmtSyntax.self) {
            guard let pointing = direction(of: guardStmt.conditions, polarity) else { continue }
            if pointing == want {
                found.append((Syntax(guardStmt), followingSiblings(of: guardStmt).map(Syntax.init)))
            } else {
                found.append((Syntax(guardStmt), [Syntax(guardStmt.body)]))
            }
        }
        if let switchSubject, let casePolarity {
            for switchExpr in scope.collect(SwitchExprSyntax.self) where switchSubject(switchExpr.subject) {
                for item in switchExpr.cases {
                    guard let switchCase = item.as(SwitchCaseSyntax.self), case .case(let label) = switchCase.label,
                          casePolarity(label) == want else { continue }
                    found.append((Syntax(switchExpr), [Syntax(switchCase.statements)]))
                }
            }
        }
        return found
    }

    /// The direction of a condition list: the first element that tests the thing decides
    /// (`if ok, error == nil` → `ok`). `||` conditions have no single direction.
    private static func direction(of conditions: ConditionElementListSyntax, _ polarity: (Operand) -> Polarity?) -> Polarity? {
        for element in conditions {
            guard case .expression(let expr) = element.condition, let parts = ExprShape.conjuncts(expr) else { continue }
            for part in parts { if let p = polarity(part) { return p } }
        }
        return nil
    }

    /// Polarity of a Bool-valued test of `name`: `name`, `!name`, `name == true`, `name != false`…
    static func flagPolarity(_ operand: Operand, names: Set<String>) -> Polarity? {
        flagPolarity(operand) { e in
            if let ref = e.as(DeclReferenceExprSyntax.self) { return names.contains(ref.baseName.text) }
            if let member = e.as(MemberAccessExprSyntax.self), member.base?.trimmedText == "self" { return names.contains(member.declName.baseName.text) }
            return false
        }
    }

    /// The same for any expression `isFlag` accepts (`healthKit.isAuthorized`): `flag`, `!flag`,
    /// `flag == true`, `false != flag`.
    static func flagPolarity(_ operand: Operand, isFlag: (ExprSyntax) -> Bool) -> Polarity? {
        if let (lhs, op, rhs) = operand.binary, op == "==" || op == "!=" {
            for (side, other) in [(lhs, rhs), (rhs, lhs)] {
                guard flagPolarity(Operand(items: [side]), isFlag: isFlag) == .holds else { continue }
                let isTrue = ExprShape.isBool(other, true)
                guard isTrue || ExprShape.isBool(other, false) else { return nil }
                return (isTrue == (op == "==")) ? .holds : .fails
            }
            return nil
        }
        guard let single = operand.single else { return nil }
        let e = ExprShape.stripped(single)
        if let prefix = e.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return flagPolarity(Operand(items: [prefix.expression]), isFlag: isFlag).map { $0 == .holds ? .fails : .holds }
        }
        return isFlag(e) ? .holds : nil
    }
}

// MARK: - Findings

extension Rule {
    /// A finding at a node of a parsed source: file:line:column of its first token and that line.
    func finding(_ message: String, at node: some SyntaxProtocol, in source: ParsedSource) -> Finding {
        finding(message, at: source.location(of: node), quote: source.quote(node), target: source.target)
    }
}

extension ParsedSource {
    /// `line 12` of this file, for messages that point at a second place.
    func lineOf(_ node: some SyntaxProtocol) -> Int { location(of: node).line ?? 0 }
}

extension FunctionParameterSyntax {
    /// The name the body uses: `application` in `_ application: UIApplication`, `completion` in `completion: …`.
    var localName: String { (secondName ?? firstName).text }
}

extension ClosureParameterSyntax {
    /// The name the body uses.
    var localName: String { (secondName ?? firstName).text }
}

extension FunctionCallExprSyntax {
    /// The argument passed for `function`'s parameter at `index`: the trailing closure for the last
    /// one, else the argument with its label, else the one at its position (`_` labels).
    func argument(for index: Int, of function: FunctionDeclSyntax) -> ExprSyntax? {
        let declared = Array(function.signature.parameterClause.parameters)
        guard declared.indices.contains(index) else { return nil }
        if index == declared.count - 1, let trailingClosure { return ExprSyntax(trailingClosure) }
        let label = declared[index].firstName.text
        let arguments = Array(self.arguments)
        if label != "_" { return arguments.first { $0.label?.text == label }?.expression }
        return index < arguments.count ? arguments[index].expression : nil
    }
}
