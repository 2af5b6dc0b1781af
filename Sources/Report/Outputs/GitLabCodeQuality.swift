import Checklist
import Manifest

/// GitLab Code Quality (`artifacts: reports: codequality`), the subset of the Code Climate issue
/// format GitLab reads: one issue per active finding, in audit order, with `description`,
/// `check_name`, `fingerprint`, `severity` and `location {path, lines {begin}}`. Suppressed
/// findings are left out, as in the GitHub annotations: GitLab has no way to show them as accepted.
public enum GitLabCodeQuality {
    public static func render(_ audits: [AppAudit], context: OutputContext) -> String {
        var occurrences: [String: Int] = [:]
        var issues: [JSONValue] = []
        for audit in audits {
            for finding in audit.activeFindings {
                let identity = "\(audit.manifest.id)|\(finding.ruleID)|\(context.fingerprint(finding))"
                let occurrence = occurrences[identity, default: 0]
                occurrences[identity] = occurrence + 1
                issues.append(issue(finding, fingerprint: SHA256.hex("\(identity)|\(occurrence)"), context: context))
            }
        }
        return JSONValue.array(issues).serialized()
    }

    /// GitLab's five levels: an error (a crash, an App Store rejection) is critical, a warning (code
    /// that misreads HealthKit) major, a note info. `blocker` and `minor` are not used.
    public static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: return "critical"
        case .warning: return "major"
        case .note: return "info"
        }
    }

    /// The fingerprint is SHA-256 of the app, the rule, the finding's line-independent fingerprint
    /// (file and normalized quote) and its occurrence among identical ones: GitLab compares the base
    /// and head reports by fingerprint, so a finding moved by an edit above it stays the same issue,
    /// and two identical findings in one file stay two (GitLab shows one issue per fingerprint).
    private static func issue(_ finding: Finding, fingerprint: String, context: OutputContext) -> JSONValue {
        .object([
            ("description", .string(PlainText.message(finding.message))),
            ("check_name", .string(finding.ruleID)),
            ("fingerprint", .string(fingerprint)),
            ("severity", .string(severity(finding.severity))),
            ("location", .object([
                ("path", .string(context.repositoryPath(finding.location.file))),
                ("lines", .object([("begin", .int(OutputContext.line(finding.location)))])),
            ])),
        ])
    }
}
