import SwiftUI

struct RideListView: View {
    @EnvironmentObject private var rides: RideStore

    private let distanceFormat = MeasurementFormatter()

    var body: some View {
        NavigationStack {
            List {
                if let problem = rides.lastSaveProblem {
                    Label(problem, systemImage: "exclamationmark.triangle")
                        .foregroundStyle(.orange)
                }
                ForEach(rides.rides) { ride in
                    RideRow(ride: ride, distance: distance(of: ride))
                }
            }
            .overlay {
                if rides.rides.isEmpty {
                    ContentUnavailableView(
                        "No rides yet",
                        systemImage: "bicycle",
                        description: Text("Rides you record appear here and in Apple Health.")
                    )
                }
            }
            .navigationTitle("Rides")
        }
    }

    private func distance(of ride: CompletedRide) -> String {
        let measurement = Measurement(value: ride.distanceMeters, unit: UnitLength.meters)
        return distanceFormat.string(from: measurement.converted(to: .kilometers))
    }
}

private struct RideRow: View {
    let ride: CompletedRide
    let distance: String

    var body: some View {
        HStack {
            VStack(alignment: .leading, spacing: 2) {
                Text(ride.title).font(.headline)
                Text(ride.startedAt, format: .dateTime.weekday().day().month().hour().minute())
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
            Spacer()
            VStack(alignment: .trailing, spacing: 2) {
                Text(distance).monospacedDigit()
                if ride.savedToHealth {
                    Image(systemName: "heart.fill")
                        .foregroundStyle(.pink)
                        .accessibilityLabel("Saved to Apple Health")
                }
            }
        }
    }
}
