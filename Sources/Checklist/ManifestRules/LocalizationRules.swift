import Foundation
import Manifest

private let healthUsageKeys: Set<String> = [HealthKeys.share, HealthKeys.update, HealthKeys.clinical]



struct LocalizationIncompleteRule: Rule {
    static let description = RuleDescription(
        id: "localization-incomplete", title: "Health usage strings partly localized", severity: .warning, questions: [.usageStringsMeaningful],
        rationale: """
        When a locale's `InfoPlist.strings` (or the `InfoPlist.xcstrings` catalog) translates one health usage key but \
        not the other, the permission sheet mixes languages; an empty translation shows an empty purpose, which App \
        Review rejects. Localize both keys in every locale that localizes either.
        """,
        triggering: [
            .healthApp(["de.lproj/InfoPlist.strings": "\"NSHealthShareUsageDescription\" = \"Steady liest Schritte und Schlaf, um deine Erholung zu zeigen.\";\n"]),
            .healthApp(["fr.lproj/InfoPlist.strings": "\"NSHealthShareUsageDescription\" = \"\";\n\"NSHealthUpdateUsageDescription\" = \"Steady enregistre vos entraînements.\";\n"]),
        ],
        nonTriggering: [
            .healthApp(["de.lproj/InfoPlist.strings": """
            /* Shown on the Health permission sheet */
            "NSHealthShareUsageDescription" = "Steady liest Schritte und Schlaf, um deine Erholung zu zeigen.";
            // Writing
            "NSHealthUpdateUsageDescription" = "Steady speichert deine Trainings in Health.";
            """]),
            .healthApp(["en.lproj/InfoPlist.strings": "\"CFBundleDisplayName\" = \"Steady\";\n"]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let app = context.manifest
        let pair = [HealthKeys.share, HealthKeys.update]
        var findings: [Finding] = []
        for file in app.infoPlistStrings {
            let present = pair.filter { file.entry($0) != nil }
            for key in pair where file.entry(key)?.value.trimmingCharacters(in: .whitespaces).isEmpty == true {
                let entry = file.entry(key)!
                findings.append(finding("\(key) is localized to an empty string in \(file.locale)", at: FileLocation(file: file.path, line: entry.line),
                                        quote: file.quote(line: entry.line), target: app.id))
            }
            guard present.count == 1, let other = pair.first(where: { $0 != present[0] }), app.usageString(other) != nil,
                  let entry = file.entry(present[0]) else { continue }
            findings.append(finding("\(file.locale) localizes \(present[0]) but not \(other): the permission sheet mixes languages",
                                    at: FileLocation(file: file.path, line: entry.line), quote: file.quote(line: entry.line), target: app.id))
        }
        if let catalog = app.stringCatalog {
            let byLocale = Dictionary(grouping: catalog.localizations.filter { pair.contains($0.key) }, by: \.locale)
            for (locale, entries) in byLocale.sorted(by: { $0.key < $1.key }) where locale != catalog.sourceLanguage {
                for entry in entries where entry.value.trimmingCharacters(in: .whitespaces).isEmpty {
                    findings.append(finding("\(entry.key) is localized to an empty string in \(locale)", at: FileLocation(file: catalog.path, line: entry.line),
                                            quote: "\"\(entry.key)\" (\(locale))", target: app.id))
                }
                guard entries.count == 1, let other = pair.first(where: { $0 != entries[0].key }), app.usageString(other) != nil else { continue }
                findings.append(finding("\(locale) localizes \(entries[0].key) but not \(other) in the string catalog",
                                        at: FileLocation(file: catalog.path, line: entries[0].line), quote: "\"\(entries[0].key)\" (\(locale))", target: app.id))
            }
        }
        return findings
    }
}

struct LocalizedKeyNotInPlistRule: Rule {
    static let description = RuleDescription(
        id: "localized-key-not-in-plist", title: "Usage string localized but absent from Info.plist", severity: .warning,
        questions: [.usageStringsMeaningful], predicts: .crash,
        rationale: """
        `InfoPlist.strings` only translates keys that exist in Info.plist. A health usage key that is translated but \
        missing from Info.plist (and from `INFOPLIST_KEY_*` build settings) has no effect: HealthKit still finds no \
        purpose string and the request crashes.
        """,
        triggering: [
            .healthApp(["en.lproj/InfoPlist.strings": "\"NSHealthUpdateUsageDescription\" = \"Steady saves the workouts you log in Health.\";\n"],
                       info: ["NSHealthShareUsageDescription": RuleExample.goodShare]),
        ],
        nonTriggering: [
            .healthApp(["en.lproj/InfoPlist.strings": "\"NSHealthUpdateUsageDescription\" = \"Steady saves the workouts you log in Health.\";\n"]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let app = context.manifest
        return app.infoPlistStrings.flatMap { file in
            file.entries.filter { healthUsageKeys.contains($0.key) && app.usageString($0.key) == nil }.map { entry in
                finding("\(entry.key) is localized in \(file.locale) but absent from Info.plist: the translation has no effect",
                        at: FileLocation(file: file.path, line: entry.line), quote: file.quote(line: entry.line), target: app.id)
            }
        }
    }
}

struct UsageKeyInLocalizableStringsRule: Rule {
    static let description = RuleDescription(
        id: "usage-key-in-localizable-strings", title: "Usage key in the wrong strings file", severity: .warning,
        questions: [.usageStringsMeaningful],
        rationale: """
        Info.plist keys are localized only from `InfoPlist.strings` (or `InfoPlist.xcstrings`). A health usage key in \
        `Localizable.strings`, `Localizable.xcstrings` or any other table is never used for the permission sheet.

        A table that only repeats the app's own text (a SwiftGen-style `Localizable.strings` that shows the purpose in \
        the app, beside the same `INFOPLIST_KEY_*` setting) changes nothing the sheet shows, and is not reported.
        """,
        triggering: [
            .healthApp(["en.lproj/Localizable.strings": "\"NSHealthShareUsageDescription\" = \"Steady reads your steps to chart activity.\";\n"]),
            .healthApp(["Localizable.xcstrings": """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "Today" : {

                },
                "NSHealthUpdateUsageDescription" : {
                  "localizations" : {
                    "de" : { "stringUnit" : { "state" : "translated", "value" : "Steady speichert deine Trainings in Health." } }
                  }
                }
              },
              "version" : "1.0"
            }
            """]),
        ],
        nonTriggering: [
            // The same text as the build setting that puts the key in Info.plist (The Bell): nothing changes.
            .healthApp(["en.lproj/Localizable.strings": "\"NSHealthShareUsageDescription\" = \"Heart rate and energy are shown during workouts.\";\n"],
                       info: ["CFBundleName": "Steady"],
                       buildSettings: ["INFOPLIST_KEY_NSHealthShareUsageDescription": "Heart rate and energy are shown during workouts.",
                                       "INFOPLIST_KEY_NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            .healthApp(["en.lproj/Localizable.strings": "\"today.title\" = \"Today\";\n"]),
            .healthApp(["Localizable.xcstrings": #"{ "sourceLanguage" : "en", "strings" : { "Today" : { } }, "version" : "1.0" }"#]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let app = context.manifest
        let id = app.id
        /// The app's own text for a key, as it ships.
        func shipped(_ key: String) -> String? {
            app.usageString(key)?.value.string.map { BuildVariables.expand($0, settings: app.config.buildSettings).text }
        }
        // A copy of the text Info.plist already ships changes nothing the sheet shows: no finding.
        let tables = app.otherStrings.flatMap { file in
            file.entries.filter { healthUsageKeys.contains($0.key) && $0.value != shipped($0.key) }.map { entry -> Finding in
                let name = (file.path as NSString).lastPathComponent
                return finding("\(entry.key) is in \(name), where it has no effect: move it to InfoPlist.strings",
                               at: FileLocation(file: file.path, line: entry.line), quote: file.quote(line: entry.line), target: id)
            }
        }
        let catalogs = app.otherCatalogs.flatMap { catalog in
            catalog.keys.filter { healthUsageKeys.contains($0.key) }.compactMap { key, line -> Finding? in
                let name = (catalog.path as NSString).lastPathComponent
                let values = catalog.localizations.filter { $0.key == key }.map(\.value)
                if !values.isEmpty, values.allSatisfy({ $0 == shipped(key) }) { return nil }
                return finding("\(key) is in \(name), where it has no effect: move it to InfoPlist.xcstrings",
                               at: FileLocation(file: catalog.path, line: line), quote: "\"\(key)\"", target: id)
            }
        }
        return tables + catalogs
    }
}

struct UnresolvedBuildVariableRule: Rule {
    static let description = RuleDescription(
        id: "unresolved-build-variable", title: "Build variable not resolved", severity: .warning, questions: [.usageStringsMeaningful],
        rationale: """
        Info.plist values may use `$(VAR)` or `${VAR}`, which Xcode replaces from build settings. The audit expands them \
        from the app's `build_settings` in the config; a variable it cannot resolve means the audit cannot see the \
        final text — and in a usage string, users may see the raw `$(VAR)` if the setting is missing from the build. \
        Add the setting to `build_settings`. Only the HealthKit keys (`NSHealth…`) are checked: Xcode's stock \
        `$(PRODUCT_BUNDLE_IDENTIFIER)` or `$(FLUTTER_BUILD_NAME)` in other keys never change an answer.
        """,
        triggering: [.healthApp(info: ["NSHealthShareUsageDescription": "$(PRODUCT_NAME) reads your steps to chart activity.",
                                       "NSHealthUpdateUsageDescription": RuleExample.goodUpdate])],
        nonTriggering: [
            .healthApp(info: ["NSHealthShareUsageDescription": "$(PRODUCT_NAME) reads your steps to chart activity.",
                              "NSHealthUpdateUsageDescription": RuleExample.goodUpdate], buildSettings: ["PRODUCT_NAME": "Steady"]),
            .healthApp(info: ["CFBundleIdentifier": "${PRODUCT_BUNDLE_IDENTIFIER}", "NSHealthShareUsageDescription": RuleExample.goodShare,
                              "NSHealthUpdateUsageDescription": RuleExample.goodUpdate], buildSettings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.steady"]),
            // Stock variables in keys that are not about HealthKit: no finding, whatever the config says.
            .healthApp(info: ["CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleVersion": "$(FLUTTER_BUILD_NUMBER)",
                              "NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let settings = context.manifest.config.buildSettings
        return context.manifest.targets.flatMap { target -> [Finding] in
            guard let plist = target.infoPlist else { return [] }
            return plist.root.keys.sorted().filter { $0.hasPrefix("NSHealth") }.flatMap { key -> [Finding] in
                // Each undefined name once per key, the first few each with a finding of its own: a value
                // repeating `$(X)` 10,000 times (or naming 10,000) is one finding, not 10,000.
                var names: [String] = []
                for text in Self.strings(in: plist.root[key]!) {
                    for name in BuildVariables.expand(text, settings: settings).unresolved where !names.contains(name) {
                        names.append(name)
                        if names.count > Self.namedFindings { break }
                    }
                }
                var findings = names.prefix(Self.namedFindings).map { variable in
                    finding("$(\(variable)) in \(key) is not defined in build_settings", in: plist, key: key, target: target.id)
                }
                if names.count > Self.namedFindings {
                    findings.append(finding("\(key) uses more variables not defined in build_settings than the \(Self.namedFindings) named", in: plist, key: key, target: target.id))
                }
                return findings
            }
        }
    }

    static let namedFindings = 4

    static func strings(in value: PlistValue) -> [String] {
        switch value {
        case .string(let s): return [s]
        case .array(let a): return a.flatMap(strings)
        case .dictionary(let d): return d.keys.sorted().flatMap { strings(in: d[$0]!) }
        default: return []
        }
    }
}
