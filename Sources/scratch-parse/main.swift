import Foundation
@_spi(Testing) import SwiftParser
@_spi(RawSyntax) import SwiftSyntax

// Temporary (not committed): times swift-syntax, and checks the scan's bound against its tokens.
struct Depth { var square = 0, any = 0, maxSquare = 0, maxAny = 0
    mutating func feed(_ kind: RawTokenKind) {
        switch kind {
        case .leftSquare: square += 1; any += 1
        case .leftParen, .leftBrace, .poundIf: any += 1
        case .rightSquare: square = max(0, square - 1); any = max(0, any - 1)
        case .rightParen, .rightBrace, .poundEndif: any = max(0, any - 1)
        default: break
        }
        maxSquare = max(maxSquare, square); maxAny = max(maxAny, any)
    }
}
/// Structural: for each present opening bracket, how many opening brackets enclose it in the tree
/// (an ancestor holding a present opening bracket before it), itself included.
func parserDepth(_ text: String) -> Depth {
    var text = text
    let tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: 100000) }
    var d = Depth()
    func opens(_ kind: RawTokenKind) -> (any: Bool, square: Bool) {
        switch kind {
        case .leftSquare: return (true, true)
        case .leftParen, .leftBrace, .poundIf: return (true, false)
        default: return (false, false)
        }
    }
    for token in tree.tokens(viewMode: .sourceAccurate) {
        let (isOpen, isSquare) = opens(token.rawTokenKind)
        // Tokens the parser skipped as unexpected open nothing: it never recursed into them.
        guard isOpen, token.parent?.is(UnexpectedNodesSyntax.self) != true else { continue }
        var any = 1, square = isSquare ? 1 : 0
        var child = Syntax(token)
        var node = token.parent
        while let current = node {
            // Opening brackets that are direct children of an ancestor, before the path down.
            // Brackets a direct child token of an ancestor opened before the path down and did not close.
            var openAny = 0, openSquare = 0
            for sibling in current.children(viewMode: .sourceAccurate) where !current.is(UnexpectedNodesSyntax.self) {
                if sibling.id == child.id { break }
                if let t = sibling.as(TokenSyntax.self), t.presence == .present {
                    let (o, sq) = opens(t.rawTokenKind)
                    if o { openAny += 1; if sq { openSquare += 1 } }
                    switch t.rawTokenKind {
                    case .rightParen, .rightBrace, .poundEndif: openAny = max(0, openAny - 1)
                    case .rightSquare: openAny = max(0, openAny - 1); openSquare = max(0, openSquare - 1)
                    default: break
                    }
                }
            }
            any += openAny; square += openSquare
            child = current
            node = current.parent
        }
        d.maxAny = max(d.maxAny, any); d.maxSquare = max(d.maxSquare, square)
    }
    return d
}
func lexerDepth(_ text: String) -> Depth {
    var text = text
    var d = Depth()
    text.withUTF8 { buffer in
        let tracker = UnsafeMutablePointer<LookaheadTracker>.allocate(capacity: 1)
        tracker.initialize(to: LookaheadTracker())
        for lexeme in Lexer.tokenize(buffer, lookaheadTracker: tracker, experimentalFeatures: []) {
            if lexeme.rawTokenKind == .endOfFile { break }
            d.feed(lexeme.rawTokenKind)
        }
    }
    return d
}
let args = Array(CommandLine.arguments.dropFirst())
if args.first == "--tree" {
    var text = try! String(contentsOfFile: args[1], encoding: .utf8)
    let tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: 1000) }
    print(tree.debugDescription)
    exit(0)
}
if args.first == "--tokens" {
    var text = try! String(contentsOfFile: args[1], encoding: .utf8)
    let tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: 1000) }
    print("parser:", tree.tokens(viewMode: .sourceAccurate).map { "\($0.rawTokenKind)<\($0.text)>" }.joined(separator: " "))
    text.withUTF8 { buffer in
        var tracker = LookaheadTracker()
        withUnsafeMutablePointer(to: &tracker) { pointer in
            var out: [String] = []
            for lexeme in Lexer.tokenize(buffer, lookaheadTracker: pointer, experimentalFeatures: []) {
                if lexeme.rawTokenKind == .endOfFile { break }
                out.append("\(lexeme.rawTokenKind)<\(String(syntaxText: lexeme.tokenText))>")
            }
            print("lexer: ", out.joined(separator: " "))
        }
    }
    var unbounded = SwiftNestingScan.Limits(); unbounded.square = .max; unbounded.any = .max; unbounded.readings = .max
    print("scan:  ", SwiftNestingScan.scan(text, limits: unbounded).reach, "parser", parserDepth(text).maxAny, "lexer", lexerDepth(text).maxAny)
    exit(0)
}
if args.first == "--random" {
    let regexy = ["/", " /", "/ ", "\t", "(", ")", "[", "]", "\\", "*", "x", "\"", "#", "=", "\n", "'", "\\(", "`", "?", "!", ".", "+", "{", "}", "func ", "return ", ",", ";", "*/", "/*", "//"]
    let fragments = args.count > 3 ? regexy : ["\"", "\"\"\"", "#\"", "\"#", "##\"", "\"##", "\\(", "\\#(", "\\##(", ")", "(", "[", "]", "{", "}", "/", "#/", "/#", "//", "/*", "*/",
                     "\n", "'", "`", "<#", "#>", "\\\\", "\\", "x", " ", "??", ",", ":", "#if", "#endif", "a", "1", ".", "!", "?", "=", "\r", "\t", "#", "f(", "return ", "try? ", "+", "-", ";", "$0", "\u{A0}", "é"]
    var state: UInt64 = UInt64(args.count > 1 ? Int(args[1])! : 1)
    func next() -> UInt64 { state &+= 0x9E3779B97F4A7C15; var z = state; z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) &* 0x94D049BB133111EB; return z ^ (z >> 31) }
    let count = args.count > 2 ? Int(args[2])! : 10000
    var bad = 0, maxReadings = 0
    for iteration in 0..<count {
        var text = ""
        for _ in 0..<(Int(next() % 60) + 1) { text += fragments[Int(next() % UInt64(fragments.count))] }
        var limits = SwiftNestingScan.Limits(); limits.square = 1000; limits.any = 1000; limits.readings = 100000
        let (_, reach) = SwiftNestingScan.scan(text, limits: limits)
        maxReadings = max(maxReadings, reach.readings)
        let p = parserDepth(text), l = lexerDepth(text)
        if p.maxAny > reach.any || l.maxSquare > reach.square || l.maxAny > reach.any {
            bad += 1
            try? text.write(toFile: "/tmp/pb/fail/\(iteration).swift", atomically: true, encoding: .utf8)
            if bad <= 10 { print("UNSOUND #\(iteration): scan sq \(reach.square) any \(reach.any); parser sq \(p.maxSquare) any \(p.maxAny); lexer sq \(l.maxSquare) any \(l.maxAny)\n  \(text.debugDescription)") }
        }
    }
    print("random: \(count) inputs, \(bad) unsound, max readings \(maxReadings)")
    exit(0)
}
for path in args {
    var text = try! String(contentsOfFile: path, encoding: .utf8)
    let s0 = DispatchTime.now().uptimeNanoseconds
    let scan = SwiftNestingScan.scan(text)
    let start = DispatchTime.now().uptimeNanoseconds
    let tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: 128) }
    let parsed = DispatchTime.now().uptimeNanoseconds
    final class V: SyntaxAnyVisitor {
        var depth = 0, maxDepth = 0, count = 0
        override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind { depth += 1; count += 1; maxDepth = max(maxDepth, depth); return .visitChildren }
        override func visitAnyPost(_ node: Syntax) { depth -= 1 }
    }
    let v = V(viewMode: .sourceAccurate)
    if ProcessInfo.processInfo.environment["NOWALK"] == nil { v.walk(tree) }
    let walked = DispatchTime.now().uptimeNanoseconds
    print(String(format: "%@: %d bytes scan %.4f s [%@] parse %.3f s walk %.3f s nodes %d treeDepth %d error %@", path, text.utf8.count, Double(start - s0) / 1e9, scan.excess.map { "\($0)" } ?? "ok", Double(parsed - start) / 1e9, Double(walked - parsed) / 1e9, v.count, v.maxDepth, tree.hasError ? "yes" : "no"))
}
