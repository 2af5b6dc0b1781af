import SwiftSyntax

/// Code a target does not compile: inside an `#if` clause whose condition is false for the
/// target's compilation conditions (`#if !WIDGET && !WATCH_WIDGET` in a widget that defines
/// `WIDGET`), or after an earlier clause of the same `#if` that is true. A file several targets
/// share then makes different calls in each: the app asks for authorization, its widget does not.
///
/// Decided only where the condition is known: names the target defines or not, `!`, `&&`, `||`
/// and parentheses. `DEBUG` is left to `DebugOnlyCode` (the audited configuration is a release
/// build, and debug-only code is reported as such), and `os(…)`, `canImport(…)`, `swift(…)` or
/// `targetEnvironment(…)` are unknown: code under them is kept.
enum CompiledOutCode {
    /// Whether `node` is not compiled for a target with `conditions`.
    static func excludes(_ node: some SyntaxProtocol, conditions: Set<String>) -> Bool {
        var child = Syntax(node)
        var parent = child.parent
        while let current = parent {
            // Inside the clause's code (not its `#if` keyword or condition).
            if let clause = current.as(IfConfigClauseSyntax.self), child.id != clause.poundKeyword.id, child.id != clause.condition.map({ Syntax($0).id }),
               let block = clause.parent?.parent?.as(IfConfigDeclSyntax.self), isInactive(clause, of: block, conditions: conditions) {
                return true
            }
            child = current
            parent = current.parent
        }
        return false
    }

    /// A clause is inactive when its own condition is false, or an earlier clause's is true.
    private static func isInactive(_ clause: IfConfigClauseSyntax, of block: IfConfigDeclSyntax, conditions: Set<String>) -> Bool {
        for other in block.clauses {
            if other.id == clause.id {
                // `#else` has no condition: active unless an earlier clause was (checked above).
                guard let condition = other.condition else { return false }
                return evaluate(condition, conditions) == false
            }
            guard let condition = other.condition else { return false }
            if evaluate(condition, conditions) == true { return true }
        }
        return false
    }

    /// true, false, or nil when the condition cannot be decided from names alone.
    static func evaluate(_ expr: ExprSyntax, _ conditions: Set<String>) -> Bool? {
        if let name = expr.as(DeclReferenceExprSyntax.self)?.baseName.text {
            if name == "DEBUG" { return nil }
            return conditions.contains(name)
        }
        if let boolean = expr.as(BooleanLiteralExprSyntax.self) { return boolean.literal.tokenKind == .keyword(.true) }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return evaluate(prefix.expression, conditions).map { !$0 }
        }
        if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return evaluate(only.expression, conditions)
        }
        if let infix = expr.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text {
            return combine(evaluate(infix.leftOperand, conditions), op, evaluate(infix.rightOperand, conditions))
        }
        // Unfolded: `A && !B || C` as a sequence; `&&` binds tighter than `||`.
        if let sequence = expr.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            var disjuncts: [[ExprSyntax]] = [[]]
            for (index, element) in elements.enumerated() {
                if index % 2 == 1 {
                    guard let op = element.as(BinaryOperatorExprSyntax.self)?.operator.text, op == "&&" || op == "||" else { return nil }
                    if op == "||" { disjuncts.append([]) }
                } else {
                    disjuncts[disjuncts.count - 1].append(element)
                }
            }
            var result: Bool? = false
            for conjuncts in disjuncts {
                var all: Bool? = true
                for operand in conjuncts { all = combine(all, "&&", evaluate(operand, conditions)) }
                result = combine(result, "||", all)
            }
            return result
        }
        return nil
    }

    /// Three-valued `&&` / `||`: a false (true) side decides `&&` (`||`) whatever the other is.
    private static func combine(_ left: Bool?, _ op: String, _ right: Bool?) -> Bool? {
        switch op {
        case "&&":
            if left == false || right == false { return false }
            return left == true && right == true ? true : nil
        case "||":
            if left == true || right == true { return true }
            return left == false && right == false ? false : nil
        default:
            return nil
        }
    }
}
