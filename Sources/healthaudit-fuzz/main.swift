// healthaudit-fuzz: a deterministic mutation fuzzer over the entry points that read untrusted input.
//
//   healthaudit-fuzz --target plist|strings|config|markdown|xcode|swift|tuist|javascript|http|xcodegen|xcstrings|results [--seconds N] [--seed S]
//                    [--work DIR] [--repo DIR]
//   healthaudit-fuzz --target T --reproduce FILE
//
// Each iteration mutates a seed input (the repository's real plists, strings files, config and
// content pages), writes it to `<work>/<target>.current` *before* running it (so a trap that kills
// the process leaves the input behind), and runs the target's entry point. Thrown input errors are
// expected outcomes; a failed check (an error without a file, injected HTML in rendered escaped text,
// a Swift nesting bound below swift-syntax's own, an input that takes over 5 s of CPU) stops the run
// with the input saved as `<work>/<target>.finding`.
// The last line printed is `RESULT target=… iterations=… seconds=… findings=…`.
import Foundation
import Manifest
import Report
import Checklist
import SiteServer
@_spi(Testing) import SwiftParser
@_spi(RawSyntax) import SwiftSyntax

// MARK: - Arguments

/// Unbuffered: progress lines reach bench/fuzz.sh even if a trap kills the process.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

var arguments = [String: String]()
do {
    var list = CommandLine.arguments.dropFirst()
    while let flag = list.popFirst() {
        guard flag.hasPrefix("--"), let value = list.popFirst() else {
            FileHandle.standardError.write(Data("usage: healthaudit-fuzz --target plist|strings|config|markdown|xcode|swift|tuist|javascript|http|xcodegen|xcstrings|results [--seconds N] [--seed S] [--work DIR] [--repo DIR] [--reproduce FILE]\n".utf8))
            exit(64)
        }
        arguments[String(flag.dropFirst(2))] = value
    }
}
let targetName = arguments["target"] ?? "plist"
let seconds = Double(arguments["seconds"] ?? "60") ?? 60
let seed = UInt64(arguments["seed"] ?? "1") ?? 1
let repository = arguments["repo"] ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let work = arguments["work"] ?? repository + "/.build/fuzz"
try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)

// MARK: - Checks

struct CheckFailed: Error, CustomStringConvertible { var description: String }

/// `files` name the files an error may blame; a name ending in `/` names a folder it must be in.
func requireFile(_ error: InputProblem, _ files: [String]) throws {
    if error.location.file.isEmpty { throw CheckFailed(description: "InputError without a file: \(error.message)") }
    let file = files.joined(separator: "' or '")
    if !files.contains(where: { $0.hasSuffix("/") ? error.location.file.hasPrefix($0) : error.location.file == $0 }) { throw CheckFailed(description: "InputError names '\(error.location.file)', expected '\(file)'") }
    if error.message.isEmpty { throw CheckFailed(description: "InputError without a message") }
    if let line = error.location.line, line < 1 { throw CheckFailed(description: "InputError with line \(line)") }
}

/// Calls `body`; an `InputError` whose every problem names one of `files` is an expected outcome, anything else fails.
nonisolated(unsafe) var verbose = false

func expectInputError(_ files: String..., body: () throws -> Void) throws {
    do { try body() } catch let errors as InputError {
        if verbose { say("expected: \(errors)") }
        if errors.problems.isEmpty { throw CheckFailed(description: "an InputError without problems") }
        for error in errors.problems { try requireFile(error, files) }
    } catch let error as CheckFailed { throw error } catch {
        throw CheckFailed(description: "unexpected error type \(type(of: error)): \(error)")
    }
}

/// The tags of an HTML fragment: name and raw attribute text (a small scanner, enough for cmark's output).
func tags(_ html: String) -> [(name: String, attributes: String)] {
    var found: [(String, String)] = []
    var rest = Substring(html)
    while let open = rest.firstIndex(of: "<") {
        rest = rest[rest.index(after: open)...]
        guard let close = rest.firstIndex(of: ">") else { break }
        let inside = rest[..<close]
        let name = inside.prefix { $0.isLetter || $0.isNumber || $0 == "/" || $0 == "!" || $0 == "-" }.lowercased()
        found.append((name, String(inside.dropFirst(name.count))))
        rest = rest[rest.index(after: close)...]
    }
    return found
}

func decodeEntities(_ text: String) -> String {
    var text = text
    while let range = text.range(of: #"&#([0-9]+|[xX][0-9a-fA-F]+);?"#, options: .regularExpression) {
        var digits = text[range].dropFirst(2)
        if digits.hasSuffix(";") { digits = digits.dropLast() }
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        text.replaceSubrange(range, with: value.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? "\u{FFFD}")
    }
    for (entity, plain) in [("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&colon;", ":"), ("&amp;", "&")] {
        text = text.replacingOccurrences(of: entity, with: plain)
    }
    return text
}

/// Rendered untrusted Markdown (a content page): cmark's safe mode must leave no script, event
/// handler or script URL, whatever the input.
func checkSafeHTML(_ html: String, context: String) throws {
    let allowed: Set<String> = ["p", "/p", "h1", "/h1", "h2", "/h2", "h3", "/h3", "h4", "/h4", "h5", "/h5", "h6", "/h6",
                                "a", "/a", "img", "em", "/em", "strong", "/strong", "code", "/code", "pre", "/pre",
                                "blockquote", "/blockquote", "ul", "/ul", "ol", "/ol", "li", "/li", "hr", "br", "!--"]
    for (name, attributes) in tags(html) {
        if !allowed.contains(name) { throw CheckFailed(description: "\(context): unexpected tag <\(name)>") }
        // Attribute names only (quoted values blanked), then each value on its own.
        let names = attributes.lowercased().replacingOccurrences(of: #""[^"]*"|'[^']*'"#, with: "\"\"", options: .regularExpression)
        if names.range(of: #"(^|[\s/])on[a-z]+\s*="#, options: .regularExpression) != nil {
            throw CheckFailed(description: "\(context): event-handler attribute in <\(name)\(attributes)>")
        }
        var rest = Substring(attributes)
        while let match = rest.range(of: #"=\s*("[^"]*"|'[^']*'|[^\s"'>]+)"#, options: .regularExpression) {
            let value = decodeEntities(String(rest[match].dropFirst()).trimmingCharacters(in: .whitespaces))
                .trimmingCharacters(in: CharacterSet(charactersIn: "\"'")).lowercased().filter { !$0.isWhitespace }
            for scheme in ["javascript:", "vbscript:", "data:text/html"] where value.hasPrefix(scheme) {
                throw CheckFailed(description: "\(context): \(scheme) URL in <\(name)\(attributes)>")
            }
            rest = rest[match.upperBound...]
        }
    }
}

/// Escaped text must render as literal text: no tag of its own at all.
func checkLiteral(_ html: String, escapedFrom text: String) throws {
    for (name, _) in tags(html) where !["p", "/p"].contains(name) {
        throw CheckFailed(description: "escaped text rendered a <\(name)> tag")
    }
    let lowered = html.lowercased()
    for needle in ["<script", "<a ", "<img"] where lowered.contains(needle) {
        throw CheckFailed(description: "escaped text rendered \(needle)")
    }
}

// MARK: - Targets

struct Target {
    var name: String
    var extensions: [String]
    var run: (Data) throws -> Void
}

let targets: [String: Target] = [
    "plist": Target(name: "plist", extensions: ["plist", "entitlements", "xcprivacy"]) { data in
        try expectInputError("Fuzz/Info.plist") {
            let document = try PropertyListDocument.parse(data, path: "Fuzz/Info.plist")
            for key in document.keyLines.keys { _ = document.quote(key); _ = document.location(of: key) }
            _ = document.quote(nil)
            for key in document.root.keys { _ = document.root[key]?.summary }
        }
    },
    "strings": Target(name: "strings", extensions: ["strings", "xcstrings"]) { data in
        try expectInputError("Fuzz/de.lproj/InfoPlist.strings") {
            let file = try StringsFile.parse(data, path: "Fuzz/de.lproj/InfoPlist.strings")
            for entry in file.entries { _ = file.quote(line: entry.line) }
        }
        try expectInputError("Fuzz/InfoPlist.xcstrings") {
            let catalog = try StringCatalog.parse(data, path: "Fuzz/InfoPlist.xcstrings")
            for entry in catalog.localizations { _ = BuildVariables.expand(entry.value, settings: ["PRODUCT_NAME": "Fuzz"]) }
        }
    },
    "config": Target(name: "config", extensions: ["yml", "yaml"]) { data in
        guard let text = String(data: data, encoding: .utf8) else { return } // ConfigLoader refuses non-UTF-8 before parsing
        try expectInputError("healthaudit.yml") {
            _ = try ConfigLoader().parse(text, file: "healthaudit.yml", siteDirectory: "/fuzz/site")
        }
    },
    "markdown": Target(name: "markdown", extensions: ["md"]) { data in
        let text = String(decoding: data, as: UTF8.self)
        // 1. Untrusted text through the escaper, in the contexts the pages use it.
        let escaped = MarkdownText.escape(text)
        try checkLiteral(MarkdownRenderer.render("Value: " + escaped).html, escapedFrom: text)
        let standalone = MarkdownRenderer.render(escaped).html.lowercased()
        for needle in ["<script", "<a ", "<img", "<h1", "<h2", "<ul", "<ol", "<blockquote"] where standalone.contains(needle) {
            throw CheckFailed(description: "escaped text alone rendered \(needle)")
        }
        let code = MarkdownRenderer.render("Value: " + MarkdownText.code(text)).html
        for (name, _) in tags(code) where !["p", "/p", "code", "/code"].contains(name) {
            throw CheckFailed(description: "code span rendered a <\(name)> tag")
        }
        // 2. The bytes as a content page (front matter and all), rendered as the site does.
        var body = text
        try expectInputError("content/fuzz.md") {
            let page = try ContentLoader.parse(data, path: "fuzz.md", sourcePath: "content/fuzz.md")
            body = page.body
        }
        let rendered = MarkdownRenderer.render(body) { url in url.hasSuffix(".md") ? String(url.dropLast(3)) + ".html" : nil }
        try checkSafeHTML(rendered.html, context: "content page")
        for entry in rendered.headings where entry.anchor.contains(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-")) }) {
            throw CheckFailed(description: "heading anchor '\(entry.anchor)' leaves the safe alphabet")
        }
    },
]

// MARK: - Targets that audit a scratch app on disk
//
// The Xcode, Swift and JavaScript readers are reached the way a user reaches them: the fuzzed bytes
// become a file of a small app in `<work>/<target>-app/`, which is loaded and audited whole. The
// audit must end in a result or in input errors naming a file of that app, never in a trap.

/// A scratch site with one app; `write` replaces the fuzzed file, `audit` runs loader and rules.
struct ScratchApp {
    let site: String
    let config: String

    init(name: String, yaml: String, files: [String: String]) {
        site = work + "/" + name + "-app"
        config = yaml
        try? FileManager.default.removeItem(atPath: site)
        for (path, text) in files { write(path, Data(text.utf8)) }
    }

    func write(_ path: String, _ data: Data) {
        let full = site + "/" + path
        try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: full, contents: data)
    }

    func audit() throws {
        try expectInputError("apps/", "healthaudit.yml") {
            let project = try ConfigLoader().parse(config, file: "healthaudit.yml", siteDirectory: site)
            let loader = ManifestLoader(siteDirectory: site)
            for app in project.apps {
                let audit = Checklist().audit(try loader.load(app))
                for finding in audit.findings where finding.location.file.isEmpty {
                    throw CheckFailed(description: "finding \(finding.ruleID) without a file")
                }
            }
        }
    }
}

/// The fuzzed bytes split at the first `\n%%\n` into two files (the project and its .xcconfig).
func halves(_ data: Data) -> (Data, Data) {
    let marker = Data("\n%%\n".utf8)
    guard let range = data.range(of: marker) else { return (data, Data()) }
    return (data.subdata(in: data.startIndex..<range.lowerBound), data.subdata(in: range.upperBound..<data.endIndex))
}

let xcodeApp = ScratchApp(name: "xcode", yaml: "apps:\n  - id: fuzz\n    name: Fuzz\n    root: apps/fuzz\n    project: Fuzz.xcodeproj\n",
                          files: ["apps/fuzz/Fuzz/Info.plist": "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>\n",
                                  "apps/fuzz/Fuzz/App.swift": "import HealthKit\nlet store = HKHealthStore()\n"])
let swiftApp = ScratchApp(name: "swift", yaml: "apps:\n  - id: fuzz\n    name: Fuzz\n    kind: swift\n    root: apps/fuzz\n    info_plist: Info.plist\n    sources: [Sources]\n",
                          files: ["apps/fuzz/Info.plist": "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>NSHealthShareUsageDescription</key><string>Fuzz reads your steps to chart them daily.</string></dict></plist>\n"])
let tuistApp = ScratchApp(name: "tuist", yaml: "apps:\n  - id: fuzz\n    name: Fuzz\n    root: apps/fuzz\n    tuist: Project.swift\n",
                          files: ["apps/fuzz/App/Info.plist": "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>NSHealthShareUsageDescription</key><string>Fuzz reads your steps to chart them daily.</string></dict></plist>\n",
                                  "apps/fuzz/App/Sources/App.swift": "import HealthKit\nlet store = HKHealthStore()\n"])

/// The scan's bound must hold against swift-syntax itself: the deepest run of `[` in the parser's
/// tokens, and in the lexer's (which its look-ahead reads), never exceeds the scan's.
func checkNestingBound(_ data: Data) throws {
    var text = String(decoding: data, as: UTF8.self)
    // Depths unbounded, readings not: text with more readings than the audit's limit is refused
    // (never parsed), and exploring 10,000 readings of it took the oracle minutes.
    var unbounded = SwiftNestingScan.Limits()
    unbounded.square = .max; unbounded.any = .max; unbounded.chainLinks = .max
    let (excess, reach) = SwiftNestingScan.scan(text, limits: unbounded)
    // Inputs the scan refuses are never parsed; only bounded inputs are parsed here, and only small
    // ones (a parse of a large malformed one may take its deadline).
    guard excess == nil, reach.square <= 12, reach.any <= 128, data.count <= 16 * 1024 else { return }
    struct Depths {
        var square = 0, any = 0, openSquare = 0, openAny = 0
        mutating func add(_ kind: RawTokenKind) {
            switch kind {
            case .leftSquare: openSquare += 1; openAny += 1
            case .leftParen, .leftBrace, .poundIf: openAny += 1
            case .rightSquare: openSquare = max(0, openSquare - 1); openAny = max(0, openAny - 1)
            case .rightParen, .rightBrace, .poundEndif: openAny = max(0, openAny - 1)
            default: break
            }
            square = max(square, openSquare); any = max(any, openAny)
        }
    }
    // Parsed as the audit parses (with its deadline): an unbounded parse of a file whose error
    // recovery is slow took the oracle 300 s.
    guard case .parsed(let tree) = BoundedSwiftParse.parse(text, budget: ParseBudget()) else { return }
    var parser = Depths(), lexer = Depths()
    for token in tree.tokens(viewMode: .sourceAccurate) { parser.add(token.rawTokenKind) }
    text.withUTF8 { buffer in
        var tracker = LookaheadTracker()
        withUnsafeMutablePointer(to: &tracker) { pointer in
            for lexeme in Lexer.tokenize(buffer, lookaheadTracker: pointer, experimentalFeatures: []) {
                if lexeme.rawTokenKind == .endOfFile { break }
                lexer.add(lexeme.rawTokenKind)
            }
        }
    }
    // `[` is the bound swift-syntax does not keep itself; deeper nesting of other kinds stops at its
    // own `maximumNestingLevel` (the tree is then refused), so only `[` must hold exactly.
    if parser.square > reach.square || lexer.square > reach.square {
        throw CheckFailed(description: "nesting scan bound \(reach.square)/\(reach.any) below swift-syntax's: parser \(parser.square)/\(parser.any), lexer \(lexer.square)/\(lexer.any)")
    }
}

let javaScriptApp = ScratchApp(name: "javascript", yaml: "apps:\n  - id: fuzz\n    name: Fuzz\n    kind: react-native\n    root: apps/fuzz\n",
                               files: ["apps/fuzz/package.json": "{\"name\": \"fuzz\", \"dependencies\": {\"react-native\": \"0.74.0\", \"react-native-health\": \"1.19.0\"}}\n",
                                       "apps/fuzz/app.json": "{\"expo\": {\"name\": \"fuzz\", \"plugins\": [\"react-native-health\"]}}\n"])

let auditTargets: [String: Target] = [
    "xcode": Target(name: "xcode", extensions: ["pbxproj", "xcconfig"]) { data in
        let (project, settings) = halves(data)
        xcodeApp.write("apps/fuzz/Fuzz.xcodeproj/project.pbxproj", project)
        xcodeApp.write("apps/fuzz/Fuzz.xcconfig", settings)
        try xcodeApp.audit()
    },
    "swift": Target(name: "swift", extensions: ["swift"]) { data in
        try checkNestingBound(data)
        swiftApp.write("apps/fuzz/Sources/Fuzz.swift", data)
        try swiftApp.audit()
    },
    // The Tuist reader: the bytes are the app's `Project.swift`, read by discovery both with a
    // config (`tuist:`) and without one (`check` in a folder), then audited.
    "tuist": Target(name: "tuist", extensions: ["swift"]) { data in
        tuistApp.write("apps/fuzz/Project.swift", data)
        _ = AppDiscovery.find(in: tuistApp.site + "/apps/fuzz")
        try tuistApp.audit()
    },
    "javascript": Target(name: "javascript", extensions: ["js", "jsx", "ts", "tsx"]) { data in
        let text = String(decoding: data, as: UTF8.self)
        for path in ["src/fuzz.tsx", "src/fuzz.ts"] {
            let file = JavaScriptFile(path: path, text: text)
            // Brackets are matched both ways or not at all.
            for (index, partner) in file.partner.enumerated() {
                if let partner, file.partner[partner] != index { throw CheckFailed(description: "unpaired bracket partner at token \(index)") }
            }
            _ = ReactNativeHealthScan.scan([file])
        }
        javaScriptApp.write("apps/fuzz/src/fuzz.tsx", data)
        try javaScriptApp.audit()
    },
    "http": Target(name: "http", extensions: ["http"]) { data in
        let bytes = [UInt8](data)
        let whole = RequestHeadProbe.describe(bytes, readSizes: [])
        let sizes = [1 + Int(data.count % 7), 3, 1 + Int(data.first ?? 0)]
        for split in [[1], sizes] where RequestHeadProbe.describe(bytes, readSizes: split) != whole {
            throw CheckFailed(description: "reads of \(split) bytes parse differently from one read")
        }
        // A target that parses is never a path that leaves the output folder.
        if let whole, whole.hasPrefix("head "), let target = whole.split(separator: " ").dropFirst(2).first,
           case .segments(let segments, _) = RequestPath(raw: String(target)),
           segments.contains(where: { $0 == ".." || $0 == "." || $0.contains("/") || $0.contains("\0") }) {
            throw CheckFailed(description: "request path escapes: \(segments)")
        }
    },
]

// The checks must fire on what they look for, or a quiet run means nothing.
for bad in ["<img src=\"x\" onerror=\"alert(1)\" />", "<a href=\"javascript:alert(1)\">x</a>", "<a href=\"&#106;avascript:x\">x</a>",
            "<script>alert(1)</script>", "<p><svg onload=alert(1)></p>"] {
    guard (try? checkSafeHTML(bad, context: "self-test")) == nil else { fatalError("self-test: the HTML check misses \(bad)") }
}
guard (try? checkLiteral("<p>a <em>b</em></p>", escapedFrom: "")) == nil else { fatalError("self-test: the literal check misses <em>") }

guard let target = targets[targetName] ?? auditTargets[targetName] ?? readerTargets()[targetName] else {
    FileHandle.standardError.write(Data("unknown target '\(targetName)' (plist, strings, config, markdown, xcode, swift, tuist, javascript, http, xcodegen, xcstrings, results)\n".utf8))
    exit(64)
}

// MARK: - Reproduce one input

if let file = arguments["reproduce"] {
    let data = try Data(contentsOf: URL(fileURLWithPath: file))
    verbose = true
    let started = Date()
    do {
        try target.run(data)
        say("ok (\(String(format: "%.3f", Date().timeIntervalSince(started))) s)")
    } catch {
        say("FINDING: \(error)")
        exit(1)
    }
    exit(0)
}

// MARK: - Seeds

func seeds(for target: Target) -> [Data] {
    var found: [Data] = []
    for folder in ["Site", "Tests/HardeningTests/Corpus", "Tests/ManifestTests"] {
        let base = repository + "/" + folder
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { continue }
        for path in enumerator.compactMap({ $0 as? String }).sorted() where !path.hasPrefix("public/") && !path.contains("/public/") {
            guard target.extensions.contains((path as NSString).pathExtension),
                  let data = FileManager.default.contents(atPath: base + "/" + path), data.count < 256 * 1024 else { continue }
            found.append(data)
        }
    }
    if target.name == "xcode", let project = FileManager.default.contents(atPath: repository + "/Tests/HardeningTests/Corpus/xcode/xcconfig-based.pbxproj") {
        // The corpus project bases its app target on Fuzz.xcconfig (the second half of the input),
        // so mutations reach the .xcconfig reader: includes, assignments, conditions, expansion.
        let settings = "#include? \"Shared.xcconfig\"\nA1 = $(SHARE_TEXT)\nA2 = $(A1)$(A1)\nSHARE_TEXT = Fuzz reads your steps to chart them every day.\nSHARE_TEXT[sdk=iphoneos*] = $(inherited) $(PRODUCT_NAME:rfc1034identifier)\n"
        found.append(project + Data(("\n%%\n" + settings).utf8))
    }
    if target.name == "http" {
        found += ["GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "HEAD /apps/x/index.html?x=1 HTTP/1.0\r\nHost: localhost:8000\r\nX: y\r\n\r\n",
                  "\r\nGET /%2e%2e/etc HTTP/1.1\nHost: a\n\n", "POST /__healthaudit/status HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"].map { Data($0.utf8) }
    }
    found += readerSeeds(target.name)
    if found.isEmpty { found.append(Data("seed".utf8)) }
    return found
}

// MARK: - Mutation

struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

let tokens: [[UInt8]] = [
    "<dict>", "</dict>", "<array>", "</array>", "<key>NSHealthShareUsageDescription</key>", "<string>", "</string>",
    "<true/>", "<integer>99999999999999999999</integer>", "<real>nan</real>", "<date>", "<data>", "<!--", "-->", "<![CDATA[", "]]>",
    "<?xml version=\"1.0\"?>", "<!DOCTYPE x [<!ENTITY a \"aaaa\">]>", "&a;", "&#0;", "&#x110000;", "&lt;", "&",
    "\"", "\\", "\\U", "\\u00", "/*", "*/", "//", ";", "=", "\n", "\r\n", "\t",
    "&a", "*a", "&a [", "*a,", "[", "]", "{", "}", ": ", "- ", "? ", "!!str ", "!!binary ", "---\n", "...\n", "|\n", ">-\n", "%YAML 1.1\n", "#",
    "> ", "> > > > ", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))", "![x](javascript:alert(1))", "<javascript:alert(1)>", "[a]: javascript:x\n[a]",
    "\"><svg onload=alert(1)>", "{{{x}}}", "```", "~~~ onload=x\n", "# ", "| a |\n|---|\n", "\u{202E}", "\u{FEFF}", "\u{0}",
    "bplist00", "$(PRODUCT_NAME)", "${A:rfc1034identifier}", "..", "/etc/passwd", "0000-01-01", "9999-12-31",
    // Swift's lexical states: interpolations, raw and multi-line literals, regex literals, names.
    "\\(", "\\#(", "#\"", "\"#", "\"\"\"", "#/", "/#", "'", "`", "<#", "#>", ".b", "()", "<data>", "#if X\n", "#endif\n",
    ".target(name: \"A\", product: .app)", "Project(", "targets: [",
].map { Array($0.utf8) }

func mutate(_ input: [UInt8], corpus: [[UInt8]], rng: inout SplitMix64) -> [UInt8] {
    var bytes = input
    for _ in 0...rng.below(4) {
        let position = rng.below(bytes.count + 1)
        switch rng.below(13) {
        case 0: // bit flip
            if !bytes.isEmpty { bytes[rng.below(bytes.count)] ^= UInt8(1 << rng.below(8)) }
        case 1: // random byte
            if !bytes.isEmpty { bytes[rng.below(bytes.count)] = UInt8(truncatingIfNeeded: rng.next()) }
        case 2: // truncate
            bytes = Array(bytes.prefix(position))
        case 3: // delete a range
            let end = min(bytes.count, position + rng.below(64))
            if position < end { bytes.removeSubrange(position..<end) }
        case 4: // duplicate a range
            let end = min(bytes.count, position + rng.below(256))
            if position < end { bytes.insert(contentsOf: bytes[position..<end], at: position) }
        case 5: // splice with another seed
            let other = corpus[rng.below(corpus.count)]
            let from = rng.below(other.count + 1)
            bytes = Array(bytes.prefix(position)) + other.suffix(from: from)
        case 6, 7: // insert a token
            bytes.insert(contentsOf: tokens[rng.below(tokens.count)], at: position)
        case 8: // a token repeated: nesting and alias bombs
            let token = tokens[rng.below(tokens.count)]
            let count = [2, 10, 65, 100, 1000, 10_000][rng.below(6)]
            bytes.insert(contentsOf: Array([[UInt8]](repeating: token, count: count).joined()), at: position)
        case 9: // 0xFF / invalid UTF-8 bytes
            bytes.insert(contentsOf: [0xFF, 0xFE, 0xC0, 0x80, 0xED, 0xA0, 0x80][...rng.below(7)], at: position)
        case 10: // UTF-16 with or without BOM
            let text = String(decoding: bytes, as: UTF8.self)
            let bigEndian = rng.chance(50)
            var utf16: [UInt8] = rng.chance(50) ? [] : (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE])
            for unit in text.utf16 { utf16 += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            bytes = utf16
        case 11: // odd BOMs at the front
            bytes.insert(contentsOf: [[0xFF, 0xFE], [0xFE, 0xFF], [0xEF, 0xBB, 0xBF], [0x00]][rng.below(4)], at: 0)
        default: // interesting integers in binary data (offsets in a binary plist's trailer)
            if bytes.count >= 8 {
                let at = rng.chance(50) ? max(0, bytes.count - 1 - rng.below(32)) : rng.below(bytes.count)
                bytes[at] = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x08, 0x10][rng.below(7)]
            }
        }
        if bytes.count > 4 * 1024 * 1024 { bytes = Array(bytes.prefix(4 * 1024 * 1024)) }
    }
    return bytes
}

// MARK: - Loop

/// CPU seconds of the process (every thread, user and system): an input's cost, which wall time on
/// a shared machine overstates tenfold. Parses abandoned at their deadline (by this input or an
/// earlier one) go on at idle priority without the audit waiting for them; their time is left out.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(0 /* RUSAGE_SELF */, &usage)
    let process = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return process - BoundedSwiftParse.abandoned.cpuSeconds
}

let corpus = seeds(for: target).map { [UInt8]($0) }
var rng = SplitMix64(state: seed)
let currentPath = work + "/\(target.name).current"
let findingPath = work + "/\(target.name).finding"
let currentDescriptor = open(currentPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
guard currentDescriptor >= 0 else { fatalError("cannot open \(currentPath)") }

func saveCurrent(_ bytes: [UInt8]) {
    _ = ftruncate(currentDescriptor, 0)
    _ = bytes.withUnsafeBytes { pwrite(currentDescriptor, $0.baseAddress, $0.count, 0) }
}

say("fuzzing \(target.name): \(Plural.count(corpus.count, "seed input")), seed \(seed), \(Int(seconds)) s; current input in \(currentPath)")
let start = Date()
var iterations = 0
var slowest = 0.0
var outcome = "none"
while Date().timeIntervalSince(start) < seconds {
    let input = iterations < corpus.count ? corpus[iterations] : mutate(corpus[rng.below(corpus.count)], corpus: corpus, rng: &rng)
    saveCurrent(input)
    let began = DispatchTime.now().uptimeNanoseconds
    let beganCPU = cpuSeconds()
    do {
        try target.run(Data(input))
    } catch {
        outcome = "\(error)"
    }
    let took = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
    let tookCPU = cpuSeconds() - beganCPU
    slowest = max(slowest, tookCPU)
    if tookCPU > 5 && outcome == "none" {
        outcome = "slow input: \(String(format: "%.1f", tookCPU)) s of CPU (\(String(format: "%.1f", took)) s wall) for \(input.count) bytes"
    }
    iterations += 1
    if outcome != "none" {
        _ = FileManager.default.createFile(atPath: findingPath, contents: Data(input))
        say("FINDING at iteration \(iterations) (seed \(seed)): \(outcome)\n  input saved to \(findingPath)")
        break
    }
    if iterations % 20_000 == 0 { say("  \(iterations) iterations, \(Int(Date().timeIntervalSince(start))) s") }
}
let findings = outcome == "none" ? 0 : 1
say("RESULT target=\(target.name) iterations=\(iterations) seconds=\(Int(Date().timeIntervalSince(start).rounded())) findings=\(findings) slowest=\(String(format: "%.3f", slowest))s of CPU")
exit(findings == 0 ? 0 : 1)
