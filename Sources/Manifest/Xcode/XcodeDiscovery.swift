import Foundation

/// Derives an app's config from its Xcode project: the application target and its embedded
/// extensions, each with the Info.plist (file or generated from `INFOPLIST_KEY_*`), entitlements,
/// Swift sources and build settings of one build configuration.
struct XcodeDiscovery {
    let files: AppFiles

    /// Stands for `$(SRCROOT)` while settings are expanded, so path settings resolve against the
    /// project folder and displayed values show the site-relative folder.
    static let sourceRoot = "\u{1}SRCROOT\u{1}"

    /// Build settings of one target in one configuration, expanded, with where each was written.
    struct TargetSettings {
        var target: XcodeProject.Target
        var configuration: String
        var configurationLine: Int
        var values: [String: String]
        var raw: [String: String]
        var origins: [String: SettingOrigin]
        var unresolved: [String: Set<String>]
        var notes: [DiscoveredFact]
    }

    /// Swift files of a target of another project (a sibling framework), relative to the app root.
    static func swiftSources(of target: XcodeProject.Target, in project: XcodeProject, data: Data, files: AppFiles) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        let reader = Reader(project: project, text: text, lines: TextLines.split(text), files: files, flutter: nil)
        var notes: [DiscoveredFact] = []
        return reader.swiftSources(target, notes: &notes)
    }

    private struct Reader {
        let project: XcodeProject
        let text: String
        let lines: [Substring]
        let files: AppFiles
        /// Read once: every target and configuration gets the same Flutter settings.
        let flutter: SettingLevel?

        func location(_ line: Int) -> FileLocation { FileLocation(file: project.file, line: line) }

        /// The line as written; for a very long line (a minified project) only the part from `offset`,
        /// cut without walking the line, so quoting every setting stays linear.
        func quote(_ line: Int, offset: Int? = nil) -> String {
            guard line >= 1, line <= lines.count else { return "" }
            let written = lines[line - 1]
            guard written.utf8.count > Self.longLine, let offset else {
                return written.utf8.count > Self.longLine ? Self.excerpt(written.utf8.prefix(Self.longLine)) : written.trimmingCharacters(in: .whitespaces)
            }
            let bytes = text.utf8
            guard offset >= 0, offset < bytes.count else { return "" }
            let start = bytes.index(bytes.startIndex, offsetBy: offset)
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")).map { bytes.index(after: $0) } ?? bytes.endIndex
            let cut = bytes[start..<end].prefix(Self.longLine)
            return Self.excerpt(cut)
        }

        static let longLine = 240

        private static func excerpt(_ bytes: Substring.UTF8View.SubSequence) -> String {
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            return text.hasSuffix(";") ? text : text + "…"
        }

        func settings(_ target: XcodeProject.Target, configuration wanted: String) throws -> TargetSettings {
            var notes: [DiscoveredFact] = []
            let own = target.configurations.named(wanted)
                ?? target.configurations.defaultName.flatMap(target.configurations.named)
                ?? target.configurations.configurations.first
            if let own, own.name != wanted {
                notes.append(DiscoveredFact("target \(target.name) has no '\(wanted)' configuration; its '\(own.name)' settings are read",
                                            origin: "target \(target.name)", location: location(target.line), isNote: true))
            }
            let name = own?.name ?? wanted
            let projectConfiguration = project.configurations.named(name)
            var levels: [SettingLevel] = []
            func level(_ configuration: XcodeProject.Configuration?, label: String) throws {
                guard let configuration else { return }
                var level = SettingLevel(name: label)
                for setting in configuration.settings {
                    level.add(setting.key, setting.value, origin: SettingOrigin(location: location(setting.line), quote: quote(setting.line, offset: setting.offset), level: label))
                }
                levels.append(level)
                if let base = configuration.baseConfiguration { levels += try xcconfig(base, label: label, notes: &notes) }
            }
            try level(own, label: "target \(target.name) (\(name))")
            try level(projectConfiguration, label: "project (\(name))")
            if let flutter { levels.append(flutter) }
            levels.append(defaults(target, configuration: name))
            var resolver = BuildSettingResolver(levels: levels)
            let (values, origins) = resolver.resolveAll()
            for (key, problem) in resolver.problems.sorted(by: { $0.key < $1.key }) {
                notes.append(DiscoveredFact("\(key) \(problem)", origin: origins[key]?.level ?? "target \(target.name) (\(name))",
                                            location: origins[key]?.location, isNote: true))
            }
            var raw: [String: String] = [:]
            for key in values.keys { raw[key] = levels.lazy.compactMap { $0.settings[key]?.value }.first }
            return TargetSettings(target: target, configuration: name, configurationLine: own?.line ?? target.line, values: values, raw: raw,
                                  origins: origins, unresolved: resolver.unresolved, notes: notes)
        }

        private func xcconfig(_ base: XcodeProject.ResolvedFile, label: String, notes: inout [DiscoveredFact]) throws -> [SettingLevel] {
            guard let path = base.path else {
                notes.append(DiscoveredFact("\(base.name) (base configuration of \(label)) is not read: \(base.reason ?? "outside the project")",
                                            origin: label, location: location(base.line), isNote: true))
                return []
            }
            if path.split(separator: "/").contains(where: { AppFiles.skippedFolders.contains(String($0)) }) {
                notes.append(DiscoveredFact("\(files.display(path)) (base configuration of \(label)) belongs to a dependency manager and is not read",
                                            origin: label, location: location(base.line)))
                return []
            }
            var messages: [String] = []
            let lines = try XCConfigFile.parse(path: path, display: files.display, read: files.text, unreadable: files.refusal, notes: &messages)
            notes += messages.map { DiscoveredFact($0, origin: label, location: location(base.line), isNote: true) }
            guard !lines.isEmpty else { return [] }
            var level = SettingLevel(name: files.display(path))
            for line in lines {
                level.add(line.key, line.value, origin: SettingOrigin(location: FileLocation(file: line.file, line: line.line), quote: line.text, level: line.file))
            }
            return [level]
        }

        /// What Flutter's uncommitted `Flutter/Generated.xcconfig` would set, from the `pubspec.yaml`
        /// beside the `ios/` folder: `version: 1.2.0+7` is FLUTTER_BUILD_NAME 1.2.0 and FLUTTER_BUILD_NUMBER 7.
        static func flutterGenerated(_ project: XcodeProject, files: AppFiles) -> SettingLevel? {
            let iosFolder = project.projectDirectory
            guard !iosFolder.isEmpty, iosFolder != ".", let appFolder = AppFiles.normalize(AppFiles.join(iosFolder, "..")) else { return nil }
            let pubspec = AppFiles.join(appFolder, "pubspec.yaml")
            guard let text = files.text(pubspec) else { return nil }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard let index = lines.firstIndex(where: { $0.hasPrefix("version:") }) else { return nil }
            var version = lines[index].dropFirst("version:".count).split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
            version = version.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r\"'"))
            let parts = version.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let name = parts.first, !name.isEmpty else { return nil }
            let label = "\(files.display(pubspec)) (Flutter/Generated.xcconfig)"
            let origin = SettingOrigin(location: FileLocation(file: files.display(pubspec), line: index + 1), quote: String(lines[index]), level: label)
            var level = SettingLevel(name: label)
            level.add("FLUTTER_BUILD_NAME", name, origin: origin)
            // Without `+N` Flutter builds with the version name as the build number.
            level.add("FLUTTER_BUILD_NUMBER", parts.count > 1 && !parts[1].isEmpty ? parts[1] : name, origin: origin)
            return level
        }

        /// Settings Xcode defines itself. They expand an undefined variable to nothing, as Xcode does.
        private func defaults(_ target: XcodeProject.Target, configuration: String) -> SettingLevel {
            var level = SettingLevel(name: "Xcode default", lenient: true)
            let isExtension = target.kind == .appExtension || target.kind == .watchExtension
            let values: [(String, String)] = [
                ("TARGET_NAME", target.name), ("PROJECT_NAME", project.name), ("CONFIGURATION", configuration),
                ("SRCROOT", XcodeDiscovery.sourceRoot), ("PROJECT_DIR", XcodeDiscovery.sourceRoot), ("SOURCE_ROOT", XcodeDiscovery.sourceRoot),
                ("DEVELOPMENT_LANGUAGE", project.developmentRegion ?? "en"),
                ("EXECUTABLE_PREFIX", ""), ("EXECUTABLE_SUFFIX", ""),
                ("EXECUTABLE_NAME", "$(EXECUTABLE_PREFIX)$(PRODUCT_NAME)$(EXECUTABLE_SUFFIX)"),
                ("PRODUCT_MODULE_NAME", "$(PRODUCT_NAME:c99extidentifier)"),
                ("PRODUCT_BUNDLE_PACKAGE_TYPE", isExtension ? "XPC!" : target.kind == .tests || target.kind == .framework ? "BNDL" : "APPL"),
                ("WRAPPER_EXTENSION", isExtension ? "appex" : "app"),
                ("FULL_PRODUCT_NAME", "$(PRODUCT_NAME).$(WRAPPER_EXTENSION)"),
                ("SDKROOT", "iphoneos"), ("PLATFORM_NAME", "iphoneos"),
            ]
            for (key, value) in values { level.add(key, value, origin: nil) }
            return level
        }

        /// A path setting (`$(SRCROOT)/Runner/Info.plist`, `Runner/Runner.entitlements`) relative to the app root.
        func path(_ value: String) -> String? {
            var rest = value
            if rest.hasPrefix(XcodeDiscovery.sourceRoot) { rest = String(rest.dropFirst(XcodeDiscovery.sourceRoot.count)).drop { $0 == "/" }.description }
            guard !rest.hasPrefix("/"), !rest.contains("$("), !rest.contains("${"), !rest.isEmpty else { return nil }
            return AppFiles.normalize(AppFiles.join(project.projectDirectory, rest))
        }

        /// Why `path(value)` found no file to read, in words: a reference no level defines, a path
        /// outside the repository (said alike whether it exists or not; it is never opened), an
        /// absolute path inside it, or one leaving the app folder.
        func unreadable(_ value: String) -> String {
            var rest = value
            if rest.hasPrefix(XcodeDiscovery.sourceRoot) { rest = String(rest.dropFirst(XcodeDiscovery.sourceRoot.count)).drop { $0 == "/" }.description }
            if rest.isEmpty || rest.contains("$(") || rest.contains("${") { return "cannot be resolved inside the app folder" }
            let absolute = rest.hasPrefix("/") ? rest : ((files.absolute(project.projectDirectory) + "/" + rest) as NSString).standardizingPath
            let repository = ProjectRoot.containing(files.app.root)
            guard let real = RealPath.of(absolute), RealPath.isInside(real, repository) else { return "lies outside the repository; not read" }
            return rest.hasPrefix("/") ? "is an absolute path; write it relative to $(SRCROOT), as only files in the app folder are read"
                : "leaves the app folder; not read (set the app's `root:` to a folder holding it)"
        }

        /// Settings as the config's `build_settings` holds them: `$(SRCROOT)` shown as the project folder.
        func displayed(_ values: [String: String]) -> [String: String] {
            let folder = files.display(project.projectDirectory)
            return values.mapValues { $0.replacingOccurrences(of: XcodeDiscovery.sourceRoot, with: folder) }
        }

        /// Xcode's generated Info.plist: one key per `INFOPLIST_KEY_*` setting, each citing its line.
        func generatedInfoPlist(_ settings: TargetSettings) -> PropertyListDocument {
            var root: [String: PlistValue] = [:], keyLines: [String: Int] = [:]
            for key in settings.raw.keys.sorted() where key.hasPrefix("INFOPLIST_KEY_") {
                let plistKey = String(key.dropFirst("INFOPLIST_KEY_".count))
                root[plistKey] = Self.plistValue(plistKey, settings.raw[key]!)
                if let origin = settings.origins[key], origin.location.file == project.file { keyLines[plistKey] = origin.location.line }
            }
            let generateLine = settings.origins["GENERATE_INFOPLIST_FILE"].flatMap { $0.location.file == project.file ? $0.location.line : nil }
            return .synthesized(path: project.file, format: .buildSettings, root: root, keyLines: keyLines,
                                rootLine: generateLine ?? settings.configurationLine, text: text)
        }

        private static let listKeys: Set<String> = [
            "UISupportedInterfaceOrientations", "UISupportedInterfaceOrientations_iPad", "UISupportedInterfaceOrientations_iPhone",
            "UIRequiredDeviceCapabilities", "UIBackgroundModes",
        ]

        static func plistValue(_ key: String, _ raw: String) -> PlistValue {
            if key.hasSuffix("UsageDescription") || key.hasSuffix("DisplayName") { return .string(raw) }
            if raw == "YES" || raw == "NO" { return .bool(raw == "YES") }
            if listKeys.contains(key) { return .array(raw.split(separator: " ").map { .string(String($0)) }) }
            return .string(raw)
        }

        /// Framework and library targets of the same project the target depends on, transitively: apps
        /// keep their HealthKit code in a shared framework linked by the app and its extensions.
        func linkedFrameworks(of target: XcodeProject.Target) -> [XcodeProject.Target] {
            var found: [XcodeProject.Target] = []
            var pending = target.dependencies
            var seen: Set<String> = [target.id]
            while let id = pending.first {
                pending.removeFirst()
                guard seen.insert(id).inserted, let dependency = project.targets.first(where: { $0.id == id }),
                      dependency.kind == .framework else { continue }
                found.append(dependency)
                pending += dependency.dependencies
            }
            return found
        }

        /// Swift files of the target: its Sources build phase and Xcode 16's synchronized folders.
        func swiftSources(_ target: XcodeProject.Target, notes: inout [DiscoveredFact]) -> [String] {
            var result: [String] = []
            for file in project.files(of: target, phase: "PBXSourcesBuildPhase") where file.name.hasSuffix(".swift") {
                guard let path = file.path else {
                    notes.append(DiscoveredFact("\(file.name) in the Sources phase of \(target.name) is not read: \(file.reason ?? "outside the project")",
                                                origin: "target \(target.name), PBXSourcesBuildPhase", location: location(file.line), isNote: true))
                    continue
                }
                if path.split(separator: "/").contains(where: { AppFiles.skippedFolders.contains(String($0)) }) { continue }
                if !file.otherPaths.isEmpty {
                    notes.append(DiscoveredFact("\(file.name) is listed in several groups; read as \(files.display(path)) (the first in the group tree), not "
                                                + file.otherPaths.map(files.display).joined(separator: ", "),
                                                origin: "target \(target.name), PBXSourcesBuildPhase", location: location(file.line), isNote: true))
                }
                guard files.exists(path) else {
                    notes.append(DiscoveredFact("\(files.display(path)) is in the Sources phase of \(target.name) but not on disk",
                                                origin: "target \(target.name), PBXSourcesBuildPhase", location: location(file.line), isNote: true))
                    continue
                }
                result.append(path)
            }
            for (folder, _) in project.synchronizedFolders(of: target) where folder.path == nil {
                notes.append(DiscoveredFact("synchronized folder \(folder.name) of \(target.name) is not read: \(folder.reason ?? "outside the project")",
                                            origin: "target \(target.name), fileSystemSynchronizedGroups", location: location(folder.line), isNote: true))
            }
            result += synchronizedFiles(target) { $0.hasSuffix(".swift") }
            var seen: Set<String> = []
            return result.filter { seen.insert($0).inserted }
        }

        /// Files of the target's synchronized folders (Xcode 16) that `include` accepts, less the
        /// folders' exceptions; a folder outside the project is skipped (`swiftSources` notes it).
        func synchronizedFiles(_ target: XcodeProject.Target, where include: (String) -> Bool) -> [String] {
            project.synchronizedFolders(of: target).flatMap { folder, excluded -> [String] in
                guard let path = folder.path else { return [] }
                return ((try? files.files(under: path)) ?? []).filter { file in
                    include(file) && !excluded.contains(path == "." ? file : String(file.dropFirst(path.count + 1)))
                }
            }
        }

        func privacyManifest(_ target: XcodeProject.Target) -> String? {
            let resource = project.files(of: target, phase: "PBXResourcesBuildPhase").first { $0.name == "PrivacyInfo.xcprivacy" }
            if let path = resource?.path, files.exists(path) { return path }
            return synchronizedFiles(target) { $0.hasSuffix("/PrivacyInfo.xcprivacy") || $0 == "PrivacyInfo.xcprivacy" }.first
        }
    }

    // MARK: Discovery

    func discover(project written: String, at location: FileLocation, into discovery: inout Discovery) throws {
        guard let projectPath = AppFiles.normalize(written.hasSuffix("/") ? String(written.dropLast()) : written) else {
            throw InputError("'project' must stay inside the app folder: '\(written)'", at: location)
        }
        let pbxproj = AppFiles.join(projectPath, "project.pbxproj")
        guard files.exists(pbxproj) else {
            if files.isDirectory(projectPath) {
                throw InputError("'\(files.display(projectPath))' holds no project.pbxproj (not committed?), and no project.yml or Project.swift is beside it: "
                                 + "there is no Xcode project to read", at: location)
            }
            throw InputError("Xcode project not found: '\(files.display(pbxproj))' does not exist", at: location)
        }
        let data = try files.read(pbxproj)
        let display = files.display(pbxproj)
        discovery.inputs.append(display)
        let project = try XcodeProject(data: data, file: display, projectPath: projectPath)
        let text = String(decoding: data, as: UTF8.self)
        let reader = Reader(project: project, text: text, lines: TextLines.split(text), files: files,
                            flutter: Reader.flutterGenerated(project, files: files))
        let app = discovery.config
        func explicit(_ key: String) -> Bool { app.explicitKeys.contains(key) }

        discovery.fact("Xcode project \(project.name).xcodeproj: " + project.targets.map { "\($0.name) (\($0.kind.rawValue))" }.joined(separator: ", "),
                       origin: "PBXProject", at: reader.location(project.projectLine))

        // The build configuration.
        let names = project.configurations.configurations.map(\.name)
        let configuration: String
        let others = { (chosen: String) in names.filter { $0 != chosen } }
        if let wanted = app.configuration {
            guard names.contains(wanted.value) else {
                throw InputError("configuration '\(wanted.value)' is not in \(project.name).xcodeproj (it has: \(names.joined(separator: ", ")))", at: wanted.location)
            }
            configuration = wanted.value
            discovery.fact("Configuration \(configuration), as the config asks" + Self.also(others(configuration)), origin: "configuration in \(ConfigLoader.fileName)", at: wanted.location)
        } else if let chosen = project.configurations.defaultName.flatMap({ names.contains($0) ? $0 : nil }) ?? (names.contains("Release") ? "Release" : names.first) {
            configuration = chosen
            let why = project.configurations.defaultName == chosen ? "the project's default" : "no default named; Release or the first"
            discovery.fact("Configuration \(chosen) (\(why))" + Self.also(others(chosen)), origin: "XCConfigurationList defaultConfigurationName",
                           at: reader.location(project.projectLine))
        } else {
            throw InputError("the project has no build configurations", file: display, line: project.projectLine)
        }

        // The targets.
        let main: XcodeProject.Target
        var extensions: [XcodeProject.Target]
        // watchOS apps since Xcode 14 are plain application targets built for `watchos`.
        var watchTargets: Set<String> = Set(project.targets.filter { $0.kind == .watchApp || $0.kind == .watchExtension }.map(\.id))
        for target in project.targets where target.kind == .application {
            if try reader.settings(target, configuration: configuration).values["SDKROOT"]?.lowercased() == "watchos" { watchTargets.insert(target.id) }
        }
        if !app.targets.isEmpty {
            let selected = try app.targets.map { name -> XcodeProject.Target in
                guard let target = project.targets.first(where: { $0.name == name.value }) else {
                    throw InputError("target '\(name.value)' is not in \(project.name).xcodeproj (targets: \(project.targets.map(\.name).joined(separator: ", ")))", at: name.location)
                }
                return target
            }
            guard let first = selected.first(where: { $0.kind == .application || $0.kind == .watchApp }) else {
                throw InputError("none of the listed targets is an application; list the app target first", at: app.targets[0].location)
            }
            main = first
            extensions = selected.filter { $0.id != first.id }
        } else {
            let applications = project.targets.filter { $0.kind == .application && !watchTargets.contains($0.id) }
            guard let first = applications.first ?? project.targets.first(where: { $0.kind == .application }) else {
                throw InputError("\(project.name).xcodeproj has no application target (targets: \(project.targets.map(\.name).joined(separator: ", "))); name the targets with 'targets:'", at: location)
            }
            main = first
            if applications.count > 1 {
                discovery.note("several application targets (\(applications.map(\.name).joined(separator: ", "))): auditing \(first.name), the first; choose with 'targets:'",
                               origin: "PBXProject targets", at: reader.location(project.projectLine))
            }
            // What the app embeds, directly or through its watch app: extensions (widgets, intents,
            // complications) and the watch app, each audited as a target of this app.
            let embedded = Self.reachable(from: first, in: project)
            let candidates = project.targets.filter { $0.kind == .appExtension }
            extensions = embedded.isEmpty ? candidates : candidates.filter { embedded.contains($0.id) }
            extensions += project.targets.filter { watchTargets.contains($0.id) && $0.id != first.id && embedded.contains($0.id) }
            for target in project.targets where target.id != first.id && !extensions.contains(where: { $0.id == target.id }) {
                switch target.kind {
                case .watchApp, .watchExtension:
                    discovery.note("\(target.name) (\(target.kind.rawValue)) is not audited with the phone app: a watch app asks for HealthKit access itself; audit it as its own app with 'targets: [\(target.name)]'",
                                   origin: "target \(target.name)", at: reader.location(target.line))
                case .appExtension:
                    discovery.note("\(target.name) (app extension) is not a dependency of \(first.name), so it is not audited with it",
                                   origin: "target \(target.name)", at: reader.location(target.line))
                default:
                    discovery.fact("\(target.name) (\(target.kind.rawValue)) is not audited", origin: "target \(target.name)", at: reader.location(target.line))
                }
            }
        }

        // The app target.
        let settings = try reader.settings(main, configuration: configuration)
        discovery.facts += settings.notes
        let label = "target \(main.name) (\(settings.configuration))"
        func origin(_ key: String) -> (String, FileLocation?) {
            let where_ = settings.origins[key]
            return (where_.map { "\($0.level), \(key)" } ?? "\(label), \(key) (Xcode default)", where_?.location)
        }
        discovery.fact("App target \(main.name) (\(main.productType))", origin: "PBXNativeTarget", at: reader.location(main.line))
        var usedPlists: Set<String> = []
        let generates = settings.values["GENERATE_INFOPLIST_FILE"]?.uppercased() == "YES"
        let infoKeys = settings.values.keys.filter { $0.hasPrefix("INFOPLIST_KEY_") }.sorted()
        if let written = settings.values["INFOPLIST_FILE"], !written.isEmpty {
            let (source, at) = origin("INFOPLIST_FILE")
            guard let path = reader.path(written) else {
                throw InputError("INFOPLIST_FILE '\(settings.raw["INFOPLIST_FILE"] ?? written)' of \(main.name) \(reader.unreadable(written))", at: at ?? location)
            }
            usedPlists.insert(path)
            if explicit("info_plist") {
                discovery.note("info_plist in the config (\(app.infoPlist ?? "")) overrides INFOPLIST_FILE \(files.display(path))", origin: source, at: at)
            } else {
                if !files.exists(path), generates {
                    // Half committed (a git-ignored plist of secrets beside INFOPLIST_KEY_* settings): the
                    // settings' keys are read, and a key not among them may be in the missing file.
                    discovery.infoPlists[app.id] = reader.generatedInfoPlist(settings)
                    discovery.uncommittedInfoPlists[app.id] = files.display(path)
                    discovery.note("INFOPLIST_FILE \(files.display(path)) is not in the repository (not committed?): the Info.plist is read from "
                                   + "\(Plural.count(infoKeys.count, "INFOPLIST_KEY_* setting")) (GENERATE_INFOPLIST_FILE = YES), and keys only that file sets are unknown",
                                   origin: source, at: at)
                } else {
                    guard files.exists(path) else {
                        throw InputError("INFOPLIST_FILE of \(main.name): '\(files.display(path))' does not exist", at: at ?? location)
                    }
                    discovery.config.infoPlist = path
                    discovery.fact("Info.plist \(files.display(path))" + (generates ? ", merged with \(Plural.count(infoKeys.count, "INFOPLIST_KEY_* setting")) (GENERATE_INFOPLIST_FILE = YES)" : ""),
                                   origin: source, at: at)
                }
            }
        } else if generates {
            let (source, at) = origin("GENERATE_INFOPLIST_FILE")
            if !explicit("info_plist") {
                discovery.infoPlists[app.id] = reader.generatedInfoPlist(settings)
                discovery.fact("Info.plist generated by Xcode from \(Plural.count(infoKeys.count, "INFOPLIST_KEY_* setting")) (GENERATE_INFOPLIST_FILE = YES, no INFOPLIST_FILE)",
                               origin: source, at: at)
            }
        } else if !explicit("info_plist") {
            discovery.note("\(main.name) sets neither INFOPLIST_FILE nor GENERATE_INFOPLIST_FILE in \(settings.configuration): Xcode would build it without an Info.plist",
                           origin: label, at: reader.location(settings.configurationLine))
        }
        for key in infoKeys {
            let (source, at) = origin(key)
            discovery.fact("\(key.dropFirst("INFOPLIST_KEY_".count)) = \(Self.clip(settings.values[key] ?? ""))", origin: source, at: at)
        }
        for (key, variables) in settings.unresolved.sorted(by: { $0.key < $1.key }) where key.hasPrefix("INFOPLIST_") || key.hasPrefix("PRODUCT_") || key == "CODE_SIGN_ENTITLEMENTS" {
            let (source, at) = origin(key)
            discovery.note("\(key) uses \(variables.sorted().map { "$(\($0))" }.joined(separator: ", ")), which no level of the project defines",
                           origin: source, at: at)
        }

        if let written = settings.values["CODE_SIGN_ENTITLEMENTS"], !written.isEmpty {
            let (source, at) = origin("CODE_SIGN_ENTITLEMENTS")
            if explicit("entitlements") {
                discovery.note("entitlements in the config (\(app.entitlements ?? "")) override CODE_SIGN_ENTITLEMENTS \(written)", origin: source, at: at)
            } else if let path = reader.path(written) {
                guard files.exists(path) else {
                    throw InputError("CODE_SIGN_ENTITLEMENTS of \(main.name): '\(files.display(path))' does not exist", at: at ?? location)
                }
                discovery.config.entitlements = path
                discovery.fact("Entitlements \(files.display(path))", origin: source, at: at)
            } else {
                throw InputError("CODE_SIGN_ENTITLEMENTS of \(main.name): '\(written.replacingOccurrences(of: Self.sourceRoot, with: "$(SRCROOT)"))' \(reader.unreadable(written))", at: at ?? location)
            }
        } else if !explicit("entitlements") {
            let folder = project.folder(of: main) ?? "."
            let candidates = ((try? files.files(under: folder)) ?? []).filter { $0.hasSuffix(".entitlements") }.sorted()
            if candidates.isEmpty {
                discovery.fact("No CODE_SIGN_ENTITLEMENTS: \(main.name) has no entitlements (no HealthKit capability)", origin: label, at: reader.location(settings.configurationLine))
                discovery.entitlementsUnsetAt = reader.location(settings.configurationLine)
            } else {
                discovery.entitlementCandidates = candidates
                discovery.note("No CODE_SIGN_ENTITLEMENTS in the project, but \(candidates.joined(separator: ", ")) exist: the entitlements are chosen elsewhere (an uncommitted .xcconfig?), so the HealthKit entitlement cannot be checked; name one with `entitlements:`",
                               origin: label, at: reader.location(settings.configurationLine))
            }
        }

        var sourceNotes: [DiscoveredFact] = []
        // A framework linked by the app and several extensions is listed (and its problems noted) once.
        var listedFrameworks: [String: [String]] = [:]
        func frameworkSources(_ framework: XcodeProject.Target, notes: inout [DiscoveredFact]) -> [String] {
            if let listed = listedFrameworks[framework.id] { return listed }
            let listed = reader.swiftSources(framework, notes: &notes)
            listedFrameworks[framework.id] = listed
            return listed
        }
        if !explicit("sources") {
            discovery.config.sources = reader.swiftSources(main, notes: &sourceNotes)
            discovery.fact("\(Plural.count(discovery.config.sources.count, "Swift file")) from the Sources build phase", origin: "target \(main.name), PBXSourcesBuildPhase",
                           at: reader.location(main.line))
            for framework in reader.linkedFrameworks(of: main) {
                let own = Set(discovery.config.sources)
                let added = frameworkSources(framework, notes: &sourceNotes).filter { !own.contains($0) }
                discovery.config.sources += added
                discovery.fact("\(Plural.count(added.count, "Swift file")) from the linked framework target \(framework.name)",
                               origin: "target \(framework.name), PBXSourcesBuildPhase", at: reader.location(framework.line))
            }
            // Local Swift packages and development pods: the app's own code outside the project's targets.
            let local = LocalDependencies(files: files)
            let linked = project.localPackages(of: main)
            var packages = linked.map { ($0.path, reader.location($0.line)) }
            let unreferenced = project.unreferencedPackageProducts(of: main)
            if !unreferenced.isEmpty {
                packages += project.folderReferences().filter { files.exists(AppFiles.join($0.path, "Package.swift")) }.map { ($0.path, reader.location($0.line)) }
                // A `Package.swift` beside the project (or above it, in the app folder) that makes the product.
                var folder = project.projectDirectory
                while true {
                    let manifest = AppFiles.join(folder, "Package.swift")
                    if let text = files.text(manifest), unreferenced.contains(where: PackageManifestScan(text: text).mayMake),
                       !packages.contains(where: { AppFiles.normalize($0.0) == AppFiles.normalize(folder) }) {
                        packages.append((folder, FileLocation(file: files.display(manifest), line: 1)))
                    }
                    if folder == "." || folder.isEmpty { break }
                    folder = (folder as NSString).deletingLastPathComponent
                    if folder.isEmpty { folder = "." }
                }
            }
            let packaged = local.packageSources(packages, products: Dictionary(linked.map { ($0.path, $0.products) }) { a, b in a + b }, into: &discovery)
            let pods = local.podSources(podfile: AppFiles.join(project.projectDirectory, "Podfile"), into: &discovery)
            // Frameworks built by another project of the repository (a workspace sibling, a
            // checked-out dependency): linked by name, their code is the app's too.
            let own = Set(project.targets.map(\.name))
            let linkedNames = ([main] + reader.linkedFrameworks(of: main)).flatMap { project.files(of: $0, phase: "PBXFrameworksBuildPhase") }
                .map(\.name).filter { $0.hasSuffix(".framework") }.map { String($0.dropLast(".framework".count)) }.filter { !own.contains($0) }
            let siblings = SiblingProjects(files: files).frameworkSources(named: Array(Set(linkedNames)).sorted(), besides: projectPath, into: &discovery)
            var seen = Set(discovery.config.sources)
            let dependencies = (packaged + pods + siblings).filter { seen.insert($0).inserted }
            discovery.config.sources += dependencies
            discovery.config.dependencySources = Set(dependencies)
        }
        if !explicit("privacy_manifest"), let privacy = reader.privacyManifest(main) {
            discovery.config.privacyManifest = privacy
            discovery.fact("Privacy manifest \(files.display(privacy))", origin: "target \(main.name), PBXResourcesBuildPhase", at: reader.location(main.line))
        }
        let folder = project.folder(of: main)
        if !explicit("localizations"), discovery.config.infoPlist == nil, let folder {
            discovery.config.localizations = folder
        }
        if !explicit("localizations") {
            // Where the target really keeps them: an `InfoPlist.xcstrings` beside the sources while
            // the Info.plist is generated, `*.lproj` folders in a Resources group.
            let found = project.localizedResources(of: main).compactMap(\.path).filter(files.exists)
                + reader.synchronizedFiles(main) { $0.hasSuffix(".xcstrings") || ($0.hasSuffix(".strings") && $0.contains(".lproj/")) }
            var seen: Set<String> = []
            discovery.config.localizationFiles = found.filter { seen.insert($0).inserted }
            discovery.config.localizationsListedByProject = true
            if !found.isEmpty {
                discovery.fact("\(Plural.count(seen.count, "localized strings file")) from \(main.name)'s resources", origin: "target \(main.name), PBXResourcesBuildPhase",
                               at: reader.location(main.line))
            }
        }

        for key in ["PRODUCT_NAME", "PRODUCT_BUNDLE_IDENTIFIER", "TARGETED_DEVICE_FAMILY"] {
            let (source, at) = origin(key)
            if let value = settings.values[key] {
                var text = "\(key) = \(value)"
                if key == "TARGETED_DEVICE_FAMILY" {
                    let families = value.split(separator: ",").compactMap { ["1": "iPhone", "2": "iPad", "3": "Apple TV", "4": "Apple Watch", "6": "Mac Catalyst", "7": "Apple Vision"][$0.trimmingCharacters(in: .whitespaces)] }
                    if !families.isEmpty { text += " (\(families.joined(separator: ", ")))" }
                }
                discovery.fact(text, origin: source, at: at)
            } else if key == "PRODUCT_NAME" {
                discovery.note("PRODUCT_NAME is not set for \(main.name) in \(settings.configuration): $(PRODUCT_NAME) expands to nothing", origin: label,
                               at: reader.location(settings.configurationLine))
            }
        }

        // Differences between configurations in what the audit reads.
        let watched = ["INFOPLIST_FILE", "GENERATE_INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS"] + settings.values.keys.filter { $0.hasPrefix("INFOPLIST_KEY_NSHealth") }.sorted()
        for other in main.configurations.configurations.map(\.name) where other != settings.configuration {
            let alternative = try reader.settings(main, configuration: other)
            if let path = alternative.values["INFOPLIST_FILE"].flatMap(reader.path) { usedPlists.insert(path) }
            let keys = Set(watched + alternative.values.keys.filter { $0.hasPrefix("INFOPLIST_KEY_NSHealth") })
            for key in keys.sorted() where alternative.values[key] != settings.values[key] {
                let shown = { (value: String?) in value.map { "“\(Self.clip($0.replacingOccurrences(of: Self.sourceRoot, with: "$(SRCROOT)")))”" } ?? "unset" }
                discovery.note("\(other) sets \(key) to \(shown(alternative.values[key])); the audited \(settings.configuration) has \(shown(settings.values[key]))",
                               origin: alternative.origins[key]?.level ?? "target \(main.name) (\(other))", at: alternative.origins[key]?.location)
            }
        }

        // The extensions.
        var extensionConfigs: [ExtensionConfig] = []
        var taken: Set<String> = [app.id]
        for target in extensions {
            let ext = try reader.settings(target, configuration: configuration)
            discovery.facts += ext.notes
            let id = ProjectDiscovery.identifier(for: target.name, taken: taken)
            taken.insert(id)
            var config = ExtensionConfig(id: id, name: target.name, infoPlist: nil, entitlements: nil, sources: [], location: reader.location(target.line))
            config.kind = watchTargets.contains(target.id) ? .watchApp : .appExtension
            config.compilationConditions = Self.compilationConditions(ext.values)
            var parts: [String] = []
            if let written = ext.values["INFOPLIST_FILE"], !written.isEmpty, let path = reader.path(written) {
                usedPlists.insert(path)
                if !files.exists(path), ext.values["GENERATE_INFOPLIST_FILE"]?.uppercased() == "YES" {
                    discovery.infoPlists[id] = reader.generatedInfoPlist(ext)
                    discovery.uncommittedInfoPlists[id] = files.display(path)
                    parts.append("Info.plist generated from build settings; INFOPLIST_FILE \(files.display(path)) is not in the repository (not committed?)")
                } else {
                    guard files.exists(path) else {
                        throw InputError("INFOPLIST_FILE of \(target.name): '\(files.display(path))' does not exist", at: ext.origins["INFOPLIST_FILE"]?.location ?? reader.location(target.line))
                    }
                    config.infoPlist = path
                    parts.append("Info.plist \(files.display(path))")
                    // Xcode merges the target's INFOPLIST_KEY_* settings into that file.
                    if ext.values["GENERATE_INFOPLIST_FILE"]?.uppercased() == "YES" {
                        discovery.mergedInfoPlistKeys[id] = reader.generatedInfoPlist(ext)
                        let count = ext.values.keys.filter { $0.hasPrefix("INFOPLIST_KEY_") }.count
                        if count > 0 { parts.append("merged with \(Plural.count(count, "INFOPLIST_KEY_* setting"))") }
                    }
                }
            } else if ext.values["GENERATE_INFOPLIST_FILE"]?.uppercased() == "YES" {
                discovery.infoPlists[id] = reader.generatedInfoPlist(ext)
                parts.append("Info.plist generated from build settings")
            }
            if let written = ext.values["CODE_SIGN_ENTITLEMENTS"], !written.isEmpty, let path = reader.path(written), files.exists(path) {
                config.entitlements = path
                parts.append("entitlements \(files.display(path))")
            }
            config.sources = reader.swiftSources(target, notes: &sourceNotes)
            parts.append("\(Plural.count(config.sources.count, "Swift file"))")
            // Frameworks it links: code the app compiles too is not read twice, only remembered.
            let appSources = Set(discovery.config.sources), own = Set(config.sources)
            let frameworks = reader.linkedFrameworks(of: target)
            let linked = frameworks.flatMap { frameworkSources($0, notes: &sourceNotes) }.filter { !own.contains($0) }
            config.linkedSources = linked.filter(appSources.contains)
            config.sources += linked.filter { !appSources.contains($0) }
            if !linked.isEmpty {
                parts.append("\(linked.count) from linked frameworks (\(frameworks.map(\.name).joined(separator: ", ")))")
            }
            extensionConfigs.append(config)
            discovery.fact("\(config.kind == .watchApp ? "Watch" : "Extension") target \(target.name) (\(target.productType)), audited as '\(id)': " + parts.joined(separator: ", "),
                           origin: "target \(target.name) (\(ext.configuration))", at: reader.location(target.line))
        }
        if explicit("extensions") {
            if !extensionConfigs.isEmpty {
                discovery.note("extensions in the config replace the project's \(extensionConfigs.map(\.name).joined(separator: ", "))", origin: ConfigLoader.fileName)
            }
        } else {
            discovery.config.extensions = extensionConfigs
        }
        discovery.facts += sourceNotes

        // Info.plists in the app's folder that no target uses: edits there never ship.
        if let folder {
            let candidates = ((try? files.files(under: folder)) ?? []).filter { ($0 as NSString).lastPathComponent == "Info.plist" && !usedPlists.contains($0) }
            for candidate in candidates where candidate != discovery.config.infoPlist {
                discovery.note("\(files.display(candidate)) exists but no configuration of \(main.name) uses it" + (generates ? " (the Info.plist is generated)" : ""),
                               origin: "target \(main.name)", at: FileLocation(file: files.display(candidate)))
            }
        }

        // Build settings: discovered, then the config's own values on top.
        var merged = reader.displayed(settings.values)
        var origins = settings.origins
        for (key, value) in app.buildSettings { merged[key] = value; origins[key] = nil }
        discovery.config.buildSettings = merged
        discovery.config.buildSettingOrigins.merge(origins) { _, new in new }
        discovery.config.compilationConditions = Self.compilationConditions(merged)
        if !app.buildSettings.isEmpty {
            discovery.fact("build_settings in the config override \(app.buildSettings.keys.sorted().joined(separator: ", "))", origin: ConfigLoader.fileName, at: app.location)
        }
    }

    /// `SWIFT_ACTIVE_COMPILATION_CONDITIONS = "WIDGET $(inherited)"` and `OTHER_SWIFT_FLAGS = -DWIDGET`
    /// (or `-D WIDGET`), resolved: the names `#if` tests in this target.
    static func compilationConditions(_ settings: [String: String]) -> Set<String> {
        var names = Set((settings["SWIFT_ACTIVE_COMPILATION_CONDITIONS"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\"" })
            .map(String.init).filter { !$0.hasPrefix("$(") })
        let flags = (settings["OTHER_SWIFT_FLAGS"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\"" }).map(String.init)
        for (index, flag) in flags.enumerated() where flag.hasPrefix("-D") {
            let name = flag == "-D" ? (index + 1 < flags.count ? flags[index + 1] : "") : String(flag.dropFirst(2))
            if !name.isEmpty, !name.hasPrefix("$(") { names.insert(name) }
        }
        return names
    }

    /// Targets `target` depends on, directly or through the targets it depends on.
    static func reachable(from target: XcodeProject.Target, in project: XcodeProject) -> Set<String> {
        var seen: Set<String> = []
        var pending = target.dependencies
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            pending += project.targets.first { $0.id == next }?.dependencies ?? []
        }
        return seen
    }

    private static func also(_ others: [String]) -> String {
        others.isEmpty ? "" : "; the project also has " + others.joined(separator: ", ")
    }

    static func clip(_ text: String) -> String {
        text.count > 100 ? String(text.prefix(97)) + "…" : text
    }
}
