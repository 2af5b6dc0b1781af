import Manifest

/// Mustache's HTML escaping (`{{value}}`), for untrusted text placed in HTML built by hand; control
/// and bidi characters are shown as the text formats show them (`\u{202E}`, NUL as U+FFFD), so
/// they can neither hide nor reorder what a page says.
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        MarkupEscaping.escape(text, apostrophe: "&#39;") { VisibleText.isInvisible($0) ? VisibleText.escape($0) : nil }
    }
}
