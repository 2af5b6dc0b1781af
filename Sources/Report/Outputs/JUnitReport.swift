import Checklist
import Manifest

/// JUnit XML for CI test tabs: one testsuite per app, one testcase per rule that applies to the
/// app's kind (a Swift app gets no React Native or Flutter rule, which would only pad "passed";
/// a rule with a finding is always listed). A rule with active
/// findings at or above `--fail-on` fails (every finding listed in the failure); one with active
/// findings below it passes and lists them as output, as the check's exit status does; one whose
/// findings are all suppressed is skipped.
public enum JUnitReport {
    public static func render(_ audits: [AppAudit], context: OutputContext) -> String {
        let catalogue = RuleIndex(audits).descriptions
        var suites: [String] = []
        var totals = (tests: 0, failures: 0, skipped: 0)
        for audit in audits {
            let found = Set(audit.findings.map(\.ruleID))
            let rules = catalogue.filter { $0.applies(to: audit.manifest) || found.contains($0.id) }
            var cases: [String] = []
            var failures = 0, skipped = 0
            for rule in rules {
                let findings = audit.findings.filter { $0.ruleID == rule.id }
                let active = findings.filter { !$0.isSuppressed }
                let attributes = "classname=\"\(XMLText.escape("healthaudit." + audit.manifest.id))\" name=\"\(XMLText.escape(rule.id))\""
                if active.contains(where: { $0.severity >= context.failOn }) {
                    failures += 1
                    cases.append("    <testcase \(attributes)>\n" + failure(active, rule: rule, context: context) + "    </testcase>\n")
                } else if !active.isEmpty {
                    cases.append("    <testcase \(attributes)>\n      <system-out>\(XMLText.escape(listing(active, context: context)))</system-out>\n    </testcase>\n")
                } else if !findings.isEmpty {
                    skipped += 1
                    let reasons = findings.compactMap(\.suppression).map(\.reason)
                    let message = "suppressed: " + Array(Set(reasons)).sorted().joined(separator: "; ")
                    cases.append("    <testcase \(attributes)>\n      <skipped message=\"\(XMLText.escape(message))\"/>\n    </testcase>\n")
                } else {
                    cases.append("    <testcase \(attributes)/>\n")
                }
            }
            totals.tests += rules.count; totals.failures += failures; totals.skipped += skipped
            // The tool and version, so a CI result can be traced to what produced it.
            let properties = "    <properties>\n      <property name=\"tool\" value=\"\(XMLText.escape(context.tool.name))\"/>\n"
                + "      <property name=\"version\" value=\"\(XMLText.escape(context.tool.version))\"/>\n"
                + "      <property name=\"fail-on\" value=\"\(context.failOn.rawValue)\"/>\n"
                + outsideProperty(audit, context: context) + "    </properties>\n"
            suites.append("  <testsuite name=\"\(XMLText.escape(audit.manifest.id))\" tests=\"\(rules.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
                          + properties + cases.joined() + "  </testsuite>\n")
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"\(XMLText.escape(context.tool.name))\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"0\" skipped=\"\(totals.skipped)\">\n"
            + suites.joined() + "</testsuites>\n"
    }

    /// With `--changed-files` or `--since`: this app's findings left out, counted and said.
    private static func outsideProperty(_ audit: AppAudit, context: OutputContext) -> String {
        guard let scope = context.changeScope else { return "" }
        let count = scope.outsideByApp[audit.manifest.id] ?? 0
        return "      <property name=\"outside-changed-lines\" value=\"\(count)\"/>\n"
            + "      <property name=\"summary\" value=\"\(XMLText.escape(ChangeScope.sentence(count)))\"/>\n"
    }

    /// One `<failure>` per testcase (what JUnit consumers expect): the first finding as its message,
    /// all of them, located and quoted, in its body.
    private static func failure(_ findings: [Finding], rule: RuleDescription, context: OutputContext) -> String {
        let worst = findings.map(\.severity).max() ?? rule.severity
        let first = findings[0]
        let message = findings.count == 1
            ? "\(TextReport.location(first, context: context)): \(PlainText.message(first.message))"
            : "\(findings.count) findings; first at \(TextReport.location(first, context: context)): \(PlainText.message(first.message))"
        let body = listing(findings, context: context)
        return "      <failure message=\"\(XMLText.escape(message))\" type=\"\(worst.rawValue)\">\(XMLText.escape(body))</failure>\n"
    }

    /// Every finding located, with its severity and the quoted line.
    private static func listing(_ findings: [Finding], context: OutputContext) -> String {
        findings.map { finding in
            var line = "\(TextReport.location(finding, context: context)): \(finding.severity.rawValue): \(PlainText.message(finding.message))"
            if !finding.quote.isEmpty { line += "\n    " + finding.quote }
            return line
        }.joined(separator: "\n")
    }
}
