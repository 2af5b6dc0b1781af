import Manifest
import XCTest

/// One escaping loop for HTML and XML, and its inverse for text read back from markup (plist
/// keys, cmark's HTML made plain).
final class MarkupEscapingTests: XCTestCase {
    func testUnescapeDecodesNamedAndNumericReferencesInOnePass() {
        XCTAssertEqual(MarkupEscaping.unescape("a &lt;b&gt; &quot;c&quot; &apos;d&#39; &amp;"), "a <b> \"c\" 'd' &")
        XCTAssertEqual(MarkupEscaping.unescape("&amp;lt;"), "&lt;", "an escaped entity is decoded once, not twice")
        XCTAssertEqual(MarkupEscaping.unescape("&#x1F3C3; &#233;"), "🏃 é")
        XCTAssertEqual(MarkupEscaping.unescape("R&D; &bogus; & &#xD800; &"), "R&D; &bogus; & &#xD800; &", "unknown or invalid references stay as written")
    }

    func testEscapeThenUnescapeIsTheIdentity() {
        for text in ["plain", "<key>NSHealth…</key>", "Tom & Jerry's \"run\"", "&amp; already"] {
            XCTAssertEqual(MarkupEscaping.unescape(XMLText.escape(text)), text)
        }
    }
}
