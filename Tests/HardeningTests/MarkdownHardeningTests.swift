import Foundation
import Manifest
import Report
import XCTest

final class MarkdownHardeningTests: XCTestCase {
    func render(_ name: String) throws -> RenderedMarkdown {
        let page = try ContentLoader.parse(try Corpus.data("markdown/" + name), path: name, sourcePath: "content/" + name)
        return MarkdownRenderer.render(page.body) { $0.hasSuffix(".md") ? String($0.dropLast(3)) + ".html" : nil }
    }

    func testRawHTMLIsOmitted() throws {
        let html = try render("raw-html.md").html
        XCTAssertEqual(activeContent(html), [])
        XCTAssertFalse(html.lowercased().contains("<script"))
        XCTAssertFalse(html.lowercased().contains("onerror"))
        XCTAssertFalse(html.lowercased().contains("<iframe"))
        XCTAssertTrue(html.contains("<!-- raw HTML omitted -->"))
        XCTAssertTrue(html.contains("<h1 id=\"raw-html\">Raw <!-- raw HTML omitted -->HTML<!-- raw HTML omitted --></h1>"), html)
    }

    func testScriptURLsLoseTheirDestination() throws {
        let html = try render("javascript-links.md").html
        XCTAssertEqual(activeContent(html), [])
        for tag in scanTags(html) {
            for (name, value) in tag.attributes {
                XCTAssertFalse(value.lowercased().contains("script:"), "\(name) of \(tag.raw)")
                XCTAssertFalse(value.lowercased().hasPrefix("data:text"), "\(name) of \(tag.raw)")
            }
        }
        XCTAssertTrue(html.contains("<a href=\"https://example.org/\">ok</a>"))
        XCTAssertTrue(html.contains("<a href=\"other.html\">page</a>"))
        XCTAssertTrue(html.contains("<a href=\"\">a</a>"))
    }

    /// 10,000 nested block quotes, and a heading at the bottom for the anchor and TOC walk: no stack overflow.
    func testTenThousandNestedQuotes() throws {
        let markdown = String(repeating: "> ", count: 10_000) + "# Deep heading\n\n" + String(repeating: "> ", count: 10_000) + "text\n"
        let rendered = try onSmallStack { MarkdownRenderer.render(markdown) }
        XCTAssertEqual(rendered.html.components(separatedBy: "<blockquote>").count - 1, 20_000)
        XCTAssertEqual(rendered.headings.map { "\($0.level) \($0.title) #\($0.anchor)" }, ["1 Deep heading #deep-heading"])
        XCTAssertTrue(rendered.html.contains("<h1 id=\"deep-heading\">Deep heading</h1>"))
    }

    func testOtherDeepNestingRendersOnASmallStack() throws {
        for markdown in [
            String(repeating: "- ", count: 10_000) + "item\n",
            String(repeating: "[", count: 50_000) + "x" + String(repeating: "](javascript:y)", count: 50_000),
            String(repeating: "*", count: 50_000) + "x" + String(repeating: "*", count: 50_000),
            String(repeating: "<", count: 50_000) + "javascript:alert(1)" + String(repeating: ">", count: 50_000),
            String(repeating: "1. ", count: 5_000) + "x\n",
        ] {
            let rendered = try onSmallStack { MarkdownRenderer.render(markdown) }
            XCTAssertEqual(activeContent(rendered.html), [])
        }
    }

    func testEscapedTextStaysLiteral() {
        let payloads = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "\"><svg onload=alert(1)>",
                        "{{{x}}}", "# heading", "- item", "1. item", "    code", "&lt;b&gt;", "![i](x.png)", "<https://a.b>", "**b** _i_ `c`",
                        "a\n\n# b\n<script>", "x\u{0}<script>alert(1)</script>"]
        for payload in payloads {
            let html = MarkdownRenderer.render("Value: " + MarkdownText.escape(payload)).html
            XCTAssertEqual(scanTags(html).map(\.name), ["p", "/p"], payload)
            let code = MarkdownRenderer.render("Value: " + MarkdownText.code(payload)).html
            XCTAssertEqual(scanTags(code).map(\.name), ["p", "code", "/code", "/p"], payload)
        }
    }

    /// The comment's text outside code spans (`MarkdownText.inline`) escapes only what would turn
    /// into markup where it stands, GitHub's own links included (bare URLs, `www.`, mentions,
    /// issue references, entities that spell `@`): it renders as typed, with no tag but the paragraph.
    func testCommentTextRendersAsTypedAndLinksNothing() {
        let payloads = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "![i](x.png)", "<https://a.b>",
                        "**b** _i_ ~~s~~ ~t~ $x^2$", "see https://evil.example/a and www.evil.example", "ping @team and &#64;team, #12, &amp; AT&T",
                        "a\\*b\\", "`unclosed and `` double", "x [^1] y", "##[error]forged ##vso[task.setvariable]", "snake_case_name", "a_ b _c"]
        for payload in payloads {
            let markdown = "Value: " + MarkdownText.inline(payload)
            let html = MarkdownRenderer.render(markdown).html
            XCTAssertEqual(scanTags(html).map(\.name), ["p", "/p"], payload)
            let text = MarkupEscaping.unescape(html.replacing(/<\/?p>/, with: "")).trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(text.replacingOccurrences(of: "\u{200B}", with: ""), "Value: " + payload, payload)
            XCTAssertFalse(markdown.replacingOccurrences(of: "\\:", with: "").contains("://") || markdown.lowercased().contains("www.") || markdown.contains("##[") || markdown.contains("##vso["), markdown)
            XCTAssertNil(markdown.firstMatch(of: /@[A-Za-z0-9]|#[0-9]/), markdown)
        }
        XCTAssertEqual(MarkdownText.inline("snake_case (a-b) it's \"q\": 50%"), "snake_case (a-b) it's \"q\": 50%", "nothing to escape")
    }

    /// A message's code spans stay code; only the text between them is escaped.
    func testCommentMessagesKeepTheirCodeSpans() {
        let markdown = MarkdownText.message("compare `HKError.Code` instead of `\"not authorized\"` [x](https://evil.example)")
        XCTAssertEqual(MarkdownRenderer.render(markdown).html,
                       "<p>compare <code>HKError.Code</code> instead of <code>&quot;not authorized&quot;</code> [x](https://evil.example)</p>\n")
    }

    /// A NUL used to end the document early for cmark (strlen), cutting a code span in half.
    func testNULDoesNotCutTheDocumentShort() {
        let html = MarkdownRenderer.render("Value: " + MarkdownText.code("*p*\u{0}") + " and the rest").html
        XCTAssertEqual(html, "<p>Value: <code>*p*\u{FFFD}</code> and the rest</p>\n")
        XCTAssertEqual(CMarkDocument.rawHTML("a\u{0}b"), "<p>a\u{FFFD}b</p>\n")
    }

    /// cmark ignores backtick strings of 1000 or more: such a fence opened no code span, and the text was live Markdown.
    func testVeryLongBacktickRunsStayLiteral() {
        let text = "*n*" + String(repeating: "`", count: 1_200) + "[x](https://evil.example)"
        let html = MarkdownRenderer.render("Value: " + MarkdownText.code(text)).html
        XCTAssertEqual(scanTags(html).map(\.name), ["p", "/p"])
        XCTAssertTrue(html.contains("*n*"))
    }
}

extension MarkdownHardeningTests {
    /// A code span is one line: each `\r\n`, `\n` and `\r` is one space.
    func testACodeSpanFoldsEachLineBreakToOneSpace() {
        XCTAssertEqual(MarkdownText.code("a\r\nb\nc\rd"), "`a b c d`")
        XCTAssertEqual(MarkdownText.code("a\r\r\nb"), "`a  b`")
        XCTAssertEqual(MarkdownText.code("plain"), "`plain`")
    }
}
