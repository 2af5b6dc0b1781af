import SwiftUI
import Charts

struct TrendsView: View {
    @State private var days: [DayTrend] = []
    @State private var profile = ProfileFacts()
    @State private var problem: HealthAccessError?

    private let loader = TrendsLoader()

    var body: some View {
        NavigationStack {
            List {
                if let problem {
                    Label(problem.message, systemImage: "exclamationmark.triangle")
                        .foregroundStyle(.orange)
                }
                Section("Steps") {
                    if days.allSatisfy({ $0.steps == nil }) {
                        Text("No data").foregroundStyle(.secondary)
                    } else {
                        Chart(days) { day in
                            BarMark(x: .value("Day", day.day, unit: .day), y: .value("Steps", day.steps ?? 0))
                        }
                        .frame(height: 160)
                    }
                }
                Section("Recovery") {
                    ForEach(days.reversed()) { day in
                        LabeledContent(day.day.formatted(.dateTime.weekday(.wide))) {
                            Text(recoverySummary(day)).monospacedDigit()
                        }
                    }
                }
                Section("You") {
                    LabeledContent("Age", value: profile.age.map(String.init) ?? "Not shared")
                    LabeledContent("Weight", value: profile.latestWeightKilograms.map { "\($0.formatted(.number.precision(.fractionLength(1)))) kg" } ?? "No data")
                    LabeledContent("Workouts this week", value: "\(profile.workoutsThisWeek)")
                }
            }
            .navigationTitle("Trends")
            .task { await load() }
            .refreshable { await load() }
        }
    }

    private func load() async {
        do {
            days = try await loader.lastSevenDays()
            profile = try await loader.profile()
            problem = nil
        } catch {
            problem = HealthAccessError(error)
        }
    }

    private func recoverySummary(_ day: DayTrend) -> String {
        var parts: [String] = []
        if let sleep = day.sleepHours { parts.append(String(format: "%.1f h sleep", sleep)) }
        if let resting = day.restingHeartRate { parts.append("\(Int(resting.rounded())) bpm") }
        if let hrv = day.hrvMilliseconds { parts.append("HRV \(Int(hrv.rounded())) ms") }
        return parts.isEmpty ? "No data" : parts.joined(separator: " · ")
    }
}
