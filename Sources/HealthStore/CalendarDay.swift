import Foundation

/// A calendar day (`YYYY-MM-DD`), placed in time only through a time zone.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year; self.month = month; self.day = day
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        let day = CalendarDay(year: y, month: m, day: d)
        guard CalendarDay(dayNumber: day.dayNumber) == day else { return nil }
        self = day
    }

    /// The day containing `date` in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        let c = cal.dateComponents([.year, .month, .day], from: date)
        self.init(year: c.year!, month: c.month!, day: c.day!)
    }

    /// Days since 1970-01-01 (proleptic Gregorian), pure arithmetic.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    public init(dayNumber n: Int) {
        let z = n + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    public func adding(days: Int) -> CalendarDay { CalendarDay(dayNumber: dayNumber + days) }
    public var next: CalendarDay { adding(days: 1) }

    /// Monday = 1 … Sunday = 7.
    public var isoWeekday: Int { ((dayNumber % 7 + 7) % 7 + 3) % 7 + 1 }

    public var dateComponents: DateComponents { DateComponents(year: year, month: month, day: day) }

    /// Local midnight (or the first instant of the day if midnight does not exist) in `timeZone`.
    public func start(in timeZone: TimeZone) -> Date {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        return cal.startOfDay(for: cal.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!)
    }

    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool { a.dayNumber < b.dayNumber }
}

/// Day boundaries computed once with Calendar, then used as plain doubles in hot loops.
struct DayBoundaries {
    /// `starts[i]` is the start of day `first + i`; the last element is the end of the last day.
    let starts: [Double]
    let first: CalendarDay

    init(from first: CalendarDay, through last: CalendarDay, timeZone: TimeZone) {
        self.first = first
        let n = max(0, last.dayNumber - first.dayNumber + 1)
        starts = (0...n).map { first.adding(days: $0).start(in: timeZone).timeIntervalSinceReferenceDate }
    }

    var dayCount: Int { starts.count - 1 }
}
