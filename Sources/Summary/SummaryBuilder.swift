import Checklist
import Foundation
import HealthStore
import Manifest

/// Builds each app's daily summaries by querying two stores over the same simulated data: one that
/// sees everything (what Health holds) and one under the app's own grants (what the app sees).
public struct SummaryBuilder: Sendable {
    public let range: DayRange
    public let timeZone: TimeZone
    public let data: HealthDataSet
    let formatter: UnitFormatter

    public init(config: ProjectConfig, range: DayRange) {
        self.range = range
        timeZone = TimeZone(identifier: config.timeZone) ?? TimeZone(identifier: "UTC")!
        formatter = UnitFormatter(config.units)
        let settings = config.data
        data = HealthDataGenerator(
            seed: settings.seed, from: range.from, through: range.to, timeZone: timeZone,
            dateOfBirth: settings.dateOfBirth, biologicalSex: settings.biologicalSex.flatMap(BiologicalSex.init(name:)) ?? .notSet
        ).generate()
    }

    public func summarize(_ audit: AppAudit) throws -> AppSummary {
        let app = AppContextMapping.context(for: audit.manifest)
        let grants = AppContextMapping.grants(audit.manifest.config.permissions)
        let held = SimulatedHealthStore(data: data, app: AppContextMapping.owner, grants: AppContextMapping.everythingReadable)
        let seen = SimulatedHealthStore(data: data, app: app, grants: grants)
        let days = range.days.map { DayReport(day: $0, held: held, seen: seen, grants: grants, formatter: formatter).summary() }
        let scenarios = try ScenarioSelection.scenarios(for: audit)
        let timelines = scenarios.map { $0.replay(data: data, app: app) }
        let unmodelled = (audit.requestedRead + audit.requestedShare).filter { HealthTypeID(rawValue: $0) == nil }
        return AppSummary(appID: audit.manifest.id, days: days, timelines: timelines, scenarios: scenarios,
                          unmodelledTypes: Array(Set(unmodelled)).sorted())
    }
}



/// From the audited manifest to the store's view of the app.
enum AppContextMapping {
    static func context(for manifest: AppManifest) -> AppContext {
        let settings = manifest.config.buildSettings
        func expanded(_ key: String) -> String? {
            manifest.usageString(key)?.value.string.map { BuildVariables.expand($0, settings: settings).text }
        }
        let bundle = manifest.main.infoPlist?["CFBundleIdentifier"]?.string.map { BuildVariables.expand($0, settings: settings).text }
        return AppContext(
            bundleIdentifier: bundle ?? "com.example.\(manifest.id)", name: manifest.name,
            hasHealthKitEntitlement: manifest.main.entitlements?["com.apple.developer.healthkit"]?.bool == true,
            shareUsageDescription: expanded("NSHealthShareUsageDescription"),
            updateUsageDescription: expanded("NSHealthUpdateUsageDescription"))
    }

    static func grants(_ permissions: [String: PermissionGrant]) -> [HealthTypeID: PermissionGrant] {
        var result: [HealthTypeID: PermissionGrant] = [:]
        for (name, grant) in permissions { if let type = HealthTypeID(rawValue: name) { result[type] = grant } }
        return result
    }

    /// Health itself: sees every sample.
    static let owner = AppContext(bundleIdentifier: "com.apple.Health", name: "Health",
                                  shareUsageDescription: "Health owns this data and shows all of it.",
                                  updateUsageDescription: "Health owns this data and shows all of it.")
    static let everythingReadable = Dictionary(uniqueKeysWithValues: HealthTypeID.allCases.map { ($0, PermissionGrant(read: .granted)) })
}

/// The scenarios an app's config names (tailored to the types it requests) or scripts.
public enum ScenarioSelection {
    /// Every scenario problem of an app's config (unknown names, bad steps), found without running
    /// anything, so `build` and `check` report them with the other input problems of the run.
    public static func problems(in app: AppConfig) -> [InputProblem] {
        var errors: [InputProblem] = []
        for config in app.scenarios {
            switch config {
            case .builtIn(let name):
                if BuiltInScenario(rawValue: name.value) == nil {
                    let known = BuiltInScenario.allCases.map(\.rawValue).joined(separator: ", ")
                    errors.append(InputProblem("unknown scenario '\(name.value)' (known: \(known))", at: name.location))
                }
            case .script(_, let steps, _):
                for step in steps {
                    do { _ = try ScriptStep.convert(step) } catch let error as InputError { errors += error.problems } catch {}
                }
            }
        }
        return errors
    }

    static func scenarios(for audit: AppAudit) throws -> [Scenario] {
        let read = audit.requestedRead.compactMap(HealthTypeID.init(rawValue:))
        // As asked: a type HealthKit refuses ends the replay in its exception, as it would the app.
        let share = audit.requestedShare.compactMap(HealthTypeID.init(rawValue:))
        var errors: [InputProblem] = []
        let scenarios = audit.manifest.config.scenarios.compactMap { config -> Scenario? in
            switch config {
            case .builtIn(let name):
                guard let kind = BuiltInScenario(rawValue: name.value) else {
                    let known = BuiltInScenario.allCases.map(\.rawValue).joined(separator: ", ")
                    errors.append(InputProblem("unknown scenario '\(name.value)' (known: \(known))", at: name.location))
                    return nil
                }
                var scenario = Scenario.builtIn(kind, read: read.isEmpty ? Scenario.defaultReadTypes : read, share: share)
                // Replayed with stand-in types, said so: the timeline must not read as the app's own request.
                if !audit.unresolvedRead.isEmpty {
                    scenario.summary += " The app's read requests are \(audit.unresolvedRead.phrase { $0 }): the replay asks to read "
                        + (read.isEmpty ? "common types in their place" : "only the types that are known") + "."
                }
                return scenario
            case .script(let name, let steps, _):
                let converted = steps.compactMap { step -> ScenarioStep? in
                    do { return try ScriptStep.convert(step) } catch let error as InputError { errors += error.problems; return nil } catch { return nil }
                }
                let id = name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
                return Scenario(id: id, title: name, summary: "Scripted in the config.", steps: converted)
            }
        }
        if !errors.isEmpty { throw InputError(errors) }
        return scenarios
    }
}

/// One scripted step from the config, checked against the store's types.
enum ScriptStep {
    static func convert(_ step: ScenarioStepConfig) throws -> ScenarioStep {
        func type(_ name: String?) throws -> HealthTypeID {
            guard let name, let type = HealthTypeID(rawValue: name) else {
                throw InputError("step '\(step.action)' needs a type the simulated store models, found '\(name ?? "")'", at: step.location)
            }
            return type
        }
        func types(_ names: [String]) throws -> [HealthTypeID] { try names.map { try type($0) } }
        func answers() throws -> [HealthTypeID: PermissionGrant] {
            var result: [HealthTypeID: PermissionGrant] = [:]
            for (name, grant) in step.answers { result[try type(name)] = grant }
            return result
        }
        switch step.action {
        case "launch": return .launch(step.argument.map { .appExtension(name: $0) } ?? .app)
        case "check_availability": return .checkAvailability
        case "request": return .requestAuthorization(share: try types(step.share), read: try types(step.read), answers: try answers())
        case "status": return .checkAuthorizationStatus(try type(step.argument))
        case "request_status": return .checkRequestStatus(share: try types(step.share), read: try types(step.read))
        case "query":
            let queried = try type(step.argument)
            switch queried.kind {
            case .characteristic: return .query(queried == .dateOfBirth ? .dateOfBirth : .biologicalSex)
            case .workout: return .query(.workouts(window: .lastDays(7)))
            default: return .query(.samples(queried, window: .today, limit: 0))
            }
        case "settings": return .openSettings(changes: try answers())
        case "return": return .returnToApp
        case "save": return .save(try type(step.argument), value: step.value ?? 1, unit: nil)
        case "lock": return .lockDevice
        default: return .unlockDevice
        }
    }
}
