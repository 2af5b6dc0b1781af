import Foundation

/// The words one language uses for health data, for judging purpose strings written in it: whether
/// a string names a kind of data, says the app saves to Health, or says it saves nothing. Data, not
/// code: one value per language, built from the names Apple's Health app shows in that language
/// (its categories and data types: Steps, Heart Rate, Sleep, Workouts, Weight, Active Energy, Blood
/// Glucose, Mindfulness, …) and the common words a purpose string uses around them.
///
/// Terms are written as people write them (with accents); matching folds case and diacritics on both
/// sides, so "frequencia cardiaca" typed without accents still names heart rate.
struct HealthDataVocabulary: Sendable {
    /// How a term is found in a text.
    enum Matching: Sendable {
        /// At the start of a word ("step" in "steps"); a term ending in a space must be the whole word.
        case wordStart
        /// Anywhere: compounding languages ("Herzfrequenz" in "Ruheherzfrequenz") and scripts written
        /// without spaces.
        case anywhere
    }

    /// BCP 47 primary subtag (`de`), or `zh-Hans` / `zh-Hant`.
    let code: String
    /// English name, for messages.
    let name: String
    let matching: Matching
    /// Kinds of health data: a purpose string should name at least one.
    let dataTerms: [String]
    /// Words that say the app puts data into Health (save, write, record, sync…).
    let writeTerms: [String]
    /// Phrases that say the app writes nothing: a read-only app must still ship the update string.
    let writesNothing: [String]
    /// Frequent short words of the language, to tell which language a text without a locale is in.
    let commonWords: [String]
    /// The script it is written in: a text in another script is not in this language.
    let script: WritingScript

    /// Terms are kept folded as `PurposeText` folds texts, so matching compares like with like.
    init(code: String, name: String, script: WritingScript = .latin, matching: Matching, dataTerms: [String], writeTerms: [String],
         writesNothing: [String], commonWords: [String]) {
        self.code = code; self.name = name; self.script = script; self.matching = matching
        self.dataTerms = dataTerms.map(PurposeText.normalizeTerm)
        self.writeTerms = writeTerms.map(PurposeText.normalizeTerm)
        self.writesNothing = writesNothing.map(PurposeText.normalizeTerm)
        self.commonWords = commonWords.map(PurposeText.normalize)
    }

    /// Terms every language borrows as is (abbreviations and English loanwords of fitness apps).
    static let international = ["hrv", "vo2", "bmi", "spo2", "ecg", "ekg", "bpm", "workout", "fitness", "cardio", "mindfulness"]

    /// Every vocabulary, in the order languages are tried when a text's language is guessed.
    static let all: [HealthDataVocabulary] = [
        english, german, french, spanish, portuguese, italian, dutch, swedish, russian, japanese, simplifiedChinese,
        traditionalChinese, korean,
    ]
}

// Sources of the Health app's localized names (read 2026-11; Apple's support articles HT204351 / 108779
// "Manage health data on your iPhone" and the iPhone User Guide page iphbb8259c61 "Collect data
// automatically in Health" are the same text in every language):
// - en: support.apple.com/HT204351 (Activity, Steps, Sleep, Sleep Analysis, Mindfulness, Nutrition)
// - de: support.apple.com/de-li/guide/iphone/iphbb8259c61 ("Schritte", "Aktivität", "Mobilität",
//   "Hören"), support.apple.com/it-ch/HT204351 (German edition: "Aktivität", "Schritte")
// - fr: support.apple.com/fr-mg/guide/ipod-touch/iphbb8259c61 ("nombre de pas", "Activité",
//   "Sommeil", "Audition", "mensurations", "cycle menstruel")
// - es, pt, it, sv: Apple's category names as quoted by iphoneitalia.com ("Sfoglia > Movimento"),
//   macmagazine.com.br ("frequência cardíaca", "passos"), cnet.com/es ("pasos", "ritmo cardíaco"),
//   mobil.se ("Sömn")
// - nl: support.apple.com/nl-be/HT204351 ("Activiteit", "Stappen", "Gezondheid-app")
// - ru: techhaps.com/ru guide to «Здоровье» («шаги», «сон», «сердечный ритм», «Параметры тела»)
// - ja: support.apple.com/ja-jp/HT203037 and /108779 (「アクティビティ」「睡眠」「マインドフルネス」「栄養」「歩数」)
// - zh-Hans: support.apple.com/zh-cn/HT204351 (“健身记录”“步数”“睡眠分析”); the Health app's data
//   type list (心率、静息心率、正念分钟数、活动能量、体能训练、血氧、步行+跑步距离)
// - zh-Hant: support.apple.com/zh-tw/108323 (「健康」App 分享的資料類型)
// - ko: Apple's Korean Health names as listed by the Flutter `health` package's Korean docs
//   (걸음 수, 심박수, 안정 심박수, 마음 챙김, 수면, 체중, 혈당, 소모한 활동 에너지)
extension HealthDataVocabulary {
    static let english = HealthDataVocabulary(
        code: "en", name: "English", matching: .wordStart,
        dataTerms: [
            "step", "heart", "pulse", "hrv", "variability", "sleep", "workout", "exercise", "activity", "activities", "ride", "run", "walk",
            "cycl", "swim", "weight", "body", "mass", "height", "bmi", "fat", "calor", "energy", "distance", "mindful", "meditat",
            "age", "birth", "sex", "vo2", "oxygen", "blood", "glucose", "respirat", "breath", "temperature", "nutrition", "diet", "water",
            // Not "record" alone: "access to record health data" names nothing; records are clinical ones.
            "hydrat", "cycle", "menstrua", "health record", "medical record", "clinical", "allerg", "immuniz", "vaccin", "lab result",
            "medication", "fitness", "training", "recovery", "vital", "insulin", "stair",
            "flights climbed", "mobility", "symptom", "move", "carb", "meal", "food", "glyc",
            // Real apps name their data as the device does: "the metrics from your ring", "readings".
            "metric", "measurement", "reading",
        ],
        writeTerms: ["save", "saving", "write", "writing", "wrote", "written", "store", "storing", "log", "add", "sync", "export", "upload",
                     "record", "contribut", "send", "update", "share"],
        writesNothing: ["does not write", "doesn't write", "never writes", "will not write", "won't write", "writes nothing", "no data is written",
                        "nothing is written", "nothing is ever written", "never written", "does not save", "doesn't save", "never saves",
                        "saves nothing", "only reads", "read-only", "read only"],
        commonWords: ["the", "and", "your", "you", "to", "of", "for", "we", "our", "this", "with", "from", "in", "is", "will", "data",
                      "health", "access", "use", "uses", "read", "reads", "need", "needs", "allow", "on", "app", "be", "can"])

    static let german = HealthDataVocabulary(
        code: "de", name: "German", matching: .anywhere,
        dataTerms: [
            "schritt", "herz", "puls", "schlaf", "training", "workout", "gewicht", "kalorien", "energie", "blutzucker", "glukose", "glucose",
            "blutdruck", "achtsamkeit", "atem", "sauerstoff", "körper", "temperatur", "distanz", "strecke", "aktivität",
            "bewegung", "ernährung", "wasser", "zyklus", "menstruation", "medikament", "fitness", "insulin", "messwert", "mobilität",
            "stockwerk", "treppen", "laufen", "radfahren", "schwimm", "kohlenhydrat", "mahlzeit", "nahrung", "lebensmittel", "glykäm",
        ],
        writeTerms: ["speicher", "schreib", "sichern", "eintrag", "trägt", "hinzufüg", "fügt", "aufzeichn", "zeichnet", "synchronis",
                     "export", "übertrag", "teilen", "teilt", "erfass", "protokoll"],
        writesNothing: ["schreibt keine", "speichert keine", "schreibt nicht", "speichert nicht", "nicht geschrieben", "nicht gespeichert",
                        "keine daten geschrieben", "keine daten gespeichert", "nur gelesen", "nur lesen", "liest nur"],
        commonWords: ["der", "die", "das", "und", "ist", "in", "im", "deine", "dein", "deinen", "ihre", "ihr", "ihren", "sie", "wir", "um", "zu", "mit",
                      "von", "für", "auf", "den", "dem", "werden", "wird", "nicht", "daten", "zugriff", "benötigt", "möchte", "damit"])

    static let french = HealthDataVocabulary(
        code: "fr", name: "French", matching: .wordStart,
        dataTerms: [
            // "pas" alone is also the negation ("ne … pas"): steps only in their usual phrases.
            "nombre de pas", "vos pas ", "les pas ", "pas quotidien", "podom", "fréquence cardiaque", "rythme cardiaque", "cardiaque",
            "cœur", "coeur", "pouls", "sommeil", "entraînement", "exercice", "séance", "poids", "calorie", "énergie", "glycémie", "glucose",
            "tension artérielle", "pression artérielle", "pleine conscience", "respiration", "respiratoire", "oxygène", "température",
            "taille ", "distance", "marche", "course", "vélo", "cyclisme", "natation", "nutrition", "aliment", "hydratation", "glucide", "repas",
            "cycle", "menstru", "médicament", "activité", "mensuration", "graisse", "imc", "insuline", "mobilité", "étages", "mesure",
        ],
        writeTerms: ["enregistr", "écri", "sauvegard", "ajout", "synchronis", "export", "partag", "stock", "envoi", "transf", "consign",
                     "mettre à jour", "mise à jour"],
        writesNothing: ["n'écrit", "n’écrit", "n'enregistre", "n’enregistre", "n'ajoute", "n’ajoute", "ne sauvegarde", "lecture seule",
                        "uniquement lire", "lit uniquement", "aucune donnée n'est", "aucune donnée n’est", "ne sont pas enregistr"],
        commonWords: ["le", "la", "les", "des", "de", "du", "et", "vos", "votre", "nous", "pour", "avec", "sur", "est", "une", "un", "afin",
                      "données", "santé", "accès", "application", "permet", "vous"])

    static let spanish = HealthDataVocabulary(
        code: "es", name: "Spanish", matching: .wordStart,
        dataTerms: [
            "pasos", "frecuencia cardíaca", "frecuencia cardiaca", "ritmo cardíaco", "ritmo cardiaco", "cardíac", "cardiac", "corazón",
            "pulso", "pulsaciones", "sueño", "dormir", "entrenamiento", "ejercicio", "peso", "caloría", "calorías", "energía", "glucosa",
            "azúcar en sangre", "glucemia", "presión arterial", "tensión arterial", "atención plena", "respiración", "respiratori",
            "oxígeno", "temperatura", "altura", "estatura", "distancia", "caminar", "caminata", "correr", "carrera", "ciclismo",
            "bicicleta", "natación", "nutrición", "aliment", "agua", "hidratación", "ciclo menstrual", "menstrua", "medicamento", "carbohidrato",
            "comida", "glucem",
            "medicación", "actividad", "grasa", "imc", "insulina", "movilidad", "pisos", "medición", "mediciones",
        ],
        writeTerms: ["guard", "escrib", "registr", "almacen", "añad", "agreg", "sincroniz", "export", "compart", "envi", "actualiz"],
        writesNothing: ["no escribe", "no guarda", "no almacena", "no registra", "no se escribe", "no se guarda", "solo lee", "sólo lee",
                        "solo lectura", "sólo lectura", "ningún dato"],
        commonWords: ["el", "la", "los", "las", "de", "del", "tus", "tu", "su", "sus", "para", "con", "en", "que", "nosotros", "datos",
                      "salud", "acceso", "aplicación", "necesita", "permite", "usar", "utiliza"])

    static let portuguese = HealthDataVocabulary(
        code: "pt", name: "Portuguese", matching: .wordStart,
        dataTerms: [
            "passos", "frequência cardíaca", "batimento", "cardíac", "coração", "pulso", "sono", "dormir", "treino", "exercício",
            "atividade", "actividade", "peso", "caloria", "calorias", "energia", "glicose", "glicemia", "açúcar no sangue",
            "pressão arterial", "atenção plena", "respira", "oxigénio", "oxigênio", "temperatura", "altura", "distância", "caminhada",
            "corrida", "ciclismo", "bicicleta", "natação", "nutrição", "aliment", "água", "hidratação", "ciclo menstrual", "menstrua",
            "carboidrato", "hidratos de carbono", "refeição", "refeições",
            "medicamento", "medicação", "gordura", "imc", "insulina", "mobilidade", "andares", "medição", "medições", "medidas",
        ],
        writeTerms: ["salv", "grav", "escrev", "registr", "armazen", "adicion", "sincroniz", "export", "compartilh", "partilh", "envi",
                     "atualiz", "guard"],
        writesNothing: ["não escreve", "não grava", "não salva", "não armazena", "não registra", "não regista", "apenas lê", "somente lê",
                        "só lê", "apenas leitura", "somente leitura", "nenhum dado"],
        commonWords: ["os", "as", "de", "do", "da", "dos", "das", "seu", "sua", "seus", "suas", "para", "com", "em", "que",
                      "nos", "dados", "saúde", "acesso", "aplicativo", "aplicação", "precisa", "este", "esta", "permite", "você", "app"])

    static let italian = HealthDataVocabulary(
        code: "it", name: "Italian", matching: .wordStart,
        dataTerms: [
            "passi", "frequenza cardiaca", "battito", "battiti", "cardiac", "cuore", "polso", "sonno", "dormire", "allenament", "esercizi",
            "peso", "calori", "energia", "glicemia", "glucosio", "pressione arteriosa", "pressione sanguigna", "consapevolezza",
            "respira", "ossigeno", "temperatura", "altezza", "distanza", "camminat", "corsa", "ciclismo", "bicicletta", "nuoto",
            "nutrizione", "aliment", "acqua", "idratazione", "ciclo mestruale", "mestrua", "farmac", "attività", "grasso", "imc", "carboidrat",
            "pasti", "pasto", "cibo", "glicem",
            "insulina", "mobilità", "piani saliti", "misurazion", "movimento",
        ],
        writeTerms: ["salv", "scriv", "registr", "memorizz", "archivi", "aggiung", "sincronizz", "esport", "condivid", "invi", "aggiorn"],
        writesNothing: ["non scrive", "non salva", "non registra", "non memorizza", "solo lettura", "legge solo", "nessun dato"],
        commonWords: ["il", "lo", "la", "gli", "le", "di", "del", "della", "tuo", "tua", "tuoi", "tue", "per", "con", "in", "che",
                      "noi", "dati", "salute", "accesso", "serve", "permette", "consente", "app"])

    static let dutch = HealthDataVocabulary(
        code: "nl", name: "Dutch", matching: .anywhere,
        dataTerms: [
            "stappen", "hartslag", "hartritme", "hartfrequentie", "slaap", "training", "workout", "gewicht", "calorie", "energie",
            "bloedsuiker", "glucose", "bloeddruk", "ademhaling", "zuurstof", "temperatuur", "lengte", "afstand", "wandel", "hardlo",
            "fiets", "zwem", "voeding", "water", "menstrua", "cyclus", "medicij", "activiteit", "beweging", "lichaam", "insuline",
            "mobiliteit", "trappen", "meting", "koolhydra", "maaltijd",
        ],
        writeTerms: ["opslaan", "opgeslagen", "slaat", "schrijf", "schrijv", "bewaar", "toevoeg", "voegt", "synchronis", "exporte", "delen",
                     "deelt", "registr", "vastleggen", "legt vast", "bijwerk"],
        writesNothing: ["schrijft geen", "slaat geen", "schrijft niets", "slaat niets", "niets opgeslagen", "niet opgeslagen",
                        "leest alleen", "alleen lezen", "alleen gelezen"],
        commonWords: ["de", "het", "een", "en", "van", "je", "jouw", "uw", "wij", "we", "om", "te", "met", "voor", "op", "is", "gegevens",
                      "gezondheid", "toegang", "nodig", "kan", "wordt"])

    static let swedish = HealthDataVocabulary(
        code: "sv", name: "Swedish", matching: .anywhere,
        dataTerms: [
            // "vikt" alone starts "viktig" (important): the word, or inside a compound.
            "steg", "puls", "hjärtfrekvens", "hjärta", "sömn", "träning", "workout", " vikt ", " vikten ", "kroppsvikt", "kalori", "energi", "blodsocker", "glukos",
            "blodtryck", "medveten närvaro", "andning", "syre", "temperatur", "längd", "distans", "sträcka", "promenad", "löpning",
            "cykel", "cykling", "simning", "näring", "vatten", "menstrua", "läkemedel", "aktivitet", "rörelse", "kropp", "fett",
            "insulin", "mobilitet", "trappor", "mätning", "kolhydrat", "måltid", " mat ",
        ],
        writeTerms: ["spara", "sparar", "skriv", "lagra", "registrer", "lägga till", "lägger till", "synkronis", "exporter", "dela",
                     "uppdater"],
        writesNothing: ["skriver inte", "sparar inte", "sparar ingen", "skriver ingen", "endast läs", "bara läs", "ingen data sparas",
                        "ingen data skrivs"],
        commonWords: ["och", "att", "din", "ditt", "dina", "för", "med", "av", "på", "är", "vi", "som", "till", "om", "hälsodata", "hälsa",
                      "åtkomst", "appen", "behöver", "kan", "används"])

    static let russian = HealthDataVocabulary(
        code: "ru", name: "Russian", script: .cyrillic, matching: .wordStart,
        dataTerms: [
            // Whole words where a stem is also another word: "вес " (weight, not "весь"), "сна " (of sleep, not "сначала").
            "шаг", "пульс", "частот", "сердечн", "сердц", "сон ", "сна ", "сне ", "сном ", "тренировк", "упражнен", "вес ", "веса ", "весе ",
            "калори", "энерги", "глюкоз", "сахар", "давлени", "осознанност", "дыхани", "кислород", "температур", "рост ", "дистанци",
            "расстояни", "ходьб", "бег", "велосипед", "плавани", "питани", "воды ", "вода ", "цикл", "менструа", "лекарств",
            "медикамент", "активност", "жир", "имт", "инсулин", "этаж", "измерени", "фитнес", "гликем", "углевод", "пищ", "еда ", "еды ", "еду ",
        ],
        writeTerms: ["сохран", "хран", "запис", "добавл", "синхрониз", "экспорт", "переда", "делит", "обновл"],
        writesNothing: ["не записывает", "не сохраняет", "ничего не записыва", "ничего не сохраня", "только чтени", "только чита",
                        "не записываются", "не сохраняются"],
        commonWords: ["и", "в", "на", "для", "с", "ваш", "ваши", "вашего", "ваших", "вам", "мы", "это", "приложение", "приложению",
                      "данные", "данных", "здоровье", "здоровья", "доступ", "чтобы", "не"])

    static let japanese = HealthDataVocabulary(
        code: "ja", name: "Japanese", script: .kana, matching: .anywhere,
        dataTerms: [
            "歩数", "歩行", "歩いた", "心拍", "脈拍", "睡眠", "ワークアウト", "トレーニング", "運動", "体重", "カロリー", "エネルギー",
            "血糖", "グルコース", "血圧", "マインドフル", "呼吸", "酸素", "体温", "身長", "距離", "ウォーキング", "ランニング",
            "サイクリング", "水泳", "栄養", "水分", "月経", "生理", "周期", "服薬", "アクティビティ", "活動", "体脂肪", "体組成",
            "心電図", "インスリン", "上った階", "測定", "計測", "フィットネス", "炭水化物", "糖質", "食事",
        ],
        writeTerms: ["書き込", "書込", "保存", "記録", "追加", "同期", "登録", "エクスポート", "共有"],
        writesNothing: ["書き込みは行いません", "書き込みを行いません", "書き込みません", "書き込むことはありません", "保存しません",
                        "記録しません", "読み取りのみ", "読み取り専用"],
        commonWords: [])

    static let simplifiedChinese = HealthDataVocabulary(
        code: "zh-Hans", name: "Simplified Chinese", script: .han, matching: .anywhere,
        dataTerms: [
            "步数", "步行", "心率", "心跳", "脉搏", "睡眠", "体能训练", "锻炼", "训练", "运动", "体重", "卡路里", "热量", "能量", "血糖",
            "葡萄糖", "血压", "正念", "呼吸", "血氧", "氧气", "体温", "身高", "距离", "跑步", "骑行", "骑车", "游泳", "营养", "饮食",
            "饮水", "水分", "月经", "经期", "周期", "药物", "用药", "活动", "健身", "体脂", "身体质量指数", "心电图", "胰岛素", "碳水化合物", "膳食",
            "楼层", "测量",
        ],
        writeTerms: ["写入", "保存", "储存", "存储", "记录", "添加", "同步", "导出", "共享", "更新"],
        writesNothing: ["不会写入", "不写入", "不会保存", "不保存", "仅读取", "只读取", "只会读取"],
        commonWords: [])

    static let traditionalChinese = HealthDataVocabulary(
        code: "zh-Hant", name: "Traditional Chinese", script: .han, matching: .anywhere,
        dataTerms: [
            "步數", "步行", "心率", "心跳", "脈搏", "睡眠", "體能訓練", "鍛鍊", "訓練", "運動", "體重", "卡路里", "熱量", "能量", "血糖",
            "葡萄糖", "血壓", "正念", "呼吸", "血氧", "氧氣", "體溫", "身高", "距離", "跑步", "騎行", "騎車", "游泳", "營養", "飲食",
            "飲水", "水分", "月經", "經期", "週期", "藥物", "用藥", "活動", "健身", "體脂", "身體質量指數", "心電圖", "胰島素", "碳水化合物", "膳食",
            "樓層", "測量",
        ],
        writeTerms: ["寫入", "保存", "儲存", "存儲", "記錄", "紀錄", "新增", "加入", "同步", "匯出", "共享", "更新"],
        writesNothing: ["不會寫入", "不寫入", "不會儲存", "不儲存", "僅讀取", "只讀取", "只會讀取"],
        commonWords: [])

    static let korean = HealthDataVocabulary(
        code: "ko", name: "Korean", script: .hangul, matching: .anywhere,
        dataTerms: [
            "걸음", "보행", "심박", "맥박", "수면", "운동", "체중", "몸무게", "칼로리", "에너지", "혈당", "포도당", "혈압", "마음 챙김",
            "마음챙김", "호흡", "산소", "체온", "신장", "거리", "걷기", "달리기", "러닝", "사이클", "자전거", "수영", "영양", "식단",
            "수분", "생리", "월경", "약물", "탄수화물", "식사", "음식", "복약", "활동", "체지방", "심전도", "인슐린", "계단", "측정", "피트니스",
        ],
        writeTerms: ["저장", "기록", "쓰기", "작성", "추가", "동기화", "내보내", "공유", "업데이트"],
        writesNothing: ["저장하지 않", "기록하지 않", "쓰지 않", "읽기만", "읽기 전용"],
        commonWords: [])
}
