import Foundation
import CCmark

/// The only file that calls libcmark. A parsed CommonMark document whose tree can be walked and
/// edited (heading anchors, link rewriting) before it is rendered to HTML.
///
/// Rendering never passes `CMARK_OPT_UNSAFE`: raw HTML becomes `<!-- raw HTML omitted -->` and
/// `javascript:`/`vbscript:`/`file:`/`data:` (non-image) links lose their URL.
public final class CMarkDocument {
    private let root: OpaquePointer

    public init(markdown: String) {
        let options = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8
        // The byte count, not strlen: a NUL inside untrusted text must not cut the document short
        // (cmark turns NUL into U+FFFD, as CommonMark asks).
        root = markdown.withCString { text in
            cmark_parse_document(text, markdown.utf8.count, options)
        }
    }

    deinit { cmark_node_free(root) }

    public struct Heading: Sendable, Hashable {
        public var level: Int
        public var text: String
        public init(level: Int, text: String) { self.level = level; self.text = text }
    }

    /// Headings in document order, with their plain text.
    public var headings: [Heading] {
        nodes(ofType: CMARK_NODE_HEADING).map { node in
            Heading(level: Int(cmark_node_get_heading_level(node)), text: plainText(of: node))
        }
    }

    /// Link destinations in document order.
    public var links: [String] {
        nodes(ofType: CMARK_NODE_LINK).compactMap { cmark_node_get_url($0).map { String(cString: $0) } }
    }

    /// Replaces every link destination by `transform(url)` (nil keeps it).
    public func rewriteLinks(_ transform: (String) -> String?) {
        for node in nodes(ofType: CMARK_NODE_LINK) {
            guard let current = cmark_node_get_url(node).map({ String(cString: $0) }), let replacement = transform(current) else { continue }
            _ = cmark_node_set_url(node, replacement)
        }
    }

    /// One walk over the tree that rewrites link destinations (`transform` returning nil keeps a
    /// link) and collects the headings — instead of one walk for each.
    public func rewriteLinksAndCollectHeadings(_ transform: ((String) -> String?)?) -> [Heading] {
        var headings: [Heading] = []
        forEachNode(from: root) { node, type in
            if type == CMARK_NODE_HEADING {
                headings.append(Heading(level: Int(cmark_node_get_heading_level(node)), text: plainText(of: node)))
            } else if type == CMARK_NODE_LINK, let transform, let url = cmark_node_get_url(node),
                      let replacement = transform(String(cString: url)) {
                _ = cmark_node_set_url(node, replacement)
            }
        }
        return headings
    }

    /// HTML for the document, safe mode.
    public func html() -> String {
        guard let buffer = cmark_render_html(root, CMARK_OPT_DEFAULT) else { return "" }
        defer { free(buffer) }
        return String(cString: buffer)
    }

    /// libcmark's own one-shot conversion, with nothing of ours around it: the benchmark's baseline.
    public static func rawHTML(_ markdown: String) -> String {
        markdown.withCString { text in
            guard let buffer = cmark_markdown_to_html(text, markdown.utf8.count, CMARK_OPT_DEFAULT) else { return "" }
            defer { free(buffer) }
            return String(cString: buffer)
        }
    }

    /// The version of the linked libcmark, e.g. "0.30.2".
    public static var version: String { String(cString: cmark_version_string()) }

    /// Calls `body` for every node below (and including) `start`, in document order, on entering it.
    private func forEachNode(from start: OpaquePointer, _ body: (OpaquePointer, cmark_node_type) -> Void) {
        let iterator = cmark_iter_new(start)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            body(node, cmark_node_get_type(node))
        }
    }

    private func nodes(ofType wanted: cmark_node_type) -> [OpaquePointer] {
        var found: [OpaquePointer] = []
        forEachNode(from: root) { node, type in if type == wanted { found.append(node) } }
        return found
    }

    private func plainText(of node: OpaquePointer) -> String {
        var text = ""
        forEachNode(from: node) { child, type in
            if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE, let literal = cmark_node_get_literal(child) {
                text += String(cString: literal)
            } else if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                text += " "
            }
        }
        return text
    }
}
