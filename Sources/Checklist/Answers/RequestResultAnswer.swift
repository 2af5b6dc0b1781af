import Manifest
import SwiftSyntax

/// Question 2: is the `requestAuthorization` completion handler correctly interpreted? The rules
/// that trace a request's result (stored as "authorized", gating access, shown as connected,
/// turned into a denial) answer no, citing where. Otherwise each request is cited with what is done
/// with its result: not read at all, or read at a place the answer names.
struct RequestResultAnswer {
    let facts: AnswerFacts

    func answer() -> Answer {
        if let broken = facts.fromFindings(.completionInterpreted) { return broken }
        let calls = facts.calls
        guard !calls.isEmpty else { return facts.noCalls(.completionInterpreted) }
        let requests = facts.shipping(.authorizationRequest)
        guard !requests.isEmpty else {
            return Answer(question: .completionInterpreted, status: .cannotTell, claims: [
                .citing("HealthKit is used", calls.map(\.evidence), limit: 2),
                .stating("but no authorization request is in the code the audit read (\(facts.codeRead)), so what is done with its result "
                         + "cannot be seen: the request is made in code it could not read or follow (a wrapper library or a dependency)"),
            ])
        }
        let uses = requests.map { RequestResultUse.of($0, in: facts.context) }
        var claims: [Claim] = []
        let unread = zip(requests, uses).filter { $0.1 == nil }.map { $0.0.evidence }
        if !unread.isEmpty {
            claims.append(.citing("\(Plural.count(unread.count, "authorization request")) whose result is not read", unread))
        }
        let read = uses.compactMap { $0 }
        if !read.isEmpty {
            claims.append(.citing("the result of \(Plural.count(read.count, "request")) is read, and no rule finds it stored, shown or used as a grant or a denial", read))
        }
        return Answer(question: .completionInterpreted, status: .yes, claims: claims)
    }
}

/// Where the code reads a request's result (its success flag, its completion's parameters, the
/// value it resolves to), or nil when the result is not read at all.
enum RequestResultUse {
    static func of(_ request: HealthKitFact, in context: AuditContext) -> Evidence? {
        switch request.site {
        case .syntax(let node)?:
            guard let call = node.as(FunctionCallExprSyntax.self),
                  let source = context.sources.first(where: { $0.file.path == request.evidence.location.file }) else { return request.evidence }
            return swiftUse(call, source)
        case .token(let language, let file, let token)?:
            let files = language == .dart ? context.manifest.dartSources : context.manifest.javaScriptSources
            let calls = language == .dart ? context.dartCalls : context.javaScriptCalls
            guard files.indices.contains(file), let call = calls.first(where: { $0.file == file && $0.token == token }) else { return request.evidence }
            return scriptUse(call, files[file]) ? request.evidence : nil
        case nil:
            return request.evidence
        }
    }

    /// Swift: the completion's parameters used, or the call's own value bound, tested or returned
    /// (an app wrapper returning the flag); `try await store.requestAuthorization(…)` returns nothing.
    private static func swiftUse(_ call: FunctionCallExprSyntax, _ source: ParsedSource) -> Evidence? {
        let evidence = { (node: any SyntaxProtocol) in Evidence(location: source.location(of: node), quote: source.quote(node)) }
        if let closure = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self) {
            let parameters = closure.signature?.parameterClause.map { clause -> [String] in
                if let list = clause.as(ClosureShorthandParameterListSyntax.self) { return list.map(\.name.text) }
                if let list = clause.as(ClosureParameterClauseSyntax.self) { return list.parameters.map { $0.localName } }
                return []
            } ?? []
            let names = parameters.isEmpty ? ["$0", "$1"] : parameters.filter { $0 != "_" }
            let use = closure.statements.tokens(viewMode: .sourceAccurate).first { token in names.contains(token.text) }
            return use.map(evidence)
        }
        // A completion passed by name: the named function reads it.
        if let last = call.arguments.last, last.label?.text == "completion" || last.label?.text == "completionHandler" { return evidence(call) }
        var node = Syntax(call).parent
        while let current = node, !current.is(CodeBlockItemSyntax.self), !current.is(ClosureExprSyntax.self) {
            if current.is(InitializerClauseSyntax.self) || current.is(ConditionElementSyntax.self) || current.is(ReturnStmtSyntax.self)
                || current.is(InfixOperatorExprSyntax.self) || current.is(LabeledExprSyntax.self) {
                return evidence(call)
            }
            node = current.parent
        }
        return nil
    }

    /// JavaScript / Dart: the resolved value bound or tested, or a callback handed the result.
    private static func scriptUse(_ call: JavaScriptHealthKitCall, _ file: JavaScriptFile) -> Bool {
        if call.resultName(in: file) != nil || JavaScriptHealthKitFacts.decides(call, in: file) { return true }
        let tokens = file.tokens
        guard let close = file.partner[call.paren] else { return false }
        // `.then(result => …)` after the call, or a function among its arguments.
        if close + 2 < tokens.count, tokens[close + 1].isPunctuator("."), tokens[close + 2].isIdentifier("then") { return true }
        return ((call.paren + 1)..<close).contains { tokens[$0].isPunctuator("=>") || tokens[$0].isIdentifier("function") }
    }
}
