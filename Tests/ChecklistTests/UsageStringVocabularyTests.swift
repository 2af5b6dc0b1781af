@testable import Checklist
import Manifest
import XCTest

/// The health-data vocabularies added for the languages real apps are translated into (Danish,
/// Norwegian, Finnish, Polish, Czech, Slovak, Croatian, Hungarian, Romanian, Turkish, Catalan,
/// Vietnamese, Indonesian, Malay, Greek, Ukrainian, Bulgarian, Hebrew, Arabic, Hindi, Thai,
/// Georgian): a specific purpose string passes, the generic one ("this app needs access to your
/// health data") is vague, a text without a locale is guessed right, and close languages, English and
/// German are not taken for one another.
final class UsageStringVocabularyTests: XCTestCase {
    private func audit(_ example: RuleExample) throws -> AppAudit {
        Checklist(rules: RuleCatalog.all.filter { $0 != HealthKitUseUnreadRule.self }.map { $0.init() }).audit(try example.load())
    }

    private func describe(_ findings: [Finding]) -> [String] { findings.map { "\($0.ruleID) \($0.location): \($0.message)" } }

    /// Per language: its locale, the name messages use, a specific string (data and purpose) and the
    /// generic one. Written for these tests, after the kinds of strings reviewers saw in real apps.
    static let languages: [(locale: String, name: String, specific: String, generic: String)] = [
        ("da", "Danish", "Appen læser dine måltidsdata og dit blodsukker og gemmer dine kulhydrater i Sundhed, så du kan følge din glukose.",
         "Denne app skal have adgang til dine sundhedsdata."),
        ("nb", "Norwegian", "Appen leser måltider og blodsukker fra Helse og lagrer karbohydratene du registrerer, slik at glukosegrafen blir riktig.",
         "Denne appen trenger tilgang til helsedataene dine."),
        ("fi", "Finnish", "Sovellus lukee ateria-, glukoosi- ja unitiedot Terveys-sovelluksesta ja näyttää ne kaaviossa.",
         "Tämä sovellus tarvitsee pääsyn terveystietoihisi."),
        ("pl", "Polish", "Aplikacja odczytuje posiłki, poziom cukru we krwi i dane z sensora CGM, aby pokazać wpływ węglowodanów na glukozę.",
         "Ta aplikacja potrzebuje dostępu do Twoich danych zdrowotnych."),
        ("cs", "Czech", "Aplikace čte vaše kroky, srdeční tep a spánek, aby mohla zobrazit denní regeneraci.",
         "Tato aplikace potřebuje přístup k vašim zdravotním údajům."),
        ("sk", "Slovak", "Aplikácia číta vaše kroky, srdcový tep a spánok, aby zobrazila dennú regeneráciu.",
         "Táto aplikácia potrebuje prístup k vašim zdravotným údajom."),
        ("hr", "Croatian", "Aplikacija čita vaše korake, otkucaje srca i san kako bi prikazala dnevni oporavak.",
         "Ova aplikacija treba pristup vašim zdravstvenim podacima."),
        ("hu", "Hungarian", "Az alkalmazás beolvassa a lépésszámot, a pulzust és az alvást, és a testsúlyt menti az Egészség appba.",
         "Az alkalmazásnak hozzáférésre van szüksége az egészségügyi adataihoz."),
        ("ro", "Romanian", "Aplicația citește datele despre nutriție și glucoză și salvează carbohidrații introduși în aplicația Sănătate.",
         "Această aplicație are nevoie de acces la datele tale de sănătate."),
        ("tr", "Turkish", "Uygulama, kan şekeri verilerinizi Sağlık uygulamasına aktarır ve glikoz grafiklerinizi günceller.",
         "Bu uygulamanın sağlık verilerinize erişmesi gerekiyor."),
        ("ca", "Catalan", "L'aplicació llegeix els teus passos, la freqüència cardíaca i el son per mostrar la recuperació diària.",
         "Aquesta aplicació necessita accés a les teves dades de salut."),
        ("vi", "Vietnamese", "Ứng dụng đọc dữ liệu bữa ăn, đường huyết và lượng carbohydrate để tính liều insulin.",
         "Ứng dụng này cần quyền truy cập dữ liệu sức khỏe của bạn."),
        ("id", "Indonesian", "Aplikasi membaca langkah, detak jantung, dan data tidur dari Kesehatan untuk menampilkan pemulihan harian Anda.",
         "Aplikasi ini memerlukan akses ke data kesehatan Anda."),
        ("ms", "Malay", "Apl ini membaca langkah, kadar denyutan jantung dan data tidur anda untuk memaparkan pemulihan harian.",
         "Apl ini memerlukan akses kepada data kesihatan anda."),
        ("el", "Greek", "Η εφαρμογή διαβάζει τα βήματα, τον καρδιακό ρυθμό και τον ύπνο σας για να δείχνει την καθημερινή αποκατάσταση.",
         "Αυτή η εφαρμογή χρειάζεται πρόσβαση στα δεδομένα υγείας σας."),
        ("uk", "Ukrainian", "Застосунок читає ваші кроки, пульс і сон, щоб показати щоденне відновлення.",
         "Цьому застосунку потрібен доступ до ваших даних про здоров'я."),
        ("bg", "Bulgarian", "Приложението чете вашите крачки, пулса и съня, за да показва ежедневното ви възстановяване.",
         "Това приложение се нуждае от достъп до вашите здравни данни."),
        ("he", "Hebrew", "האפליקציה קוראת את הצעדים, הדופק ונתוני השינה שלך כדי להציג את ההתאוששות היומית.",
         "האפליקציה צריכה גישה לנתוני הבריאות שלך."),
        ("ar", "Arabic", "يقرأ التطبيق خطواتك ونبض القلب وبيانات النوم لعرض التعافي اليومي.",
         "يحتاج هذا التطبيق إلى الوصول إلى بياناتك الصحية."),
        ("hi", "Hindi", "यह ऐप आपके कदम, हृदय गति और नींद पढ़ता है ताकि आपकी रोज़ की रिकवरी दिखा सके।",
         "इस ऐप को आपके स्वास्थ्य डेटा तक पहुंच चाहिए।"),
        ("th", "Thai", "แอปนี้อ่านจำนวนก้าว อัตราการเต้นของหัวใจ และการนอนหลับของคุณเพื่อแสดงการฟื้นตัวในแต่ละวัน",
         "แอปนี้ต้องการเข้าถึงข้อมูลสุขภาพของคุณ"),
        ("ka", "Georgian", "აპლიკაცია კითხულობს თქვენს ნაბიჯებს, გულისცემას და ძილს, რომ აჩვენოს დღიური აღდგენა.",
         "ამ აპლიკაციას სჭირდება წვდომა თქვენს ჯანმრთელობის მონაცემებზე."),
    ]

    /// Each language's specific string names data and its generic one does not, with the locale and
    /// without one (the language guessed from the script and common words).
    func testEachLanguageJudgesSpecificAndGenericStrings() {
        for language in Self.languages {
            let specific = PurposeText(language.specific, locale: language.locale)
            XCTAssertEqual(specific.vocabularies.map(\.code), [language.locale], language.name)
            XCTAssertEqual(specific.language, language.name)
            XCTAssertTrue(specific.namesData, "\(language.name): \(language.specific)")
            XCTAssertNil(UsageStringVagueRule.problem(specific, key: HealthKeys.share, writes: nil), language.name)

            let generic = PurposeText(language.generic, locale: language.locale)
            XCTAssertTrue(generic.isJudged, language.name)
            XCTAssertFalse(generic.namesData, "\(language.name): \(language.generic)")
            XCTAssertEqual(UsageStringVagueRule.problem(generic, key: HealthKeys.share, writes: nil), .generic, language.name)

            XCTAssertEqual(PurposeText(language.specific).language, language.name, "guessed without a locale: \(language.specific)")
            XCTAssertEqual(PurposeText(language.generic).language, language.name, "guessed without a locale: \(language.generic)")
            XCTAssertFalse(PurposeText(language.generic).namesData, "\(language.name) without a locale: \(language.generic)")
        }
    }

    /// Strings like the ones reviewers saw in real apps' translations (Loop, GlucoseDirect, iAPS): meals,
    /// blood glucose, carbohydrates, sleep, saved to or exported from Health. Whole apps, through the
    /// loaders: no finding at all, where each was a usage-string-language-unjudged note before.
    func testTranslationsLikeRealAppsGiveNoFinding() throws {
        let result = try audit(.healthApp([
            "da.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "Steady læser måltider og blodsukker fra Apple Sundhed for at vise, hvordan maden påvirker din glukose.";
            "NSHealthUpdateUsageDescription" = "Måltider og blodsukkerværdier, som du indtaster i appen, gemmes i Apple Sundhed.";
            """,
            "fi.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "Steady lukee ateria-, glukoosi- ja unitiedot Terveys-sovelluksesta ja näyttää ne kaaviossa.";
            "NSHealthUpdateUsageDescription" = "Steady tallentaa syöttämäsi hiilihydraatit Terveys-sovellukseen.";
            """,
            "pl.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "Steady odczytuje posiłki, poziom cukru we krwi i dane z sensora CGM, aby pokazać wpływ węglowodanów.";
            "NSHealthUpdateUsageDescription" = "Steady zapisuje w aplikacji Zdrowie posiłki i węglowodany, które wprowadzasz.";
            """,
            "ro.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "Steady citește datele despre nutriție și glicemie pentru a calcula efectul carbohidraților.";
            "NSHealthUpdateUsageDescription" = "Steady salvează în aplicația Sănătate carbohidrații și glucoza pe care le introduci.";
            """,
            "vi.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "Steady đọc dữ liệu bữa ăn, đường huyết và carbohydrate để tính liều insulin.";
            "NSHealthUpdateUsageDescription" = "Steady lưu trữ lượng carbohydrate và đường huyết bạn nhập vào ứng dụng Sức khỏe.";
            """,
            "tr.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "Steady, kan şekeri grafiğini çizmek için glikoz verilerinizi okur.";
            "NSHealthUpdateUsageDescription" = "Steady, kan şekeri verilerinizi Sağlık uygulamasına aktarır.";
            """,
            // "Your drinking-water data", as Pocket Water Tracker writes it (喝水, the everyday word beside 饮水).
            "zh-Hans.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "口袋喝水助手使用苹果健康来保存和同步你的喝水数据";
            "NSHealthUpdateUsageDescription" = "口袋喝水助手把你记录的喝水量保存到苹果健康";
            """,
        ]))
        XCTAssertEqual(describe(result.findings), [])
        XCTAssertEqual(try XCTUnwrap(result.answers.first { $0.question == .usageStringsMeaningful }).status, .yes)
    }

    /// Generic translations are judged in their language: one warning per key, naming the
    /// translations that share the problem.
    func testGenericTranslationsAreVague() throws {
        let result = try audit(.healthApp([
            "nb.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "Denne appen trenger tilgang til helsedataene dine.";
            """,
            "pl.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "Ta aplikacja potrzebuje dostępu do Twoich danych zdrowotnych.";
            """,
            "uk.lproj/InfoPlist.strings": """
            "NSHealthShareUsageDescription" = "Цьому застосунку потрібен доступ до ваших даних про здоров'я.";
            """,
        ]))
        let vague = result.findings.filter { $0.ruleID == "usage-string-vague" }
        XCTAssertEqual(vague.count, 1, describe(result.findings).joined(separator: "\n"))
        let message = vague.first?.message ?? ""
        XCTAssertTrue(message.hasPrefix("NSHealthShareUsageDescription in the ") && message.contains(" is generic: it names no kind of health data"), message)
        XCTAssertTrue(["nb", "pl", "uk"].allSatisfy { message.contains(" \($0) localization") || message.contains(" \($0),") || message.contains(" \($0) localizations") }, message)
        XCTAssertEqual(result.findings.filter { $0.ruleID == "usage-string-language-unjudged" }.count, 0)
    }

    /// Locale codes as folders and catalogs write them map to the vocabulary: Norwegian under `nb`,
    /// `no` and `nn`; Hebrew and Indonesian also under their old codes; regions and scripts dropped.
    func testLocaleCodesMapToTheirVocabulary() {
        let norwegian = "Appen leser blodsukkeret ditt."
        for locale in ["nb", "no", "nn", "nb-NO", "no_NO", "Norwegian"] {
            XCTAssertEqual(PurposeText(norwegian, locale: locale).vocabularies.map(\.code), ["nb"], locale)
        }
        for locale in ["he", "iw", "he-IL", "iw_IL"] {
            XCTAssertEqual(PurposeText("האפליקציה קוראת את הצעדים שלך.", locale: locale).vocabularies.map(\.code), ["he"], locale)
        }
        for locale in ["id", "in", "id-ID"] {
            XCTAssertEqual(PurposeText("Aplikasi membaca langkah Anda.", locale: locale).vocabularies.map(\.code), ["id"], locale)
        }
        for (locale, code) in [("da-DK", "da"), ("Danish", "da"), ("ms-MY", "ms"), ("pt-BR", "pt"), ("sr-Latn", "sr"), ("ca-ES", "ca"), ("pl-PL", "pl"),
                               ("el-GR", "el"), ("uk-UA", "uk"), ("ar-SA", "ar"), ("hi-IN", "hi"), ("th-TH", "th"), ("ka-GE", "ka"), ("vi-VN", "vi")] {
            XCTAssertEqual(LocaleCode(locale)?.vocabularyCode, code, locale)
        }
        // An English string left in a new language's folder is judged as English (iAPS's `pl.lproj`, `tr.lproj`).
        for locale in ["pl", "tr", "da", "fi", "he", "vi"] {
            XCTAssertEqual(PurposeText("Health App is used to store blood glucose, insulin and carbohydrates", locale: locale).language, "English", locale)
            XCTAssertEqual(PurposeText("We need access to your health data.", locale: locale).language, "English", locale)
        }
    }

    /// English and German texts, with no locale, are never taken for one of the new languages, whose
    /// common words leave out English and German ones ("at", "for", "in", "on", "is", "be", "du", "es").
    func testEnglishAndGermanAreStillGuessedAsThemselves() {
        let english = [
            RuleExample.goodShare, RuleExample.goodUpdate, "We need access to your health data.", "Reads your heart rate to show it on your stream overlay.",
            "Pulsar reads the metrics your ring records so the dashboard can chart them.", "Pulsar does not write any data to Apple Health.",
            "Uses your walking speed from the Health app to give you more accurate arrival times.", "Saves rides you record as cycling workouts in Health.",
            "For the app to work on the Apple Watch, please ensure that you have enabled HealthKit permissions.",
            "Health App is used to store blood glucose, insulin and carbohydrates",
        ]
        for text in english { XCTAssertEqual(PurposeText(text).vocabularies.map(\.code), ["en"], text) }
        let german = [
            "Steady liest deine Schritte, Herzfrequenz und Achtsamkeitssitzungen, um deine Erholung zu zeigen.",
            "Wir benötigen Zugriff auf deine Gesundheitsdaten, um die App zu verbessern.",
            "Die App liest Ihre Mahlzeiten und Ihren Blutzucker aus Health, damit sie die Wirkung der Kohlenhydrate zeigen kann.",
            "Steady speichert die Trainings, die du aufzeichnest, damit du sie in Health siehst.",
        ]
        for text in german { XCTAssertEqual(PurposeText(text).vocabularies.map(\.code), ["de"], text) }
    }

    /// Close languages are each judged with a vocabulary that fits: Slovak and Czech, Malay and
    /// Indonesian, Norwegian, Danish and Swedish; in Cyrillic, Ukrainian by its letters and Bulgarian by
    /// its words, Serbian not at all; Persian in Arabic script and Marathi in Devanagari are not
    /// taken for Arabic or Hindi.
    func testCloseLanguagesAreToldApart() {
        XCTAssertEqual(PurposeText("Aplikácia číta údaje o spánku a krokoch, aby sa zobrazila vaša aktivita.").language, "Slovak")
        XCTAssertEqual(PurposeText("Aplikace čte údaje o spánku a krocích, aby se zobrazila vaše aktivita.").language, "Czech")
        XCTAssertEqual(PurposeText("Apl ini membaca data tidur anda supaya boleh memaparkan kesihatan anda.").language, "Malay")
        XCTAssertEqual(PurposeText("Aplikasi ini membaca data tidur Anda agar dapat menampilkan kesehatan Anda.").language, "Indonesian")
        XCTAssertEqual(PurposeText("Appen bruker søvndata fra Helse og lagrer treningene dine.").language, "Norwegian")
        XCTAssertEqual(PurposeText("Appen bruger søvndata fra Sundhed og gemmer dine træninger.").language, "Danish")
        XCTAssertEqual(PurposeText("Appen använder sömndata från Hälsa och sparar dina träningspass.").language, "Swedish")
        // Whichever of two close languages a text is taken for, it is judged with both words lists.
        XCTAssertTrue(PurposeText("Appen lagrer blodsukker og karbohydrater i Helse.", locale: "da").namesData)
        XCTAssertTrue(PurposeText("Aplikácia ukladá glukózu a sacharidy.", locale: "cs").namesData)

        XCTAssertEqual(PurposeText("Приложение читает ваши шаги и пульс.").language, "Russian")
        XCTAssertEqual(PurposeText("Приложението чете вашите крачки и пулса.").language, "Bulgarian")
        XCTAssertEqual(PurposeText("Застосунок читає ваші кроки та пульс.").language, "Ukrainian")
        XCTAssertFalse(PurposeText("Апликација чита ваше кораке и пулс.").isJudged, "Serbian: ј")
        XCTAssertFalse(PurposeText("برنامه وزن و قدم‌های شما را برای پیگیری می‌خواند.").isJudged, "Persian: پ, گ, ی")
        XCTAssertFalse(PurposeText("हे ॲप तुमची झोप आणि पावले वाचते आणि आरोग्य डेटा दाखवते.").isJudged, "Marathi: आणि")
        XCTAssertFalse(PurposeText("יידיש טעקסט װעגן געזונט.").isJudged, "Yiddish: װ")
        XCTAssertEqual(PurposeText("Приложение читает ваши шаги и пульс.", locale: "bg").language, "Bulgarian", "the locale decides")
    }

    /// Short stems that start other words are not taken for data (nor for saving): the texts below
    /// name no data, each in its language.
    func testShortStemsDoNotMatchOtherWords() {
        let generic: [(String, String)] = [
            ("cs", "Aplikace teprve potom požádá o přístup k vašim údajům."),  // "tep" (pulse) in "teprve"
            ("vi", "Dữ liệu được cung cấp bởi ứng dụng Sức khỏe và thuộc về bạn."),  // "bơi" (swim) as "bởi", "thuốc" as "thuộc"
            ("vi", "Bạn có thể cho phép ứng dụng hoạt động với Sức khỏe."),  // "cơ thể" as "có thể"
            ("ca", "Les dades de salut són teves i només les llegim amb permís."),  // "son" (sleep) as "són"
            ("da", "Data fra Sundhed anvendes, når du giver adgang til appen."),  // "vand" in "anvendes", "gang" in "adgang"
            ("pl", "To ma sens tylko wtedy, gdy aplikacja ma dostęp do danych."),  // "sen" (sleep) starts "sens"
            ("uk", "Застосунок лише показує дані, тільки коли ви дозволите доступ."),  // "тіл" (body) starts "тільки"
            ("fi", "Sovellus kehottaa antamaan pääsyn kommunikointia varten."),  // "keho" in "kehottaa", "uni" in "kommunikointi"
            ("hu", "Az alkalmazás vizsgálat céljából kér hozzáférést a tételekhez."),  // "víz" in "vizsgálat", "étel" in "tételek"
            ("he", "האפליקציה צריכה גישה לנתונים מסוימים שקיימים בבריאות."),  // "מים" (water) ending "מסוימים"
            ("th", "แอปนี้พยายามขยายการเข้าถึงข้อมูลสุขภาพของคุณ"),  // "ยา" (medicine) in "พยายาม", "ขยาย"
            ("hi", "यह ऐप दिलचस्प सेवा के लिए आपके स्वास्थ्य डेटा तक पहुंच चाहता है।"),  // "दिल" (heart) starts "दिलचस्प"
        ]
        for (locale, text) in generic {
            let purpose = PurposeText(text, locale: locale)
            XCTAssertTrue(purpose.isJudged, text)
            XCTAssertFalse(purpose.namesData, "\(locale): \(text)")
        }
        // Not "saving": Ukrainian "додаток" (app) is not "додає" (adds), Hindi "सेवा" (service) is not "सेव" (save).
        XCTAssertFalse(PurposeText("Додаток показує ваші кроки.", locale: "uk").claimsWriting)
        XCTAssertFalse(PurposeText("यह ऐप सेवा के लिए आपके कदम दिखाता है।", locale: "hi").claimsWriting)
        // Saying the app saves nothing, in the new languages.
        for (locale, text) in [("da", "Steady skriver ikke nogen data til Apple Sundhed."), ("cs", "Steady neukládá žádná data do aplikace Zdraví."),
                               ("pl", "Steady nie zapisuje żadnych danych w aplikacji Zdrowie."), ("tr", "Steady, Sağlık uygulamasına veri yazmaz."),
                               ("he", "Steady לא כותבת נתונים לאפליקציית הבריאות.")] {
            XCTAssertTrue(PurposeText(text, locale: locale).saysItWritesNothing, text)
        }
        // A read-only app's update string saying the permission is never asked for (Rosie's) is not vague.
        XCTAssertNil(UsageStringVagueRule.problem(PurposeText("This permission should not be requested.", locale: nil), key: "NSHealthUpdateUsageDescription", writes: nil))
        // Only for the update key: a share string that is privacy boilerplate is still generic.
        XCTAssertEqual(UsageStringVagueRule.problem(PurposeText("Your data is not requested by advertisers or sold to anyone.", locale: nil),
                                                    key: "NSHealthShareUsageDescription", writes: nil), .generic)
    }

    /// "Metrics" names data in English ("reads the metrics you choose"), so its words in the other
    /// languages do too: a faithful translation is judged as its original is.
    func testMetricsNameDataInEveryLanguage() {
        let metrics: [(locale: String, text: String)] = [
            ("de", "Liest die ausgewählten Kennzahlen aus Health."), ("fr", "Lit les métriques que vous choisissez dans Santé."),
            ("es", "Lee las métricas que elijas de Salud."), ("pt-BR", "Lê as métricas que você escolher no Saúde."),
            ("it", "Legge le metriche che scegli da Salute."), ("nl", "Leest de statistieken die je kiest uit Gezondheid."),
            ("sv", "Läser de mätvärden du väljer från Hälsa."), ("da", "Læser de måleværdier, du vælger, fra Sundhed."),
            ("nb", "Leser måleverdiene du velger fra Helse."), ("fi", "Lukee valitsemasi mittarit Terveys-apista."),
            ("pl", "Odczytuje wybrane wskaźniki z aplikacji Zdrowie."), ("cs", "Čte vybrané ukazatele z aplikace Zdraví."),
            ("tr", "Sağlık'tan seçtiğiniz metrikleri okur."), ("hu", "Beolvassa a kiválasztott mutatókat az Egészség appból."),
            ("ru", "Читает выбранные показатели из приложения «Здоровье»."), ("uk", "Читає вибрані показники з програми «Здоров’я»."),
            ("el", "Διαβάζει τους δείκτες που επιλέγετε από την Υγεία."), ("ja", "選択した指標をヘルスケアから読み取ります。"),
            ("zh-Hans", "读取你选择的健康指标。"), ("ko", "선택한 지표를 건강 앱에서 읽습니다."), ("vi", "Đọc các chỉ số bạn chọn từ ứng dụng Sức khỏe."),
        ]
        for (locale, text) in metrics {
            XCTAssertTrue(PurposeText(text, locale: locale).namesData, "\(locale): \(text)")
        }
    }

}
