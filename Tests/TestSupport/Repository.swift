import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths into this checkout, for tests that read the real example apps in `Site/`, the templates,
/// the built CLI, or the seeds beside the checkout.
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    public static let site = root + "/Site"
    public static let templates = root + "/Templates"
    /// `swift test` builds every product, so the CLI is always here when tests run.
    public static let binary = root + "/.build/debug/healthaudit"
    public static let seeds = URL(fileURLWithPath: root + "/../shared/seeds").standardizedFileURL.path

    /// Where tests make their folders: `TMPDIR` when it is set, else Linux's in-memory `/dev/shm`
    /// when it is there and writable, else the system's temporary folder. The suite writes and
    /// removes tens of thousands of small files; on a disk (an ext4 `/tmp` mounted with `discard`
    /// trims every removed file) that was a third of the suite's time.
    public static let scratch: String = {
        if let chosen = ProcessInfo.processInfo.environment["TMPDIR"], !chosen.isEmpty {
            return FileManager.default.temporaryDirectory.path
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder), isFolder.boolValue, access("/dev/shm", W_OK | X_OK) == 0 {
            return "/dev/shm"
        }
        return FileManager.default.temporaryDirectory.path
    }()

    /// A fresh path under `scratch` (nothing is created there).
    public static func temporaryPath(_ prefix: String = "healthaudit", extension: String = "") -> String {
        scratch + "/\(prefix)-\(UUID().uuidString)" + (`extension`.isEmpty ? "" : "." + `extension`)
    }

    /// A new empty folder under `scratch`.
    public static func temporaryDirectory(_ prefix: String = "healthaudit") -> String {
        let path = temporaryPath(prefix)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
