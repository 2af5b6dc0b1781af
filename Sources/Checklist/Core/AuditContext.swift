import Manifest
import SwiftParser
import SwiftSyntax

/// A Swift file as one target compiles it: the file's one parse (`ParsedFile`, shared by every
/// target and app that compiles the file) and the target it is read for.
public struct ParsedSource: Sendable {
    public let file: SourceFile
    let parsed: ParsedFile
    public var tree: SourceFileSyntax { parsed.tree }
    /// The target (app or extension id) the file belongs to, and whether it is an extension.
    public let target: String
    public let isExtension: Bool
    /// From a dependency (development pod, local package, `extra_sources`), not the app's own targets.
    public var isDependency: Bool { file.isDependency }
    /// Why the file was not analysed (refused or not parsed in time by `BoundedSwiftParse`), or nil.
    public var notAnalysed: UnanalysedFile? { parsed.notAnalysed }
    /// The file's calls by name, less those this target does not compile (`CompiledOutCode`).
    let callsByName: [String: [FunctionCallExprSyntax]]
    /// The target's compilation conditions, when known and the file has `#if` clauses they decide.
    let compilationConditions: Set<String>?
    private var lines: LineTable { parsed.lines }

    public init(file: SourceFile, target: String, isExtension: Bool, budget: ParseBudget = ParseBudget()) {
        self.init(file: file, parsed: ParsedFile(path: file.path, text: file.text, budget: budget), target: target, isExtension: isExtension)
    }

    init(file: SourceFile, parsed: ParsedFile, target: String, isExtension: Bool, conditions: Set<String>? = nil) {
        self.file = file
        self.parsed = parsed
        self.target = target
        self.isExtension = isExtension
        if let conditions, parsed.hasConditionalCode {
            compilationConditions = conditions
            callsByName = parsed.callsByName.mapValues { calls in calls.filter { !CompiledOutCode.excludes($0, conditions: conditions) } }
        } else {
            compilationConditions = nil
            callsByName = parsed.callsByName
        }
    }

    /// The same file read for another target.
    var key: ParsedFile.Key { ParsedFile.Key(path: file.path, text: file.text) }

    /// The calls of one name, in source order.
    func calls(named name: String) -> [FunctionCallExprSyntax] { callsByName[name] ?? [] }

    /// The calls of any of `names`, in source order.
    func calls(named names: Set<String>) -> [FunctionCallExprSyntax] {
        names.count == 1 ? calls(named: names.first!) : names.flatMap { calls(named: $0) }.sorted { $0.position < $1.position }
    }

    /// File, line and column of the first token of `node` (after leading trivia).
    public func location(of node: some SyntaxProtocol) -> FileLocation {
        let position = node.positionAfterSkippingLeadingTrivia
        let location = lines.location(ofUTF8Offset: position.utf8Offset)
        return FileLocation(file: file.path, line: location.line, column: location.column)
    }

    /// The UTF-8 offset of a line and column (both from 1, the column in bytes), as `location(of:)` gives them.
    func utf8Offset(line: Int, column: Int) -> Int? {
        guard let range = lines.range(ofLine: line) else { return nil }
        return min(range.lowerBound + max(column - 1, 0), max(range.upperBound - 1, range.lowerBound))
    }

    /// The source line as written, trimmed, for evidence.
    public func lineText(_ line: Int) -> String {
        guard let range = lines.range(ofLine: line) else { return "" }
        // Spaces and tabs trimmed on the bytes; Foundation's trim (slow on Linux) only for the rare
        // line that still starts or ends with a non-ASCII character, which may be a Unicode space.
        var needsFoundation = false
        let line = file.text.utf8.withContiguousStorageIfAvailable { bytes in
            var start = range.lowerBound, end = range.upperBound
            while end > start, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D || bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            needsFoundation = start < end && (bytes[start] >= 0x80 || bytes[end - 1] >= 0x80)
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        } ?? ""
        return needsFoundation ? line.trimmingCharacters(in: .whitespaces) : line
    }

    public func quote(_ node: some SyntaxProtocol) -> String {
        lineText(location(of: node).line ?? 0)
    }

    /// Whether the parser had to recover from errors (the file does not parse as Swift).
    public var hasSyntaxErrors: Bool { tree.hasError }
}

/// Everything rules look at for one app: its manifest, its parsed sources and the HealthKit types
/// it asks for (the config's, widened by what the code requests). Built once, before any rule runs,
/// and only read afterwards: rules run side by side on the same value.
public struct AuditContext: Sendable {
    public let manifest: AppManifest
    public let sources: [ParsedSource]
    public let requestedRead: Set<String>
    public let requestedShare: Set<String>
    /// What the app's own Info.plist and entitlements must cover: the same, without the requests of
    /// its watch applications (each asks with its own Info.plist and signs with its own entitlements;
    /// an extension's requests are its host app's).
    public let appRequestedRead: Set<String>
    public let appRequestedShare: Set<String>
    /// The app's watch applications (targets of their own, with their own Info.plist and entitlements).
    let watchAppIDs: Set<String>
    /// Requests whose types the scan could not follow: beside the types above, the app asks for
    /// more that no one can list from the code. Empty for a direction the config's `requested:`
    /// lists, as the config then says what the app asks for.
    public let unresolvedRead: UnresolvedRequests
    public let unresolvedShare: UnresolvedRequests
    /// What the app's code does with HealthKit, per target, extracted once before any rule runs:
    /// Swift by one syntax walk per file, JavaScript / TypeScript by one token pass per file.
    public let usage: HealthKitUsage
    /// Each HealthKit write with the status check that decides it at write time (questions 3 and 6 read them).
    public let writeGates: [WriteGate]
    /// The app's JavaScript and Dart functions nothing in the app calls.
    let uncalledScripts: UncalledAppScripts
    /// The app's Swift functions nothing in the app calls; nil when the app's entry point was not read.
    let uncalledSwift: UncalledFunctions?
    /// The app's Swift functions and properties that ask `authorizationStatus(for:)`, found once for
    /// the write gates and the rules that follow a status into a read.
    let statusHelpers: [String: GateFinder.EvidenceList]
    /// The app's functions that read HealthKit and write nothing (see `AppReadingFunctions`).
    let appReaders: AppReadingFunctions
    /// The JavaScript library calls behind the JavaScript facts, for rules that look around a call.
    public let javaScriptCalls: [JavaScriptHealthKitCall]
    /// The `package:health` calls behind the Dart facts (`file` indexes `AppManifest.dartSources`).
    public let dartCalls: [JavaScriptHealthKitCall]
    /// Every JavaScript and Dart library call with the file it is in.
    var libraryCalls: [(call: JavaScriptHealthKitCall, file: JavaScriptFile)] {
        javaScriptCalls.map { ($0, manifest.javaScriptSources[$0.file]) } + dartCalls.map { ($0, manifest.dartSources[$0.file]) }
    }

    /// The types the JavaScript and Dart libraries' authorization calls ask for, through each
    /// library's names (react-native-health's are in `manifest.reactNativeHealth`).
    public let wrapperRequests: [WrapperTypeRequest]
    /// Whether every list the wrappers' requests pass was followed to its names.
    let wrapperRequestsComplete: Bool
    /// Which names hold a HealthKit store, built once for every rule.
    let vocabulary: HealthKitVocabulary
    /// The Swift `requestAuthorization(toShare:read:)` calls with the types each asks for, resolved
    /// once for every rule that judges them.
    let resolvedRequests: [ResolvedRequest]
    /// Resolves type expressions (`authorizationStatus(for:)` arguments) the same way.
    let typeResolver: RequestedTypeResolver
    /// What the scan could not establish, shown on the report instead of a guess.
    public let notes: [String]

    public init(manifest: AppManifest) { self.init(manifest: manifest, files: ParsedFiles()) }

    /// `files`: the run's parses, so a file several targets or apps compile is parsed and indexed once.
    init(manifest: AppManifest, files: ParsedFiles) {
        self.manifest = manifest
        let inputs = manifest.targets.flatMap { target in
            target.sources.map { (file: $0, target: target.id, isExtension: target.isExtension, conditions: target.compilationConditions) }
        }
        let budget = manifest.parseBudget
        let keys = inputs.map { ParsedFile.Key(path: $0.file.path, text: $0.file.text) }
        var distinct: Set<ParsedFile.Key> = []
        let unique = keys.filter { distinct.insert($0).inserted }
        let parses = ParallelMap.map(unique) { files.parsed($0, budget: budget) }
        let byKey = Dictionary(zip(unique, parses)) { first, _ in first }
        sources = zip(inputs, keys).map { input, key in
            ParsedSource(file: input.file, parsed: byKey[key]!, target: input.target, isExtension: input.isExtension, conditions: input.conditions)
        }
        vocabulary = HealthKitVocabulary(sources: sources)
        let javaScript = JavaScriptHealthKitFacts.extract(manifest.javaScriptSources, target: manifest.id,
                                                          plugins: manifest.javaScriptSources.isEmpty ? [:] : AppPlugins.find(in: sources))
        javaScriptCalls = javaScript.calls
        let swift = HealthKitUsage.extract(from: sources, vocabulary: vocabulary)
        let dart = DartHealthKitFacts.extract(manifest.dartSources, target: manifest.id)
        dartCalls = dart.calls
        typeResolver = RequestedTypeResolver(sources: sources)
        usage = HealthKitUsage(facts: Self.resolvingTypes(of: swift.facts, sources: sources, resolver: typeResolver) + javaScript.facts + dart.facts,
                               widgetProviders: swift.widgetProviders)
        uncalledScripts = UncalledAppScripts(manifest)
        uncalledSwift = UncalledFunctions(sources: sources)
        statusHelpers = GateFinder.helpers(sources, gate: .status)
        appReaders = AppReadingFunctions(usage: usage, sources: sources)
        writeGates = WriteGates.of(usage, sources: sources, manifest: manifest, javaScriptCalls: javaScript.calls, dartCalls: dart.calls,
                                   uncalledSwift: uncalledSwift, statusHelpers: statusHelpers,
                                   uncalledScripts: uncalledScripts)
        resolvedRequests = typeResolver.requests()
        // Types asked for only in code count as requested, so manifest rules and the store see them.
        let wrappers = WrapperRequestedTypes.extract(javaScript: javaScript.calls, files: manifest.javaScriptSources, dart: dart.calls,
                                                     dartFiles: manifest.dartSources)
        wrapperRequests = wrappers.requests
        wrapperRequestsComplete = wrappers.complete
        let codeRequests = CodeRequestedTypes(swift: resolvedRequests, reactNative: manifest.reactNativeHealth)
        let wrapperRead = wrappers.requests.filter { $0.direction == .read }.map(\.type.name)
        let wrapperShare = wrappers.requests.filter { $0.direction == .share }.map(\.type.name)
        requestedRead = Set(manifest.config.requested.read.map(\.value)).union(codeRequests.read).union(wrapperRead)
        requestedShare = Set(manifest.config.requested.share.map(\.value)).union(codeRequests.share).union(wrapperShare)
        let watchApps = Set(manifest.targets.filter { $0.kind == .watchApp }.map(\.id))
        watchAppIDs = watchApps
        if watchApps.isEmpty {
            (appRequestedRead, appRequestedShare) = (requestedRead, requestedShare)
        } else {
            let own = CodeRequestedTypes(swift: resolvedRequests.filter { !watchApps.contains($0.source.target) }, reactNative: manifest.reactNativeHealth)
            appRequestedRead = Set(manifest.config.requested.read.map(\.value)).union(own.read).union(wrapperRead)
            appRequestedShare = Set(manifest.config.requested.share.map(\.value)).union(own.share).union(wrapperShare)
        }
        // What the code leaves unknown is answered by the config's list, which `init` writes to fill.
        unresolvedRead = manifest.config.requested.read.isEmpty
            ? UnresolvedRequests(codeRequests.unresolvedRead + wrappers.unresolved.filter { $0.direction == .read }.map(\.place)) : UnresolvedRequests()
        unresolvedShare = manifest.config.requested.share.isEmpty
            ? UnresolvedRequests(codeRequests.unresolvedShare + wrappers.unresolved.filter { $0.direction == .share }.map(\.place)) : UnresolvedRequests()
        // The audit still completes on a file that does not parse; say so rather than trust silence.
        // (Files not analysed at all, or only in part, are findings: `FileNotAnalysedRule`.)
        let allNotes = Self.missingManifestNotes(manifest) + sources.filter(\.hasSyntaxErrors).map { "\($0.file.path) does not parse as Swift: its rules saw only what the parser could recover" }
            + codeRequests.notes + wrappers.notes
        var seen: Set<String> = []
        notes = allNotes.filter { seen.insert($0).inserted }
    }

    /// Status checks carry the types they ask about, where the code shows them all.
    private static func resolvingTypes(of facts: [HealthKitFact], sources: [ParsedSource], resolver: RequestedTypeResolver) -> [HealthKitFact] {
        guard facts.contains(where: { $0.kind == .statusCheck }) else { return facts }
        let byPath = Dictionary(sources.map { ($0.file.path, $0) }) { first, _ in first }
        return facts.map { fact in
            guard fact.kind == .statusCheck, case .syntax(let node)? = fact.site, let call = node.as(FunctionCallExprSyntax.self),
                  let argument = call.arguments.first?.expression, let source = byPath[fact.evidence.location.file] else { return fact }
            let set = resolver.types(of: argument, in: source)
            guard set.isResolved else { return fact }
            var resolved = fact
            resolved.types = Array(Set(set.names.map(\.name))).sorted()
            return resolved
        }
    }

    /// What the audit could not read at all, so answers about it are "cannot tell".
    /// (`AppManifest.lacksInfoPlist` is also what makes question 4 "cannot tell".)
    static func missingManifestNotes(_ manifest: AppManifest) -> [String] {
        var notes: [String] = []
        if manifest.lacksInfoPlist {
            notes.append("no Info.plist was found for \(manifest.id) (configure `info_plist:` or `project:`, or keep an XcodeGen project.yml with `info.properties` at the app root): the usage strings cannot be judged")
        }
        if manifest.main.entitlements == nil && manifest.config.project == nil {
            notes.append("no entitlements file was found for \(manifest.id) (configure `entitlements:` or `project:`): the HealthKit entitlement cannot be checked")
        }
        return notes
    }

    /// True when the audit has code to look at (Swift, or an app's JavaScript / TypeScript or Dart);
    /// questions that need code say "cannot tell" otherwise.
    public var hasSources: Bool { !sources.isEmpty || !manifest.javaScriptSources.isEmpty || !manifest.dartSources.isEmpty }

    public var healthKitEntitlement: PlistValue? { manifest.main.entitlements?["com.apple.developer.healthkit"] }
    public var hasHealthKitEntitlement: Bool { healthKitEntitlement?.bool == true }

    public var requestedTypes: Set<String> { requestedRead.union(requestedShare) }

    /// The oldest iOS the app installs on, from `IPHONEOS_DEPLOYMENT_TARGET` (the project's, or the
    /// config's `build_settings`); nil when neither sets it.
    var deploymentTarget: DeploymentTarget? {
        let key = "IPHONEOS_DEPLOYMENT_TARGET"
        guard let written = manifest.config.buildSettings[key], let major = Int(written.split(separator: ".").first ?? "") else { return nil }
        let origin = manifest.config.buildSettingOrigins[key].map { "\($0.location.file):\($0.location.line ?? 0)" }
        return DeploymentTarget(major: major, written: written, origin: origin)
    }

    /// The app says it uses HealthKit: the entitlement, a usage string, requested types, or a
    /// react-native-health setup. With no HealthKit call visible, questions are then "cannot tell",
    /// never "not applicable".
    public var declaresHealthKit: Bool {
        hasHealthKitEntitlement || !requestedTypes.isEmpty || manifest.reactNativeHealth != nil || !manifest.healthKitDependencies.isEmpty
            || ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"].contains { manifest.usageString($0) != nil }
    }
}

extension AppManifest {
    /// No Info.plist and no `INFOPLIST_KEY_NSHealth…` settings: the usage strings cannot be judged.
    var lacksInfoPlist: Bool {
        main.infoPlist == nil && !config.buildSettings.keys.contains { $0.hasPrefix("INFOPLIST_KEY_NSHealth") }
    }
}

/// `IPHONEOS_DEPLOYMENT_TARGET` as written, its major version, and where it is set (file:line).
struct DeploymentTarget {
    let major: Int
    let written: String
    let origin: String?
}
