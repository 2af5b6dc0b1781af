import Checklist
import Foundation
import Manifest

/// The lines a change touched, by path relative to the repository root: what `check
/// --changed-files` and `--since` limit the reports to. The paths come from a file or from git
/// and are untrusted: they are only compared with findings' paths, never opened.
public struct ChangedLines: Sendable, Hashable {
    public enum Extent: Sendable, Hashable {
        /// Listed without ranges: every line counts as changed.
        case wholeFile
        /// Only these lines (none when the change only deleted lines or was binary).
        case lines([ClosedRange<Int>])
    }

    public private(set) var files: [String: Extent] = [:]

    public init() {}

    /// Records `extent` for `path`; a file listed twice keeps the union.
    public mutating func add(_ path: String, _ extent: Extent) {
        let key = Self.normalized(path)
        switch (files[key], extent) {
        case (.wholeFile?, _), (_, .wholeFile): files[key] = .wholeFile
        case (.lines(let old)?, .lines(let new)): files[key] = .lines(old + new)
        case (nil, _): files[key] = extent
        }
    }

    public func contains(file: String) -> Bool { files[Self.normalized(file)] != nil }

    public func contains(file: String, line: Int) -> Bool {
        switch files[Self.normalized(file)] {
        case .wholeFile?: return true
        case .lines(let ranges)?: return ranges.contains { $0.contains(line) }
        case nil: return false
        }
    }

    /// `./a//b` and `a/b` name the same file.
    static func normalized(_ path: String) -> String { DisplayPath.join(".", path) }

    /// Split at each LF scalar: splitting a String by Character would keep `\r\n` (one Character) in one piece.
    static func lines(_ text: String) -> [String] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
    }
}

// MARK: - Reading a list of changed files

extension ChangedLines {
    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

    /// `--changed-files`: one path per line, relative to the repository root (as `git diff
    /// --name-only` prints them); `path:12` or `path:12-20` limits a file to those lines.
    /// Blank lines are skipped; a malformed range is an error naming its line.
    public init(listing text: String) throws {
        self.init()
        for (index, raw) in Self.lines(text).enumerated() {
            let entry = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if entry.isEmpty { continue }
            guard let match = entry.wholeMatch(of: /(.+):(\d+)(?:-(\d+))?/) else {
                add(entry, .wholeFile)
                continue
            }
            let start = Int(match.2) ?? 0
            let end = match.3.map { Int($0) ?? 0 } ?? start
            guard start >= 1, end >= start else {
                throw FormatError(description: "line \(index + 1): '\(VisibleText.escaped(entry))' has no valid line range (expected PATH, PATH:LINE or PATH:START-END)")
            }
            add(String(match.1), .lines([start...end]))
        }
    }
}

// MARK: - Reading git's output

extension ChangedLines {
    /// `git diff --name-only -z` (every changed file, binary and renamed ones included) and
    /// `git diff --unified=0 --dst-prefix=b/` (the new side's lines of each hunk).
    public init(gitNames: String, unifiedDiff: String) {
        self.init()
        for name in gitNames.split(separator: "\0") where !name.isEmpty { add(String(name), .lines([])) }
        for (path, range) in Self.hunks(unifiedDiff) { add(path, .lines([range])) }
    }

    /// The added or rewritten lines of each hunk, by the new side's path. Hunk bodies are
    /// skipped by their counts, so an added line reading `+++ x` is never taken for a header.
    static func hunks(_ diff: String) -> [(String, ClosedRange<Int>)] {
        var result: [(String, ClosedRange<Int>)] = []
        var path: String?
        var remaining = 0
        for line in lines(diff) {
            if remaining > 0, line.hasPrefix("-") || line.hasPrefix("+") {
                remaining -= 1
                continue
            }
            // "\ No newline at end of file" may sit between a hunk's removed and added lines.
            if remaining > 0, line.hasPrefix("\\") { continue }
            remaining = 0
            if line.hasPrefix("diff ") {
                path = nil
            } else if line.hasPrefix("+++ ") {
                let name = GitQuotedPath.unquote(String(line.dropFirst(4)))
                path = name.hasPrefix("b/") ? String(name.dropFirst(2)) : nil
            } else if let hunk = line.firstMatch(of: /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/) {
                let removed = hunk.1.flatMap { Int($0) } ?? 1, start = Int(hunk.2) ?? 0, added = hunk.3.flatMap { Int($0) } ?? 1
                remaining = removed + added
                if let path, added > 0, start >= 1 { result.append((path, start...(start + added - 1))) }
            }
        }
        return result
    }
}

/// A path as git writes it in a patch header: as is, or C-quoted (`"b/caf\303\251.swift"`) when it
/// holds a quote, backslash or control character.
enum GitQuotedPath {
    static func unquote(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        var bytes: [UInt8] = []
        var scalars = Array(text.utf8.dropFirst().dropLast())[...]
        while let byte = scalars.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = scalars.popFirst() else { bytes.append(byte); continue }
            if let control = CEscape.control(next) { bytes.append(control); continue }
            switch next {
            case UInt8(ascii: "0")...UInt8(ascii: "3"):
                // Three octal digits: one byte of a UTF-8 sequence.
                var value = Int(next - UInt8(ascii: "0"))
                for _ in 0..<2 {
                    guard let digit = scalars.first, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else { break }
                    value = value * 8 + Int(digit - UInt8(ascii: "0"))
                    scalars.removeFirst()
                }
                bytes.append(UInt8(value & 0xFF))
            default: bytes.append(next)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

// MARK: - Limiting audits to the change

/// Where the repository and the site are, as real absolute paths, to put a finding's path
/// (site-relative, or absolute for the config) in the terms a change list uses.
public struct RepositoryLayout: Sendable, Hashable {
    public var root: String
    public var site: String

    public init(root: String, site: String) { self.root = root; self.site = site }

    /// `file` relative to the repository root; nil when it lies outside the repository.
    public func path(of file: String, context: OutputContext) -> String? {
        let relative = context.sitePath(file)
        let absolute = relative.hasPrefix("/") ? relative : site + "/" + relative
        let base = root.hasSuffix("/") ? root : root + "/"
        guard absolute.hasPrefix(base) else { return nil }
        return ChangedLines.normalized(String(absolute.dropFirst(base.count)))
    }
}

/// Keeps the findings a change is responsible for. Code is judged by line: a finding in Swift,
/// Objective-C, JavaScript/TypeScript or Dart is kept when its line changed. A declaration
/// (Info.plist, entitlements, Xcode project, package manifest, config) is judged by file: what its
/// findings report is often an absence — a missing key, a missing entitlement — cited at the
/// top-level `<dict>` or at a key above the value that changed, so any change to the file keeps
/// them. A finding with no line (a binary plist) is judged by file too.
public struct ChangeFilter: Sendable {
    public var changes: ChangedLines
    public var layout: RepositoryLayout

    public init(changes: ChangedLines, layout: RepositoryLayout) { self.changes = changes; self.layout = layout }

    static let codeExtensions: Set<String> = ["swift", "m", "mm", "h", "c", "cc", "cpp", "js", "jsx", "ts", "tsx", "mjs", "cjs", "vue", "svelte", "dart"]

    public func isChanged(_ finding: Finding, context: OutputContext) -> Bool {
        guard let path = layout.path(of: finding.location.file, context: context), changes.contains(file: path) else { return false }
        let isCode = Self.codeExtensions.contains((path as NSString).pathExtension.lowercased())
        guard isCode, let line = finding.location.line else { return true }
        return changes.contains(file: path, line: line)
    }

    /// The audits with only the changed findings, and how many active ones were left out per app.
    /// Suppressed findings outside the change go too but are not counted: they never count.
    public func apply(_ audits: [AppAudit], context: OutputContext) -> (audits: [AppAudit], scope: ChangeScope) {
        var scope = ChangeScope()
        let limited = audits.map { audit -> AppAudit in
            var audit = audit
            let (kept, left) = audit.findings.reduce(into: ([Finding](), 0)) { result, finding in
                if isChanged(finding, context: context) { result.0.append(finding) } else if !finding.isSuppressed { result.1 += 1 }
            }
            audit.findings = kept
            scope.outsideByApp[audit.manifest.id, default: 0] += left
            return audit
        }
        return (limited, scope)
    }
}

/// What the reports say about findings a change filter left out.
public struct ChangeScope: Sendable, Hashable {
    /// Active findings outside the changed lines, per app id.
    public var outsideByApp: [String: Int] = [:]

    public init(outsideByApp: [String: Int] = [:]) { self.outsideByApp = outsideByApp }

    public var outside: Int { outsideByApp.values.reduce(0, +) }

    /// "12 findings outside the changed lines are not shown", the line every output carries.
    public var sentence: String { Self.sentence(outside) }

    static func sentence(_ count: Int) -> String {
        count == 0 ? "no finding outside the changed lines was left out"
            : "\(Plural.count(count, "finding")) outside the changed lines \(count == 1 ? "is" : "are") not shown"
    }
}
