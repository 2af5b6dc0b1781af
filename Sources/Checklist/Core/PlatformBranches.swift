import Manifest

/// Code of a cross-platform app (JavaScript or Dart) that never runs on iOS: the branch a platform
/// test sends elsewhere (`if (Platform.OS === 'android') { … }`, `if (Platform.isAndroid) { … }`,
/// the `else` of `if (platform === 'ios')`, the other side of `isIOS ? … : …`), and what follows an
/// early exit taken on iOS in the same block (`if (getPlatform() === 'ios') return false;`).
/// Health Connect's calls there are not HealthKit's: nothing an iPhone runs is judged by them.
///
/// Only tests the code spells out count — a comparison with the string `'ios'` or `'android'`,
/// `Platform.isIOS` / `Platform.isAndroid`, `TargetPlatform.iOS` / `TargetPlatform.android` — never
/// a name that merely sounds like a platform.
enum PlatformBranches {
    /// Whether a platform test holds on iOS (the platform is fixed, so a test either always
    /// holds there or never does; negation is exact).
    enum Test: Equatable {
        case holdsOnIOS
        case failsOnIOS

        var negated: Test { self == .holdsOnIOS ? .failsOnIOS : .holdsOnIOS }
    }

    /// Whether token `index` is in code that cannot run on iOS.
    static func excludesIOS(_ index: Int, in file: JavaScriptFile) -> Bool {
        if ternaryBranch(of: index, in: file) == .failsOnIOS { return true }
        let tokens = file.tokens
        var inner = index
        var brace = file.parent[index]
        while let open = brace {
            defer { inner = open; brace = file.parent[open] }
            guard tokens[open].isPunctuator("{") else { continue }
            if blockTest(open, in: file) == .failsOnIOS || exitsOnIOS(before: inner, inBlock: open, in: file) { return true }
        }
        return false
    }

    /// Whether the block opening at `open` runs on iOS, as its `if` (or the `if`s an `else if`
    /// chain follows) decides: nil when no platform test decides it.
    private static func blockTest(_ open: Int, in file: JavaScriptFile) -> Test? {
        let tokens = file.tokens
        guard open >= 1 else { return nil }
        var before = open - 1
        var negate = false
        if tokens[before].isIdentifier("else") {
            // `… } else {`: runs when the `if` before it did not.
            guard before >= 1, tokens[before - 1].isPunctuator("}"), let thenOpen = file.partner[before - 1] else { return nil }
            before = thenOpen - 1
            negate = true
        }
        guard before >= 1, tokens[before].isPunctuator(")"), let paren = file.partner[before], paren >= 1, tokens[paren - 1].isIdentifier("if") else { return nil }
        let own = test((paren + 1)..<before, in: file).map { negate ? $0.negated : $0 }
        if own == .failsOnIOS { return own }
        // `if (ios) { … } else if (x) { … }`: the second `if` runs only where the first failed.
        let keyword = paren - 1
        if keyword >= 2, tokens[keyword - 1].isIdentifier("else"), tokens[keyword - 2].isPunctuator("}"), let previous = file.partner[keyword - 2] {
            let earlier = blockTest(previous, in: file)
            if earlier == .holdsOnIOS { return .failsOnIOS }
        }
        return own
    }

    /// Whether a statement of the block before `limit` is `if (<test that holds on iOS>) return …;`
    /// (or `throw`), ending before `limit`: nothing after it in the block runs on iOS.
    private static func exitsOnIOS(before limit: Int, inBlock open: Int, in file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        var k = open + 1
        while k < limit {
            defer { k += 1 }
            guard tokens[k].isIdentifier("if"), file.parent[k] == open, k + 1 < limit, tokens[k + 1].isPunctuator("("),
                  let close = file.partner[k + 1], close + 1 < limit, test((k + 2)..<close, in: file) == .holdsOnIOS else { continue }
            let braced = tokens[close + 1].isPunctuator("{")
            let first = braced ? close + 2 : close + 1
            guard first < limit, tokens[first].isIdentifier("return") || tokens[first].isIdentifier("throw") else { continue }
            if braced {
                if let end = file.partner[close + 1], end < limit { return true }
                continue
            }
            // The exit's own statement must end before `limit` (`if (ios) return read();` holds `read` itself).
            var end = first
            while end + 1 < limit, !tokens[end].isPunctuator(";") {
                if let partner = file.partner[end], partner > end { end = partner }
                if end + 1 < tokens.count, tokens[end + 1].line > tokens[end].line { break }
                end += 1
            }
            if end + 1 < limit { return true }
        }
        return false
    }

    /// `test ? a : b` around `index` (same nesting level): whether the branch holding it runs on iOS.
    private static func ternaryBranch(of index: Int, in file: JavaScriptFile) -> Test? {
        let tokens = file.tokens
        var k = index - 1
        var inElse = false
        while k >= 0 {
            let token = tokens[k]
            if token.isCloser, let open = file.partner[k] { k = open - 1; continue }
            if token.isOpener || Self.isBoundary(token) { return nil }
            if token.isPunctuator(":") { inElse = true }
            if token.isPunctuator("?") {
                var start = k - 1
                while start >= 0 {
                    if tokens[start].isCloser, let open = file.partner[start] { start = open - 1; continue }
                    if tokens[start].isOpener || Self.isBoundary(tokens[start]) || tokens[start].isPunctuator(":") || tokens[start].isPunctuator("?") { break }
                    start -= 1
                }
                guard let test = test((start + 1)..<k, in: file) else { return nil }
                return inElse ? test.negated : test
            }
            k -= 1
        }
        return nil
    }

    private static func isBoundary(_ token: JSToken) -> Bool {
        token.isPunctuator(";") || token.isPunctuator("=") || token.isPunctuator(",") || token.isPunctuator("=>")
            || token.isPunctuator("&&") || token.isPunctuator("||") || token.isIdentifier("return")
    }

    /// What a condition says about iOS, when it is a platform test (alone, parenthesized or negated).
    static func test(_ range: Range<Int>, in file: JavaScriptFile) -> Test? {
        let tokens = file.tokens
        var range = range
        while range.count >= 2, tokens[range.lowerBound].isPunctuator("("), file.partner[range.lowerBound] == range.upperBound - 1 {
            range = (range.lowerBound + 1)..<(range.upperBound - 1)
        }
        guard let first = range.first else { return nil }
        let level = file.parent[first]
        // Only a test that alone decides: no `&&` / `||` beside it.
        if range.contains(where: { file.parent[$0] == level && (tokens[$0].isPunctuator("&&") || tokens[$0].isPunctuator("||")) }) { return nil }
        if tokens[first].isPunctuator("!") { return test((first + 1)..<range.upperBound, in: file)?.negated }
        // `Platform.isIOS`, `Platform.isAndroid` (Dart).
        if range.count == 3, tokens[first].isIdentifier("Platform"), tokens[first + 1].isPunctuator(".") {
            if tokens[first + 2].isIdentifier("isIOS") { return .holdsOnIOS }
            if tokens[first + 2].isIdentifier("isAndroid") { return .failsOnIOS }
            return nil
        }
        // `x === 'ios'`, `'android' == x`, `defaultTargetPlatform == TargetPlatform.iOS`.
        for index in range where file.parent[index] == level {
            let token = tokens[index]
            let equal = token.isPunctuator("===") || token.isPunctuator("==")
            guard equal || token.isPunctuator("!==") || token.isPunctuator("!=") else { continue }
            let sides = [first..<index, (index + 1)..<range.upperBound]
            guard let platform = sides.lazy.compactMap({ platformNamed($0, in: file) }).first else { return nil }
            let whenEqual: Test = platform == "ios" ? .holdsOnIOS : .failsOnIOS
            return equal ? whenEqual : whenEqual.negated
        }
        return nil
    }

    /// `'ios'`, `"android"`, `TargetPlatform.iOS`: the platform a side names, lower-cased.
    private static func platformNamed(_ side: Range<Int>, in file: JavaScriptFile) -> String? {
        let tokens = file.tokens
        var value: String?
        if side.count == 1, tokens[side.lowerBound].kind == .string {
            value = tokens[side.lowerBound].value.lowercased()
        } else if side.count == 3, tokens[side.lowerBound].isIdentifier("TargetPlatform"), tokens[side.lowerBound + 1].isPunctuator(".") {
            value = tokens[side.lowerBound + 2].text.lowercased()
        }
        return value == "ios" || value == "android" ? value : nil
    }
}
