import Foundation
import Yams

/// A Markdown page of the site's own content (`content/**/*.md`): front matter plus body.
public struct ContentPage: Sendable {
    /// Path relative to the content folder, e.g. `posts/p00001.md`.
    public var path: String
    public var title: String
    public var order: Int
    public var body: String
    /// Site-relative path of the source file, for errors.
    public var sourcePath: String
    /// Hash of the file's bytes, for the incremental cache.
    public var contentHash: String

    /// Output path below `pages/`: the source path with `.html`, each segment kept to letters and
    /// digits of any script (`概要`, `é` stay themselves, so distinct names stay distinct), `-` and `_`.
    public var outputPath: String {
        let segments = String(path.dropLast(3)).split(separator: "/").map { segment -> String in
            let safe = segment.unicodeScalars.map { scalar -> String in
                let keep = scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal || scalar == "-" || scalar == "_"
                return keep && scalar.value >= 0x20 ? String(scalar) : "-"
            }.joined()
            return safe.isEmpty ? "page" : safe
        }
        return "pages/" + segments.joined(separator: "/") + ".html"
    }
}

public struct ContentLoader {
    let fileSystem: FileSystem
    public init(fileSystem: FileSystem = LocalFileSystem()) { self.fileSystem = fileSystem }

    /// Every `*.md` below `directory`, sorted by (order, path). A missing folder means no pages.
    public func load(directory: String, displayPrefix: String) throws -> [ContentPage] {
        guard fileSystem.isDirectory(directory) else { return [] }
        var pages: [ContentPage] = []
        var errors: [InputProblem] = []
        let files = try fileSystem.files(under: directory).filter { $0.hasSuffix(".md") }
        // Thousands of small pages: read (and confined) side by side, then parsed side by side.
        let reads = fileSystem.contents(ofAll: files.map { directory + "/" + $0 })
        let parsed = ParallelMap.map(Array(zip(files, reads))) { file, read in
            let shown = displayPrefix + "/" + file
            return Result<ContentPage, Error> { try Self.parse(read.get(), path: file, sourcePath: shown) }
                .mapError { error -> Error in (error as? InputError).map { $0.cited(in: shown) } ?? error }
        }
        for page in parsed {
            switch page {
            case .success(let page): pages.append(page)
            case .failure(let error as InputError): errors += error.problems
            case .failure(let error): throw error
            }
        }
        errors += Self.collisions(pages)
        if !errors.isEmpty { throw InputError(errors) }
        return pages.sorted { ($0.order, $0.path) < ($1.order, $1.path) }
    }

    /// Two pages whose names map to one output file (`a b.md` and `a-b.md`; `A.md` and `a.md` on a
    /// case-insensitive disk) are an input error naming both, never a page silently lost.
    static func collisions(_ pages: [ContentPage]) -> [InputProblem] {
        var seen: [String: ContentPage] = [:]
        var errors: [InputProblem] = []
        for page in pages.sorted(by: { $0.path < $1.path }) {
            let key = page.outputPath.lowercased()
            if let first = seen[key] {
                errors.append(InputProblem("'\(first.sourcePath)' and '\(page.sourcePath)' would both be written to \(page.outputPath): rename one of them",
                                         file: page.sourcePath, line: 1))
            } else {
                seen[key] = page
            }
        }
        return errors
    }

    public static func parse(_ data: Data, path: String, sourcePath: String) throws -> ContentPage {
        guard let text = String(data: data, encoding: .utf8) else { throw InputError("content page is not UTF-8 text", file: sourcePath, line: 1) }
        var title = (path as NSString).lastPathComponent.replacingOccurrences(of: ".md", with: "")
        var order = Int.max
        var body = Substring(text)
        if text.hasPrefix("---\n") || text.hasPrefix("---\r\n") {
            let afterOpen = text.index(text.startIndex, offsetBy: text.hasPrefix("---\r\n") ? 5 : 4)
            guard let close = text.range(of: "\n---", range: afterOpen..<text.endIndex) else {
                throw InputError("front matter is not closed with ---", file: sourcePath, line: 1)
            }
            let yaml = String(text[afterOpen..<close.lowerBound])
            body = text[close.upperBound...].drop { $0 != "\n" }.dropFirst()
            let fields: [String: String]
            if let simple = SimpleFrontMatter.parse(yaml) {
                fields = simple
            } else {
                fields = try Self.yamlFields(yaml, sourcePath: sourcePath)
            }
            if let text = fields["title"] { title = text }
            if let text = fields["order"], let number = Int(text) { order = number }
        }
        return ContentPage(path: path, title: title, order: order, body: String(body), sourcePath: sourcePath,
                           contentHash: StableDigest.hex(data))
    }
}

extension ContentLoader {
    /// Front matter that is more than flat `key: scalar` lines goes through Yams.
    static func yamlFields(_ yaml: String, sourcePath: String) throws -> [String: String] {
        let node: Node
        do { node = try YAMLReader.compose(yaml.isEmpty ? "{}" : yaml, file: sourcePath) } catch let error as InputError {
            throw error.cited(in: sourcePath, lineOffset: 1)
        }
        var fields: [String: String] = [:]
        if case let .mapping(mapping) = node {
            for (key, value) in mapping {
                guard case let .scalar(k) = key, case let .scalar(v) = value else { continue }
                fields[k.string] = v.string
            }
        }
        return fields
    }
}

/// The common case of front matter — flat `key: value` lines with plain or double-quoted scalars
/// and flow lists — read without building a YAML tree: thousands of pages load that much faster.
/// Anything else (nesting, block scalars, anchors, escapes) returns nil and goes to Yams.
enum SimpleFrontMatter {
    static func parse(_ yaml: String) -> [String: String]? {
        var fields: [String: String] = [:]
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = Self.trimmingSpaces(line)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let first = line.first, first.isLetter || first == "_",
                  let colon = line.firstIndex(of: ":") else { return nil }
            let key = String(line[..<colon])
            guard key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else { return nil }
            var value = Self.trimmingSpaces(line[line.index(after: colon)...])
            if value.hasPrefix("[") && value.hasSuffix("]") && !value.contains("\\") {
                fields[key] = value
                continue
            }
            if value.hasPrefix("\"") {
                guard value.count >= 2, value.hasSuffix("\""), !value.dropFirst().dropLast().contains("\""),
                      !value.contains("\\") else { return nil }
                value = String(value.dropFirst().dropLast())
            } else if value.isEmpty || "'&*!|>{[%@`#".contains(value.first!) || value.contains(": ") || value.contains(" #") {
                return nil
            }
            if fields.updateValue(value, forKey: key) != nil { return nil } // duplicates: let Yams report them
        }
        return fields
    }
}

extension SimpleFrontMatter {
    /// `trimmingCharacters(in: .whitespaces)`, whose only ASCII members are space and tab: an ASCII
    /// line (nearly every one) is trimmed without a trip through Foundation's NSString.
    static func trimmingSpaces(_ text: Substring) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.trimmingCharacters(in: .whitespaces) }
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }
}

/// FNV-1a over bytes: stable across processes and platforms (Swift's `Hasher` is seeded per
/// process), used for cache keys and fingerprints.
public enum StableDigest {
    public static func hex(_ text: String) -> String { hex(Data(text.utf8)) }

    public static func hex(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // Over the raw buffer: Data's iterator costs a call per byte (a tenth of reading 50 MiB of results).
        data.withUnsafeBytes { buffer in
            for byte in buffer { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
