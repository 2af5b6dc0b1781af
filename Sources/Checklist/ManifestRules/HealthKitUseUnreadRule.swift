import Manifest

/// The app says it uses HealthKit (its entitlement, a usage string, requested types, a HealthKit
/// library) but the audit found no HealthKit call in the code it could read: the calls are in code
/// it could not read or follow. Such an app is never "passes"; its verdict is "incomplete".
struct HealthKitUseUnreadRule: Rule {
    static let description = RuleDescription(
        id: "healthkit-use-unread", title: "HealthKit is declared but its use could not be read", severity: .warning,
        questions: [],
        rationale: """
        An app that declares HealthKit — the `com.apple.developer.healthkit` entitlement, a Health usage string, \
        requested types, a HealthKit library in its dependencies — calls it somewhere. When none of those calls is \
        in the code the audit read, they are in code it could not read or follow: a project manifest built by \
        helper functions, a binary framework, a generated file that is not committed, a package outside the \
        repository. The checklist's questions about code are then "cannot tell", and the audit is incomplete: \
        saying the app passes would claim what nobody read. The finding names what could not be read; configure \
        `sources:` or `extra_sources:` (or commit the generated file) so the audit sees the calls.
        """,
        triggering: [
            // Entitlement, usage strings and requested types, but the code read makes no HealthKit call.
            .healthApp(["Sources/Home.swift": "import SwiftUI\n\nstruct Home: View {\n    var body: some View { Text(\"Steps\") }\n}\n"]),
        ],
        nonTriggering: [
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            func connect(_ store: HKHealthStore) async throws {
                guard HKHealthStore.isHealthDataAvailable() else { return }
                try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
            }
            """], read: ["stepCount"], share: []),
            // Nothing declares HealthKit.
            .healthApp(["Info.plist": RuleExample.plist(["CFBundleName": "Steady"]), "App.entitlements": RuleExample.plist(["aps-environment": "production"]),
                        "Sources/Home.swift": "struct Home {}\n"], read: [], share: []),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let unreadCode = !context.hasSources && context.manifest.discovery.contains(where: \.isNote)
        guard context.declaresHealthKit || unreadCode, !context.usage.facts.contains(where: { $0.kind != .availabilityCheck && $0.ships }),
              context.wrapperRequests.isEmpty, context.manifest.reactNativeHealth == nil,
              // All read, and the package that declares it is never called: nothing is left unread.
              context.unusedHealthKitPackage == nil else { return [] }
        let facts = AnswerFacts(context: context, active: [])
        let declared = facts.declaringEvidence.first
        let unread = context.manifest.discovery.filter(\.isNote).map(\.text)
        var message = context.declaresHealthKit ? "the app declares HealthKit" : "no code of the app could be found"
        if let declared { message += " (\(declared.place))" }
        if context.declaresHealthKit { message += " but no HealthKit call is in the code the audit read (\(facts.codeRead))" }
        if !unread.isEmpty {
            message += "; not read: " + unread.prefix(3).map { Clipped.text($0, limit: 160) }.joined(separator: "; ")
                + (unread.count > 3 ? " and \(unread.count - 3) more" : "")
        } else {
            message += "; its calls are in code the audit could not read or follow"
        }
        message += " — the audit is incomplete"
        let location = declared?.location ?? context.manifest.config.project?.location ?? context.manifest.config.location
        return [finding(message, at: location, quote: declared?.quote ?? (context.declaresHealthKit ? "HealthKit declared" : "no code read"), target: context.manifest.id)]
    }
}
