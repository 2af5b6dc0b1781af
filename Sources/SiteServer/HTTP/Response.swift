import Foundation

struct HTTPStatus: Sendable, Equatable {
    var code: Int
    var reason: String

    static let ok = HTTPStatus(code: 200, reason: "OK")
    static let found = HTTPStatus(code: 302, reason: "Found")
    static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
    static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    static let uriTooLong = HTTPStatus(code: 414, reason: "URI Too Long")
    static let headerFieldsTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    static let versionNotSupported = HTTPStatus(code: 505, reason: "HTTP Version Not Supported")
}

/// What a handler answers. Files stay on disk and are sent piece by piece.
struct Response: Sendable {
    enum Body: Sendable {
        case bytes(Data)
        /// A file, with `insert` (the live reload script) spliced in at `offset`, or appended
        /// when the offset is nil.
        case file(OpenFile, insert: Data = Data(), at: Int? = nil)

        var count: Int {
            switch self {
            case .bytes(let data): data.count
            case .file(let file, let insert, _): file.size + insert.count
            }
        }
    }

    var status: HTTPStatus
    var headers: [(name: String, value: String)]
    var body: Body

    init(_ status: HTTPStatus, headers: [(name: String, value: String)] = [], body: Body = .bytes(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    static func text(_ status: HTTPStatus, _ text: String) -> Response {
        Response(status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: .bytes(Data(text.utf8)))
    }

    /// The status line and headers; Content-Length from the body, and always `Connection: close`.
    func head() -> [UInt8] {
        var text = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(text.utf8)
    }
}
