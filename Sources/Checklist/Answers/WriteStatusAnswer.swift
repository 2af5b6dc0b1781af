import Manifest

/// Question 6: is authorization status re-checked before write operations? Read from the write
/// gates (`WriteGates`): not applicable when nothing that ships writes; yes only when every write
/// has a fresh status check before it, each cited with its write; otherwise no, citing each write
/// that runs unchecked (a caught error is worth saying, but is not a re-check).
struct WriteStatusAnswer {
    let facts: AnswerFacts

    func answer() -> Answer {
        let calls = facts.calls
        guard !calls.isEmpty else { return facts.noCalls(.writeStatusRechecked) }
        let gates = facts.context.writeGates.filter(\.runs)
        let uncalled = facts.context.writeGates.filter { $0.write.ships && $0.uncalledFunction != nil }
        // Writes that never run: said, never judged.
        let neverRun: [Claim] = uncalled.isEmpty ? [] : [
            .pairs("left out, as \(uncalled.count == 1 ? "it never runs" : "they never run"): \(Plural.count(uncalled.count, "write")) in a function nothing in the app calls",
                   uncalled.compactMap { gate in gate.uncalledFunction.map { (gate.write.evidence, $0) } }, joiner: "in the function declared at", limit: 2),
        ]
        let unchecked = gates.filter { !$0.isChecked }
        let cited = Set(facts.active.map(\.location))
        let uncited = unchecked.filter { !cited.contains($0.write.evidence.location) }
        var broken: [Claim] = []
        if !uncited.isEmpty {
            let handled = uncited.filter { $0.failureHandled == true }
            let count = Plural.count(uncited.count, "write")
            broken.append(.citing("\(count) \(uncited.count == 1 ? "runs" : "run") with no fresh `authorizationStatus(for:)` check before \(uncited.count == 1 ? "it" : "them")",
                                  uncited.map(\.write.evidence)))
            if !handled.isEmpty {
                broken.append(.citing("the error of \(Plural.count(handled.count, "write")) is caught or thrown on: good practice, but not a re-check",
                                      handled.map(\.write.evidence), limit: 2))
            }
        }
        if let answer = facts.fromFindings(.writeStatusRechecked, adding: broken) { return answer }
        if !broken.isEmpty { return Answer(question: .writeStatusRechecked, status: .no, claims: broken + neverRun) }
        guard !gates.isEmpty else {
            let debug = facts.context.writeGates.filter { !$0.write.ships }.map(\.write.evidence)
            return Answer(question: .writeStatusRechecked, status: .notApplicable, claims: [
                .stating(uncalled.isEmpty ? "nothing writes to HealthKit: no save, delete or workout builder is in the shipping code"
                         : "no write to HealthKit can run: the only ones are in functions nothing in the app calls"),
            ] + (debug.isEmpty ? [] : [.citing("the only writes are in `#if DEBUG` code, which does not ship", debug, limit: 2)]) + neverRun)
        }
        return Answer(question: .writeStatusRechecked, status: .yes, claims: [
            .pairs("each of the \(Plural.count(gates.count, "write")) has a fresh status check before it", gates.compactMap { gate in gate.check.map { ($0, gate.write.evidence) } },
                   joiner: "before the write at", limit: 4),
        ] + neverRun)
    }
}
