import FlyingFox
import Foundation

/// Answers every request: the status endpoint, files of the output folder (HTML with the live
/// reload script added), folder redirects, 403 for paths that try to leave the folder, 404, 405.
struct SiteHandler: HTTPHandler {
    let folder: OutputFolder
    let board: StatusBoard
    /// On loopback, only loopback names in `Host`: a web page that rebinds its own domain to
    /// 127.0.0.1 must not be able to read the reports.
    let loopbackOnly: Bool

    static let allowed = "GET, HEAD"

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var response = await respond(to: request)
        response.headers[.cacheControl] = "no-store"
        response.headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        guard request.method == .HEAD else { return response }
        // HEAD: the headers GET would send, Content-Length included, and no body.
        let length = try await response.bodyData.count
        response.payload = .httpBody(HTTPBodySequence(data: Data()))
        response.headers[.contentLength] = String(length)
        return response
    }

    private func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else {
            var response = Self.text(.methodNotAllowed, "405 Method Not Allowed: only GET and HEAD\n")
            response.headers[HTTPHeader("Allow")] = Self.allowed
            return response
        }
        if loopbackOnly, let host = request.headers[.host], !Self.isLoopbackName(host) {
            return Self.text(.forbidden, "403 Forbidden: this server answers to 127.0.0.1 and localhost only\n")
        }
        // The path exactly as sent (still percent-encoded): FlyingFox's `path` is already
        // decoded and normalized, which would hide what the request tried.
        let rawPath = request.target.path()
        let status = await board.current
        if rawPath == LiveReload.statusPath {
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: status.json)
        }
        switch folder.lookup(RequestPath(raw: rawPath)) {
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else { return Self.notFound(status) }
            let type = MediaType.forPath(path)
            let body = MediaType.isHTML(type) ? LiveReload.inject(into: data, status: status) : data
            return HTTPResponse(statusCode: .ok, headers: [.contentType: type], body: body)
        case .addSlash:
            // The query is dropped: the path was checked, the query was not.
            var headers = HTTPHeaders()
            headers[.location] = rawPath + "/"
            return HTTPResponse(statusCode: .found, headers: headers)
        case .notFound:
            return Self.notFound(status)
        case .forbidden:
            return Self.text(.forbidden, "403 Forbidden: the path leaves the site folder\n")
        }
    }

    /// `localhost:8000`, `127.0.0.1`, `[::1]:8000` → true.
    static func isLoopbackName(_ host: String) -> Bool {
        let name: Substring
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            name = host[host.index(after: host.startIndex)..<end]
        } else {
            name = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        let lowered = name.lowercased()
        return lowered == "localhost" || lowered == "::1" || (lowered.hasPrefix("127.") && lowered.split(separator: ".").count == 4)
    }

    static func text(_ code: HTTPStatusCode, _ text: String) -> HTTPResponse {
        HTTPResponse(statusCode: code, headers: [.contentType: "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// An HTML page, so it also carries the live reload script (and the error banner).
    static func notFound(_ status: BuildStatus) -> HTTPResponse {
        let page = """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Not found · healthaudit</title><link rel="stylesheet" href="/style.css"></head>
        <body><main><h1>Not found</h1><p>There is no page at this address in the built site. <a href="/">Back to the apps</a>.</p></main></body>
        </html>

        """
        return HTTPResponse(statusCode: .notFound, headers: [.contentType: "text/html; charset=utf-8"],
                            body: LiveReload.inject(into: Data(page.utf8), status: status))
    }
}
