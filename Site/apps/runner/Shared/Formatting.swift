import Foundation

enum Formatting {
    /// "12.4 km", or "No data" when Health returned nothing (which is also what a declined read looks like).
    static func kilometres(_ meters: Double?) -> String {
        guard let meters else { return "No data" }
        return Measurement(value: meters / 1000, unit: UnitLength.kilometers)
            .formatted(.measurement(width: .abbreviated, numberFormatStyle: .number.precision(.fractionLength(1))))
    }
}
