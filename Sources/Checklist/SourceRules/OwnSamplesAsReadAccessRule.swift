import Manifest
import SwiftSyntax

/// HealthKit returns an app's own samples even when reading is denied: "only our own samples came
/// back" cannot be told apart from a denied read, so it must not count as proof the read worked.
struct OwnSamplesAsReadAccessRule: Rule {
    static let description = RuleDescription(
        id: "own-samples-as-read-access", title: "The app's own samples taken as proof of read access", severity: .note,
        questions: [.readStatusProbed], reads: [.swift],
        rationale: """
        When reading a type is denied, HealthKit does not fail the query: it returns only the samples the app saved \
        itself. Code that splits a result by source and treats "our own samples came back, nothing else" as a read \
        that worked (and "nothing at all" as the only case where permissions may be the cause) therefore tells a \
        person who denied reading that there is simply nothing new. Whether other apps' data is readable cannot be \
        learned from the result: word the empty case so that it covers both "no data" and "no access".
        """,
        triggering: [
            .healthApp(["Sources/HeadacheImport.swift": """
            import HealthKit

            struct HeadacheImport {
                let external: [HKCategorySample]
                let ownSourceCount: Int

                /// Only when nothing came back may permissions be the reason.
                var returnedNothingAtAll: Bool { ↓external.isEmpty && ownSourceCount == 0 }
            }

            func importHeadaches(from store: HKHealthStore) async throws -> HeadacheImport {
                guard HKHealthStore.isHealthDataAvailable() else { return HeadacheImport(external: [], ownSourceCount: 0) }
                let descriptor = HKSampleQueryDescriptor(predicates: [.categorySample(type: HKCategoryType(.headache))], sortDescriptors: [])
                let samples = try await descriptor.result(for: store)
                guard let bundleID = Bundle.main.bundleIdentifier else { return HeadacheImport(external: [], ownSourceCount: 0) }
                let ownSource = samples.filter { $0.sourceRevision.source.bundleIdentifier == bundleID }
                let external = samples.filter { $0.sourceRevision.source.bundleIdentifier != bundleID }
                return HeadacheImport(external: external, ownSourceCount: ownSource.count)
            }
            """]),
            .healthApp(["Sources/Sync.swift": """
            import HealthKit

            func syncStatus(_ samples: [HKSample]) -> String {
                let mine = samples.filter { $0.sourceRevision.source == HKSource.default() }
                let others = samples.filter { $0.sourceRevision.source != HKSource.default() }
                if ↓!mine.isEmpty && others.isEmpty {
                    return "Health access works; no new entries from other apps"
                }
                return others.isEmpty ? "No data, or Health access is off" : "\\(others.count) new entries"
            }
            """]),
        ],
        nonTriggering: [
            // The empty case is worded for both causes; the app's own samples are only left out.
            .healthApp(["Sources/HeadacheImport.swift": """
            import HealthKit

            func importMessage(_ samples: [HKCategorySample]) -> String {
                let ownID = Bundle.main.bundleIdentifier
                let external = samples.filter { $0.sourceRevision.source.bundleIdentifier != ownID }
                return external.isEmpty ? "Nothing to import (no entries, or Health access is off)" : "\\(external.count) to import"
            }
            """]),
            // Another app's samples (not the app's own), and a sync that saves when it has none of its own.
            .healthApp(["Sources/Sync.swift": """
            import HealthKit

            func shouldCopy(_ samples: [HKQuantitySample]) -> Bool {
                let manual = samples.filter { $0.sourceRevision.source.bundleIdentifier == "com.apple.Health" }
                let watch = samples.filter { $0.sourceRevision.productType?.hasPrefix("Watch") == true }
                let mine = samples.filter { $0.sourceRevision.source == HKSource.default() }
                return (manual.isEmpty && watch.isEmpty) || (mine.isEmpty && !samples.isEmpty)
            }
            """]),
            // Own samples counted for the app's own bookkeeping, not as a sign of access.
            .healthApp(["Sources/Baseline.swift": """
            import HealthKit

            func needsBaseline(_ samples: [HKQuantitySample]) -> Bool {
                let mine = samples.filter { $0.sourceRevision.source == HKSource.default() }
                return mine.isEmpty
            }
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        context.sources.compactMap { source -> Finding? in
            guard ByteSearch.contains(source.file.text, "sourceRevision") else { return nil }
            let own = Self.ownSampleNames(in: source)
            guard !own.isEmpty else { return nil }
            for sequence in source.tree.collect(SequenceExprSyntax.self) {
                guard let operands = ExprShape.conjuncts(ExprSyntax(sequence)), operands.count >= 2 else { continue }
                let tested = operands.compactMap(Self.emptinessTested)
                // Other sources' data came back empty, and the app's own samples decide what that means.
                guard let ownTest = tested.first(where: { own.contains($0.name) })?.name,
                      tested.contains(where: { !own.contains($0.name) && $0.empty }) else { continue }
                return finding("`\(sequence.trimmedText)` counts the app's own samples (`\(ownTest)`) as a sign the read worked, but HealthKit "
                               + "returns an app's own samples even when reading is denied: with reading denied this reads as \"nothing new\" "
                               + "instead of a possible denial; word the empty case for both", at: sequence, in: source)
            }
            return nil
        }
    }

    /// Names holding the app's own samples (`let ownSource = samples.filter { …bundleIdentifier == id }`)
    /// or their count (`ownSourceCount: ownSource.count`, `let ownCount = ownSource.count`).
    private static func ownSampleNames(in source: ParsedSource) -> Set<String> {
        var names: Set<String> = []
        for binding in source.tree.collect(PatternBindingSyntax.self) {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let call = binding.initializer?.value.as(FunctionCallExprSyntax.self), ExprShape.calledName(call) == "filter",
                  let closure = ClosureShape.completion(of: call), isOwnSourceTest(closure) else { continue }
            names.insert(name)
        }
        guard !names.isEmpty else { return names }
        // Counts carried on: arguments labelled after them and bindings initialised from them.
        for argument in source.tree.collect(LabeledExprSyntax.self) {
            if let label = argument.label?.text, argument.expression.mentions(anyOf: names) { names.insert(label) }
        }
        for binding in source.tree.collect(PatternBindingSyntax.self) {
            if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, binding.initializer?.value.trimmedText.hasSuffix(".count") == true,
               binding.initializer?.value.mentions(anyOf: names) == true {
                names.insert(name)
            }
        }
        return names
    }

    /// `{ $0.sourceRevision.source == HKSource.default() }`, or `{ $0.sourceRevision.source.bundleIdentifier == id }`
    /// with `id` the app's own (`Bundle.main.bundleIdentifier`, or a name bound to it in the function).
    private static func isOwnSourceTest(_ closure: ClosureExprSyntax) -> Bool {
        let text = closure.statements.trimmedText
        guard text.contains("sourceRevision") else { return false }
        let operators = closure.statements.collect(BinaryOperatorExprSyntax.self).map(\.operator.text)
        guard operators.contains("==") && !operators.contains("!=") else { return false }
        let own = ["HKSource.default()", "Bundle.main.bundleIdentifier"]
        if own.contains(where: { text.contains($0) }) { return true }
        guard text.contains("bundleIdentifier") else { return false }
        // A name bound to the app's bundle id in the enclosing function (`guard let ownID = Bundle.main.bundleIdentifier`).
        let function = SyntaxScope.function(of: closure)
        let bound = function.collect(PatternBindingSyntax.self).filter { $0.initializer?.value.trimmedText == own[1] }.compactMap { $0.pattern.trimmedText }
            + function.collect(OptionalBindingConditionSyntax.self).filter { $0.initializer?.value.trimmedText == own[1] }.map { $0.pattern.trimmedText }
        return closure.statements.identifierNames.contains { bound.contains($0) }
    }

    /// The name an emptiness test is about, and whether it holds when the name is empty:
    /// `x.isEmpty`, `x.count == 0`, `x == 0` (empty); `!x.isEmpty`, `x > 0`, `x != 0` (not).
    private static func emptinessTested(_ operand: Operand) -> (name: String, empty: Bool)? {
        if let (left, op, right) = operand.binary, ["==", ">", "!="].contains(op), right.trimmedText == "0" {
            let counted = left.as(MemberAccessExprSyntax.self).flatMap { $0.declName.baseName.text == "count" ? $0.base : nil } ?? left
            return ExprShape.referencedName(counted).map { ($0, op == "==") }
        }
        guard var expr = operand.single.map(ExprShape.stripped) else { return nil }
        var negated = false
        if let not = expr.as(PrefixOperatorExprSyntax.self), not.operator.text == "!" { expr = not.expression; negated = true }
        guard let member = expr.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "isEmpty", let base = member.base else { return nil }
        return ExprShape.referencedName(base).map { ($0, !negated) }
    }
}
