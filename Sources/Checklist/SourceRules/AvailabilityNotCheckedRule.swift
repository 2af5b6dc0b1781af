import Foundation
import Manifest
import SwiftSyntax

/// An app that uses the store without ever asking `isHealthDataAvailable()` breaks on iPads without HealthKit.
struct AvailabilityNotCheckedRule: Rule {
    static let description = RuleDescription(
        id: "availability-not-checked", title: "Health data availability never checked", severity: .warning,
        questions: [.availabilityChecked], reads: [.swift, .javaScript, .dart],
        rationale: """
        HealthKit is missing on iPads before iPadOS 17 and can be restricted by device management: there every \
        HealthKit call fails with `errorHealthDataUnavailable`. An app should consult \
        `HKHealthStore.isHealthDataAvailable()` before asking for access or querying, and show a fitting state \
        instead. This rule looks at each target that uses HealthKit — the app, and each widget or extension, which \
        runs without the app's check — and reports one finding per target, at its first HealthKit call, when none of \
        that target's files consults it. In a watch app the finding is a note: Health is present on every Apple Watch. In a target that does check somewhere, a type that creates its own \
        `HKHealthStore()` and calls HealthKit without consulting it is an unguarded entry point (a service a view \
        calls directly), reported at its first call.
        """,
        triggering: [
            // Requiring the `healthkit` capability does not keep a Mac Catalyst build off Macs without Health.
            .healthApp(["Sources/Sleep.swift": """
            import HealthKit

            final class Sleep {
                let store = HKHealthStore()

                func ask() async throws {
                    try await ↓store.requestAuthorization(toShare: [], read: [HKCategoryType(.sleepAnalysis)])
                }
            }
            """], info: ["CFBundleName": "Sleep", "NSHealthShareUsageDescription": RuleExample.goodShare,
                           "NSHealthUpdateUsageDescription": RuleExample.goodUpdate, "UIRequiredDeviceCapabilities": ["arm64", "healthkit"]],
                       read: ["sleepAnalysis"], share: [], buildSettings: ["SUPPORTS_MACCATALYST": "YES"]),
            // The app checks in its manager, but a second service with a store of its own does not.
            .healthApp(["Sources/Manager.swift": """
            import HealthKit

            final class HealthManager {
                let store = HKHealthStore()

                func connect() async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { return }
                    try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                }
            }
            """, "Sources/Insights.swift": """
            import HealthKit

            final class InsightsService {
                private let healthStore = HKHealthStore()

                func recentWorkouts() async throws -> [HKWorkout] {
                    let descriptor = ↓HKSampleQueryDescriptor(predicates: [.workout()], sortDescriptors: [], limit: 10)
                    return try await descriptor.result(for: healthStore)
                }
            }
            """]),
            .healthApp(["Sources/Access.swift": """
            import HealthKit

            final class Access {
                let store = HKHealthStore()

                func ask() {
                    store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]) { _, _ in }
                }
            }
            """]),
            .healthApp(["Sources/Steps.swift": """
            import HealthKit

            struct StepsReader {
                let store: HKHealthStore

                func todaysSteps() async throws -> Double {
                    let descriptor = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum)
                    return try await descriptor.result(for: store)?.sumQuantity()?.doubleValue(for: .count()) ?? 0
                }
            }
            """]),
            // The app checks; its widget queries on its own without checking.
            .healthApp([
                "Sources/Availability.swift": """
                import HealthKit

                enum Health {
                    static var isAvailable: Bool { HKHealthStore.isHealthDataAvailable() }
                }
                """,
                "Widget/Info.plist": RuleExample.plist(["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"] as KeyValuePairs<String, Any>]),
                "Widget/Sources/Provider.swift": """
                import HealthKit

                struct StepsProvider {
                    let store = HKHealthStore()

                    func steps() async throws -> Double {
                        let descriptor = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum)
                        return try await descriptor.result(for: store)?.sumQuantity()?.doubleValue(for: .count()) ?? 0
                    }
                }
                """,
            ]),
            // JavaScript: the check only decides what a label shows; the request runs regardless.
            .reactNative(["js/src/Health.ts": """
            import { isHealthDataAvailable, requestAuthorization } from '@kingstinct/react-native-healthkit';

            export const healthLabel = () => (isHealthDataAvailable() ? 'Health ✅' : 'Health ❌');

            export async function connect() {
              await ↓requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] });
            }
            """]),
            // react-native-health's callback: the result is only logged.
            .reactNative(["js/src/health.ts": """
            import AppleHealthKit from 'react-native-health';

            AppleHealthKit.isAvailable((err: any, available: boolean) => console.log('Health available', available));

            export function connect() {
              AppleHealthKit.↓initHealthKit({ permissions: { read: ['StepCount'], write: [] } }, (error) => console.log(error));
            }
            """]),
            // A plugin's app: the JavaScript never gates on availability, and the plugin's own Swift
            // (audited with `extra_sources`) checks in `requestAuthorization` but not in `readSamples`.
            pluginApp(nativeReadChecks: false, marker: "↓"),
        ],
        nonTriggering: [
            // The same app whose plugin guards each method it exposes.
            pluginApp(nativeReadChecks: true, marker: ""),
            // An app the App Store installs only where Health exists (`UIRequiredDeviceCapabilities: healthkit`,
            // Overload's and TapB4UNap's): no call can fail for want of Health (question 1 still says no, with why).
            .healthApp(["Sources/Sleep.swift": """
            import HealthKit

            final class Sleep {
                let store = HKHealthStore()

                func ask() async throws {
                    try await store.requestAuthorization(toShare: [], read: [HKCategoryType(.sleepAnalysis)])
                }
            }
            """], info: ["CFBundleName": "Sleep", "NSHealthShareUsageDescription": RuleExample.goodShare,
                           "NSHealthUpdateUsageDescription": RuleExample.goodUpdate, "UIRequiredDeviceCapabilities": ["arm64", "healthkit"]],
                       read: ["sleepAnalysis"], share: []),
            // The type owning its store checks in an extension in another file (Iron's watch session manager):
            // an extension is the type's own code.
            .healthApp(["Sources/App.swift": """
            import HealthKit

            final class Settings {
                func show() -> Bool { HKHealthStore.isHealthDataAvailable() }
            }
            """, "Sources/SessionManager.swift": """
            import HealthKit

            final class SessionManager {
                static let healthStore = HKHealthStore()

                func end(_ workout: HKWorkout) async throws {
                    try Self.requestPermissions()
                    guard Self.healthStore.authorizationStatus(for: .workoutType()) == .sharingAuthorized else { return }
                    try await Self.healthStore.save(workout)
                }
            }
            """, "Sources/SessionManager+Permissions.swift": """
            import HealthKit

            enum PermissionError: Error { case unavailable }

            extension SessionManager {
                static func requestPermissions() throws {
                    guard HKHealthStore.isHealthDataAvailable() else { throw PermissionError.unavailable }
                }
            }
            """], share: ["workout"]),
            // The callback's result resolves the app's own promise, whose value decides the request.
            .reactNative(["js/src/health.ts": """
            import AppleHealthKit from 'react-native-health';

            export async function isHealthKitAvailable(): Promise<boolean> {
              return await new Promise<boolean>((resolve) => {
                AppleHealthKit.isAvailable((err: any, available: boolean) => {
                  if (err) resolve(false);
                  else resolve(!!available);
                });
              });
            }

            export async function connect() {
              const available = await isHealthKitAvailable();
              if (!available) throw new Error('HealthKit not available on this device.');
              AppleHealthKit.initHealthKit({ permissions: { read: ['StepCount'], write: [] } }, (error) => console.log(error));
            }
            """]),
            .reactNative(["js/src/Health.ts": """
            import { isHealthDataAvailable, requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function connect() {
              if (!isHealthDataAvailable()) return false;
              await requestAuthorization({ toRead: ['HKQuantityTypeIdentifierStepCount'] });
              return true;
            }
            """]),
            .healthApp([
                "Sources/Availability.swift": """
                import HealthKit

                enum Health {
                    static var isAvailable: Bool { HKHealthStore.isHealthDataAvailable() }
                }
                """,
                "Sources/Access.swift": """
                import HealthKit

                final class Access {
                    let store = HKHealthStore()

                    func ask() async throws {
                        guard Health.isAvailable else { return }
                        try await store.requestAuthorization(toShare: [HKObjectType.workoutType()], read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
                    }
                }
                """,
            ]),
            .healthApp(["Sources/Settings.swift": """
            import Foundation

            // No HealthKit call at all: nothing to check.
            struct Settings {
                var units = "metric"
                func save(to defaults: UserDefaults) { defaults.set(units, forKey: "units") }
            }
            """]),
        ]
    )

    /// Per target: a widget or watch app that queries HealthKit needs its own check, whatever the app does.
    /// A Capacitor-style app: JavaScript calling `@capgo/capacitor-health` without an availability
    /// check, and the plugin's own Swift, whose `readSamples` checks only if `nativeReadChecks`.
    private static func pluginApp(nativeReadChecks: Bool, marker: String) -> RuleExample {
        .reactNative([
            "Sources/Health.swift": """
            import HealthKit

            final class Health {
                private let healthStore = HKHealthStore()

                func requestAuthorization(read: Set<HKObjectType>) async throws {
                    guard HKHealthStore.isHealthDataAvailable() else { throw HealthError.unavailable }
                    try await healthStore.requestAuthorization(toShare: [], read: read)
                }

                func readSamples(type: HKSampleType) async throws -> [HKSample] {
                    \(nativeReadChecks ? "guard HKHealthStore.isHealthDataAvailable() else { throw HealthError.unavailable }" : "")
                    let descriptor = HKSampleQueryDescriptor(predicates: [.sample(type: type)], sortDescriptors: [], limit: 50)
                    return try await descriptor.result(for: healthStore)
                }
            }

            enum HealthError: Error { case unavailable }
            """,
            "js/src/steps.ts": """
            import { Health } from '@capgo/capacitor-health';

            export async function steps() {
              await Health.requestAuthorization({ read: ['steps'], write: [] });
              return await Health.\(marker)readSamples({ dataType: 'steps', startDate: '2026-01-01', endDate: '2026-01-02' });
            }
            """,
        ])
    }

    func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        // A target the App Store installs only where Health exists (`UIRequiredDeviceCapabilities: healthkit`)
        // cannot meet a device without it: no call of it fails for want of Health. Question 1 still says no,
        // with why; a finding would warn of a failure that cannot happen.
        let installedOnlyWithHealth = Set(context.manifest.installedOnlyWithHealth.keys)
        for target in context.usage.targetsUsingHealthKit where !installedOnlyWithHealth.contains(target) {
            let sources = context.sources.filter { $0.target == target }
            // JavaScript: a check counts only where it decides something (see `JavaScriptHealthKitFacts`).
            if context.usage.facts.contains(where: { $0.target == target && $0.kind == .availabilityCheck && !$0.evidence.location.file.hasSuffix(".swift") }) {
                continue
            }
            if sources.contains(where: { $0.tree.mentions(HealthKitVocabulary.availabilityCheck) }) {
                if target == context.manifest.id, let unguarded = Self.unguardedPluginCall(context, sources) { findings.append(unguarded) }
                continue
            }
            let facts = context.usage.facts.filter { $0.target == target && $0.kind != .availabilityCheck }
            guard let first = facts.first(where: { $0.kind == .authorizationRequest }) ?? facts.first else { continue }
            // Every call goes through a framework whose own code checks availability (SpeziHealthKit): not the app's to show.
            if let library = first.library, library.decidesAvailabilityItself, facts.allSatisfy({ $0.library == library }) { continue }
            if context.manifest.targets.first(where: { $0.id == target })?.kind == .watchApp {
                // Health is on every Apple Watch: the check is the checklist's, not a failure waiting.
                findings.append(Finding(ruleID: Self.description.id, severity: .note,
                                        message: "watch app `\(target)` uses HealthKit but never consults `HKHealthStore.isHealthDataAvailable()` in its own code: "
                                            + "Health is present on every Apple Watch, so its calls do not fail for want of it, but the checklist asks each "
                                            + "target to check before its first HealthKit call",
                                        location: first.evidence.location, quote: first.evidence.quote, target: target))
                continue
            }
            let isExtension = first.isExtension
            let message = isExtension
                ? "extension target `\(target)` uses HealthKit but never consults `HKHealthStore.isHealthDataAvailable()` in its own code: "
                    + "an extension runs without the app's check, and on devices without Health every call fails"
                : Self.shownOnly(context).map { shown in
                    "HealthKit is used but its availability is never consulted to decide anything: the app calls `\(shown.name)` only to show "
                        + "or log the result (\(shown.place)); on devices without Health (iPad before iPadOS 17, managed devices) every call fails"
                } ?? "HealthKit is used but `HKHealthStore.isHealthDataAvailable()` is never consulted anywhere in the app: "
                    + "on devices without Health (iPad before iPadOS 17, managed devices) every call fails"
            findings.append(Finding(ruleID: Self.description.id, severity: Self.description.severity, message: message,
                                    location: first.evidence.location, quote: first.evidence.quote, target: target))
        }
        return findings + unguardedStoreOwners(context, skipping: Set(findings.map(\.target)).union(installedOnlyWithHealth))
    }

    /// A wrapper's availability call in the app's JavaScript that decides nothing (the facts keep only
    /// deciding ones): its name and place, so the message does not say the app never calls it.
    private static func shownOnly(_ context: AuditContext) -> (name: String, place: String)? {
        let names: Set<String> = ["isAvailable", "isHealthDataAvailable", "isHealthDataAvailableAsync"]
        let files = context.manifest.javaScriptSources
        guard !files.isEmpty else { return nil }
        // A member call (`AppleHealthKit.isAvailable(…)`), or a library function imported bare
        // (`import { isHealthDataAvailable } from '@kingstinct/react-native-healthkit'`).
        let bindings = JavaScriptBindings.resolve(files)
        for (file, bound) in zip(files, bindings) {
            let tokens = file.tokens
            for index in tokens.indices.dropLast() where tokens[index].kind == .identifier && tokens[index + 1].isPunctuator("(")
                && (index >= 1 && tokens[index - 1].isPunctuator(".") ? names.contains(tokens[index].text)
                    : bound.functions[tokens[index].text].map { names.contains($0.0) } == true) {
                let location = file.location(of: index)
                return (tokens[index].text, "\((location.file as NSString).lastPathComponent):\(location.line ?? 0)")
            }
        }
        return nil
    }

    /// A JavaScript app calls its plugin's native methods in any order: with no deciding check in the
    /// JavaScript, a data call is guarded only if the plugin's own Swift method (audited with
    /// `extra_sources`) consults availability. The first call whose native method does not is reported;
    /// a method whose Swift is not in the audit cannot be judged and is left alone.
    private static func unguardedPluginCall(_ context: AuditContext, _ sources: [ParsedSource]) -> Finding? {
        let helpers = availabilityHelpers(sources).union([HealthKitVocabulary.availabilityCheck])
        var methods: [String: [FunctionDeclSyntax]] = [:]
        for source in sources {
            for function in source.tree.collect(FunctionDeclSyntax.self) { methods[function.name.text, default: []].append(function) }
        }
        func guards(_ function: FunctionDeclSyntax) -> Bool {
            guard let body = function.body else { return false }
            if body.mentions(anyOf: helpers) { return true }
            // One level down: `readSamples` handing over to a private `performRead` that checks.
            return body.calls.contains { call in
                ExprShape.calledName(call).flatMap { methods[$0] }?.contains { $0.body?.mentions(anyOf: helpers) == true } == true
            }
        }
        let files = context.manifest.javaScriptSources
        for call in context.javaScriptCalls where [.read, .write, .statusCheck].contains(call.kind) {
            guard let native = methods[call.method], !native.contains(where: guards) else { continue }
            let file = files[call.file]
            return Finding(ruleID: description.id, severity: description.severity,
                           message: "`\(call.method)(…)` is called with no availability check deciding it, and the plugin's own `\(call.method)` does not "
                               + "consult `HKHealthStore.isHealthDataAvailable()` either: on devices without Health (iPad before iPadOS 17, managed "
                               + "devices) the call fails; gate it on the plugin's availability call",
                           location: file.location(of: call.token), quote: file.quote(call.token), target: context.manifest.id)
        }
        return nil
    }

    /// In a target that checks somewhere, a type that creates its own `HKHealthStore()` and calls
    /// HealthKit without ever consulting availability is an entry point nobody guards (a service
    /// reached straight from a view).
    private func unguardedStoreOwners(_ context: AuditContext, skipping reported: Set<String>) -> [Finding] {
        var findings: [Finding] = []
        let helpers = Self.availabilityHelpers(context.sources)
        let callsByFile = Dictionary(grouping: context.usage.facts.filter { $0.kind != .availabilityCheck }) { $0.evidence.location.file }
        let checks = helpers.union([HealthKitVocabulary.availabilityCheck])
        // Types whose extensions (in any file of the target) consult availability: an extension is the type's own code.
        var checkedByExtension: Set<String> = []
        for source in context.sources where !reported.contains(source.target) {
            for decl in source.tree.declarations([ExtensionDeclSyntax.self]) where decl.mentions(anyOf: checks) {
                if let type = decl.as(ExtensionDeclSyntax.self)?.extendedType.trimmedText { checkedByExtension.insert(source.target + "\u{0}" + type) }
            }
        }
        for source in context.sources where !reported.contains(source.target) && ByteSearch.contains(source.file.text, "HKHealthStore()") {
            let facts = (callsByFile[source.file.path] ?? []).filter { $0.target == source.target }
            guard !facts.isEmpty else { continue }
            for decl in source.tree.declarations([ClassDeclSyntax.self, StructDeclSyntax.self, ActorDeclSyntax.self]) {
                let ownsStore = decl.calls.contains { ExprShape.calledName($0) == "HKHealthStore" && $0.arguments.isEmpty }
                guard ownsStore, !decl.mentions(anyOf: checks) else { continue }
                let lines = source.lineOf(decl)...source.location(of: decl.lastToken(viewMode: .sourceAccurate)!).line!
                guard let first = facts.first(where: { lines.contains($0.evidence.location.line ?? 0) }),
                      let name = SyntaxScope.typeName(of: decl), !checkedByExtension.contains(source.target + "\u{0}" + name) else { continue }
                // In a watch app Health is always there: the gap is the checklist's, not a failure waiting (as for a whole watch app).
                let onWatch = context.manifest.targets.first(where: { $0.id == source.target })?.kind == .watchApp
                findings.append(Finding(ruleID: Self.description.id, severity: onWatch ? .note : Self.description.severity,
                                        message: "`\(name)` creates its own `HKHealthStore` and calls HealthKit without consulting `HKHealthStore.isHealthDataAvailable()`: "
                                            + (onWatch ? "in watch app `\(source.target)`, where Health is present on every Apple Watch, so its calls do not fail for "
                                                + "want of it, but the checklist asks each entry point to check"
                                               : "the app checks elsewhere, but this entry point is not guarded, and on devices without Health its calls fail"),
                                        location: first.evidence.location, quote: first.evidence.quote, target: source.target))
            }
        }
        return findings
    }

    /// Functions and properties that consult availability (`static var isAvailable: Bool {
    /// HKHealthStore.isHealthDataAvailable() }`): mentioning one is a check too.
    static func availabilityHelpers(_ sources: [ParsedSource]) -> Set<String> {
        var names: Set<String> = []
        for source in sources where ByteSearch.contains(source.file.text, HealthKitVocabulary.availabilityCheck) {
            for function in source.tree.collect(FunctionDeclSyntax.self) where function.body?.mentions(HealthKitVocabulary.availabilityCheck) == true {
                names.insert(function.name.text)
            }
            // A stored or computed property: its initializer or accessors (not a whole type's members).
            for binding in source.tree.collect(PatternBindingSyntax.self)
            where binding.initializer?.mentions(HealthKitVocabulary.availabilityCheck) == true || binding.accessorBlock?.mentions(HealthKitVocabulary.availabilityCheck) == true {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { names.insert(name) }
            }
        }
        return names
    }
}
