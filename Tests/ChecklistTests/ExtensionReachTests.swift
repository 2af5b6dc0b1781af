import Checklist
import Manifest
import TestSupport
import XCTest

/// A file compiled into both the app and its widget asks for the app unless the widget's own code
/// calls into the asking function: only a request the widget can run is reported.
final class ExtensionReachTests: XCTestCase {
    var site: TestSite!

    override func tearDown() { site?.remove() }

    /// `Shared/Health.swift` is in the app's and the widget's sources; the widget's provider calls
    /// `todaySteps()`, and `widgetCallsConnect` decides whether it also calls `connect()`, which asks.
    func audit(widgetCallsConnect: Bool, widgetModel: String = "Health", widgetShowsConnectView: Bool? = nil) throws -> AppAudit {
        var files = InlineApp.site([("pace", "Pace", nil)])
        files["healthaudit.yml"] = files["healthaudit.yml"]!.replacingOccurrences(of: "sources: [Pace]", with: "sources: [Pace, Shared]") + """
                extensions:
                  - id: pace-widget
                    name: Pace Widget
                    info_plist: Widget/Info.plist
                    sources: [Widget, Shared]

            """
        files["apps/pace/Widget/Info.plist"] = RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>])
        files["apps/pace/Shared/Health.swift"] = """
            import HealthKit

            final class Health {
                let store = HKHealthStore()

                func connect() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
                }

                func todaySteps(_ done: @escaping (Double) -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return done(0) }
                    store.execute(HKStatisticsQuery(quantityType: HKQuantityType(.stepCount), quantitySamplePredicate: nil, options: .cumulativeSum) { _, result, _ in
                        done(result?.sumQuantity()?.doubleValue(for: .count()) ?? 0)
                    })
                }
            }

            /// The widget's own model: the same method names, and it never asks.
            final class WidgetHealth {
                let store = HKHealthStore()

                func connect() async throws {
                    _ = try await store.statusForAuthorizationRequest(toShare: [], read: [HKQuantityType(.stepCount)])
                }

                func todaySteps(_ done: @escaping (Double) -> Void) { done(0) }
            }

            """
        files["apps/pace/Widget/Provider.swift"] = """
            import WidgetKit

            struct StepsEntry: TimelineEntry { let date: Date; let steps: Double }

            struct Provider: TimelineProvider {
                let health = \(widgetModel)()
                func placeholder(in context: Context) -> StepsEntry { StepsEntry(date: .now, steps: 0) }
                func getSnapshot(in context: Context, completion: @escaping (StepsEntry) -> Void) { completion(placeholder(in: context)) }
                func getTimeline(in context: Context, completion: @escaping (Timeline<StepsEntry>) -> Void) {
                    \(widgetCallsConnect ? "Task { try? await health.connect() }" : "")
                    health.todaySteps { steps in completion(Timeline(entries: [StepsEntry(date: .now, steps: steps)], policy: .atEnd)) }
                }
            }

            """
        files["apps/pace/Pace/PaceApp.swift"] = """
            import SwiftUI

            struct SettingsView: View {
                let health = Health()
                var body: some View { Button("Connect Health") { Task { try? await health.connect() } } }
            }

            """
        if let widgetShowsConnectView {
            // A view compiled into both, whose body's button asks: it runs where a `ConnectView` is made.
            files["apps/pace/Shared/ConnectView.swift"] = """
                import SwiftUI

                struct ConnectView: View {
                    let health = Health()
                    var body: some View { Button("Connect Health") { Task { try? await health.connect() } } }
                }

                """
            files["apps/pace/Widget/EntryView.swift"] = """
                import SwiftUI

                struct EntryView: View {
                    var body: some View { \(widgetShowsConnectView ? "ConnectView()" : "Text(\"Steps\")") }
                }

                """
            files["apps/pace/Pace/PaceApp.swift"]! += "struct Root: View {\n    var body: some View { NavigationLink(\"Health\", destination: ConnectView()) }\n}\n"
        }
        site = try TestSite(files: files)
        let config = try ConfigLoader().load(siteDirectory: site.site)
        return Checklist().audit(try ManifestLoader(siteDirectory: site.site).load(config.apps[0]))
    }

    func testASharedRequestOnlyTheAppCallsIsNotTheWidgets() throws {
        let audit = try audit(widgetCallsConnect: false)
        XCTAssertEqual(audit.findings.filter { $0.ruleID == "extension-requests-authorization" }.map(\.message), [])
        let q5 = try XCTUnwrap(audit.answers.first { $0.question == .widgetsDoNotRequest })
        XCTAssertEqual(q5.status, .yes, q5.reason)
    }

    func testASharedRequestTheWidgetCallsIsReportedAtTheRequest() throws {
        let audit = try audit(widgetCallsConnect: true)
        let asking = audit.findings.filter { $0.ruleID == "extension-requests-authorization" }
        XCTAssertEqual(asking.map { "\($0.location.file):\($0.location.line ?? 0)" }, ["apps/pace/Shared/Health.swift:8"])
        let q5 = try XCTUnwrap(audit.answers.first { $0.question == .widgetsDoNotRequest })
        XCTAssertEqual(q5.status, .no, q5.reason)
    }

    /// Code in a computed property (a SwiftUI view's `body`) runs where an instance of its type is
    /// made: a shared view only the app shows does not ask in the widget; one the widget shows does.
    func testASharedViewsRequestRunsWhereTheViewIsMade() throws {
        let appOnly = try audit(widgetCallsConnect: false, widgetShowsConnectView: false)
        XCTAssertEqual(appOnly.findings.filter { $0.ruleID == "extension-requests-authorization" }.map(\.message), [])
        let shown = try audit(widgetCallsConnect: false, widgetShowsConnectView: true)
        XCTAssertEqual(shown.findings.filter { $0.ruleID == "extension-requests-authorization" }.map { "\($0.location.file):\($0.location.line ?? 0)" },
                       ["apps/pace/Shared/Health.swift:8"])
    }

    /// Reach follows types where the code shows them: the widget's `health.connect()` on a
    /// `WidgetHealth` is not `Health.connect()`, which asks.
    func testASameNamedMethodOfAnotherTypeDoesNotReachTheRequest() throws {
        let audit = try audit(widgetCallsConnect: true, widgetModel: "WidgetHealth")
        XCTAssertEqual(audit.findings.filter { $0.ruleID == "extension-requests-authorization" }.map(\.message), [])
        let q5 = try XCTUnwrap(audit.answers.first { $0.question == .widgetsDoNotRequest })
        XCTAssertEqual(q5.status, .yes, q5.reason)
    }
}
