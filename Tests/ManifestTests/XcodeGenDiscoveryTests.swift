import Foundation
@testable import Manifest
import XCTest

/// An XcodeGen app with no committed Info.plist or entitlements: both come from `project.yml`,
/// each key citing its line; a project.yml with anchors is skipped with a note, not an error.
final class XcodeGenDiscoveryTests: XCTestCase {
    var site: String!

    override func setUpWithError() throws {
        site = FileManager.default.temporaryDirectory.appendingPathComponent("healthaudit-xcodegen-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: site + "/app/Sources", withIntermediateDirectories: true)
        try "title: T\napps:\n  - id: walk\n    name: Walk\n    root: app\n".write(toFile: site + "/healthaudit.yml", atomically: true, encoding: .utf8)
        try "import HealthKit\n".write(toFile: site + "/app/Sources/App.swift", atomically: true, encoding: .utf8)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: site) }

    func load() throws -> AppManifest {
        let config = try ConfigLoader().load(siteDirectory: site)
        return try ManifestLoader(siteDirectory: site).load(config.apps[0])
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

    func testAProjectWithAnchorsIsSkippedWithANote() throws {
        try "settings: &base\n  A: 1\ntargets:\n  Walk:\n    type: application\n    settings: *base\n"
            .write(toFile: site + "/app/project.yml", atomically: true, encoding: .utf8)
        let manifest = try load()
        XCTAssertNil(manifest.main.infoPlist)
        XCTAssertTrue(manifest.discovery.contains { $0.isNote && $0.text.contains("project.yml is not read") }, "\(manifest.discovery.map(\.text))")
    }
}
