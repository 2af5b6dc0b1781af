import Manifest
import SwiftSyntax

/// Types `requestAuthorization(toShare:read:)` refuses, from the one type catalogue: sharing a type
/// apps may only read, asking for a correlation, or reading a type HealthKit grants per object.
/// The first two raise an uncaught NSInvalidArgumentException the moment the request runs.
struct RequestRefusedTypeRule: Rule {
    static let description = RuleDescription(
        id: "request-refused-type", title: "Authorization requested for a type HealthKit refuses", severity: .error,
        questions: [], reads: [.swift, .javaScript, .dart], predicts: .crash,
        rationale: """
        `requestAuthorization(toShare:read:)` checks its sets before showing anything, and a type it refuses \
        ends the app with an uncaught `NSInvalidArgumentException`:

        - sharing a type apps may only read — characteristics (`dateOfBirth`), clinical records, and samples only \
        Apple Watch or Health make (`appleExerciseTime`, `appleStandHour`, `walkingHeartRateAverage`, \
        `electrocardiogram`, heart-rhythm events): *Authorization to share the following types is disallowed*;
        - asking for a correlation (`bloodPressure`, `food`) to share or to read: ask for the types it holds \
        (`bloodPressureSystolic` and `bloodPressureDiastolic`) instead.

        Vision prescriptions and medications are read object by object: their read access is asked with \
        `requestPerObjectReadAuthorization(for:predicate:)`, and `requestAuthorization` refuses them. The same \
        types listed under `requested:` in healthaudit.yml are reported there when no code asks for them.
        """,
        triggering: [
            // A wrapper that passes HealthKit's identifiers through: the correlation crashes the same way.
            .reactNative(["js/src/health.ts": """
            import { requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function connect() {
              await requestAuthorization({
                toRead: ['HKQuantityTypeIdentifierStepCount'],
                toShare: [↓'HKCorrelationTypeIdentifierBloodPressure'],
              });
            }
            """]),
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let share: Set = [HKWorkoutType.workoutType(), ↓HKCorrelationType(.bloodPressure)]
                    try await store.requestAuthorization(toShare: share, read: [HKQuantityType(.stepCount)])
                }
            }
            """], share: ["workout", "bloodPressure"]),
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [↓HKQuantityType(.appleExerciseTime), ↓HKCharacteristicType(.dateOfBirth)],
                                                         read: [HKQuantityType(.stepCount)])
                }
            }
            """], share: ["appleExerciseTime", "dateOfBirth"]),
            .healthApp(["Sources/Glasses.swift": """
            import HealthKit

            final class Glasses {
                let store = HKHealthStore()

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [], read: [↓HKObjectType.visionPrescriptionType(), HKQuantityType(.stepCount)])
                }
            }
            """], read: ["visionPrescription", "stepCount"], share: []),
        ],
        nonTriggering: [
            // Capacitor's plugin asks for blood pressure as its two values.
            .reactNative(["js/src/health.ts": """
            import { Health } from '@capgo/capacitor-health';

            export async function connect() {
              const availability = await Health.isAvailable();
              if (!availability.available) return;
              await Health.requestAuthorization({ read: ['bloodPressure', 'steps'], write: ['bloodPressure'] });
            }
            """]),
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let pressure: Set = [HKQuantityType(.bloodPressureSystolic), HKQuantityType(.bloodPressureDiastolic)]
                    try await store.requestAuthorization(toShare: pressure, read: pressure.union([HKCharacteristicType(.dateOfBirth), HKQuantityType(.appleExerciseTime)]))
                }
            }
            """], read: ["bloodPressureSystolic", "bloodPressureDiastolic", "dateOfBirth", "appleExerciseTime"],
                share: ["bloodPressureSystolic", "bloodPressureDiastolic"]),
            // Prescriptions shared through requestAuthorization, read per object: both as HealthKit wants.
            .healthApp(["Sources/Glasses.swift": """
            import HealthKit

            final class Glasses {
                let store = HKHealthStore()

                func ask() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [HKObjectType.visionPrescriptionType()], read: [])
                    try await store.requestPerObjectReadAuthorization(for: .visionPrescriptionType(), predicate: nil)
                }
            }
            """], read: ["visionPrescription"], share: ["visionPrescription"]),
            // A per-object request whose type is a parameter: the config's per-object entry may be what it asks.
            .healthApp(["Sources/Glasses.swift": """
            import HealthKit

            final class Glasses {
                let store = HKHealthStore()

                func ask(_ type: HKObjectType) async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestPerObjectReadAuthorization(for: type, predicate: nil)
                }
            }
            """], read: ["visionPrescription"], share: []),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        var reported: Set<String> = []
        for request in context.resolvedRequests {
            for (name, node, source) in request.share.names {
                guard let problem = Self.problem(sharing: name) else { continue }
                reported.insert("share " + name)
                findings.append(finding(problem, at: node, in: source))
            }
            // Per-object types are asked exactly this way (and then the config may list them under
            // `requested.read`); a correlation is refused here too.
            for (name, node, source) in request.read.names {
                let problem = request.form == .perObject ? Self.correlationProblem(name) : Self.problem(reading: name)
                if problem != nil || request.form == .perObject { reported.insert("read " + name) }
                if let problem { findings.append(finding(problem, at: node, in: source)) }
            }
        }
        // The JavaScript and Dart libraries pass the types they are given to HealthKit as they are.
        // (Flutter's write of a read-only type is flutter-write-read-only's, in the plugin's words.)
        var cited: Set<String> = []
        for request in context.wrapperRequests {
            let name = request.type.name
            // One list passed by two calls is one mistake, at one place.
            guard cited.insert("\(request.evidence.location.file):\(request.evidence.location.line ?? 0) \(request.direction) \(name)").inserted else { continue }
            let problem = request.direction == .share ? Self.problem(sharing: name) : Self.problem(reading: name)
            guard let problem, !(request.library == .flutterHealth && request.type.kind != .correlation) else { continue }
            reported.insert("\(request.direction.rawValue) \(name)")
            findings.append(finding(problem + " (asked through \(request.library.rawValue) as `\(request.written)`)", at: request.evidence.location,
                                    quote: request.evidence.quote, target: context.manifest.id))
        }
        // What the config says the app asks for, when no resolved code asked for it already. A
        // per-object request whose type could not be followed may well be the one asking.
        let asksPerObject = context.resolvedRequests.contains { $0.form == .perObject }
        let requested = context.manifest.config.requested
        for (direction, entries) in [("share", requested.share), ("read", requested.read)] {
            for entry in entries where !reported.contains(direction + " " + entry.value) {
                if direction == "read", asksPerObject, HealthKitType.named(entry.value)?.isPerObjectRead == true { continue }
                let problem = direction == "share" ? Self.problem(sharing: entry.value) : Self.problem(reading: entry.value)
                guard let problem else { continue }
                findings.append(finding(problem + " (listed under `requested.\(direction)` in healthaudit.yml)", at: entry.location,
                                        quote: "\(direction): \(entry.value)", target: context.manifest.id))
            }
        }
        return findings
    }

    static func problem(sharing name: String) -> String? {
        guard let type = HealthKitType.named(name) else { return nil }
        if type.kind == .correlation { return correlation(type) }
        guard !type.isShareable else { return nil }
        return "`\(name)` can only be read: asking to share it raises NSInvalidArgumentException "
            + "(\"Authorization to share the following types is disallowed: \(type.identifier)\") and the app terminates"
    }

    static func problem(reading name: String) -> String? {
        guard let type = HealthKitType.named(name) else { return nil }
        if type.kind == .correlation { return correlation(type) }
        guard type.isPerObjectRead else { return nil }
        return "`\(name)` is read object by object: ask with `requestPerObjectReadAuthorization(for:predicate:)`; "
            + "`requestAuthorization(toShare:read:)` refuses to read it"
    }

    static func correlationProblem(_ name: String) -> String? {
        HealthKitType.named(name).flatMap { $0.kind == .correlation ? correlation($0) : nil }
    }

    private static func correlation(_ type: HealthKitType) -> String {
        "`\(type.name)` is a correlation, which HealthKit never authorizes: the request raises NSInvalidArgumentException "
            + "and the app terminates; ask for \(type.components.map { "`\($0)`" }.joined(separator: " and ")) instead"
    }
}
