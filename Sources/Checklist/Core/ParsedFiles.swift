import Foundation
import Manifest
import SwiftParser
import SwiftSyntax

/// One Swift file's parse and index, made once however many targets (or apps) compile the file:
/// every `ParsedSource` of the file shares it, and only the target it is read for differs.
final class ParsedFile: Sendable {
    let path: String
    let text: String
    let tree: SourceFileSyntax
    /// Why the file was not analysed (refused or not parsed in time by `BoundedSwiftParse`), or nil.
    let notAnalysed: UnanalysedFile?
    /// The file's calls by the name called (`save`, `requestAuthorization`), each list in source
    /// order: most rules look for a few names, and asking by name spares classifying every call.
    let callsByName: [String: [FunctionCallExprSyntax]]
    let lines: LineTable
    /// Whether the file has `#if` clauses: only then can a target leave some of its calls out.
    let hasConditionalCode: Bool

    init(path: String, text: String, budget: ParseBudget, cache: SwiftFileCache? = nil) {
        self.path = path
        self.text = text
        switch BoundedSwiftParse.parse(text, budget: budget, cache: cache) {
        case .parsed(let parsed):
            notAnalysed = nil
            tree = parsed
        case .refused(let refusal):
            // Not parsed: an empty tree, and a finding saying why (`FileNotAnalysedRule`).
            notAnalysed = UnanalysedFile(path: path, line: refusal.line, column: refusal.column, reason: refusal.reason,
                                         failsRun: refusal.failsRun)
            tree = Parser.parse(source: "")
        }
        SyntaxIndex.shared.prepare(tree)
        var byName: [String: [FunctionCallExprSyntax]] = [:]
        for call in tree.calls { if let name = ExprShape.calledName(call) { byName[name, default: []].append(call) } }
        callsByName = byName
        lines = LineTable(text)
        hasConditionalCode = ByteSearch.contains(text, "#if")
    }

    /// Files are the same file when path and contents are.
    struct Key: Hashable {
        var path: String
        var text: String
    }
}

/// The parses of one run: a file compiled by several apps of the site is parsed and indexed for
/// the first and reused by the others. Only files some later app needs are kept (the rest are
/// released with their app's audit), and a refusal for the run's spent budget is never reused:
/// another app's budget may not be spent.
final class ParsedFiles: @unchecked Sendable {
    private var kept: [ParsedFile.Key: ParsedFile] = [:]
    /// How many of the apps still to be audited compile each shared file.
    private var remainingUsers: [ParsedFile.Key: Int]
    private let lock = NSLock()
    private let cache: SwiftFileCache?
    /// Files parsed (or refused) so far: tests count them.
    private(set) var parseCount = 0

    /// `manifests`: every app the run audits, so files used by only one of them are never kept.
    init(manifests: [AppManifest], cache: SwiftFileCache? = nil) {
        self.cache = cache
        var users: [ParsedFile.Key: Int] = [:]
        for manifest in manifests {
            let keys = Set(manifest.targets.flatMap { $0.sources.map { ParsedFile.Key(path: $0.path, text: $0.text) } })
            for key in keys { users[key, default: 0] += 1 }
        }
        remainingUsers = users.filter { $0.value > 1 }
    }

    /// No sharing across apps: one app's audit.
    init(cache: SwiftFileCache? = nil) { remainingUsers = [:]; self.cache = cache }

    /// The file's parse: kept from an earlier app, or made now with `budget`.
    func parsed(_ key: ParsedFile.Key, budget: ParseBudget) -> ParsedFile {
        lock.lock()
        if let known = kept[key] { lock.unlock(); return known }
        let shared = remainingUsers[key] != nil
        parseCount += 1
        lock.unlock()
        let parsed = ParsedFile(path: key.path, text: key.text, budget: budget, cache: cache)
        if shared, parsed.notAnalysed?.failsRun != true {
            lock.lock(); kept[key] = parsed; lock.unlock()
        }
        return parsed
    }

    /// An app's audit is done: files no later app compiles are let go. Returns the trees of the
    /// app's files no longer kept, whose indexes may be dropped.
    func finished(_ keys: Set<ParsedFile.Key>) -> Set<ParsedFile.Key> {
        lock.lock(); defer { lock.unlock() }
        var released: Set<ParsedFile.Key> = []
        for key in keys {
            guard let count = remainingUsers[key] else { released.insert(key); continue }
            if count <= 1 { remainingUsers[key] = nil; kept[key] = nil; released.insert(key) } else { remainingUsers[key] = count - 1 }
        }
        return released
    }
}

/// The distinct files among an app's sources (one per parse), for work that depends on the file
/// alone: `first` holds the first source of each file, `index[i]` the file of `sources[i]`.
struct UniqueFiles {
    let first: [ParsedSource]
    let index: [Int]

    init(_ sources: [ParsedSource]) {
        var position: [ObjectIdentifier: Int] = [:]
        var first: [ParsedSource] = []
        index = sources.map { source in
            let id = ObjectIdentifier(source.parsed)
            if let known = position[id] { return known }
            position[id] = first.count
            first.append(source)
            return first.count - 1
        }
        self.first = first
    }
}
