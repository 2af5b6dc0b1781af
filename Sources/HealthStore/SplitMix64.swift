import Foundation

/// SplitMix64: a small deterministic generator, so the same seed yields the same data on every run and platform.
/// Helpers are implemented here rather than with `Double.random(in:using:)`, whose algorithm may change.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator for one sub-stream (e.g. one day), independent of how many numbers other streams used.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        state = mixer.next() ^ stream
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in [a, b).
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }

    /// Uniform integer in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// Normal deviate (Box–Muller).
    public mutating func normal(_ mean: Double, _ sd: Double) -> Double {
        let u1 = max(unit(), 1e-300), u2 = unit()
        return mean + sd * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    public mutating func pick<T>(_ items: [(T, Double)]) -> T {
        let total = items.reduce(0) { $0 + $1.1 }
        var r = unit() * total
        for (item, weight) in items {
            if r < weight { return item }
            r -= weight
        }
        return items[items.count - 1].0
    }
}
