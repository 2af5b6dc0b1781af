import Foundation
// The store's API speaks in days; callers need not import Manifest for the one type.
@_exported import struct Manifest.DayDate

/// Day boundaries computed once with Calendar, then used as plain doubles in hot loops.
struct DayBoundaries {
    /// `starts[i]` is the start of day `first + i`; the last element is the end of the last day.
    let starts: [Double]
    let first: DayDate

    init(from first: DayDate, through last: DayDate, timeZone: TimeZone) {
        self.first = first
        let n = max(0, last.dayNumber - first.dayNumber + 1)
        starts = (0...n).map { first.adding(days: $0).start(in: timeZone).timeIntervalSinceReferenceDate }
    }

    var dayCount: Int { starts.count - 1 }
}
