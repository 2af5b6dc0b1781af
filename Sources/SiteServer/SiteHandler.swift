import Foundation

/// Answers every request: the status endpoint, files of the output folder (HTML with the live
/// reload script added), folder redirects, 403 for paths that try to leave the folder, 404, 405.
struct SiteHandler: RequestHandler {
    let folder: OutputFolder
    let board: StatusBoard
    /// On loopback, only loopback names in `Host`: a web page that rebinds its own domain to
    /// 127.0.0.1 must not be able to read the reports.
    let loopbackOnly: Bool
    /// How much of a page is read at a time while looking for its `</body>`.
    let window: Int

    static let allowed = "GET, HEAD"

    func respond(to request: RequestHead) async -> Response {
        var response = await answer(request)
        response.headers.append(("Cache-Control", "no-store"))
        response.headers.append(("X-Content-Type-Options", "nosniff"))
        return response
    }

    private func answer(_ request: RequestHead) async -> Response {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = Response.text(.methodNotAllowed, "405 Method Not Allowed: only GET and HEAD\n")
            response.headers.append(("Allow", Self.allowed))
            return response
        }
        let hosts = request.values("Host")
        // Two Host headers could mean different things to different readers: refuse both.
        guard hosts.count <= 1 else { return .text(.badRequest, "400 Bad Request: more than one Host header\n") }
        if loopbackOnly, let host = hosts.first, !LoopbackHost.accepts(host) {
            return .text(.forbidden, "403 Forbidden: this server answers to 127.0.0.1 and localhost only\n")
        }
        // The path exactly as sent, still percent-encoded: RequestPath decodes it once, itself.
        let rawPath = request.path
        let status = board.current
        if rawPath == LiveReload.statusPath {
            return Response(.ok, headers: [("Content-Type", "application/json; charset=utf-8")], body: .bytes(status.json))
        }
        switch folder.lookup(RequestPath(raw: rawPath)) {
        case .file(let path):
            // Checked again on the open descriptor: still a regular file, never a symlink.
            guard let file = OpenFile.open(path) else { return notFound(status) }
            let type = MediaType.forPath(path)
            guard MediaType.isHTML(type) else { return Response(.ok, headers: [("Content-Type", type)], body: .file(file)) }
            let script = LiveReload.scriptData(status: status)
            return Response(.ok, headers: [("Content-Type", type)],
                            body: .file(file, insert: script, at: LiveReload.insertionOffset(in: file, window: window)))
        case .addSlash:
            // The query is dropped: the path was checked, the query was not.
            return Response(.found, headers: [("Location", rawPath + "/")])
        case .notFound:
            return notFound(status)
        case .forbidden:
            return .text(.forbidden, "403 Forbidden: the path leaves the site folder\n")
        }
    }

    /// The site's own `404.html` (styled, listing the apps), its links made absolute with a
    /// `<base href="/">` since it answers at any depth; the plain page before the first build.
    func notFound(_ status: BuildStatus) -> Response {
        if case .file(let path) = folder.lookup(RequestPath(raw: "/404.html")), let file = OpenFile.open(path), file.size <= 1 << 20 {
            var bytes = [UInt8](repeating: 0, count: file.size)
            let got = file.read(into: &bytes, at: 0, count: file.size)
            var page = String(decoding: bytes.prefix(max(got, 0)), as: UTF8.self)
            // Served here, the site's root is `/`, whatever `base_url` the published copy uses.
            if let base = page.range(of: #"<base href="[^"]*">"#, options: .regularExpression) {
                page.replaceSubrange(base, with: "<base href=\"/\">")
            } else {
                page = page.replacingOccurrences(of: "<head>\n", with: "<head>\n<base href=\"/\">\n")
            }
            return Response(.notFound, headers: [("Content-Type", "text/html; charset=utf-8")],
                            body: .bytes(LiveReload.inject(into: Data(page.utf8), status: status)))
        }
        return Self.notFound(status)
    }

    /// An HTML page, so it also carries the live reload script (and the error banner).
    static func notFound(_ status: BuildStatus) -> Response {
        let page = """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Not found · healthaudit</title><link rel="stylesheet" href="/style.css"></head>
        <body><main><h1>Not found</h1><p>There is no page at this address in the built site. <a href="/">Back to the apps</a>.</p></main></body>
        </html>

        """
        return Response(.notFound, headers: [("Content-Type", "text/html; charset=utf-8")],
                        body: .bytes(LiveReload.inject(into: Data(page.utf8), status: status)))
    }
}
