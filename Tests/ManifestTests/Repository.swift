import Foundation

/// Paths into this repository, for tests that read the real example apps in Site/.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let site = root + "/Site"

    static func temporaryDirectory(_ name: String = #function) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("healthaudit-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
