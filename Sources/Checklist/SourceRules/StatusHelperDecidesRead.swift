import SwiftSyntax

/// The app's own function that asks `authorizationStatus(for:)` (`isAuthorized()`, a request wrapper
/// that checks the status once the sheet closed) and whose outcome decides a read in its caller: the
/// caller reads only when the call's result is tested (`if let error = requestAuthorization() { return }`,
/// `guard isAuthorized() else { return }`) or only in a branch of its completion
/// (`requestAuthorisation { result in switch result { case .success: query … } }`). Write status used to
/// decide a read, one call away — question 3's anti-pattern "also when the read happens inside the app's
/// own method".
struct StatusHelperDecidesRead {
    let source: ParsedSource
    /// The helper's call in the caller.
    let call: FunctionCallExprSyntax
    let helper: String
    /// The status call the helper rests on, `File.swift:line`.
    let statusPlace: String
    /// The read it decides, and its line.
    let read: String
    let readLine: Int

    static func findings(_ context: AuditContext) -> [StatusHelperDecidesRead] {
        // HealthKit's own checks only (not `PHPhotoLibrary.authorizationStatus(for:)`, Core Motion's or
        // SensorKit's): the usage facts decided that once, and a helper must rest on one of them.
        let healthKitChecks = Set(context.usage.facts.filter { $0.kind == .statusCheck }.map(\.evidence.location))
        guard !healthKitChecks.isEmpty else { return [] }
        let helpers = context.statusHelpers.compactMapValues { list in
            list.flattened.first { healthKitChecks.contains($0.location) }
        }
        guard !helpers.isEmpty else { return [] }
        // A read of HealthKit itself, or the app's own function that reaches one (not any name that sounds like one: `refreshUI()`).
        let readers = context.appReaders
        let reads = { (call: FunctionCallExprSyntax) -> Bool in HealthKitVocabulary.isFrameworkRead(call) || readers.read(reachedBy: call) != nil }
        let vocabulary = context.vocabulary
        var found: [StatusHelperDecidesRead] = []
        var seen: Set<String> = []
        for source in context.sources where !source.isDependency {
            for name in helpers.keys.sorted() {
                for call in source.calls(named: name) {
                    // HealthKit's own request, or another framework's method of the same name (`PHPhotoLibrary.requestAuthorization`), is not the helper.
                    guard !vocabulary.isAuthorizationRequest(call), !HealthKitVocabulary.isOtherFrameworkReceiver(ExprShape.base(of: call)),
                          let place = helpers[name]?.location, let decided = decidedRead(by: call, reads: reads),
                          seen.insert("\(source.file.path):\(call.position.utf8Offset)").inserted else { continue }
                    let status = "\(place.file.split(separator: "/").last.map(String.init) ?? place.file):\(place.line ?? 0)"
                    found.append(StatusHelperDecidesRead(source: source, call: call, helper: name, statusPlace: status,
                                                         read: decided.calledExpression.trimmedText, readLine: source.lineOf(decided)))
                }
            }
        }
        return found
    }

    /// The HealthKit read that runs only as the helper's result decides, or nil.
    private static func decidedRead(by call: FunctionCallExprSyntax, reads: (FunctionCallExprSyntax) -> Bool) -> FunctionCallExprSyntax? {
        // In its completion: a read in a branch (`switch result`, `if success`, after `guard`), with no write beside it.
        if let closure = ClosureShape.completion(of: call) {
            let calls = closure.statements.calls
            guard !calls.contains(where: HealthKitVocabulary.isWrite), let read = calls.first(where: reads) else { return nil }
            // The branch must test what the helper handed back (its completion's parameters).
            var names = Set(ClosureShape.parameterNames(closure).filter { $0 != "_" })
            if names.isEmpty { names = ["$0", "$1"] }
            func testsResult(_ node: some SyntaxProtocol) -> Bool { node.tokens(viewMode: .sourceAccurate).contains { names.contains($0.text) } }
            let branches = Syntax(read).ancestors.prefix { $0.id != Syntax(closure).id }
            let decided = branches.contains { branch in
                if let switchExpression = branch.as(SwitchExprSyntax.self) { return testsResult(switchExpression.subject) }
                if let ifExpression = branch.as(IfExprSyntax.self) { return testsResult(ifExpression.conditions) }
                return false
            } || closure.statements.contains { item in
                guard let guardStatement = item.item.as(GuardStmtSyntax.self), item.position < read.position else { return false }
                return testsResult(guardStatement.conditions)
            }
            return decided ? read : nil
        }
        // Its result tested: `if let error = helper() { return … }` / `guard helper() else { return }`, then a read in the same block.
        guard let condition = Syntax(call).ancestors.first(where: { $0.is(ConditionElementSyntax.self) }),
              let statement = condition.ancestors.first(where: { $0.is(CodeBlockItemSyntax.self) })?.as(CodeBlockItemSyntax.self),
              let list = statement.parent?.as(CodeBlockItemListSyntax.self) else { return nil }
        // A `guard` on the answer leaves unless it holds; an `if` decides its own body, and what follows
        // it when the body leaves the function (`return`, `throw`).
        if let ifExpression = statement.item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self) ?? statement.item.as(IfExprSyntax.self) {
            let body = ifExpression.body.statements
            if !body.calls.contains(where: HealthKitVocabulary.isWrite), let read = body.calls.first(where: reads) { return read }
            guard body.contains(where: { $0.item.is(ReturnStmtSyntax.self) || $0.item.is(ThrowStmtSyntax.self) }) else { return nil }
        } else if !statement.item.is(GuardStmtSyntax.self) {
            return nil
        }
        let after = list.filter { $0.position > statement.position }
        let calls = after.flatMap(\.calls)
        guard !calls.contains(where: HealthKitVocabulary.isWrite) else { return nil }
        return calls.first(where: reads)
    }
}
