import Foundation
import Manifest
import SiteBuild
import XCTest
import TestSupport

/// Every string field of one app (Steady) replaced by HTML/Markdown/Mustache injection payloads: the
/// built site must contain no script, event handler or script URL beyond what the templates put there.
final class InjectionTests: XCTestCase {
    static let payload = #"<script>alert(1)</script><img src=x onerror=alert(1)>[x](javascript:alert(1))"><svg onload=alert(1)>{{{x}}}"#

    static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func quoted(_ text: String) -> String {
        // `\n` means a newline in YAML, Swift and .strings double-quoted strings alike.
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    func testInjectedStringsNeverBecomeActiveContent() throws {
        let payload = Self.payload
        // The site as the templates alone make it: whatever active content it has is theirs.
        let baseline = try TestSite.builtDemo()
        var templateOwned: Set<String> = []
        for (path, data) in try baseline.snapshot() where Self.isMarkup(path) {
            templateOwned.formUnion(activeContent(String(decoding: data, as: UTF8.self)))
        }

        let site = try TestSite()
        defer { site.remove() }
        try site.inject(payload)
        let state = try site.build()

        // The payload did reach the audit: as the app's name, its usage strings and a source finding.
        let audit = try XCTUnwrap(state.audits.first { $0.manifest.id == "steady" })
        XCTAssertEqual(audit.manifest.name, payload)
        XCTAssertEqual(audit.manifest.main.infoPlist?["NSHealthShareUsageDescription"]?.string, payload)
        XCTAssertTrue(audit.findings.contains { $0.location.file.hasSuffix("Injected.swift") && $0.quote.contains("<script>") },
                      "\(audit.findings.map { "\($0.ruleID) \($0.location)" })")

        var checked = 0
        for (path, data) in try site.snapshot() where Self.isMarkup(path) {
            let html = String(decoding: data, as: UTF8.self)
            let extra = activeContent(html).filter { !templateOwned.contains($0) }
            XCTAssertEqual(extra, [], path)
            XCTAssertFalse(html.contains("<script>alert(1)"), path)
            XCTAssertFalse(html.contains("<svg onload"), path)
            XCTAssertFalse(html.contains("<img src=x"), path)
            XCTAssertFalse(html.contains(">x</a>"), path) // the Markdown link of the payload never became a link
            checked += 1
        }
        XCTAssertGreaterThan(checked, 20)
        // Shown as text, not dropped: the escaped payload is on the app's page.
        let page = try String(contentsOfFile: site.output + "/apps/steady/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "escaped payload on the app page")
        XCTAssertTrue(page.contains("{{{x}}}") || page.contains("&#123;&#123;&#123;x&#125;&#125;&#125;"), "Mustache tags in data stay text")
    }

    func testTheScannerSeesWhatABrowserWouldRun() {
        XCTAssertEqual(activeContent("<p><img src=x onerror=alert(1)></p>"), ["<img src=x onerror=alert(1)>"])
        XCTAssertEqual(activeContent("<a href=\"JaVaScRiPt:alert(1)\">x</a>"), ["<a href=\"JaVaScRiPt:alert(1)\">"])
        XCTAssertEqual(activeContent("<a href='&#x6A;avascript:x'>x</a>"), ["<a href='&#x6A;avascript:x'>"])
        XCTAssertEqual(activeContent("<a href='&#106avascript:x'>x</a>"), ["<a href='&#106avascript:x'>"])
        XCTAssertEqual(activeContent("<a href=\"java&Tab;script:x\">"), ["<a href=\"java&Tab;script:x\">"])
        XCTAssertEqual(activeContent("<svg onload=alert(1)>"), ["<svg onload=alert(1)>"])
        XCTAssertEqual(activeContent("x<script>alert(1)</script>"), ["<script>"])
        XCTAssertEqual(activeContent("<!-- <script> --><p title=\"a > b\" class=x>&lt;script&gt;</p>"), [])
    }

    static func isMarkup(_ path: String) -> Bool {
        [".html", ".htm", ".svg", ".xml", ".xhtml"].contains { path.hasSuffix($0) }
    }
}

extension TestSite {
    /// Puts `payload` into every string field of Steady: config, Info.plist, strings, catalog, entitlements, a Swift line.
    func inject(_ payload: String) throws {
        let site = self
        typealias Q = InjectionTests
        // Config: the site title, the app's display name and its build settings (expanded into the plist).
        try site.edit("healthaudit.yml") { text in
            text.replacingOccurrences(of: "title: HealthAudit — example apps", with: "title: " + Q.quoted(payload))
                .replacingOccurrences(of: "    name: Steady\n", with: "    name: \(Q.quoted(payload))\n")
                .replacingOccurrences(of: "      PRODUCT_NAME: Steady\n", with: "      PRODUCT_NAME: \(Q.quoted(payload))\n")
                .replacingOccurrences(of: "        name: Steady Widget\n", with: "        name: \(Q.quoted(payload))\n")
        }
        // Info.plist: both usage strings and the display name.
        try site.edit("apps/steady/Steady/Info.plist") { text in
            var text = text
            for original in ["Steady reads your steps, heart rate, sleep, activity, weight, age and sex to show daily trends and estimate your recovery.",
                             "Steady saves the mindful minutes and workouts you log with \"Log session\" so they appear in Apple Health.",
                             "<string>Steady</string>"] {
                XCTAssertTrue(text.contains(original), original)
                text = text.replacingOccurrences(of: original, with: original.hasPrefix("<string>") ? "<string>\(Q.xml(payload))</string>" : Q.xml(payload))
            }
            return text
        }
        // Localized strings (UTF-8 now), the string catalog, the entitlements.
        for locale in ["en", "de"] {
            try site.write("apps/steady/Steady/\(locale).lproj/InfoPlist.strings", """
                /* \(payload) */
                "NSHealthShareUsageDescription" = \(Q.quoted(payload));
                "NSHealthUpdateUsageDescription" = \(Q.quoted(payload + " \(locale)"));
                \(Q.quoted(payload)) = \(Q.quoted(payload));
                """)
        }
        let catalogPath = site.site + "/apps/steady/Steady/InfoPlist.xcstrings"
        var catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: catalogPath))) as! [String: Any]
        var strings = catalog["strings"] as! [String: Any]
        for (key, entry) in strings {
            var entry = entry as! [String: Any]
            var localizations = entry["localizations"] as? [String: Any] ?? [:]
            for (locale, unit) in localizations {
                var unit = unit as! [String: Any]
                var stringUnit = unit["stringUnit"] as? [String: Any] ?? [:]
                stringUnit["value"] = payload
                unit["stringUnit"] = stringUnit
                localizations[locale] = unit
            }
            entry["localizations"] = localizations
            strings[key] = entry
        }
        catalog["strings"] = strings
        try JSONSerialization.data(withJSONObject: catalog, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: catalogPath))
        try site.edit("apps/steady/Steady/Steady.entitlements") {
            $0.replacingOccurrences(of: "<array/>", with: "<array>\n\t\t<string>\(Q.xml(payload))</string>\n\t</array>")
        }
        // A Swift line that produces a finding (a read decision taken from the write status), with the payload on it.
        try site.write("apps/steady/Steady/Health/Injected.swift", """
            import HealthKit

            final class InjectedProbe {
                let store = HKHealthStore()

                func mayShowBirthday() -> Bool {
                    store.authorizationStatus(for: HKCharacteristicType(.dateOfBirth)) == .sharingAuthorized /* \(payload) */ || \(Q.quoted(payload)).isEmpty
                }
            }

            """)
    }
}
