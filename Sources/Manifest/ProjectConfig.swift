import Foundation

/// `healthaudit.yml`: the site and the apps it audits. Every field is documented in docs/config.md.
public struct ProjectConfig: Sendable {
    public var file: String
    public var title: String
    public var baseURL: String
    public var units: UnitSystem
    public var timeZone: String
    public var summaries: DayRange?
    public var data: DataSettings
    public var contentDirectory: String
    public var apps: [AppConfig]
    /// `rules:` — project-wide: a rule turned off or given another severity, by rule id.
    public var rules: [Located<RuleSetting>] = []
    /// `source_url:` — where a location links on the forge: `https://…/blob/{commit}/{path}#L{line}`.
    public var sourceURL: String?

    /// The site's title when the config gives none.
    public static let defaultTitle = "HealthAudit"
}

/// One line of the config's `rules:` map: `timing-band-aid: off`, `usage-string-vague: error`.
public struct RuleSetting: Sendable, Hashable {
    public enum Level: String, Sendable, Hashable, CaseIterable { case off, note, warning, error }
    public var rule: String
    public var level: Level
    public init(rule: String, level: Level) { self.rule = rule; self.level = level }
}

public enum UnitSystem: String, Sendable, CaseIterable {
    case metric, imperial
}

/// A calendar day written `YYYY-MM-DD`, independent of time zones until the store places it.
public struct DayDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year; self.month = month; self.day = day
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), d >= 1, d <= DayDate.daysIn(month: m, year: y) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `%04d-%02d-%02d`, without `String(format:)` (a large site formats dates on every page).
    public var description: String {
        Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2)
    }

    /// `%0<width>d`: zeros after the sign, the width counting the sign.
    static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number.magnitude)
        let sign = number < 0 ? "-" : ""
        let zeros = max(width - sign.count - digits.count, 0)
        return sign + String(repeating: "0", count: zeros) + digits
    }

    /// Days since 1970-01-01 (proleptic Gregorian), pure arithmetic.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    public init(dayNumber n: Int) {
        let z = n + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// The day containing `date` in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    public func adding(days: Int) -> DayDate { DayDate(dayNumber: dayNumber + days) }
    public var next: DayDate { adding(days: 1) }
    public var previous: DayDate { adding(days: -1) }

    /// Monday = 1 … Sunday = 7.
    public var isoWeekday: Int { ((dayNumber % 7 + 7) % 7 + 3) % 7 + 1 }

    public var dateComponents: DateComponents { DateComponents(year: year, month: month, day: day) }

    /// Local midnight (or the first instant of the day if midnight does not exist) in `timeZone`.
    public func start(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.startOfDay(for: calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!)
    }

    public static func < (a: DayDate, b: DayDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

public struct DayRange: Sendable, Hashable {
    public var from: DayDate
    public var to: DayDate
    public init(from: DayDate, to: DayDate) { self.from = from; self.to = to }

    /// The longest range of summaries a config may ask for.
    public static let maxDays = 366

    /// The seven days ending on `day`: the default range when the config names none.
    public static func week(endingOn day: DayDate) -> DayRange {
        var from = day
        for _ in 0..<6 { from = from.previous }
        return DayRange(from: from, to: day)
    }

    public var days: [DayDate] {
        var result: [DayDate] = []
        var day = from
        while day <= to { result.append(day); day = day.next }
        return result
    }
}

/// The simulated user's Health data: the generator's seed and the characteristics they entered.
public struct DataSettings: Sendable {
    public var seed: UInt64 = 1
    public var dateOfBirth: DayDate?
    public var biologicalSex: String?
}

public enum PermissionAnswer: String, Sendable, CaseIterable {
    case granted, denied
}

/// The simulated user's answer for one type; nil means the type was never put to them.
public struct PermissionGrant: Sendable, Hashable {
    public var read: PermissionAnswer?
    public var share: PermissionAnswer?
    public init(read: PermissionAnswer? = nil, share: PermissionAnswer? = nil) {
        self.read = read; self.share = share
    }
}

/// A value from the config with the line it was written on, for evidence and errors.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    public var value: Value
    public var location: FileLocation
    public init(_ value: Value, at location: FileLocation) { self.value = value; self.location = location }
}

public struct RequestedTypes: Sendable {
    public var read: [Located<String>] = []
    public var share: [Located<String>] = []
    public init(read: [Located<String>] = [], share: [Located<String>] = []) { self.read = read; self.share = share }
}

public struct IgnoreEntry: Sendable, Hashable {
    public var rule: String
    public var path: String?
    public var reason: String
    public var location: FileLocation
}

/// What a target beside the app is: an extension (a widget, an intent, a complication) runs inside
/// a host and cannot present the permission sheet; a watch app asks for HealthKit access itself.
public enum TargetKind: String, Sendable, CaseIterable {
    case app
    case appExtension = "extension"
    case watchApp = "watch"
}

public struct ExtensionConfig: Sendable {
    public var id: String
    public var name: String
    /// `.appExtension` or `.watchApp` (config key `kind:`, default `extension`).
    public var kind: TargetKind = .appExtension
    public var infoPlist: String?
    public var entitlements: String?
    public var sources: [String]
    /// `extra_sources:` added to the sources found or listed (a sibling package's HealthKit code).
    public var extraSources: [Located<String>] = []
    /// Files of linked framework targets that the app compiles too: not read again, but the
    /// extension runs that code (a widget linking the app's HealthKit framework can reach HealthKit).
    public var linkedSources: [String] = []
    /// Its compilation conditions, read from its project (see `TargetManifest.compilationConditions`).
    public var compilationConditions: Set<String>?
    public var location: FileLocation
}

public struct AppConfig: Sendable {
    public var id: String
    public var name: String
    public var kind: AppKind
    /// Absolute folder of the app; every other path of the app is relative to it.
    public var root: String
    /// The app's root as written in the config, relative to the site folder (used in reports).
    public var rootInSite: String
    public var infoPlist: String?
    public var entitlements: String?
    public var privacyManifest: String?
    public var localizations: String?
    /// Strings files and catalogs found in the target's resources (relative to `root`): read besides
    /// the `localizations` folder, wherever the project keeps them.
    public var localizationFiles: [String] = []
    /// `localizationFiles` are all the target's resources list (read from its Xcode project): strings
    /// files merely lying beside the Info.plist are not copied into the app, so they are not read.
    public var localizationsListedByProject = false
    public var sources: [String]
    /// `extra_sources:` Swift folders or files added to the discovered (or listed) sources, relative
    /// to `root` and allowed to climb above it within the site folder: HealthKit code in a sibling
    /// package, a plugin or a submodule that the app's project links in a way discovery cannot see.
    public var extraSources: [Located<String>] = []
    /// Discovered sources (relative to `root`) that come from local packages and development pods.
    public var dependencySources: Set<String> = []
    public var buildSettings: [String: String]
    public var requested: RequestedTypes
    public var permissions: [String: PermissionGrant]
    public var extensions: [ExtensionConfig]
    public var ignore: [IgnoreEntry]
    /// The project's `rules:` settings, copied into every app so its audit applies them.
    public var rules: [Located<RuleSetting>] = []
    /// Authorization scenarios replayed against the simulated store: built-in scripts by name, or
    /// scripts written in the config.
    public var scenarios: [ScenarioConfig] = []
    public var location: FileLocation
    /// `project:` an `.xcodeproj` (relative to the root) the manifests, sources and build settings are discovered from.
    public var project: Located<String>? = nil
    /// An XcodeGen spec to discover the app from (`xcodegen: Apps/App/project.yml`), relative to `root`.
    public var xcodeGenSpec: Located<String>? = nil
    /// A Tuist manifest to discover the app from (`tuist: Projects/App/Project.swift`), relative to `root`.
    public var tuistManifest: Located<String>? = nil
    /// `targets:` the project targets to audit, by name (the first application target is the app).
    public var targets: [Located<String>] = []
    /// `configuration:` the build configuration whose settings are read (default: the project's default, else Release).
    public var configuration: Located<String>? = nil
    /// Keys written in the config entry (`info_plist`, `sources`…): they win over what discovery finds.
    public var explicitKeys: Set<String> = []
    /// Where discovered build settings were written (project file or app.json line), for evidence.
    public var buildSettingOrigins: [String: SettingOrigin] = [:]
    /// The entry was written by discovery, not read from a file: its problems cite the app's own files.
    public var isDiscovered = false
    /// The app target's compilation conditions, read from its project (see `TargetManifest.compilationConditions`).
    public var compilationConditions: Set<String>?
}

extension AppConfig {
    /// An entry written by discovery exists only in memory: a problem found while loading the app
    /// cites the project, spec or manifest it was found from (or its folder), never a line of that
    /// config.
    public mutating func citeDiscoveredFiles() {
        isDiscovered = true
        let folder = rootInSite == "." ? "" : (AppFiles.normalize(rootInSite) ?? rootInSite)
        func shown(_ relative: String) -> FileLocation {
            FileLocation(file: relative == "." ? (folder.isEmpty ? "." : folder) : AppFiles.join(folder.isEmpty ? "." : folder, relative))
        }
        project = project.map { Located($0.value, at: shown($0.value)) }
        xcodeGenSpec = xcodeGenSpec.map { Located($0.value, at: shown($0.value)) }
        tuistManifest = tuistManifest.map { Located($0.value, at: shown($0.value)) }
        let own = kind.traits.entryFile
        location = project?.location ?? xcodeGenSpec?.location ?? tuistManifest?.location ?? shown(own)
    }
}

/// A scenario as the config states it; the store stage turns it into steps and checks the names.
public enum ScenarioConfig: Sendable, Hashable {
    case builtIn(Located<String>)
    case script(name: String, steps: [ScenarioStepConfig], location: FileLocation)
}

/// One step of a scripted scenario: `launch`, `launch: widget`, `check_availability`,
/// `request: {read: [...], share: [...], answers: {type: {read: granted}}}`, `status: type`,
/// `request_status: {read: [...], share: [...]}`, `query: type`, `settings: {type: {read: granted}}`,
/// `return`, `save: type` (optionally `{type: bodyMass, value: 72.5}`), `lock`, `unlock`.
public struct ScenarioStepConfig: Sendable, Hashable {
    public var action: String
    public var argument: String?
    public var read: [String] = []
    public var share: [String] = []
    public var answers: [String: PermissionGrant] = [:]
    public var value: Double?
    public var location: FileLocation

    public init(action: String, argument: String? = nil, location: FileLocation) {
        self.action = action; self.argument = argument; self.location = location
    }
}
