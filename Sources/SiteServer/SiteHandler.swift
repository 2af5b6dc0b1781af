import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Answers every request: the status endpoint, files of the output folder (HTML with the live
/// reload script added), folder redirects, 403 for paths that try to leave the folder, 404, 405.
struct SiteHandler: Sendable {
    let folder: OutputFolder
    let board: StatusBoard
    /// On loopback, only loopback names in `Host`: a web page that rebinds its own domain to
    /// 127.0.0.1 must not be able to read the reports.
    let loopbackOnly: Bool

    static let allowed = "GET, HEAD"
    /// HTML larger than this is streamed as it is, without the live reload script (reading it
    /// whole to inject the script would cost its size per request).
    static let maxInjectedHTML = 8 * 1024 * 1024

    func respond(to request: HTTPRequestHead) -> HTTPResponseOut {
        var response = route(request)
        response.headers += [("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")]
        return response
    }

    private func route(_ request: HTTPRequestHead) -> HTTPResponseOut {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponseOut.text(405, "405 Method Not Allowed: only GET and HEAD\n")
            response.headers.append(("Allow", Self.allowed))
            return response
        }
        if loopbackOnly, let host = request.headers["host"], !Self.isLoopbackName(host) {
            return .text(403, "403 Forbidden: this server answers to 127.0.0.1 and localhost only\n")
        }
        // The path exactly as sent (still percent-encoded), without the query.
        let rawPath = String(request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        let status = board.latest
        if rawPath == LiveReload.statusPath {
            return HTTPResponseOut(status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: .data(status.json))
        }
        switch folder.lookup(RequestPath(raw: rawPath)) {
        case .file(let path):
            return file(path, status: status)
        case .addSlash:
            // The query is dropped: the path was checked, the query was not.
            return HTTPResponseOut(status: 302, headers: [("Location", rawPath + "/")])
        case .notFound:
            return Self.notFound(status)
        case .forbidden:
            return .text(403, "403 Forbidden: the path leaves the site folder\n")
        }
    }

    /// Opened once and checked on the open descriptor (a regular file), then streamed.
    private func file(_ path: String, status: BuildStatus) -> HTTPResponseOut {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return Self.notFound(status) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return Self.notFound(status)
        }
        let size = Int(info.st_size)
        let type = MediaType.forPath(path)
        if MediaType.isHTML(type), size <= Self.maxInjectedHTML {
            defer { close(descriptor) }
            var data = Data(count: size)
            var offset = 0
            let ok = data.withUnsafeMutableBytes { buffer -> Bool in
                while offset < size {
                    let count = read(descriptor, buffer.baseAddress! + offset, size - offset)
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { return false }
                    offset += count
                }
                return true
            }
            guard ok else { return Self.notFound(status) }
            return HTTPResponseOut(status: 200, headers: [("Content-Type", type)], body: .data(LiveReload.inject(into: data, status: status)))
        }
        return HTTPResponseOut(status: 200, headers: [("Content-Type", type)], body: .file(descriptor: descriptor, size: size))
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

    /// An HTML page, so it also carries the live reload script (and the error banner).
    static func notFound(_ status: BuildStatus) -> HTTPResponseOut {
        let page = """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Not found · healthaudit</title><link rel="stylesheet" href="/style.css"></head>
        <body><main><h1>Not found</h1><p>There is no page at this address in the built site. <a href="/">Back to the apps</a>.</p></main></body>
        </html>

        """
        return HTTPResponseOut(status: 404, headers: [("Content-Type", "text/html; charset=utf-8")],
                               body: .data(LiveReload.inject(into: Data(page.utf8), status: status)))
    }
}
