import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixture made once per test process and shared by every test that only reads it — a built
/// site, an audit — instead of each test making its own. Its folders are removed when the process
/// exits. A test that edits or rebuilds what it gets must make a `TestSite` of its own.
public final class SharedFixture<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private let make: () throws -> Value
    private var made: Result<Value, Error>?

    public init(_ make: @escaping () throws -> Value) { self.make = make }

    /// The fixture, made by the first test that asks; a failure to make it fails every test that asks.
    public func get() throws -> Value {
        try lock.withLock {
            if made == nil { made = Result { try make() } }
            return try made!.get()
        }
    }

    /// Registers `folder` to be removed when the test process exits.
    public static func removeAtExit(_ folder: String) { SharedFolders.add(folder) }
}

/// The folders of shared fixtures, removed at exit (XCTest ends the process with `exit`).
private enum SharedFolders {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var folders: [String] = []
    nonisolated(unsafe) private static var registered = false

    static func add(_ folder: String) {
        lock.withLock {
            folders.append(folder)
            if !registered {
                registered = true
                atexit { SharedFolders.removeAll() }
            }
        }
    }

    private static func removeAll() {
        for folder in lock.withLock({ folders }) { try? FileManager.default.removeItem(atPath: folder) }
    }
}

extension TestSite {
    private static let demo = SharedFixture { () throws -> TestSite in
        let site = try TestSite(prefix: "healthaudit-shared-demo")
        SharedFixture<Void>.removeAtExit(site.root)
        try site.build()
        return site
    }

    /// A copy of the demo `Site/` built once per test process (as `build()` builds: the real
    /// templates, the fixed day), for tests that only read its output. Never edit or rebuild it.
    public static func builtDemo() throws -> TestSite { try demo.get() }
}
