import Foundation

/// Snapshot of the body metrics the coach uses when it writes a plan.
struct HealthData: Equatable {
    var weightPounds: Double?
    var heightInches: Double?
    var bodyFatPercentage: Double?
    var leanBodyMassPounds: Double?
    var timeAsleepHours: Double?
    var dateOfBirth: Date?
    var age: Int?
    var lastUpdated = Date.distantPast

    var isEmpty: Bool {
        weightPounds == nil && heightInches == nil && bodyFatPercentage == nil
            && leanBodyMassPounds == nil && timeAsleepHours == nil && age == nil
    }

    var formattedHeight: String? {
        guard let heightInches else { return nil }
        let feet = Int(heightInches) / 12
        let inches = Int(heightInches.rounded()) % 12
        return "\(feet)′\(inches)″"
    }

    /// Flat dictionary that goes into the coach's system prompt.
    func promptFields() -> [String: String] {
        var fields: [String: String] = [:]
        if let weightPounds {
            fields["weight_lb"] = String(format: "%.1f", weightPounds)
        }
        if let formattedHeight {
            fields["height"] = formattedHeight
        }
        if let bodyFatPercentage {
            fields["body_fat_pct"] = String(format: "%.1f", bodyFatPercentage * 100)
        }
        if let leanBodyMassPounds {
            fields["lean_mass_lb"] = String(format: "%.1f", leanBodyMassPounds)
        }
        if let timeAsleepHours {
            fields["sleep_last_night_h"] = String(format: "%.1f", timeAsleepHours)
        }
        if let age {
            fields["age"] = String(age)
        }
        if let dateOfBirth {
            fields["date_of_birth"] = dateOfBirth.formatted(.iso8601.year().month().day())
        }
        return fields
    }
}
