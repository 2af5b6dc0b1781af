import Manifest
import SwiftSyntax

/// "HealthKit says 0 steps but the pedometer counts some, so HealthKit must be missing read access":
/// the checklist's own example of probing read permission with query results.
struct ReadProbedWithMotionRule: Rule {
    static let description = RuleDescription(
        id: "read-probed-with-motion", title: "An empty HealthKit read checked against the pedometer", severity: .warning,
        questions: [.readStatusProbed], reads: [.swift],
        rationale: """
        HealthKit never tells an app whether it may read: a denied read returns no samples, like a day without \
        data. Comparing an empty or zero HealthKit read with another source of the same data — Core Motion's \
        pedometer (`CMPedometer`), a motion service — to conclude that HealthKit "is missing read access" probes read \
        permission through queries (question 3). The guess is also wrong in both directions: 0 steps beside a \
        counting pedometer is what samples not yet synced from the watch, or a source switched off in Health, look \
        like too. Use the pedometer as a source in its own right if the app needs it, and word the empty HealthKit \
        case as "no data from Health yet" rather than as a permission problem. Reported where the HealthKit value is \
        tested for being empty, when the same `if` (its condition or its body) tests a motion or pedometer count for \
        being non-zero.
        """,
        triggering: [
            .healthApp(["Sources/StepTracker.swift": """
            import CoreMotion
            import HealthKit

            final class StepTracker {
                let health = HealthService()
                let pedometer = CMPedometer()
                var usingMotionFallback = false
                var todaySteps = 0

                func refresh(from start: Date) async throws {
                    let healthSteps = try await health.fetchSteps(from: start, to: .now)
                    // If HealthKit says 0 but the pedometer counts steps, HealthKit likely lacks read access.
                    if ↓healthSteps == 0 {
                        let data = try await pedometerSteps(from: start)
                        if data.numberOfSteps.intValue > 0 {
                            usingMotionFallback = true
                            todaySteps = data.numberOfSteps.intValue
                            return
                        }
                    }
                    todaySteps = healthSteps
                }
            }
            """]),
            .healthApp(["Sources/StepsAccess.swift": """
            import HealthKit

            final class StepsAccess {
                let store = HKHealthStore()

                func readAccessLooksMissing(motionSteps: Int, since start: Date) async throws -> Bool {
                    let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], sortDescriptors: [])
                    let samples = try await descriptor.result(for: store)
                    if ↓samples.isEmpty && motionSteps > 0 { return true }
                    return false
                }
            }
            """]),
        ],
        nonTriggering: [
            // An empty read is shown as "no data", and the pedometer is not consulted.
            .healthApp(["Sources/StepTracker.swift": """
            import HealthKit

            final class StepTracker {
                let health = HealthService()
                var label = ""

                func refresh(from start: Date) async throws {
                    let healthSteps = try await health.fetchSteps(from: start, to: .now)
                    if healthSteps == 0 {
                        label = "No steps from Health yet"
                        return
                    }
                    label = "\\(healthSteps) steps"
                }
            }
            """]),
            // The pedometer used where HealthKit is not available at all, and a zero pedometer count
            // compared with Health's: neither probes HealthKit's read access.
            .healthApp(["Sources/StepSource.swift": """
            import CoreMotion
            import HealthKit

            final class StepSource {
                let health = HealthService()
                var motionSteps = 0

                func steps(from start: Date) async throws -> Int {
                    guard HKHealthStore.isHealthDataAvailable() else {
                        let data = try await pedometerSteps(from: start)
                        return data.numberOfSteps.intValue > 0 ? data.numberOfSteps.intValue : 0
                    }
                    let healthSteps = try await health.fetchSteps(from: start, to: .now)
                    if motionSteps == 0 && healthSteps > 0 { return healthSteps }
                    return max(healthSteps, motionSteps)
                }
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        context.sources.flatMap { source -> [Finding] in
            let lower = source.file.text.lowercased()
            guard lower.contains("motion") || lower.contains("pedometer") else { return [] }
            var findings: [Finding] = []
            for ifExpr in source.tree.collect(IfExprSyntax.self) {
                for condition in ifExpr.conditions {
                    guard case .expression(let expr) = condition.condition, let operands = ExprShape.conjuncts(expr) else { continue }
                    for operand in operands {
                        guard let tested = Self.emptinessTest(operand), Self.isHealthRead(tested.name, before: ifExpr),
                              let motion = Self.motionCount(in: ifExpr) else { continue }
                        findings.append(finding("`\(tested.text)` is checked against another step source (`\(motion)`) to decide what HealthKit's empty "
                                                + "result means: this probes read access with query results — HealthKit hides read denial, and 0 beside a "
                                                + "counting pedometer is also samples not yet synced or a source switched off; say \"no data from Health yet\" "
                                                + "instead of treating it as missing access", at: tested.node, in: source))
                    }
                }
            }
            return findings
        }
    }

    private static func mentionsMotion(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.contains("motion") || lower.contains("pedometer")
    }

    /// `x == 0`, `x <= 0`, `x.count == 0`, `x.isEmpty`: where the test starts, its text, and the name tested.
    private static func emptinessTest(_ operand: Operand) -> (node: ExprSyntax, text: String, name: String)? {
        if let (left, op, right) = operand.binary, ["==", "<="].contains(op), right.trimmedText == "0" {
            let counted = left.as(MemberAccessExprSyntax.self).flatMap { $0.declName.baseName.text == "count" ? $0.base : nil } ?? left
            guard let name = ExprShape.referencedName(counted) else { return nil }
            return (left, "\(left.trimmedText) \(op) 0", name)
        }
        guard let single = operand.single, let member = ExprShape.stripped(single).as(MemberAccessExprSyntax.self),
              member.declName.baseName.text == "isEmpty", let base = member.base, let name = ExprShape.referencedName(base) else { return nil }
        return (single, single.trimmedText, name)
    }

    /// `name` is bound, earlier in the function, to the result of a HealthKit read (`fetchSteps`,
    /// `descriptor.result(for:)`) that is not itself the motion or pedometer source.
    private static func isHealthRead(_ name: String, before node: IfExprSyntax) -> Bool {
        let function = SyntaxScope.function(of: node)
        return function.collect(PatternBindingSyntax.self).contains { binding in
            guard binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name, binding.endPosition <= node.position,
                  let value = binding.initializer?.value, !mentionsMotion(value.trimmedText) else { return false }
            return value.collect(FunctionCallExprSyntax.self).contains(where: HealthKitVocabulary.isRead)
                || value.as(FunctionCallExprSyntax.self).map(HealthKitVocabulary.isRead) == true
        }
    }

    /// A motion or pedometer count tested for being non-zero in the `if` (`motion.steps > 0`,
    /// `data.numberOfSteps.intValue > 0` with `data` from `pedometerSteps(…)`): its text.
    private static func motionCount(in ifExpr: IfExprSyntax) -> String? {
        let function = SyntaxScope.function(of: ifExpr)
        for sequence in ifExpr.collect(SequenceExprSyntax.self) {
            let items = Array(sequence.elements)
            for index in items.indices.dropFirst().dropLast() {
                guard let op = items[index].as(BinaryOperatorExprSyntax.self)?.operator.text, [">", "!="].contains(op),
                      items[index + 1].trimmedText == "0" else { continue }
                let left = items[index - 1]
                if mentionsMotion(left.trimmedText) { return left.trimmedText + " " + op + " 0" }
                // The root name's binding in the function comes from the pedometer or a motion source.
                let root = String(left.trimmedText.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                guard !root.isEmpty else { continue }
                let fromMotion = function.collect(PatternBindingSyntax.self).contains { binding in
                    binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == root
                        && binding.initializer.map { mentionsMotion($0.value.trimmedText) } == true
                }
                if fromMotion { return left.trimmedText + " " + op + " 0" }
            }
        }
        return nil
    }
}
