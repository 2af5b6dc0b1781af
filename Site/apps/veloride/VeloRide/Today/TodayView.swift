import SwiftUI

struct TodayView: View {
    @EnvironmentObject private var authorization: HealthKitAuthorization
    @StateObject private var model = TodayViewModel()

    var body: some View {
        NavigationStack {
            ScrollView {
                content
                    .padding()
            }
            .navigationTitle("Today")
            .refreshable { await model.load() }
        }
        .task(id: authorization.isAuthorized) {
            await model.load()
        }
    }

    @ViewBuilder
    private var content: some View {
        switch model.phase {
        case .idle, .loading:
            ProgressView("Calculating readiness…")
                .frame(maxWidth: .infinity, minHeight: 240)
        case .needsHealthAccess:
            ConnectHealthCard {
                Task { await authorization.requestAccess() }
            }
        case .loaded(let readiness):
            LazyVGrid(columns: [GridItem(.flexible()), GridItem(.flexible())], spacing: 12) {
                MetricTile(title: "HRV", value: readiness.hrvMilliseconds, unit: "ms")
                MetricTile(title: "Resting HR", value: readiness.restingHeartRate, unit: "bpm")
                MetricTile(title: "Sleep", value: readiness.sleepHours, unit: "h", fractionDigits: 1)
                MetricTile(title: "Steps", value: readiness.steps, unit: "")
                MetricTile(title: "Active energy", value: readiness.activeKilocalories, unit: "kcal")
                MetricTile(title: "Rides (7 days)", value: Double(readiness.ridesThisWeek), unit: "")
            }
        }
    }
}

private struct ConnectHealthCard: View {
    let connect: () -> Void

    var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            Label("Connect Apple Health", systemImage: "heart.text.square")
                .font(.headline)
            Text("VeloRide uses your heart rate variability, resting heart rate and sleep to work out how ready you are to ride.")
                .font(.subheadline)
                .foregroundStyle(.secondary)
            Button("Connect", action: connect)
                .buttonStyle(.borderedProminent)
        }
        .padding()
        .background(.thinMaterial, in: RoundedRectangle(cornerRadius: 16))
    }
}

private struct MetricTile: View {
    let title: String
    let value: Double?
    let unit: String
    var fractionDigits = 0

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(title).font(.caption).foregroundStyle(.secondary)
            if let value {
                Text("\(value, format: .number.precision(.fractionLength(fractionDigits))) \(unit)")
                    .font(.title2.bold())
                    .monospacedDigit()
            } else {
                Text("—").font(.title2.bold()).foregroundStyle(.tertiary)
            }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .padding()
        .background(.background.secondary, in: RoundedRectangle(cornerRadius: 12))
    }
}
