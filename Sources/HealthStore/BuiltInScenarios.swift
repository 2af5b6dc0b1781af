import Foundation

/// The scenarios the seeds describe, ready to replay against any app's context.
public enum BuiltInScenario: String, CaseIterable, Sendable, Hashable {
    /// Seed 000: the app never asks; its first query fails "not determined", and so does everything after.
    case firstLaunchNeverAsking = "first-launch-never-asking"
    /// Some types granted, some denied: denied reads look like "no data", status reads sharingDenied for read-only types.
    case partialGrant = "partial-grant"
    /// Everything denied, then granted in Settings: data appears on return, no new sheet.
    case deniedThenGrantedInSettings = "denied-then-granted-in-settings"
    /// Seed 003: a widget asks for authorization: no sheet, types stay not determined until the app asks.
    case widgetAsking = "widget-asking"
    /// Reading while the device is locked: code 6 until it unlocks.
    case lockedDevice = "locked-device"
}

extension Scenario {
    /// Default types: what the seeds' apps read (steps, heart rate, HRV, sleep, workouts) and write (weight).
    public static let defaultReadTypes: [HealthTypeID] = [.stepCount, .heartRate, .heartRateVariabilitySDNN,
                                                          .sleepAnalysis, .workout, .bodyMass]
    public static let defaultShareTypes: [HealthTypeID] = [.bodyMass]

    public static var allBuiltIn: [Scenario] { BuiltInScenario.allCases.map { builtIn($0) } }

    /// A built-in scenario for the given requested types (pass an app's declared read/share sets).
    public static func builtIn(_ kind: BuiltInScenario, read: [HealthTypeID] = defaultReadTypes,
                               share: [HealthTypeID] = defaultShareTypes) -> Scenario {
        let read = read.isEmpty ? defaultReadTypes : read
        let first = read.first { $0.kind == .quantity || $0.kind == .category } ?? .stepCount
        let shareType = share.first { $0.kind == .quantity }
        func answers(_ answer: (HealthTypeID) -> PermissionGrant) -> [HealthTypeID: PermissionGrant] {
            Dictionary(uniqueKeysWithValues: Set(read + share).map { ($0, answer($0)) })
        }
        func queries(_ types: [HealthTypeID]) -> [ScenarioStep] {
            types.map { type -> ScenarioStep in
                switch type.kind {
                case .workout: return .query(.workouts(window: .lastDays(7)))
                case .characteristic: return .query(type == .dateOfBirth ? .dateOfBirth : .biologicalSex)
                default: return .query(.samples(type, window: .today, limit: 0))
                }
            }
        }

        switch kind {
        case .firstLaunchNeverAsking:
            return Scenario(
                id: kind.rawValue, title: "First launch, never asking",
                summary: "The app checks status and queries at launch but never requests authorization. "
                    + "Every read fails with code 5 \"Authorization not determined\"; the app is not listed in Settings.",
                steps: [.launch(.app), .checkAvailability, .checkAuthorizationStatus(first),
                        .query(.samples(first, window: .today, limit: 1))]
                    + queries(Array(read.dropFirst()))
                    + [.checkRequestStatus(share: share, read: read)])

        case .partialGrant:
            // Grant every other read type, deny the rest; deny writing.
            let granted = Set(read.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
            var steps: [ScenarioStep] = [
                .launch(.app), .checkAvailability,
                .requestAuthorization(share: share, read: read, answers: answers {
                    PermissionGrant(read: granted.contains($0) ? .granted : .denied, share: .denied)
                }),
            ]
            steps += read.prefix(2).map { .checkAuthorizationStatus($0) }
            steps += queries(read)
            if let t = shareType { steps.append(.save(t, value: 70.5, unit: t.canonicalUnit)) }
            steps += [.checkRequestStatus(share: share, read: read),
                      .requestAuthorization(share: share, read: read, answers: [:])]
            return Scenario(
                id: kind.rawValue, title: "Partial grant",
                summary: "The user allows some types and denies others. Denied reads succeed with no data, "
                    + "status says sharingDenied for every read-only type, and a second request shows no sheet.",
                steps: steps)

        case .deniedThenGrantedInSettings:
            var steps: [ScenarioStep] = [
                .launch(.app),
                .requestAuthorization(share: share, read: read, answers: answers { _ in .deniedBoth }),
                .query(.samples(first, window: .today, limit: 0)),
            ]
            if let t = shareType { steps += [.checkAuthorizationStatus(t), .save(t, value: 70.5, unit: t.canonicalUnit)] }
            steps += [.openSettings(changes: answers { _ in .grantedBoth }), .returnToApp,
                      .checkRequestStatus(share: share, read: read),
                      .query(.samples(first, window: .today, limit: 0))]
            if let t = shareType { steps += [.checkAuthorizationStatus(t), .save(t, value: 70.5, unit: t.canonicalUnit)] }
            return Scenario(
                id: kind.rawValue, title: "Denied, then granted in Settings",
                summary: "Everything denied on the sheet: reads are empty and saves fail with code 4. After the user "
                    + "turns everything on in Settings, data appears and saves succeed without a new sheet.",
                steps: steps)

        case .widgetAsking:
            return Scenario(
                id: kind.rawValue, title: "A widget asks for authorization",
                summary: "A widget calls requestAuthorization: no sheet can appear, completion reports success, and "
                    + "its queries keep failing as not determined until the app itself asks.",
                steps: [.launch(.appExtension(name: "Widget")),
                        .checkRequestStatus(share: [], read: read),
                        .requestAuthorization(share: [], read: read, answers: answers { _ in .grantedBoth }),
                        .query(.samples(first, window: .today, limit: 0)),
                        .launch(.app),
                        .requestAuthorization(share: share, read: read, answers: answers { _ in .grantedBoth }),
                        .launch(.appExtension(name: "Widget")),
                        .checkRequestStatus(share: [], read: read),
                        .query(.samples(first, window: .today, limit: 0))])

        case .lockedDevice:
            return Scenario(
                id: kind.rawValue, title: "Reading on a locked device",
                summary: "With the device locked (e.g. a background refresh), every read fails with code 6 "
                    + "\"Protected health data is inaccessible\"; after unlocking the same query works.",
                steps: [.launch(.app),
                        .requestAuthorization(share: share, read: read, answers: answers { _ in .grantedBoth }),
                        .lockDevice,
                        .query(.samples(first, window: .today, limit: 0)),
                        .unlockDevice,
                        .query(.samples(first, window: .today, limit: 0))])
        }
    }
}
