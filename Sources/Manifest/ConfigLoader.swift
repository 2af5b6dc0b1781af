import Foundation
import Yams

/// Reads `healthaudit.yml` into a `ProjectConfig`, reporting every problem with file, line and key.
public struct ConfigLoader {
    public static let fileName = "healthaudit.yml"
    let fileSystem: FileSystem

    public init(fileSystem: FileSystem = LocalFileSystem()) {
        self.fileSystem = fileSystem
    }

    /// Loads `<siteDirectory>/healthaudit.yml`. Throws an `InputError` listing every problem found.
    public func load(siteDirectory: String) throws -> ProjectConfig {
        let (config, problems) = try loadCollecting(siteDirectory: siteDirectory)
        if !problems.isEmpty { throw InputError(problems) }
        return config
    }

    /// The config as far as it could be read, beside its problems: a bad key elsewhere leaves the
    /// well-formed apps to be loaded, so one run reports the config's problems and theirs together.
    /// Throws only when there is nothing to read (no file, not UTF-8, not YAML).
    public func loadCollecting(siteDirectory: String) throws -> (ProjectConfig, [InputProblem]) {
        let path = siteDirectory + "/" + Self.fileName
        guard fileSystem.fileExists(path) else {
            throw InputError("config not found: every site folder needs a \(Self.fileName)", file: path)
        }
        let data = try fileSystem.contents(of: path)
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError("config is not UTF-8 text", file: path, line: 1)
        }
        // Locations are site-relative like every other input's; `file` keeps the real path.
        var (config, problems) = try parseCollecting(text, file: Self.fileName, siteDirectory: siteDirectory)
        config.file = path
        return (config, problems)
    }

    public func parse(_ text: String, file: String, siteDirectory: String) throws -> ProjectConfig {
        let (config, problems) = try parseCollecting(text, file: file, siteDirectory: siteDirectory)
        if !problems.isEmpty { throw InputError(problems) }
        return config
    }

    /// Every key read; a problem drops only the value (or app) it concerns.
    public func parseCollecting(_ text: String, file: String, siteDirectory: String) throws -> (ProjectConfig, [InputProblem]) {
        let root = try YAMLReader.compose(text, file: file)
        var reader = YAMLReader(file: file)
        reader.lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var config = ProjectConfig(
            file: file, title: ProjectConfig.defaultTitle, baseURL: "", units: .metric, timeZone: "UTC",
            summaries: nil, data: DataSettings(), contentDirectory: siteDirectory + "/content", apps: []
        )
        var sawApps = false
        let boundary = SiteBoundary.of(siteDirectory)
        for (key, keyNode, value) in reader.mapping(root, context: "config", allowed: ConfigKeys.topLevel) {
            switch key {
            case "title": config.title = reader.nonEmptyString(value, key: key) ?? config.title
            case "base_url": config.baseURL = reader.string(value, key: key) ?? ""
            case "source_url":
                if let template = reader.nonEmptyString(value, key: key) {
                    if let problem = SourceLinks.problem(template) { reader.fail("'source_url' \(problem)", value) } else { config.sourceURL = template }
                }
            case "units": config.units = reader.choice(value, key: key, as: UnitSystem.self) ?? .metric
            case "time_zone":
                if let zone = reader.nonEmptyString(value, key: key) {
                    if TimeZone(identifier: zone) == nil { reader.fail("'time_zone' is not a known time zone identifier: '\(zone)'", value) }
                    else { config.timeZone = zone }
                }
            case "content":
                if let folder = reader.nonEmptyString(value, key: key) {
                    config.contentDirectory = contained(folder, in: siteDirectory, node: value, key: key, reader: &reader) ?? config.contentDirectory
                }
            case "summaries": config.summaries = dayRange(value, reader: &reader)
            case "data": config.data = dataSettings(value, reader: &reader)
            case "apps":
                sawApps = true
                var seenIDs: Set<String> = []
                let items = reader.sequence(value, key: key)
                // A bound on total work: 10,000 apps made 1.4 GB of output.
                if items.count > InputLimits.maxApps {
                    reader.fail("apps: \(items.count) apps, over the limit of \(InputLimits.maxApps) per config; split the config", value)
                    continue
                }
                for item in items {
                    guard let app = appConfig(item, siteDirectory: siteDirectory, boundary: boundary, reader: &reader) else { continue }
                    if !seenIDs.insert(app.id).inserted {
                        reader.fail("apps: duplicate app id '\(app.id)'", item)
                        continue
                    }
                    config.apps.append(app)
                }
            case "rules":
                for (rule, ruleNode, level) in reader.mapping(value, context: "rules") {
                    guard let level = reader.choice(level, key: "rules.\(rule)", as: RuleSetting.Level.self) else { continue }
                    config.rules.append(Located(RuleSetting(rule: rule, level: level), at: reader.location(ruleNode)))
                }
            default: reader.fail("unknown key '\(key)'", keyNode)
            }
        }
        for index in config.apps.indices { config.apps[index].rules = config.rules }
        if !sawApps { reader.fail("config: 'apps' is required (a list of the apps to audit)", root) }
        return (config, reader.errors)
    }

    private func dayRange(_ node: Node, reader: inout YAMLReader) -> DayRange? {
        var from: DayDate?, to: DayDate?
        for (key, _, value) in reader.mapping(node, context: "summaries", allowed: ConfigKeys.summaries) {
            if key == "from" { from = reader.day(value, key: "summaries.from") } else { to = reader.day(value, key: "summaries.to") }
        }
        guard let from, let to else {
            reader.fail("summaries: both 'from' and 'to' are required", node)
            return nil
        }
        guard from <= to else {
            reader.fail("summaries: 'from' (\(from)) is after 'to' (\(to))", node)
            return nil
        }
        if DayRange(from: from, to: to).days.count > DayRange.maxDays {
            reader.fail("summaries: the range is longer than \(DayRange.maxDays) days", node)
            return nil
        }
        return DayRange(from: from, to: to)
    }

    private func dataSettings(_ node: Node, reader: inout YAMLReader) -> DataSettings {
        var settings = DataSettings()
        for (key, _, value) in reader.mapping(node, context: "data", allowed: ConfigKeys.data) {
            switch key {
            case "seed": settings.seed = reader.integer(value, key: "data.seed").map { UInt64(truncatingIfNeeded: $0) } ?? 1
            case "date_of_birth": settings.dateOfBirth = reader.day(value, key: "data.date_of_birth")
            default:
                if let sex = reader.string(value, key: "data.biological_sex") {
                    if ConfigKeys.biologicalSexes.contains(sex) { settings.biologicalSex = sex }
                    else { reader.fail("'data.biological_sex' must be one of female | male | other | not_set, found '\(sex)'", value) }
                }
            }
        }
        return settings
    }

    private func contained(_ path: String, in base: String, node: Node, key: String, reader: inout YAMLReader) -> String? {
        do {
            return try ContainedPath.resolve(path, in: base)
        } catch {
            reader.fail("'\(key)': \(error.reason): '\(path)'", node)
            return nil
        }
    }

    private func relativePath(_ node: Node, key: String, reader: inout YAMLReader) -> String? {
        guard let path = reader.nonEmptyString(node, key: key) else { return nil }
        guard contained(path, in: "", node: node, key: key, reader: &reader) != nil else { return nil }
        return path
    }

    /// `boundary`: how far the app's paths may climb (`SiteBoundary.of(siteDirectory)`).
    private func appConfig(_ node: Node, siteDirectory: String, boundary: String, reader: inout YAMLReader) -> AppConfig? {
        let errorsBefore = reader.errors.count
        var app = AppConfig(
            id: "", name: "", kind: .swift, root: siteDirectory, rootInSite: ".", infoPlist: nil, entitlements: nil,
            privacyManifest: nil, localizations: nil, sources: [], buildSettings: [:], requested: RequestedTypes(),
            permissions: [:], extensions: [], ignore: [], location: reader.location(node)
        )
        for (key, _, value) in reader.mapping(node, context: "app", allowed: ConfigKeys.app) {
            let qualified = "apps[].\(key)"
            app.explicitKeys.insert(key)
            switch key {
            case "id":
                if let id = reader.nonEmptyString(value, key: qualified) {
                    if Identifier.isValid(id) { app.id = id } else { reader.fail("'\(qualified)' '\(id)' must match [a-z0-9][a-z0-9-]* (it becomes a folder name)", value) }
                }
            case "name": app.name = reader.nonEmptyString(value, key: qualified) ?? ""
            case "kind": app.kind = reader.choice(value, key: qualified, as: AppKind.self) ?? .swift
            case "root":
                // May climb out of the config's folder, but not out of the repository that holds it.
                if let written = reader.nonEmptyString(value, key: qualified) {
                    // An absolute root inside the repository is the same folder written relative to the config.
                    let root = written.hasPrefix("/") ? Self.relativeToSite(written, siteDirectory: siteDirectory, boundary: boundary) ?? written : written
                    do {
                        app.root = try ContainedPath.resolve(root, in: siteDirectory, within: boundary)
                        app.rootInSite = root
                    } catch {
                        reader.fail("'\(qualified)': \(Self.escapeReason(error, boundary: boundary, siteDirectory: siteDirectory)): '\(written)'", value)
                    }
                }
            case "info_plist": app.infoPlist = relativePath(value, key: qualified, reader: &reader)
            case "entitlements": app.entitlements = relativePath(value, key: qualified, reader: &reader)
            case "privacy_manifest": app.privacyManifest = relativePath(value, key: qualified, reader: &reader)
            case "localizations": app.localizations = relativePath(value, key: qualified, reader: &reader)
            case "sources": app.sources = pathList(value, key: qualified, reader: &reader)
            case "extra_sources": app.extraSources = siblingPaths(value, key: qualified, reader: &reader)
            case "build_settings":
                for (name, _, setting) in reader.mapping(value, context: qualified) {
                    if let text = reader.string(setting, key: "\(qualified).\(name)") {
                        app.buildSettings[name] = text
                        // Cited as evidence where a setting stands for a key (`INFOPLIST_KEY_NSHealthShareUsageDescription`).
                        app.buildSettingOrigins[name] = SettingOrigin(location: reader.location(setting), quote: reader.lineText(setting), level: Self.fileName)
                    }
                }
            case "requested":
                for (kind, _, list) in reader.mapping(value, context: qualified, allowed: ConfigKeys.requested) {
                    let types = typeList(list, key: "\(qualified).\(kind)", reader: &reader)
                    if kind == "read" { app.requested.read = types } else { app.requested.share = types }
                }
            case "permissions": app.permissions = permissions(value, key: qualified, reader: &reader)
            case "extensions":
                app.extensions = reader.sequence(value, key: qualified).compactMap { extensionConfig($0, reader: &reader) }
            case "scenarios": app.scenarios = reader.sequence(value, key: qualified).compactMap { scenario($0, reader: &reader) }
            case "project":
                if let path = relativePath(value, key: qualified, reader: &reader) {
                    if path.hasSuffix(".xcodeproj") || path.hasSuffix(".xcodeproj/") { app.project = Located(path, at: reader.location(value)) }
                    else { reader.fail("'\(qualified)' must name an .xcodeproj folder, found '\(path)'", value) }
                }
            case "xcodegen":
                if let path = relativePath(value, key: qualified, reader: &reader) {
                    if path.hasSuffix(".yml") || path.hasSuffix(".yaml") { app.xcodeGenSpec = Located(path, at: reader.location(value)) }
                    else { reader.fail("'\(qualified)' must name an XcodeGen spec (.yml), found '\(path)'", value) }
                }
            case "tuist":
                if let path = relativePath(value, key: qualified, reader: &reader) {
                    if (path as NSString).lastPathComponent == TuistDiscovery.fileName { app.tuistManifest = Located(path, at: reader.location(value)) }
                    else { reader.fail("'\(qualified)' must name a Tuist manifest (Project.swift), found '\(path)'", value) }
                }
            case "targets": app.targets = reader.strings(value, key: qualified)
            case "configuration": app.configuration = reader.nonEmptyString(value, key: qualified).map { Located($0, at: reader.location(value)) }
            case "ignore":
                app.ignore = reader.sequence(value, key: qualified).compactMap { ignoreEntry($0, reader: &reader) }
            default: break
            }
        }
        if app.id.isEmpty && reader.errors.count == errorsBefore { reader.fail("app: 'id' is required", node) }
        if app.project == nil && !app.kind.traits.findsXcodeProject {
            for key in ["targets", "configuration"] where app.explicitKeys.contains(key) {
                reader.fail("app: '\(key)' needs 'project' (the .xcodeproj whose targets are read)", node)
            }
        }
        if app.name.isEmpty { app.name = app.id }
        // Checked once the root is known (keys come in any order): the repository is the limit.
        for path in app.extraSources + app.extensions.flatMap(\.extraSources) {
            do {
                _ = try ContainedPath.resolve(path.value, in: app.root, within: boundary)
            } catch {
                reader.errors.append(InputProblem("'extra_sources': \(Self.escapeReason(error, boundary: boundary, siteDirectory: siteDirectory)): '\(path.value)'",
                                                  at: path.location))
            }
        }
        return reader.errors.count == errorsBefore ? app : nil
    }

    /// Why a config path is refused, naming the limit that applies: the repository holding the
    /// config, or the config's own folder when no repository holds it.
    private static func escapeReason(_ error: PathEscape, boundary: String, siteDirectory: String) -> String {
        guard error.leavesBoundary else { return error.reason }
        return boundary == siteDirectory ? "the path leaves the config's folder (no git repository holds it)" : "the path leaves the repository that holds the config"
    }

    private func scenario(_ node: Node, reader: inout YAMLReader) -> ScenarioConfig? {
        if case .scalar = node {
            return reader.nonEmptyString(node, key: "scenarios[]").map { .builtIn(Located($0, at: reader.location(node))) }
        }
        var name = "", steps: [ScenarioStepConfig] = []
        for (key, _, value) in reader.mapping(node, context: "scenario", allowed: ConfigKeys.scenario) {
            if key == "name" { name = reader.nonEmptyString(value, key: "scenarios[].name") ?? "" }
            else { steps = reader.sequence(value, key: "scenarios[].steps").compactMap { scenarioStep($0, reader: &reader) } }
        }
        guard !name.isEmpty, !steps.isEmpty else {
            reader.fail("scenario: both 'name' and a non-empty 'steps' list are required", node)
            return nil
        }
        return .script(name: name, steps: steps, location: reader.location(node))
    }

    private func scenarioStep(_ node: Node, reader: inout YAMLReader) -> ScenarioStepConfig? {
        let location = reader.location(node)
        if case .scalar = node {
            guard let action = reader.nonEmptyString(node, key: "steps[]") else { return nil }
            guard ConfigKeys.stepActions.contains(action) else {
                reader.fail("unknown scenario step '\(action)' (known: \(ConfigKeys.stepActions.sorted().joined(separator: ", ")))", node)
                return nil
            }
            return ScenarioStepConfig(action: action, location: location)
        }
        let pairs = reader.mapping(node, context: "scenario step", allowed: ConfigKeys.stepActions)
        guard pairs.count == 1, let (action, _, value) = pairs.first else {
            if reader.errors.isEmpty || pairs.count > 1 { reader.fail("a scenario step names exactly one action", node) }
            return nil
        }
        var step = ScenarioStepConfig(action: action, location: location)
        if case .scalar = value {
            step.argument = reader.string(value, key: "steps[].\(action)")
            return step
        }
        if action == "settings" {
            step.answers = permissions(value, key: "steps[].settings", reader: &reader)
            return step
        }
        for (key, _, field) in reader.mapping(value, context: "steps[].\(action)", allowed: ConfigKeys.stepArguments) {
            switch key {
            case "read": step.read = typeList(field, key: "steps[].\(action).read", reader: &reader).map(\.value)
            case "share": step.share = typeList(field, key: "steps[].\(action).share", reader: &reader).map(\.value)
            case "answers": step.answers = permissions(field, key: "steps[].\(action).answers", reader: &reader)
            case "type": step.argument = reader.string(field, key: "steps[].\(action).type")
            default:
                if let text = reader.string(field, key: "steps[].\(action).value") {
                    if let number = Double(text) { step.value = number } else { reader.fail("'steps[].\(action).value' must be a number", field) }
                }
            }
        }
        return step
    }

    /// An absolute folder written in the config, relative to the site folder when both are in the
    /// repository (compared after resolving symlinks); nil otherwise, so it is refused as absolute.
    static func relativeToSite(_ absolute: String, siteDirectory: String, boundary: String) -> String? {
        guard boundary != siteDirectory, let real = RealPath.of(absolute), let site = RealPath.of(siteDirectory),
              let repository = RealPath.of(boundary), RealPath.isInside(real, repository) else { return nil }
        let relative = SiteBoundary.display(real, site: site)
        return relative.isEmpty ? "." : relative
    }

    /// Relative paths that may climb above the app's root (checked against it in `appConfig`).
    private func siblingPaths(_ node: Node, key: String, reader: inout YAMLReader) -> [Located<String>] {
        reader.strings(node, key: key).filter { path in
            guard path.value.hasPrefix("/") || path.value.hasPrefix("~") else { return true }
            reader.errors.append(InputProblem("'\(key)': absolute paths are not allowed: '\(path.value)'", at: path.location))
            return false
        }
    }

    private func pathList(_ node: Node, key: String, reader: inout YAMLReader) -> [String] {
        reader.sequence(node, key: key).compactMap { relativePath($0, key: key, reader: &reader) }
    }

    private func typeList(_ node: Node, key: String, reader: inout YAMLReader) -> [Located<String>] {
        reader.strings(node, key: key).filter { item in
            if HealthKitType.named(item.value) != nil { return true }
            reader.errors.append(InputProblem("'\(key)': unknown HealthKit type '\(item.value)' (use identifiers such as stepCount, heartRate, sleepAnalysis, dateOfBirth, workout)", at: item.location))
            return false
        }
    }

    private func permissions(_ node: Node, key: String, reader: inout YAMLReader) -> [String: PermissionGrant] {
        var result: [String: PermissionGrant] = [:]
        for (typeName, typeNode, grantNode) in reader.mapping(node, context: key) {
            guard HealthKitType.named(typeName) != nil else {
                reader.fail("'\(key)': unknown HealthKit type '\(typeName)'", typeNode)
                continue
            }
            var grant = PermissionGrant()
            for (access, _, answer) in reader.mapping(grantNode, context: "\(key).\(typeName)", allowed: ConfigKeys.grant) {
                let value = reader.choice(answer, key: "\(key).\(typeName).\(access)", as: PermissionAnswer.self)
                if access == "read" { grant.read = value } else { grant.share = value }
            }
            result[typeName] = grant
        }
        return result
    }

    private func extensionConfig(_ node: Node, reader: inout YAMLReader) -> ExtensionConfig? {
        var config = ExtensionConfig(id: "", name: "", infoPlist: nil, entitlements: nil, sources: [], location: reader.location(node))
        for (key, _, value) in reader.mapping(node, context: "extension", allowed: ConfigKeys.extensionTarget) {
            let qualified = "extensions[].\(key)"
            switch key {
            case "id":
                if let id = reader.nonEmptyString(value, key: qualified) {
                    if Identifier.isValid(id) { config.id = id } else { reader.fail("'\(qualified)' '\(id)' must match [a-z0-9][a-z0-9-]*", value) }
                }
            case "name": config.name = reader.nonEmptyString(value, key: qualified) ?? ""
            case "kind":
                if let kind = reader.nonEmptyString(value, key: qualified) {
                    if ConfigKeys.extensionKinds.contains(kind), let parsed = TargetKind(rawValue: kind) { config.kind = parsed }
                    else { reader.fail("'\(qualified)' '\(kind)' must be 'extension' or 'watch'", value) }
                }
            case "info_plist": config.infoPlist = relativePath(value, key: qualified, reader: &reader)
            case "entitlements": config.entitlements = relativePath(value, key: qualified, reader: &reader)
            case "extra_sources": config.extraSources = siblingPaths(value, key: qualified, reader: &reader)
            default: config.sources = pathList(value, key: qualified, reader: &reader)
            }
        }
        guard !config.id.isEmpty else {
            reader.fail("extension: 'id' is required", node)
            return nil
        }
        if config.name.isEmpty { config.name = config.id }
        return config
    }

    private func ignoreEntry(_ node: Node, reader: inout YAMLReader) -> IgnoreEntry? {
        var rule: String?, path: String?, reason: String?
        for (key, _, value) in reader.mapping(node, context: "ignore", allowed: ConfigKeys.ignore) {
            switch key {
            case "rule": rule = reader.nonEmptyString(value, key: "ignore[].rule")
            case "path": path = relativePath(value, key: "ignore[].path", reader: &reader)
            default: reason = reader.nonEmptyString(value, key: "ignore[].reason")
            }
        }
        guard let rule else { reader.fail("ignore: 'rule' is required", node); return nil }
        guard let reason else { reader.fail("ignore: 'reason' is required (say why the finding is accepted)", node); return nil }
        return IgnoreEntry(rule: rule, path: path, reason: reason, location: reader.location(node))
    }
}

/// The keys of every mapping of `healthaudit.yml` whose keys are a closed set: the loader refuses
/// any other key there. `byPlace` says where each mapping sits, so the tests can hold the JSON
/// Schema (`Site/healthaudit.schema.json`) against the keys the loader really reads.
enum ConfigKeys {
    static let topLevel: Set<String> = ["title", "base_url", "source_url", "units", "time_zone", "content", "summaries", "data", "apps", "rules"]
    static let summaries: Set<String> = ["from", "to"]
    static let data: Set<String> = ["seed", "date_of_birth", "biological_sex"]
    static let app: Set<String> = [
        "id", "name", "kind", "root", "info_plist", "entitlements", "privacy_manifest", "localizations",
        "sources", "extra_sources", "build_settings", "requested", "permissions", "extensions", "ignore", "scenarios",
        "project", "targets", "configuration", "xcodegen", "tuist",
    ]
    static let requested: Set<String> = ["read", "share"]
    /// One type's answers, in `permissions:`, a request's `answers:` and `settings:`.
    static let grant: Set<String> = ["read", "share"]
    static let extensionTarget: Set<String> = ["id", "name", "kind", "info_plist", "entitlements", "sources", "extra_sources"]
    static let ignore: Set<String> = ["rule", "path", "reason"]
    static let scenario: Set<String> = ["name", "steps"]
    /// A scripted step names one action, alone (`- lock`) or with its argument (`- query: stepCount`).
    static let stepActions: Set<String> = [
        "launch", "check_availability", "request", "status", "request_status", "query", "settings", "return", "save", "lock", "unlock",
    ]
    /// The fields of an action's argument written as a mapping (`request: {read: [...], answers: {...}}`).
    static let stepArguments: Set<String> = ["read", "share", "answers", "type", "value"]

    /// Values, not keys, but closed sets too.
    static let biologicalSexes: Set<String> = ["female", "male", "other", "not_set"]
    static let extensionKinds: Set<String> = [TargetKind.appExtension.rawValue, TargetKind.watchApp.rawValue]

    /// Where each mapping sits: `[]` an item of a list, `*` any name (a HealthKit type, an action).
    static let byPlace: [String: Set<String>] = [
        "": topLevel, "summaries": summaries, "data": data,
        "apps[]": app, "apps[].requested": requested, "apps[].permissions.*": grant,
        "apps[].extensions[]": extensionTarget, "apps[].ignore[]": ignore, "apps[].scenarios[]": scenario,
        "apps[].scenarios[].steps[]": stepActions, "apps[].scenarios[].steps[].*": stepArguments,
        "apps[].scenarios[].steps[].*.answers.*": grant, "apps[].scenarios[].steps[].settings.*": grant,
    ]
}

public enum Identifier {
    /// App and extension ids become folder names in the output: keep them to a safe alphabet.
    public static func isValid(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, id.count <= 64 else { return false }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789-")
        return CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789").contains(first)
            && id.unicodeScalars.allSatisfy { allowed.contains($0) }
    }
}
