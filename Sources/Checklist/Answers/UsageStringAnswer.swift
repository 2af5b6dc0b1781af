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
        // Only watch applications use HealthKit: each asks with its own Info.plist (whatever keys the
        // iPhone app's plist also carries: they are not the ones the watch's sheet shows).
        let appItselfAsks = facts.calls.contains { !context.watchAppIDs.contains($0.target) }
            || !context.appRequestedRead.isEmpty || !context.appRequestedShare.isEmpty
        if !appItselfAsks, let answer = watchAppsAnswer() { return answer }
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
        if !missing.isEmpty, let uncommitted = context.manifest.main.uncommittedInfoPlist {
            return Answer(question: .usageStringsMeaningful, status: .cannotTell, claims: claims + [
                .stating("a key the app needs is not among its INFOPLIST_KEY_* settings, and the Info.plist file its project names (\(uncommitted)) "
                         + "is not in the repository (not committed?), so whether the built Info.plist has it cannot be read")])
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

    /// The answer for an app whose watch applications alone use HealthKit: the keys each one's own
    /// Info.plist sets, and the ones it lacks for what it reads or writes. Nil when none uses it.
    private func watchAppsAnswer() -> Answer? {
        let context = facts.context
        let watchApps = context.manifest.targets.filter { target in context.watchAppIDs.contains(target.id) && facts.calls.contains { $0.target == target.id } }
        guard !watchApps.isEmpty else { return nil }
        let watchRead = context.requestedRead.subtracting(context.appRequestedRead), watchShare = context.requestedShare.subtracting(context.appRequestedShare)
        var claims: [Claim] = [.stating("the app itself does not use HealthKit; \(watchApps.count == 1 ? "its watch app asks" : "its watch apps ask") with \(watchApps.count == 1 ? "its" : "their") own Info.plist")]
        var missing: [Claim] = [], unknown: [Claim] = []
        for target in watchApps {
            guard let plist = target.infoPlist else {
                return Answer(question: .usageStringsMeaningful, status: .cannotTell, claims: claims + [
                    .stating("watch app `\(target.id)` uses HealthKit, but its Info.plist was not found, so its usage strings cannot be read")])
            }
            let calls = facts.calls.filter { $0.target == target.id }
            let needs = [(HealthKeys.share, !watchRead.isEmpty || calls.contains { $0.kind == .read }),
                         (HealthKeys.update, !watchShare.isEmpty || calls.contains { $0.kind == .write })]
            for (key, needed) in needs {
                if let string = target.usageString(key) {
                    claims.append(.citing("watch app `\(target.id)` sets `\(key)`", [Evidence(location: string.location, quote: string.quote)]))
                } else if needed {
                    let place = [Evidence(location: plist.location(of: nil), quote: plist.quote(nil))]
                    // A plist file may still be merged with INFOPLIST_KEY_* settings the audit did not read
                    // (an XcodeGen or Tuist watch target's, or a project whose settings were not followed):
                    // absent from the file is not absent from the app. Keys written whole in a manifest
                    // (Xcode's build settings, XcodeGen's or Tuist's), or a file with the target's merged
                    // settings read beside it, are the plist.
                    guard [.buildSettings, .xcodeGen, .tuist].contains(plist.format) || target.mergedInfoPlistKeys != nil else {
                        unknown.append(.citing("watch app `\(target.id)`'s Info.plist file does not set `\(key)`, which Xcode may add from the target's "
                                               + "INFOPLIST_KEY_* build settings (not read for this target)", place))
                        continue
                    }
                    missing.append(.citing("watch app `\(target.id)` lacks `\(key)` in its own Info.plist although it \(key == HealthKeys.share ? "reads or asks to read" : "writes or asks to share")", place))
                }
            }
        }
        if !missing.isEmpty { return Answer(question: .usageStringsMeaningful, status: .no, claims: missing + claims) }
        if !unknown.isEmpty { return Answer(question: .usageStringsMeaningful, status: .cannotTell, claims: claims + unknown) }
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
