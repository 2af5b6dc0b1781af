import Foundation

/// Writes one day's samples from its plan: the night that ends this morning, heart rate, steps and distance from
/// phone and watch, energy, the workout, body measurements. Times are plain doubles (no Date in the loops).
struct DayWriter {
    let plan: DayPlan
    let previous: DayPlan
    let person: Person
    let resolution: HealthDataGenerator.Resolution
    let secondSleepProbability: Double
    let isFirstDay: Bool

    func write(into sinks: inout Sinks, rng: inout SplitMix64) {
        // Sleep and HRV first: the night started yesterday evening, so these are the day's earliest samples.
        let night = writeSleep(into: &sinks, rng: &rng)
        writeHRV(night: night, into: &sinks, rng: &rng)
        writeHeartRate(into: &sinks, rng: &rng)
        sinks.restingHR.append(start: plan.wake + 5400, end: plan.wake + 5400, value: plan.restingHR)
        writeSteps(into: &sinks, rng: &rng)
        writeEnergy(into: &sinks, rng: &rng)
        writeWorkout(into: &sinks, rng: &rng)
        writeBody(into: &sinks, rng: &rng)
        if rng.chance(0.25) {
            // A short session in the hour or two before bed (value 0 = HKCategoryValue.notApplicable).
            let start = (plan.bed - rng.uniform(60, 110) * 60).rounded()
            sinks.mindful.append(start: start, end: start + (rng.uniform(5, 15) * 60).rounded(), value: 0)
        }
    }

    // MARK: Sleep

    /// The night from yesterday's bedtime to this morning: inBed from the phone (sleep schedule), contiguous stages
    /// from the watch (awake only between sleep stages), and on some nights a sleep app's overlapping record.
    private func writeSleep(into sinks: inout Sinks, rng: inout SplitMix64) -> (Double, Double) {
        let bed = previous.bed, wake = plan.wake
        sinks.phoneSleep.append(start: bed, end: (wake + rng.uniform(0, 600)).rounded(),
                                value: Double(SleepStage.inBed.rawValue))
        let sleepStart = (bed + rng.uniform(5, 25) * 60).rounded()
        let sleepEnd = (wake - rng.uniform(0, 5) * 60).rounded()
        var t = sleepStart
        var cycle = 0
        func stage(_ s: SleepStage, _ minutes: Double, _ sinks: inout Sinks) {
            guard t < sleepEnd else { return }
            let e = min(sleepEnd, (t + minutes * 60).rounded())
            if e > t { sinks.watchSleep.append(start: t, end: e, value: Double(s.rawValue)) }
            t = e
        }
        while t < sleepEnd {
            let early = cycle < 2
            stage(.asleepCore, rng.uniform(20, 35), &sinks)
            stage(.asleepDeep, early ? rng.uniform(18, 35) : rng.uniform(0, 8), &sinks)
            stage(.asleepCore, rng.uniform(10, 25), &sinks)
            stage(.asleepREM, early ? rng.uniform(5, 12) : rng.uniform(18, 32), &sinks)
            if rng.chance(0.5) { stage(.awake, rng.uniform(1, 5), &sinks) }
            cycle += 1
        }
        if rng.chance(secondSleepProbability) {
            sinks.appSleep.append(start: bed - 300, end: wake + 300, value: Double(SleepStage.inBed.rawValue))
            sinks.appSleep.append(start: (bed + rng.uniform(10, 20) * 60).rounded(),
                                  end: (wake - rng.uniform(0, 8) * 60).rounded(),
                                  value: Double(SleepStage.asleepUnspecified.rawValue))
        }
        return (sleepStart, sleepEnd)
    }

    private func writeHRV(night: (Double, Double), into sinks: inout Sinks, rng: inout SplitMix64) {
        let count = rng.int(3...5)
        var times = (0..<count).map { _ in rng.uniform(night.0 + 1800, max(night.0 + 1900, night.1 - 900)).rounded() }
        times.sort()
        for t in times {
            let v = min(120, max(15, rng.normal(48 + (60 - plan.restingHR) * 0.8, 9)))
            sinks.hrv.append(start: t, end: t, value: (v * 10).rounded() / 10)
        }
    }

    // MARK: Heart rate

    private enum State { case asleep, workout, walking, idle }

    private func writeHeartRate(into sinks: inout Sinks, rng: inout SplitMix64) {
        let minute = resolution == .minute
        var t = minute ? plan.start : plan.start + rng.uniform(0, 120).rounded()
        var boutIndex = 0
        let bouts = plan.bouts
        let rhr = plan.restingHR
        while t < plan.end {
            while boutIndex < bouts.count && bouts[boutIndex].end <= t { boutIndex += 1 }
            let inBout = boutIndex < bouts.count && bouts[boutIndex].start <= t
            let state: State
            if let w = plan.workout, t >= w.start, t < w.end { state = .workout }
            else if t < plan.wake || t >= plan.bed { state = .asleep }
            else if inBout { state = .walking }
            else { state = .idle }
            let value: Double
            let step: Double
            switch state {
            case .asleep:
                value = rng.normal(rhr - 4, 2.5); step = rng.uniform(300, 600)
            case .idle:
                value = rng.normal(rhr + 17, 5); step = rng.uniform(240, 420)
            case .walking:
                value = rng.normal(rhr + 30 + (bouts[boutIndex].cadence - 90) * 0.3, 5); step = rng.uniform(150, 300)
            case .workout:
                let w = plan.workout!
                let ramp = min(1, (t - w.start) / 300)
                value = rng.normal(rhr + (w.heartRate - rhr) * ramp, 5); step = rng.uniform(25, 45)
            }
            let worn = plan.watchOff.map { t < $0.0 || t >= $0.1 } ?? true
            if minute || worn {
                sinks.heartRate.append(start: t, end: t, value: min(200, max(38, value)).rounded())
            }
            t += minute ? 60 : step.rounded()
        }
    }

    // MARK: Steps and distance

    private func writeSteps(into sinks: inout Sinks, rng: inout SplitMix64) {
        for bout in plan.bouts {
            if resolution == .minute {
                var t = (bout.start / 60).rounded(.down) * 60
                while t < bout.end {
                    let e = t + 60
                    if watchWorn(t) {
                        let steps = (bout.cadence * rng.uniform(0.95, 1.05)).rounded()
                        sinks.watchSteps.append(start: t, end: e, value: steps)
                        sinks.watchDistance.append(start: t, end: e, value: round2(steps * bout.stride))
                    }
                    if bout.phoneCarried {
                        let steps = (bout.cadence * rng.uniform(0.9, 1.02)).rounded()
                        sinks.phoneSteps.append(start: t, end: e, value: steps)
                        sinks.phoneDistance.append(start: t, end: e, value: round2(steps * bout.stride * 0.97))
                    }
                    t = e
                }
                continue
            }
            // Watch: short chunks; phone: longer chunks with shifted boundaries, so the two overlap unevenly.
            var t = bout.start
            while t < bout.end {
                let e = min(bout.end, t + rng.uniform(60, 420).rounded())
                if watchWorn(t) {
                    let steps = (bout.cadence * (e - t) / 60 * rng.uniform(0.95, 1.05)).rounded()
                    if steps > 0 {
                        sinks.watchSteps.append(start: t, end: e, value: steps)
                        sinks.watchDistance.append(start: t, end: e, value: round2(steps * bout.stride))
                    }
                }
                t = e
            }
            guard bout.phoneCarried else { continue }
            t = bout.start + rng.uniform(-20, 40).rounded()
            let phoneEnd = bout.end + rng.uniform(0, 30).rounded()
            while t < phoneEnd {
                let e = min(phoneEnd, t + rng.uniform(150, 600).rounded())
                let steps = (bout.cadence * (e - t) / 60 * rng.uniform(0.9, 1.02)).rounded()
                if steps > 0 {
                    sinks.phoneSteps.append(start: t, end: e, value: steps)
                    sinks.phoneDistance.append(start: t, end: e, value: round2(steps * bout.stride * 0.97))
                }
                t = e
            }
        }
    }

    private func watchWorn(_ t: Double) -> Bool {
        plan.watchOff.map { t < $0.0 || t >= $0.1 } ?? true
    }

    // MARK: Energy

    private func writeEnergy(into sinks: inout Sinks, rng: inout SplitMix64) {
        // Active energy in 10-minute chunks, each the sum of per-minute rates.
        var t = plan.start
        var boutIndex = 0
        while t < plan.end {
            let e = min(plan.end, t + 600)
            var kcal = 0.0
            var m = t + 30
            while m < e {
                while boutIndex < plan.bouts.count && plan.bouts[boutIndex].end <= m { boutIndex += 1 }
                if let w = plan.workout, m >= w.start, m < w.end {
                    kcal += w.kcalPerMinute * rng.uniform(0.85, 1.15)
                } else if m < plan.wake || m >= plan.bed {
                    kcal += 0.02
                } else if boutIndex < plan.bouts.count && plan.bouts[boutIndex].start <= m {
                    kcal += plan.bouts[boutIndex].cadence * 0.035 * rng.uniform(0.9, 1.1)
                } else {
                    kcal += rng.uniform(0.05, 0.25)
                }
                m += 60
            }
            if watchWorn(t + 300) && kcal > 0.05 {
                sinks.active.append(start: t, end: e, value: (kcal * 1000).rounded() / 1000)
            }
            t = e
        }
        // Basal energy hourly.
        t = plan.start
        while t < plan.end {
            let e = min(plan.end, t + 3600)
            let kcal = person.bmrPerDay / 86400 * (e - t) * rng.uniform(0.97, 1.03)
            sinks.basal.append(start: t, end: e, value: (kcal * 1000).rounded() / 1000)
            t = e
        }
    }

    // MARK: Workout

    private func writeWorkout(into sinks: inout Sinks, rng: inout SplitMix64) {
        guard let w = plan.workout else { return }
        let minutes = (w.end - w.start) / 60
        var distance: Double?
        if w.cyclingSpeed > 0 {
            var total = 0.0
            var t = w.start
            while t < w.end {
                let e = min(w.end, t + 60)
                let d = round2(w.cyclingSpeed * (e - t) * rng.uniform(0.8, 1.2))
                sinks.cycling.append(start: t, end: e, value: d)
                total += d
                t = e
            }
            distance = total
        } else if w.cadence > 0 {
            distance = round2(w.cadence * w.stride * minutes)
        }
        sinks.workouts.append(Workout(activityType: w.type, startTime: w.start, endTime: w.end,
                                      totalEnergyBurned: (w.kcalPerMinute * minutes * 10).rounded() / 10,
                                      totalDistance: distance, source: .watch))
        if (w.type == .running || w.type == .hiking) && rng.chance(0.6) {
            let n = Double(plan.day.dayNumber)
            let v = person.vo2Base + 1.5 * sin(2 * .pi * n / 180) + rng.normal(0, 0.5)
            sinks.vo2.append(start: w.end, end: w.end, value: (v * 10).rounded() / 10)
        }
    }

    // MARK: Body

    private func writeBody(into sinks: inout Sinks, rng: inout SplitMix64) {
        if isFirstDay {
            let t = (plan.wake + 3 * 3600).rounded()
            sinks.height.append(start: t, end: t, value: person.heightM)
        }
        let n = Double(plan.day.dayNumber)
        let trend = person.baseWeight + 1.2 * sin(2 * .pi * n / 97)
        if rng.chance(0.35) {
            let t = (plan.wake + rng.uniform(10, 20) * 60).rounded()
            let kg = ((trend + rng.normal(0, 0.25)) * 10).rounded() / 10
            let fat = ((person.baseFat + 0.01 * sin(2 * .pi * n / 97) + rng.normal(0, 0.004)) * 1000).rounded() / 1000
            sinks.scaleWeight.append(start: t, end: t, value: kg)
            sinks.scaleFat.append(start: t, end: t, value: fat)
            sinks.scaleLean.append(start: t, end: t, value: (kg * (1 - fat) * 10).rounded() / 10)
        }
        if rng.chance(0.04) {
            let t = (plan.bed - rng.uniform(60, 120) * 60).rounded()
            sinks.manualWeight.append(start: t, end: t, value: ((trend + rng.normal(0.3, 0.4)) * 10).rounded() / 10)
        }
    }

    private func round2(_ x: Double) -> Double { (x * 100).rounded() / 100 }
}
