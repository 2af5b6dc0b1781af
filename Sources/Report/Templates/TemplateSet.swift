import Foundation
import Manifest
import Mustache

/// The Mustache templates and static assets (`*.css`, `*.svg`, `*.png`) of the site: the defaults
/// compiled into the tool (from Templates/), each overridden by a file of the same name in the
/// `--templates` folder when one is given. A folder copied from an older version keeps working
/// when a later version adds a page. A parse error names the file and line.
public struct TemplateSet: Sendable {
    public static let required = ["layout", "index", "app", "rule", "rules", "page", "summary", "day"]

    private let library: MustacheLibrary
    /// Static files copied to the output as they are (file name → bytes).
    public let assets: [String: Data]
    public let directory: String?
    /// Hash of every template and asset: part of each cached page's key.
    public let digest: String

    /// The templates compiled into the tool, by file name.
    public static var builtInFiles: [String: Data] {
        BuiltInTemplates.base64.compactMapValues { Data(base64Encoded: $0) }
    }

    public init(directory: String?, fileSystem: FileSystem = LocalFileSystem()) throws {
        self.directory = directory
        var files: [String: (data: Data, shownPath: String)] = [:]
        for (name, data) in Self.builtInFiles { files[name] = (data, "(built-in)/" + name) }
        if let directory {
            guard fileSystem.isDirectory(directory) else {
                throw InputError("templates folder not found", file: directory)
            }
            for file in try fileSystem.files(under: directory) where Self.isTemplateFile(file) {
                files[file] = (try fileSystem.contents(of: directory + "/" + file), directory + "/" + file)
            }
        }
        _ = ByteHTMLEscaping.registered
        var library = MustacheLibrary()
        var assets: [String: Data] = [:]
        var errors: [InputProblem] = []
        var hashes: [String] = []
        for (file, entry) in files.sorted(by: { $0.key < $1.key }) {
            hashes.append(file + "=" + StableDigest.hex(entry.data))
            if file.hasSuffix(".mustache") {
                do {
                    let source = ByteHTMLEscaping.pragma + String(decoding: entry.data, as: UTF8.self)
                    library.register(try MustacheTemplate(string: source), named: String(file.dropLast(".mustache".count)))
                } catch let error as MustacheTemplate.ParserError {
                    // The pragma is a line of its own above the file's first line.
                    errors.append(InputProblem("template does not parse: \(error.error)", file: entry.shownPath, line: max(error.context.lineNumber - 1, 1), column: error.context.columnNumber))
                } catch {
                    errors.append(InputProblem("template does not parse: \(error)", file: entry.shownPath))
                }
            } else {
                assets[file] = entry.data
            }
        }
        for name in Self.required where library.getTemplate(named: name) == nil && !errors.contains(where: { $0.location.file.hasSuffix("/\(name).mustache") }) {
            errors.append(InputProblem("template '\(name).mustache' is missing", file: directory ?? "(built-in)"))
        }
        if !errors.isEmpty { throw InputError(errors) }
        self.library = library
        self.assets = assets
        self.digest = StableDigest.hex(Data(hashes.joined(separator: "\n").utf8))
    }

    static func isTemplateFile(_ name: String) -> Bool {
        [".mustache", ".css", ".svg", ".png"].contains { name.hasSuffix($0) }
    }

    /// Renders `template` with `model`, then wraps it in the layout.
    func page(_ template: String, model: some TemplateModel, layout: PageContext.Layout) -> String {
        var layout = layout
        layout.content = library.render(model.templateContext, withTemplate: template) ?? ""
        return library.render(layout.templateContext, withTemplate: "layout") ?? layout.content
    }

    /// Renders `template` with `context`, then wraps it in `layout`.
    public func page(_ template: String, context: [String: Any], layout: [String: Any]) -> String {
        let body = library.render(context, withTemplate: template) ?? ""
        var wrapper = layout
        wrapper["content"] = body
        return library.render(wrapper, withTemplate: "layout") ?? body
    }

    public func render(_ template: String, context: [String: Any]) -> String {
        library.render(context, withTemplate: template) ?? ""
    }
}

/// `{{value}}` escaped by UTF-8 bytes, as Mustache's HTML content type escapes it (`& < > " '`)
/// but not by `Character`: there a quote followed by a combining mark (`"\u{301}`) is one
/// Character that is not in its table and stays unescaped, which would end an attribute value
/// early; and looking each Character up in a dictionary was a twentieth of a fleet's render.
/// Every template, the user's too, starts with the pragma that selects it (on a line of its own,
/// which Mustache drops, so the output is otherwise unchanged).
struct ByteHTMLEscaping: MustacheContentType {
    static let name = "HEALTHAUDIT_HTML"
    static let pragma = "{{% CONTENT_TYPE: \(name) }}\n"
    /// Registered once, before any template is parsed (the registry is global).
    static let registered: Void = MustacheContentTypes.register(ByteHTMLEscaping(), named: name)

    func escapeText(_ text: String) -> String { Self.escape(text) }

    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: isSpecial) else { return text }
        var text = text
        return text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 64)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "<"): output += "&lt;".utf8
                case UInt8(ascii: ">"): output += "&gt;".utf8
                case UInt8(ascii: "&"): output += "&amp;".utf8
                case UInt8(ascii: "\""): output += "&quot;".utf8
                case UInt8(ascii: "'"): output += "&#39;".utf8
                default: output.append(byte)
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
}
