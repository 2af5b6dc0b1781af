import Manifest

/// Usage strings HealthKit needs: missing ones crash `requestAuthorization` or fail App Store upload.
struct UsageStringMissingRule: Rule {
    static let description = RuleDescription(
        id: "usage-string-missing", title: "HealthKit usage string missing", severity: .error,
        questions: [.usageStringsMeaningful], predicts: .crash,
        rationale: """
        HealthKit shows the app's purpose strings on its permission sheet. Without them:

        - **App Store upload fails** (ITMS-90683) when the app has the `com.apple.developer.healthkit` entitlement but lacks \
        `NSHealthShareUsageDescription` *or* `NSHealthUpdateUsageDescription` — even for an app that only reads.
        - **The app crashes** at `requestAuthorization`: HealthKit raises `NSInvalidArgumentException` \
        ("NSHealthShareUsageDescription must be set in the app's Info.plist in order to request read authorization…") \
        when read types are requested without the share string, or share types without the update string.

        A package that links HealthKit (a plugin, ResearchKit, CareKit — from `package.json`, `pubspec.yaml`, the Podfile \
        or a lockfile) puts HealthKit's API in the binary, so the upload needs both strings even when the app's own \
        code never calls it.

        Keys provided through build settings (`INFOPLIST_KEY_NSHealthShareUsageDescription`, Xcode's generated Info.plist) count as present.
        """,
        triggering: [
            .healthApp(info: ["CFBundleName": "Steady", "NSHealthShareUsageDescription": RuleExample.goodShare]),
            .healthApp(info: ["CFBundleName": "Steady"], read: ["stepCount"], share: []),
            .healthApp(["App.entitlements": ""], info: ["CFBundleName": "Steady", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate],
                       read: ["heartRate"], share: []),
            // HealthKit only through a pod: no entitlement, no request of the app's own, and the upload still needs both strings.
            .healthApp(["App.entitlements": "", "Podfile.lock": "PODS:\n  - CareKit (2.0.2)\n\nDEPENDENCIES:\n  - CareKit\n"],
                       info: ["CFBundleName": "Steady"], read: [], share: []),
        ],
        nonTriggering: [
            .healthApp(),
            .healthApp(info: ["CFBundleName": "Steady"], buildSettings: [
                "INFOPLIST_KEY_NSHealthShareUsageDescription": RuleExample.goodShare,
                "INFOPLIST_KEY_NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
            ]),
            .healthApp(["App.entitlements": ""], info: ["CFBundleName": "Plain"], read: [], share: []),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let app = context.manifest
        guard let plist = app.main.infoPlist else {
            // Nothing to judge (a generated Info.plist, a config without `info_plist`): the answer is
            // "cannot tell" and the notes say why; a missing file is not the app's defect.
            return []
        }
        var findings: [Finding] = []
        let needs: [(key: String, types: Set<String>, access: String)] = [
            (HealthKeys.share, context.appRequestedRead, "read"), (HealthKeys.update, context.appRequestedShare, "write"),
        ]
        for (key, types, access) in needs where app.usageString(key) == nil {
            // The project's own Info.plist file is not in the repository: the key may well be in it.
            guard app.main.uncommittedInfoPlist == nil else { continue }
            var reasons: [String] = []
            if !types.isEmpty {
                let ids = types.sorted().compactMap { HealthKitType.named($0)?.identifier }.joined(separator: ", ")
                reasons.append("requestAuthorization crashes (NSInvalidArgumentException: \(key) must be set in the app's Info.plist in order to request \(access) authorization for the following types: \(ids))")
            }
            if context.hasHealthKitEntitlement {
                reasons.append("App Store upload is rejected (ITMS-90683): the HealthKit entitlement requires both usage strings, even for read-only apps")
            } else if let dependency = app.healthKitDependencies.first {
                reasons.append("the app depends on `\(dependency.package)` (\(dependency.location)), which links HealthKit: App Store upload is rejected (ITMS-90683) because the binary references HealthKit's API, and any permission request crashes")
            }
            guard !reasons.isEmpty else { continue }
            var missing = finding("\(key) is missing: " + reasons.joined(separator: "; "), in: plist, missingKey: key, target: app.id)
            // A key for access the app never uses (the update string of an app that only reads): HealthKit
            // itself does not need it, and the checklist's answer stays yes; the upload risk is a warning.
            // Only when the code or the requests show the other access and none of this one: where
            // the app's use is unknown (a plugin's code not read), the key may well be needed.
            let (this, other): (HealthKitFact.Kind, HealthKitFact.Kind) = access == "write" ? (.write, .read) : (.read, .write)
            let otherTypes = access == "write" ? context.appRequestedRead : context.appRequestedShare
            let uses = { (kind: HealthKitFact.Kind) in context.usage.facts.contains { $0.kind == kind && $0.ships } }
            if types.isEmpty, !uses(this), !otherTypes.isEmpty || uses(other) {
                missing.severity = .warning
                missing.message += "; the app never \(access == "write" ? "writes or asks to share" : "reads or asks to read"), so HealthKit itself does not ask for it"
            }
            findings.append(missing)
        }
        return findings
    }
}

/// HealthKit validates the strings themselves: a value that is not a string, or an empty one, crashes the request.
struct UsageStringInvalidRule: Rule {
    static let description = RuleDescription(
        id: "usage-string-invalid", title: "HealthKit usage string invalid", severity: .error,
        questions: [.usageStringsMeaningful], predicts: .crash,
        rationale: """
        HealthKit checks each purpose string when the app calls `requestAuthorization`. A value that is not a string or \
        is empty (or a single character) is refused with `NSInvalidArgumentException` ("The string … is an invalid value \
        for NSHealthUpdateUsageDescription") — the app terminates. App Review also rejects empty strings.

        Text is measured in characters, not words: a Japanese, Chinese or Thai sentence has no spaces and is not "one \
        word". A short or one-word string is `usage-string-vague`'s to report, as a warning.
        """,
        triggering: [
            .healthApp(info: ["↓NSHealthShareUsageDescription": "", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "↓NSHealthUpdateUsageDescription": "x"]),
            .healthApp(info: ["↓NSHealthShareUsageDescription": true, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
        ],
        nonTriggering: [
            .healthApp(),
            .healthApp(info: ["NSHealthShareUsageDescription": "Reads steps to chart your daily activity.",
                              "NSHealthUpdateUsageDescription": "Saves rides you record as cycling workouts."]),
            // A sentence in a script written without spaces (darts-lab, Tonton): many characters, no spaces.
            .healthApp(info: ["NSHealthShareUsageDescription": "歩数と心拍数を読み取り、毎日の回復をグラフで表示します。",
                              "NSHealthUpdateUsageDescription": "記録したワークアウトをヘルスケアに保存します。"]),
            // One word is too short (a warning of usage-string-vague), not a value HealthKit is known to refuse.
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": "Health"]),
            // Xcode expands build settings in Info.plist values: the text that ships is the setting's
            // (an `.xcconfig` holding the purpose strings is common).
            .healthApp(info: ["NSHealthShareUsageDescription": "$(SHARE_TEXT)", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate],
                       buildSettings: ["SHARE_TEXT": "Reads steps to chart your daily activity."]),
            // A setting the audit cannot see is `unresolved-build-variable`'s to report, not an empty string.
            .healthApp(info: ["NSHealthShareUsageDescription": "$(SHARE_TEXT)", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        HealthKeys.usageKeys.compactMap { key in
            guard let usage = context.manifest.usageString(key) else { return nil }
            let message: String
            switch usage.value {
            case .string(let raw):
                let expansion = BuildVariables.expand(raw, settings: context.manifest.config.buildSettings)
                let text = expansion.text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !expansion.unresolved.isEmpty || text.count > 1 { return nil }
                message = text.isEmpty
                    ? "\(key) is empty: HealthKit raises NSInvalidArgumentException at requestAuthorization and App Review rejects it"
                    : "\(key) is a single character (\"\(text)\"): HealthKit raises NSInvalidArgumentException (\"The string \(text) is an invalid value for \(key)\")"
            default:
                message = "\(key) must be a string, found \(usage.value.typeName)"
            }
            return finding(message, at: usage.location, quote: usage.quote, target: context.manifest.id)
        }
    }
}

/// Every purpose string the app ships, as the usage-string rules judge them: the app's own value
/// (Info.plist, an `INFOPLIST_KEY_*` build setting or an Expo config), each translation of it
/// (`*.lproj/InfoPlist.strings`, `InfoPlist.xcstrings`) and a watch app's own strings, which watchOS
/// shows on the watch's permission sheet.
struct ShippedPurposeStrings {
    struct Entry {
        let key: String
        let target: String
        /// As written, before `$(VAR)` expansion.
        let raw: String
        let text: PurposeText
        let location: FileLocation
        let quote: String
        /// The locale of a translation; nil for the Info.plist value.
        let locale: String?

        /// Where the text is, for messages: "" for the app's own value, " in the de localization" for a translation.
        var placeName: String { locale.map { " in the \($0) localization" } ?? "" }

        /// `placeName`, with the language a judged value of the app's own is in when it is not English: " (German)".
        var judgedPlaceName: String {
            guard locale == nil, text.isJudged, text.language != HealthDataVocabulary.english.name else { return placeName }
            return " (\(text.language))"
        }
    }

    let entries: [Entry]

    /// Characters of a usage string that are judged: HealthKit's texts run to a few hundred, and every
    /// text rule reads each entry several times (a 1 MB string took half a minute).
    static let judgedLength = 4_096

    /// The names the app goes by: its name in the config, its main target's, and its Info.plist's
    /// display and bundle names once build settings are expanded (one left unexpanded is no name).
    static func appNames(_ app: AppManifest) -> [String] {
        let plist = app.main.infoPlist
        let declared = ["CFBundleDisplayName", "CFBundleName"].compactMap { plist?[$0]?.string }
            .map { BuildVariables.expand($0, settings: app.config.buildSettings).text }
        let names = [app.name, app.main.name] + declared
        return Array(Set(names.filter { !$0.contains("$(") && !$0.contains("${") })).sorted { $0.count > $1.count || ($0.count == $1.count && $0 < $1) }
    }

    private static func judged(_ text: String) -> String {
        text.utf8.count <= judgedLength ? text : String(text.prefix(judgedLength))
    }

    init(_ context: AuditContext, keys: [String] = [HealthKeys.share, HealthKeys.update, HealthKeys.clinical]) {
        let app = context.manifest
        let settings = app.config.buildSettings
        let watchTargets = app.extensions.filter { $0.kind == .watchApp }
        let names = Self.appNames(app)
        var entries: [Entry] = []
        for key in keys {
            var own: [(target: String, usage: UsageString)] = app.usageString(key).map { [(app.id, $0)] } ?? []
            own += watchTargets.compactMap { target in target.usageString(key).map { (target.id, $0) } }
            var seen: Set<String> = []
            for (target, usage) in own {
                guard let raw = usage.value.string.map(Self.judged) else { continue }
                let text = Self.judged(BuildVariables.expand(raw, settings: settings).text)
                seen.insert(text.trimmingCharacters(in: .whitespacesAndNewlines))
                entries.append(Entry(key: key, target: target, raw: raw, text: PurposeText(text, appNames: names), location: usage.location, quote: usage.quote, locale: nil))
            }
            // Translations, each judged once: a translation equal to the app's own value (the source
            // language of a string catalog) says nothing new, and an empty one is localization-incomplete's.
            var translations: [(raw: String, locale: String, location: FileLocation, quote: String)] = []
            for file in app.infoPlistStrings {
                guard let entry = file.entry(key) else { continue }
                translations.append((Self.judged(entry.value), file.locale, FileLocation(file: file.path, line: entry.line), file.quote(line: entry.line)))
            }
            if let catalog = app.stringCatalog {
                for localization in catalog.localizations where localization.key == key {
                    translations.append((Self.judged(localization.value), localization.locale, FileLocation(file: catalog.path, line: localization.line),
                                         "\"\(key)\" (\(localization.locale))"))
                }
            }
            for translation in translations {
                let text = Self.judged(BuildVariables.expand(translation.raw, settings: settings).text)
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty, seen.insert(trimmed).inserted else { continue }
                entries.append(Entry(key: key, target: app.id, raw: translation.raw, text: PurposeText(text, locale: translation.locale, appNames: names),
                                     location: translation.location, quote: translation.quote, locale: translation.locale))
            }
        }
        self.entries = entries
    }

    /// The entries that are not placeholders and are long enough to judge as text (an empty or
    /// one-character value is usage-string-invalid's).
    var texts: [Entry] {
        entries.filter { $0.text.text.trimmingCharacters(in: .whitespacesAndNewlines).count > 1 && UsageStringPlaceholders.match(raw: $0.raw, expanded: $0.text.text) == nil }
    }
}

/// A library's example text or a placeholder, shipped as the purpose: App Review rejects it and the
/// permission sheet says nothing of the app.
struct UsageStringPlaceholderRule: Rule {
    static let description = RuleDescription(
        id: "usage-string-placeholder", title: "HealthKit usage string is a placeholder", severity: .error,
        questions: [.usageStringsMeaningful],
        rationale: """
        A purpose string must say *which* health data the app uses and *why* (App Review guideline 5.1.1). Some strings \
        are not the app's at all:

        - placeholder markers: `TODO`, `TBD`, `FIXME`, `XXX` (as words in capitals: Spanish *todo* is a word), \
        "lorem ipsum", "placeholder", "usage description";
        - the example strings HealthKit libraries print in their READMEs, shipped unchanged ("We will sync your data \
        with the Apple Health app to give you better insights" from the Flutter `health` package, "Read and understand \
        health data." from react-native-health, "Your own custom usage description" from react-native-healthkit);
        - the defaults a config plugin writes when the app gives no text ("Allow $(PRODUCT_NAME) to check health info");
        - the text of Apple's own sample code, which names the sample ("…your saved workouts in MyWorkouts", WWDC21).

        Each is checked after `$(VAR)` expansion, in the Info.plist value and in every translation.
        """,
        triggering: [
            .healthApp(info: ["↓NSHealthShareUsageDescription": "TODO: write this", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            .healthApp(info: ["↓NSHealthShareUsageDescription": "Your own custom usage description",
                              "↓NSHealthUpdateUsageDescription": "Your own custom usage description"]),
            .healthApp(info: ["↓NSHealthShareUsageDescription": "We will sync your data with the Apple Health app to give you better insights",
                              "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "↓NSHealthUpdateUsageDescription": "Allow $(PRODUCT_NAME) to update health info"],
                       buildSettings: ["PRODUCT_NAME": "Steady"]),
            // Apple's sample app's text, copied into an app that is not that sample.
            .healthApp(info: ["↓NSHealthShareUsageDescription": "Your workout related data will be used to display your saved workouts in MyWorkouts.",
                              "↓NSHealthUpdateUsageDescription": "Workouts tracked by MyWorkouts on Apple Watch will be saved to HealthKit."]),
            // A translation left as the placeholder.
            .healthApp(["de.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Steady liest deine Schritte und deinen Schlaf, um deine Erholung zu zeigen.";
                ↓"NSHealthUpdateUsageDescription" = "TODO";
                """]),
        ],
        nonTriggering: [
            .healthApp(),
            // Spanish "todos" is a word, not a marker.
            .healthApp(info: ["NSHealthShareUsageDescription": "Todos tus pasos y tu frecuencia cardíaca aparecen en tu panel diario.",
                              "NSHealthUpdateUsageDescription": "Guardamos en Salud los entrenamientos que registras."]),
            // The app's own words around the library's data types.
            .healthApp(info: ["NSHealthShareUsageDescription": "Steady reads and understands your heart rate data to chart recovery.",
                              "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        var reported: Set<String> = []
        return ShippedPurposeStrings(context).entries.compactMap { entry in
            guard let what = UsageStringPlaceholders.match(raw: entry.raw, expanded: entry.text.text),
                  reported.insert(entry.target + "\u{0}" + entry.key + "\u{0}" + (entry.locale ?? "")).inserted else { return nil }
            return finding("\(entry.key)\(entry.placeName) is \(what): App Review rejects purpose strings that do not explain the use; "
                           + "say which health data the app uses and why", at: entry.location, quote: entry.quote, target: entry.target)
        }
    }
}

/// Real but vague purpose strings: App Review asks for which data and why (guideline 5.1.1), and
/// people deny what they do not understand. Judged in the language the string is written in.
struct UsageStringVagueRule: Rule {
    static let description = RuleDescription(
        id: "usage-string-vague", title: "HealthKit usage string is vague", severity: .warning,
        questions: [.usageStringsMeaningful],
        rationale: """
        A purpose string must say *which* health data the app uses and *why* (App Review guideline 5.1.1). The heuristic, \
        applied after `$(VAR)` expansion to the Info.plist value, every translation (`InfoPlist.strings`, \
        `InfoPlist.xcstrings`) and a watch app's own strings, flags a string when it:

        - is too short to explain a purpose, counted in characters by script (spaces not counted): 16 for alphabetic \
        scripts, 8 for Hangul, 6 for Chinese characters and Japanese — a Japanese sentence has no spaces and is not \
        "one word";
        - names no kind of health data in its language — "We need access to your health data" fails, and so does "My \
        Heart Counts uses Health data to understand all aspects of health.": the app's own name (its display and bundle \
        names, as written) is not data;
        - is the update string of an app that asks to write nothing and never saves, yet says it writes ("Need to write steps."): \
        say that the app saves nothing (the key is still required with the entitlement);
        - is the update string of an app that asks to write, yet says nothing about saving ("Moblin can show your heart rate on stream." \
        for an app that saves workouts): say what it saves and why.

        Kinds of data are recognized with a vocabulary per language, built from the names Apple's Health app uses in it: \
        English, German, French, Spanish, Portuguese, Italian, Dutch, Swedish, Danish, Norwegian, Finnish, Polish, Czech, \
        Slovak, Croatian, Hungarian, Romanian, Turkish, Catalan, Vietnamese, Indonesian, Malay, Russian, Ukrainian, \
        Bulgarian, Greek, Hebrew, Arabic, Hindi, Thai, Georgian, Japanese, Simplified and Traditional Chinese, Korean. \
        The language is the translation's locale (`nb.lproj` and `no.lproj` are Norwegian, `iw` Hebrew, `in` \
        Indonesian), else guessed from the script and common words. A string in a language without a vocabulary is not \
        judged (`usage-string-language-unjudged` says so). \
        One finding is reported per key and problem; the translations with the same problem are named in it.

        These are warnings: real but imperfect text still answers question 4 "yes". Placeholders and library example \
        text are `usage-string-placeholder`, an error; a specific string used word for word for reading and writing is \
        `usage-string-repeated`, a note.

        Strings that pass: "Steady reads your steps, heart rate and sleep to chart your daily recovery.", "Steady liest \
        deine Schritte und Achtsamkeitssitzungen …", "歩数と心拍数を読み取り …".
        """,
        triggering: [
            .healthApp(info: ["↓NSHealthShareUsageDescription": "We need access to your health data.", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            // The app's name names no data (a research app called "My Heart Counts").
            .healthApp(info: ["CFBundleDisplayName": "My Heart Counts", "↓NSHealthShareUsageDescription": "My Heart Counts uses Health data to understand all aspects of health.",
                              "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            .healthApp(info: ["↓NSHealthShareUsageDescription": "$(PRODUCT_NAME) uses Health.", "NSHealthUpdateUsageDescription": RuleExample.goodUpdate],
                       buildSettings: ["PRODUCT_NAME": "Steady"]),
            // One word: too short (HealthKit has been reported to refuse one-word strings too).
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "↓NSHealthUpdateUsageDescription": "Health"]),
            // A watch app's own strings are what its sheet shows (Duffy's WatchKit extension).
            .healthApp(["Watch/Info.plist": RuleExample.plist(["↓NSHealthShareUsageDescription": "We need access to your health data.",
                                                               "NSHealthUpdateUsageDescription": RuleExample.goodUpdate])]),
            // An app that asks to write nothing, claiming it writes (Duffy: "Need to write steps.").
            .healthApp(["Sources/Steps.swift": Self.readOnlyRequest], info: ["NSHealthShareUsageDescription": RuleExample.goodShare,
                                                                            "↓NSHealthUpdateUsageDescription": "Steady needs to write your steps."],
                read: [], share: []),
            // An app that saves workouts, whose update string only talks about showing data (Moblin); its
            // translation has the same problem and is named in the one finding.
            .healthApp(["fr.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Steady lit votre fréquence cardiaque pour l’afficher sur votre stream.";
                "NSHealthUpdateUsageDescription" = "Steady affiche votre fréquence cardiaque en direct sur votre stream.";
                """], info: ["NSHealthShareUsageDescription": "Steady reads your heart rate to show it on your stream overlay.",
                             "↓NSHealthUpdateUsageDescription": "Steady shows your heart rate live on your stream."], share: ["workout"]),
            // A German translation that names no data, while the English value does.
            .healthApp(["de.lproj/InfoPlist.strings": """
                ↓"NSHealthShareUsageDescription" = "Wir benötigen Zugriff auf deine Gesundheitsdaten, um die App zu verbessern.";
                "NSHealthUpdateUsageDescription" = "Steady speichert deine Trainings in Health.";
                """]),
            // Japanese that names no kind of data ("access to your Health data, please"), judged in Japanese.
            .healthApp(["ja.lproj/InfoPlist.strings": """
                ↓"NSHealthShareUsageDescription" = "ヘルスケアデータへのアクセスを許可してください。";
                "NSHealthUpdateUsageDescription" = "記録したワークアウトをヘルスケアに保存します。";
                """]),
            // Danish and Thai that name no kind of data ("this app needs access to your health data"), each in its language.
            .healthApp(["da.lproj/InfoPlist.strings": """
                ↓"NSHealthShareUsageDescription" = "Denne app skal have adgang til dine sundhedsdata.";
                "NSHealthUpdateUsageDescription" = "Steady gemmer dine træninger og dit blodsukker i Sundhed.";
                """]),
            .healthApp(["th.lproj/InfoPlist.strings": """
                ↓"NSHealthShareUsageDescription" = "แอปนี้ต้องการเข้าถึงข้อมูลสุขภาพของคุณ";
                "NSHealthUpdateUsageDescription" = "Steady บันทึกการออกกำลังกายของคุณลงในแอปสุขภาพ";
                """]),
        ],
        nonTriggering: [
            .healthApp(),
            .healthApp(info: ["NSHealthShareUsageDescription": "$(PRODUCT_NAME) reads your heart rate and rides to compute training load.",
                              "NSHealthUpdateUsageDescription": "Saves rides you record as cycling workouts in Health."],
                       buildSettings: ["PRODUCT_NAME": "VeloRide"]),
            // The name is left out as written: the data it shares a word with still counts.
            .healthApp(info: ["CFBundleDisplayName": "Steps", "NSHealthShareUsageDescription": "Steps charts the steps you walk each day.",
                              "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
            // Seen in real apps: data named as the device's metrics, and a read-only app saying it writes nothing.
            .healthApp(info: ["NSHealthShareUsageDescription": "Pulsar reads the metrics your ring records so the dashboard can chart them.",
                              "NSHealthUpdateUsageDescription": "Pulsar does not write any data to Apple Health."]),
            // Short by words, not by characters, and it names the data (xDrip4iOS).
            .healthApp(info: ["NSHealthShareUsageDescription": "Store bloodglucose readings", "NSHealthUpdateUsageDescription": "Store bloodglucose readings"],
                       share: ["bloodGlucose"]),
            // Asks to write nothing and says so in its own words; the strings still name the data.
            .healthApp(["Sources/Steps.swift": Self.readOnlyRequest], info: ["NSHealthShareUsageDescription": RuleExample.goodShare,
                             "NSHealthUpdateUsageDescription": "Steady only reads your steps; nothing is ever written to Health."],
                read: [], share: []),
            // The same in Japanese (Tonton: "このアプリでは書き込みは行いません", this app does not write).
            .healthApp(["Sources/Steps.swift": Self.readOnlyRequest], info: ["NSHealthShareUsageDescription": "歩数を読み取り、毎日の活動をグラフにします。",
                             "NSHealthUpdateUsageDescription": "歩数をヘルスケアに記録するための許可です。(このアプリでは書き込みは行いません)"],
                read: [], share: []),
            // A watch app with good strings of its own.
            .healthApp(["Watch/Info.plist": RuleExample.plist(["NSHealthShareUsageDescription": RuleExample.goodShare,
                                                               "NSHealthUpdateUsageDescription": RuleExample.goodUpdate])]),
            // Translations that name the data, each in its own language.
            .healthApp(["de.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Steady liest deine Schritte, Herzfrequenz und Achtsamkeitssitzungen, um deine Erholung zu zeigen.";
                "NSHealthUpdateUsageDescription" = "Steady speichert deine Trainings und Achtsamkeitsminuten in Health.";
                """, "zh-Hans.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Steady 读取你的步数、心率和睡眠，用于绘制每日恢复图表。";
                "NSHealthUpdateUsageDescription" = "Steady 会将你记录的体能训练保存到“健康”。";
                """, "ko.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Steady는 걸음 수와 심박수를 읽어 매일의 회복 상태를 보여 줍니다.";
                "NSHealthUpdateUsageDescription" = "Steady는 기록한 운동을 건강 앱에 저장합니다.";
                """]),
            .healthApp(info: ["NSHealthShareUsageDescription": "O Steady lê a sua frequência cardíaca e o sono para mostrar a sua recuperação diária.",
                              "NSHealthUpdateUsageDescription": "O Steady salva no app Saúde os treinos que você registra."]),
            // Translations of apps seen in review, naming meals, blood glucose and carbohydrates (Loop, GlucoseDirect).
            .healthApp(["pl.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Steady odczytuje posiłki, poziom cukru we krwi i dane z sensora CGM, aby pokazać wpływ węglowodanów.";
                "NSHealthUpdateUsageDescription" = "Steady zapisuje w aplikacji Zdrowie węglowodany, które wprowadzasz.";
                """, "vi.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Steady đọc dữ liệu bữa ăn, đường huyết và carbohydrate để tính liều insulin.";
                "NSHealthUpdateUsageDescription" = "Steady lưu trữ lượng carbohydrate bạn nhập vào ứng dụng Sức khỏe.";
                """, "tr.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Steady, kan şekeri grafiğini çizmek için glikoz verilerinizi okur.";
                "NSHealthUpdateUsageDescription" = "Steady, kan şekeri verilerinizi Sağlık uygulamasına aktarır.";
                """]),
            // A language without a vocabulary is not judged (usage-string-language-unjudged says so).
            .healthApp(["km.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "កម្មវិធីនេះត្រូវការចូលប្រើទិន្នន័យសុខភាពរបស់អ្នក";
                "NSHealthUpdateUsageDescription" = "កម្មវិធីនេះត្រូវការរក្សាទុកទិន្នន័យសុខភាពរបស់អ្នក";
                """]),
        ]
    )

    /// An app whose only request asks to write nothing, for the update-string examples.
    static let readOnlyRequest = """
        import HealthKit
        func connect(_ store: HKHealthStore) {
            store.requestAuthorization(toShare: nil, read: [HKQuantityType(.stepCount)]) { _, _ in }
        }
        """

    /// What is wrong with a text, as one finding reports it for every string of a key that has it.
    enum Problem: Hashable {
        case tooShort, singleWord, generic, claimsWriting, silentAboutWriting

        func message(_ shared: [String]) -> String {
            switch self {
            case .tooShort: return "is too short to explain a purpose: say which health data the app uses and why"
            case .singleWord: return "is a single word, too short to explain a purpose (HealthKit has been reported to refuse one-word purpose strings at "
                + "requestAuthorization): say which health data the app uses and why"
            case .generic: return "is generic: it names no kind of health data: say which health data the app uses and why"
            case .claimsWriting: return "says the app writes to Health, but it asks to write nothing and never saves: say that it saves nothing (the key is still required)"
            case .silentAboutWriting:
                let names = shared.prefix(3).joined(separator: ", ") + (shared.count > 3 ? ", …" : "")
                return "does not say what the app saves, though it asks to write \(names): say what it saves to Health and why"
            }
        }
    }

    func check(_ context: AuditContext) -> [Finding] {
        let writes = WriteEvidence(context)
        var groups: [(target: String, key: String, problem: Problem, entries: [ShippedPurposeStrings.Entry])] = []
        // A clinical string nothing asks for is never shown: `clinical-records-mismatch` says to remove
        // it, and rewording it would fix nothing.
        let clinicalShown = context.requestsClinicalTypes
        for entry in ShippedPurposeStrings(context).texts where entry.text.isJudged && (entry.key != HealthKeys.clinical || clinicalShown) {
            guard let problem = Self.problem(entry.text, key: entry.key, writes: writes) else { continue }
            if let index = groups.firstIndex(where: { $0.target == entry.target && $0.key == entry.key && $0.problem == problem }) {
                groups[index].entries.append(entry)
            } else {
                groups.append((entry.target, entry.key, problem, [entry]))
            }
        }
        return groups.map { group in
            let first = group.entries[0]
            let others = group.entries.dropFirst().compactMap(\.locale)
            let also = others.isEmpty ? "" : " (the same in the \(others.joined(separator: ", ")) \(others.count == 1 ? "localization" : "localizations"))"
            return finding("\(group.key)\(first.judgedPlaceName) \(group.problem.message(writes.shared))\(also)", at: first.location, quote: first.quote, target: group.target)
        }
    }

    /// Why a text in a known language is vague, or nil when it reads as a real purpose string.
    static func problem(_ text: PurposeText, key: String, writes: WriteEvidence?) -> Problem? {
        if text.saysItWritesNothing { return nil }
        // A read-only app's update string saying its permission is not asked for (Rosie's "This permission
        // should not be requested."): true, and never shown.
        if key == HealthKeys.update, text.says(anyOf: Self.notRequested) { return nil }
        if text.isTooShort { return text.isSingleWord ? .singleWord : .tooShort }
        if !text.namesData { return .generic }
        guard key == HealthKeys.update, let writes else { return nil }
        if text.claimsWriting && writes.writesNothing { return .claimsWriting }
        if !text.claimsWriting && !writes.shared.isEmpty { return .silentAboutWriting }
        return nil
    }

    /// English phrases an update string uses to say its permission is not asked for.
    static let notRequested = ["not be requested", "not requested", "never requested", "does not request", "doesn't request"]

    /// What the app is seen to write, for judging the update string against it.
    struct WriteEvidence {
        /// Catalogued types the app asks to write (config and code), sorted.
        let shared: [String]
        /// Every request of the app is visible, resolved, and asks to write nothing, and nothing is saved.
        let writesNothing: Bool

        init(_ context: AuditContext) {
            shared = context.requestedShare.sorted()
            let requests = context.resolvedRequests
            writesNothing = shared.isEmpty && !requests.isEmpty && requests.allSatisfy { $0.share.isResolved && $0.share.names.isEmpty && $0.share.uncatalogued.isEmpty }
                && !context.usage.facts.contains { $0.kind == .write }
                && context.manifest.javaScriptSources.isEmpty && context.manifest.dartSources.isEmpty
        }
    }
}

/// Strings in a language without a health-data vocabulary are not judged for vagueness: say so,
/// rather than hold them against another language's words.
struct UsageStringLanguageUnjudgedRule: Rule {
    static let description = RuleDescription(
        id: "usage-string-language-unjudged", title: "Usage strings in a language the audit does not judge", severity: .note, questions: [],
        rationale: """
        `usage-string-vague` judges purpose strings with a health-data vocabulary per language (English, German, French, \
        Spanish, Portuguese, Italian, Dutch, Swedish, Danish, Norwegian, Finnish, Polish, Czech, Slovak, Croatian, \
        Hungarian, Romanian, Turkish, Catalan, Vietnamese, Indonesian, Malay, Russian, Ukrainian, Bulgarian, Greek, \
        Hebrew, Arabic, Hindi, Thai, Georgian, Japanese, Simplified and Traditional Chinese, Korean). A string in any \
        other language — a locale without a vocabulary (`km.lproj`, `sw` in a string catalog), text in a script none \
        covers (Khmer, Amharic, Sinhala…), or one whose letters or words show a language other than the script's \
        (Persian or Urdu in Arabic script, Serbian in Cyrillic, Marathi in Devanagari) — is not judged, and this note says which, so that someone who reads \
        the language can check that the strings say which data the app uses and why; one note lists every such language. Placeholders are still found in \
        every language (`usage-string-placeholder`).
        """,
        triggering: [
            .healthApp(["km.lproj/InfoPlist.strings": """
                ↓"NSHealthShareUsageDescription" = "កម្មវិធីនេះត្រូវការចូលប្រើទិន្នន័យសុខភាពរបស់អ្នក";
                "NSHealthUpdateUsageDescription" = "កម្មវិធីនេះត្រូវការរក្សាទុកទិន្នន័យសុខភាពរបស់អ្នក";
                """]),
            // Swahili in the Info.plist value: no locale, and its words are no known language's.
            .healthApp(info: ["↓NSHealthShareUsageDescription": "Programu hii inasoma hatua zako kuonyesha shughuli zako kila siku.",
                              "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]),
        ],
        nonTriggering: [
            .healthApp(),
            .healthApp(["de.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Steady liest deine Schritte und deinen Schlaf, um deine Erholung zu zeigen.";
                "NSHealthUpdateUsageDescription" = "Steady speichert deine Trainings in Health.";
                """]),
            // Thai and Polish, once noted here, have vocabularies now: judged, not noted.
            .healthApp(["th.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Steady อ่านจำนวนก้าวและอัตราการเต้นของหัวใจของคุณเพื่อแสดงการฟื้นตัวในแต่ละวัน";
                "NSHealthUpdateUsageDescription" = "Steady บันทึกการออกกำลังกายของคุณลงในแอปสุขภาพ";
                """, "pl.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Aplikacja odczytuje kroki, aby pokazać dzienną aktywność.";
                "NSHealthUpdateUsageDescription" = "Aplikacja zapisuje Twoje treningi w aplikacji Zdrowie.";
                """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        var groups: [(language: String, entries: [ShippedPurposeStrings.Entry])] = []
        for entry in ShippedPurposeStrings(context).texts where !entry.text.isJudged {
            if let index = groups.firstIndex(where: { $0.language == entry.text.language }) { groups[index].entries.append(entry) } else { groups.append((entry.text.language, [entry])) }
        }
        // One note per app: a list of languages to check by hand, not a note per localization.
        guard let first = groups.first?.entries.first else { return [] }
        let entries = groups.flatMap(\.entries)
        let languages = groups.map { "\($0.language) (\(Array(Set($0.entries.map(\.key))).sorted().joined(separator: ", ")))" }
        let count = Plural.count(entries.count, "usage string")
        return [finding("\(count) in \(languages.joined(separator: "; ")) \(entries.count == 1 ? "is" : "are") not judged for vagueness: healthaudit has no "
                        + "health-data vocabulary for \(groups.count == 1 ? "that language" : "those languages"); check by hand that "
                        + "\(entries.count == 1 ? "it says" : "they say") which data the app uses and why",
                        at: first.location, quote: first.quote, target: first.target)]
    }
}

/// The same specific text for reading and writing: the sheet shows it twice and explains writing
/// no better than reading. A note: the string itself names real data (a vague one is reported as such).
struct UsageStringRepeatedRule: Rule {
    static let description = RuleDescription(
        id: "usage-string-repeated", title: "Same usage string for reading and writing", severity: .note, questions: [],
        rationale: """
        When `NSHealthUpdateUsageDescription` repeats `NSHealthShareUsageDescription` word for word, the permission \
        sheet explains reading and writing with one sentence. If the text names real data and a real purpose, App \
        Review accepts it and people understand it, so this is only a note: say what the app saves, or that it saves \
        nothing, to make the sheet clearer. A repeated vague string is `usage-string-vague`.
        """,
        triggering: [
            .healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "↓NSHealthUpdateUsageDescription": RuleExample.goodShare]),
            .healthApp(info: ["NSHealthShareUsageDescription": "Uses your walking speed from the Health app to give you more accurate arrival times.",
                              "↓NSHealthUpdateUsageDescription": "Uses your walking speed from the Health app to give you more accurate arrival times."]),
        ],
        nonTriggering: [
            .healthApp(),
            // Repeated but vague: that is usage-string-vague's finding, not a second one here.
            .healthApp(info: ["NSHealthShareUsageDescription": "We need access to your health data.", "NSHealthUpdateUsageDescription": "We need access to your health data."]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let app = context.manifest
        let texts = [HealthKeys.share, HealthKeys.update].map { key in
            app.usageString(key)?.value.string.map { BuildVariables.expand($0, settings: app.config.buildSettings).text }
        }
        guard let share = texts[0], let update = texts[1], share == update, let usage = app.usageString(HealthKeys.update) else { return [] }
        let text = PurposeText(share)
        guard text.isJudged, UsageStringPlaceholders.match(raw: share, expanded: share) == nil,
              UsageStringVagueRule.problem(text, key: HealthKeys.share, writes: nil) == nil else { return [] }
        return [finding("\(HealthKeys.update) repeats \(HealthKeys.share) word for word: the sheet explains reading and writing with one "
                        + "sentence; say what the app saves (or that it saves nothing)", at: usage.location, quote: usage.quote, target: app.id)]
    }
}

extension ReviewQuestion {
    /// Whether an active finding of a rule on this question makes the answer the unhealthy one.
    /// Question 4 is "no" only for a missing key, a placeholder or a value HealthKit rejects (errors);
    /// real but imperfect text is "yes" plus a warning (`../shared/checklist-answers.md`).
    func isDecided(by finding: Finding) -> Bool {
        self != .usageStringsMeaningful || finding.severity == .error
    }
}
