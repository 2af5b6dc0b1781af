import Manifest

/// kingstinct's `getRequestStatusForAuthorization` (and the status of `useHealthkitAuthorization`)
/// answers `unnecessary` once the sheet was shown, whatever the person chose. Comparing it with
/// `unnecessary` to decide "asked already, load the data" is right; recording that comparison as a
/// grant (`setIsAuthorized(status === …unnecessary)`, `hasAccess = true` in its branch, a
/// `hasHealthPermission()` returning it) reports a declined read as allowed.
struct RequestStatusRecord {
    /// The token where the grant is recorded, and its name.
    let sink: Int
    let record: String

    static func find(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> RequestStatusRecord? {
        guard call.library == .kingstinct, let status = statusName(call, in: file) else { return nil }
        let scope = status.scope
        for index in scope where file.tokens[index].isIdentifier(status.name) && !isMember(index, in: file) {
            guard let comparison = comparisonWithUnnecessary(at: index, in: file) else { continue }
            if let found = recordedValue(comparison, in: file) ?? recordedInBranch(comparison, in: file) { return found }
        }
        return nil
    }

    /// The name holding the answer and the tokens where it is in scope: `const s = await
    /// getRequestStatusForAuthorization(…)` in its function, or `const [status, request] =
    /// useHealthkitAuthorization(…)` in the component.
    private static func statusName(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile) -> (name: String, scope: Range<Int>)? {
        let tokens = file.tokens
        guard let close = file.partner[call.paren] else { return nil }
        let body = RequestResultAsGrantRule.enclosingBody(of: call.token, in: file)
        let after = (close + 1)..<max(close + 1, body.upperBound)
        switch call.method {
        case "getRequestStatusForAuthorization":
            return call.resultName(in: file).map { ($0, after) }
        case "useHealthkitAuthorization":
            let before = file.chain(endingAt: call.token).start - 1
            guard before >= 1, tokens[before].isPunctuator("="), tokens[before - 1].isPunctuator("]"),
                  let open = file.partner[before - 1], let first = file.items(of: open).first, first.count == 1,
                  tokens[first.lowerBound].kind == .identifier else { return nil }
            return (tokens[first.lowerBound].text, after)
        default:
            return nil
        }
    }

    private static func isMember(_ index: Int, in file: JavaScriptFile) -> Bool {
        index >= 1 && (file.tokens[index - 1].isPunctuator(".") || file.tokens[index - 1].isPunctuator("?."))
    }

    /// `status === X.unnecessary` or `X.unnecessary === status` (`==` too; `2` is its raw value): the
    /// token range of the comparison.
    private static func comparisonWithUnnecessary(at index: Int, in file: JavaScriptFile) -> ClosedRange<Int>? {
        let tokens = file.tokens
        func isUnnecessary(_ range: ClosedRange<Int>) -> Bool {
            guard range.lowerBound >= 0, range.upperBound < tokens.count else { return false }
            let last = tokens[range.upperBound]
            return last.isIdentifier("unnecessary") || (range.count == 1 && last.kind == .number && last.text == "2")
        }
        func isEquality(_ i: Int) -> Bool { i >= 0 && i < tokens.count && (tokens[i].isPunctuator("===") || tokens[i].isPunctuator("==")) }
        if isEquality(index + 1), index + 2 < tokens.count {
            let end = tokens[index + 2].kind == .identifier ? file.chain(startingAt: index + 2).end : index + 2
            if isUnnecessary((index + 2)...end) { return index...end }
        }
        if isEquality(index - 1), index >= 2 {
            let start = tokens[index - 2].kind == .identifier ? file.chain(endingAt: index - 2).start : index - 2
            if isUnnecessary(start...(index - 2)) { return start...index }
        }
        return nil
    }

    /// The comparison's value kept under a grant name: `const isAuthorized = …`, `setHasAccess(…)`,
    /// `{ authorized: … }`, or returned by a function named so.
    private static func recordedValue(_ comparison: ClosedRange<Int>, in file: JavaScriptFile) -> RequestStatusRecord? {
        let tokens = file.tokens
        var previous = comparison.lowerBound - 1
        var last = comparison.upperBound
        // Grouping parentheses only: `setGranted(…)`'s are a call, `if (…)`'s a condition.
        while previous >= 1, tokens[previous].isPunctuator("("), file.partner[previous] == last + 1, !file.isConditionParen(previous),
              tokens[previous - 1].kind == .punctuator, !tokens[previous - 1].isCloser {
            previous -= 1
            last += 1
        }
        guard previous >= 1 else { return nil }
        // The comparison must be the whole value: `setTitle(status === …unnecessary ? 'a' : 'b')` keeps a title.
        if last + 1 < tokens.count {
            let next = tokens[last + 1]
            guard [")", ",", ";", "}"].contains(where: next.isPunctuator) || next.line > tokens[last].line else { return nil }
        }
        let token = tokens[previous]
        var nameIndex = previous - 1
        // `const hasAccess: boolean = …`: the name before the TypeScript annotation.
        if token.isPunctuator("="), previous >= 3, tokens[previous - 2].isPunctuator(":"), tokens[previous - 3].kind == .identifier {
            nameIndex = previous - 3
        }
        let name = tokens[nameIndex]
        if token.isPunctuator("=") || token.isPunctuator(":"), name.kind == .identifier || name.kind == .string, GrantNames.says(name.value) {
            return RequestStatusRecord(sink: nameIndex, record: name.value)
        }
        if token.isPunctuator("("), name.kind == .identifier, GrantNames.says(name.text) {
            return RequestStatusRecord(sink: previous - 1, record: name.text)
        }
        if token.isIdentifier("return"), let function = functionName(around: previous, in: file), GrantNames.says(function) {
            return RequestStatusRecord(sink: previous, record: function)
        }
        return nil
    }

    /// `if (status === …unnecessary) { setAuthorized(true) }` / `{ granted = true }`.
    private static func recordedInBranch(_ comparison: ClosedRange<Int>, in file: JavaScriptFile) -> RequestStatusRecord? {
        let tokens = file.tokens
        guard let open = file.parent[comparison.lowerBound], file.isConditionParen(open), let close = file.partner[open],
              close + 1 < tokens.count, tokens[close + 1].isPunctuator("{"), let end = file.partner[close + 1] else { return nil }
        for i in (close + 2)..<end where i + 2 < end && tokens[i].kind == .identifier && GrantNames.says(tokens[i].text) {
            let setter = tokens[i + 1].isPunctuator("(") && tokens[i + 2].isIdentifier("true")
            let assignment = tokens[i + 1].isPunctuator("=") && tokens[i + 2].isIdentifier("true")
            if setter || assignment { return RequestStatusRecord(sink: i, record: tokens[i].text) }
        }
        // `return "granted"`, or `return true` from a function named as a grant (`hasHealthAccess`).
        for i in (close + 2)..<end where tokens[i].isIdentifier("return") && i + 1 < end {
            let value = tokens[i + 1]
            if value.kind == .string, GrantNames.says(value.value) { return RequestStatusRecord(sink: i, record: "\"\(value.value)\"") }
            if value.isIdentifier("true"), let function = functionName(around: i, in: file), GrantNames.says(function) {
                return RequestStatusRecord(sink: i, record: function)
            }
        }
        return nil
    }

    /// The name of the function whose body holds `index` — `function hasAccess(…) {`, `const
    /// hasAccess = async (…) => {`, a method `hasAccess(…) {`, with a TypeScript return type or not —
    /// past the blocks of `if`, `else`, `try` and loops inside it.
    private static func functionName(around index: Int, in file: JavaScriptFile) -> String? {
        let tokens = file.tokens
        var open = file.parent[index]
        while let brace = open {
            defer { open = file.parent[brace] }
            guard tokens[brace].isPunctuator("{"), brace >= 1 else { continue }
            var i = brace - 1
            if tokens[i].isPunctuator("=>") { i -= 1 }
            // A return type: `): Promise<boolean> {` — back to the `:` that follows the parameters.
            if !tokens[i].isPunctuator(")") {
                var j = i, steps = 0
                while j > 0, steps < 12, !tokens[j].isPunctuator(":"), !tokens[j].isPunctuator("{"), !tokens[j].isPunctuator(";") { j -= 1; steps += 1 }
                guard j >= 1, tokens[j].isPunctuator(":"), tokens[j - 1].isPunctuator(")") else { continue }
                i = j - 1
            }
            guard tokens[i].isPunctuator(")"), let paren = file.partner[i], paren >= 1 else { continue }
            var name = paren - 1
            if tokens[name].isIdentifier("async") { name -= 1 }
            if name >= 0, tokens[name].isPunctuator("=") { name -= 1 }
            guard name >= 0, tokens[name].kind == .identifier else { continue }
            // `if (…) {`, `for (…) {`, `catch (e) {`: a block inside the function, not the function.
            if ["if", "while", "for", "switch", "catch", "with"].contains(tokens[name].text) { continue }
            return tokens[name].text == "function" ? nil : tokens[name].text
        }
        return nil
    }
}
