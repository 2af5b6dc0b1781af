import Foundation
import Manifest
import SiteBuild
import XCTest
import TestSupport

/// Issue 33, case 18: `SOURCE_DATE_EPOCH=9223372036854775807` trapped, and years past 9999 or
/// before 0 named history records no build read back. Only seconds from 0 to 253402300799
/// (9999-12-31T23:59:59Z) are taken; anything else is refused, exit 2, before any command runs.
final class SourceDateEpochTests: XCTestCase {
    static func message(_ value: String) -> String {
        "error: SOURCE_DATE_EPOCH is '\(value)': it must be whole seconds since 1970-01-01 UTC, from 0 to 253402300799 (9999-12-31T23:59:59Z)"
    }

    func testDatesARecordCanBeNamedByAreTaken() throws {
        XCTAssertNil(try SourceDateEpoch.date(in: [:]))
        XCTAssertNil(try SourceDateEpoch.date(in: ["SOURCE_DATE_EPOCH": ""]))
        XCTAssertEqual(try SourceDateEpoch.date(in: ["SOURCE_DATE_EPOCH": "0"]), Date(timeIntervalSince1970: 0))
        XCTAssertEqual(try SourceDateEpoch.date(in: ["SOURCE_DATE_EPOCH": " 1775044800 "]), Date(timeIntervalSince1970: 1_775_044_800))
        let latest = try XCTUnwrap(try SourceDateEpoch.date(in: ["SOURCE_DATE_EPOCH": "253402300799"]))
        XCTAssertEqual(HistoryStore.stamp(latest), "99991231T235959Z")
        XCTAssertEqual(HistoryStore.stamp(Date(timeIntervalSince1970: 0)), "19700101T000000Z")
        // The clock reads it, and its day is the last one a four-digit year names.
        let clock = SystemClock(environment: ["SOURCE_DATE_EPOCH": "253402300799"])
        XCTAssertEqual(clock.today(in: TimeZone(identifier: "UTC")!), DayDate(year: 9999, month: 12, day: 31))
    }

    func testValuesOutOfRangeOrMalformedAreRefused() {
        for value in ["9223372036854775807", "253402300800", "99999999999999999999999", "-1", "-62167219201", "+5", "1.5", "1e9", "0x10", "abc", "1_000", "١٢٣"] {
            XCTAssertThrowsError(try SourceDateEpoch.date(in: ["SOURCE_DATE_EPOCH": value]), value) { error in
                XCTAssertEqual("\(error)", Self.message(value))
            }
            // The clock never traps on one (the command line refuses it first).
            let clock = SystemClock(environment: ["SOURCE_DATE_EPOCH": value])
            XCTAssertLessThan(abs(clock.now().timeIntervalSinceNow), 60, value)
        }
    }

    /// Every command refuses it up front; `--version` still answers.
    func testTheCommandsRefuseItWithExitTwo() throws {
        try HealthAuditBinary.requireBuilt()
        let site = try TestSite()
        defer { site.remove() }
        for arguments in [["build", "--site", site.site], ["check", "--site", site.site], ["build", "--results", site.root, "--output", site.root + "/out"]] {
            let run = try HealthAuditBinary.run(arguments, in: site.root, environment: ["SOURCE_DATE_EPOCH": "9223372036854775807"])
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stderr, Self.message("9223372036854775807") + "\n")
            XCTAssertEqual(run.stdout, "")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: site.output))
        let version = try HealthAuditBinary.run(["--version"], in: site.root, environment: ["SOURCE_DATE_EPOCH": "-1"])
        XCTAssertEqual(version.status, 0)
    }
}
