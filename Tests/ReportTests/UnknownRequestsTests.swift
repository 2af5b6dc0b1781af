@testable import Checklist
import Foundation
@testable import Manifest
@testable import Report
import SiteBuild
import XCTest
import TestSupport

/// An app whose read set is built at run time (`items.map { … }`): its requested types are
/// unknown, and every output says so with the request's place, never "none", and its summaries
/// neither hatch everything as hidden nor claim the app sees everything.
final class UnknownRequestsTests: XCTestCase {
    private static let swift = """
        import HealthKit

        struct Item { let type: HKQuantityTypeIdentifier }

        final class Health {
            let store = HKHealthStore()

            func start(items: [Item]) async throws {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                let read = Set(items.map { HKObjectType.quantityType(forIdentifier: $0.type)! })
                try await store.requestAuthorization(toShare: [], read: read)
            }
        }

        """

    /// The place every output names: the request's file and line.
    private static let place: String = {
        let line = swift.components(separatedBy: "\n").firstIndex { $0.contains("requestAuthorization") }! + 1
        return "apps/pace/Pace/Health.swift:\(line)"
    }()

    /// A site of the one app, with `requested` (YAML lines under `requested:`) when given.
    private func site(requested: String? = nil, name: String = "Pace") throws -> TestSite {
        var files = InlineApp.files(id: "pace", name: "Pace")
        files["apps/pace/Pace/Health.swift"] = Self.swift
        files["healthaudit.yml"] = """
            title: Inline
            summaries:
              from: 2026-03-30
              to: 2026-03-31
            apps:
              - id: pace
                name: "\(name)"
                root: apps/pace
                info_plist: Pace/Info.plist
                entitlements: Pace/Pace.entitlements
                sources: [Pace]
                scenarios: [partial-grant]

            """ + (requested.map { "    requested:\n" + $0 } ?? "")
        return try TestSite(files: files)
    }

    func testTheAuditCarriesTheUnknownRequestWithItsPlace() throws {
        let site = try site()
        defer { site.remove() }
        let audit = try XCTUnwrap(site.audit().audits.first)
        XCTAssertEqual(audit.requestedRead, [])
        XCTAssertEqual(audit.unresolvedRead.places, [Self.place])
        XCTAssertTrue(audit.unresolvedShare.isEmpty, "`toShare: []` is resolved: it asks for nothing")
    }

    func testTheAppPageSaysUnknownWithThePlace() throws {
        let site = try site()
        defer { site.remove() }
        try site.build()
        let page = try site.read(SitePaths.app("pace"))
        XCTAssertTrue(page.contains("<li>Read: unknown: 1 request could not be resolved (<code>\(Self.place)</code>)</li>"), page)
        XCTAssertTrue(page.contains("<li>Share (write): none</li>"), "a resolved empty set is still none")
        XCTAssertFalse(page.contains("<li>Read: none</li>"))
    }

    func testTheEvidenceFileSaysUnknownWithThePlace() throws {
        let site = try site()
        defer { site.remove() }
        let audit = try XCTUnwrap(site.audit().audits.first)
        let html = EvidenceReport.render(EvidenceInput(audit: audit, configPath: "healthaudit.yml", configText: "", inputs: []),
                                         context: OutputContext(sitePrefix: "Site", siteDirectory: site.site))
        XCTAssertTrue(html.contains("<tr><th>Requested (read)</th><td>unknown: 1 request could not be resolved (<code>\(Self.place)</code>)</td></tr>"), html)
        XCTAssertTrue(html.contains("<tr><th>Requested (share)</th><td>none</td></tr>"))
    }

    func testAResultCarriesTheUnknownRequestsBackIntoThePages() throws {
        let site = try site()
        defer { site.remove() }
        let audits = try site.audit().audits
        let text = JSONReport.render(audits, context: OutputContext(sitePrefix: "Site", siteDirectory: site.site))
        let app = try XCTUnwrap(ResultReader.read(Data(text.utf8)).apps.first)
        XCTAssertEqual(app.unresolvedRead.places, [Self.place])
        let schema = try OutputFixture.writeTemporary(ReportSchema.text)
        defer { try? FileManager.default.removeItem(atPath: schema) }
        XCTAssertEqual(try OutputFixture.schemaErrors(text, schemaPath: schema), [])
    }

    func testInitWritesARequestedBlockToFill() throws {
        let site = try site()
        defer { site.remove() }
        let audit = try XCTUnwrap(site.audit().audits.first)
        let app = AppDiscovery.App(id: "pace", name: "Pace", kind: "swift", root: "apps/pace", project: nil, reason: "an app")
        let yaml = AppDiscovery.config(for: [app], title: "Inline", findings: ["pace": audit.discoveryFindings])
        XCTAssertTrue(yaml.contains("""
                requested:
                  # unknown: 1 request could not be resolved (\(Self.place))
                  read: []

            """), yaml)
        XCTAssertTrue(yaml.contains("# Requested in the code — read: unknown: 1 request could not be resolved (\(Self.place)); share: none."), yaml)
        XCTAssertFalse(yaml.contains("share: []"), "only what is unknown is asked for")
        // The written config loads, and its empty list leaves the requests unknown until filled.
        try site.write("healthaudit.yml", yaml)
        let loaded = try ConfigLoader().load(siteDirectory: site.site)
        XCTAssertEqual(loaded.apps.first?.requested.read.map(\.value), [])
    }

    /// The app's name in the banner is escaped once: a reader sees `<b>Pace</b>` as typed.
    func testTheBannerEscapesTheAppsNameOnce() throws {
        let site = try site(name: "<b>Pace</b> & Co")
        defer { site.remove() }
        try site.build()
        let overview = try site.read(SitePaths.summary("pace"))
        XCTAssertTrue(overview.contains("What <strong>&lt;b&gt;Pace&lt;/b&gt; &amp; Co</strong> reads is unknown"), overview)
    }

    func testAFilledRequestedListAnswersTheUnknown() throws {
        let site = try site(requested: "      read: [stepCount]\n")
        defer { site.remove() }
        try site.build()
        let page = try site.read(SitePaths.app("pace"))
        XCTAssertTrue(page.contains("<li>Read: <code>stepCount</code></li>"), page)
        XCTAssertFalse(try site.read(SitePaths.summary("pace")).contains("class=\"banner\""))
    }

    func testSummariesOfAnAppWithUnknownRequestsSaySoAndHatchNothing() throws {
        let site = try site()
        defer { site.remove() }
        try site.build()
        let overview = try site.read(SitePaths.summary("pace"))
        XCTAssertTrue(overview.contains("<p class=\"banner\"><strong>Permissions unknown.</strong> What <strong>Pace</strong> reads is unknown: 1 request could not be resolved (<code>\(Self.place)</code>)"), overview)
        XCTAssertFalse(overview.contains("<rect class=\"hidden\""), "the store's data is shown, not hidden")
        XCTAssertTrue(overview.contains("Steps per day the store holds (permissions unknown)"))
        XCTAssertFalse(overview.contains("<td>hidden / "))
        let day = try site.read(SitePaths.day("pace", "2026-03-30"))
        XCTAssertTrue(day.contains("<p class=\"banner\"><strong>Permissions unknown.</strong>"), day)
        XCTAssertFalse(day.contains("The app sees everything"))
        XCTAssertFalse(day.contains("<rect class=\"hidden\""))
        XCTAssertTrue(day.contains("<td>unknown</td><td>"), "every metric the store holds, what the app sees marked unknown")
        XCTAssertNil(day.firstMatch(of: /<tbody>\s*<\/tbody>/), "no empty table")
        // The app page's link to them and its scenario timeline say the same.
        let page = try site.read(SitePaths.app("pace"))
        XCTAssertTrue(page.contains("what Pace sees of it is unknown (permissions unknown: its read requests could not be resolved)"), page)
        XCTAssertFalse(page.contains("what Pace sees of the simulated user's Health data under the permissions it was granted"))
        XCTAssertTrue(page.contains("The app&#39;s read requests are unknown: 1 request could not be resolved (\(Self.place)): the replay asks to read common types in their place."), page)
    }

    /// An app the simulation never asked for a compared metric (no `permissions:` in the
    /// config): its day page says so, and draws no empty table.
    func testADayWithNothingToCompareDrawsNoTable() throws {
        let site = try TestSite(files: InlineApp.site([("pace", "Pace", nil)]))
        defer { site.remove() }
        try site.build()
        let day = try site.read(SitePaths.day("pace", "2026-03-30"))
        XCTAssertNil(day.firstMatch(of: /<tbody>\s*<\/tbody>/), day)
        XCTAssertFalse(day.contains("The app sees everything"), day)
    }

    /// Places are paths from the app: escaped in the evidence file, and kept to one comment line by `init`.
    func testPlacesAreEscapedForEachOutput() throws {
        let forged = "<script>alert(1)</script>\n    permissions: { evil: 1 }\n.swift:3"
        var audit = try OutputFixture.audit("trainer")
        audit.unresolvedRead = UnresolvedRequests([forged])
        let html = EvidenceReport.render(EvidenceInput(audit: audit, configPath: "healthaudit.yml", configText: "", inputs: []), context: OutputFixture.context)
        XCTAssertFalse(html.contains("<script>alert"))
        XCTAssertTrue(html.contains("unknown: 1 request could not be resolved (<code>&lt;script&gt;alert(1)&lt;/script&gt;"), html)
        let app = AppDiscovery.App(id: "pace", name: "Pace", kind: "swift", root: "apps/pace", project: nil, reason: "an app")
        let yaml = AppDiscovery.config(for: [app], title: "Inline", findings: ["pace": audit.discoveryFindings])
        XCTAssertFalse(yaml.contains("\n    permissions: { evil"), yaml)
        XCTAssertTrue(yaml.contains("# unknown: 1 request could not be resolved (<script>alert(1)</script>     permissions: { evil: 1 } .swift:3)"), yaml)
    }

    /// The same class in a React Native app: a `permissions.read` list built at run time is unknown
    /// at its `initHealthKit` call, while the write list written out stays known.
    func testAReactNativeListBuiltAtRunTimeIsUnknown() {
        let text = """
            import AppleHealthKit from 'react-native-health';
            const options = { permissions: { read: types.map((t) => AppleHealthKit.Constants.Permissions[t]), write: [AppleHealthKit.Constants.Permissions.Steps] } };
            AppleHealthKit.initHealthKit(options, () => {});
            """
        let scan = ReactNativeHealthScan.scan([JavaScriptFile(path: "src/health.ts", text: text)])
        XCTAssertEqual(scan.unresolvedReadPlaces, ["src/health.ts:3"], scan.notes.joined(separator: "\n"))
        XCTAssertEqual(scan.unresolvedWritePlaces, [])
        XCTAssertEqual(scan.writeTypes, ["stepCount"])
    }
}
