import Foundation

/// The HKUnit strings the simulator understands, with conversion inside one dimension.
public enum HealthUnit: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    case count = "count"
    case countPerMinute = "count/min"
    case millisecond = "ms"
    case second = "s"
    case minute = "min"
    case kilocalorie = "kcal"
    /// HealthKit's `cal` is the small calorie (1/1000 kcal); react-native-health maps "calorie" to it (spec §6).
    case smallCalorie = "cal"
    case kilojoule = "kJ"
    case kilogram = "kg"
    case gram = "g"
    case pound = "lb"
    case meter = "m"
    case centimeter = "cm"
    case kilometer = "km"
    case mile = "mi"
    /// HealthKit's percent unit holds fractions (0.0–1.0).
    case percent = "%"
    case vo2MaxUnit = "ml/(kg*min)"

    public enum Dimension: String, Sendable, Hashable {
        case count, frequency, time, energy, mass, length, fraction, oxygenUptake
    }

    public var dimension: Dimension {
        switch self {
        case .count: return .count
        case .countPerMinute: return .frequency
        case .millisecond, .second, .minute: return .time
        case .kilocalorie, .smallCalorie, .kilojoule: return .energy
        case .kilogram, .gram, .pound: return .mass
        case .meter, .centimeter, .kilometer, .mile: return .length
        case .percent: return .fraction
        case .vo2MaxUnit: return .oxygenUptake
        }
    }

    /// Size of one unit in the dimension's base (count, count/min, s, kcal, kg, m, fraction, ml/(kg*min)).
    private var factor: Double {
        switch self {
        case .count, .countPerMinute, .second, .kilocalorie, .kilogram, .meter, .percent, .vo2MaxUnit: return 1
        case .millisecond: return 0.001
        case .minute: return 60
        case .smallCalorie: return 0.001
        case .kilojoule: return 1 / 4.184
        case .gram: return 0.001
        case .pound: return 0.45359237
        case .centimeter: return 0.01
        case .kilometer: return 1000
        case .mile: return 1609.344
        }
    }

    public func isCompatible(with other: HealthUnit) -> Bool { dimension == other.dimension }

    /// Converts `value` from this unit to `target`; nil when the dimensions differ.
    public func convert(_ value: Double, to target: HealthUnit) -> Double? {
        guard isCompatible(with: target) else { return nil }
        if self == target { return value }
        return value * factor / target.factor
    }

    /// Parses an HKUnit string; also accepts HealthKit's alias `Cal` (= kcal) and spellings of the VO2 max unit.
    public init?(symbol: String) {
        switch symbol {
        case "Cal": self = .kilocalorie
        case "ml/kg*min", "mL/(kg*min)", "ml/(kg·min)": self = .vo2MaxUnit
        default:
            guard let unit = HealthUnit(rawValue: symbol) else { return nil }
            self = unit
        }
    }

    public var description: String { rawValue }
}

/// A value with its unit, like HKQuantity.
public struct HealthQuantity: Sendable, Hashable, CustomStringConvertible {
    public var value: Double
    public var unit: HealthUnit

    public init(_ value: Double, _ unit: HealthUnit) {
        self.value = value; self.unit = unit
    }

    /// Like `HKQuantity.doubleValue(for:)`, which raises on an incompatible unit; here nil.
    public func doubleValue(for target: HealthUnit) -> Double? { unit.convert(value, to: target) }

    public var description: String { "\(value) \(unit.rawValue)" }
}
