import Foundation

/// Generates a realistic, reproducible Health database for a range of days. Every day's data depends only on the
/// seed and the date, so the same seed gives the same data, and widening the range does not change earlier days.
public struct HealthDataGenerator: Sendable {
    public enum Resolution: String, Sendable, Hashable {
        /// Heart rate every few minutes (every ~35 s in workouts), steps in chunks of a few minutes.
        case realistic
        /// One heart-rate sample every minute all day (≈525,600 per year) and per-minute steps: for benchmarks.
        case minute
    }

    public struct Configuration: Sendable, Hashable {
        public var seed: UInt64
        public var firstDay: DayDate
        public var lastDay: DayDate
        public var timeZone: TimeZone
        public var dateOfBirth: DayDate?
        public var biologicalSex: BiologicalSex
        public var resolution: Resolution
        /// Share of nights on which a third-party sleep app also records (overlapping) sleep.
        public var secondSleepSourceProbability: Double

        public init(seed: UInt64 = 1, firstDay: DayDate, lastDay: DayDate,
                    timeZone: TimeZone = TimeZone(identifier: "UTC")!, dateOfBirth: DayDate? = nil,
                    biologicalSex: BiologicalSex = .notSet, resolution: Resolution = .realistic,
                    secondSleepSourceProbability: Double = 0.2) {
            self.seed = seed; self.firstDay = firstDay; self.lastDay = lastDay; self.timeZone = timeZone
            self.dateOfBirth = dateOfBirth; self.biologicalSex = biologicalSex; self.resolution = resolution
            self.secondSleepSourceProbability = secondSleepSourceProbability
        }
    }

    public var configuration: Configuration

    public init(_ configuration: Configuration) { self.configuration = configuration }

    public init(seed: UInt64 = 1, from firstDay: DayDate, through lastDay: DayDate,
                timeZone: TimeZone = TimeZone(identifier: "UTC")!, dateOfBirth: DayDate? = nil,
                biologicalSex: BiologicalSex = .notSet, resolution: Resolution = .realistic) {
        self.init(Configuration(seed: seed, firstDay: firstDay, lastDay: lastDay, timeZone: timeZone,
                                dateOfBirth: dateOfBirth, biologicalSex: biologicalSex, resolution: resolution))
    }

    public func generate() -> HealthDataSet {
        let c = configuration
        let tz = c.timeZone
        let last = max(c.lastDay, c.firstDay)
        // Day boundaries once (Calendar), for the day before the range through the day after it.
        let bounds = DayBoundaries(from: c.firstDay.adding(days: -1), through: last.adding(days: 1), timeZone: tz)
        let person = Person(seed: c.seed, sex: c.biologicalSex, dateOfBirth: c.dateOfBirth, firstDay: c.firstDay)
        var plans: [DayPlan] = []
        for i in 0..<bounds.dayCount {
            plans.append(DayPlan(day: bounds.first.adding(days: i), start: bounds.starts[i], end: bounds.starts[i + 1],
                                 seed: c.seed, person: person, timeZone: tz))
        }
        var sinks = Sinks()
        // plans[0] is the day before the range; plans[i] is the range's day i - 1.
        for i in 1..<(plans.count - 1) {
            var rng = SplitMix64(seed: c.seed, stream: UInt64(bitPattern: Int64(plans[i].day.dayNumber)) << 2 | 1)
            DayWriter(plan: plans[i], previous: plans[i - 1], person: person, resolution: c.resolution,
                      secondSleepProbability: c.secondSleepSourceProbability, isFirstDay: i == 1)
                .write(into: &sinks, rng: &rng)
        }
        var data = HealthDataSet(
            timeZone: tz, startTime: bounds.starts[1], endTime: bounds.starts[bounds.starts.count - 2],
            dateOfBirth: c.dateOfBirth.map { DateComponents(year: $0.year, month: $0.month, day: $0.day) },
            biologicalSex: c.biologicalSex)
        for s in sinks.all { data.install(s) }
        for w in sinks.workouts { data.appendWorkoutUnsorted(w) }
        data.finalize()
        return data
    }
}

/// The simulated user's stable traits, drawn once from the seed.
struct Person: Sendable {
    let heightM: Double
    let baseWeight: Double
    let baseFat: Double
    let rhrBase: Double
    let vo2Base: Double
    let bmrPerDay: Double

    init(seed: UInt64, sex: BiologicalSex, dateOfBirth: DayDate?, firstDay: DayDate) {
        var rng = SplitMix64(seed: seed, stream: 0xFEED)
        let female = sex == .female
        heightM = (rng.normal(female ? 1.65 : 1.78, 0.05) * 100).rounded() / 100
        baseWeight = rng.normal(female ? 63 : 76, 5)
        baseFat = rng.normal(female ? 0.27 : 0.19, 0.025)
        rhrBase = rng.uniform(52, 62)
        vo2Base = rng.uniform(37, 47)
        let age = dateOfBirth.map { Double(firstDay.dayNumber - $0.dayNumber) / 365.25 } ?? 35
        // Mifflin–St Jeor.
        bmrPerDay = 10 * baseWeight + 625 * heightM - 5 * age + (female ? -161 : 5)
    }
}

struct PlannedWorkout: Sendable {
    var type: WorkoutActivityType
    var start: Double, end: Double
    var heartRate: Double
    var kcalPerMinute: Double
    /// Steps per minute and stride (m) for stepping activities, 0 otherwise.
    var cadence: Double, stride: Double
    /// Metres per second for cycling, 0 otherwise.
    var cyclingSpeed: Double
    var phoneCarried: Bool
}

/// A stretch of walking (or a stepping workout).
struct Bout: Sendable {
    var start: Double, end: Double
    var cadence: Double, stride: Double
    var phoneCarried: Bool
}

/// What the user does on one day: wake and bed times, workout, walks, when the watch charges.
struct DayPlan: Sendable {
    let day: DayDate
    let start: Double, end: Double
    let wake: Double, bed: Double
    let restingHR: Double
    let watchOff: (Double, Double)?
    let workout: PlannedWorkout?
    let bouts: [Bout]

    init(day: DayDate, start: Double, end: Double, seed: UInt64, person: Person, timeZone: TimeZone) {
        var rng = SplitMix64(seed: seed, stream: UInt64(bitPattern: Int64(day.dayNumber)) << 2)
        let n = Double(day.dayNumber)
        func clock(_ hours: Double) -> Double { DayPlan.wallClock(start, hours, timeZone) }
        self.day = day; self.start = start; self.end = end
        let weekend = day.isoWeekday >= 6
        wake = clock(min(9, max(5.5, rng.normal(weekend ? 7.6 : 6.7, 0.3)))).rounded()
        bed = clock(min(25, max(21.5, rng.normal(weekend ? 23.4 : 22.9, 0.35)))).rounded()
        restingHR = (person.rhrBase + 2 * sin(2 * .pi * n / 61) + rng.normal(0, 1.2)).rounded()
        watchOff = rng.chance(0.5) ? (wake + 300, wake + rng.uniform(30, 70) * 60) : nil

        var workout: PlannedWorkout?
        if rng.chance(weekend ? 0.6 : 0.4) {
            let type: WorkoutActivityType = rng.pick([
                (.running, 0.28), (.cycling, 0.28), (.walking, 0.14), (.traditionalStrengthTraining, 0.1),
                (.yoga, 0.08), (.hiking, weekend ? 0.1 : 0.02), (.highIntensityIntervalTraining, 0.05),
            ])
            let minutes: Double
            var w = PlannedWorkout(type: type, start: 0, end: 0, heartRate: 120, kcalPerMinute: 6,
                                   cadence: 0, stride: 0, cyclingSpeed: 0, phoneCarried: false)
            switch type {
            case .running:
                minutes = rng.uniform(25, 60); w.heartRate = rng.normal(152, 5); w.kcalPerMinute = 11.5
                w.cadence = rng.normal(163, 4); w.stride = rng.normal(1.05, 0.04); w.phoneCarried = rng.chance(0.5)
            case .cycling:
                minutes = rng.uniform(40, 120); w.heartRate = rng.normal(138, 6); w.kcalPerMinute = 9
                w.cyclingSpeed = rng.uniform(6, 7.8); w.phoneCarried = rng.chance(0.7)
            case .walking:
                minutes = rng.uniform(30, 70); w.heartRate = rng.normal(108, 5); w.kcalPerMinute = 4.5
                w.cadence = rng.normal(112, 4); w.stride = rng.normal(0.76, 0.03); w.phoneCarried = rng.chance(0.9)
            case .hiking:
                minutes = rng.uniform(90, 180); w.heartRate = rng.normal(118, 6); w.kcalPerMinute = 6.5
                w.cadence = rng.normal(100, 5); w.stride = rng.normal(0.7, 0.03); w.phoneCarried = true
            case .traditionalStrengthTraining:
                minutes = rng.uniform(35, 60); w.heartRate = rng.normal(116, 6); w.kcalPerMinute = 6
            case .highIntensityIntervalTraining:
                minutes = rng.uniform(20, 35); w.heartRate = rng.normal(158, 5); w.kcalPerMinute = 12
            default:
                minutes = rng.uniform(30, 60); w.heartRate = rng.normal(96, 4); w.kcalPerMinute = 3.5
            }
            let morning = rng.chance(0.45)
            let begin = morning ? (watchOff?.1 ?? wake) + rng.uniform(20, 60) * 60 : clock(rng.uniform(17.3, 19.2))
            w.start = (begin / 60).rounded() * 60
            w.end = w.start + (minutes * 60).rounded()
            workout = w.end < bed - 1800 ? w : nil
        }
        self.workout = workout

        // Walks through the waking day; none overlapping each other or the workout.
        var candidates: [Bout] = []
        for _ in 0..<rng.int(10...22) {
            let s = rng.uniform(wake + 1200, max(wake + 1300, bed - 1800))
            let minutes = min(25, 1.5 + -log(max(1e-9, 1 - rng.unit())) * 5)
            candidates.append(Bout(start: s.rounded(), end: (s + minutes * 60).rounded(),
                                   cadence: min(125, max(60, rng.normal(98, 10))), stride: rng.normal(0.72, 0.03),
                                   phoneCarried: rng.chance(0.8)))
        }
        if let w = workout, w.cadence > 0 {
            candidates.append(Bout(start: w.start, end: w.end, cadence: w.cadence, stride: w.stride,
                                   phoneCarried: w.phoneCarried))
        }
        candidates.sort { $0.start < $1.start }
        var bouts: [Bout] = []
        for b in candidates {
            if let w = workout, w.cadence == 0, b.start < w.end + 60, b.end > w.start - 60 { continue }
            if let w = workout, w.cadence > 0, b.start != w.start, b.start < w.end + 60, b.end > w.start - 60 { continue }
            if let last = bouts.last, b.start < last.end + 60 { continue }
            bouts.append(b)
        }
        self.bouts = bouts
    }

    /// `hours` after local midnight as wall-clock time: corrects for a DST change earlier in the day.
    static func wallClock(_ dayStart: Double, _ hours: Double, _ tz: TimeZone) -> Double {
        let t = dayStart + hours * 3600
        let before = tz.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: dayStart))
        let after = tz.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: t))
        return t + Double(before - after)
    }
}

/// The columns the generator fills, one per (type, source), appended in time order.
struct Sinks {
    var heartRate = SampleSeries(type: .heartRate, source: .watch)
    var restingHR = SampleSeries(type: .restingHeartRate, source: .watch)
    var hrv = SampleSeries(type: .heartRateVariabilitySDNN, source: .watch)
    var watchSteps = SampleSeries(type: .stepCount, source: .watch)
    var phoneSteps = SampleSeries(type: .stepCount, source: .phone)
    var watchDistance = SampleSeries(type: .distanceWalkingRunning, source: .watch)
    var phoneDistance = SampleSeries(type: .distanceWalkingRunning, source: .phone)
    var cycling = SampleSeries(type: .distanceCycling, source: .watch)
    var active = SampleSeries(type: .activeEnergyBurned, source: .watch)
    var basal = SampleSeries(type: .basalEnergyBurned, source: .watch)
    var vo2 = SampleSeries(type: .vo2Max, source: .watch)
    var watchSleep = SampleSeries(type: .sleepAnalysis, source: .watch)
    var phoneSleep = SampleSeries(type: .sleepAnalysis, source: .phone)
    var mindful = SampleSeries(type: .mindfulSession, source: .watch)
    var manualWeight = SampleSeries(type: .bodyMass, source: .manualEntry)
    var height = SampleSeries(type: .height, source: .manualEntry)
    var scaleWeight = SampleSeries(type: .bodyMass, source: .scaleApp)
    var scaleFat = SampleSeries(type: .bodyFatPercentage, source: .scaleApp)
    var scaleLean = SampleSeries(type: .leanBodyMass, source: .scaleApp)
    var appSleep = SampleSeries(type: .sleepAnalysis, source: .sleepApp)
    var workouts: [Workout] = []

    /// Install order fixes source registration: watch, phone, manual, then third-party apps.
    var all: [SampleSeries] {
        [heartRate, restingHR, hrv, watchSteps, watchDistance, cycling, active, basal, vo2, watchSleep, mindful,
         phoneSteps, phoneDistance, phoneSleep, manualWeight, height, scaleWeight, scaleFat, scaleLean, appSleep]
    }
}
