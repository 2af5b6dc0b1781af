@testable import Manifest
import XCTest
import TestSupport

final class ConfigLoaderTests: XCTestCase {
    func parse(_ yaml: String) throws -> ProjectConfig {
        try ConfigLoader().parse(yaml, file: "Site/healthaudit.yml", siteDirectory: "/site")
    }

    func errors(_ yaml: String, file: StaticString = #filePath, line: UInt = #line) -> [InputProblem] {
        do {
            _ = try parse(yaml)
            XCTFail("expected errors", file: file, line: line)
            return []
        } catch let error as InputError {
            return error.problems
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
            return []
        }
    }

    /// The embedded site's config is valid and names an existing folder for every app; which apps
    /// it holds, and in what order, is the demo's business, not this test's.
    func testEmbeddedSiteConfigLoads() throws {
        let config = try ConfigLoader().load(siteDirectory: Repository.site)
        XCTAssertFalse(config.apps.isEmpty)
        for app in config.apps {
            var isFolder: ObjCBool = false
            XCTAssertTrue(FileManager.default.fileExists(atPath: app.root, isDirectory: &isFolder) && isFolder.boolValue, app.root)
        }
    }

    func testEveryTopLevelKeyIsRead() throws {
        let config = try ConfigLoader().parse("""
            title: Pace site
            time_zone: Europe/London
            units: imperial
            summaries: {from: 2025-03-24, to: 2025-03-30}
            data: {seed: 7, date_of_birth: 1988-02-29, biological_sex: female}
            apps:
              - id: pace
                requested: {read: [stepCount], share: [workout]}
                permissions:
                  stepCount: {read: granted}
                extensions:
                  - {id: widget, info_plist: PaceWidget/Info.plist}
            """, file: "healthaudit.yml", siteDirectory: "/site")
        XCTAssertEqual(config.title, "Pace site")
        XCTAssertEqual(config.timeZone, "Europe/London")
        XCTAssertEqual(config.units, .imperial)
        XCTAssertEqual(config.summaries?.days.count, 7)
        XCTAssertEqual(config.data.seed, 7)
        XCTAssertEqual(config.data.dateOfBirth, DayDate(year: 1988, month: 2, day: 29))
        XCTAssertEqual(config.data.biologicalSex, "female")
        let pace = try XCTUnwrap(config.apps.first)
        XCTAssertEqual(pace.extensions.map(\.id), ["widget"])
        XCTAssertEqual(pace.requested.read.map(\.value), ["stepCount"])
        XCTAssertEqual(pace.requested.share.map(\.value), ["workout"])
        XCTAssertNotNil(pace.permissions["stepCount"]?.read)
    }

    func testUnknownKeyNamesFileLineAndKey() {
        let found = errors("title: T\napps:\n  - id: a\n    nmae: A\n")
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found[0].location.file, "Site/healthaudit.yml")
        XCTAssertEqual(found[0].location.line, 4)
        XCTAssertTrue(found[0].message.contains("unknown key 'nmae'"), found[0].message)
    }

    func testWrongTypesAreReportedTogether() {
        let found = errors("""
        title: [not, a, string]
        units: furlongs
        apps:
          - id: a
            sources: Sources
            permissions:
              stepCount: {read: maybe}
        """)
        XCTAssertEqual(found.map(\.location.line), [1, 2, 5, 7])
        XCTAssertTrue(found[1].message.contains("metric | imperial"), found[1].message)
        XCTAssertTrue(found[3].message.contains("granted | denied"), found[3].message)
    }

    func testUnsafeIdsAndPathsAreRefused() {
        let found = errors("""
        apps:
          - id: ../x
          - id: ok
            root: ../../etc
          - id: abs
            info_plist: /etc/passwd
        """)
        XCTAssertEqual(found.map(\.location.line), [2, 4, 6])
        XCTAssertTrue(found[0].message.contains("must match"), found[0].message)
        XCTAssertTrue(found[1].message.contains("leaves the config's folder (no git repository holds it)"), found[1].message)
        XCTAssertTrue(found[2].message.contains("absolute"), found[2].message)
    }

    func testMalformedYAMLNamesTheLine() {
        let found = errors("title: T\napps:\n  - id: a\n   name: [unclosed\n")
        XCTAssertEqual(found.count, 1)
        XCTAssertNotNil(found[0].location.line)
        XCTAssertTrue(found[0].message.hasPrefix("malformed YAML"), found[0].message)
    }

    func testAliasesAndDuplicateKeysAreRefused() {
        let alias = errors("base: &b {id: a}\napps:\n  - *b\n")
        XCTAssertTrue(alias.contains { $0.message.contains("aliases") }, "\(alias)")
        let duplicate = errors("title: A\ntitle: B\napps: []\n")
        XCTAssertTrue(duplicate.contains { $0.message.contains("duplicate key 'title'") }, "\(duplicate)")
    }

    func testUnknownHealthTypeAndMissingReason() {
        let found = errors("""
        apps:
          - id: a
            requested:
              read: [stepCount, stepz]
            ignore:
              - rule: usage-string-vague
        """)
        XCTAssertEqual(found.map(\.location.line), [4, 6])
        XCTAssertTrue(found[0].message.contains("unknown HealthKit type 'stepz'"))
        XCTAssertTrue(found[1].message.contains("'reason' is required"))
    }

    func testMissingConfigFile() {
        XCTAssertThrowsError(try ConfigLoader().load(siteDirectory: "/nonexistent")) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/healthaudit.yml"), "\(error)")
        }
    }
}
