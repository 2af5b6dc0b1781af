import Foundation
import SiteServer
import XCTest
import TestSupport

/// The checks that run before any file-system access, and the pure helpers around them.
final class RequestPathTests: XCTestCase {
    func testPlainPathsDecodeToSegments() {
        XCTAssertEqual(RequestPath(raw: "/"), .segments([], isFolder: true))
        XCTAssertEqual(RequestPath(raw: "/apps/trainer"), .segments(["apps", "trainer"], isFolder: false))
        XCTAssertEqual(RequestPath(raw: "/apps/trainer/"), .segments(["apps", "trainer"], isFolder: true))
        XCTAssertEqual(RequestPath(raw: "/a%20b.html"), .segments(["a b.html"], isFolder: false))
    }

    func testTraversalFormsAreRefused() {
        let attempts = [
            "/../etc/passwd", "/apps/../../etc/passwd", "/./index.html", "/%2e%2e/etc/passwd", "/%2E%2E/etc/passwd",
            "/%252e%252e/etc/passwd", "//etc/passwd", "/apps//x", "/..%2fetc/passwd", "/..%2Fetc%2Fpasswd",
            "/..\\etc\\passwd", "/%5c..%5cetc", "/index.html%00.css", "/a%0d%0aSet-Cookie:x", "/%zz", "etc/passwd", "*",
        ]
        for attempt in attempts {
            guard case .refused = RequestPath(raw: attempt) else { return XCTFail("\(attempt) was not refused: \(RequestPath(raw: attempt))") }
        }
    }

    func testMediaTypes() {
        XCTAssertEqual(MediaType.forPath("a/index.html"), "text/html; charset=utf-8")
        XCTAssertEqual(MediaType.forPath("style.css"), "text/css; charset=utf-8")
        XCTAssertEqual(MediaType.forPath("chart.SVG"), "image/svg+xml; charset=utf-8")
        XCTAssertEqual(MediaType.forPath("logo.png"), "image/png")
        XCTAssertEqual(MediaType.forPath("report.json"), "application/json; charset=utf-8")
        XCTAssertEqual(MediaType.forPath("app.js"), "text/javascript; charset=utf-8")
        XCTAssertEqual(MediaType.forPath("notes.txt"), "text/plain; charset=utf-8")
        XCTAssertEqual(MediaType.forPath("LICENSE"), "application/octet-stream")
    }

    func testScriptGoesBeforeTheLastBodyEndAndCannotBeClosedByAnError() {
        let html = Data("<html><body><p>x</p></body></html>".utf8)
        let status = BuildStatus(generation: 3, error: "bad.mustache:1:1: error: </script><script>alert(1)</script>")
        let served = String(decoding: LiveReload.inject(into: html, status: status), as: UTF8.self)
        XCTAssertTrue(served.hasPrefix("<html><body><p>x</p><script id=\"\(LiveReload.marker)\">"))
        XCTAssertTrue(served.hasSuffix("</script>\n</body></html>"))
        XCTAssertEqual(served.components(separatedBy: "</script>").count, 2, "only the script's own end tag")
        XCTAssertTrue(served.contains(#""generation":3"#))
        // No </body>: appended.
        XCTAssertTrue(String(decoding: LiveReload.inject(into: Data("<p>x</p>".utf8), status: status), as: UTF8.self).hasPrefix("<p>x</p><script"))
    }

    func testStatusJSONAlwaysHasTheErrorKey() throws {
        XCTAssertEqual(String(decoding: BuildStatus(generation: 2).json, as: UTF8.self), #"{"error":null,"generation":2}"#)
        let failed = try JSONSerialization.jsonObject(with: BuildStatus(generation: 2, error: "x:1:1: error").json) as? [String: Any]
        XCTAssertEqual(failed?["error"] as? String, "x:1:1: error")
    }

    func testDebounceMakesOneRebuildPerBurst() {
        var debouncer = Debouncer(maxDelay: .seconds(3))
        let start = ContinuousClock.now
        let at = { (ms: Int) in start + .milliseconds(ms) }
        XCTAssertFalse(debouncer.poll(changed: false, at: at(0)), "nothing changed")
        XCTAssertFalse(debouncer.poll(changed: true, at: at(300)), "a burst starts")
        XCTAssertFalse(debouncer.poll(changed: true, at: at(600)), "still saving")
        XCTAssertTrue(debouncer.poll(changed: false, at: at(900)), "settled: rebuild once")
        XCTAssertFalse(debouncer.poll(changed: false, at: at(1200)), "and only once")
        // Changes that never pause still rebuild after maxDelay.
        var fired = 0
        for step in 0..<20 where debouncer.poll(changed: true, at: at(1500 + step * 300)) { fired += 1 }
        XCTAssertEqual(fired, 1)
    }

    func testWatcherIgnoresTheOutputAndItsStagingFolders() throws {
        let root = Repository.temporaryPath("healthaudit-watch")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fileManager = FileManager.default
        for folder in ["site/public", "site/.public-tmp-1", "site/.public-old-2", "site/content", "templates"] {
            try fileManager.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        let watcher = ChangeWatcher(roots: [root + "/site", root + "/templates"], output: root + "/site/public")
        let before = watcher.snapshot()
        for path in ["site/public/index.html", "site/.public-tmp-1/index.html", "site/.public-old-2/x.html", "site/.public.cache.json"] {
            try "x".write(toFile: root + "/" + path, atomically: false, encoding: .utf8)
        }
        XCTAssertEqual(watcher.snapshot(), before, "build output is not an input")
        try "y".write(toFile: root + "/templates/layout.mustache", atomically: false, encoding: .utf8)
        let afterTemplate = watcher.snapshot()
        XCTAssertNotEqual(afterTemplate, before)
        try "# Page".write(toFile: root + "/site/content/about.md", atomically: false, encoding: .utf8)
        XCTAssertNotEqual(watcher.snapshot(), afterTemplate)
    }
}
