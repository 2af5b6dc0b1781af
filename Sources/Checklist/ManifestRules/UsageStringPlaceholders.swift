import Foundation

/// Texts that are not the app's own purpose: placeholder markers, and the example strings HealthKit
/// libraries print in their READMEs or write as their config plugins' defaults, which apps ship
/// unchanged. Data: each text with where it comes from.
struct UsageStringPlaceholders {
    /// A library's text, with `$(PRODUCT_NAME)` where the app's name goes.
    struct Boilerplate {
        let text: String
        let source: String
    }

    /// Markers written in capitals as whole words (`todo` is Spanish for "all", so case matters).
    static let markers = ["TODO", "TBD", "FIXME", "XXX"]
    /// Phrases that only a placeholder contains, in any case.
    static let phrases = ["lorem ipsum", "placeholder", "usage description", "description here", "insert description", "your description"]

    static let boilerplate: [Boilerplate] = [
        // Flutter `health` (cph-cachet/flutter-plugins, packages/health/README.md), for both keys.
        .init(text: "We will sync your data with the Apple Health app to give you better insights", source: "the Flutter health package's README"),
        // react-native-health's README (and rn-apple-healthkit's, which it forked).
        .init(text: "Read and understand health data.", source: "react-native-health's README"),
        .init(text: "Share workout data with other apps.", source: "react-native-health's README"),
        .init(text: "Read and understand clinical health data.", source: "react-native-health's README"),
        // react-native-health's config plugin defaults (app.plugin.js; `ExpoConfig.defaultShare` / `defaultUpdate`).
        .init(text: "Allow $(PRODUCT_NAME) to check health info", source: "react-native-health's config plugin default"),
        .init(text: "Allow $(PRODUCT_NAME) to update health info", source: "react-native-health's config plugin default"),
        // @kingstinct/react-native-healthkit: config plugin defaults and its README's override example.
        .init(text: "$(PRODUCT_NAME) wants to read your health data", source: "@kingstinct/react-native-healthkit's config plugin default"),
        .init(text: "$(PRODUCT_NAME) wants to update your health data", source: "@kingstinct/react-native-healthkit's config plugin default"),
        // cordova-plugin-health's README install line (HEALTH_READ_PERMISSION / HEALTH_WRITE_PERMISSION).
        .init(text: "App needs read access", source: "cordova-plugin-health's README"),
        .init(text: "App needs write access", source: "cordova-plugin-health's README"),
    ]

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
