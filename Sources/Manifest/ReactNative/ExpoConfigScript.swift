/// An Expo `app.config.js` / `app.config.ts` read without running it: the literal it exports
/// (`export default { expo: … }`, `module.exports = …`, a function returning a literal, or a
/// variable holding one), as `LocatedJSON`. What is computed — a variable, `process.env.X`, a call,
/// a template with `${…}` — is left out and named, so the report says what it could not know.
struct ExpoConfigScript {
    let json: LocatedJSON
    /// Expressions left out, as written with their line.
    let computed: [(text: String, line: Int)]
    /// The result starts from app.json's config (`({ config }) => ({ ...config, … })`).
    let extendsStaticConfig: Bool

    init?(file: JavaScriptFile) {
        let tokens = file.tokens
        guard let (start, open) = Self.exportedLiteral(in: file) else { return nil }
        var reader = Reader(file: file)
        guard let value = reader.value(open..<((file.partner[open] ?? open) + 1)) else { return nil }
        json = value
        // Only the exported function's parameter (`config`, or `{ config }` destructured) is app.json's
        // config; any other spread is a value the script computes.
        var parameters: Set<String> = []
        if let paren = (start..<min(start + 4, tokens.count)).first(where: { tokens[$0].isPunctuator("(") }), let close = file.partner[paren] {
            parameters = Set((paren..<close).filter { tokens[$0].kind == .identifier }.map { tokens[$0].text })
        }
        extendsStaticConfig = reader.spreads.contains { parameters.contains($0.name) }
        computed = reader.computed + reader.spreads.filter { !parameters.contains($0.name) }.map { ("..." + $0.name, $0.line) }
    }

    /// Where the exported expression starts, and the `{` of the object literal it evaluates to.
    private static func exportedLiteral(in file: JavaScriptFile) -> (start: Int, open: Int)? {
        let tokens = file.tokens
        for index in tokens.indices {
            var start: Int?
            if tokens[index].isIdentifier("export"), index + 1 < tokens.count, tokens[index + 1].isIdentifier("default") { start = index + 2 }
            if tokens[index].isIdentifier("module"), index + 3 < tokens.count, tokens[index + 1].isPunctuator("."),
               tokens[index + 2].isIdentifier("exports"), tokens[index + 3].isPunctuator("=") { start = index + 4 }
            guard let start, start < tokens.count, let open = literal(startingAt: start, in: file, depth: 0) else { continue }
            return (start, open)
        }
        return nil
    }

    /// The object literal an expression evaluates to: `{…}`, `({…})`, a name bound to one, an
    /// arrow or function whose body returns one.
    private static func literal(startingAt start: Int, in file: JavaScriptFile, depth: Int) -> Int? {
        let tokens = file.tokens
        guard start < tokens.count, depth < 4 else { return nil }
        var i = start
        if tokens[i].isIdentifier("async") { i += 1 }
        guard i < tokens.count else { return nil }
        let token = tokens[i]
        if token.isPunctuator("{") { return i }
        if token.isIdentifier("function") {
            // `function name(params) { … return { … } }`, its result maybe typed: `(): ExpoConfig {`.
            var j = i + 1
            while j < tokens.count, !tokens[j].isPunctuator("(") { j += 1 }
            guard j < tokens.count, let close = file.partner[j] else { return nil }
            var body = close + 1
            if body < tokens.count, tokens[body].isPunctuator(":") {
                while body < tokens.count, body - close < 10, !tokens[body].isPunctuator("{") { body += 1 }
            }
            guard body < tokens.count, tokens[body].isPunctuator("{") else { return nil }
            return returned(inBody: body, of: file, depth: depth)
        }
        if token.isPunctuator("("), let close = file.partner[i] {
            // `({…})`, or an arrow's parameters: `({ config }) => …` / `(config: ConfigContext): ExpoConfig => …`
            var arrow = close + 1
            while arrow < tokens.count, !tokens[arrow].isPunctuator("=>"), !tokens[arrow].isPunctuator(";"), arrow - close < 12 { arrow += 1 }
            if arrow < tokens.count, tokens[arrow].isPunctuator("=>") {
                guard arrow + 1 < tokens.count else { return nil }
                if tokens[arrow + 1].isPunctuator("{") { return returned(inBody: arrow + 1, of: file, depth: depth) }
                return literal(startingAt: arrow + 1, in: file, depth: depth + 1)
            }
            return literal(startingAt: i + 1, in: file, depth: depth + 1)
        }
        if token.kind == .identifier {
            if i + 1 < tokens.count, tokens[i + 1].isPunctuator("=>") {
                return tokens.indices.contains(i + 2) && tokens[i + 2].isPunctuator("{") ? returned(inBody: i + 2, of: file, depth: depth)
                    : literal(startingAt: i + 2, in: file, depth: depth + 1)
            }
            // A name bound earlier: `const config = { … }` or `function config() { … }`.
            if let open = file.literal(boundTo: token.text, opener: "{", before: i) { return open }
            if let declared = tokens.indices.first(where: { $0 + 1 < tokens.count && tokens[$0].isIdentifier("function") && tokens[$0 + 1].isIdentifier(token.text) }) {
                return literal(startingAt: declared, in: file, depth: depth + 1)
            }
        }
        return nil
    }

    /// The literal the last top-level `return` of a body returns.
    private static func returned(inBody open: Int, of file: JavaScriptFile, depth: Int) -> Int? {
        guard let close = file.partner[open] else { return nil }
        let returns = (open..<close).filter { file.tokens[$0].isIdentifier("return") && file.parent[$0] == open }
        guard let last = returns.last else { return nil }
        return literal(startingAt: last + 1, in: file, depth: depth + 1)
    }

    /// Converts literal tokens into `LocatedJSON`, leaving out (and recording) what is computed.
    private struct Reader {
        let file: JavaScriptFile
        var computed: [(text: String, line: Int)] = []
        var spreads: [(name: String, line: Int)] = []

        mutating func value(_ range: Range<Int>) -> LocatedJSON? {
            let tokens = file.tokens
            guard !range.isEmpty else { return nil }
            // `{ … } as ExpoConfig`, `{ … } satisfies ExpoConfig`.
            let group = file.bracketGroup(range)
            let first = tokens[range.lowerBound]
            let at = (line: first.line, column: first.column)
            if let group, tokens[group].isPunctuator("{") {
                var entries: [(key: String, keyLine: Int, value: LocatedJSON)] = []
                for item in file.items(of: group) {
                    let head = tokens[item.lowerBound]
                    if head.isPunctuator("...") {
                        if item.count == 2, tokens[item.lowerBound + 1].kind == .identifier { spreads.append((tokens[item.lowerBound + 1].text, head.line)) }
                        else { computed.append((file.text(of: item), head.line)) }
                        continue
                    }
                    guard head.kind == .identifier || head.kind == .string else { computed.append((file.text(of: item), head.line)); continue }
                    let key = head.kind == .string ? head.value : head.text
                    guard item.count > 2, tokens[item.lowerBound + 1].isPunctuator(":") else { computed.append((file.text(of: item), head.line)); continue }
                    if let converted = value((item.lowerBound + 2)..<item.upperBound) { entries.append((key, head.line, converted)) }
                }
                return LocatedJSON(value: .object(entries), line: at.line, column: at.column)
            }
            if let group, tokens[group].isPunctuator("[") {
                var items: [LocatedJSON] = []
                for item in file.items(of: group) { if let converted = value(item) { items.append(converted) } }
                return LocatedJSON(value: .array(items), line: at.line, column: at.column)
            }
            if range.count == 1 {
                switch first.kind {
                case .string: return LocatedJSON(value: .string(first.value), line: at.line, column: at.column)
                case .template where !first.text.contains("${"): return LocatedJSON(value: .string(first.value), line: at.line, column: at.column)
                case .number: return Double(first.text).map { LocatedJSON(value: .number($0, text: first.text), line: at.line, column: at.column) }
                case .identifier where first.text == "true" || first.text == "false":
                    return LocatedJSON(value: .bool(first.text == "true"), line: at.line, column: at.column)
                default: break
                }
            }
            computed.append((file.text(of: range), first.line))
            return nil
        }
    }
}
