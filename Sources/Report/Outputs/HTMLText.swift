import Manifest

/// Mustache's HTML escaping (`{{value}}`), for untrusted text placed in HTML built by hand.
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        MarkupEscaping.escape(text, apostrophe: "&#39;") { $0 == "\0" ? "\u{FFFD}" : nil }
    }
}
