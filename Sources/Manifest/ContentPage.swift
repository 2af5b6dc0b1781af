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

    /// Output path below `pages/`: the source path with `.html`, each segment kept to a safe alphabet.
    public var outputPath: String {
        let segments = String(path.dropLast(3)).split(separator: "/").map { segment -> String in
            let safe = segment.unicodeScalars.map { scalar -> String in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
                    ? String(scalar) : "-"
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
        var errors: [InputError] = []
        for file in try fileSystem.files(under: directory) where file.hasSuffix(".md") {
            let shown = displayPrefix + "/" + file
            do {
                let data = try fileSystem.contents(of: directory + "/" + file)
                pages.append(try Self.parse(data, path: file, sourcePath: shown))
            } catch let error as InputError {
                errors.append(InputError(error.message, file: shown, line: error.location.line))
            }
        }
        if !errors.isEmpty { throw InputErrors(errors) }
        return pages.sorted { ($0.order, $0.path) < ($1.order, $1.path) }
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
            let node: Node
            do { node = try YAMLReader.compose(yaml.isEmpty ? "{}" : yaml, file: sourcePath) } catch let error as InputError {
                throw InputError(error.message, file: sourcePath, line: (error.location.line ?? 0) + 1)
            }
            if case let .mapping(mapping) = node {
                for (key, value) in mapping {
                    guard case let .scalar(k) = key, case let .scalar(v) = value else { continue }
                    if k.string == "title" { title = v.string }
                    if k.string == "order", let number = Int(v.string) { order = number }
                }
            }
        }
        return ContentPage(path: path, title: title, order: order, body: String(body), sourcePath: sourcePath,
                           contentHash: StableDigest.hex(data))
    }
}

/// FNV-1a over bytes: stable across processes, used for cache keys and fingerprints.
public enum StableDigest {
    public static func hex(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
