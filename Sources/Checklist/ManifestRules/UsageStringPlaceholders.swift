import Foundation
import Manifest

/// Texts that are not the app's own purpose: placeholder markers, and the example strings HealthKit
/// libraries print in their READMEs or write as their config plugins' defaults, which apps ship
/// unchanged (each library's, with where it comes from, in its description).
struct UsageStringPlaceholders {
    /// Markers written in capitals as whole words (`todo` is Spanish for "all", so case matters).
    static let markers = ["TODO", "TBD", "FIXME", "XXX"]
    /// Phrases that only a placeholder contains, in any case.
    static let phrases = ["lorem ipsum", "placeholder", "usage description", "description here", "insert description", "your description"]

    /// The libraries' example texts and config plugin defaults (`HealthKitLibrary.exampleUsageStrings`),
    /// and the texts of Apple's own sample code, which name the sample, not the app that copies them.
    static let boilerplate = HealthKitLibrary.exampleUsageStrings + appleSampleCode

    static let appleSampleCode = [
        "Your workout related data will be used to display your saved workouts in MyWorkouts.",
        "Workouts tracked by MyWorkouts on Apple Watch will be saved to HealthKit.",
    ].map { HealthKitLibrary.ExampleUsageString(text: $0, source: "the text of Apple's sample app MyWorkouts (WWDC21, \"Build a workout app for Apple Watch\")") }

    /// What makes `raw` (as written) or `expanded` (after `$(VAR)` expansion) a placeholder, or nil.
    static func match(raw: String, expanded: String) -> String? {
        let words = Set(expanded.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
        if let marker = markers.first(where: words.contains) { return "a placeholder (\"\(marker)\")" }
        let lower = expanded.lowercased()
        if let phrase = phrases.first(where: lower.contains) { return "a placeholder (\"\(phrase)\")" }
        let text = comparable(expanded), written = comparable(raw)
        for entry in boilerplate {
            let template = comparable(entry.text)
            let parts = template.components(separatedBy: productName)
            let matches = written == template
                || (parts.count == 1 ? text == template : text.hasPrefix(parts[0]) && text.hasSuffix(parts[1]) && text.count > template.count - productName.count)
            if matches { return "\(entry.source) (\"\(entry.text)\"), not the app's own purpose" }
        }
        return nil
    }

    private static let productName = comparable("$(PRODUCT_NAME)")

    /// Lowercased, spaces collapsed, final punctuation dropped: how a copied text still compares equal.
    private static func comparable(_ text: String) -> String {
        let collapsed = text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return String(collapsed.reversed().drop { $0.isPunctuation && $0 != ")" }.reversed())
    }
}
