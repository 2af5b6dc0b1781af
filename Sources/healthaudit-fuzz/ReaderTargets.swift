// Targets for the XcodeGen spec reader, string catalogs and `check --format json` results.
import Foundation
import Manifest
import Report
import SiteBuild

// MARK: - XcodeGen

/// A spec with the parts the discovery reads (application and framework targets, `info` and
/// `entitlements` properties, sources, dependencies) and an `include:` of the second half.
let xcodeGenSeeds = [
    """
    name: Fuzz
    include:
      - extra.yml
      - path: extra.yml
    options:
      bundleIdPrefix: app.fuzz
    targets:
      Fuzz:
        type: application
        platform: iOS
        sources:
          - Fuzz
          - path: Shared
        dependencies:
          - target: Kit
        info:
          path: Fuzz/Info.plist
          properties:
            CFBundleDisplayName: Fuzz
            NSHealthShareUsageDescription: "Fuzz reads your steps to chart them daily."
            UIRequiredDeviceCapabilities: [healthkit]
        entitlements:
          path: Fuzz/Fuzz.entitlements
          properties:
            com.apple.developer.healthkit: true
            com.apple.developer.healthkit.access: []
    %%
    targets:
      Kit:
        type: framework
        platform: iOS
        sources: [Kit]
      Fuzz:
        info:
          properties:
            NSHealthUpdateUsageDescription: Fuzz saves the workouts you record.
    """,
    "targets:\n  Fuzz: {type: application, sources: [Fuzz], info: {properties: {NSHealthShareUsageDescription: 'Fuzz reads steps.'}}}\n%%\ninclude: [project.yml]\n",
]

let xcodeGenApp = ScratchApp(name: "xcodegen", yaml: "apps:\n  - id: fuzz\n    name: Fuzz\n    root: apps/fuzz\n",
                             files: ["apps/fuzz/Fuzz/App.swift": "import HealthKit\nlet store = HKHealthStore()\n",
                                     "apps/fuzz/Shared/Model.swift": "struct Model {}\n",
                                     "apps/fuzz/Kit/Kit.swift": "import HealthKit\nfunc kit(_ store: HKHealthStore) {}\n"])

// MARK: - String catalogs

/// Every key's line is in the file, and a key written without escapes is on the line it cites:
/// a catalog on one line (`jq -c`) or indented any way gives the same answer.
func checkCatalogLines(_ catalog: StringCatalog, data: Data) throws {
    let lines = TextLines.split(String(decoding: data, as: UTF8.self))
    for (key, line) in catalog.keys {
        guard line >= 1, line <= max(1, lines.count) else { throw CheckFailed(description: "key '\(key)' cites line \(line) of \(lines.count)") }
        let plain = key.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "\"" && $0 != "\\" && $0 != "/" }
        // UTF-16 and UTF-32 catalogs are read too, but their lines cannot be compared as UTF-8 text here.
        let utf8 = String(data: data, encoding: .utf8) != nil && !data.prefix(4).contains(0) && !data.starts(with: [0xFF, 0xFE]) && !data.starts(with: [0xFE, 0xFF])
        guard plain, utf8, !lines[line - 1].contains("\\u") else { continue }
        // Foundation's JSON reader drops a U+FEFF that begins a string (as a byte-order mark), so a
        // key written `"\u{FEFF}NSHealth…"` is read as `NSHealth…`: the line is compared without them.
        let needle = Array(("\"" + key + "\"").replacingOccurrences(of: "\u{FEFF}", with: "").utf8), haystack = Array(lines[line - 1].replacingOccurrences(of: "\u{FEFF}", with: "").utf8)
        let found = haystack.count >= needle.count && (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
        if !found { throw CheckFailed(description: "key '\(key)' cites line \(line), which does not hold it") }
    }
    for entry in catalog.localizations where !catalog.keys.contains(where: { $0.key == entry.key && $0.line == entry.line }) {
        throw CheckFailed(description: "localization of '\(entry.key)' cites line \(entry.line), its key another")
    }
}

/// The repository's catalogs, also as `jq -c` writes them (one line).
func catalogSeeds() -> [Data] {
    var found: [Data] = []
    for folder in ["Site", "Tests"] {
        let base = repository + "/" + folder
        for path in (FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []).sorted() where path.hasSuffix(".xcstrings") {
            guard let data = FileManager.default.contents(atPath: base + "/" + path) else { continue }
            found.append(data)
            if let object = try? JSONSerialization.jsonObject(with: data), let compact = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
                found.append(compact)
            }
        }
    }
    return found
}

// MARK: - Results

/// The embedded site's `check --format json`, written in-process as the CLI writes it.
func resultSeeds() -> [Data] {
    let site = repository + "/Site"
    guard let state = try? Pipeline.auditAndSimulate.run(BuildOptions(siteDirectory: site, log: SilentLog())) else { return [] }
    var context = OutputContext(sitePrefix: "Site", siteDirectory: site)
    context.title = state.config?.title ?? "Fuzz"
    context.summaries = state.summaries
    context.source = ResultSource(commit: String(repeating: "ab", count: 20), urlTemplate: "https://forge.example/r/blob/{commit}/{path}#L{line}", sitePath: "Site")
    let full = JSONReport.render(state.audits, context: context)
    // One app per result too: smaller inputs, more iterations.
    guard let object = try? JSONSerialization.jsonObject(with: Data(full.utf8)) as? [String: Any], let apps = object["apps"] as? [Any] else { return [Data(full.utf8)] }
    return [Data(full.utf8)] + apps.compactMap { app in
        var single = object
        single["apps"] = [app]
        return try? JSONSerialization.data(withJSONObject: single, options: [.sortedKeys, .prettyPrinted])
    }
}

let resultsFolder = work + "/results-in"

func readerTargets() -> [String: Target] {
    [
        "xcodegen": Target(name: "xcodegen", extensions: []) { data in
            let (spec, included) = halves(data)
            xcodeGenApp.write("apps/fuzz/project.yml", spec)
            xcodeGenApp.write("apps/fuzz/extra.yml", included)
            try xcodeGenApp.audit()
            // Without a config, as `check` finds apps: the same spec through the discovery's reader.
            _ = AppDiscovery.find(in: xcodeGenApp.site + "/apps/fuzz")
        },
        "xcstrings": Target(name: "xcstrings", extensions: []) { data in
            try expectInputError("Fuzz/InfoPlist.xcstrings") {
                try checkCatalogLines(try StringCatalog.parse(data, path: "Fuzz/InfoPlist.xcstrings"), data: data)
            }
        },
        "results": Target(name: "results", extensions: []) { data in
            // Reading throws ResultFormatError for what it refuses; any other outcome is a finding.
            let readable: Bool
            do { _ = try ResultReader.read(data); readable = true } catch { readable = false }
            if let root = try? JSONParser.parse(data) { _ = try? ResultReader.historyRecord(root, stamp: "2026-04-01T000000") }
            guard readable else { return }
            // A result that reads renders as `build --results` renders it, in memory.
            try? FileManager.default.removeItem(atPath: resultsFolder)
            try? FileManager.default.createDirectory(atPath: resultsFolder, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: resultsFolder + "/fuzz.json", contents: data)
            var options = BuildOptions(siteDirectory: resultsFolder, outputDirectory: work + "/results-out", log: SilentLog())
            options.resultsDirectory = resultsFolder
            do { try Pipeline(steps: [.loadResults, .render]).run(options) } catch let error as BuildFailed {
                if verbose { say("expected: \(error)") }
                if error.diagnostics.contains(where: { $0.problem.location.file.isEmpty || $0.problem.message.isEmpty }) {
                    throw CheckFailed(description: "a build diagnostic without a file or message: \(error)")
                }
            }
        },
    ]
}

/// Seeds of the targets above, which no file extension finds.
func readerSeeds(_ target: String) -> [Data] {
    switch target {
    case "xcodegen": xcodeGenSeeds.map { Data($0.utf8) }
    case "xcstrings": catalogSeeds()
    case "results": resultSeeds()
    default: []
    }
}
