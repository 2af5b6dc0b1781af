import Foundation
import XCTest
import TestSupport

/// The folders of Sources/ follow the data flow, and no module imports a later stage.
final class ModuleFlowTests: XCTestCase {
    static let order = ["Manifest", "Checklist", "HealthStore", "Summary", "Report", "SiteBuild", "SiteServer", "healthaudit"]

    func testNoModuleImportsALaterStage() throws {
        let sources = Repository.root + "/Sources"
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

    /// Each module imports only the local modules `Package.swift` declares as its dependencies, and
    /// declares only earlier stages: the graph the build uses is the one the folders show.
    func testImportsAreDeclaredAndDeclarationsFollowTheFlow() throws {
        let declared = try Self.declaredDependencies()
        let local = Set(Self.order + ["CCmark"])
        for (index, module) in Self.order.enumerated() {
            let dependencies = try XCTUnwrap(declared[module], "\(module) is a target in Package.swift")
            for dependency in dependencies where local.contains(dependency) {
                let position = Self.order.firstIndex(of: dependency)
                XCTAssertTrue(position.map { $0 < index } ?? true, "\(module) declares the later stage \(dependency)")
            }
            let sources = Repository.root + "/Sources/" + module
            for file in try FileManager.default.subpathsOfDirectory(atPath: sources) where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
                for imported in Self.imports(in: text) where local.contains(imported) && imported != module {
                    XCTAssertTrue(dependencies.contains(imported), "\(module)/\(file) imports \(imported), which Package.swift does not declare")
                }
            }
        }
    }

    /// The tools and the test-support library import only what they declare, too (the build's
    /// import check covers them; this names the file when it would fail).
    func testToolsAndTestSupportImportOnlyWhatTheyDeclare() throws {
        let declared = try Self.declaredDependencies()
        let local = Set(Self.order + ["CCmark", "TestSupport"])
        for (target, folder) in [("healthaudit-fuzz", "Sources/healthaudit-fuzz"), ("healthaudit-bench", "Sources/healthaudit-bench"), ("TestSupport", "Tests/TestSupport")] {
            let dependencies = try XCTUnwrap(declared[target], "\(target) is a target in Package.swift")
            let sources = Repository.root + "/" + folder
            for file in try FileManager.default.subpathsOfDirectory(atPath: sources) where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
                for imported in Self.imports(in: text) where local.contains(imported) {
                    XCTAssertTrue(dependencies.contains(imported), "\(folder)/\(file) imports \(imported), which Package.swift does not declare")
                }
            }
        }
    }

    static func imports(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
            guard words.first == "import", words.count >= 2 else { return nil }
            return String(words[words.count - 1].split(separator: ".")[0])
        }
    }

    /// Target name → the names in its `dependencies: [...]`, read from Package.swift's text.
    static func declaredDependencies() throws -> [String: [String]] {
        let manifest = try String(contentsOfFile: Repository.root + "/Package.swift", encoding: .utf8)
        var result: [String: [String]] = [:]
        for match in manifest.matches(of: /\.(?:target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"\s*,\s*dependencies:\s*\[/) {
            var depth = 1, index = match.range.upperBound
            while depth > 0, index < manifest.endIndex {
                if manifest[index] == "[" { depth += 1 } else if manifest[index] == "]" { depth -= 1 }
                index = manifest.index(after: index)
            }
            let list = String(manifest[match.range.upperBound..<index])
            // Products of packages are `.product(name: "X", package: "Y")`: only bare strings are local targets.
            let withoutProducts = list.replacing(/\.product\([^)]*\)/, with: "")
            result[String(match.1)] = withoutProducts.matches(of: /"([^"]+)"/).map { String($0.1) }
        }
        for match in manifest.matches(of: /\.target\(name:\s*"([^"]+)"\s*\)/) { result[String(match.1)] = [] }
        return result
    }

    func testEverySourceFolderIsAStageOrTheCLibrary() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Repository.root + "/Sources").filter { !$0.hasPrefix(".") }
        XCTAssertEqual(Set(folders).subtracting(Self.order).subtracting(["CCmark", "healthaudit-fuzz", "healthaudit-bench", "EmbedTemplates", "EmbedTemplatesPlugin"]), [])
    }
}
