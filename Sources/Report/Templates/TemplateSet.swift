import Foundation
import Manifest
import Mustache

/// The user-editable Mustache templates (`Templates/*.mustache`) plus static assets (`*.css`).
/// Missing templates fall back to none: a site folder must ship a complete set, and a parse error
/// names the file and line.
public struct TemplateSet: Sendable {
    public static let required = ["layout", "index", "app", "rule", "rules", "page", "summary", "day"]

    private let library: MustacheLibrary
    /// Static files copied to the output as they are (file name → bytes).
    public let assets: [String: Data]
    public let directory: String
    /// Hash of every template and asset: part of each cached page's key.
    public let digest: String

    public init(directory: String, fileSystem: FileSystem = LocalFileSystem()) throws {
        self.directory = directory
        guard fileSystem.isDirectory(directory) else {
            throw InputErrors([InputError("templates folder not found", file: directory)])
        }
        var library = MustacheLibrary()
        var assets: [String: Data] = [:]
        var errors: [InputError] = []
        var hashes: [String] = []
        for file in try fileSystem.files(under: directory) {
            let path = directory + "/" + file
            hashes.append(file + "=" + StableDigest.hex((try? fileSystem.contents(of: path)) ?? Data()))
            if file.hasSuffix(".mustache") {
                let text = String(decoding: try fileSystem.contents(of: path), as: UTF8.self)
                do {
                    library.register(try MustacheTemplate(string: text), named: String(file.dropLast(".mustache".count)))
                } catch let error as MustacheTemplate.ParserError {
                    errors.append(InputError("template does not parse: \(error.error)", file: path, line: error.context.lineNumber, column: error.context.columnNumber))
                } catch {
                    errors.append(InputError("template does not parse: \(error)", file: path))
                }
            } else if file.hasSuffix(".css") || file.hasSuffix(".svg") || file.hasSuffix(".png") {
                assets[file] = try fileSystem.contents(of: path)
            }
        }
        for name in Self.required where library.getTemplate(named: name) == nil && !errors.contains(where: { $0.location.file.hasSuffix("/\(name).mustache") }) {
            errors.append(InputError("template '\(name).mustache' is missing", file: directory))
        }
        if !errors.isEmpty { throw InputErrors(errors) }
        self.library = library
        self.assets = assets
        self.digest = StableDigest.hex(Data(hashes.joined(separator: "\n").utf8))
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
