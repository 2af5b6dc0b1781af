import Foundation

/// The writing system most of a text's letters belong to. Lengths are judged per script: a
/// Japanese or Chinese sentence has no spaces, and one of its characters says as much as a short
/// English word.
enum WritingScript: String, Sendable {
    case latin, greek, cyrillic, hebrew, arabic, devanagari, thai, georgian, hangul, kana, han, other

    /// The script of a letter, or nil for anything that is not a letter (digits, punctuation, emoji).
    init?(letter scalar: Unicode.Scalar) {
        guard scalar.properties.isAlphabetic else { return nil }
        switch scalar.value {
        case 0x41...0x24F, 0x1E00...0x1EFF, 0xFF21...0xFF5A: self = .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: self = .greek
        case 0x400...0x52F: self = .cyrillic
        case 0x590...0x5FF: self = .hebrew
        case 0x600...0x6FF, 0x750...0x77F, 0xFB50...0xFDFF, 0xFE70...0xFEFF: self = .arabic
        case 0x900...0x97F: self = .devanagari
        case 0xE00...0xE7F: self = .thai
        case 0x10A0...0x10FF, 0x1C90...0x1CBF, 0x2D00...0x2D2F: self = .georgian
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: self = .hangul
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D: self = .kana
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FFFF: self = .han
        default: self = .other
        }
    }

    /// The script of most of the text's letters; Japanese mixes kanji with kana, so any kana makes it
    /// kana. Nil when the text has no letters.
    static func dominant(in text: String) -> WritingScript? {
        var counts: [WritingScript: Int] = [:]
        for scalar in text.unicodeScalars { if let script = WritingScript(letter: scalar) { counts[script, default: 0] += 1 } }
        if let kana = counts[.kana], kana + (counts[.han] ?? 0) >= (counts[.latin] ?? 0) { return .kana }
        // Ties go to the script listed first, so the choice never depends on dictionary order.
        let order: [WritingScript] = [.latin, .hangul, .han, .cyrillic, .greek, .arabic, .hebrew, .devanagari, .thai, .georgian, .other]
        return order.filter { counts[$0] != nil }.max { (counts[$0] ?? 0) < (counts[$1] ?? 0) }
    }

    /// Whether words are separated by spaces: only then is a text without spaces a single word.
    var separatesWords: Bool { ![.han, .kana, .thai].contains(self) }

    /// Fewest characters (spaces not counted) that can say which data and why: about four words'
    /// worth — some five letters a word in alphabetic scripts, two or three Hangul syllables, one or
    /// two Han or kana characters.
    var minimumPurposeLength: Int {
        switch self {
        case .han, .kana: return 6
        case .hangul: return 8
        default: return 16
        }
    }

    /// For messages: "Thai script".
    var name: String {
        switch self {
        case .han: return "Chinese characters"
        case .kana: return "Japanese script"
        case .hangul: return "Hangul"
        case .other: return "a script"
        default: return rawValue.prefix(1).uppercased() + String(rawValue.dropFirst()) + " script"
        }
    }
}

/// A purpose string as the usage-string rules judge it: in the language its locale names (an
/// `.lproj` folder, a string catalog's locale), else the one its script and common words point to,
/// with that language's health-data vocabulary. A text no vocabulary covers is not judged for
/// vagueness at all (`isJudged`), rather than held against English words.
struct PurposeText {
    let text: String
    let script: WritingScript?
    /// The vocabularies of the languages the text may be in: one from a locale, two for Chinese
    /// characters without one (simplified or traditional), none when no vocabulary covers it.
    let vocabularies: [HealthDataVocabulary]
    /// What the text is written in, for messages: "German", "Khmer (km)", "Cyrillic script (not Russian, Ukrainian or Bulgarian)".
    let language: String
    /// Lowercased, diacritics and punctuation folded, words separated by single spaces, a space at
    /// each end: " saves your steps ".
    private let normalized: String

    /// `appNames`: the names the app goes by, as written ("My Heart Counts", "StepTracker"). A name
    /// is not the data the app reads: it is left out before the text is judged, so "My Heart Counts
    /// uses Health data" names no data, as its Spanish translation does not either.
    init(_ text: String, locale: String? = nil, appNames: [String] = []) {
        self.text = text
        script = WritingScript.dominant(in: text)
        normalized = " " + Self.normalize(Self.removing(appNames, from: text)) + " "
        let guess = Self.language(normalized: normalized, script: script, locale: locale)
        vocabularies = guess.vocabularies
        language = guess.name
    }

    var isJudged: Bool { !vocabularies.isEmpty }

    /// Whether the text says one of `phrases`, folded as the text is.
    func says(anyOf phrases: [String]) -> Bool { phrases.contains { normalized.contains(Self.normalizeTerm($0)) } }

    /// Characters other than spaces.
    var length: Int { text.filter { !$0.isWhitespace }.count }

    var isTooShort: Bool { length < (script ?? .latin).minimumPurposeLength }

    /// One word of a script that separates words with spaces ("Health").
    var isSingleWord: Bool {
        (script ?? .latin).separatesWords && text.split(whereSeparator: { $0.isWhitespace }).count == 1
    }

    var namesData: Bool {
        vocabularies.contains { contains(any: $0.dataTerms, $0.matching) } || contains(any: Self.international, .wordStart)
    }

    var claimsWriting: Bool { vocabularies.contains { contains(any: $0.writeTerms, $0.matching) } }

    var saysItWritesNothing: Bool { vocabularies.contains { contains(any: $0.writesNothing, .anywhere) } }

    private func contains(any terms: [String], _ matching: HealthDataVocabulary.Matching) -> Bool {
        switch matching {
        case .anywhere: return terms.contains { normalized.contains($0) }
        case .wordStart: return terms.contains { normalized.contains(" " + $0) }
        }
    }

    private static let international = HealthDataVocabulary.international.map { normalize($0) }

    // MARK: Language

    /// The language a text is in: its locale's when a vocabulary covers it and the text is in that
    /// language's script (an untranslated English string in `de.lproj` is English); else guessed from
    /// the script, and for Latin script from common words.
    private static func language(normalized: String, script: WritingScript?, locale: String?) -> (vocabularies: [HealthDataVocabulary], name: String) {
        let guessed = guess(normalized: normalized, script: script)
        guard let locale, let code = LocaleCode(locale) else { return guessed }
        guard let vocabulary = HealthDataVocabulary.all.first(where: { $0.code == code.vocabularyCode }) else {
            // Another script than the locale's language would use is an untranslated string: judge what it is.
            if let script, script == .latin, !LocaleCode.latinScriptLanguages.contains(code.language) { return guessed }
            return ([], "\(code.languageName) (\(locale))")
        }
        guard script == nil || script == vocabulary.script || (script == .han && vocabulary.script == .kana) else { return guessed }
        // Untranslated text: clearly another known language, whose common words outnumber the
        // locale's two to one (a loanword both share, Italian and English "app", does not keep it Italian).
        if vocabulary.script == .latin, guessed.vocabularies.count == 1, guessed.vocabularies[0].code != vocabulary.code,
           case let other = commonWordCount(normalized, guessed.vocabularies[0]), other >= 3, commonWordCount(normalized, vocabulary) * 2 < other {
            return guessed
        }
        return ([vocabulary], vocabulary.name)
    }

    /// Without a locale: Japanese for kana, Korean for Hangul, Chinese for Han characters, Greek, Thai and
    /// Georgian for their scripts; for Cyrillic, Hebrew, Arabic and Devanagari script the language of that
    /// script a vocabulary covers, unless letters or words show another one (Serbian, Yiddish, Persian,
    /// Marathi); and for Latin script the language whose common words the text uses most.
    private static func guess(normalized: String, script: WritingScript?) -> (vocabularies: [HealthDataVocabulary], name: String) {
        guard let script else { return ([.english], HealthDataVocabulary.english.name) }
        switch script {
        case .kana: return ([.japanese], HealthDataVocabulary.japanese.name)
        case .hangul: return ([.korean], HealthDataVocabulary.korean.name)
        case .han: return ([.simplifiedChinese, .traditionalChinese], "Chinese")
        case .greek: return ([.greek], HealthDataVocabulary.greek.name)
        case .thai: return ([.thai], HealthDataVocabulary.thai.name)
        case .georgian: return ([.georgian], HealthDataVocabulary.georgian.name)
        case .cyrillic:
            // Letters none of Russian, Ukrainian and Bulgarian use: Serbian, Macedonian, Belarusian, Kazakh, Tajik…
            // (folding has made "ї" "і" and "ё" "е").
            let foreign = Set("јљњћђџѓќѕўәғқңөұүһҳҷ")
            if normalized.contains(where: foreign.contains) { return ([], "Cyrillic script (not Russian, Ukrainian or Bulgarian)") }
            if normalized.contains(where: Set("ієґ").contains) { return ([.ukrainian], HealthDataVocabulary.ukrainian.name) }
            // Bulgarian has no "ы" or "э"; without either, the common words decide, and a tie stays Russian.
            if !normalized.contains(where: Set("ыэ").contains),
               commonWordCount(normalized, .bulgarian) > commonWordCount(normalized, .russian) {
                return ([.bulgarian], HealthDataVocabulary.bulgarian.name)
            }
            return ([.russian], HealthDataVocabulary.russian.name)
        case .hebrew:
            // Yiddish ligatures.
            if normalized.contains(where: Set("װױײ").contains) { return ([], "Hebrew script (not Hebrew)") }
            return ([.hebrew], HealthDataVocabulary.hebrew.name)
        case .arabic:
            // Letters of Persian, Urdu, Kurdish and others, which Arabic does not use.
            if normalized.contains(where: Set("پچژگکیٹڈڑںےھۀۆێڵڕ").contains) { return ([], "Arabic script (not Arabic)") }
            return ([.arabic], HealthDataVocabulary.arabic.name)
        case .devanagari:
            // Marathi and Nepali are written in it too: Hindi only with Hindi's common words and none of theirs.
            if notHindi.contains(where: normalized.contains) || commonWordCount(normalized, .hindi) == 0 { return ([], "Devanagari script (not Hindi)") }
            return ([.hindi], HealthDataVocabulary.hindi.name)
        case .latin:
            let latin = HealthDataVocabulary.all.filter { $0.script == .latin }
            let scores = latin.map { commonWordCount(normalized, $0) }
            let best = scores.max() ?? 0
            let chosen = zip(latin, scores).filter { $0.1 == best }.map(\.0)
            if best >= 2 { return (chosen, chosen.map(\.name).joined(separator: " or ")) }
            // Too few common words to tell ("Store bloodglucose readings"): a text that names data in
            // some language passes.
            let naming = latin.filter { vocabulary in
                vocabulary.dataTerms.contains { term in
                    vocabulary.matching == .anywhere ? normalized.contains(term) : normalized.contains(" " + term)
                }
            }
            if !naming.isEmpty { return (naming, naming[0].name) }
            // One common word is enough in a text of a few words ("Health", "Health access"); in a
            // longer one it may be another language's ("do" is Portuguese and Polish).
            let words = normalized.split(separator: " ").count
            if best == 1 && words <= 3 { return (chosen, chosen.map(\.name).joined(separator: " or ")) }
            return ([], "an unrecognized language in Latin script")
        default:
            return ([], script.name)
        }
    }

    /// Frequent Marathi and Nepali words Hindi does not use ("is", "and", "your"; "is", "to do", "you", "for"), folded.
    private static let notHindi = ["आहे", "आणि", "आहेत", "तुमच्या", "तुमची", "तुमचा", "छ", "गर्न", "तपाईं", "तपाईंको", "लागि"].map { " " + normalize($0) + " " }

    private static func commonWordCount(_ normalized: String, _ vocabulary: HealthDataVocabulary) -> Int {
        Set(vocabulary.commonWords.filter { normalized.contains(" \($0) ") }).count
    }

    // MARK: Folding

    /// Lowercased, without diacritics, every run of characters that are neither letters nor digits
    /// made one space: "Fréquence cardiaque !" → "frequence cardiaque".
    static func normalize(_ text: String) -> String {
        let folded = fold(text)
        var result = ""
        var pendingSpace = false
        for character in folded {
            if character.isLetter || character.isNumber {
                if pendingSpace && !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(character)
            } else {
                pendingSpace = true
            }
        }
        return result
    }

    /// `text` with each occurrence of a name, as written (case and all: "Steps" the app, not "steps"
    /// the data), replaced by a space. Names shorter than three characters are kept.
    static func removing(_ names: [String], from text: String) -> String {
        var text = text
        for name in names where name.count >= 3 && text.contains(name) {
            text = text.replacingOccurrences(of: name, with: " ")
        }
        return text
    }

    /// A vocabulary term folded like a text, keeping the spaces at its ends that anchor it to word edges.
    static func normalizeTerm(_ term: String) -> String {
        (term.hasPrefix(" ") ? " " : "") + normalize(term) + (term.hasSuffix(" ") ? " " : "")
    }

    /// Case and diacritics folded the same way for texts and terms (so "が" and "か" compare equal
    /// on both sides, which never changes whether a term is found).
    private static func fold(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return String(scalars).precomposedStringWithCanonicalMapping
    }
}

/// A locale as `.lproj` folders and string catalogs name it: `de`, `pt-BR`, `zh_TW`, `zh-Hant-HK`,
/// or an old folder name (`German.lproj`).
struct LocaleCode {
    /// Lowercased primary subtag: `pt`, `zh`.
    let language: String
    /// The code of the vocabulary for it: `zh-Hans` / `zh-Hant` for Chinese, else the language.
    let vocabularyCode: String

    init?(_ locale: String) {
        let parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        guard let first = parts.first, !first.isEmpty, first != "base" else { return nil }
        let language = Self.oldFolderNames[first] ?? Self.aliases[first] ?? first
        self.language = language
        if language == "zh" {
            let traditional = parts.dropFirst().contains { ["hant", "tw", "hk", "mo"].contains($0) }
            vocabularyCode = traditional ? "zh-Hant" : "zh-Hans"
        } else {
            vocabularyCode = language
        }
    }

    var languageName: String { Self.names[language] ?? language }

    /// Codes that name a language with a vocabulary under another code: Norwegian (`no`, and Nynorsk,
    /// whose health words are Bokmål's) and the old ISO 639 codes of Hebrew and Indonesian (Java's `iw`, `in`).
    private static let aliases = ["no": "nb", "nn": "nb", "iw": "he", "in": "id"]

    /// Folders Xcode once named by the English name of the language.
    private static let oldFolderNames = ["english": "en", "german": "de", "french": "fr", "spanish": "es", "italian": "it", "dutch": "nl",
                                         "japanese": "ja", "portuguese": "pt", "swedish": "sv", "russian": "ru", "korean": "ko",
                                         "danish": "da", "norwegian": "nb", "finnish": "fi", "polish": "pl", "turkish": "tr", "czech": "cs",
                                         "greek": "el", "hungarian": "hu", "hebrew": "he", "arabic": "ar", "thai": "th"]

    /// Languages written in Latin script that have no vocabulary: their strings are never English ones
    /// left untranslated, whatever words they share with other languages.
    static let latinScriptLanguages: Set<String> = ["sl", "et", "lv", "lt", "is", "ga", "sq", "af", "sw", "tl", "fil"]

    /// Names of languages an app is often localized into, for notes about the ones without a vocabulary.
    private static let names = [
        "en": "English", "de": "German", "fr": "French", "es": "Spanish", "pt": "Portuguese", "it": "Italian", "nl": "Dutch",
        "sv": "Swedish", "ru": "Russian", "ja": "Japanese", "zh": "Chinese", "ko": "Korean", "pl": "Polish", "tr": "Turkish",
        "th": "Thai", "ar": "Arabic", "he": "Hebrew", "hi": "Hindi", "uk": "Ukrainian", "cs": "Czech", "sk": "Slovak", "da": "Danish",
        "nb": "Norwegian", "no": "Norwegian", "fi": "Finnish", "el": "Greek", "hu": "Hungarian", "ro": "Romanian", "hr": "Croatian",
        "ca": "Catalan", "id": "Indonesian", "ms": "Malay", "vi": "Vietnamese", "fa": "Persian", "bg": "Bulgarian", "ka": "Georgian",
        "sr": "Serbian", "sl": "Slovenian", "lt": "Lithuanian", "lv": "Latvian", "et": "Estonian", "is": "Icelandic", "bn": "Bengali",
        "ta": "Tamil", "ur": "Urdu", "tl": "Tagalog", "fil": "Filipino", "sw": "Swahili", "af": "Afrikaans", "mk": "Macedonian",
        "be": "Belarusian", "kk": "Kazakh", "hy": "Armenian", "az": "Azerbaijani", "ga": "Irish", "sq": "Albanian", "mr": "Marathi",
        "ne": "Nepali", "km": "Khmer", "lo": "Lao", "my": "Burmese", "si": "Sinhala", "am": "Amharic", "yi": "Yiddish", "ml": "Malayalam",
        "te": "Telugu", "kn": "Kannada", "gu": "Gujarati", "pa": "Punjabi", "mn": "Mongolian", "uz": "Uzbek", "cy": "Welsh", "eu": "Basque",
        "gl": "Galician", "bs": "Bosnian",
    ]
}
