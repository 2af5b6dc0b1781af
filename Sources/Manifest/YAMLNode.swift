import Foundation
import Yams
import CYaml

/// A thin reader over Yams' node tree that knows which file it came from, so every wrong type or
/// unknown key becomes an error naming file, line and key — and keeps reading to report them all.
struct YAMLReader {
    let file: String
    var errors: [InputProblem] = []
    /// The document's lines, for quoting a node's line as evidence.
    var lines: [Substring] = []

    func location(_ node: Node) -> FileLocation {
        FileLocation(file: file, line: node.mark?.line, column: node.mark?.column)
    }

    /// The line a node is written on, trimmed.
    func lineText(_ node: Node) -> String {
        guard let line = node.mark?.line, line >= 1, line <= lines.count else { return "" }
        return lines[line - 1].trimmingCharacters(in: .whitespaces)
    }

    mutating func fail(_ message: String, _ node: Node) {
        errors.append(InputProblem(message, at: location(node)))
    }

    /// The pairs of a mapping, rejecting keys outside `allowed` and duplicate keys.
    mutating func mapping(_ node: Node, context: String, allowed: Set<String>? = nil) -> [(key: String, keyNode: Node, value: Node)] {
        guard case let .mapping(mapping) = node else {
            fail("\(context) must be a mapping, found \(kindName(node))", node)
            return []
        }
        var seen: Set<String> = []
        var pairs: [(key: String, keyNode: Node, value: Node)] = []
        for (keyNode, value) in mapping {
            guard case let .scalar(scalar) = keyNode else {
                fail("\(context): keys must be plain strings", keyNode)
                continue
            }
            let key = scalar.string
            if !seen.insert(key).inserted {
                fail("\(context): duplicate key '\(key)'", keyNode)
                continue
            }
            if let allowed, !allowed.contains(key) {
                let known = allowed.sorted().joined(separator: ", ")
                fail("\(context): unknown key '\(key)' (known keys: \(known))", keyNode)
                continue
            }
            pairs.append((key, keyNode, value))
        }
        return pairs
    }

    mutating func string(_ node: Node, key: String) -> String? {
        if case let .scalar(scalar) = node { return scalar.string }
        fail("'\(key)' must be a string, found \(kindName(node))", node)
        return nil
    }

    mutating func nonEmptyString(_ node: Node, key: String) -> String? {
        guard let text = string(node, key: key) else { return nil }
        if text.trimmingCharacters(in: .whitespaces).isEmpty {
            fail("'\(key)' must not be empty", node)
            return nil
        }
        return text
    }

    mutating func integer(_ node: Node, key: String) -> Int? {
        if case let .scalar(scalar) = node, let value = Int(scalar.string) { return value }
        fail("'\(key)' must be an integer, found \(kindName(node))", node)
        return nil
    }

    mutating func day(_ node: Node, key: String) -> DayDate? {
        guard let text = string(node, key: key) else { return nil }
        guard let day = DayDate(text) else {
            fail("'\(key)' must be a date written YYYY-MM-DD, found '\(text)'", node)
            return nil
        }
        return day
    }

    mutating func sequence(_ node: Node, key: String) -> [Node] {
        guard case let .sequence(sequence) = node else {
            fail("'\(key)' must be a list, found \(kindName(node))", node)
            return []
        }
        return Array(sequence)
    }

    mutating func strings(_ node: Node, key: String) -> [Located<String>] {
        sequence(node, key: key).compactMap { item in
            string(item, key: key).map { Located($0, at: location(item)) }
        }
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(_ node: Node, key: String, as: T.Type) -> T? where T.RawValue == String {
        guard let text = string(node, key: key) else { return nil }
        guard let value = T(rawValue: text) else {
            let options = T.allCases.map(\.rawValue).joined(separator: " | ")
            fail("'\(key)' must be one of \(options), found '\(text)'", node)
            return nil
        }
        return value
    }

    func kindName(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar): return "'\(scalar.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }
}

extension YAMLReader {
    /// Parses YAML text into a node tree; anchors and aliases are refused outright, which also
    /// rules out "billion laughs" alias bombs.
    static func compose(_ text: String, file: String) throws -> Node {
        try checkSize(text, file: file)
        if let (line, column) = firstAnchorOrAlias(in: text) ?? firstAnchorOrAliasEvent(in: text) {
            // `title: *very* important` meant emphasis, but YAML reads `*very*` as an alias: say how to write it.
            let lines = TextLines.split(text)
            let rest = line >= 1 && line <= lines.count ? String(lines[line - 1].dropFirst(max(0, column - 1))) : ""
            let token = rest.prefix { !$0.isWhitespace && $0 != "," && $0 != "]" && $0 != "}" }
            let looksLikeEmphasis = token.count > 2 && token.hasPrefix("*") && token.hasSuffix("*")
            let hint = looksLikeEmphasis
                ? ": `\(token)` is read as an alias; quote the value to mean text (\"\(rest.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\"", with: "\\\""))\")"
                : ""
            throw InputError("anchors and aliases are not supported in this config\(hint)", file: file, line: line, column: column)
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw InputError(Self.describe(error), at: Self.location(of: error, file: file))
        }
        guard let node else { throw InputError("the file is empty", file: file, line: 1) }
        if let alias = firstAlias(in: node, depth: 0) {
            throw InputError("the config nests deeper than \(InputLimits.maxNestingDepth) levels", file: file, line: alias.mark?.line, column: alias.mark?.column)
        }
        return node
    }

    /// Parses a file written for a tool that reads anchors, aliases and merge keys (an XcodeGen spec:
    /// `settings: &shared` … `<<: *shared`): aliases are expanded and `<<` merged as YAML 1.1 says,
    /// keys written in the mapping winning. An alias bomb is refused before Yams composes a tree:
    /// the values the aliases would expand to are counted in libyaml's event stream against
    /// `limit`, so reading the tree afterwards is bounded too.
    static func composeExpanding(_ text: String, file: String, limit: Int = InputLimits.maxYAMLValues) throws -> Node {
        try checkSize(text, file: file)
        if let line = lineOfExpandedValue(max(1, limit + 1), in: text) {
            throw InputError("the file holds more than \(limit) YAML values once its aliases are expanded, by this line; not read", file: file, line: line)
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw InputError(Self.describe(error), at: Self.location(of: error, file: file))
        }
        guard let node else { throw InputError("the file is empty", file: file, line: 1) }
        return resolvingMerges(node, depth: 0)
    }

    /// The line where the `ordinal`th value lies, counting each alias as every value of the node it
    /// names; nil when the expanded document has fewer (or does not parse: Yams reports that).
    static func lineOfExpandedValue(_ ordinal: Int, in text: String) -> Int? {
        var total = 0
        // Each open collection: its anchor and the expanded values counted when it began.
        var open: [(anchor: String?, start: Int)] = []
        var sizes: [String: Int] = [:]
        func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? { pointer.map { String(cString: $0) } }
        return lineOfEvent(in: text) { event in
            switch event.type {
            case YAML_SCALAR_EVENT:
                total += 1
                if let anchor = name(event.data.scalar.anchor) { sizes[anchor] = 1 }
            case YAML_SEQUENCE_START_EVENT:
                open.append((name(event.data.sequence_start.anchor), total))
                total += 1
            case YAML_MAPPING_START_EVENT:
                open.append((name(event.data.mapping_start.anchor), total))
                total += 1
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                if let closed = open.popLast(), let anchor = closed.anchor { sizes[anchor] = total - closed.start }
            case YAML_ALIAS_EVENT:
                total += name(event.data.alias.anchor).flatMap { sizes[$0] } ?? 1
            default: break
            }
            return total >= ordinal
        }
    }

    /// The line (from 1) of the first libyaml event of `text` for which `found` is true; nil when
    /// the stream ends first or does not parse (Yams reports that).
    private static func lineOfEvent(in text: String, where found: (yaml_event_t) -> Bool) -> Int? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return nil }
                if found(event) { return Int(event.start_mark.line) + 1 }
            }
            return nil
        }
    }

    /// `<<: *base` and `<<: [*a, *b]` merged into their mapping: keys written there win, then the
    /// merged mappings in order. Deeper than the nesting limit, nodes are kept as they are.
    static func resolvingMerges(_ node: Node, depth: Int) -> Node {
        guard depth < InputLimits.maxNestingDepth else { return node }
        switch node {
        case .scalar, .alias: return node
        case .sequence(let sequence):
            return .sequence(Node.Sequence(sequence.map { resolvingMerges($0, depth: depth + 1) }, sequence.tag, sequence.style, sequence.mark))
        case .mapping(let mapping):
            let isMerge = { (key: Node) in key.scalar.map { $0.string == "<<" && $0.style == .plain } ?? false }
            var pairs: [(Node, Node)] = []
            var written: Set<String> = []
            for (key, value) in mapping where !isMerge(key) {
                pairs.append((key, resolvingMerges(value, depth: depth + 1)))
                if let name = key.string { written.insert(name) }
            }
            for (key, value) in mapping where isMerge(key) {
                let sources: [Node] = value.sequence.map(Array.init) ?? [value]
                for source in sources {
                    guard let merged = resolvingMerges(source, depth: depth + 1).mapping else { continue }
                    for (mergedKey, mergedValue) in merged {
                        guard let name = mergedKey.string, written.insert(name).inserted else { continue }
                        pairs.append((mergedKey, mergedValue))
                    }
                }
            }
            return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
        }
    }

    /// Refuses a file Yams would take seconds over (see `InputLimits.maxYAMLBytes`): over the byte
    /// limit, or holding more values than the limit, counted in libyaml's event stream (tens of MB/s)
    /// before any tree is built. `spent` is what other files of the same `scope` (an XcodeGen spec
    /// with its includes) have used of the limits.
    static func checkSize(_ text: String, file: String, spent: (bytes: Int, values: Int) = (0, 0), scope: String? = nil) throws {
        let bytes = spent.bytes + text.utf8.count
        if bytes > InputLimits.maxYAMLBytes {
            let what = scope.map { "\($0) come to \(bytes) bytes with this file" } ?? "YAML file is \(bytes) bytes"
            throw InputError("\(what), over the \(InputLimits.maxYAMLBytes)-byte limit; not read", file: file, line: 1)
        }
        if let line = lineOfValue(max(1, InputLimits.maxYAMLValues - spent.values + 1), in: text) {
            let what = scope.map { "\($0) hold" } ?? "the file holds"
            throw InputError("\(what) more than \(InputLimits.maxYAMLValues) YAML values (scalars, lists and mappings) by this line; not read", file: file, line: line)
        }
    }

    /// The line of the `ordinal`th value of `text`, nil when it has fewer (or does not parse: Yams reports that).
    static func lineOfValue(_ ordinal: Int, in text: String) -> Int? {
        var count = 0
        return lineOfEvent(in: text) { event in
            switch event.type {
            case YAML_SCALAR_EVENT, YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT, YAML_ALIAS_EVENT: count += 1
            default: break
            }
            return count >= ordinal
        }
    }

    /// Yams resolves aliases while composing and drops mapping anchors, so aliases cannot be seen in
    /// its tree. Instead the text is scanned before parsing for an anchor (`&name`) or alias (`*name`)
    /// token outside quotes and comments: an alias bomb is refused without ever being parsed.
    static func firstAnchorOrAlias(in text: String) -> (line: Int, column: Int)? {
        for (index, line) in TextLines.split(text).enumerated() {
            var quote: Character?
            var previous: Character = " "
            // The last non-blank character: `&`/`*` start a node only after indentation, `: `, `- `,
            // `? `, `[`, `{` or `,` — inside a plain scalar (`Steps are *very* important`) they are text.
            var lastSignificant: Character?
            var column = 0
            var characters = line.makeIterator()
            while let character = characters.next() {
                column += 1
                defer {
                    previous = character
                    if !character.isWhitespace { lastSignificant = character }
                }
                if let open = quote {
                    if character == open { quote = nil }
                    continue
                }
                switch character {
                case "\"", "'": if " [{,:-".contains(previous) { quote = character }
                case "#": break // a comment when it follows a space; checked below, outside the switch
                case "&", "*":
                    let startsNode = lastSignificant.map { "[{,".contains($0) || (":-?".contains($0) && previous.isWhitespace) } ?? true
                    if startsNode && (" \t[{,".contains(previous) || column == 1) {
                        var lookahead = characters
                        if let next = lookahead.next(), !next.isWhitespace, !",]}".contains(next) { return (index + 1, column) }
                    }
                default: continue
                }
                if character == "#" && (previous == " " || column == 1) { break } // rest of the line is a comment
            }
        }
        return nil
    }

    /// The text scan above guesses where quotes and comments are and can be fooled (an anchor after a
    /// tab, or after `-'` taken for a quote). libyaml's own event stream cannot: it is read here, without
    /// composing a tree (linear in the text), and the first anchor or alias event is refused before
    /// Yams ever expands one.
    static func firstAnchorOrAliasEvent(in text: String) -> (line: Int, column: Int)? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> (line: Int, column: Int)? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                let anchored: Bool
                switch event.type {
                case YAML_ALIAS_EVENT: anchored = true
                case YAML_SCALAR_EVENT: anchored = event.data.scalar.anchor != nil
                case YAML_SEQUENCE_START_EVENT: anchored = event.data.sequence_start.anchor != nil
                case YAML_MAPPING_START_EVENT: anchored = event.data.mapping_start.anchor != nil
                case YAML_STREAM_END_EVENT: return nil
                default: anchored = false
                }
                if anchored { return (Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1) }
            }
            return nil // a syntax error: Yams reports it with its location
        }
    }

    private static func firstAlias(in node: Node, depth: Int) -> Node? {
        if depth > InputLimits.maxNestingDepth { return node }
        switch node {
        case .alias: return node
        case .scalar: return nil
        case .mapping(let mapping):
            for (key, value) in mapping {
                if let found = firstAlias(in: key, depth: depth + 1) ?? firstAlias(in: value, depth: depth + 1) { return found }
            }
            return nil
        case .sequence(let sequence):
            for item in sequence { if let found = firstAlias(in: item, depth: depth + 1) { return found } }
            return nil
        }
    }

    private static func location(of error: YamlError, file: String) -> FileLocation {
        switch error {
        case let .scanner(_, _, mark, _), let .parser(_, _, mark, _), let .composer(_, _, mark, _):
            return FileLocation(file: file, line: mark.line, column: mark.column)
        case let .duplicatedKeysInMapping(_, context):
            return FileLocation(file: file, line: context.mark.line, column: context.mark.column)
        default:
            return FileLocation(file: file)
        }
    }

    private static func describe(_ error: YamlError) -> String {
        switch error {
        case let .scanner(context, problem, _, _), let .parser(context, problem, _, _), let .composer(context, problem, _, _):
            let prefix = context.map { "\($0.text) " } ?? ""
            return "malformed YAML: \(prefix)\(problem)"
        case let .duplicatedKeysInMapping(duplicates, _):
            return "duplicate key '\(duplicates.joined(separator: "', '"))'"
        default:
            return "malformed YAML: \(error)"
        }
    }
}
