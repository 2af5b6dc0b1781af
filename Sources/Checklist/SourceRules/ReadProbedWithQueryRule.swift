import Manifest
import SwiftSyntax

/// A query's authorization error read as "may we read this type": HealthKit answers a denied read with
/// no samples and no error, so the probe cannot see a denial (question 3's "probing with queries or errors").
struct ReadProbedWithQueryRule: Rule {
    static let description = RuleDescription(
        id: "read-probed-with-query", title: "A query's authorization error taken as read access", severity: .warning,
        questions: [.readStatusProbed], reads: [.swift],
        rationale: """
        HealthKit never discloses whether an app may read a type: a read the person denied returns no samples and \
        **no error**, like a type with no data. A query's `errorAuthorizationNotDetermined` (5) only says the type was \
        never asked for, and `errorAuthorizationDenied` (4) a missing entitlement. Code that turns those codes into a \
        yes-or-no answer about reading (`resume(returning: false)`, `canRead = false`) probes read permission \
        (question 3): it calls a denied read readable and shows an empty screen as if nothing happened. Ask for the \
        types once, then query and treat an empty result as "no data or no access". Reported where a query's result \
        handler (or the `catch` of an awaited query) branches on those codes into `true` or `false`.
        """,
        triggering: [
            .healthApp(["Sources/Probe.swift": """
            import HealthKit

            final class AccessProbe {
                let store = HKHealthStore()

                func canRead(_ type: HKQuantityType) async -> Bool {
                    await withCheckedContinuation { continuation in
                        let query = HKSampleQuery(sampleType: type, predicate: nil, limit: 1, sortDescriptors: nil) { _, _, error in
                            if let error = error as NSError?, error.domain == HKErrorDomain {
                                switch error.code {
                                case ↓HKError.errorAuthorizationDenied.rawValue, HKError.errorAuthorizationNotDetermined.rawValue:
                                    continuation.resume(returning: false)
                                    return
                                default:
                                    break
                                }
                            }
                            continuation.resume(returning: true)
                        }
                        store.execute(query)
                    }
                }
            }
            """]),
            .healthApp(["Sources/StepsAccess.swift": """
            import HealthKit

            struct StepsAccess {
                let store: HKHealthStore

                func hasReadAccess() async -> Bool {
                    let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], sortDescriptors: [], limit: 1)
                    do {
                        _ = try await descriptor.result(for: store)
                        return true
                    } catch let error as HKError where error.code == ↓.errorAuthorizationNotDetermined {
                        return false
                    } catch {
                        return true
                    }
                }
            }
            """]),
        ],
        nonTriggering: [
            .healthApp(),
            // A save's error: write access is what its code is about.
            .healthApp(["Sources/Saver.swift": """
            import HealthKit

            final class Saver {
                let store = HKHealthStore()

                func save(_ sample: HKQuantitySample) async -> Bool {
                    guard HKHealthStore.isHealthDataAvailable(), store.authorizationStatus(for: sample.quantityType) == .sharingAuthorized else { return false }
                    do {
                        try await store.save(sample)
                        return true
                    } catch let error as HKError where error.code == .errorAuthorizationDenied {
                        return false
                    } catch {
                        return false
                    }
                }
            }
            """], read: [], share: ["stepCount"]),
            // A query's error logged, and nothing decided from it.
            .healthApp(["Sources/Steps.swift": """
            import HealthKit
            import os

            final class Steps {
                let store = HKHealthStore()
                let log = Logger()

                func load(_ done: @escaping ([HKSample]) -> Void) {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    let query = HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 10, sortDescriptors: nil) { _, samples, error in
                        if let error = error as? HKError, error.code == .errorAuthorizationNotDetermined {
                            self.log.error("steps were never requested")
                        }
                        done(samples ?? [])
                    }
                    store.execute(query)
                }
            }
            """], read: ["stepCount"], share: []),
        ]
    )

    static let authorizationCodes: Set<String> = ["errorAuthorizationDenied", "errorAuthorizationNotDetermined"]

    func check(_ context: AuditContext) -> [Finding] {
        context.sources.flatMap { source -> [Finding] in
            guard ByteSearch.contains(source.file.text, "errorAuthorization") else { return [] }
            var reported: Set<SyntaxIdentifier> = []
            return source.tree.collect(DeclReferenceExprSyntax.self).compactMap { reference -> Finding? in
                guard Self.authorizationCodes.contains(reference.baseName.text),
                      let handler = Self.queryHandler(around: reference), reported.insert(handler.id).inserted,
                      Self.decidesABool(around: reference, within: handler) else { return nil }
                // At the code as written: `HKError.errorAuthorizationDenied`, `.errorAuthorizationNotDetermined`.
                let place = reference.parent?.as(MemberAccessExprSyntax.self).map(Syntax.init) ?? Syntax(reference)
                return finding("a query's `\(reference.baseName.text)` is turned into an answer about reading, but HealthKit answers a denied read "
                               + "with no samples and no error: this only sees a type never asked for or a missing entitlement; query and treat an "
                               + "empty result as no data or no access", at: place, in: source)
            }
        }
    }

    /// The closure handed to a HealthKit query (`HKSampleQuery(…) { _, samples, error in … }`), or the
    /// `catch` of a `do` that awaits a query and writes nothing.
    static func queryHandler(around node: DeclReferenceExprSyntax) -> Syntax? {
        for ancestor in node.ancestors {
            if let closure = ancestor.as(ClosureExprSyntax.self) {
                guard let call = closure.parent?.as(FunctionCallExprSyntax.self) ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self),
                      let name = ExprShape.calledName(call) else { return nil }
                return name.hasPrefix("HK") && name.hasSuffix("Query") ? ancestor : nil
            }
            if let clause = ancestor.as(CatchClauseSyntax.self), let attempt = clause.parent?.parent?.as(DoStmtSyntax.self) {
                let calls = attempt.body.calls
                return calls.contains(where: HealthKitVocabulary.isRead) && !calls.contains(where: HealthKitVocabulary.isWrite) ? ancestor : nil
            }
        }
        return nil
    }

    /// Whether the branch the code sits in (its `case`, `if`, or `catch`) hands back or sets `true` or `false`.
    static func decidesABool(around node: DeclReferenceExprSyntax, within handler: Syntax) -> Bool {
        var branch: Syntax?
        for ancestor in node.ancestors {
            if ancestor.id == handler.id { branch = branch ?? ancestor; break }
            if ancestor.is(SwitchCaseSyntax.self) || ancestor.is(IfExprSyntax.self) || ancestor.is(GuardStmtSyntax.self) { branch = ancestor; break }
        }
        guard let branch else { return false }
        return branch.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.true) || $0.tokenKind == .keyword(.false) }
    }
}
