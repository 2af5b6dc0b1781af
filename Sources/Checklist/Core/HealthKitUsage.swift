import Manifest
import SwiftSyntax

/// One thing a target's code does with HealthKit, with the evidence: where, and the line as written.
public struct HealthKitFact: Sendable, Hashable {
    /// What the call means to HealthKit; wrapper libraries' methods map onto the same meanings (`HealthKitLibrary`).
    public typealias Kind = HealthKitCallMeaning

    /// Where a fact's call is, for rules and answers that look around it.
    public enum Site: Sendable, Hashable {
        /// A Swift call's syntax node.
        case syntax(Syntax)
        /// A JavaScript / TypeScript (`file` indexes `AppManifest.javaScriptSources`) or Dart
        /// (`AppManifest.dartSources`) library call: the token of its method name.
        case token(language: Language, file: Int, token: Int)
    }

    public enum Language: String, Sendable, Hashable { case swift, javaScript, dart }

    public var kind: Kind
    /// The target (app or extension id) whose code it is, and whether that target is an extension.
    public var target: String
    public var isExtension: Bool
    public var evidence: Evidence
    public var site: Site?
    /// Code a dependency brings (a local package, a development pod, `extra_sources`), not the app's own targets.
    public var isDependency: Bool = false
    /// Inside an `#if DEBUG` (or `#if targetEnvironment(simulator)`) clause: it never ships.
    public var isDebugOnly: Bool = false
    /// The HealthKit types the call names, where the code shows them (`authorizationStatus(for:)`'s argument resolved).
    public var types: [String] = []
    /// The wrapper library whose call this is (react-native-health, `package:health`, SpeziHealthKit); nil for HealthKit's own.
    public var library: HealthKitLibrary?

    public init(kind: Kind, target: String, isExtension: Bool, evidence: Evidence, site: Site? = nil, isDependency: Bool = false,
                isDebugOnly: Bool = false) {
        self.kind = kind; self.target = target; self.isExtension = isExtension; self.evidence = evidence; self.site = site
        self.isDependency = isDependency; self.isDebugOnly = isDebugOnly
    }

    public var language: Language {
        if case .token(let language, _, _)? = site { return language }
        return .swift
    }

    /// A call that ships: not in `#if DEBUG` code.
    public var ships: Bool { !isDebugOnly }
}

/// What the app's code does with HealthKit, extracted once per audit from every target's sources:
/// answers cite these facts, so a database `save`, a notification `requestAuthorization` or
/// EventKit's `authorizationStatus(for: .event)` can never stand as HealthKit evidence.
public struct HealthKitUsage: Sendable {
    public let facts: [HealthKitFact]
    /// Widget, control and complication providers (WidgetKit, ClockKit) wherever they are compiled:
    /// code that runs where no permission sheet can be shown, whether or not in an extension target.
    public let widgetProviders: [WidgetProvider]

    public init(facts: [HealthKitFact], widgetProviders: [WidgetProvider] = []) {
        self.facts = facts
        self.widgetProviders = widgetProviders
    }

    public func facts(_ kind: HealthKitFact.Kind, extensionsOnly: Bool = false) -> [HealthKitFact] {
        facts.filter { $0.kind == kind && (!extensionsOnly || $0.isExtension) }
    }

    /// Code that touches HealthKit data or permissions at all (not only an availability check).
    public var callsHealthKit: Bool { facts.contains { $0.kind != .availabilityCheck } }

    /// Targets whose code reads, writes or asks, in order of first appearance.
    public var targetsUsingHealthKit: [String] {
        var seen: [String] = []
        for fact in facts where fact.kind != .availabilityCheck && !seen.contains(fact.target) { seen.append(fact.target) }
        return seen
    }

    /// Extracts the facts of every parsed file, files side by side, from the nodes the file's one
    /// syntax walk indexed (`SyntaxIndex`): calls and type declarations, in source order.
    /// A file several targets compile is walked once, its facts then stamped with each target.
    static func extract(from sources: [ParsedSource], vocabulary: HealthKitVocabulary) -> HealthKitUsage {
        let files = UniqueFiles(sources)
        let perFile = ParallelMap.map(files.first) { source in
            let extractor = FactExtractor(source: source, vocabulary: vocabulary)
            extractor.extract()
            return (extractor.facts, extractor.providers)
        }
        var facts: [HealthKitFact] = [], providers: [WidgetProvider] = []
        for (source, index) in zip(sources, files.index) {
            let (found, serving) = perFile[index]
            // A call under `#if !WIDGET` is not in the widget's build of the shared file.
            let compiled = source.compilationConditions.map { conditions in
                found.filter { fact in
                    guard case .syntax(let node)? = fact.site else { return true }
                    return !CompiledOutCode.excludes(node, conditions: conditions)
                }
            } ?? found
            facts += compiled.map { fact in
                var fact = fact
                fact.target = source.target; fact.isExtension = source.isExtension; fact.isDependency = source.isDependency
                return fact
            }
            providers += serving.map { provider in
                var provider = provider
                provider.target = source.target
                return provider
            }
        }
        return HealthKitUsage(facts: facts, widgetProviders: providers)
    }
}

/// A type that serves a widget, control or complication: `struct Provider: TimelineProvider`.
public struct WidgetProvider: Sendable, Hashable {
    public var type: String
    public var target: String
    /// A ClockKit data source: it runs in the WatchKit extension's process, beside the watch app's
    /// own code (WidgetKit providers run in a widget extension of their own).
    public var isComplicationDataSource: Bool
    public var evidence: Evidence

    /// WidgetKit's and ClockKit's provider protocols.
    static let protocols: Set<String> = [
        "TimelineProvider", "AppIntentTimelineProvider", "IntentTimelineProvider", "Widget", "WidgetBundle", "ControlWidget",
        "CLKComplicationDataSource",
    ]
}

/// Classifies each call and type declaration of one file.
private final class FactExtractor {
    let source: ParsedSource
    let vocabulary: HealthKitVocabulary
    var facts: [HealthKitFact] = []
    var providers: [WidgetProvider] = []

    init(source: ParsedSource, vocabulary: HealthKitVocabulary) {
        self.source = source
        self.vocabulary = vocabulary
    }

    /// Swift HealthKit wrappers this file imports (`import SpeziHealthKit`).
    private lazy var wrappers: [HealthKitLibrary] = {
        let imported = Set(source.tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self)?.path.first?.name.text })
        return HealthKitLibrary.swiftWrappers.filter { !$0.modules.isDisjoint(with: imported) }
    }()

    func extract() {
        let tree = source.tree
        for decl in tree.declarations([StructDeclSyntax.self, ClassDeclSyntax.self, EnumDeclSyntax.self, ExtensionDeclSyntax.self]) { noteProvider(decl) }
        // Most calls of an app are not HealthKit's: only the names that may be are classified.
        let candidates = source.callsByName.filter { Self.mayBeHealthKit($0.key) }.values.joined().sorted { $0.position < $1.position }
        for call in candidates { if let kind = classify(call) { add(kind, call) } }
        for library in wrappers {
            let names = Set(library.methods.keys)
            for call in source.callsByName.filter({ names.contains($0.key) }).values.joined().sorted(by: { $0.position < $1.position }) {
                guard let name = ExprShape.calledName(call), let kind = library.kind(of: name) else { continue }
                if library.healthReceiverOnly.contains(name), !(ExprShape.base(of: call)?.trimmedText.lowercased().contains("health") ?? false) { continue }
                add(kind, call, library: library)
            }
        }
    }

    /// Receivers that have an `authorizationStatus(for:)` or `requestAuthorization` of their own.
    private static let otherFrameworks = ["ekeventstore", "eventstore", "cncontactstore", "contactstore", "phphotolibrary", "avcapturedevice",
                                          "clmanager", "locationmanager", "unusernotificationcenter", "notification", "attrackingmanager",
                                          "cmmotion", "mpmedialibrary", "sfspeechrecognizer", "inpreferences", "hmhomemanager"]

    private func noteProvider(_ decl: DeclSyntax) {
        let inherited = SyntaxScope.inheritedTypes(of: decl)
        if inherited.contains(where: WidgetProvider.protocols.contains), let name = SyntaxScope.typeName(of: decl) {
            providers.append(WidgetProvider(type: name, target: source.target, isComplicationDataSource: inherited.contains("CLKComplicationDataSource"),
                                            evidence: Evidence(location: source.location(of: decl), quote: source.quote(decl))))
        }
    }

    private func classify(_ call: FunctionCallExprSyntax) -> HealthKitFact.Kind? {
        // Most calls of an app are not HealthKit's: decide by name before looking at the receiver.
        guard let name = ExprShape.calledName(call), Self.mayBeHealthKit(name) else { return nil }
        let base = ExprShape.base(of: call)
        let receiver = base?.trimmedText.lowercased() ?? ""
        if Self.otherFrameworks.contains(where: { receiver.contains($0) }) { return nil }
        let onStore = vocabulary.isStoreReceiver(base)
        switch name {
        case HealthKitVocabulary.availabilityCheck:
            return .availabilityCheck
        case "requestAuthorization":
            return vocabulary.isAuthorizationRequest(call) ? .authorizationRequest : nil
        case "healthDataAccessRequest":
            return .authorizationRequest
        case "requestPerObjectReadAuthorization":
            return onStore || ExprShape.labels(call).contains("predicate") ? .authorizationRequest : nil
        case HealthKitVocabulary.statusCheck:
            // On a store, or an unqualified call whose argument names a HealthKit type.
            let argument = call.arguments.first?.expression.trimmedText ?? ""
            return onStore || argument.contains("HK") || argument.lowercased().contains("type") ? .statusCheck : nil
        case _ where HealthKitVocabulary.requestStatusChecks.contains(name):
            return .requestStatusCheck
        case "save", "delete", "deleteObjects":
            return onStore && Self.hasStoreSignature(call, name) ? .write : nil
        case "HKWorkoutBuilder", "HKLiveWorkoutBuilder", "HKWorkoutSession", "finishWorkout":
            return .write
        case "execute":
            return onStore && Self.hasStoreSignature(call, name) ? .read : nil
        case _ where HealthKitVocabulary.characteristicReads.contains(name):
            return onStore ? .read : nil
        case _ where name.hasPrefix("HK") && (name.hasSuffix("Query") || name.hasSuffix("QueryDescriptor")):
            return .read
        default:
            return nil
        }
    }

    /// Whether the arguments fit one of `HKHealthStore`'s methods of that name: `save(_:withCompletion:)`,
    /// `delete(_:withCompletion:)`, `deleteObjects(of:predicate:withCompletion:)`, `execute(_:)`. An
    /// app's own `store.save(sample, of: type)` on its wrapper is not a HealthKit call (the wrapper's
    /// body holds the real one, with whatever checks it makes).
    static func hasStoreSignature(_ call: FunctionCallExprSyntax, _ name: String) -> Bool {
        let labels = call.arguments.map { $0.label?.text }
        guard let first = labels.first else { return false }
        switch name {
        case "save", "delete": return first == nil && labels.dropFirst().allSatisfy { $0 == "withCompletion" }
        case "deleteObjects":
            // Swift 2's `deleteObjects(_:withCompletion:)` too.
            return (first == "of" || first == nil) && labels.dropFirst().allSatisfy { $0 == "predicate" || $0 == "withCompletion" }
        case "execute": return labels == [nil]
        default: return true
        }
    }

    /// The names `classify` can turn into a fact.
    private static func mayBeHealthKit(_ name: String) -> Bool {
        switch name {
        case HealthKitVocabulary.availabilityCheck, "requestAuthorization", "healthDataAccessRequest", "requestPerObjectReadAuthorization",
             HealthKitVocabulary.statusCheck,
             "save", "delete", "deleteObjects", "HKWorkoutBuilder", "HKLiveWorkoutBuilder", "HKWorkoutSession", "finishWorkout", "execute":
            return true
        default:
            return HealthKitVocabulary.requestStatusChecks.contains(name) || HealthKitVocabulary.characteristicReads.contains(name) || name.hasPrefix("HK")
        }
    }

    private func add(_ kind: HealthKitFact.Kind, _ call: FunctionCallExprSyntax, library: HealthKitLibrary? = nil) {
        let debugOnly = call.ancestors.contains { $0.as(IfConfigClauseSyntax.self).map(DebugOnlyCode.isDebugClause) == true }
        var fact = HealthKitFact(kind: kind, target: source.target, isExtension: source.isExtension,
                                 evidence: Evidence(location: source.location(of: call), quote: source.quote(call)),
                                 site: .syntax(Syntax(call)), isDependency: source.isDependency, isDebugOnly: debugOnly)
        fact.library = library
        facts.append(fact)
    }
}
