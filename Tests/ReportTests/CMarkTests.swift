import Report
import XCTest

final class CMarkTests: XCTestCase {
    /// A finding message quotes app text: rendered, its code spans are code, and a link or image
    /// written in the app's strings is only text (raw HTML is never passed).
    func testInlineMessagesKeepCodeAndDropLinksImagesAndHTML() {
        let html = MarkdownRenderer.inline("`NSHealthShareUsageDescription` says ![x](https://evil.example/t.png) [Verify](https://phish.example \"t\") <https://auto.example> <b>bold</b>")
        XCTAssertTrue(html.contains("<code>NSHealthShareUsageDescription</code>"), html)
        XCTAssertFalse(html.contains("<img"), html)
        XCTAssertFalse(html.contains("<a "), html)
        XCTAssertFalse(html.contains("<b>"), html)
        // HTML-looking app text is shown as typed, never omitted nor live.
        XCTAssertTrue(html.contains("says x Verify &lt;https://auto.example&gt; &lt;b&gt;bold&lt;/b&gt;"), html)
        XCTAssertFalse(html.hasPrefix("<p>"))
        XCTAssertEqual(MarkdownRenderer.inline("single word (\"<HealthKit>\") in `<dict>`"), "single word (&quot;&lt;HealthKit&gt;&quot;) in <code>&lt;dict&gt;</code>")
    }

    func testRendersCommonMarkThroughLibcmark() {
        let html = CMarkDocument(markdown: "# Title\n\nSome *emphasis* and `code`.\n").html()
        XCTAssertEqual(html, "<h1>Title</h1>\n<p>Some <em>emphasis</em> and <code>code</code>.</p>\n")
        XCTAssertTrue(CMarkDocument.version.hasPrefix("0."), CMarkDocument.version)
    }

    func testSafeModeOmitsRawHTMLAndUnsafeLinks() {
        let html = CMarkDocument(markdown: "<script>alert(1)</script>\n\n[x](javascript:alert(1)) <b onclick=\"x()\">b</b>\n").html()
        XCTAssertFalse(html.contains("<script"), html)
        XCTAssertFalse(html.contains("javascript:"), html)
        XCTAssertFalse(html.contains("onclick"), html)
        XCTAssertTrue(html.contains("<!-- raw HTML omitted -->"), html)
    }

    func testWalksHeadingsAndRewritesLinks() {
        let document = CMarkDocument(markdown: "# One\n\n## Two `code`\n\nSee [about](about.md) and [web](https://example.com).\n")
        XCTAssertEqual(document.headings, [.init(level: 1, text: "One"), .init(level: 2, text: "Two code")])
        XCTAssertEqual(document.links, ["about.md", "https://example.com"])
        document.rewriteLinks { $0.hasSuffix(".md") ? $0.replacingOccurrences(of: ".md", with: ".html") : nil }
        XCTAssertTrue(document.html().contains("<a href=\"about.html\">about</a>"))
        XCTAssertTrue(document.html().contains("<a href=\"https://example.com\">web</a>"))
    }

    func testHeadingAnchorsAreUniqueAndInDocumentOrder() {
        let rendered = MarkdownRenderer.render("## Usage strings\n\ntext\n\n## Usage strings\n\n### Ünïcode & more!\n")
        XCTAssertEqual(rendered.headings.map(\.anchor), ["usage-strings", "usage-strings-2", "n-code-more"])
        XCTAssertTrue(rendered.html.contains("<h2 id=\"usage-strings\">Usage strings</h2>"), rendered.html)
        XCTAssertTrue(rendered.html.contains("<h2 id=\"usage-strings-2\">"), rendered.html)
    }
}

final class MarkdownEscapingTests: XCTestCase {
    let payloads = [
        "<script>alert(1)</script>",
        "[x](javascript:alert(1))",
        "![img](javascript:alert(1))",
        "# Heading\n- list\n> quote",
        "<img src=x onerror=alert(1)>",
        "&lt;script&gt; &#60;script&#62;",
        "*bold* _it_ `code` \\ [ref]: http://x",
        "1. ordered\n\n---\n\n```\nfence\n```",
    ]

    func testEscapedTextRendersAsLiteralTextOnly() {
        for payload in payloads {
            let html = CMarkDocument(markdown: MarkdownText.escape(payload)).html()
            XCTAssertTrue(html.hasPrefix("<p>") && html.hasSuffix("</p>\n"), "\(payload) → \(html)")
            XCTAssertEqual(html.components(separatedBy: "<p>").count, 2, "one paragraph for \(payload): \(html)")
            for tag in ["<script", "<a ", "<img", "<h1", "<li", "<blockquote", "<em", "<strong", "<code", "<hr", "<pre"] {
                XCTAssertFalse(html.contains(tag), "\(payload) produced \(tag): \(html)")
            }
            XCTAssertEqual(Self.text(of: html), payload.replacingOccurrences(of: "\n", with: " "), "\(payload) is shown verbatim")
        }
    }

    func testCodeSpansHoldAnyTextVerbatim() {
        for payload in payloads + ["``double`` and `single`", "`"] {
            let html = CMarkDocument(markdown: MarkdownText.code(payload)).html()
            XCTAssertTrue(html.hasPrefix("<p><code>"), html)
            XCTAssertFalse(html.contains("<script"), html)
            XCTAssertEqual(Self.text(of: html), payload.replacingOccurrences(of: "\n", with: " "), html)
        }
    }

    /// The text a browser would show for a one-paragraph fragment: tags dropped, entities decoded.
    static func text(of html: String) -> String {
        var text = html.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        if text.hasSuffix("\n") { text.removeLast() }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }
}
