import Foundation
import Manifest

/// Code the audit read but could not analyse (`FileNotAnalysedRule`) may hold exactly what a
/// question turns on, so an answer about code that rests on what the rules did not find — a
/// healthy answer, or "not applicable" for want of a write — becomes "cannot tell", naming each
/// file and why. An unhealthy answer stands: it cites code that was analysed. An app that declares
/// no HealthKit cannot use it, so its "not applicable" stands too. A finding suppressed with a
/// reason ("holds no HealthKit code") no longer qualifies anything.
struct UnanalysedCode {
    let context: AuditContext
    let findings: [Finding]

    func qualify(_ answer: Answer) -> Answer {
        let question = answer.question
        guard question.needsSources, answer.status != question.unhealthyAnswer, answer.status != .cannotTell else { return answer }
        if answer.status == .notApplicable && !context.declaresHealthKit { return answer }
        let unseen = files(for: question, answer: answer)
        guard !unseen.isEmpty else { return answer }
        let shown = unseen.prefix(3).map { "\(Evidence(location: $0.location, quote: "").place) (\(reason($0)))" }
        let more = unseen.count - shown.count
        let claims = [
            Claim(text: answer.reason, evidence: answer.evidence),
            Claim(text: "but the audit could not analyse \(Plural.count(unseen.count, "file")) of its code: \(shown.joined(separator: ", "))"
                  + (more > 0 ? " and \(more) more" : "") + ", where what decides the answer may be",
                  evidence: unseen.prefix(3).map { Evidence(location: $0.location, quote: $0.quote) }),
        ]
        return Answer(question: question, status: .cannotTell, claims: claims, ruleIDs: answer.ruleIDs)
    }

    /// The live `file-not-analysed` findings that bear on `question`. Question 5 is about extension
    /// targets: only their code counts, and a manifest not analysed (whose targets went unseen), and
    /// its "not applicable" (no extension target) is qualified only by such a manifest.
    private func files(for question: ReviewQuestion, answer: Answer) -> [Finding] {
        let live = findings.filter { $0.ruleID == FileNotAnalysedRule.description.id && !$0.isSuppressed }
        guard question == .widgetsDoNotRequest else { return live }
        let manifests = Set(context.manifest.unanalysed.map(\.path))
        let extensions = Set(context.manifest.extensions.filter(\.isExtension).map(\.id))
        return live.filter { manifests.contains($0.location.file) || (answer.status == .yes && extensions.contains($0.target)) }
    }

    private func reason(_ finding: Finding) -> String {
        for prefix in ["not analysed: ", "analysed only up to this line: "] where finding.message.hasPrefix(prefix) {
            return String(finding.message.dropFirst(prefix.count))
        }
        return finding.message
    }
}
