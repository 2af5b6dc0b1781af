import Foundation

/// `map` on every core, results in input order. Workers are threads of their own with the same
/// large stack as `LargeStack` (Dispatch workers have 512 KiB: a 10,000-link member chain would
/// overflow them while swift-syntax parses it).
public enum ParallelMap {
    public static func map<Input, Output>(_ inputs: [Input], _ transform: @escaping (Input) -> Output) -> [Output] {
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, 4, inputs.count)
        guard workers > 1 else { return inputs.map(transform) }
        let job = Job(inputs: inputs, transform: transform)
        let done = DispatchGroup()
        for _ in 0..<workers {
            done.enter()
            let thread = Thread { job.work(); done.leave() }
            thread.stackSize = LargeStack.size
            thread.start()
        }
        done.wait()
        return job.results
    }

    /// Hands out indices one at a time, so a slow file does not hold up a whole share.
    private final class Job<Input, Output>: @unchecked Sendable {
        let inputs: [Input]
        let transform: (Input) -> Output
        private var next = 0
        private var slots: [Output?]
        private let lock = NSLock()

        init(inputs: [Input], transform: @escaping (Input) -> Output) {
            self.inputs = inputs
            self.transform = transform
            slots = Array(repeating: nil, count: inputs.count)
        }

        func work() {
            while true {
                lock.lock()
                let index = next
                next += 1
                lock.unlock()
                guard index < inputs.count else { return }
                let value = transform(inputs[index])
                lock.lock(); slots[index] = value; lock.unlock()
            }
        }

        var results: [Output] { slots.map { $0! } }
    }
}
