import Manifest

public struct Evidence: Sendable, Hashable {
    public var location: FileLocation
    public var quote: String
    public init(location: FileLocation, quote: String) { self.location = location; self.quote = Clipped.text(quote, limit: Clipped.quoteLimit) }
}

/// One answer of the review table: never a guess — "cannot tell" when the inputs do not show it.
public struct Answer: Sendable {
    public enum Status: String, Sendable, CaseIterable {
        case yes, no
        case notApplicable = "not applicable"
        case cannotTell = "cannot tell"
    }

    /// Whether the answer is the good one, beside the answer itself (question 3's "no" passes).
    public enum Mark: String, Sendable {
        case pass, fail, unknown
        case notApplicable = "n/a"
    }

    public var question: ReviewQuestion
    public var status: Status
    public var reason: String
    public var evidence: [Evidence]
    /// Rules whose active findings made the answer the unhealthy one.
    public var ruleIDs: [String]

    public init(question: ReviewQuestion, status: Status, reason: String, evidence: [Evidence], ruleIDs: [String]) {
        self.question = question; self.status = status; self.reason = reason; self.evidence = evidence; self.ruleIDs = ruleIDs
    }

    public var mark: Mark {
        switch status {
        case .notApplicable: return .notApplicable
        case .cannotTell: return .unknown
        case .yes, .no: return status == question.healthyAnswer ? .pass : .fail
        }
    }
}

/// Answers the six questions from the findings plus positive evidence found in the inputs.
struct AnswerSheet {
    let context: AuditContext
    let findings: [Finding]
    let rules: [RuleDescription]

    func answers() -> [Answer] { ReviewQuestion.allCases.map(answer) }

    private func answer(_ question: ReviewQuestion) -> Answer {
        let ruleIDs = Set(rules.filter { $0.questions.contains(question) }.map(\.id))
        let related = findings.filter { ruleIDs.contains($0.ruleID) }
        let active = related.filter { !$0.isSuppressed && question.isDecided(by: $0) }
        if !active.isEmpty {
            let titles = Set(active.map(\.ruleID)).sorted()
            let reason = active.count == 1 ? active[0].message : "\(active.count) findings: " + titles.joined(separator: ", ")
            return Answer(question: question, status: question.unhealthyAnswer, reason: reason,
                          evidence: active.prefix(3).map { Evidence(location: $0.location, quote: $0.quote) }, ruleIDs: titles)
        }
        // Question 5 is about widgets: with no extension target and no widget provider, nothing is left to tell.
        if question == .widgetsDoNotRequest && !context.manifest.extensions.contains(where: \.isExtension) && context.usage.widgetProviders.isEmpty {
            return Answer(question: question, status: .notApplicable, reason: "the app has no extension targets and no widget or complication providers", evidence: [], ruleIDs: [])
        }
        if question.needsSources && !context.hasSources {
            guard context.declaresHealthKit else {
                return Answer(question: question, status: .notApplicable, reason: "the app declares no HealthKit use", evidence: [], ruleIDs: [])
            }
            return Answer(question: question, status: .cannotTell, reason: "cannot tell — the app declares HealthKit but no sources were scanned", evidence: [], ruleIDs: [])
        }
        var result = positive(question)
        let suppressed = related.filter(\.isSuppressed)
        if !suppressed.isEmpty && result.mark == .pass {
            result.reason += " (\(Plural.count(suppressed.count, "finding")) suppressed)"
        }
        return result
    }

    private func facts(_ kind: HealthKitFact.Kind, extensionsOnly: Bool = false) -> [Evidence] {
        context.usage.facts(kind, extensionsOnly: extensionsOnly).map(\.evidence)
    }

    private func positive(_ question: ReviewQuestion) -> Answer {
        func make(_ status: Answer.Status, _ reason: String, _ evidence: [Evidence] = []) -> Answer {
            Answer(question: question, status: status, reason: reason, evidence: Array(evidence.prefix(3)), ruleIDs: [])
        }
        // No HealthKit call in the code: "not applicable" only when the app declares no HealthKit at all.
        let noCalls = context.declaresHealthKit
            ? make(.cannotTell, "cannot tell — the app declares HealthKit, but no HealthKit call is visible in the scanned code (a wrapper library, another language, or code outside the sources)")
            : make(.notApplicable, "the app declares no HealthKit use and its code makes no HealthKit call")
        switch question {
        case .availabilityChecked:
            guard context.usage.callsHealthKit else { return noCalls }
            let checks = facts(.availabilityCheck)
            let targets = context.usage.targetsUsingHealthKit
            return make(.yes, "isHealthDataAvailable() is consulted (\(Plural.count(checks.count, "call"))) in every target that uses HealthKit (\(targets.joined(separator: ", ")))", checks)
        case .completionInterpreted:
            let requests = facts(.authorizationRequest)
            if requests.isEmpty {
                return context.usage.callsHealthKit
                    ? make(.cannotTell, "cannot tell — HealthKit is used but no authorization request is visible in the scanned code")
                    : noCalls
            }
            return make(.yes, "no use of the result as proof of access (\(Plural.count(requests.count, "request")) checked)", requests)
        case .readStatusProbed:
            guard context.usage.callsHealthKit else { return noCalls }
            let statuses = facts(.statusCheck)
            return make(.no, statuses.isEmpty ? "authorizationStatus(for:) is never called on HealthKit" : "authorizationStatus(for:) only guards writes", statuses)
        case .usageStringsMeaningful where context.manifest.lacksInfoPlist:
            return context.declaresHealthKit || context.usage.callsHealthKit
                ? make(.cannotTell, "cannot tell — no Info.plist was found (a generated one, or none configured), so the usage strings cannot be read")
                : make(.notApplicable, "the app declares no HealthKit use")
        case .usageStringsMeaningful:
            let strings = ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"].compactMap { context.manifest.usageString($0) }
            if strings.isEmpty && !context.hasHealthKitEntitlement && context.requestedTypes.isEmpty {
                return make(.notApplicable, "the app declares no HealthKit use")
            }
            return make(.yes, UsageStringAnswerReason.yes(findings: findings, rules: rules), strings.map { Evidence(location: $0.location, quote: $0.quote) })
        case .widgetsDoNotRequest:
            return WidgetReach(context: context).answer(make)
        case .writeStatusRechecked:
            let saves = facts(.write)
            if saves.isEmpty { return context.usage.callsHealthKit ? make(.notApplicable, "the scanned code does not write to HealthKit") : noCalls }
            return make(.yes, "each write is preceded by a fresh authorizationStatus(for:) check", saves)
        }
    }
}

/// Question 5: do widgets avoid `requestAuthorization`? Widgets are extension targets (a watch app
/// asks for access itself) and widget or complication providers. The question applies when widget
/// code can reach HealthKit: an extension whose own or linked framework code calls it or that
/// declares it, a provider whose own file calls it, or a ClockKit data source in a target that calls
/// it (it runs in that process). Widgets that cannot reach HealthKit make it "not applicable".
private struct WidgetReach {
    let context: AuditContext
    /// HealthKit calls (an availability check alone reaches nothing).
    let calls: [HealthKitFact]

    init(context: AuditContext) {
        self.context = context
        calls = context.usage.facts.filter { $0.kind != .availabilityCheck }
    }

    func answer(_ make: (Answer.Status, String, [Evidence]) -> Answer) -> Answer {
        let extensions = context.manifest.extensions.filter(\.isExtension)
        let providers = context.usage.widgetProviders
        if providers.isEmpty && extensions.allSatisfy({ $0.sources.isEmpty && $0.linkedSources.isEmpty }) {
            return make(.cannotTell, "cannot tell — no extension sources scanned", [])
        }
        let reaching = extensions.filter(reachesHealthKit)
        let callingFiles = Set(calls.map(\.evidence.location.file))
        let reachingProviders = providers.filter { provider in
            callingFiles.contains(provider.evidence.location.file)
                || provider.isComplicationDataSource && context.manifest.targets.contains { $0.id == provider.target && reachesHealthKit($0) }
        }
        if reaching.isEmpty && reachingProviders.isEmpty {
            let what = [extensions.isEmpty ? nil : "\(Plural.count(extensions.count, "extension target"))", providers.isEmpty ? nil : "\(Plural.count(providers.count, "widget provider"))"]
            return make(.notApplicable, "no widget can reach HealthKit: the \(what.compactMap { $0 }.joined(separator: " and the ")) neither call nor declare it", [])
        }
        let evidence = reaching.compactMap { ext in ext.infoPlist.map { Evidence(location: $0.location(of: "NSExtension"), quote: $0.quote("NSExtension")) } }
            + reachingProviders.map(\.evidence)
        let names = reaching.map(\.id) + reachingProviders.map { "\($0.type) (in \($0.target))" }
        return make(.yes, "no requestAuthorization in the widget code that can reach HealthKit: \(names.joined(separator: ", "))", evidence)
    }

    /// Its own code calls HealthKit, it links framework code that does, or it declares HealthKit.
    private func reachesHealthKit(_ target: TargetManifest) -> Bool {
        calls.contains { $0.target == target.id || target.linkedSources.contains($0.evidence.location.file) }
            || [HealthKeys.share, HealthKeys.update].contains { target.infoPlist?[$0] != nil }
            || target.entitlements?[HealthKeys.entitlement]?.bool == true
    }
}
