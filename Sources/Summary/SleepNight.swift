import Foundation
import HealthStore

/// Sleep for the night ending on `day`: samples from 18:00 the evening before to 12:00, asleep
/// stages only (in bed and awake excluded), overlapping samples merged so two trackers never
/// double-count a night.
///
/// Total time asleep is the union of every asleep interval from every source. The stage breakdown
/// comes from the highest-priority source that recorded stages (Apple Watch before third-party
/// apps), since sources disagree about stages and their union would double-count.
struct SleepNight {
    static let stages: [SleepStage] = [.asleepCore, .asleepDeep, .asleepREM, .asleepUnspecified]

    let window: (start: Date, end: Date)
    let error: HealthKitError?
    let totalAsleep: Double
    let byStage: [SleepStage: Double]
    let spans: [SleepSpan]
    let hasData: Bool

    init(day: DayDate, store: SimulatedHealthStore, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let dayStart = day.start(in: timeZone)
        let evening = calendar.date(bySettingHour: 18, minute: 0, second: 0, of: day.adding(days: -1).start(in: timeZone))!
        let noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: dayStart)!
        window = (evening, noon)
        switch store.samples(of: .sleepAnalysis, from: evening, to: noon) {
        case .failure(let failure):
            error = failure
            (totalAsleep, byStage, spans, hasData) = (0, [:], [], false)
        case .success(let samples):
            error = nil
            let asleep = samples.filter { ($0.sleepStage?.isAsleep ?? false) }
            let clipped = asleep.map { (max($0.startTime, evening.timeIntervalSinceReferenceDate), min($0.endTime, noon.timeIntervalSinceReferenceDate)) }
            totalAsleep = Intervals.unionLength(clipped)
            let primary = asleep.filter { $0.sleepStage != .asleepUnspecified }.map(\.source).min { $0.kind < $1.kind }
                ?? asleep.map(\.source).min { $0.kind < $1.kind }
            let staged = asleep.filter { $0.source == primary }
            var stages: [SleepStage: Double] = [:]
            for stage in Self.stages {
                let intervals = staged.filter { $0.sleepStage == stage }
                    .map { (max($0.startTime, evening.timeIntervalSinceReferenceDate), min($0.endTime, noon.timeIntervalSinceReferenceDate)) }
                if !intervals.isEmpty { stages[stage] = Intervals.unionLength(intervals) }
            }
            byStage = stages
            let length = noon.timeIntervalSince(evening), origin = evening.timeIntervalSinceReferenceDate
            // The chart shows the main source's whole night: stages plus in-bed and awake.
            spans = samples.filter { $0.source == primary }.compactMap { sample in
                guard let stage = sample.sleepStage else { return nil }
                return SleepSpan(stage: Self.label(stage), start: max(0, (sample.startTime - origin) / length), end: min(1, (sample.endTime - origin) / length))
            }.sorted { ($0.start, $0.stage) < ($1.start, $1.stage) }
            hasData = !asleep.isEmpty
        }
    }

    /// Reader-facing stage names, as the Health app shows them.
    static func label(_ stage: SleepStage) -> String {
        switch stage {
        case .inBed: return "In bed"
        case .asleepUnspecified: return "Asleep (no stage)"
        case .awake: return "Awake"
        case .asleepCore: return "Core"
        case .asleepDeep: return "Deep"
        case .asleepREM: return "REM"
        }
    }

    var totalText: String? { hasData ? UnitFormatter.duration(totalAsleep) : nil }

    func text(for stage: SleepStage) -> String? {
        guard hasData else { return nil }
        return byStage[stage].map(UnitFormatter.duration) ?? "0 min"
    }
}

/// Union length of possibly overlapping intervals.
enum Intervals {
    static func unionLength(_ intervals: [(Double, Double)]) -> Double {
        var total = 0.0
        var current: (Double, Double)?
        for (start, end) in intervals.filter({ $0.1 > $0.0 }).sorted(by: { $0.0 < $1.0 }) {
            if let open = current, start <= open.1 {
                current = (open.0, max(open.1, end))
            } else {
                if let open = current { total += open.1 - open.0 }
                current = (start, end)
            }
        }
        if let open = current { total += open.1 - open.0 }
        return total
    }
}
