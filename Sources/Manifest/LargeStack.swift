import Foundation

/// Runs work on a thread with a large stack: syntax trees are walked recursively (by swift-syntax
/// and by the rules), and a 10,000-link member chain must not overflow the 512 KiB stack of a
/// Dispatch worker (where `serve` builds).
public enum LargeStack {
    public static let size = 512 * 1024 * 1024

    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        if Thread.current.threadDictionary[marker] != nil { return body() }
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            Thread.current.threadDictionary[marker] = true
            box.value = body()
            done.signal()
        }
        thread.stackSize = size
        thread.start()
        done.wait()
        return box.value!
    }

    private static let marker = "healthaudit.largeStack"

    private final class ResultBox<T>: @unchecked Sendable {
        var value: T?
    }
}
