import Manifest
import SwiftSyntax

/// The config's `requested:` lists and the sets the code passes to `requestAuthorization` should agree.
struct RequestedTypesDifferRule: Rule {
    static let description = RuleDescription(
        id: "requested-types-differ", title: "Config and code request different types", severity: .note,
        questions: [], reads: [.swift],
        rationale: """
        `requested:` in healthaudit.yml says which types the app asks for; the audit checks usage strings and \
        simulates the store from it. When the sets passed to `requestAuthorization(toShare:read:)` name other types, \
        one of the two is out of date. Compared only when every set in the code could be resolved and the config \
        lists types.
        """,
        triggering: [
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()
                static let readTypes: Set<HKObjectType> = [HKQuantityType(.stepCount), HKQuantityType(.heartRate), HKCategoryType(.sleepAnalysis)]

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: Self.readTypes)
                }
            }
            """]),
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                }
            }
            """]),
        ],
        nonTriggering: [
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()
                private let share: Set<HKSampleType> = [HKWorkoutType.workoutType()]
                private var read: Set<HKQuantityType> { [HKObjectType.quantityType(forIdentifier: .stepCount)!, .init(.heartRate)] }

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: share, read: read)
                }
            }
            """]),
            // A set the resolver cannot follow: nothing is compared, the report notes it instead.
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()

                func ask(for types: Set<HKObjectType>) async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: types)
                }
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let config = context.manifest.config.requested
        guard !config.read.isEmpty || !config.share.isEmpty else { return [] }
        let requests = context.resolvedRequests
        guard !requests.isEmpty, requests.allSatisfy(\.isResolved) else { return [] }
        let app = context.manifest.id
        return compare("read", code: requests.map { ($0.source, $0.read) }, config: config.read, app: app)
            + compare("share", code: requests.map { ($0.source, $0.share) }, config: config.share, app: app)
    }

    private func compare(_ kind: String, code: [(ParsedSource, TypeSet)], config: [Located<String>], app: String) -> [Finding] {
        var findings: [Finding] = []
        let declared = Set(config.map(\.value))
        var requested: Set<String> = []
        for (_, set) in code {
            for (name, node, source) in set.names where requested.insert(name).inserted && !declared.contains(name) {
                findings.append(finding("`\(name)` is requested for \(kind == "read" ? "reading" : "sharing") in code but not listed under "
                                        + "`requested.\(kind)` in healthaudit.yml", at: node, in: source))
            }
        }
        for entry in config where !requested.contains(entry.value) {
            findings.append(finding("`\(entry.value)` is listed under `requested.\(kind)` in healthaudit.yml but no requestAuthorization "
                                    + "call in the code asks for it", at: entry.location, quote: "\(kind): \(entry.value)", target: app))
        }
        return findings
    }
}
