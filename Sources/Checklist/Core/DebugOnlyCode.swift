import Manifest
import SwiftSyntax

/// Code inside `#if DEBUG` (or `#if targetEnvironment(simulator)`) never ships: a finding there is kept, as a note that says so, so that a
/// developer probe cannot fail the build of a well-made app. Code that is only *reached* from
/// `#if DEBUG` code (a calibration screen whose one entry is a DEBUG button) is softened one step:
/// that is worked out by name, so it is less certain than the lexical case.
struct DebugOnlyCode {
    /// Line ranges of `#if DEBUG` (or simulator-only) clauses, per file, with the condition as written.
    let ranges: [String: [(lines: ClosedRange<Int>, condition: String)]]
    private let sources: [ParsedSource]
    /// Whether any file has DEBUG-only code to be reached from (a clause or a preview).
    private let hasDebugEntries: Bool

    init(sources: [ParsedSource]) {
        var ranges: [String: [(lines: ClosedRange<Int>, condition: String)]] = [:]
        for source in sources where ByteSearch.contains(source.file.text, "DEBUG") || ByteSearch.contains(source.file.text, "targetEnvironment") {
            for clause in source.tree.collect(IfConfigClauseSyntax.self) where Self.isDebugClause(clause) {
                guard let first = clause.firstToken(viewMode: .sourceAccurate), let last = clause.lastToken(viewMode: .sourceAccurate),
                      let start = source.location(of: first).line, let end = source.location(of: last).line else { continue }
                ranges[source.file.path, default: []].append((start...end, clause.condition?.trimmedText ?? "DEBUG"))
            }
        }
        self.ranges = ranges
        self.sources = sources
        hasDebugEntries = !ranges.isEmpty || sources.contains { ByteSearch.contains($0.file.text, "Preview") }
    }

    /// `#if DEBUG`, or `#if targetEnvironment(simulator)`: an App Store build runs on devices only.
    static func isDebugClause(_ clause: IfConfigClauseSyntax) -> Bool {
        let condition = clause.condition?.trimmedText.filter { !$0.isWhitespace }
        return condition == "DEBUG" || condition == "targetEnvironment(simulator)"
    }

    func soften(_ findings: [Finding]) -> [Finding] {
        var reachability: DebugReachability?
        return findings.map { finding in
            guard let line = finding.location.line else { return finding }
            var softened = finding
            if let clause = ranges[finding.location.file]?.first(where: { $0.lines.contains(line) }) {
                softened.severity = .note
                softened.message += " (in `#if \(clause.condition)` code, which does not ship)"
                return softened
            }
            guard finding.severity > .note, hasDebugEntries,
                  let source = sources.first(where: { $0.file.path == finding.location.file }) else { return finding }
            if reachability == nil { reachability = DebugReachability(sources: sources) }
            guard let entry = reachability!.debugEntry(of: finding.location, in: source) else { return finding }
            softened.severity = finding.severity == .error ? .warning : .note
            softened.message += " (reached only from `#if DEBUG` code, at \(entry.file):\(entry.line ?? 0))"
            return softened
        }
    }
}

/// Whether a place in the code runs only in DEBUG builds: it sits in a `#if DEBUG` clause, in a
/// `#Preview` or `PreviewProvider`, in a sheet presented only by a flag that only DEBUG code sets, or
/// in a declaration every use of which is such a place. Uses are found by name across the app's
/// files: a same-named use anywhere else keeps the code shipping (the cautious answer).
struct DebugReachability {
    private let sources: [ParsedSource]
    private var declarationMemo: [SyntaxIdentifier: FileLocation?] = [:]
    private var inProgress: Set<SyntaxIdentifier> = []
    /// Presenting calls whose flag is being judged: a sheet whose content sets another sheet's flag
    /// (or its own) must not loop.
    private var presentationsInProgress: Set<SyntaxIdentifier> = []
    /// Names used this often are framework vocabulary (`body`, `update`): not followed.
    private static let maxUses = 40
    /// Modifiers that show presentation of the closure's content depends on a flag.
    private static let presentations: Set<String> = ["sheet", "fullScreenCover", "popover", "navigationDestination", "inspector"]

    init(sources: [ParsedSource]) { self.sources = sources }

    /// The DEBUG place that the code at `location` is reached from only, or nil if it may ship.
    mutating func debugEntry(of location: FileLocation, in source: ParsedSource) -> FileLocation? {
        guard let line = location.line, let token = token(atLine: line, column: location.column ?? 1, in: source) else { return nil }
        return entry(above: Syntax(token), in: source)
    }

    private func token(atLine line: Int, column: Int, in source: ParsedSource) -> TokenSyntax? {
        guard let offset = source.utf8Offset(line: line, column: column) else { return nil }
        return source.tree.token(at: AbsolutePosition(utf8Offset: offset))
    }

    /// Walks out from `node` to the nearest declaration that decides it.
    private mutating func entry(above node: Syntax, in source: ParsedSource) -> FileLocation? {
        var child = node
        for ancestor in node.ancestors {
            defer { child = ancestor }
            if let clause = ancestor.as(IfConfigClauseSyntax.self) {
                if DebugOnlyCode.isDebugClause(clause) { return source.location(of: node) }
                continue
            }
            if let macro = ancestor.as(MacroExpansionExprSyntax.self), macro.macroName.text == "Preview" { return source.location(of: macro) }
            if let macro = ancestor.as(MacroExpansionDeclSyntax.self), macro.macroName.text == "Preview" { return source.location(of: macro) }
            if let call = ancestor.as(FunctionCallExprSyntax.self), !call.calledExpression.encloses(child),
               let name = ExprShape.calledName(call), Self.presentations.contains(name) {
                if let gate = presentationFlag(call), presentationsInProgress.insert(call.id).inserted {
                    let entry = flagSetOnlyInDebug(gate, presentedBy: call, in: source)
                    presentationsInProgress.remove(call.id)
                    if let entry { return entry }
                }
                continue
            }
            if let declaration = Self.decidingDeclaration(ancestor) { return entry(of: declaration, in: source) }
        }
        return nil
    }

    /// Declarations whose uses decide whether their body runs (initializers belong to their type).
    private static func decidingDeclaration(_ node: Syntax) -> DeclSyntax? {
        if node.is(FunctionDeclSyntax.self) || node.is(StructDeclSyntax.self) || node.is(ClassDeclSyntax.self)
            || node.is(EnumDeclSyntax.self) || node.is(ActorDeclSyntax.self) || node.is(ExtensionDeclSyntax.self) || node.is(ProtocolDeclSyntax.self) {
            return node.as(DeclSyntax.self)
        }
        // Only a computed or lazy property runs when used; a stored one's initializer runs anyway.
        if let variable = node.as(VariableDeclSyntax.self), variable.bindings.count == 1,
           variable.bindings.first?.accessorBlock != nil || variable.modifiers.contains(where: { $0.name.text == "lazy" }) {
            return DeclSyntax(variable)
        }
        return nil
    }

    private mutating func entry(of declaration: DeclSyntax, in source: ParsedSource) -> FileLocation? {
        let id = declaration.id
        if let known = declarationMemo[id] { return known }
        guard inProgress.insert(id).inserted else { return nil }
        // Enclosed in DEBUG-only code (a member of a DEBUG-only type), or used only from such code.
        var found = entry(above: Syntax(declaration), in: source)
        if found == nil, let name = Self.followedName(of: declaration) {
            if Self.isPreviewProvider(declaration) {
                found = source.location(of: declaration)
            } else {
                found = entryOfEveryUse(of: name, declaredBy: declaration)
            }
        }
        inProgress.remove(id)
        declarationMemo[id] = found
        return found
    }

    /// The name a declaration is used by, when following its uses is meaningful: not for code the
    /// system calls (`override`, `@objc`, `@main`, `@IBAction`), public API, or extensions.
    private static func followedName(of declaration: DeclSyntax) -> String? {
        let modifiers: DeclModifierListSyntax?, attributes: AttributeListSyntax?, name: TokenSyntax?
        if let function = declaration.as(FunctionDeclSyntax.self) {
            (modifiers, attributes, name) = (function.modifiers, function.attributes, function.name)
        } else if let variable = declaration.as(VariableDeclSyntax.self) {
            let pattern = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)
            (modifiers, attributes, name) = (variable.modifiers, variable.attributes, pattern?.identifier)
        } else if let type = declaration.asProtocol(NamedDeclSyntax.self), !declaration.is(ProtocolDeclSyntax.self),
                  // Classes are also made by the system (storyboards, extensions' principal classes), never by name.
                  !declaration.is(ClassDeclSyntax.self),
                  let group = declaration.asProtocol(WithModifiersSyntax.self), let attributed = declaration.asProtocol(WithAttributesSyntax.self) {
            (modifiers, attributes, name) = (group.modifiers, attributed.attributes, type.name)
        } else {
            return nil
        }
        guard let name, case .identifier(let text) = name.tokenKind else { return nil }
        let systemModifiers: Set<String> = ["override", "public", "open", "dynamic"]
        if modifiers?.contains(where: { systemModifiers.contains($0.name.text) }) == true { return nil }
        let systemAttributes: Set<String> = ["objc", "main", "UIApplicationMain", "NSApplicationMain", "IBAction", "IBOutlet", "NSManaged", "IBSegueAction"]
        if attributes?.contains(where: { $0.as(AttributeSyntax.self).map { systemAttributes.contains($0.attributeName.trimmedText) } ?? false }) == true { return nil }
        return text
    }

    private static func isPreviewProvider(_ declaration: DeclSyntax) -> Bool {
        declaration.asProtocol(DeclGroupSyntax.self)?.inheritanceClause?.inheritedTypes.contains { $0.type.trimmedText == "PreviewProvider" } ?? false
    }

    /// The DEBUG place behind every use of `name` in the app, or nil if one use may ship or there is none.
    private mutating func entryOfEveryUse(of name: String, declaredBy declaration: DeclSyntax) -> FileLocation? {
        var first: FileLocation?
        var count = 0
        for source in sources where ByteSearch.contains(source.file.text, name) {
            for position in SyntaxIndex.shared.identifiers(in: Syntax(source.tree))[name] ?? [] {
                guard let token = source.tree.token(at: position), !Self.declares(token) else { continue }
                count += 1
                guard count <= Self.maxUses, let entry = entry(above: Syntax(token), in: source) else { return nil }
                if first == nil { first = entry }
            }
        }
        return first
    }

    /// Whether the token is the name of a declaration (another overload, a protocol requirement):
    /// not a use.
    private static func declares(_ token: TokenSyntax) -> Bool {
        guard let parent = token.parent else { return false }
        if let pattern = parent.as(IdentifierPatternSyntax.self) { return pattern.parent?.is(PatternBindingSyntax.self) ?? false }
        return parent.asProtocol(NamedDeclSyntax.self)?.name.id == token.id
    }

    /// `x` in `.sheet(isPresented: $x)`.
    private func presentationFlag(_ call: FunctionCallExprSyntax) -> String? {
        guard let argument = call.arguments.first(where: { $0.label?.text == "isPresented" }) else { return nil }
        var expression = argument.expression
        if let member = expression.as(MemberAccessExprSyntax.self), member.base?.trimmedText == "self" { expression = ExprSyntax(member.declName) }
        guard let reference = expression.as(DeclReferenceExprSyntax.self) else { return nil }
        let text = reference.baseName.text
        return text.hasPrefix("$") ? String(text.dropFirst()) : nil
    }

    /// The DEBUG place behind every place that can set the flag: all its uses but its declaration,
    /// the presenting modifier's binding and `flag = false`.
    private mutating func flagSetOnlyInDebug(_ flag: String, presentedBy call: FunctionCallExprSyntax, in presenter: ParsedSource) -> FileLocation? {
        var first: FileLocation?
        for name in [flag, "$" + flag] {
            for source in sources where ByteSearch.contains(source.file.text, flag) {
                for position in SyntaxIndex.shared.identifiers(in: Syntax(source.tree))[name] ?? [] {
                    guard let token = source.tree.token(at: position) else { continue }
                    // A flag that starts true, or is kept across launches, is set by shipping code.
                    if Self.declares(token) {
                        if !Self.startsFalse(token) { return nil }
                        continue
                    }
                    // Its own binding, and whatever the presented content does with it.
                    // (Not the view it is attached to: `List { … }.sheet(…)` has the setters in `List`.)
                    if source.file.path == presenter.file.path, Self.presented(by: call, encloses: token) { continue }
                    if Self.isClearing(token) { continue }
                    guard let entry = entry(above: Syntax(token), in: source) else { return nil }
                    if first == nil { first = entry }
                }
            }
        }
        return first
    }

    /// Whether `token` is in the call's arguments or trailing closures.
    private static func presented(by call: FunctionCallExprSyntax, encloses token: TokenSyntax) -> Bool {
        call.arguments.encloses(token) || call.trailingClosure?.encloses(token) == true
            || call.additionalTrailingClosures.contains { $0.encloses(token) }
    }

    /// `@State private var flag = false`: not stored across launches, and false until set.
    private static func startsFalse(_ name: TokenSyntax) -> Bool {
        guard let binding = name.parent?.parent?.as(PatternBindingSyntax.self), let variable = binding.parent?.parent?.as(VariableDeclSyntax.self) else {
            return false
        }
        let stored = variable.attributes.contains { $0.as(AttributeSyntax.self).map { ["AppStorage", "SceneStorage"].contains($0.attributeName.trimmedText) } ?? false }
        return !stored && binding.initializer?.value.trimmedText == "false"
    }

    /// `flag = false`.
    private static func isClearing(_ token: TokenSyntax) -> Bool {
        guard let reference = token.parent?.as(DeclReferenceExprSyntax.self), let sequence = reference.parent?.parent?.as(SequenceExprSyntax.self) else { return false }
        return ExprShape.assignments(in: sequence).contains { $0.node.id == sequence.id && $0.lhs.id == reference.id && $0.rhs.single?.trimmedText == "false" }
    }
}
