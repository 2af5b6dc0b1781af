import Foundation

extension Scenario {
    /// Replays the steps against `store` (which it mutates: answers, saves, app context) and records each outcome.
    /// `now` defaults to the end of the data set's last day.
    public func replay(on store: SimulatedHealthStore, now: Date? = nil) -> ScenarioTimeline {
        var player = ScenarioPlayer(store: store,
                                    now: now ?? Date(timeIntervalSinceReferenceDate: store.data.endTime))
        let events = steps.enumerated().map { player.run($0.element, index: $0.offset) }
        return ScenarioTimeline(scenarioID: id, events: events)
    }

    /// Replays on a fresh store: the given data and app, nothing asked yet unless `grants` says otherwise.
    public func replay(data: HealthDataSet, app: AppContext,
                       grants: [HealthTypeID: PermissionGrant] = [:]) -> ScenarioTimeline {
        replay(on: SimulatedHealthStore(data: data, app: app, grants: grants))
    }
}

private struct ScenarioPlayer {
    let store: SimulatedHealthStore
    let now: Date
    var running = true

    init(store: SimulatedHealthStore, now: Date) {
        self.store = store; self.now = now
    }

    mutating func run(_ step: ScenarioStep, index: Int) -> ScenarioEvent {
        let action = ScenarioPlayer.describe(step)
        var event = ScenarioEvent(index: index, step: step, action: action, outcome: "")
        if case .launch = step {} else if !running {
            event.outcome = "Skipped: the app crashed and was not launched again."
            event.skipped = true
            return event
        }
        switch step {
        case .launch(let context):
            running = true
            var app = store.app
            switch context {
            case .app:
                app.isExtension = false
                event.outcome = "The app starts."
            case .appExtension(let name):
                app.isExtension = true
                event.outcome = "The extension \(name) starts; it cannot present the authorization sheet."
            }
            store.app = app

        case .checkAvailability:
            let available = store.isHealthDataAvailable()
            event.status = String(available)
            event.outcome = available ? "Health data is available." : "Health data is not available on this device."

        case .requestAuthorization(let share, let read, let answers):
            let result = store.requestAuthorization(toShare: Set(share), read: Set(read), answers: answers)
            switch result {
            case .success(let sheet):
                event.status = "true"
                event.sheetShown = result.sheetShown
                if let sheet, result.sheetShown {
                    event.outcome = "The sheet asks for " + ScenarioPlayer.describe(sheet)
                        + "; the user answers; the completion reports success = true, which says nothing about what was granted."
                } else if store.app.isExtension {
                    event.outcome = "No sheet: an extension cannot present it. success = true; the types stay not determined."
                } else {
                    event.outcome = "No sheet: every type was already answered. success = true."
                }
            case .failure(let error):
                event.status = "false"
                event.error = error
                event.sheetShown = false
                event.outcome = "success = false, error code \(error.code): \(error.description)"
            case .crash(let crash):
                crashed(crash, &event)
            }

        case .checkAuthorizationStatus(let type):
            let status = store.authorizationStatus(for: type)
            event.status = status.name
            event.outcome = "\(type.rawValue): \(status.name) (sharing status only; reading is never disclosed)."

        case .checkRequestStatus(let share, let read):
            switch store.statusForAuthorizationRequest(toShare: Set(share), read: Set(read)) {
            case .success(let status):
                event.status = status.name
                event.outcome = status == .shouldRequest
                    ? "shouldRequest: a sheet would appear for at least one type."
                    : "unnecessary: no sheet would appear (this says nothing about what was granted)."
            case .failure(let error):
                event.status = AuthorizationRequestStatus.unknown.name
                event.error = error
                event.outcome = "unknown, error code \(error.code): \(error.description)"
            }

        case .query(let query):
            runQuery(query, &event)

        case .openSettings(let changes):
            let changed = store.changeInSettings(changes)
            let ignored = Set(changes.keys).subtracting(changed).sorted()
            var text = changed.isEmpty ? "The user opens Settings and changes nothing that applies."
                : "The user changes " + changed.map(\.rawValue).joined(separator: ", ") + " in Settings."
            if !ignored.isEmpty {
                text += " Not listed for this app (never asked, or unchanged): "
                    + ignored.map(\.rawValue).joined(separator: ", ") + "."
            }
            event.outcome = text

        case .returnToApp:
            event.outcome = "The user returns to the app."

        case .save(let type, let value, let unit):
            guard let sample = makeSample(type, value, unit) else {
                event.error = .invalidArgument("\(unit?.rawValue ?? "") is not a unit of \(type.rawValue)")
                event.outcome = "Not saved: incompatible unit."
                break
            }
            switch store.save(sample) {
            case .success:
                event.status = "saved"
                event.outcome = "Saved \(type.rawValue) = \(value)\(unit.map { " " + $0.rawValue } ?? "")."
            case .failure(let error):
                event.error = error
                event.outcome = "Save failed, error code \(error.code): \(error.description)"
            }

        case .lockDevice:
            var app = store.app
            app.device.locked = true
            store.app = app
            event.outcome = "The device locks; protected health data becomes inaccessible."

        case .unlockDevice:
            var app = store.app
            app.device.locked = false
            store.app = app
            event.outcome = "The device unlocks."
        }
        return event
    }

    private mutating func crashed(_ crash: HealthKitCrash, _ event: inout ScenarioEvent) {
        event.crash = crash
        event.outcome = "The app crashes: \(crash.exceptionName): \(crash.reason)"
        running = false
    }

    private mutating func runQuery(_ query: ScenarioQuery, _ event: inout ScenarioEvent) {
        func fail(_ e: HealthKitError) {
            event.error = e
            event.outcome = "Query failed, error code \(e.code): \(e.description)"
        }
        switch query {
        case .samples(let type, let window, let limit):
            let (a, b) = range(window)
            switch store.samples(of: type, from: a, to: b, limit: limit, ascending: false) {
            case .success(let samples):
                event.samplesSeen = samples.count
                event.outcome = samples.isEmpty
                    ? "No error and no samples: indistinguishable from \"no data\" (read denied looks like this)."
                    : "\(samples.count) \(type.rawValue) samples."
            case .failure(let e): fail(e)
            }
        case .statistics(let type, let window, let options):
            let (a, b) = range(window)
            switch store.statistics(of: type, from: a, to: b, options: options) {
            case .success(let stats):
                record(stats.values, type, &event)
            case .failure(let e): fail(e)
            case .crash(let c): crashed(c, &event)
            }
        case .dailyStatistics(let type, let window, let options):
            let (a, b) = range(window)
            let anchor = store.interval(of: DayDate(a, in: store.timeZone)).start
            switch store.statisticsCollection(of: type, from: a, to: b, anchor: anchor, interval: .day,
                                              options: options) {
            case .success(let collection):
                let withData = collection.buckets.filter { $0.values != StatisticValues() }
                event.samplesSeen = withData.count
                if let last = collection.buckets.last { record(last.values, type, &event) }
                event.outcome = "\(collection.buckets.count) daily buckets, \(withData.count) with data. " + event.outcome
            case .failure(let e): fail(e)
            case .crash(let c): crashed(c, &event)
            }
        case .workouts(let window):
            let (a, b) = range(window)
            switch store.workouts(from: a, to: b) {
            case .success(let list):
                event.samplesSeen = list.count
                event.outcome = "\(list.count) workouts."
            case .failure(let e): fail(e)
            }
        case .dateOfBirth:
            switch store.dateOfBirth() {
            case .success(let c):
                event.status = DayDate(year: c.year ?? 0, month: c.month ?? 1, day: c.day ?? 1).description
                event.outcome = "Date of birth \(event.status!)."
            case .failure(let e): fail(e)
            }
        case .biologicalSex:
            switch store.biologicalSex() {
            case .success(let sex):
                event.status = sex.name
                event.outcome = sex == .notSet ? "notSet (not entered, or read denied: the app cannot tell)." : sex.name
            case .failure(let e): fail(e)
            }
        }
    }

    private func record(_ values: StatisticValues, _ type: HealthTypeID, _ event: inout ScenarioEvent) {
        let value = values.sum ?? values.average ?? values.mostRecent ?? values.maximum ?? values.minimum
        event.value = value
        let unit = type.canonicalUnit?.rawValue ?? ""
        event.outcome = value.map { "\(type.rawValue): \(ScenarioPlayer.format($0)) \(unit)." }
            ?? "No value: no samples in the interval (or read denied)."
    }

    private func range(_ window: QueryWindow) -> (Date, Date) {
        let tz = store.timeZone
        let lastDay = DayDate(now.addingTimeInterval(-1), in: tz)
        switch window {
        case .today: return (lastDay.start(in: tz), now)
        case .lastDays(let n): return (lastDay.adding(days: -(max(1, n) - 1)).start(in: tz), now)
        case .between(let a, let b): return (a, b)
        }
    }

    private func makeSample(_ type: HealthTypeID, _ value: Double, _ unit: HealthUnit?) -> Sample? {
        let t = now.timeIntervalSinceReferenceDate
        var v = value
        if let unit {
            guard let canonical = type.canonicalUnit, let converted = unit.convert(value, to: canonical) else { return nil }
            v = converted
        }
        let start: Double
        switch type.aggregationStyle {
        case .cumulative?: start = t - 600
        case .some: start = t - 60
        case nil: start = t - 1800
        }
        let end = type.aggregationStyle.map { $0.isCumulative ? t : start } ?? t
        return Sample(type: type, startTime: start, endTime: end, value: v, source: store.app.source)
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() ? String(Int(x)) : String(format: "%.2f", x)
    }

    static func list(_ types: [HealthTypeID]) -> String { "[" + types.map(\.rawValue).joined(separator: ", ") + "]" }

    static func describe(_ sheet: AuthorizationSheet) -> String {
        var parts: [String] = []
        if !sheet.readTypes.isEmpty { parts.append("reading " + list(sheet.readTypes)) }
        if !sheet.shareTypes.isEmpty { parts.append("writing " + list(sheet.shareTypes)) }
        return parts.joined(separator: " and ")
    }

    static func describe(_ step: ScenarioStep) -> String {
        switch step {
        case .launch(.app): return "launch app"
        case .launch(.appExtension(let name)): return "launch extension \(name)"
        case .checkAvailability: return "HKHealthStore.isHealthDataAvailable()"
        case .requestAuthorization(let share, let read, _):
            return "requestAuthorization(toShare: \(list(share)), read: \(list(read)))"
        case .checkAuthorizationStatus(let t): return "authorizationStatus(for: \(t.rawValue))"
        case .checkRequestStatus(let share, let read):
            return "statusForAuthorizationRequest(toShare: \(list(share)), read: \(list(read)))"
        case .query(let q):
            switch q {
            case .samples(let t, let w, let limit): return "HKSampleQuery(\(t.rawValue), \(describe(w)), limit: \(limit))"
            case .statistics(let t, let w, let o): return "HKStatisticsQuery(\(t.rawValue), \(describe(w)), \(o))"
            case .dailyStatistics(let t, let w, let o):
                return "HKStatisticsCollectionQuery(\(t.rawValue), \(describe(w)), daily, \(o))"
            case .workouts(let w): return "HKSampleQuery(workout, \(describe(w)))"
            case .dateOfBirth: return "dateOfBirthComponents()"
            case .biologicalSex: return "biologicalSex()"
            }
        case .openSettings: return "open Settings → Health"
        case .returnToApp: return "return to app"
        case .save(let t, let v, let u): return "save(\(t.rawValue) = \(format(v))\(u.map { " " + $0.rawValue } ?? ""))"
        case .lockDevice: return "lock device"
        case .unlockDevice: return "unlock device"
        }
    }

    static func describe(_ w: QueryWindow) -> String {
        switch w {
        case .today: return "today"
        case .lastDays(let n): return "last \(n) days"
        case .between(let a, let b): return "\(a) – \(b)"
        }
    }
}
