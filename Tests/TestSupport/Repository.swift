import Foundation

/// Paths into this checkout, for tests that read the real example apps in `Site/`, the templates,
/// the built CLI, or the seeds beside the checkout.
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    public static let site = root + "/Site"
    public static let templates = root + "/Templates"
    /// `swift test` builds every product, so the CLI is always here when tests run.
    public static let binary = root + "/.build/debug/healthaudit"
    public static let seeds = URL(fileURLWithPath: root + "/../shared/seeds").standardizedFileURL.path

    /// A new empty folder under the system's temporary folder.
    public static func temporaryDirectory(_ prefix: String = "healthaudit") -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
