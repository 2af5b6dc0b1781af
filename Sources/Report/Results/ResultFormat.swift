import Checklist
import HealthStore
import Manifest
import Summary

// The domain's types the format's own names shadow inside `ResultFormat` (and the modules named
// like a type in them: `Checklist`, `Summary`).
typealias AnswerStatus = Answer.Status
typealias AnswerMark = Answer.Mark
typealias SuppressionOrigin = Suppression.Origin
typealias UsageOrigin = UsageString.Origin
typealias DayVisibility = Visibility

/// The result `check --format json` writes and `build --results` reads (schema version 3,
/// described for other readers by `ReportSchema.text`), defined once: `JSONReport` fills these
/// types and encodes them (`JSONValueEncoder`, members in the order declared here), and
/// `ResultReader` decodes them from the strict parser's `JSONValue` (`ResultDecoder`), every
/// number through its range and every problem naming the file's field. Field names are part of
/// the contract: add fields freely, rename or remove only with a new `schemaVersion`.
///
/// An optional member is written `null` when it has no value, except one marked `@Omitted`, left
/// out instead (its absence means something). Decoding takes a missing optional member as nil
/// (results of earlier versions lack a few), and ignores members it does not know.
enum ResultFormat {
    /// What is read before anything else: results of another schema, or of another tool, are
    /// refused with what to do, not half-read.
    /// (`schemaVersion` is read first of all, by `ResultReader.checkVersion`.)
    struct Header: Decodable {
        var tool: Tool
    }

    struct Document: Codable, Hashable {
        var schemaVersion: Int
        var tool: Tool
        /// The site folder, relative to the folder `check` ran in (`.` for that folder).
        var site: String
        var title: String
        var source: Source
        var apps: [App]
        var summary: Summary
    }

    struct Tool: Codable, Hashable {
        var name: String
        var version: String
        var informationUri: String
    }

    struct Source: Codable, Hashable, ResultChecked {
        /// A commit hash: 40 or 64 lowercase hexadecimal digits (history keys records by it).
        var commit: String?
        /// An http(s) URL with `{commit}`, `{path}` and `{line}` (`SourceLinks`).
        var urlTemplate: String?
        /// The site folder, relative to the repository root (`.` for the root).
        var sitePath: String

        func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError) {
            if let commit, !Self.isCommit(commit) {
                throw try node.field("commit").problem("expected a commit hash (40 or 64 lowercase hexadecimal digits)")
            }
            if let urlTemplate, let problem = SourceLinks.problem(urlTemplate) { throw try node.field("urlTemplate").problem(problem) }
            guard Self.normalized(sitePath) != nil else { throw try node.field("sitePath").problem("expected a folder inside the repository") }
        }

        static func isCommit(_ text: String) -> Bool {
            (text.utf8.count == 40 || text.utf8.count == 64) && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }

        /// `sitePath` without `.` and `..` parts or a leading `/`; nil when it leaves the repository.
        static func normalized(_ sitePath: String) -> String? {
            guard !sitePath.hasPrefix("/"), let normalized = try? ContainedPath.resolve(sitePath, in: "") else { return nil }
            return String(normalized.drop { $0 == "/" })
        }
    }

    struct App: Codable, Hashable, ResultChecked {
        var id: String
        var name: String
        var kind: AppKind
        var verdict: Verdict
        var counts: Counts
        var requested: Requests
        /// Beside `requested`, whose shape readers already rely on: what it leaves unknown. Results
        /// written before it existed carry none.
        var unresolvedRequests: Requests?
        var answers: [Answer]
        var findings: [Finding]
        var notes: [String]
        /// What discovery found (targets, files, settings) and where it read it.
        var discovery: [DiscoveredFact]
        var dependencies: [Dependency]
        var declared: Declared
        /// The daily summaries and scenarios; null when the app has no summary pages.
        var simulation: Simulation?

        func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError) {
            guard Identifier.isValid(id) else {
                throw try node.field("id").problem("'\(id)' is not an app id: it must match [a-z0-9][a-z0-9-]* (at most 64 characters), as it becomes a folder name")
            }
            guard answers.count <= ReviewQuestion.allCases.count else { throw try node.field("answers").problem("more than six answers") }
        }
    }

    struct Counts: Codable, Hashable {
        var errors: Int
        var warnings: Int
        var notes: Int
        var suppressed: Int
    }

    /// HealthKit types by their names (`stepCount`), or for unresolved requests, the places asking.
    struct Requests: Codable, Hashable {
        var read: [String]
        var share: [String]
    }

    struct Answer: Codable, Hashable, ResultChecked {
        var question: ReviewQuestion
        /// The question's wording.
        var text: String
        var status: AnswerStatus
        var mark: AnswerMark
        var reason: String
        var evidence: [Evidence]
        var ruleIds: [String]

        func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError) {
            guard ruleIds.contains(where: { RuleCatalog.rule(id: $0) == nil }) else { return }
            for (id, item) in zip(ruleIds, try node.field("ruleIds").array()) { try decoding.checkRule(id, item) }
        }
    }

    struct Evidence: Codable, Hashable {
        var location: Location
        var quote: String
    }

    /// A place in an app's file, its path relative to the folder `check` ran in. `line` and
    /// `column` are null when the input has none (a binary plist).
    struct Location: Codable, Hashable, ResultChecked {
        var path: String
        var line: BoundedInt<ResultRanges.Line>?
        var column: BoundedInt<ResultRanges.Line>?

        func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError) {
            guard !path.isEmpty else { throw try node.field("path").problem("empty path") }
        }
    }

    struct Finding: Codable, Hashable, ResultChecked {
        var ruleId: String
        var severity: Severity
        var message: String
        var location: Location
        var quote: String
        var target: String
        var fingerprint: String
        var suppressed: Suppression?
        /// The lines around the quoted one.
        var context: QuoteContext?

        func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError) {
            guard RuleCatalog.rule(id: ruleId) == nil else { return }
            try decoding.checkRule(ruleId, node.field("ruleId"))
        }
    }

    struct Suppression: Codable, Hashable {
        var origin: SuppressionOrigin
        var reason: String
        var location: Location
    }

    struct QuoteContext: Codable, Hashable {
        var before: [String]
        var after: [String]
        var indent: String
    }

    struct DiscoveredFact: Codable, Hashable {
        var text: String
        var origin: String
        var location: Location?
        var note: Bool
    }

    struct Dependency: Codable, Hashable, ResultChecked {
        var package: String
        /// A `HealthKitPackage.Ecosystem`'s raw value (`npm`, `CocoaPods`…).
        var ecosystem: String
        var version: String?
        var direct: Bool?
        var location: Location
        var quote: String
        var writes: Bool
        var workoutSession: Bool
        var clinical: Bool
        var sdk: Bool

        func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError) {
            _ = try node.field("ecosystem").oneOf(HealthKitPackage.Ecosystem.self)
        }
    }

    /// The usage strings, entitlements, targets and input files the app page lists.
    struct Declared: Codable, Hashable {
        var usageStrings: [UsageString]
        /// null: the app has no entitlements file.
        var entitlements: [Entitlement]?
        var targets: [Target]
        var reactNativeRequests: [NativeRequest]
        var inputFiles: [String]
        /// Results of earlier versions have none.
        var identity: Identity?
    }

    /// A usage description key: its members depend on `origin`.
    enum UsageString: Codable, Hashable {
        /// Set in an Info.plist, a build setting or an Expo config (`origin` says which).
        case declared(key: String, origin: String, location: Location, value: String?, valueType: String)
        /// `origin` is `absent`.
        case absent(key: String)
        /// `origin` is `translation`: a localized `InfoPlist.strings` or string catalog entry.
        case translated(key: String, locale: String, source: String, value: String)

        private enum CodingKeys: String, CodingKey { case key, origin, location, value, valueType, locale, source }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .declared(let key, let origin, let location, let value, let valueType):
                try container.encode(key, forKey: .key)
                try container.encode(origin, forKey: .origin)
                try container.encode(location, forKey: .location)
                try container.encodeIfPresent(value, forKey: .value)
                try container.encode(valueType, forKey: .valueType)
            case .absent(let key):
                try container.encode(key, forKey: .key)
                try container.encode("absent", forKey: .origin)
            case .translated(let key, let locale, let source, let value):
                try container.encode(key, forKey: .key)
                try container.encode("translation", forKey: .origin)
                try container.encode(locale, forKey: .locale)
                try container.encode(source, forKey: .source)
                try container.encode(value, forKey: .value)
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let key = try container.decode(String.self, forKey: .key)
            switch try container.decode(String.self, forKey: .origin) {
            case "absent":
                self = .absent(key: key)
            case "translation":
                self = .translated(key: key, locale: try container.decode(String.self, forKey: .locale),
                                   source: try container.decode(String.self, forKey: .source), value: try container.decode(String.self, forKey: .value))
            case let origin where UsageOrigin(rawValue: origin) != nil:
                self = .declared(key: key, origin: origin, location: try container.decode(Location.self, forKey: .location),
                                 value: try container.decodeIfPresent(String.self, forKey: .value), valueType: try container.decode(String.self, forKey: .valueType))
            case let other:
                throw ResultDecoder.problem(in: decoder, at: "origin",
                                            "'\(other)' is not a usage string's origin (Info.plist, build setting, Expo config, translation, absent)")
            }
        }
    }

    struct Entitlement: Codable, Hashable {
        var key: String
        var value: String
    }

    struct Target: Codable, Hashable {
        var id: String
        var name: String
        var extensionPoint: String?
        var swiftFiles: BoundedInt<ResultRanges.FileCount>
        var javaScriptFiles: BoundedInt<ResultRanges.FileCount>?
        var infoPlist: InfoPlist?

        struct InfoPlist: Codable, Hashable {
            var path: String
            var format: String
        }
    }

    /// One `initHealthKit` call of a React Native app.
    struct NativeRequest: Codable, Hashable {
        var location: Location
        var read: [Permission]
        var write: [Permission]

        /// A react-native-health constant and the HealthKit type it maps to (null: unknown).
        struct Permission: Codable, Hashable {
            var constant: String
            var type: String?
        }
    }

    struct Identity: Codable, Hashable {
        var bundleId: String?
        var version: String?
        var build: String?
        var minimumOS: String?
    }

    /// `outsideChangedLines` only with `--changed-files` or `--since`: its absence means nothing
    /// was left out; `baselined` only with `--baseline`.
    struct Summary: Codable, Hashable {
        var apps: Int
        var findings: Counts
        var verdicts: Verdicts
        @Omitted var outsideChangedLines: Int?
        @Omitted var baselined: Int?
    }

    struct Verdicts: Codable, Hashable {
        var passes: Int
        var needsWork: Int
        var fails: Int
        /// Only when some app could not be fully read, so results without one keep their shape.
        @Omitted var incomplete: Int?
    }

    // MARK: - Simulation

    /// An app's daily summaries and scenario timelines as the pages show them, numbers exact, so
    /// pages built from a result equal the source build's.
    struct Simulation: Codable, Hashable, ResultChecked {
        var days: [Day]
        var scenarios: [Scenario]
        /// Requested types the simulated store does not model.
        var unmodelledTypes: [String]

        /// Each day is one page (`2026-04-01.html`) linked to the day before and after: the days
        /// come in order, each once, as `check` writes them.
        func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError) {
            let daysNode = try node.field("days")
            guard days.count <= DayRange.maxDays else { throw daysNode.problem("more than \(DayRange.maxDays) days") }
            // Each day's text was checked as it was decoded.
            let dates = days.map { DayDate($0.day)! }
            for index in dates.indices.dropFirst() where dates[index] <= dates[index - 1] {
                let field = try daysNode.array()[index].field("day")
                if let first = dates.firstIndex(of: dates[index]), first != index {
                    throw field.problem("\(dates[index]) is also days[\(first)]: each day is listed once")
                }
                throw field.problem("\(dates[index]) comes after \(dates[index - 1]): the days are listed in order")
            }
        }
    }

    struct Day: Codable, Hashable, ResultChecked {
        /// `YYYY-MM-DD`.
        var day: String
        var hours: BoundedDouble<ResultRanges.DayHours>
        var metrics: [Metric]
        var workouts: [Workout]
        var workoutsVisibility: Visibility
        /// null: hidden from the app.
        var stepsByHour: [BoundedDouble<ResultRanges.Steps>?]
        var hourLabels: [String]
        var clockTicks: [ClockTick]
        var heartRate: [HeartRate]
        var heartRateVisibility: Visibility
        var sleep: [SleepSpan]
        var sleepVisibility: Visibility
        var stepsSeen: BoundedDouble<ResultRanges.Steps>?
        var stepsHeld: BoundedDouble<ResultRanges.Steps>
        var sleepSeenHours: BoundedDouble<ResultRanges.SleepHours>?
        var sleepHeldHours: BoundedDouble<ResultRanges.SleepHours>

        func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError) {
            // Canonical digits only: `DayDate` alone would take `+202-04-01` as the year 202.
            guard let date = DayDate(day), date.description == day else { throw try node.field("day").problem("expected a day as YYYY-MM-DD") }
        }
    }

    struct Metric: Codable, Hashable {
        var name: String
        var type: String
        var held: String
        var seen: String
        var visibility: Visibility
    }

    struct Workout: Codable, Hashable {
        var activity: String
        var start: String
        var duration: String
        var energy: String
        var distance: String
    }

    /// Local 00:00, 06:00… and where they fall across the day.
    struct ClockTick: Codable, Hashable {
        var x: BoundedDouble<ResultRanges.Fraction>
        var label: String
    }

    struct HeartRate: Codable, Hashable {
        var x: BoundedDouble<ResultRanges.Fraction>
        var bpm: BoundedDouble<ResultRanges.BeatsPerMinute>
    }

    struct SleepSpan: Codable, Hashable, ResultChecked {
        var stage: String
        var start: BoundedDouble<ResultRanges.Fraction>
        var end: BoundedDouble<ResultRanges.Fraction>

        func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError) {
            guard end.value >= start.value else { throw try node.field("end").problem("a sleep span ends before it starts") }
        }
    }

    /// `state` names a `Summary.Visibility`; `neverAsked` and `failed` carry their error.
    struct Visibility: Codable, Hashable, ResultChecked {
        var state: String
        var error: HealthError?

        func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError) {
            guard visibility != nil else {
                throw node.problem("'\(state)' is not a visibility (visible, readNotGranted, neverAsked or failed with an error, notSet)")
            }
        }

        var visibility: DayVisibility? { DayVisibility(state: state, error: error.map(\.error)) }
    }

    /// An HKError as the app receives it.
    struct HealthError: Codable, Hashable, ResultChecked {
        var code: BoundedInt<ResultRanges.ErrorCode>
        var name: String
        var description: String

        func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError) {
            guard HKErrorCode(rawValue: code.value) != nil else { throw try node.field("code").problem("not an HKError code") }
        }

        /// The code's own name, whatever `name` says.
        var error: HealthKitError { HealthKitError(HKErrorCode(rawValue: code.value)!, description: description) }
    }

    struct Scenario: Codable, Hashable, ResultChecked {
        var id: String
        var title: String
        var summary: String
        var steps: [Step]

        /// Numbered from 0 in order: the number is the step's anchor on the app page.
        func check(_ node: JSONNode, _ decoding: ResultDecoder.Context) throws(ResultFormatError) {
            for (position, step) in steps.enumerated() where step.index.value != position {
                throw try node.field("steps").array()[position].field("index").problem("expected \(position): steps are numbered from 0 in order")
            }
        }
    }

    struct Step: Codable, Hashable {
        var index: BoundedInt<ResultRanges.Samples>
        var action: String
        var outcome: String
        var status: String?
        var error: HealthError?
        var samplesSeen: BoundedInt<ResultRanges.Samples>?
        var crash: Crash?
        var skipped: Bool
    }

    struct Crash: Codable, Hashable {
        var exceptionName: String
        var reason: String
    }
}

// The enumerations a result spells by their raw values, each read as one of them.
extension AppKind: ResultEnum {}
extension Verdict: ResultEnum {}
extension Severity: ResultEnum {}
extension AnswerStatus: ResultEnum {}
extension AnswerMark: ResultEnum {}
extension SuppressionOrigin: ResultEnum {}

extension ReviewQuestion: ResultLeaf {
    static func leaf(_ value: JSONValue) -> ReviewQuestion? {
        guard case .int(let number) = value else { return nil }
        return ReviewQuestion(rawValue: number)
    }

    static func read(_ node: JSONNode, _ context: ResultDecoder.Context) throws(ResultFormatError) -> ReviewQuestion {
        guard let question = ReviewQuestion(rawValue: try node.int(in: 1...ReviewQuestion.allCases.count)) else { throw node.problem("questions are numbered 1 to 6") }
        return question
    }
}
