import Foundation
import Manifest

public struct Evidence: Sendable, Hashable {
    public var location: FileLocation
    public var quote: String
    public init(location: FileLocation, quote: String) { self.location = location; self.quote = Clipped.text(quote, limit: Clipped.quoteLimit) }

    /// How a reason names the place: the file's name and line (`HealthManager.swift:42`); the
    /// evidence beside the reason carries the full path.
    public var place: String {
        let name = location.file.split(separator: "/").last.map(String.init) ?? location.file
        return location.line.map { "\(name):\($0)" } ?? name
    }
}

/// One answer of the review table: never a guess — "cannot tell" when the inputs do not show it.
public struct Answer: Sendable {
    public enum Status: String, Sendable, CaseIterable, Codable {
        case yes, no
        case notApplicable = "not applicable"
        case cannotTell = "cannot tell"
    }

    /// Whether the answer is the good one, beside the answer itself (question 3's "no" passes).
    public enum Mark: String, Sendable, CaseIterable, Codable {
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

    /// The answer whose reason is its claims' text and whose evidence is their places, in order:
    /// a place the reason names is always one the answer cites.
    init(question: ReviewQuestion, status: Status, claims: [Claim], ruleIDs: [String] = []) {
        var seen: Set<Evidence> = []
        let evidence = claims.flatMap(\.evidence).filter { seen.insert($0).inserted }
        let text = claims.map(\.text).filter { !$0.isEmpty }.joined(separator: "; ")
        self.init(question: question, status: status, reason: status == .cannotTell ? "cannot tell — " + text : text,
                  evidence: evidence, ruleIDs: ruleIDs)
    }

    public var mark: Mark {
        switch status {
        case .notApplicable: return .notApplicable
        case .cannotTell: return .unknown
        case .yes, .no: return status == question.healthyAnswer ? .pass : .fail
        }
    }
}

/// One statement of an answer's reason with the places that show it. A statement about code names
/// only the places it cites (built by `citing`); one about an absence or the app's shape names none.
struct Claim {
    var text: String
    var evidence: [Evidence]

    static func stating(_ text: String) -> Claim { Claim(text: text, evidence: []) }

    /// `text` then the places of the first `limit` pieces of evidence, the rest counted.
    static func citing(_ text: String, _ evidence: [Evidence], limit: Int = 3) -> Claim {
        var seen: Set<Evidence> = []
        let unique = evidence.filter { seen.insert($0).inserted }
        let shown = Array(unique.prefix(limit))
        guard !shown.isEmpty else { return .stating(text) }
        let more = unique.count - shown.count
        return Claim(text: "\(text) (\(Self.places(shown))\(more > 0 ? " and \(more) more" : ""))", evidence: shown)
    }

    /// `text` then pairs of places, each `first` `joiner` `second` ("Writer.swift:8 before the write at
    /// Writer.swift:10"), the first `limit` pairs shown and the rest counted.
    static func pairs(_ text: String, _ pairs: [(Evidence, Evidence)], joiner: String, limit: Int = 3) -> Claim {
        let shown = Array(pairs.prefix(limit))
        guard !shown.isEmpty else { return .stating(text) }
        let more = pairs.count - shown.count
        let listed = shown.map { "\($0.0.place) \(joiner) \($0.1.place)" }.joined(separator: ", ")
        return Claim(text: "\(text): \(listed)\(more > 0 ? " and \(more) more" : "")", evidence: shown.flatMap { [$0.0, $0.1] })
    }

    /// "A.swift:3, B.swift:9".
    static func places(_ evidence: [Evidence]) -> String { evidence.map(\.place).joined(separator: ", ") }

    /// An active finding as a claim: its message at its place, quoting the line there as written
    /// when the audit read it (a finding about a missing key quotes what is missing instead); the
    /// other places its message names (`at Settings.swift:6`) are cited too where the audit read them.
    static func finding(_ finding: Finding, lines: (FileLocation) -> Evidence?) -> Claim {
        let own = lines(finding.location) ?? Evidence(location: finding.location, quote: finding.quote)
        let named = Self.namedPlaces(in: finding.message).compactMap(lines)
        return Claim(text: "\(finding.message) (\(own.place))", evidence: [own] + named)
    }

    private static let placePattern = try! NSRegularExpression(pattern: #"([A-Za-z0-9_+\-./]+\.[A-Za-z]+):(\d+)"#)

    /// `path:line` places a text names, as written (a path may be site-relative or a file name).
    static func namedPlaces(in text: String) -> [FileLocation] {
        let string = text as NSString
        return placePattern.matches(in: text, range: NSRange(location: 0, length: string.length)).compactMap { match in
            Int(string.substring(with: match.range(at: 2))).map { FileLocation(file: string.substring(with: match.range(at: 1)), line: $0) }
        }
    }
}

/// Answers the six questions from the app's HealthKit facts and the rules' findings, as
/// `../shared/checklist-answers.md` defines them: yes cites what makes it true, no what breaks it,
/// n/a says why nothing is there to judge, and cannot tell names what could not be read. A
/// question no rule answered is worked out from the facts, never assumed good.
struct AnswerSheet {
    let context: AuditContext
    let findings: [Finding]
    let rules: [RuleDescription]

    func answers() -> [Answer] { ReviewQuestion.allCases.map(answer) }

    private func answer(_ question: ReviewQuestion) -> Answer {
        let ruleIDs = Set(rules.filter { $0.questions.contains(question) }.map(\.id))
        let related = findings.filter { ruleIDs.contains($0.ruleID) }
        let live = related.filter { !$0.isSuppressed }
        let facts = AnswerFacts(context: context, active: live.filter { question.isDecided(by: $0) },
                                imperfections: live.filter { !question.isDecided(by: $0) })
        var result = UnanalysedCode(context: context, findings: findings).qualify(answer(question, facts))
        let suppressed = related.filter(\.isSuppressed)
        if !suppressed.isEmpty && result.mark == .pass {
            result.reason += " (\(Plural.count(suppressed.count, "finding")) suppressed)"
        }
        return result
    }

    private func answer(_ question: ReviewQuestion, _ facts: AnswerFacts) -> Answer {
        if question.needsSources && question != .widgetsDoNotRequest && !context.hasSources {
            return facts.noSources(question)
        }
        switch question {
        case .availabilityChecked: return AvailabilityAnswer(facts: facts).answer()
        case .completionInterpreted: return RequestResultAnswer(facts: facts).answer()
        case .readStatusProbed: return ReadStatusAnswer(facts: facts).answer()
        case .usageStringsMeaningful: return UsageStringAnswer(facts: facts).answer()
        case .widgetsDoNotRequest: return WidgetAnswer(facts: facts).answer()
        case .writeStatusRechecked: return WriteStatusAnswer(facts: facts).answer()
        }
    }
}

/// What every question's answer starts from: the app's facts that ship (not `#if DEBUG` code),
/// and the active findings of the rules that answer the question.
struct AnswerFacts {
    let context: AuditContext
    /// Findings that decide the answer: the checklist's unhealthy answer, citing them.
    let active: [Finding]
    /// Findings that qualify a healthy answer without reversing it (question 4's imperfect text).
    var imperfections: [Finding] = []

    var usage: HealthKitUsage { context.usage }

    /// Facts of a kind in code that ships.
    func shipping(_ kind: HealthKitFact.Kind) -> [HealthKitFact] { usage.facts(kind).filter(\.ships) }

    /// Calls that touch HealthKit data or permissions (not an availability check alone), in code that ships.
    var calls: [HealthKitFact] { usage.facts.filter { $0.kind != .availabilityCheck && $0.ships } }

    /// The answer the question's rules give: the checklist's unhealthy answer, citing each finding.
    func fromFindings(_ question: ReviewQuestion, adding extra: [Claim] = []) -> Answer? {
        guard !active.isEmpty else { return nil }
        let shown = Array(active.prefix(3))
        var claims = shown.map { Claim.finding($0, lines: evidence(at:)) }
        if active.count > shown.count {
            claims.append(.stating("\(Plural.count(active.count - shown.count, "more finding")): " + Set(active.dropFirst(3).map(\.ruleID)).sorted().joined(separator: ", ")))
        }
        return Answer(question: question, status: question.unhealthyAnswer, claims: claims + extra,
                      ruleIDs: Set(active.map(\.ruleID)).sorted())
    }

    /// With no HealthKit call in the shipping code: not applicable when the app declares no HealthKit
    /// either, else cannot tell, naming what declares it.
    func noCalls(_ question: ReviewQuestion) -> Answer {
        let declarations = declaringEvidence
        guard context.declaresHealthKit else {
            return Answer(question: question, status: .notApplicable, claims: [.stating("the app declares no HealthKit use and its code makes no HealthKit call")])
        }
        // Declared because a package links HealthKit, whose calls the audit reads: none is made.
        if let package = context.unusedHealthKitPackage {
            return Answer(question: question, status: .notApplicable, claims: [
                .citing("`\(package.package)` links HealthKit", [Evidence(location: package.location, quote: package.quote)]),
                .stating("but the app's own code, all of it read (\(codeRead)), never calls it: the app does not touch HealthKit"),
            ])
        }
        let debug = usage.facts.filter { !$0.ships && $0.kind != .availabilityCheck }.map(\.evidence)
        return Answer(question: question, status: .cannotTell, claims: [
            .citing("the app declares HealthKit", declarations, limit: 2),
            .stating("but no HealthKit call is in the code the audit read (\(codeRead)): its calls are in code it could not read or follow "
                     + "(a wrapper library, a binary framework, or sources outside the configured folders)"),
        ] + (debug.isEmpty ? [] : [.citing("the only calls it read are in `#if DEBUG` code, which does not ship", debug)]))
    }

    /// With no code at all: not applicable when the app declares no HealthKit, else cannot tell.
    func noSources(_ question: ReviewQuestion) -> Answer {
        guard context.declaresHealthKit else {
            // Code discovery could not find (a computed manifest, an unreadable spec) may still use HealthKit.
            let unread = context.manifest.discovery.filter(\.isNote)
            guard unread.isEmpty else {
                return Answer(question: question, status: .cannotTell, claims: [
                    .stating("no code of the app was read: " + unread.prefix(2).map { Clipped.text($0.text, limit: 200) }.joined(separator: "; ")),
                ])
            }
            return Answer(question: question, status: .notApplicable, claims: [.stating("the app declares no HealthKit use")])
        }
        return Answer(question: question, status: .cannotTell, claims: [
            .citing("the app declares HealthKit", declaringEvidence, limit: 2),
            .stating("but no sources were scanned (none are configured or found), so its code cannot be read"),
        ])
    }

    /// Evidence for a place, quoting its line as written, from what the audit read: code, property
    /// lists, and the lines it already quoted (dependencies in lockfiles, build settings). `location`
    /// may name its file by a path's tail (`Settings.swift:6`, as messages do); nil when not read.
    func evidence(at location: FileLocation) -> Evidence? {
        guard let line = location.line, line >= 1 else { return nil }
        let matches = { (path: String) in path == location.file || path.hasSuffix("/" + location.file) }
        let at = { (path: String, text: String) in Evidence(location: FileLocation(file: path, line: line), quote: text) }
        if let source = context.sources.first(where: { matches($0.file.path) }) { return at(source.file.path, source.lineText(line)) }
        if let file = (context.manifest.javaScriptSources + context.manifest.dartSources).first(where: { matches($0.path) }) {
            return at(file.path, file.lineText(line))
        }
        let documents = (context.manifest.targets.flatMap { [$0.infoPlist, $0.entitlements] } + [context.manifest.privacyManifest]).compactMap { $0 }
        if let document = documents.first(where: { matches($0.path) && $0.format != .binary }), line <= document.textLines.count {
            return at(document.path, document.textLines[line - 1].trimmingCharacters(in: .whitespaces))
        }
        let quoted = context.manifest.healthKitDependencies.map { ($0.location, $0.quote) }
            + context.manifest.config.buildSettingOrigins.values.map { ($0.location, $0.quote) }
        return quoted.first { matches($0.0.file) && $0.0.line == line }.map { Evidence(location: FileLocation(file: $0.0.file, line: line), quote: $0.1) }
    }

    /// What the code the audit read was, for "cannot tell" reasons.
    var codeRead: String {
        let parts = [(context.sources.count, "Swift file"), (context.manifest.javaScriptSources.count, "JavaScript / TypeScript file"),
                     (context.manifest.dartSources.count, "Dart file")].filter { $0.0 > 0 }.map { Plural.count($0.0, $0.1) }
        return parts.isEmpty ? "no code" : parts.joined(separator: ", ")
    }

    /// Where the app says it uses HealthKit: its entitlement, usage strings, plugin dependencies.
    var declaringEvidence: [Evidence] {
        var evidence: [Evidence] = []
        if context.hasHealthKitEntitlement, let entitlements = context.manifest.main.entitlements {
            evidence.append(Evidence(location: entitlements.location(of: HealthKeys.entitlement), quote: entitlements.quote(HealthKeys.entitlement)))
        }
        evidence += [HealthKeys.share, HealthKeys.update].compactMap { context.manifest.usageString($0) }.map { Evidence(location: $0.location, quote: $0.quote) }
        evidence += context.manifest.healthKitDependencies.map { Evidence(location: $0.location, quote: $0.quote) }
        return evidence.filter { $0.location.line != nil }
    }

    /// How a reason names a target: "the app" for the app itself, else its kind and id.
    func label(_ target: String) -> String {
        guard target != context.manifest.id, let manifest = context.manifest.targets.first(where: { $0.id == target }) else { return "the app" }
        switch manifest.kind {
        case .appExtension: return "extension `\(target)`"
        case .watchApp: return "watch app `\(target)`"
        case .app: return "`\(target)`"
        }
    }
}
