import Manifest

/// Question 3: is there any attempt to determine read permission status? (yes is the anti-pattern.)
/// The rules that trace status values into reads answer yes, citing where. Otherwise the answer
/// is no, and says what each status call the app makes is for — deciding a write (the same write
/// gates question 6 reads), asking about a type the app shares, or whether the sheet would appear —
/// or, when there is none, that nothing asks. A status asked of a type only read, or in a target
/// that writes nothing, is yes: there the write permission can only stand for reading.
struct ReadStatusAnswer {
    let facts: AnswerFacts

    func answer() -> Answer {
        if let probed = facts.fromFindings(.readStatusProbed) { return probed }
        let calls = facts.calls
        guard !calls.isEmpty else { return facts.noCalls(.readStatusProbed) }
        // A status asked in a function nothing in the app calls is never asked.
        let uncalled = facts.context.uncalledSwift
        let runs = { (fact: HealthKitFact) -> Bool in
            guard case .syntax(let node)? = fact.site, let uncalled else { return true }
            return uncalled.declaration(around: node) == nil
        }
        let statusCalls = facts.shipping(.statusCheck).filter(runs)
        let requestStatus = facts.shipping(.requestStatusCheck).filter(runs)
        guard !statusCalls.isEmpty || !requestStatus.isEmpty else {
            let reads = facts.shipping(.read)
            let unreached = (facts.shipping(.statusCheck) + facts.shipping(.requestStatusCheck)).filter { !runs($0) }
            return Answer(question: .readStatusProbed, status: .no, claims: [
                unreached.isEmpty
                    ? .stating("nothing in the code asks for permission status (no `authorizationStatus(for:)`, request-status or wrapper status call)")
                    : .citing("permission status is asked only in functions nothing in the app calls", unreached.map(\.evidence), limit: 2),
                reads.isEmpty ? .citing("HealthKit is used without asking", (calls.contains(where: runs) ? calls.filter(runs) : calls).map(\.evidence), limit: 2)
                    : .citing("reads query HealthKit directly", reads.map(\.evidence), limit: 2),
            ])
        }
        var claims: [Claim] = []
        let gates = facts.context.writeGates.filter { $0.write.ships && $0.isChecked }
        // Every status call a gate rests on, with the first write it decides (a thousand guarded writes ask a thousand times).
        var decidedWrite: [Evidence: Evidence] = [:]
        for gate in gates {
            for status in gate.statusCalls + (gate.check.map { [$0] } ?? []) where decidedWrite[status] == nil { decidedWrite[status] = gate.write.evidence }
        }
        let decidesWrite = { (status: HealthKitFact) in decidedWrite[status.evidence] != nil }
        let probes = statusCalls.filter { !decidesWrite($0) && onlyRead($0) }
        if !probes.isEmpty {
            let types = Array(Set(probes.flatMap(\.types))).sorted().map { "`\($0)`" }.joined(separator: ", ")
            return Answer(question: .readStatusProbed, status: .yes, claims: [
                .citing("`authorizationStatus(for:)` asks about \(types), which the app only asks to read: that status is write permission "
                        + "and says nothing about reading", probes.map(\.evidence), limit: 2),
            ])
        }
        // A target with no HealthKit write at all (an iPhone app whose watch does the writing, an app
        // that asks to share nothing): there the write permission asked about types it also reads can
        // only stand for reading (a status shown as "workouts are saved" of a type only shared is not).
        let writers = Set(facts.context.usage.facts(.write).map(\.target))
        let nonWriting = statusCalls.filter { !decidesWrite($0) && !writers.contains($0.target) && asksAboutReading($0) }
        if !nonWriting.isEmpty {
            let targets = Array(Set(nonWriting.map(\.target))).sorted().map { "`\($0)`" }.joined(separator: ", ")
            return Answer(question: .readStatusProbed, status: .yes, claims: [
                .citing("`authorizationStatus(for:)` is asked in \(targets), whose code never writes to HealthKit: that status is write "
                        + "permission, so there it can only be taken for read access", nonWriting.map(\.evidence), limit: 2),
            ])
        }
        var untraced: [Evidence] = []
        var shared: [(fact: HealthKitFact, types: [String])] = []
        var decided: [(Evidence, Evidence)] = []
        for status in statusCalls {
            if let write = decidedWrite[status.evidence] {
                decided.append((status.evidence, write))
            } else if !status.types.isEmpty, status.types.allSatisfy(facts.context.requestedShare.contains) {
                shared.append((status, status.types))
            } else {
                untraced.append(status.evidence)
            }
        }
        if !decided.isEmpty {
            claims.append(.pairs("the status asked decides writes", decided, joiner: "before the write at"))
        }
        for (fact, types) in shared.prefix(2) {
            claims.append(.citing("asks about \(types.map { "`\($0)`" }.joined(separator: ", ")), which the app asks to share", [fact.evidence], limit: 1))
        }
        if shared.count > 2 { claims.append(.stating("\(Plural.count(shared.count - 2, "more status call")) on shared types")) }
        if !requestStatus.isEmpty {
            claims.append(.citing("asks only whether the permission sheet would appear", requestStatus.map(\.evidence), limit: 2))
        }
        if !untraced.isEmpty {
            claims.append(.citing("no rule finds a read decided by the status asked", untraced, limit: 2))
        }
        return Answer(question: .readStatusProbed, status: .no, claims: claims)
    }

    /// A status call about a type the app asks to read, or — its types not resolved — in an app whose
    /// every request (all resolved) shares nothing.
    private func asksAboutReading(_ status: HealthKitFact) -> Bool {
        let context = facts.context
        if !status.types.isEmpty { return status.types.contains(where: context.requestedRead.contains) }
        return !context.resolvedRequests.isEmpty && context.resolvedRequests.allSatisfy(\.share.isResolved) && context.requestedShare.isEmpty
    }

    /// A status call whose types (resolved from the code) the app asks to read and never to share,
    /// judged only when every share set the code requests was resolved: then its answer can only be
    /// taken for read access.
    private func onlyRead(_ status: HealthKitFact) -> Bool {
        let context = facts.context
        guard !status.types.isEmpty, !context.resolvedRequests.isEmpty, context.resolvedRequests.allSatisfy(\.share.isResolved) else { return false }
        return status.types.allSatisfy { !context.requestedShare.contains($0) } && status.types.contains(where: context.requestedRead.contains)
    }
}
