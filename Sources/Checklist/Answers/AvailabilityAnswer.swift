import Manifest

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
        var delegated: [Claim] = []
        for target in Self.targets(of: calls) {
            let checks = checks(guarding: target)
            if !checks.isEmpty {
                guarded.append(.citing("\(facts.label(target)) calls `isHealthDataAvailable()`", checks.map(\.evidence), limit: 2))
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
        }
        if let broken = facts.fromFindings(.availabilityChecked, adding: unguarded) { return broken }
        if !unguarded.isEmpty { return Answer(question: .availabilityChecked, status: .no, claims: unguarded) }
        if !delegated.isEmpty { return Answer(question: .availabilityChecked, status: .cannotTell, claims: guarded + delegated) }
        return Answer(question: .availabilityChecked, status: .yes, claims: guarded)
    }

    /// Targets whose shipping code touches HealthKit, in order of first appearance.
    static func targets(of calls: [HealthKitFact]) -> [String] {
        var seen: [String] = []
        for fact in calls where !seen.contains(fact.target) { seen.append(fact.target) }
        return seen
    }

    /// A target's availability checks: in its own code, or in framework code it links.
    private func checks(guarding target: String) -> [HealthKitFact] {
        let linked = facts.context.manifest.targets.first { $0.id == target }?.linkedSources ?? []
        return facts.shipping(.availabilityCheck).filter { $0.target == target || linked.contains($0.evidence.location.file) }
    }
}
