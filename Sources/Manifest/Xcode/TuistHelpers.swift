import Foundation

/// The functions of a Tuist workspace's `Tuist/ProjectDescriptionHelpers` (at a manifest's folder or
/// above it), read as written — never run: which one a manifest calls, and which of them make an
/// application target (`product: .app` in its body, or a call of such a helper). A manifest built by
/// helpers (`Project.makeModule(targets: .app(…))`) is an app only when a helper it calls makes one;
/// one that calls only helpers making frameworks (`.feature(…)`) is a module of the workspace.
struct TuistHelpers {
    struct Function {
        let name: String
        /// Absolute.
        let file: String
        let lines: ClosedRange<Int>
        var makesApp: Bool
    }

    /// The helpers folder (absolute) and the folder holding it: the workspace's root.
    let folder: String
    var workspace: String { ((folder as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent }
    let functions: [Function]
    /// Some helper file declares an application target outside any function found.
    let declaresAppOutsideFunctions: Bool

    /// The helpers of a manifest in `folder` (absolute): `Tuist/ProjectDescriptionHelpers` there or
    /// in a folder above, up to `root` ("" for no limit but the file system's).
    static func find(from folder: String, root: String, fileSystem: FileSystem) -> TuistHelpers? {
        var current = folder
        for _ in 0..<8 {
            let helpers = current + "/Tuist/ProjectDescriptionHelpers"
            if fileSystem.isDirectory(helpers) { return read(helpers, fileSystem: fileSystem) }
            if current == root || !current.hasPrefix(root) || current == "/" { return nil }
            current = (current as NSString).deletingLastPathComponent
        }
        return nil
    }

    private static func read(_ folder: String, fileSystem: FileSystem) -> TuistHelpers {
        var functions: [Function] = []
        var outside = false
        var bodies: [String] = []
        for name in ((try? fileSystem.files(under: folder)) ?? []).filter({ $0.hasSuffix(".swift") }).sorted().prefix(64) {
            guard let data = try? fileSystem.contents(of: folder + "/" + name) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            let found = Self.functions(in: text, file: folder + "/" + name)
            functions += found.map(\.function)
            bodies += found.map(\.body)
            if found.isEmpty, TuistDiscovery.declaresApp("ProjectDescription\n" + text) { outside = true }
        }
        // A helper that calls one making an application target makes one too (`makeApp` → `.app`).
        for _ in 0..<4 {
            let makers = functions.filter(\.makesApp)
            var changed = false
            for index in functions.indices where !functions[index].makesApp && makers.contains(where: { calls($0.name, in: bodies[index]) }) {
                functions[index].makesApp = true
                changed = true
            }
            if !changed { break }
        }
        return TuistHelpers(folder: folder, functions: functions, declaresAppOutsideFunctions: outside)
    }

    /// Each `func name` of a file, its body being the text up to the next one.
    private static func functions(in text: String, file: String) -> [(function: Function, body: String)] {
        let starts = text.matches(of: #/\bfunc\s+([A-Za-z_][A-Za-z0-9_]*)/#)
        var result: [(Function, String)] = []
        var line = 1
        var counted = text.startIndex
        func lineNumber(at index: String.Index) -> Int {
            line += text[counted..<index].reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
            counted = index
            return line
        }
        for (offset, match) in starts.enumerated() {
            let end = offset + 1 < starts.count ? starts[offset + 1].range.lowerBound : text.endIndex
            let first = lineNumber(at: match.range.lowerBound)
            let body = String(text[match.range.lowerBound..<end])
            let last = max(first, first + body.reduce(0) { $1 == "\n" ? $0 + 1 : $0 } - 1)
            let makesApp = body.range(of: #"product:\s*\.app\b"#, options: .regularExpression) != nil
            result.append((Function(name: String(match.1), file: file, lines: first...last, makesApp: makesApp), body))
        }
        return result
    }

    static func calls(_ name: String, in text: String) -> Bool {
        text.range(of: "(?<!func )\\b" + NSRegularExpression.escapedPattern(for: name) + "\\s*\\(", options: .regularExpression) != nil
    }

    /// The helpers a manifest's text calls.
    func called(in text: String) -> [Function] { functions.filter { Self.calls($0.name, in: text) } }

    /// Whether a manifest calling these helpers makes an application target.
    func makesApp(_ text: String) -> Bool {
        called(in: text).contains(where: \.makesApp) || (declaresAppOutsideFunctions && !functions.contains(where: \.makesApp))
    }
}
