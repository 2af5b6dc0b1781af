import Manifest
import SwiftSyntax

/// A call found in source: the call node, the name called (`requestAuthorization`), and where.
public struct CallSite: Sendable {
    public let call: FunctionCallExprSyntax
    public let name: String
    public let source: ParsedSource

    public var location: FileLocation { source.location(of: call) }
    public var quote: String { source.quote(call) }
    /// Argument labels in order (`toShare`, `read`, `completion`), nil for unlabeled ones.
    public var labels: [String?] { call.arguments.map { $0.label?.text } }
}

/// Small structural queries over parsed sources shared by rules and answers.
public enum SourceQuery {
    /// Every call whose called name (the last member, `x.y.name(...)`, or a bare `name(...)`) is in `names`.
    public static func calls(named names: Set<String>, in sources: [ParsedSource]) -> [CallSite] {
        sources.flatMap { source in
            source.calls(named: names).compactMap { call in ExprShape.calledName(call).map { CallSite(call: call, name: $0, source: source) } }
        }
    }

    /// The name a call invokes: `store.requestAuthorization(...)` → `requestAuthorization`.
    public static func calledName(_ call: FunctionCallExprSyntax) -> String? {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        return nil
    }
}
