/// `Content-Type` by file extension; text types say they are UTF-8, as every generated file is.
public enum MediaType {
    public static func forPath(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "sarif": "application/sarif+json; charset=utf-8",
        "txt": "text/plain; charset=utf-8",
        "md": "text/markdown; charset=utf-8",
        "xml": "application/xml; charset=utf-8",
        "svg": "image/svg+xml; charset=utf-8",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "ico": "image/x-icon",
    ]

    public static func isHTML(_ contentType: String) -> Bool { contentType.hasPrefix("text/html") }
}
