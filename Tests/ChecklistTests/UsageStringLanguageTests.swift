@testable import Checklist
import Manifest
import XCTest

/// Purpose strings judged in the language they are written in: lengths in characters by script,
/// vagueness with each language's health-data vocabulary, and no judgment where no vocabulary
/// covers the language. Every app here is written to disk and read by the real loaders.
final class UsageStringLanguageTests: XCTestCase {
    /// These apps are their manifests alone: that their code is unread (`healthkit-use-unread`) is
    /// not what this suite looks at.
    private func audit(_ example: RuleExample) throws -> AppAudit {
        Checklist(rules: RuleCatalog.all.filter { $0 != HealthKitUseUnreadRule.self }.map { $0.init() }).audit(try example.load())
    }

    private func answer(_ audit: AppAudit) throws -> Answer {
        try XCTUnwrap(audit.answers.first { $0.question == .usageStringsMeaningful })
    }

    private func describe(_ findings: [Finding]) -> [String] { findings.map { "\($0.ruleID) \($0.location): \($0.message)" } }

    /// Strings that name the data, in Japanese, Chinese, German and Portuguese, give no finding at
    /// all, whether they are the Info.plist value or a translation.
    func testStringsThatNameTheDataInOtherLanguagesGiveNoFinding() throws {
        let apps: [String: RuleExample] = [
            "Japanese Info.plist": .healthApp(info: [
                "NSHealthShareUsageDescription": "歩数と心拍数、睡眠を読み取り、毎日の回復をグラフで表示します。",
                "NSHealthUpdateUsageDescription": "記録したワークアウトとマインドフルネスの時間をヘルスケアに保存します。",
            ]),
            "Japanese translation": .healthApp(["ja.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "歩数と心拍数を読み取り、毎日の回復をグラフで表示します。";
                "NSHealthUpdateUsageDescription" = "記録したワークアウトをヘルスケアに保存します。";
                """]),
            "Simplified Chinese translation": .healthApp(["zh-Hans.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Steady 读取你的步数、心率和睡眠，用于绘制每日恢复图表。";
                "NSHealthUpdateUsageDescription" = "Steady 会将你记录的体能训练和正念分钟数保存到“健康”。";
                """]),
            "Traditional Chinese in a string catalog": .healthApp(["InfoPlist.xcstrings": Self.catalog(locale: "zh-Hant-TW",
                share: "Steady 會讀取你的步數和心率，以顯示每日的恢復狀況。", update: "Steady 會將你記錄的體能訓練儲存到「健康」。")]),
            "German translation": .healthApp(["de.lproj/InfoPlist.strings": """
                "NSHealthShareUsageDescription" = "Steady liest deine Schritte, Herzfrequenz und Achtsamkeitssitzungen, um deine Erholung zu zeigen.";
                "NSHealthUpdateUsageDescription" = "Steady speichert deine Trainings und Achtsamkeitsminuten in Health.";
                """]),
            "Portuguese Info.plist": .healthApp(info: [
                "NSHealthShareUsageDescription": "Este app precisa acessar seus dados de saúde para mostrar sua frequência cardíaca, sono e atividade física.",
                "NSHealthUpdateUsageDescription": "O Steady salva no app Saúde os treinos que você registra.",
            ]),
        ]
        for (name, example) in apps.sorted(by: { $0.key < $1.key }) {
            let result = try audit(example)
            XCTAssertEqual(describe(result.findings), [], name)
            XCTAssertEqual(try answer(result).status, .yes, name)
        }
    }

    /// A German translation that names no data is judged in German: a warning at its line, and
    /// question 4 stays "yes" (real but imperfect text).
    func testAVagueGermanTranslationIsAWarning() throws {
        let result = try audit(.healthApp(["de.lproj/InfoPlist.strings": """
            /* Berechtigungen */
            "NSHealthShareUsageDescription" = "Wir benötigen Zugriff auf deine Gesundheitsdaten, um die App zu verbessern.";
            "NSHealthUpdateUsageDescription" = "Steady speichert deine Trainings in Health.";
            """]))
        XCTAssertEqual(describe(result.findings), [
            "usage-string-vague apps/example/de.lproj/InfoPlist.strings:2: NSHealthShareUsageDescription in the de localization is generic: "
                + "it names no kind of health data: say which health data the app uses and why",
        ])
        let q4 = try answer(result)
        XCTAssertEqual(q4.status, .yes)
        XCTAssertTrue(q4.reason.contains("1 warning (usage-string-vague)"), q4.reason)
    }

    /// Khmer has no vocabulary: its strings are not judged for vagueness, and a note says so once.
    func testAKhmerStringIsNotJudgedButNoted() throws {
        let result = try audit(.healthApp(["km.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "កម្មវិធីនេះត្រូវការចូលប្រើទិន្នន័យសុខភាពរបស់អ្នក";
            "NSHealthUpdateUsageDescription" = "កម្មវិធីនេះត្រូវការរក្សាទុកទិន្នន័យសុខភាពរបស់អ្នក";
            """]))
        XCTAssertEqual(result.findings.map(\.ruleID), ["usage-string-language-unjudged"])
        let note = try XCTUnwrap(result.findings.first)
        XCTAssertEqual(note.severity, .note)
        XCTAssertEqual("\(note.location)", "apps/example/km.lproj/InfoPlist.strings:1")
        XCTAssertTrue(note.message.hasPrefix("2 usage strings in Khmer (km) (NSHealthShareUsageDescription, NSHealthUpdateUsageDescription) are not judged"), note.message)
        XCTAssertEqual(try answer(result).status, .yes)
    }

    /// Several languages without a vocabulary: one note lists them all, at the first string.
    func testUnjudgedLanguagesAreListedInOneNote() throws {
        let result = try audit(.healthApp([
            "km.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "កម្មវិធីនេះត្រូវការចូលប្រើទិន្នន័យសុខភាពរបស់អ្នក";
            """,
            "sw.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "Programu hii inasoma hatua zako kuonyesha shughuli zako kila siku.";
            """,
        ]))
        let notes = result.findings.filter { $0.ruleID == "usage-string-language-unjudged" }
        XCTAssertEqual(notes.count, 1, notes.map(\.message).joined(separator: "\n"))
        XCTAssertTrue(notes[0].message.contains("Khmer") && notes[0].message.contains("Swahili"), notes[0].message)
        XCTAssertTrue(notes[0].message.hasPrefix("2 usage strings in "), notes[0].message)
    }

    /// A Japanese sentence is many characters and no spaces: never "a single word", never an error.
    func testAJapaneseSentenceIsNotOneWord() throws {
        let text = PurposeText("ダーツパフォーマンスと健康データの相関を分析するために、ヘルスケアデータを読み取ります")
        XCTAssertEqual(text.script, .kana)
        XCTAssertFalse(text.isSingleWord)
        XCTAssertFalse(text.isTooShort)
        XCTAssertEqual(text.language, "Japanese")
        // It names no kind of data ("health data"): judged, in Japanese, as generic — a warning.
        XCTAssertFalse(text.namesData)
        let result = try audit(.healthApp(info: ["NSHealthShareUsageDescription": text.text, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate]))
        XCTAssertEqual(result.findings.map { "\($0.ruleID) \($0.severity)" }, ["usage-string-vague warning"])
        XCTAssertTrue(result.findings[0].message.hasPrefix("NSHealthShareUsageDescription (Japanese) is generic"), result.findings[0].message)
        XCTAssertEqual(try answer(result).status, .yes)
    }

    /// Lengths are characters by script, not words by spaces.
    func testLengthsAreCharactersByScript() {
        XCTAssertTrue(PurposeText("Uses Health").isTooShort)
        XCTAssertFalse(PurposeText("Store bloodglucose readings").isTooShort, "three words, 25 characters")
        XCTAssertFalse(PurposeText("歩数を表示します").isTooShort, "eight characters of Japanese")
        XCTAssertTrue(PurposeText("歩数").isTooShort)
        XCTAssertFalse(PurposeText("걸음 수를 읽습니다").isTooShort)
        XCTAssertTrue(PurposeText("Health").isSingleWord)
        XCTAssertFalse(PurposeText("心率").isSingleWord, "a script without spaces has no single words")
    }

    /// The language comes from the locale, else from the script and common words; a string left
    /// untranslated in another locale's folder is judged as what it is.
    func testLanguages() {
        XCTAssertEqual(PurposeText("Achtsamkeitssitzungen und Schritte", locale: "de").language, "German")
        XCTAssertTrue(PurposeText("Wir lesen deine Achtsamkeitssitzungen, um sie zu zeigen.").namesData)
        XCTAssertTrue(PurposeText("Mostramos sua frequência cardíaca e o seu sono.", locale: "pt-BR").namesData)
        XCTAssertTrue(PurposeText("Mostramos sua frequencia cardiaca e o seu sono.", locale: "pt_BR").namesData, "accents folded")
        XCTAssertEqual(PurposeText("读取步数", locale: "zh_CN").vocabularies.map(\.code), ["zh-Hans"])
        XCTAssertEqual(PurposeText("讀取步數", locale: "zh-Hant-HK").vocabularies.map(\.code), ["zh-Hant"])
        XCTAssertEqual(PurposeText("讀取步數").vocabularies.map(\.code), ["zh-Hans", "zh-Hant"])
        XCTAssertTrue(PurposeText("讀取步數").namesData)
        XCTAssertEqual(PurposeText("Приложение читает ваши шаги и пульс, чтобы показать восстановление.").language, "Russian")
        XCTAssertTrue(PurposeText("Приложение читает ваши шаги и пульс.").namesData)
        XCTAssertFalse(PurposeText("Приложению нужен доступ ко всем вашим данным.").namesData, "«весь» is not «вес»")
        XCTAssertEqual(PurposeText("걸음 수와 심박수를 읽습니다").language, "Korean")
        XCTAssertEqual(PurposeText("Aplikacja odczytuje kroki, aby pokazać dzienną aktywność.").language, "Polish")
        XCTAssertTrue(PurposeText("Aplikacja odczytuje kroki.", locale: "pl").namesData)
        XCTAssertEqual(PurposeText("Додаток читає ваші кроки.").language, "Ukrainian")
        XCTAssertFalse(PurposeText("Programu hii inasoma hatua zako kuonyesha shughuli zako kila siku.").isJudged, "Swahili has no vocabulary")
        XCTAssertFalse(PurposeText("Programu hii inasoma hatua zako.", locale: "sw").isJudged)
        XCTAssertEqual(PurposeText("Steady reads your steps to chart your daily activity.", locale: "de").language, "English", "left untranslated")
        XCTAssertEqual(PurposeText("The app reads your steps and heart rate to show your recovery.", locale: "it").language, "English",
                       "left untranslated, though Italian says \"app\" too")
        XCTAssertEqual(PurposeText("L'app legge i tuoi passi per mostrare la tua attività.", locale: "it").language, "Italian")
        XCTAssertEqual(PurposeText("Steady speichert deine Trainings in Health.", locale: "de").language, "German")
        XCTAssertEqual(PurposeText("Steady reads your steps.", locale: "th").language, "English", "Latin text in a Thai folder is not Thai")
        XCTAssertEqual(PurposeText("Steady reads your steps.", locale: "Base").language, "English", "Base is no language")
        // Swedish "viktig" (important) is not "vikt" (weight).
        XCTAssertFalse(PurposeText("Det är viktigt att appen får åtkomst till din hälsodata.", locale: "sv").namesData)
        XCTAssertTrue(PurposeText("Appen läser din kroppsvikt och dina steg.", locale: "sv").namesData)
    }

    /// Question 4 is "no" only for errors: xDrip4iOS's short but real strings, a clinical access
    /// nothing uses (Nightguard) and a copy of the Info.plist text in Localizable.strings (The Bell)
    /// leave it "yes"; a library's README text makes it "no".
    func testQuestionFourIsNoOnlyForErrors() throws {
        let xdrip = try audit(.healthApp(info: ["NSHealthShareUsageDescription": "Store bloodglucose readings",
                                               "NSHealthUpdateUsageDescription": "Store bloodglucose readings"], share: ["bloodGlucose"]))
        XCTAssertEqual(xdrip.findings.map(\.ruleID), ["usage-string-repeated"])
        XCTAssertEqual(try answer(xdrip).status, .yes)

        let clinical = try audit(.healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true,
                                                                                   "com.apple.developer.healthkit.access": ["health-records"]])]))
        XCTAssertEqual(clinical.findings.map { "\($0.ruleID) \($0.severity)" }, ["clinical-records-mismatch warning"])
        XCTAssertEqual(try answer(clinical).status, .yes)

        // A generic clinical string nothing asks for is never shown: removing it (the mismatch) is the
        // one finding; asked for with clinical types, the same text is vague.
        let stray = try audit(.healthApp(info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
                                                "NSHealthClinicalHealthRecordsShareUsageDescription": "Read health data from other apps."]))
        XCTAssertEqual(stray.findings.map { "\($0.ruleID) \($0.severity)" }, ["clinical-records-mismatch warning"])
        let asked = try audit(.healthApp(["App.entitlements": RuleExample.plist(["com.apple.developer.healthkit": true,
                                                                                "com.apple.developer.healthkit.access": ["health-records"]])],
                                         info: ["NSHealthShareUsageDescription": RuleExample.goodShare, "NSHealthUpdateUsageDescription": RuleExample.goodUpdate,
                                                "NSHealthClinicalHealthRecordsShareUsageDescription": "Read health data from other apps."],
                                         read: ["stepCount", "allergyRecord"]))
        XCTAssertEqual(asked.findings.map { $0.ruleID }, ["usage-string-vague"])

        let bell = try audit(.healthApp(["en.lproj/Localizable.strings": """
            "NSHealthShareUsageDescription" = "Heart rate and energy expenditure are displayed during workouts.";
            "NSHealthUpdateUsageDescription" = "Write access is required to record workouts.";
            """], info: ["CFBundleName": "The Bell"], buildSettings: [
                "INFOPLIST_KEY_NSHealthShareUsageDescription": "Heart rate and energy expenditure are displayed during workouts.",
                "INFOPLIST_KEY_NSHealthUpdateUsageDescription": "Write access is required to record workouts.",
            ]))
        XCTAssertEqual(bell.findings.map { "\($0.ruleID) \($0.severity) \($0.location)" }, [], "a copy of the shipped text changes nothing")
        XCTAssertEqual(try answer(bell).status, .yes)

        let readme = try audit(.healthApp(info: ["NSHealthShareUsageDescription": "We will sync your data with the Apple Health app to give you better insights",
                                                "NSHealthUpdateUsageDescription": "We will sync your data with the Apple Health app to give you better insights"]))
        XCTAssertEqual(readme.findings.map { "\($0.ruleID) \($0.severity)" }, ["usage-string-placeholder error", "usage-string-placeholder error"])
        XCTAssertEqual(try answer(readme).status, .no)
    }

    /// One finding per key and problem: a translation with the same problem as the Info.plist value
    /// is named in it, not reported again (Moblin's catalog repeats its update string in ten locales).
    func testTranslationsWithTheSameProblemAreNamedInOneFinding() throws {
        let result = try audit(.healthApp(["InfoPlist.xcstrings": Self.catalog(locale: "de",
            share: "Steady kann deine Herzfrequenz im Stream anzeigen.", update: "Steady kann deine Herzfrequenz im Stream anzeigen.")],
            info: ["NSHealthShareUsageDescription": "Steady can show your heart rate on stream.",
                   "NSHealthUpdateUsageDescription": "Steady can show your heart rate on stream."], share: ["workout"]))
        let vague = result.findings.filter { $0.ruleID == "usage-string-vague" }
        XCTAssertEqual(vague.map(\.message), ["NSHealthUpdateUsageDescription does not say what the app saves, though it asks to write workout: "
                                              + "say what it saves to Health and why (the same in the de localization)"])
        XCTAssertEqual(vague.first?.location.file, "apps/example/Info.plist")
    }

    /// A string catalog with one locale's translation of both keys, as Xcode writes it.
    static func catalog(locale: String, share: String, update: String) -> String {
        func unit(_ value: String) -> String {
            #"{ "localizations" : { "\#(locale)" : { "stringUnit" : { "state" : "translated", "value" : "\#(value)" } } } }"#
        }
        return """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "NSHealthShareUsageDescription" : \(unit(share)),
                "NSHealthUpdateUsageDescription" : \(unit(update))
              },
              "version" : "1.0"
            }
            """
    }
}
