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
        traditionalChinese, korean, danish, norwegian, finnish, polish, czech, slovak, turkish, romanian, hungarian, croatian,
        catalan, vietnamese, indonesian, malay, greek, ukrainian, bulgarian, hebrew, arabic, hindi, thai, georgian,
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
            // What apps call the values they read, as English "metrics" and "readings" are.
            "metrik", "kennzahl", "kennwert",
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
            // What apps call the values they read, as English "metrics" and "readings" are.
            "métrique", "indicateur",
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
            // What apps call the values they read, as English "metrics" and "readings" are.
            "métrica", "indicador",
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
            // What apps call the values they read, as English "metrics" and "readings" are.
            "métrica", "indicador",
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
            // What apps call the values they read, as English "metrics" and "readings" are.
            "metrica", "metriche", "indicator", "parametri",
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
            // What apps call the values they read, as English "metrics" and "readings" are.
            "metriek", "statistiek",
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
            // What apps call the values they read, as English "metrics" and "readings" are.
            "mätvärd", "metrik",
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
            // What apps call the values they read, as English "metrics" and "readings" are.
            "метрик", "показател",
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
            // What apps call the values they read, as English "metrics" and "readings" are.
            "指標", "メトリクス",
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
            // What apps call the values they read, as English "metrics" and "readings" are.
            "指标", "数据指标",
            "步数", "步行", "心率", "心跳", "脉搏", "睡眠", "体能训练", "锻炼", "训练", "运动", "体重", "卡路里", "热量", "能量", "血糖",
            "葡萄糖", "血压", "正念", "呼吸", "血氧", "氧气", "体温", "身高", "距离", "跑步", "骑行", "骑车", "游泳", "营养", "饮食",
            "饮水", "喝水", "水分", "月经", "经期", "周期", "药物", "用药", "活动", "健身", "体脂", "身体质量指数", "心电图", "胰岛素", "碳水化合物", "膳食",
            "楼层", "测量",
        ],
        writeTerms: ["写入", "保存", "储存", "存储", "记录", "添加", "同步", "导出", "共享", "更新"],
        writesNothing: ["不会写入", "不写入", "不会保存", "不保存", "仅读取", "只读取", "只会读取"],
        commonWords: [])

    static let traditionalChinese = HealthDataVocabulary(
        code: "zh-Hant", name: "Traditional Chinese", script: .han, matching: .anywhere,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "指標",
            "步數", "步行", "心率", "心跳", "脈搏", "睡眠", "體能訓練", "鍛鍊", "訓練", "運動", "體重", "卡路里", "熱量", "能量", "血糖",
            "葡萄糖", "血壓", "正念", "呼吸", "血氧", "氧氣", "體溫", "身高", "距離", "跑步", "騎行", "騎車", "游泳", "營養", "飲食",
            "飲水", "喝水", "水分", "月經", "經期", "週期", "藥物", "用藥", "活動", "健身", "體脂", "身體質量指數", "心電圖", "胰島素", "碳水化合物", "膳食",
            "樓層", "測量",
        ],
        writeTerms: ["寫入", "保存", "儲存", "存儲", "記錄", "紀錄", "新增", "加入", "同步", "匯出", "共享", "更新"],
        writesNothing: ["不會寫入", "不寫入", "不會儲存", "不儲存", "僅讀取", "只讀取", "只會讀取"],
        commonWords: [])

    static let korean = HealthDataVocabulary(
        code: "ko", name: "Korean", script: .hangul, matching: .anywhere,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "지표", "메트릭",
            "걸음", "보행", "심박", "맥박", "수면", "운동", "체중", "몸무게", "칼로리", "에너지", "혈당", "포도당", "혈압", "마음 챙김",
            "마음챙김", "호흡", "산소", "체온", "신장", "거리", "걷기", "달리기", "러닝", "사이클", "자전거", "수영", "영양", "식단",
            "수분", "생리", "월경", "약물", "탄수화물", "식사", "음식", "복약", "활동", "체지방", "심전도", "인슐린", "계단", "측정", "피트니스",
        ],
        writeTerms: ["저장", "기록", "쓰기", "작성", "추가", "동기화", "내보내", "공유", "업데이트"],
        writesNothing: ["저장하지 않", "기록하지 않", "쓰지 않", "읽기만", "읽기 전용"],
        commonWords: [])
}

// Sources of the Health app's localized names for the languages added later (read 2026-11):
// - da: apple.com/dk/legal/privacy/data/da/improve-health-activity ("appen Sundhed", "puls", "højde, vægt",
//   "Iltniveau i blodet"); the Danish strings of Loop and LoopKit ("Måltidsdata", "Blodsukkerdata", "Søvndata")
// - nb (also `no`, `nn`): apple.com/legal/privacy/data/no/improve-health-activity ("Helse-appen", "hjerterytme",
//   "høyde, vekt", "Oksygen i blodet"); apple.com/no/newsroom 2021-06 ("helsedata", "Stabilitet ved gange")
// - fi: support.apple.com/fi-fi/HT204351 ("Terveys-appi", "Aktiivisuus", "Askeleet", "askeltietoja")
// - pl: support.apple.com/pl-pl/HT204351 ("aplikacja Zdrowie", "Aktywność", "Kroki", "liczba kroków")
// - cs: support.apple.com/cs-cz/HT204351 ("aplikace Zdraví", "Aktivita", "Kroky", "Srdce", "Srdeční tep")
// - sk: support.apple.com/sk-sk/HT204351 ("aplikácia Zdravie", "Aktivita", "Kroky", "Spánok", "Analýza spánku")
// - el: apple.com/legal/privacy/data/el/improve-health-activity («Υγεία», «Άθληση», "δραστηριότητα", "προπονήσεις")
// - ar: support.apple.com/ar-om/108323 (تطبيق "صحتي", البيانات الصحية)
// - hi: apple.com/legal/privacy/data/hi/health-app (सेहत ऐप, नींद, हृदय गति, दवाइयाँ, साइकल ट्रैकिंग)
// - tr, ro, hu, hr, ca, vi, id, ms, uk, bg, he, th, ka: no localized Apple page was at hand; the terms are the
//   everyday words for the Health app's categories and data types in each language (steps, heart rate, sleep,
//   workouts, weight, energy, blood glucose, nutrition, water, cycle, medication), checked against the
//   translated strings of real HealthKit apps where there were some (Loop, LoopKit, GlucoseDirect, iAPS,
//   OneBusAway, Daily Dozen: Turkish "KŞ"/"glikoz", Romanian "glicemie", Vietnamese "đường huyết",
//   Hebrew "ארוחות"/"פחמימות", Ukrainian "глюкоза", "вуглеводи", Georgian "გლუკოზის").
// Short stems that start other words are whole words or phrases here, as French "pas" is: Czech "tep " (not
// "teprve"), Vietnamese "bơi lội" (not "bởi"), Catalan "del son" (not "són", are), Danish " mad " (not "made").
extension HealthDataVocabulary {
    static let danish = HealthDataVocabulary(
        code: "da", name: "Danish", matching: .anywhere,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "metrik", "måleværdi",
            // Not "ilt" or "vand" alone: "filter", "anvendes" (is used); not "gang" (in "adgang", access).
            "skridt", "puls", "hjerte", "søvn", "træning", "workout", "motion", "vægt", "kalorie", "energi", "blodsukker", "glukose",
            "glucose", "blodtryk", "mindfulness", "vejrtrækning", "åndedræt", "iltniveau", "iltmætning", " ilt ", "temperatur", "højde",
            "distance", "afstand", "gåtur", "løbetur", "cykling", "cykel", "svømning", "ernæring", " kost ", " kosten ", " vand ",
            "vandindtag", "væske", "menstruation", "cyklus", "medicin", "aktivitet", "bevægelse", "krop", "fedt", "insulin", "mobilitet",
            " trapper ", "trappetrin", "måling", "kulhydrat", "måltid", " mad ", "maddata", "madindtag", "fødevare", "blod",
        ],
        writeTerms: [" gem", " skriv", "lagr", "registrer", "tilføj", "synkronis", "eksport", " dele ", " deler ", " deles ", "opdater", " send",
                     "logge"],
        writesNothing: ["skriver ikke", "gemmer ikke", "gemmer ingen", "skriver ingen", "ingen data gemmes", "ingen data skrives", "læser kun",
                        "kun læse"],
        commonWords: ["og", "af", "til", "på", "med", "din", "dine", "dit", "dig", "bruges", "anvendes", "adgang", "sundhed", "sundhedsdata",
                      "appen", "ikke", "fra", "som", "vi", "kan", "skal", "eller", "også", "jeres", "nogen"])

    static let norwegian = HealthDataVocabulary(
        code: "nb", name: "Norwegian", matching: .anywhere,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "metrikk", "måleverdi",
            // Not "mat" or "trapp" alone: English "match", "trapped" in a text of few words.
            "skritt", "trinn", "puls", "hjerte", "søvn", "trening", "workout", "mosjon", "vekt", "kalori", "energi", "blodsukker", "glukose",
            "glucose", "blodtrykk", "mindfulness", "pust", "åndedrett", "oksygen", "temperatur", "høyde", "distanse", "avstand", "gåtur",
            "løping", "løpetur", "sykling", "sykkel", "svømming", "ernæring", "kosthold", " vann ", "vanninntak", "væske", "menstruasjon",
            "syklus", "medisin", "aktivitet", "bevegelse", "kropp", "fett", "insulin", "mobilitet", " trapper ", "trappetrinn", "måling",
            "karbohydrat", "måltid", " mat ", " maten ", "matdata", "matinntak", "matvare", "blod",
        ],
        writeTerms: ["lagr", " skriv", "registrer", "legge til", "legger til", "legges inn", "synkroniser", "eksporter", " dele ", " deler ",
                     " deles ", "oppdater", " send", "loggfør"],
        writesNothing: ["skriver ikke", "lagrer ikke", "lagrer ingen", "skriver ingen", "ingen data lagres", "ingen data skrives", "leser bare",
                        "leser kun", "bare lese", "kun lese"],
        commonWords: ["og", "av", "til", "på", "med", "din", "dine", "ditt", "deg", "brukes", "tilgang", "helse", "helsedata", "appen", "ikke",
                      "fra", "som", "vi", "kan", "skal", "eller", "også", "noen"])

    static let finnish = HealthDataVocabulary(
        code: "fi", name: "Finnish", matching: .anywhere,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "metriikk", "mittari",
            // Sleep, oxygen and body as words, not "uni"/"happi"/"keho" inside others ("kommunikointi", English "happy",
            // "kehottaa", urges).
            "askel", "syke", "sykke", "sydän", "sydäm", "pulssi", " uni ", " unen", " unta ", "unitiet", "unirytm", "nukkum", "treeni",
            "harjoitu", "liikunta", "liikunna", "workout", "paino", "kalori", "energia", "energian", "verensokeri", "sokeri", "glukoosi",
            "verenpaine", "tietoinen läsnäolo", "hengity", " happi ", "happipitoisuu", "happisaturaati", "lämpötila", "pituus",
            "pituude", "etäisyy", "kävely", "juoksu", "pyöräily", "uinti", "ravinto", "ravitsemu", "ruoka", "ruoan", "ruokailu",
            " ateria", " vesi ", " veden ", "nesteytys", "kuukautis", "kierto", "lääke", "lääkity", "aktiivisuu", " keho ", "kehon", "kehosi", "rasva",
            "insuliini", "portaat", "portaita", "mittau", "mittaustulo", "hiilihydraat", "kunto",
        ],
        writeTerms: ["tallenn", "tallent", "kirjoit", "kirjaa", "synkron", "viedä", "viedään", "vienti", "jakaa", "jaetaan", "päivit", "lähettä"],
        writesNothing: ["ei tallenna", "ei kirjoita", "ei tallenneta", "ei kirjoiteta", "vain lukee", "lukee vain", "vain luku"],
        commonWords: ["ja", "tai", "sovellus", "sovelluksen", "sovellukseen", "sovelluksessa", "tietoja", "tiedot", "tietojasi", "terveys",
                      "terveystiedot", "terveystietoja", "käytetään", "jotta", "että", "pääsy", "pääsyn", "sinun", "ei", "voi", "kun", "myös", "jos", "tämä",
                      "tarvitsee"])

    static let polish = HealthDataVocabulary(
        code: "pl", name: "Polish", matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "wskaźnik",
            // Sleep as words ("sen" starts "sens"); medicines as words ("lek" starts "lekko", "lekcja").
            "krok", "tętn", "puls", "serc", "sen ", "snu ", "śnie ", "trening", "ćwicze", "wag", "masa ciała", "masy ciała", "kalori",
            "energi", "glukoz", "glikem", "cukier", "cukru", "ciśnieni", "uważnoś", "oddech", "oddycha", "tlen", "temperatur", "wzrost",
            "dystans", "odległoś", "chodzeni", "spacer", "bieg", "rower", "kolarst", "pływani", "odżywiani", "żywieni", "jedzeni",
            "posił", "węglowodan", "woda", "wody", "nawodnieni", "cykl", "menstrua", "miesiączk", "leki ", "leków ", "leku ", "lekarstw",
            "aktywnoś", "ruch", "ciało", "ciała", "tłuszcz", "insulin", "mobilnoś", "piętr", "pomiar", "metryk", "cgm ",
        ],
        writeTerms: ["zapis", "przechowyw", "przechowa", "zachow", "dodaj", "dodawa", "synchroniz", "eksport", "udostępnia", "wysył", "aktualiz",
                     "rejestr"],
        writesNothing: ["nie zapisuje", "nie zapisujemy", "nie przechowuje", "nie dodaje", "tylko odczyt", "wyłącznie odczyt", "jedynie odczyt",
                        "nie są zapisywane"],
        commonWords: ["w", "z", "na", "się", "są", "jest", "aby", "żeby", "twoje", "twoich", "twój", "twoja", "twoją", "dane", "danych", "zdrowie",
                      "zdrowia", "aplikacja", "aplikacji", "dostęp", "dostępu", "oraz", "przez", "jako", "dla", "które", "który", "lub", "nie"])

    static let czech = HealthDataVocabulary(
        code: "cs", name: "Czech", matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "ukazatel",
            // Pulse as words ("tep" starts "teprve", only then); body and medicines as words ("těl" would be "tel…",
            // telephone; "lék" would be "lek…", "lekce").
            "krok", "tep ", "tepu ", "tepov", "srdc", "srdeč", "puls", "spánek", "spánk", "spaní", "trénink", "tréninky", "cvičení", "cvik",
            "hmotnost", "váh", "váze", "kalori", "energi", "glukóz", "glykémi", "cukr", "krevní tlak", "tlak", "všímavost", "dýchání",
            "dech", "kyslík", "teplot", "výšk", "vzdálenost", "chůze", "běh ", "běhu", "běhání", "cyklistik", "plavání", "výživ", "jídl",
            "strava", "stravy", "stravování", "sacharid", "uhlohydrát", "voda", "vody", "pitný režim", "menstrua", "cykl", "lék ", "léky", "léků", "léčiv", "aktivit",
            "pohyb", "tělo", "těla", "tělesn", "tuk", "inzulin", "mobilit", "pater", "schod", "měření", "měřen", "metrik",
        ],
        writeTerms: ["uklád", "uloží", "uložen", "zapis", "zapíš", "zaznamen", "přidá", "přidáv", "synchroniz", "export", "vyexport", "sdíl",
                     "odesíl", "aktualiz"],
        writesNothing: ["neukládá", "nezapisuje", "nic neukládá", "nic nezapisuje", "pouze čte", "jen čte", "pouze ke čtení", "jen ke čtení"],
        commonWords: ["se", "je", "pro", "na", "v", "z", "vaše", "vaši", "vašich", "vám", "údaje", "aplikace", "zdraví", "přístup", "abychom", "aby",
                      "které", "který", "nebo", "ke", "při", "jsou", "bude", "používá", "používají"])

    static let slovak = HealthDataVocabulary(
        code: "sk", name: "Slovak", matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "ukazovateľ",
            // Running as words ("beh" starts "behom", during).
            "krok", "tep ", "tepu ", "tepov", "srdc", "pulz", "puls", "spánok", "spánk", "trénin", "cvičen", "hmotnos", "váh", "kalóri",
            "energi", "glukóz", "glykémi", "cukr", "cukor", "krvný tlak", "tlak", "všímavos", "dýchani", "dych", "kyslík", "teplot", "výšk",
            "vzdialenos", "chôdz", "beh ", "behu ", "behani", "bicykl", "cyklistik", "plávani", "výživ", "jedl", "strava", "stravy",
            "stravovani", "sacharid", "uhľohydrát", "voda", "vody", "pitný režim", "menštrua", "cykl", "liek", "aktivit", "pohyb", "telo",
            "tela", "telesn", "tuk", "inzulín", "mobilit", "poschod", "schod", "meran", "merani", "metrík",
        ],
        writeTerms: ["uklad", "ulož", "zapis", "zaznamen", "prid", "synchroniz", "export", "zdieľ", "odosiel", "aktualiz"],
        writesNothing: ["neukladá", "nezapisuje", "nič neukladá", "nič nezapisuje", "iba číta", "len číta", "iba na čítanie", "len na čítanie"],
        commonWords: ["sa", "je", "pre", "na", "v", "z", "vaše", "vašich", "vám", "údaje", "dáta", "aplikácia", "aplikácie", "aplikáciu", "zdravie",
                      "zdravia", "prístup", "aby", "ktoré", "ktorý", "alebo", "ste", "sú", "bude", "používa", "používajú"])

    static let turkish = HealthDataVocabulary(
        code: "tr", name: "Turkish", matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "metrik", "gösterge",
            // Dotless ı is a letter of its own: terms are also written as people type them without it. "boy"
            // (height) as a word, "koşu" (run) not "koşul" (condition).
            "adım", "adim", "kalp", "nabız", "nabiz", "uyku", "antrenman", "egzersiz", "idman", "kilo", "ağırlık", "agirlik", "kalori",
            "enerji", "kan şekeri", "şeker", "glikoz", "glukoz", "glisemi", "kş ", "kan basıncı", "kan basinci", "tansiyon", "farkındalık",
            "farkindalik", "solunum", "nefes", "oksijen", "sıcaklık", "sicaklik", "vücut", "boy ", "boyunuz", "mesafe", "yürüyüş",
            "yürüme", "koşu ", "koşular", "koşma", "bisiklet", "yüzme", "beslenme", "besin", "yemek", "öğün", "karbonhidrat", "su tüketimi",
            "sıvı", "regl", "adet döngüsü", "menstrü", "ilaç", "aktivite", "etkinlik", "hareket", "yağ", "insülin", "kat ", "merdiven",
            "ölçüm",
        ],
        writeTerms: ["kaydet", "kayded", "kaydı", "yazar ", "yazmak", "yazılır", "yazma", "sakla", "depola", "ekle", "senkroniz", "eşitle",
                     "dışa aktar", "aktar", "paylaş", "gönder", "güncelle"],
        writesNothing: ["yazmaz", "kaydetmez", "saklamaz", "hiçbir veri yazılmaz", "yalnızca okur", "sadece okur", "yalnızca okuma", "sadece okuma"],
        commonWords: ["ve", "bir", "için", "bu", "ile", "verileri", "verilerini", "verilerinizi", "verileriniz", "sağlık", "saglik", "uygulama",
                      "uygulaması", "uygulamanın", "erişim", "olarak", "kullanılır", "gerekir", "daha", "veya", "size", "sizin"])

    static let romanian = HealthDataVocabulary(
        code: "ro", name: "Romanian", matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "indicator",
            // Steps as words ("pasi" starts "pasiune"), water as a word.
            "pași ", "pașii", "ritm cardiac", "cardiac", "inim", "puls", "somn", "antrenament", "exerci", "greutat", "masa corporal",
            "calori", "energi", "glicemi", "glicem", "glucoz", "zahăr", "tensiun", "presiune arterial", "respira", "oxigen", "temperatur",
            "înălțime", "distan", "mers", "alerga", "ciclism", "bicicl", "înot", "nutriți", "aliment", "hrană", "mâncare", "mesei", "mese ",
            "mesele", "carbohidra", "glucid", "apă ", "apei", "hidrata", "ciclu menstrual", "menstrua", "medicament", "activitat", "mișcare",
            "corp", "grăsime", "insulin", "mobilitat", "etaj", "măsurăt", "metrici",
        ],
        writeTerms: ["salv", "scri", "înregistr", "stoc", "adaug", "introdu", "sincroniz", "export", "partaj", "trimit", "actualiz"],
        writesNothing: ["nu scrie", "nu salvează", "nu înregistrează", "nu stochează", "doar citește", "numai citește", "doar citire", "numai citire",
                        "nicio dată"],
        // Not "în": folded, it is English "in".
        commonWords: ["și", "de", "la", "pentru", "datele", "din", "sunt", "este", "aplicația", "aplicației", "sănătate", "sănătății", "acces",
                      "accesul", "tale", "dumneavoastră", "să", "care", "cu", "pe", "vor", "fi", "sau", "ale"])

    static let hungarian = HealthDataVocabulary(
        code: "hu", name: "Hungarian", matching: .anywhere,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "metrik", "mutató", "mérőszám",
            // Not "víz" (water) alone, found in "vizsgálat"; not "étel" (food) inside "tételek" (items).
            "lépés", "pulzus", "szívritmus", "szívverés", "szívfrekvencia", "szívműködés", "alvás", "edzés", "testmozgás", "mozgás",
            "súly", "kalória", "energia", "vércukor", "glükóz", "glukóz", "vérnyomás", "tudatos jelenlét", "légzés", "oxigén",
            "hőmérséklet", "testmagasság", "magasság", "távolság", "séta", "gyaloglás", "futás", "kerékpár", "úszás", "táplálkozás",
            "étkezés", " étel", "szénhidrát", " víz ", "vízfogyasztás", "folyadék", "menstruáció", "ciklus", "gyógyszer", "aktivitás",
            "testzsír", "testtömeg", "testösszetétel", "zsír", "inzulin", "emelet", "lépcső", "mérés", "fitnesz", "workout",
        ],
        writeTerms: ["menti", "mentés", "elment", "menthet", " ír ", "írhat", "írja", "beír", "rögzít", "tárol", "hozzáad", "szinkroniz",
                     "exportál", "megoszt", "küld", "frissít"],
        writesNothing: ["nem ír", "nem menti", "nem tárol", "nem rögzít", "csak olvas"],
        // Not "ön" (you, formal): folded, it is English "on".
        commonWords: ["hogy", "az", "egy", "adatok", "adatait", "adatokat", "adatai", "egészség", "egészségügyi", "alkalmazás", "hozzáférés", "nem",
                      "meg", "van", "azért", "vagy", "számára", "segítségével", "funkció"])

    static let croatian = HealthDataVocabulary(
        code: "hr", name: "Croatian", matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "pokazatelj",
            // Sleep and water as words ("san" is also "dream", "vod" starts "vodi", leads).
            "korak", "otkucaj", "puls", "src", "spavanj", "san ", "sna ", "trening", "vježb", "tjelovježb", "težin", "masa tijela", "kalorij",
            "energij", "glukoz", "šećer", "krvni tlak", "tlak", "svjesnost", "disanj", "kisik", "temperatur", "visin", "udaljenost", "hodanj",
            "trčanj", "bicikl", "plivanj", "prehran", "hran", "obrok", "ugljikohidrat", "voda", "vode ", "vodu ", "hidratacij", "menstrua",
            "ciklus", "lijek", "aktivnost", "kretanj", "tijel", "masti", "inzulin", "mobilnost", "stepenic", "mjerenj", "metrik",
        ],
        writeTerms: ["sprema", "spremi", "zapis", "bilježi", "pohranj", "dodaj", "dodaje", "sinkroniz", "izvoz", "dijeli", "podijeli", "šalje",
                     "ažurira"],
        writesNothing: ["ne zapisuje", "ne sprema", "ne pohranjuje", "samo čita", "samo za čitanje", "samo čitanje"],
        commonWords: ["za", "je", "se", "na", "vaše", "vaših", "vaš", "vam", "podatke", "podataka", "podaci", "zdravlje", "zdravlja", "aplikacija",
                      "aplikacije", "aplikaciji", "pristup", "kako", "bi", "koje", "koji", "ili", "su", "će"])

    static let catalan = HealthDataVocabulary(
        code: "ca", name: "Catalan", matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "mètrica", "indicador",
            // Sleep only in phrases: folded, "són" (they are) is "son".
            "passos", "freqüència cardíaca", "ritme cardíac", "cardíac", "cor ", "pols ", "pulsacions", "del son", "el son ", "dormir",
            "entrenament", "exercici", "pes ", "pes corporal", "calori", "energia", "glucosa", "glucèmia", "sucre en sang", "pressió arterial",
            "atenció plena", "respiració", "oxigen", "temperatura", "alçada", "distància", "caminar", "caminada", "córrer", "cursa",
            "ciclisme", "bicicleta", "natació", "nutrició", "aliment", "menjar", "àpat", "carbohidrat", "hidrats de carboni", "aigua",
            "hidratació", "cicle menstrual", "menstrua", "medicament", "medicació", "activitat", "moviment", "greix", "imc", "insulina",
            "mobilitat", "pisos pujats", "mesura",
        ],
        writeTerms: ["desa ", "desar", "desem", "desarà", "guard", "escriu", "escriure", "registr", "emmagatzem", "afeg", "introdu", "sincronitz",
                     "export", "compart", "envia", "actualitz"],
        writesNothing: ["no escriu", "no desa", "no guarda", "no registra", "només llegeix", "només lectura", "cap dada"],
        commonWords: ["de", "la", "el", "per", "les", "els", "amb", "dades", "salut", "teu", "teva", "teves", "teus", "vostre", "vostra", "vostres",
                      "que", "aplicació", "accés", "del", "als", "una"])

    static let vietnamese = HealthDataVocabulary(
        code: "vi", name: "Vietnamese", matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "chỉ số",
            // Tones fold away, so single syllables collide: "bơi" (swim) is "bởi" (by), "thuốc" (medicine) is
            // "thuộc" (belongs), "cơ thể" (body) is "có thể" (can), "hoạt động" is also "works": phrases only.
            "bước chân", "số bước", "bước đi", "nhịp tim", "tim mạch", "nhịp đập", "giấc ngủ", "tập luyện", "luyện tập", "bài tập",
            "thể dục", "cân nặng", "khối lượng cơ thể", "calo", "năng lượng", "đường huyết", "đường trong máu", "glucose", "huyết áp",
            "chánh niệm", "hít thở", "hô hấp", "nhịp thở", "oxy", "nhiệt độ", "chiều cao", "quãng đường", "khoảng cách", "đi bộ", "chạy bộ",
            "đạp xe", "bơi lội", "dinh dưỡng", "thực phẩm", "bữa ăn", "thức ăn", "món ăn", "carbohydrate", "carb", "tinh bột", "nước uống",
            "uống nước", "kinh nguyệt", "chu kỳ", "uống thuốc", "dùng thuốc", "thuốc men", "hoạt động thể chất", "vận động", "mỡ cơ thể",
            "số đo cơ thể", "insulin", "cầu thang",
        ],
        writeTerms: ["lưu trữ", "lưu lại", "lưu vào", "được lưu", "sẽ lưu", "ghi ", "thêm vào", "thêm dữ liệu", "đồng bộ", "xuất dữ liệu",
                     "xuất sang", "chia sẻ", "gửi", "cập nhật"],
        writesNothing: ["không ghi", "không lưu", "chỉ đọc"],
        commonWords: ["và", "của", "bạn", "để", "các", "được", "dữ liệu", "sức khỏe", "sức khoẻ", "ứng dụng", "cho", "này", "trong", "với", "không",
                      "những", "quyền", "truy cập"])

    static let indonesian = HealthDataVocabulary(
        code: "id", name: "Indonesian", matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "metrik", "indikator",
            "langkah", "detak jantung", "denyut", "jantung", "nadi", "tidur", "latihan", "olahraga", "workout", "berat badan", "bobot",
            "kalori", "energi", "glukosa", "gula darah", "tekanan darah", "pernapasan", "napas", "nafas", "oksigen", "suhu", "tinggi badan",
            "jarak", "jalan kaki", "berjalan", "lari", "berlari", "bersepeda", "sepeda", "renang", "berenang", "nutrisi", "gizi", "makan",
            "karbohidrat", "air minum", "minum", "hidrasi", "menstruasi", "haid", "siklus", "obat", "pengobatan", "aktivitas", "gerak",
            "tubuh", "lemak", "insulin", "mobilitas", "tangga", "pengukuran", "glikemik",
        ],
        writeTerms: ["simpan", "menyimpan", "disimpan", "tulis", "menulis", "ditulis", "catat", "mencatat", "dicatat", "tambah", "menambahkan",
                     "ditambahkan", "sinkron", "menyinkronkan", "ekspor", "mengekspor", "diekspor", "bagikan", "membagikan", "kirim", "mengirim",
                     "dikirim", "perbarui", "memperbarui"],
        writesNothing: ["tidak menulis", "tidak menyimpan", "tidak mencatat", "hanya membaca", "hanya baca"],
        commonWords: ["dan", "untuk", "anda", "yang", "dari", "ke", "di", "ini", "kami", "kesehatan", "aplikasi", "akses", "dengan", "tidak", "akan",
                      "atau", "agar", "dapat"])

    static let malay = HealthDataVocabulary(
        code: "ms", name: "Malay", matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "metrik", "penunjuk",
            // Not "air" (water) alone: an English word, and "AirPods".
            "langkah", "denyutan jantung", "degupan jantung", "jantung", "nadi", "tidur", "latihan", "senaman", "workout", "berat badan",
            "kalori", "tenaga", "glukosa", "gula dalam darah", "gula darah", "tekanan darah", "pernafasan", "bernafas", "oksigen", "suhu",
            "ketinggian", "tinggi badan", "jarak", "berjalan", "berlari", "larian", "berbasikal", "basikal", "berenang", "renang",
            "pemakanan", "nutrisi", "makan", "karbohidrat", "minum air", "pengambilan air", "haid", "kitaran", "ubat", "aktiviti",
            "pergerakan", "badan", "tubuh", "lemak", "insulin", "mobiliti", "tangga", "pengukuran", "bacaan",
        ],
        writeTerms: ["simpan", "menyimpan", "disimpan", "tulis", "menulis", "ditulis", "rekod", "merekod", "direkod", "catat", "tambah", "menambah",
                     "segerak", "menyegerak", "eksport", "kongsi", "berkongsi", "hantar", "kemas kini"],
        writesNothing: ["tidak menulis", "tidak menyimpan", "tidak merekod", "hanya membaca", "baca sahaja"],
        commonWords: ["dan", "untuk", "anda", "yang", "dari", "daripada", "ke", "di", "ini", "kami", "kesihatan", "aplikasi", "apl", "akses",
                      "dengan", "tidak", "akan", "atau", "supaya", "boleh"])

    static let greek = HealthDataVocabulary(
        code: "el", name: "Greek", script: .greek, matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "μετρικ", "δείκτ",
            // Energy as a word or adjective ("ενέργειες" are actions); writing not as "γραφ…" (charts).
            "βήματ", "βηματομετρ", "καρδιακ", "καρδι", "παλμ", "ύπνο", "προπόνησ", "άσκησ", "άθλησ", "βάρο", "θερμίδ", "ενέργεια ",
            "ενεργειακ", "γλυκόζ", "σάκχαρ", "γλυκαιμ", "αρτηριακή πίεσ", "ενσυνειδητότητ", "αναπνο", "οξυγόν", "θερμοκρασί", "ύψο",
            "απόστασ", "περπάτημ", "βάδισ", "τρέξιμ", "ποδηλα", "κολύμβησ", "διατροφ", "τροφ", "γεύμα", "υδατάνθρακ", "νερό", "νερού",
            "ενυδάτωσ", "έμμηνο", "κύκλο", "φάρμακ", "δραστηριότητ", "κίνησ", "σώμα", "σωματ", "λίπο", "ινσουλίν", "κινητικότητ",
            "ορόφ", "σκάλ", "μέτρησ",
        ],
        writeTerms: ["αποθηκ", "γράφει", "γράψ", "εγγραφ", "καταγρ", "προσθ", "συγχρον", "εξαγ", "κοινοποι", "μοιράζ", "αποστέλλ", "ενημερ"],
        writesNothing: ["δεν γράφει", "δεν αποθηκεύει", "δεν καταγράφει", "μόνο ανάγνωσ", "μόνο διαβάζει", "διαβάζει μόνο"],
        commonWords: ["και", "το", "τα", "την", "της", "των", "σας", "για", "να", "με", "από", "στο", "στα", "στην", "δεδομένα", "υγείας", "υγεία",
                      "εφαρμογή", "πρόσβαση", "θα", "ή"])

    static let ukrainian = HealthDataVocabulary(
        code: "uk", name: "Ukrainian", script: .cyrillic, matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "метрик",
            // Body and water as words ("тіл" starts "тільки", only; "вод" starts "водночас"); sleep as words, as in Russian.
            "крок", "пульс", "серц", "серцев", "частот", "сон ", "сну ", "сні ", "сном ", "тренуван", "вправ", "ваг", "маса тіла", "калор",
            "енергі", "глюкоз", "глікемі", "цукор", "цукру", "тиск", "усвідомлен", "дихан", "кисень", "кисн", "температур", "зріст", "зросту",
            "відстан", "дистанці", "ходьб", "біг", "велосипед", "плаван", "харчуван", "їж", "вуглевод", "вода", "води ", "воду ", "водн", "менструа", "цикл", "ліки",
            "ліків", "медикамент", "активніст", "рух", "тіло", "тіла ", "тілесн", "жир", "інсулін", "мобільніст", "поверх", "вимірюван",
            "вимір", "показник", "фітнес",
        ],
        writeTerms: ["зберіга", "зберег", "запис", "додає", "додава", "додати", "додано", "синхроніз", "експорт", "переда", "надсила", "оновлю", "ділит"],
        writesNothing: ["не записує", "не зберігає", "нічого не записує", "нічого не зберігає", "лише читає", "тільки читає", "лише для читання",
                        "тільки для читання"],
        commonWords: ["і", "та", "в", "у", "на", "для", "з", "ваш", "ваші", "вашого", "ваших", "вам", "ми", "це", "додаток", "застосунок", "програма",
                      "дані", "даних", "здоров'я", "доступ", "щоб", "не"])

    static let bulgarian = HealthDataVocabulary(
        code: "bg", name: "Bulgarian", script: .cyrillic, matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "метрик",
            // Weight as words ("тегл" starts "теглене", downloading); food as words ("хран" starts "хранилище", storage).
            "крач", "стъп", "пулс", "сърд", "сърце", "сън ", "съня", "сънят", "тренировк", "упражнени", "тегло", "теглото", "калори",
            "енерги", "глюкоз", "гликеми", "захар", "кръвн", "налягане", "осъзнатост", "дишане", "кислород", "температур", "ръст", "височин",
            "разстояни", "дистанци", "ходене", "вървене", "бягане", "колоездене", "велосипед", "плуване", "хранене", "храна", "храни",
            "хранителн", "въглехидрат", "вода ", "водата", "хидратаци", "менструа", "цикъл", "цикли", "лекарств", "медикамент", "активност",
            "движени", "тяло", "тялото", "телесн", "мазнин", "инсулин", "мобилност", "етаж", "стълб", "измерван", "показател", "фитнес",
        ],
        writeTerms: ["запис", "запаз", "съхран", "добав", "синхрониз", "експорт", "споделя", "изпраща", "актуализ"],
        writesNothing: ["не записва", "не запазва", "не съхранява", "само чете", "само за четене"],
        commonWords: ["и", "за", "на", "да", "се", "от", "вашите", "вашия", "вашата", "вашето", "данни", "данните", "приложението", "здраве",
                      "здравето", "достъп", "е", "са", "може", "които", "чрез", "ви", "до", "ще", "с"])

    static let hebrew = HealthDataVocabulary(
        code: "he", name: "Hebrew", script: .hebrew, matching: .anywhere,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "מדד",
            // Prefixes join words (ה, ו, ב, ל, מ, ש), so terms are found anywhere; not "מים" (water) alone, which
            // ends "מסוימים", "קיימים"; not "לב" (heart) alone ("לבד", "לבן"). Final letters differ: "אימון", "אימונ…".
            "צעד", "דופק", "קצב הלב", "קצב לב", "שינה", "אימון", "אימונ", "כושר", "משקל", "קלורי", "אנרגי", "גלוקוז", "סוכר", "לחץ דם",
            "קשיבות", "מיינדפולנס", "נשימ", "חמצן", "טמפרטור", "גובה", "מרחק", "הליכה", "ריצה", "ריצות", "רכיבה", "אופניים", "שחייה",
            "תזונה", "מזון", "מזונ", "אוכל", "ארוח", "פחמימ", "שתיית מים", "צריכת מים", "מחזור", "וסת", "תרופ", "פעילות", "גוף", "גופנ", "שומן", "שומנ",
            "אינסולין", "ניידות", "קומות", "מדיד", "מדדים",
        ],
        writeTerms: ["שומר", "לשמור", "נשמר", "שמירת", "שמירה", "כותב", "לכתוב", "נכתב", "רושם", "מתעד", "מוסיף", "להוסיף", "מסנכרן", "סנכרון",
                     "ייצוא", "מייצא", "משתף", "שולח", "מעדכן", "מאוחסנ", "אחסון"],
        writesNothing: ["לא כותב", "לא שומר", "לא נשמר", "לא נכתב", "קריאה בלבד", "רק קורא"],
        commonWords: ["את", "של", "שלך", "שלכם", "עם", "על", "כדי", "זה", "זו", "האפליקציה", "היישום", "נתוני", "הנתונים", "נתונים", "בריאות",
                      "הבריאות", "גישה", "לא", "או"])

    static let arabic = HealthDataVocabulary(
        code: "ar", name: "Arabic", script: .arabic, matching: .anywhere,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "مقاييس", "مؤشر",
            // The article and prefixes join words, so terms are found anywhere; three-letter roots only with the
            // article or a suffix ("قلب" is in "تقلب", fluctuation).
            "خطوات", "الخطوات", "نبض", "القلب", "قلبك", "النوم", "نومك", "تمرين", "تمارين", "تدريب", "رياضي", "الوزن", "وزنك", "وزن الجسم",
            "سعرات", "الطاقة", "جلوكوز", "الجلوكوز", "غلوكوز", "سكر", "ضغط الدم", "اليقظة الذهنية", "تنفس", "أكسجين", "الأكسجين",
            "درجة الحرارة", "حرارة الجسم", "الطول", "المسافة", "مسافة", "المشي", "مشي", "الجري", "الركض", "ركوب الدراج", "الدراجة", "السباحة",
            "التغذية", "تغذية", "الطعام", "طعام", "الغذاء", "غذائي", "وجبة", "وجبات", "الوجبات", "كربوهيدرات", "الماء", "شرب الماء",
            "ترطيب", "الدورة الشهرية", "الحيض", "دواء", "أدوية", "الأدوية", "النشاط", "الحركة", "الجسم", "جسمك", "الدهون", "دهون",
            "أنسولين", "الأنسولين", "إنسولين", "الطوابق", "السلالم", "قياس", "لياقة", "اللياقة",
        ],
        writeTerms: ["حفظ", "محفوظ", "كتابة", "يكتب", "تسجيل", "يسجل", "تخزين", "يخزن", "إضافة", "يضيف", "مزامنة", "تصدير", "مشاركة", "يشارك",
                     "إرسال", "تحديث"],
        writesNothing: ["لا يكتب", "لا يحفظ", "لا يخزن", "لا يقوم بكتابة", "لا يقوم بحفظ", "للقراءة فقط", "يقرأ فقط"],
        commonWords: ["في", "من", "على", "إلى", "بيانات", "البيانات", "الصحة", "الصحية", "صحتي", "التطبيق", "تطبيق", "الوصول", "لا", "أو", "هذا",
                      "هذه", "مع", "عن", "يتم", "لك", "بياناتك"])

    static let hindi = HealthDataVocabulary(
        code: "hi", name: "Hindi", script: .devanagari, matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "मेट्रिक",
            // Heart as a word ("दिल" starts "दिलचस्प", interesting). Vowel signs fold away on both sides, so "सेव" (save)
            // would start "सेवा" (service): only "सेव कर".
            "कदम", "हृदय गति", "हृदय", "दिल ", "धड़कन", "नाड़ी", "पल्स", "नींद", "वर्कआउट", "व्यायाम", "कसरत", "वज़न", "वजन", "कैलोरी",
            "ऊर्जा", "ग्लूकोज़", "ग्लूकोज", "रक्त शर्करा", "शर्करा", "शुगर", "रक्तचाप", "ब्लड प्रेशर", "माइंडफ़ुलनेस", "सांस", "श्वास", "श्वसन",
            "ऑक्सीजन", "तापमान", "लंबाई", "ऊंचाई", "ऊँचाई", "कद ", "दूरी", "चलना", "चलने", "पैदल", "दौड़", "साइकिल", "साइक्लिंग", "तैराकी",
            "पोषण", "आहार", "भोजन", "खाना", "खाने", "कार्बोहाइड्रेट", "कार्ब", "पानी", "हाइड्रेशन", "मासिक धर्म", "पीरियड", "साइकल", "दवा",
            "गतिविधि", "एक्टिविटी", "शरीर", "वसा", "इंसुलिन", "सीढ़ि", "माप", "फ़िटनेस", "फिटनेस",
        ],
        writeTerms: ["सहेज", "सेव कर", "लिख", "रिकॉर्ड", "दर्ज", "संग्रह", "स्टोर", "जोड़", "सिंक", "निर्यात", "एक्सपोर्ट", "शेयर", "साझा", "भेज", "अपडेट"],
        writesNothing: ["नहीं लिखता", "नहीं लिखती", "नहीं सहेजता", "नहीं सहेजती", "कुछ नहीं लिख", "केवल पढ़ता", "केवल पढ़ती", "सिर्फ़ पढ़ता", "सिर्फ पढ़ता"],
        commonWords: ["है", "हैं", "और", "के", "की", "का", "में", "आपके", "आपकी", "आपका", "लिए", "यह", "से", "को", "करने", "हम", "डेटा", "स्वास्थ्य",
                      "सेहत", "ऐप", "एक्सेस", "ताकि"])

    static let thai = HealthDataVocabulary(
        code: "th", name: "Thai", script: .thai, matching: .anywhere,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "ตัวชี้วัด",
            // Written without spaces, and tone marks and some vowels fold away: short words only in phrases
            // ("ก้าว", step, folds to "กาว", glue; "ยา", medicine, is in "พยายาม", try; "สติ" to "สต").
            "จำนวนก้าว", "ก้าวเดิน", "นับก้าว", "อัตราการเต้นของหัวใจ", "หัวใจ", "ชีพจร", "การนอน", "นอนหลับ", "ออกกำลังกาย", "เวิร์กเอาต์",
            "น้ำหนัก", "แคลอรี", "พลังงาน", "น้ำตาลในเลือด", "กลูโคส", "ความดันโลหิต", "ความดัน", "เจริญสติ", "หายใจ", "ออกซิเจน", "อุณหภูมิ",
            "ส่วนสูง", "ระยะทาง", "การเดิน", "การวิ่ง", "ปั่นจักรยาน", "จักรยาน", "ว่ายน้ำ", "โภชนาการ", "อาหาร", "คาร์โบไฮเดรต", "คาร์บ",
            "น้ำดื่ม", "การดื่มน้ำ", "ประจำเดือน", "รอบเดือน", "การใช้ยา", "กินยา", "ทานยา", "กิจกรรม", "การเคลื่อนไหว", "ร่างกาย", "ไขมัน",
            "อินซูลิน", "การวัด", "ค่าที่วัด", "ฟิตเนส",
        ],
        writeTerms: ["บันทึก", "เขียน", "จัดเก็บ", "เก็บ", "เพิ่ม", "ซิงค์", "ส่งออก", "แชร์", "แบ่งปัน", "อัปเดต"],
        writesNothing: ["ไม่เขียน", "ไม่บันทึก", "ไม่จัดเก็บ", "อ่านอย่างเดียว", "อ่านเท่านั้น"],
        commonWords: [])

    static let georgian = HealthDataVocabulary(
        code: "ka", name: "Georgian", script: .georgian, matching: .wordStart,
        dataTerms: [
            // What apps call the values they read, as English "metrics" and "readings" are.
            "მეტრიკ", "მაჩვენებ",
            // Stems: nouns take case endings ("გლუკოზის", of glucose).
            "ნაბიჯ", "გულისცემ", "გულის რითმ", "პულს", "ძილ", "ვარჯიშ", "წონ", "კალორი", "ენერგი", "გლუკოზ", "შაქარ", "შაქრ", "სისხლ",
            "წნევ", "სუნთქვ", "ჟანგბად", "ტემპერატურ", "სიმაღლ", "მანძილ", "სიარულ", "სირბილ", "ველოსიპედ", "ცურვ", "კვებ", "საკვებ",
            "ჭამ", "ნახშირწყ", "წყალ", "წყლ", "მენსტრუაც", "ციკლ", "მედიკამენტ", "წამალ", "წამლ", "აქტივობ", "მოძრაობ", "სხეულ",
            "ცხიმ", "ინსულინ", "სართულ", "გაზომვ", "ფიტნეს",
        ],
        writeTerms: ["შენახვ", "ინახავ", "შეინახ", "ინახებ", "ჩაწერ", "წერს", "დამატ", "სინქრონიზ", "ექსპორტ", "გაზიარ", "გაგზავნ", "განახლ"],
        writesNothing: ["არ ინახავს", "არ წერს", "არ ჩაწერს", "არ ინახება", "მხოლოდ კითხულობს", "მხოლოდ წაკითხვ"],
        commonWords: ["და", "თქვენი", "შენი", "რომ", "თუ", "არის", "მონაცემები", "მონაცემების", "ჯანმრთელობის", "აპლიკაცია", "აპლიკაციას",
                      "წვდომა", "საჭიროა", "ან", "ეს", "ამ"])
}
