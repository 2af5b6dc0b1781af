import Manifest

/// Question 4: are the usage description keys present with meaningful text? The usage-string and
/// manifest rules answer no, citing the key. Otherwise the answer cites each key that is set, with
/// its text, and says why an absent key is not needed.
struct UsageStringAnswer {
    let facts: AnswerFacts

    func answer() -> Answer {
        if let broken = facts.fromFindings(.usageStringsMeaningful) { return broken }
        let context = facts.context
        let usesHealthKit = context.declaresHealthKit || !facts.calls.isEmpty
        if context.manifest.lacksInfoPlist {
            return usesHealthKit
                ? Answer(question: .usageStringsMeaningful, status: .cannotTell, claims: [
                    .stating("no Info.plist was found (a generated one, or none configured), so the usage strings cannot be read")])
                : Answer(question: .usageStringsMeaningful, status: .notApplicable, claims: [.stating("the app declares no HealthKit use")])
        }
        let strings = [HealthKeys.share, HealthKeys.update].compactMap { context.manifest.usageString($0) }
        guard !strings.isEmpty else {
            if !context.hasHealthKitEntitlement && context.requestedTypes.isEmpty && facts.calls.isEmpty {
                return Answer(question: .usageStringsMeaningful, status: .notApplicable, claims: [.stating("the app declares no HealthKit use")])
            }
            return Answer(question: .usageStringsMeaningful, status: .cannotTell, claims: [
                .citing("the app uses HealthKit", facts.declaringEvidence + facts.calls.map(\.evidence), limit: 2),
                .stating("but no usage string is in the Info.plist or build settings read, and no rule could tell which keys it needs"),
            ])
        }
        var claims = strings.map { string in
            Claim.citing("`\(string.key)` is set\(string.origin == .infoPlist ? "" : " (\(string.origin.rawValue))")", [Evidence(location: string.location, quote: string.quote)])
        }
        var missing: [Claim] = []
        if context.manifest.usageString(HealthKeys.update) == nil {
            let writes = facts.shipping(.write)
            if writes.isEmpty && context.requestedShare.isEmpty {
                // Not needed by HealthKit; an upload check may still ask for it, which the warning says.
                let uploadRisk = facts.imperfections.contains { $0.ruleID == UsageStringMissingRule.description.id }
                claims.append(.stating("`\(HealthKeys.update)` is not needed by HealthKit: the app neither writes nor asks to share"
                                       + (uploadRisk ? " (App Store Connect may still ask for it with the HealthKit entitlement: a warning)" : "")))
            } else {
                missing.append(.citing("`\(HealthKeys.update)` is absent although the app writes or asks to share", writes.map(\.evidence), limit: 1))
            }
        }
        if context.manifest.usageString(HealthKeys.share) == nil {
            let reads = facts.shipping(.read)
            if reads.isEmpty && context.requestedRead.isEmpty {
                claims.append(.stating("`\(HealthKeys.share)` is not needed: the app neither reads nor asks to read"))
            } else {
                missing.append(.citing("`\(HealthKeys.share)` is absent although the app reads or asks to read", reads.map(\.evidence), limit: 1))
            }
        }
        guard missing.isEmpty else { return Answer(question: .usageStringsMeaningful, status: .no, claims: missing + claims) }
        // A warning about a key the app does not need (its upload risk) is not about the text of the keys set.
        let imperfect = facts.imperfections.filter { $0.ruleID != UsageStringMissingRule.description.id }
        claims.append(imperfect.isEmpty
            ? .stating("no usage-string rule finds their text vague, a placeholder or invalid")
            : .citing("their text is the app's own but imperfect: " + Self.tally(imperfect),
                      imperfect.map { Evidence(location: $0.location, quote: $0.quote) }))
        return Answer(question: .usageStringsMeaningful, status: .yes, claims: claims)
    }

    /// "2 warnings (a, b); 1 note (c)": the qualifying findings by severity, most severe first.
    private static func tally(_ findings: [Finding]) -> String {
        [(Severity.warning, "warning"), (.note, "note")].compactMap { severity, noun in
            let some = findings.filter { $0.severity == severity }
            guard !some.isEmpty else { return nil }
            return Plural.count(some.count, noun) + " (" + Set(some.map(\.ruleID)).sorted().joined(separator: ", ") + ")"
        }.joined(separator: "; ")
    }
}
