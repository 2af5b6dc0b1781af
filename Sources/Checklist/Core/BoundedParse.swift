import Foundation
import Manifest
import SwiftParser
import SwiftSyntax

/// swift-syntax with a deadline. Its error recovery scans ahead once per unexpected token, so some
/// malformed files parse in quadratic time (the fuzzer's 60 KB line of `<data>` took a minute), and
/// no cheap scan predicts which. Each parse runs on a parser thread (large stack) while the caller
/// waits; a parse that outlives its deadline is abandoned and the file reported as not analysed.
/// Real files parse in milliseconds, far inside the deadline, so only such inputs are affected.
enum BoundedParse {
    /// Three seconds, plus four per MiB of source (an 8 MiB generated file, the largest read, gets 35;
    /// the largest file of the real-app corpus, 400 KB, parses in 0.1 s).
    static func deadline(forBytes bytes: Int) -> Double { 3 + 4 * Double(bytes) / 1_048_576 }

    /// Contents whose parse ran out of time once are not parsed again in this process (`serve`
    /// rebuilds on every save; each retry would leave another thread spinning).
    private static let tooSlow = SlowContents()
    /// Parser threads are reused: starting one per file cost as much as the parse itself.
    private static let idle = ParserThreads()

    /// Files this small parse on the caller's thread: even the quadratic recovery stays well under a
    /// second on them, and handing each of a thousand small files to another thread and back cost
    /// more than parsing them.
    static let directLimit = 4096

    /// The tree, or nil when the parse did not finish within the deadline.
    static func parse(_ text: String) -> SourceFileSyntax? {
        if text.utf8.count <= directLimit { return parseNow(text) }
        if tooSlow.contains(text) { return nil }
        let box = TreeBox()
        let finished = DispatchSemaphore(value: 0)
        let thread = idle.take()
        thread.run {
            box.set(parseNow(text))
            finished.signal()
        }
        guard finished.wait(timeout: .now() + deadline(forBytes: text.utf8.count)) == .success else {
            // The thread is still parsing: let it finish and end, and never hand it work again.
            thread.abandon()
            tooSlow.insert(text)
            return nil
        }
        idle.give(thread)
        return box.tree
    }

    private static func parseNow(_ text: String) -> SourceFileSyntax {
        var source = text
        return source.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: SourceBounds.maxNestingDepth) }
    }

    /// One long-lived thread that runs the jobs it is handed, one at a time, until abandoned.
    private final class ParserThread: @unchecked Sendable {
        private let wake = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var job: (@Sendable () -> Void)?
        private var abandoned = false

        init() {
            let thread = Thread { [self] in loop() }
            thread.stackSize = LargeStack.size
            thread.start()
        }

        func run(_ body: @escaping @Sendable () -> Void) {
            lock.lock(); job = body; lock.unlock()
            wake.signal()
        }

        func abandon() {
            lock.lock(); abandoned = true; lock.unlock()
            wake.signal()
        }

        private func loop() {
            while true {
                wake.wait()
                lock.lock()
                let next = job
                job = nil
                let stop = abandoned
                lock.unlock()
                if let next { next() }
                if stop { return }
            }
        }
    }

    private final class ParserThreads: @unchecked Sendable {
        private var threads: [ParserThread] = []
        private let lock = NSLock()
        func take() -> ParserThread {
            lock.lock(); defer { lock.unlock() }
            return threads.popLast() ?? ParserThread()
        }
        func give(_ thread: ParserThread) { lock.lock(); threads.append(thread); lock.unlock() }
    }

    private final class TreeBox: @unchecked Sendable {
        private var value: SourceFileSyntax?
        private let lock = NSLock()
        func set(_ tree: SourceFileSyntax) { lock.lock(); value = tree; lock.unlock() }
        var tree: SourceFileSyntax? { lock.lock(); defer { lock.unlock() }; return value }
    }

    private final class SlowContents: @unchecked Sendable {
        private var texts: Set<String> = []
        private let lock = NSLock()
        func contains(_ text: String) -> Bool { lock.lock(); defer { lock.unlock() }; return texts.contains(text) }
        func insert(_ text: String) { lock.lock(); texts.insert(text); lock.unlock() }
    }
}
