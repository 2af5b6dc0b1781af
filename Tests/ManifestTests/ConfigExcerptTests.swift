import Manifest
import XCTest

/// One app's evidence shows the config without the other apps' entries.
final class ConfigExcerptTests: XCTestCase {
    private func scoped(_ yaml: String, to app: String) throws -> String {
        let config = try ConfigLoader().parse(yaml, file: "healthaudit.yml", siteDirectory: "/tmp/excerpt")
        return ConfigExcerpt.scoped(yaml, to: app, in: config)
    }

    func testOtherEntriesAreReplacedByOneCommentPerRun() throws {
        let yaml = """
        title: Apps
        apps:
          - id: first
            name: First
            root: first
            ignore:
              - rule: usage-string-vague
                reason: secret legal note
          # the one under review
          - id: middle
            name: Middle
            root: middle
          -
            id: last
            name: Last
            root: last
        content: content
        """
        XCTAssertEqual(try scoped(yaml, to: "middle"), """
        title: Apps
        apps:
          # 1 other app omitted: not part of this evidence
          - id: middle
            name: Middle
            root: middle
          # 1 other app omitted: not part of this evidence
        content: content
        """)
        XCTAssertEqual(try scoped(yaml, to: "last"), """
        title: Apps
        apps:
          # 2 other apps omitted: not part of this evidence
          -
            id: last
            name: Last
            root: last
        content: content
        """)
    }

    func testOneAppIsShownWholeAndFlowStyleEntriesAreAllLeftOut() throws {
        let single = "apps:\n  - id: only\n    name: Only\n    root: only\n"
        XCTAssertEqual(try scoped(single, to: "only"), single)
        let flow = "title: T\napps: [{id: a, name: A, root: a}, {id: b, name: B, root: b}]\n"
        let shown = try scoped(flow, to: "a")
        XCTAssertFalse(shown.contains("id: b"), shown)
        XCTAssertTrue(shown.hasPrefix("title: T\n# app entries omitted"), shown)
    }
}
