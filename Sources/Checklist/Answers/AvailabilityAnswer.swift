import Manifest
import SwiftSyntax

/// Question 1: is `isHealthDataAvailable()` called before any HealthKit operation? Yes only when
/// every target whose shipping code touches HealthKit has an availability check of its own (a
/// wrapper's `isAvailable` counts; a check only shown in the UI does not): the answer cites the
/// checks per target. No cites the target or entry point that calls HealthKit unguarded.
struct AvailabilityAnswer {
    let facts: AnswerFacts

    func answer() -> Answer {
        let calls = facts.calls
        guard !calls.isEmpty else { return facts.noCalls(.availabilityChecked) }
        let reported = Set(facts.active.map(\.target))
        var unguarded: [Claim] = []
        var guarded: [Claim] = []
        // Built once for all targets: it indexes every source's checks, flags and callers.
        let finder = GateFinder(sources: facts.context.sources, gate: .availability)
        // A call in a JavaScript or Dart function nothing in the app calls never runs: Q6 leaves its writes out, and so does this answer.
        let runs = { (fact: HealthKitFact) in facts.context.uncalledScripts.declaration(around: fact.site, in: facts.context.manifest) == nil }
        var delegated: [Claim] = []
        let installedOnlyWithHealth = facts.context.manifest.installedOnlyWithHealth
        for target in Self.targets(of: calls) {
            let checks = checks(guarding: target)
            if !checks.isEmpty {
                // A check somewhere is not a check on every path: each Swift call must have one before it.
                if let open = unguardedSwiftCall(in: target, calls: calls, finder: finder) {
                    let function = SyntaxScope.functionName(of: open.node).map { " in `\($0)`" } ?? ""
                    unguarded.append(.citing("\(facts.label(target)) checks availability on some paths, but this HealthKit call\(function) has no check before it "
                                             + "(not in its function, not where its type is set up, not in every caller)", [open.fact.evidence], limit: 1))
                    continue
                }
                // JavaScript the same: each library call needs a check before it in its function, or
                // in every caller of that function (an entry point no code calls has only its own).
                if let open = ScriptAvailabilityPaths(context: facts.context, checks: checks).unguarded(in: target, calls: calls.filter(runs)) {
                    unguarded.append(.citing("\(facts.label(target)) checks availability on some paths, but this HealthKit call in `\(open.function)` has no check "
                                             + "before it (not in its function, not in a function it awaits first, not in every caller)"
                                             + (open.entry == open.function ? "" : ", reached from `\(open.entry)`"), [open.fact.evidence], limit: 1))
                    continue
                }
                let names = Set(checks.map(calledName)).sorted().map { "`\($0)()`" }
                guarded.append(.citing("\(facts.label(target)) calls \(names.joined(separator: " and "))", checks.map(\.evidence), limit: 2))
                continue
            }
            // A finding of the rules already names this target's unguarded call.
            if reported.contains(target) { continue }
            let targetCalls = calls.filter { $0.target == target }
            guard let first = targetCalls.first(where: { $0.kind == .authorizationRequest }) ?? targetCalls.first else { continue }
            // Every call goes through a framework that checks availability in its own code, which the app does not hold.
            if let library = first.library, library.decidesAvailabilityItself, targetCalls.allSatisfy({ $0.library == library }) {
                delegated.append(.citing("\(facts.label(target)) reaches HealthKit only through \(library.name), whose own code (not in the repository) "
                                         + "decides availability before it asks; the app's code checks nothing itself",
                                         [first.evidence] + targetCalls.map(\.evidence), limit: 2))
                continue
            }
            let why = first.language == .dart
                ? "calls HealthKit through `package:health`, which has no iOS availability call, and the app checks nothing equivalent"
                : "calls HealthKit and none of its code calls `isHealthDataAvailable()` (or the wrapper's availability call) to decide anything"
            unguarded.append(.citing("\(facts.label(target)) \(why)", [first.evidence], limit: 1))
            // Installed only where Health exists: the gap is the checklist's letter, not a failure waiting.
            if let plist = installedOnlyWithHealth[target] {
                let key = "UIRequiredDeviceCapabilities"
                unguarded.append(.citing("though it requires the `healthkit` device capability, so devices without Health cannot install it",
                                         [Evidence(location: plist.location(of: key), quote: plist.quote(key))], limit: 1))
            }
        }
        if let broken = facts.fromFindings(.availabilityChecked, adding: unguarded) { return broken }
        if !unguarded.isEmpty { return Answer(question: .availabilityChecked, status: .no, claims: unguarded) }
        if !delegated.isEmpty { return Answer(question: .availabilityChecked, status: .cannotTell, claims: guarded + delegated) }
        return Answer(question: .availabilityChecked, status: .yes, claims: guarded)
    }

    /// Targets whose shipping code touches HealthKit, in order of first appearance.
    /// The availability call as the app writes it: `isHealthDataAvailable` in Swift, a library's own
    /// method (`isAvailable`, `isHealthDataAvailableAsync`) in JavaScript or Dart.
    private func calledName(_ check: HealthKitFact) -> String {
        let manifest = facts.context.manifest
        guard case .token(let language, let file, let token)? = check.site else { return HealthKitVocabulary.availabilityCheck }
        let files = language == .dart ? manifest.dartSources : manifest.javaScriptSources
        guard files.indices.contains(file), files[file].tokens.indices.contains(token) else { return HealthKitVocabulary.availabilityCheck }
        return files[file].tokens[token].text
    }

    static func targets(of calls: [HealthKitFact]) -> [String] {
        var seen: [String] = []
        for fact in calls where !seen.contains(fact.target) { seen.append(fact.target) }
        return seen
    }

    /// The first Swift HealthKit call of a target that no availability check runs before.
    private func unguardedSwiftCall(in target: String, calls: [HealthKitFact], finder: GateFinder) -> (fact: HealthKitFact, node: Syntax)? {
        let vocabulary = facts.context.vocabulary
        let swift = calls.compactMap { fact -> (fact: HealthKitFact, node: Syntax)? in
            guard fact.target == target, case .syntax(let node)? = fact.site, Self.failsWithoutHealth(node, vocabulary) else { return nil }
            return (fact, node)
        }
        // A call in a function nothing in the app calls never runs: Q6 leaves its writes out, and so
        // does this answer (the two must not contradict each other).
        let uncalled = facts.context.uncalledSwift
        return swift.first { finder.check(before: $0.node) == nil && uncalled?.declaration(around: $0.node) == nil }
    }

    /// HealthKit's own operations on a store, which fail where Health is unavailable: the framework's
    /// request, and a query run, save or delete on a store. Not the app's own wrappers (their inner
    /// call is judged where it is), nor a status read, which answers "not determined" there.
    static func failsWithoutHealth(_ node: Syntax, _ vocabulary: HealthKitVocabulary) -> Bool {
        guard let call = node.as(FunctionCallExprSyntax.self) else { return false }
        if HealthKitVocabulary.isFrameworkRequest(call) { return true }
        guard let name = ExprShape.calledName(call) else { return false }
        if ["result", "results"].contains(name) { return ExprShape.labels(call).contains("for") }
        return storeOperations.contains(name) && vocabulary.isStoreReceiver(ExprShape.base(of: call))
    }

    /// `HKHealthStore` methods that run a query or change data (an app's own `requestAuthorization()`
    /// on its `healthStore` wrapper is none of them).
    static let storeOperations: Set<String> = ["execute", "save", "delete", "deleteObjects", "enableBackgroundDelivery", "preferredUnits"]

    /// A target's availability checks: in its own code, or in framework code it links.
    private func checks(guarding target: String) -> [HealthKitFact] {
        let linked = facts.context.manifest.targets.first { $0.id == target }?.linkedSources ?? []
        return facts.shipping(.availabilityCheck).filter { $0.target == target || linked.contains($0.evidence.location.file) }
    }
}
