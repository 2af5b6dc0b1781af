import Checklist
import Manifest
import Summary

/// Everything the site shows of one app. A source build makes it from the audit and the
/// simulation; `build --results` reads it from a `check --format json` result (`ResultReader`).
/// The pages render from this alone, so both builds give the same pages.
public struct AppReport: Sendable {
    public var id: String
    public var name: String
    public var kind: AppKind
    public var answers: [Answer]
    /// Locations relative to the site folder, as pages show them.
    public var findings: [Finding]
    public var requestedRead: [String]
    public var requestedShare: [String]
    /// Requests whose types could not be resolved: shown as "unknown", never as "none".
    public var unresolvedRead: UnresolvedRequests
    public var unresolvedShare: UnresolvedRequests
    /// What the scan could not establish.
    public var notes: [String]
    public var declared: Declarations
    /// nil: the app has no summary pages.
    public var simulation: SimulationReport?
    /// Links from locations to the forge, when the run's config gives `source_url`.
    public var sourceLinks: SourceLinks?

    public init(id: String, name: String, kind: AppKind, answers: [Answer], findings: [Finding], requestedRead: [String], requestedShare: [String],
                unresolvedRead: UnresolvedRequests = UnresolvedRequests(), unresolvedShare: UnresolvedRequests = UnresolvedRequests(), notes: [String], declared: Declarations, simulation: SimulationReport?, sourceLinks: SourceLinks?) {
        self.id = id; self.name = name; self.kind = kind; self.answers = answers; self.findings = findings
        self.requestedRead = requestedRead; self.requestedShare = requestedShare; self.notes = notes
        self.unresolvedRead = unresolvedRead; self.unresolvedShare = unresolvedShare
        self.declared = declared; self.simulation = simulation; self.sourceLinks = sourceLinks
    }

    public init(audit: AppAudit, summary: AppSummary? = nil, sourceLinks: SourceLinks? = nil) {
        self.init(id: audit.manifest.id, name: audit.manifest.name, kind: audit.manifest.config.kind, answers: audit.answers,
                  findings: audit.findings, requestedRead: audit.requestedRead, requestedShare: audit.requestedShare,
                  unresolvedRead: audit.unresolvedRead, unresolvedShare: audit.unresolvedShare, notes: audit.notes,
                  declared: Declarations(manifest: audit.manifest), simulation: summary.map(SimulationReport.init), sourceLinks: sourceLinks)
    }

    /// The app's read requests are not all known: its summaries cannot say what it sees.
    public var readRequestsUnknown: Bool { !unresolvedRead.isEmpty }

    public var activeFindings: [Finding] { findings.filter { !$0.isSuppressed } }
    public var verdict: Verdict { Verdict(activeFindings: activeFindings) }
}
