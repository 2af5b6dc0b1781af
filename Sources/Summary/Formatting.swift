import Foundation
import HealthStore
import Manifest

/// Numbers and units as the reader expects them, formatted without locale so output is identical everywhere.
public struct UnitFormatter: Sendable {
    public let system: UnitSystem

    public init(_ system: UnitSystem) { self.system = system }

    /// 12345.6 → "12,346"; decimals only when asked.
    public static func number(_ value: Double, decimals: Int = 0) -> String {
        let factor = pow(10, Double(decimals))
        let rounded = (value * factor).rounded() / factor
        let integer = Int(rounded.magnitude.rounded(.down))
        var digits = String(integer)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        grouped = digits + grouped
        if decimals > 0 {
            let fraction = Int(((rounded.magnitude - Double(integer)) * factor).rounded())
            let text = String(fraction)
            grouped += "." + String(repeating: "0", count: max(0, decimals - text.count)) + text
        }
        return (rounded < 0 ? "-" : "") + grouped
    }

    public func distance(_ metres: Double) -> String {
        system == .metric ? Self.number(metres / 1000, decimals: 2) + " km" : Self.number(metres / 1609.344, decimals: 2) + " mi"
    }

    public func mass(_ kilograms: Double) -> String {
        system == .metric ? Self.number(kilograms, decimals: 1) + " kg" : Self.number(kilograms / 0.45359237, decimals: 1) + " lb"
    }

    public func energy(_ kilocalories: Double) -> String { Self.number(kilocalories) + " kcal" }

    public static func duration(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        return minutes >= 60 ? "\(minutes / 60) h \(String(format: "%02d", minutes % 60)) min" : "\(minutes) min"
    }
}
