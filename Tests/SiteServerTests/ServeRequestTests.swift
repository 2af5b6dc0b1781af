import Foundation
import SiteServer
import XCTest

/// Request-level tests against one running server (a build per test would dominate the run);
/// none of them changes the site's inputs.
final class ServeRequestTests: XCTestCase {
    private static let shared = Task { try await ServerFixture.started() }
    private static let secret = "healthaudit-secret-\(UUID().uuidString)"

    private func fixture() async throws -> ServerFixture {
        let fixture = try await Self.shared.value
        // Bait two levels above the output (outside the watched site folder, so no rebuild
        // replaces the links below) and a few links out of the output, made once.
        let secretFile = fixture.root + "/secret.txt"
        if !FileManager.default.fileExists(atPath: secretFile) {
            try Self.secret.write(toFile: secretFile, atomically: true, encoding: .utf8)
            let fileManager = FileManager.default
            try fileManager.createSymbolicLink(atPath: fixture.output + "/etc-link", withDestinationPath: "/etc")
            try fileManager.createSymbolicLink(atPath: fixture.output + "/secret-link.txt", withDestinationPath: "../../secret.txt")
            try fileManager.createSymbolicLink(atPath: fixture.output + "/root-link", withDestinationPath: "../..")
            try fileManager.createSymbolicLink(atPath: fixture.output + "/style-link.css", withDestinationPath: "style.css")
        }
        return fixture
    }

    override class func tearDown() {
        ServerFixture.stopShared(shared)
        super.tearDown()
    }

    func testIndexIsHTMLWithTheLiveReloadScript() async throws {
        let response = try await fixture().get("/")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertTrue(response.text.contains("href=\"apps/trainer/index.html\""))
        XCTAssertTrue(response.text.contains("<script id=\"\(LiveReload.marker)\">"))
        XCTAssertEqual(response.header("Content-Length"), String(response.body.count))
    }

    func testScriptIsNeverWrittenToDisk() async throws {
        let fixture = try await fixture()
        let onDisk = try String(contentsOfFile: fixture.output + "/index.html", encoding: .utf8)
        XCTAssertFalse(onDisk.contains(LiveReload.marker))
        let served = try await fixture.get("/index.html").text
        XCTAssertTrue(served.contains(LiveReload.marker))
        XCTAssertEqual(served.replacingOccurrences(of: #"<script id="\#(LiveReload.marker)">[\s\S]*</script>\n"#, with: "", options: .regularExpression), onDisk,
                       "the script is the only difference")
        let enumerator = FileManager.default.enumerator(atPath: fixture.output)
        while let file = enumerator?.nextObject() as? String {
            guard file.hasSuffix(".html") else { continue }
            XCTAssertFalse(try String(contentsOfFile: fixture.output + "/" + file, encoding: .utf8).contains(LiveReload.marker), file)
        }
    }

    func testContentTypes() async throws {
        let fixture = try await fixture()
        let samples = ["extra.json": "application/json; charset=utf-8", "extra.txt": "text/plain; charset=utf-8",
                       "extra.js": "text/javascript; charset=utf-8", "extra.svg": "image/svg+xml; charset=utf-8", "extra.png": "image/png"]
        for name in samples.keys where !FileManager.default.fileExists(atPath: fixture.output + "/" + name) {
            try "sample".write(toFile: fixture.output + "/" + name, atomically: true, encoding: .utf8)
        }
        let css = try await fixture.get("/style.css")
        XCTAssertEqual(css.status, 200)
        XCTAssertEqual(css.header("Content-Type"), "text/css; charset=utf-8")
        XCTAssertFalse(css.text.contains(LiveReload.marker), "only HTML gets the script")
        for (name, type) in samples {
            let response = try await fixture.get("/" + name)
            XCTAssertEqual(response.status, 200, name)
            XCTAssertEqual(response.header("Content-Type"), type, name)
            XCTAssertEqual(response.text, "sample", name)
        }
        let status = try await fixture.get("/__healthaudit/status")
        XCTAssertEqual(status.header("Content-Type"), "application/json; charset=utf-8")
    }

    func testFolderRedirectsToSlashThenServesItsIndex() async throws {
        let fixture = try await fixture()
        let redirect = try await fixture.get("/apps/trainer")
        XCTAssertEqual(redirect.status, 302)
        XCTAssertEqual(redirect.header("Location"), "/apps/trainer/")
        let page = try await fixture.get("/apps/trainer/")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertTrue(page.text.contains("Trainer"))
        XCTAssertTrue(page.text.contains("class=\"finding"))
    }

    func testMissingPathsGetTheNotFoundPage() async throws {
        let fixture = try await fixture()
        for target in ["/nope.html", "/apps/nope/", "/index.html/", "/apps/trainer/index.html/x"] {
            let response = try await fixture.get(target)
            XCTAssertEqual(response.status, 404, target)
            XCTAssertEqual(response.header("Content-Type"), "text/html; charset=utf-8", target)
            // The site's own styled 404.html, its relative links anchored at the root wherever it answers.
            XCTAssertTrue(response.text.contains("<h1>Page not found</h1>"), target)
            XCTAssertTrue(response.text.contains("<base href=\"/\">"), target)
            XCTAssertTrue(response.text.contains("<a href=\"apps/trainer/index.html\">"), target)
            XCTAssertTrue(response.text.contains(LiveReload.marker), "a 404 page still reloads: \(target)")
        }
    }

    func testOnlyGetAndHeadAreAllowed() async throws {
        let fixture = try await fixture()
        for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
            let response = try await RawHTTP.request(port: fixture.port, method: method, "/index.html")
            XCTAssertEqual(response.status, 405, method)
            XCTAssertEqual(response.header("Allow"), "GET, HEAD", method)
        }
        let head = try await RawHTTP.request(port: fixture.port, method: "HEAD", "/style.css")
        let get = try await fixture.get("/style.css")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Type"), "text/css; charset=utf-8")
        XCTAssertEqual(head.header("Content-Length"), String(get.body.count))
        XCTAssertTrue(head.body.isEmpty)
    }

    func testPathsLeavingTheOutputFolderAreRefused() async throws {
        let fixture = try await fixture()
        let attempts = [
            "/../../secret.txt", "/../../../../../../etc/passwd", "/apps/../../../secret.txt",
            "/%2e%2e/%2e%2e/secret.txt", "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E/%2E%2E/secret.txt",
            "/%252e%252e/%252e%252e/secret.txt", "/%252e%252e/%252e%252e/%252e%252e/etc/passwd",
            "//etc/passwd", "/..%2f..%2fsecret.txt", "/..%2fetc/passwd", "/..%2f..%2f..%2f..%2fetc%2fpasswd", "/..%252f..%252fsecret.txt",
            "/..\\..\\secret.txt", "/%5c..%5c..%5csecret.txt", "/index.html%00", "/%00/../../secret.txt",
            // Symlinks inside the output that point out of it.
            "/etc-link/passwd", "/etc-link/", "/secret-link.txt", "/root-link/secret.txt", "/root-link/",
        ]
        XCTAssertEqual(try String(contentsOfFile: fixture.output + "/../../secret.txt", encoding: .utf8), Self.secret,
                       "the bait is where the attempts aim")
        for target in attempts {
            let response = try await fixture.get(target)
            XCTAssertTrue([400, 403, 404].contains(response.status), "\(target) answered \(response.status)")
            XCTAssertFalse(response.text.contains(Self.secret), "\(target) leaked the file above the output")
            XCTAssertFalse(response.text.contains("root:x:0:0"), "\(target) leaked /etc/passwd")
        }
        let outside = try await fixture.get("/etc-link/passwd")
        XCTAssertEqual(outside.status, 403)
        // A link that stays inside is fine.
        let inside = try await fixture.get("/style-link.css")
        XCTAssertEqual(inside.status, 200)
    }

    func testForeignHostNamesAreRefusedOnLoopback() async throws {
        let port = try await fixture().port
        // Issue 33, case 5: names shaped like loopback addresses are names too, and rebindable.
        for foreign in ["attacker.example:\(port)", "127.x.evil.example", "127.0.0.1.nip.io:\(port)"] {
            let rebound = try await RawHTTP.send(port: port, "GET / HTTP/1.1\r\nHost: \(foreign)\r\nConnection: close\r\n\r\n")
            XCTAssertEqual(rebound.status, 403, "DNS rebinding: \(foreign)")
            XCTAssertEqual(rebound.text, "403 Forbidden: this server answers to 127.0.0.1 and localhost only\n")
        }
        for host in ["localhost:\(port)", "127.0.0.1", "[::1]:\(port)"] {
            let response = try await RawHTTP.send(port: port, "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            XCTAssertEqual(response.status, 200, host)
        }
    }

    func testStatusReportsTheFirstBuild() async throws {
        let status = try await fixture().status()
        XCTAssertEqual(status.generation, 1)
        XCTAssertNil(status.error)
    }
}
