import Manifest
import SwiftSyntax

/// Error messages are for people; `HKError.Code` is for code.
struct AuthorizationFromErrorTextRule: Rule {
    static let description = RuleDescription(
        id: "authorization-from-error-text", title: "Authorization decided from error text", severity: .error,
        questions: [.completionInterpreted], reads: [.swift],
        rationale: """
        Matching `localizedDescription` against "not authorized" or "denied" misses the other wordings HealthKit \
        uses — "Authorization not determined" (code 5) is the usual one on first launch — and breaks with every \
        language and OS release. When the other branch treats any other error as "access granted", an app that was \
        never authorized believes it is. Compare `(error as? HKError)?.code` with `.errorAuthorizationDenied` and \
        `.errorAuthorizationNotDetermined` instead.
        """,
        triggering: [
            .healthApp(["Sources/Probe.swift": """
            import HealthKit

            struct Probe {
                let store: HKHealthStore

                func canRead(_ type: HKSampleType) async -> Bool {
                    await withCheckedContinuation { continuation in
                        let query = HKSampleQuery(sampleType: type, predicate: nil, limit: 1, sortDescriptors: nil) { _, _, error in
                            if let error {
                                let message = error.localizedDescription.lowercased()
                                if message.contains("not authorized") || message.contains("denied") {
                                    continuation.resume(returning: false)
                                } else {
                                    continuation.resume(returning: true)
                                }
                            } else {
                                continuation.resume(returning: true)
                            }
                        }
                        store.execute(query)
                    }
                }
            }
            """]),
            .healthApp(["Sources/Sync.swift": """
            import HealthKit

            func describe(_ error: Error) -> String {
                if error.localizedDescription == "Authorization not determined" {
                    return "Open the app to connect Health."
                }
                return "Sync failed."
            }
            """]),
        ],
        nonTriggering: [
            .healthApp(["Sources/Sync.swift": """
            import HealthKit

            func describe(_ error: Error) -> String {
                switch (error as? HKError)?.code {
                case .errorAuthorizationNotDetermined?: return "Open the app to connect Health."
                case .errorAuthorizationDenied?: return "Turn on writing in Settings › Health."
                default: return "Sync failed: \\(error.localizedDescription)"
                }
            }
            """]),
            .healthApp(["Sources/Search.swift": """
            import Foundation

            // Text matching on something that is not an error is fine.
            func matches(_ title: String) -> Bool {
                title.localizedCaseInsensitiveContains("permission slip")
            }
            """]),
        ]
    )

    private static let matchers: Set<String> = [
        "contains", "hasPrefix", "hasSuffix", "range", "starts", "localizedCaseInsensitiveContains", "localizedStandardContains",
    ]

    func check(_ context: AuditContext) -> [Finding] {
        context.sources.flatMap { source -> [Finding] in
            var seen: Set<SyntaxIdentifier> = []
            var findings: [Finding] = []
            func report(_ node: some SyntaxProtocol, _ text: String) {
                // One finding per condition: `a.contains("x") || a.contains("y")` is one decision.
                let statement = node.ancestors.first { $0.is(IfExprSyntax.self) || $0.is(GuardStmtSyntax.self) || $0.is(CodeBlockItemSyntax.self) }
                guard seen.insert(statement?.id ?? Syntax(node).id).inserted else { return }
                var message = "authorization is decided by matching the error text against \"\(text)\"; HealthKit's wording varies "
                    + "(\"Authorization not determined\" is code 5) — compare `HKError.Code` instead"
                if let ifExpr = statement?.as(IfExprSyntax.self), ifExpr.conditions.encloses(node), let elseBody = ifExpr.elseBody,
                   elseBody.collect(BooleanLiteralExprSyntax.self).contains(where: { $0.literal.tokenKind == .keyword(.true) }) {
                    message += "; the else branch treats every other error as access granted"
                }
                findings.append(finding(message, at: node, in: source))
            }
            for call in source.calls(named: Self.matchers) {
                guard let name = ExprShape.calledName(call), Self.matchers.contains(name), let base = ExprShape.base(of: call),
                      let literal = call.arguments.first.flatMap({ ExprShape.stringLiteral($0.expression) }),
                      Self.isAuthorizationText(literal), isErrorText(base) else { continue }
                report(call, literal)
            }
            for sequence in source.tree.collect(SequenceExprSyntax.self) {
                guard let (lhs, op, rhs) = Operand(items: Array(sequence.elements)).binary, op == "==" || op == "!=" else { continue }
                for (side, other) in [(lhs, rhs), (rhs, lhs)] {
                    if let literal = ExprShape.stringLiteral(other), Self.isAuthorizationText(literal), isErrorText(side) { report(sequence, literal) }
                }
            }
            return findings
        }
    }

    static func isAuthorizationText(_ text: String) -> Bool {
        let lower = text.lowercased()
        return ["authoriz", "denied", "not determined", "permission", "not allowed", "access"].contains(where: lower.contains)
    }

    /// `error.localizedDescription(.lowercased())`, `String(describing: error)`, `"\(error)"`, or a local bound to one.
    private func isErrorText(_ expr: ExprSyntax, depth: Int = 0) -> Bool {
        let e = ExprShape.stripped(expr)
        if e.mentions(anyOf: ["localizedDescription", "localizedFailureReason", "localizedRecoverySuggestion"]) { return true }
        if let call = e.as(FunctionCallExprSyntax.self), ExprShape.calledName(call) == "String",
           ExprShape.labels(call).contains("describing") { return true }
        if let literal = e.as(StringLiteralExprSyntax.self), literal.segments.contains(where: { $0.is(ExpressionSegmentSyntax.self) }) {
            return literal.mentions { $0.lowercased().contains("error") }
        }
        if let member = e.as(MemberAccessExprSyntax.self), ["description", "debugDescription"].contains(member.declName.baseName.text),
           member.base?.mentions({ $0.lowercased().contains("error") }) == true { return true }
        // `let message = error.localizedDescription.lowercased()` … `message.contains(…)`
        if depth < 3, let ref = e.as(DeclReferenceExprSyntax.self) {
            let name = ref.baseName.text
            let function = SyntaxScope.function(of: ref)
            let binding = function.collect(PatternBindingSyntax.self).last {
                $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name && $0.position < ref.position
            }
            if let value = binding?.initializer?.value { return isErrorText(value, depth: depth + 1) }
        }
        // `message.lowercased().contains(…)`: look through the call chain to its root.
        if let call = e.as(FunctionCallExprSyntax.self), let base = ExprShape.base(of: call), depth < 3 { return isErrorText(base, depth: depth + 1) }
        return false
    }
}
