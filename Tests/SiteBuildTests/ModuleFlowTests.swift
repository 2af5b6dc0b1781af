import Foundation
import XCTest

/// The folders of Sources/ follow the data flow, and no module imports a later stage.
final class ModuleFlowTests: XCTestCase {
    static let order = ["Manifest", "Checklist", "HealthStore", "Summary", "Report", "SiteBuild", "SiteServer", "healthaudit"]

    func testNoModuleImportsALaterStage() throws {
        let sources = SiteFixture.repository + "/Sources"
        for (index, module) in Self.order.enumerated() {
            let later = Set(Self.order[(index + 1)...])
            for file in try FileManager.default.subpathsOfDirectory(atPath: sources + "/" + module) where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: sources + "/" + module + "/" + file, encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@_exported import ") {
                    let imported = line.split(separator: " ").last.map { String($0.split(separator: ".")[0]) } ?? ""
                    XCTAssertFalse(later.contains(imported), "\(module)/\(file) imports the later stage \(imported)")
                }
            }
        }
    }

    func testEverySourceFolderIsAStageOrTheCLibrary() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: SiteFixture.repository + "/Sources").filter { !$0.hasPrefix(".") }
        XCTAssertEqual(Set(folders).subtracting(Self.order).subtracting(["CCmark", "healthaudit-fuzz"]), [])
    }
}
