import Foundation
@testable import Manifest
import XCTest
import TestSupport

/// An XcodeGen app with no committed Info.plist or entitlements: both come from `project.yml`,
/// each key citing its line; a project.yml with anchors is skipped with a note, not an error.
final class XcodeGenDiscoveryTests: XCTestCase {
    var site: String!

    override func setUpWithError() throws {
        site = Repository.temporaryPath("healthaudit-xcodegen")
        try FileManager.default.createDirectory(atPath: site + "/app/Sources", withIntermediateDirectories: true)
        try "title: T\napps:\n  - id: walk\n    name: Walk\n    root: app\n".write(toFile: site + "/healthaudit.yml", atomically: true, encoding: .utf8)
        try "import HealthKit\n".write(toFile: site + "/app/Sources/App.swift", atomically: true, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: site) }

    func load() throws -> AppManifest {
        let config = try ConfigLoader().load(siteDirectory: site)
        return try ManifestLoader(siteDirectory: site).load(config.apps[0])
    }

    /// A white-label monorepo (seen in OneBusAway): one spec per app under `Apps/`, named with
    /// `xcodegen:`, whose usage strings come from an included shared file; each key cites its file.
    func testAnIncludedSpecAddsKeysCitedInTheirOwnFile() throws {
        try FileManager.default.createDirectory(atPath: site + "/app/Apps/Walk", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: site + "/app/Apps/Shared", withIntermediateDirectories: true)
        try """
        name: Walk
        targets:
          Walk:
            type: application
            sources:
              - path: Sources
            entitlements:
              properties:
                com.apple.developer.healthkit: true
            info:
              properties:
                CFBundleDisplayName: Walk
                NSHealthShareUsageDescription: "Overridden by the app's own spec."
        include:
          - path: Apps/Shared/info_plist.yml
          - path: Apps/Shared/missing.yml
        """.write(toFile: site + "/app/Apps/Walk/project.yml", atomically: true, encoding: .utf8)
        try """
        targets:
          Walk:
            info:
              properties:
                NSHealthShareUsageDescription: Uses your walking speed from Health to estimate arrival times.
                NSHealthUpdateUsageDescription: Uses your walking speed from Health to estimate arrival times.
        """.write(toFile: site + "/app/Apps/Shared/info_plist.yml", atomically: true, encoding: .utf8)
        try "title: T\napps:\n  - id: walk\n    name: Walk\n    root: app\n    xcodegen: Apps/Walk/project.yml\n".write(toFile: site + "/healthaudit.yml", atomically: true, encoding: .utf8)
        let manifest = try load()
        XCTAssertEqual(manifest.usageString("NSHealthShareUsageDescription")?.value.string, "Overridden by the app's own spec.")
        XCTAssertEqual(manifest.usageString("NSHealthShareUsageDescription")?.location, FileLocation(file: "app/Apps/Walk/project.yml", line: 13))
        let update = try XCTUnwrap(manifest.usageString("NSHealthUpdateUsageDescription"))
        XCTAssertEqual(update.location, FileLocation(file: "app/Apps/Shared/info_plist.yml", line: 6))
        XCTAssertEqual(update.quote, "NSHealthUpdateUsageDescription: Uses your walking speed from Health to estimate arrival times.")
        XCTAssertEqual(manifest.main.entitlements?["com.apple.developer.healthkit"]?.bool, true)
        XCTAssertEqual(manifest.main.sources.map(\.path), ["app/Sources/App.swift"])
        XCTAssertTrue(manifest.discovery.contains { $0.isNote && $0.text.contains("includes Apps/Shared/missing.yml") })
        // A spec that is not there is an error at the config's line.
        try "title: T\napps:\n  - id: walk\n    root: app\n    xcodegen: Apps/Gone/project.yml\n".write(toFile: site + "/healthaudit.yml", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try load()) { error in
            XCTAssertEqual((error as? InputError)?.problems.map(\.message), ["XcodeGen spec 'Apps/Gone/project.yml' does not exist"])
        }
    }

    func testInfoAndEntitlementPropertiesAreTheAppsManifests() throws {
        try """
        name: Walk
        targets:
          WalkWidget:
            type: app-extension
          Walk:
            type: application
            platform: iOS
            sources:
              - path: Sources
            entitlements:
              path: Walk/Walk.entitlements
              properties:
                com.apple.developer.healthkit: true
            info:
              path: Walk/Info.plist
              properties:
                NSHealthShareUsageDescription: "Walk reads your step count to chart your daily walks."
                NSHealthUpdateUsageDescription: "Walk saves the walks you record as workouts in Health."
        """.write(toFile: site + "/app/project.yml", atomically: true, encoding: .utf8)
        let manifest = try load()
        XCTAssertEqual(manifest.main.infoPlist?.format, .xcodeGen)
        let share = try XCTUnwrap(manifest.usageString("NSHealthShareUsageDescription"))
        XCTAssertEqual(share.location, FileLocation(file: "app/project.yml", line: 17))
        XCTAssertEqual(manifest.main.entitlements?["com.apple.developer.healthkit"]?.bool, true)
        XCTAssertEqual(manifest.main.sources.map(\.path), ["app/Sources/App.swift"])
    }

    /// XcodeGen reads anchors, aliases and merge keys, and so does discovery (alias bombs are
    /// refused before they expand: `DiscoveryIsolationTests`).
    func testAProjectWithAnchorsIsReadAsXcodeGenReadsIt() throws {
        try "settings: &base\n  A: 1\ntargets:\n  Walk:\n    type: application\n    settings:\n      <<: *base\n      B: 2\n"
            .write(toFile: site + "/app/project.yml", atomically: true, encoding: .utf8)
        let manifest = try load()
        XCTAssertFalse(manifest.discovery.contains { $0.isNote && $0.text.contains("project.yml is not read") }, "\(manifest.discovery.map(\.text))")
        XCTAssertEqual(manifest.config.buildSettings["A"], "1")
        XCTAssertEqual(manifest.config.buildSettings["B"], "2")
        XCTAssertEqual(manifest.config.buildSettingOrigins["A"]?.location, FileLocation(file: "app/project.yml", line: 2), "cited where the anchor writes it")
    }
}
