import Manifest
import SwiftSyntax

/// The app's own Swift functions that read HealthKit and write nothing, by name, each with the
/// HealthKit read it reaches: a status check guarding a call of one decides a read exactly as one
/// around the query itself would (`if status == .sharingAuthorized { updateRates() }`). Followed
/// two calls deep (`refresh()` → `updateRates()` → `store.execute(query)`).
struct AppReadingFunctions: Sendable {
    /// Function name → the read it reaches: its evidence (file and line as written).
    private(set) var reads: [String: Evidence] = [:]

    /// Built once per app (`AuditContext.appReaders`) for the rules that follow a status into a read.
    init(usage: HealthKitUsage, sources: [ParsedSource]) {
        var writers: Set<String> = []
        for fact in usage.facts where fact.kind == .write {
            if case .syntax(let node)? = fact.site, let name = Self.functionName(around: node) { writers.insert(name) }
        }
        // A function that also calls one of the app's writers decides a write as well: not a reader.
        let writes = { (call: FunctionCallExprSyntax) -> Bool in
            guard let name = ExprShape.calledName(call) else { return false }
            return writers.contains(name) || (["save", "delete"].contains(name) && !call.arguments.isEmpty)
        }
        let writesThroughApp = { (node: Syntax) -> Bool in
            guard let function = node.ancestors.lazy.compactMap({ $0.as(FunctionDeclSyntax.self) }).first, let body = function.body else { return false }
            return body.calls.contains(where: writes)
        }
        for fact in usage.facts where fact.kind == .read && !fact.isDependency {
            guard case .syntax(let node)? = fact.site, let name = Self.functionName(around: node), !writers.contains(name) else { continue }
            if reads[name] == nil, !writesThroughApp(node) { reads[name] = fact.evidence }
        }
        guard !reads.isEmpty else { return }
        // One level further: the app's functions that call a reader and write nothing.
        var callers: [String: Evidence] = [:]
        let direct = reads
        for source in sources where !source.isDependency {
            for function in source.tree.collect(FunctionDeclSyntax.self) where direct[function.name.text] == nil && !writers.contains(function.name.text) {
                guard let body = function.body, let evidence = body.calls.lazy.compactMap({ ExprShape.calledName($0).flatMap { direct[$0] } }).first,
                      !body.calls.contains(where: writes) else { continue }
                callers[function.name.text] = callers[function.name.text] ?? evidence
            }
        }
        reads.merge(callers) { first, _ in first }
    }

    /// The read an app call reaches, when the called function is one of the app's readers.
    func read(reachedBy call: FunctionCallExprSyntax) -> Evidence? {
        ExprShape.calledName(call).flatMap { reads[$0] }
    }

    /// The named function (not an initializer or accessor) whose body holds the node.
    private static func functionName(around node: Syntax) -> String? {
        for ancestor in node.ancestors {
            if let function = ancestor.as(FunctionDeclSyntax.self) { return function.name.text }
            if ancestor.is(InitializerDeclSyntax.self) || ancestor.is(AccessorBlockSyntax.self) { return nil }
        }
        return nil
    }
}
