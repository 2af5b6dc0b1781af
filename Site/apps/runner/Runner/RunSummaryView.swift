import HealthKit
import SwiftUI

struct RunSummaryView: View {
    @EnvironmentObject private var health: HealthAccess
    @State private var stats = RunStats.empty

    var body: some View {
        NavigationStack {
            List {
                Section("This week") {
                    LabeledContent("Distance", value: Formatting.kilometres(stats.weekMeters))
                    LabeledContent("Runs", value: "\(stats.runs)")
                }
                if health.phase == .needsRequest {
                    Button("Connect Apple Health") {
                        Task { await health.connect() }
                    }
                }
            }
            .navigationTitle("Runner")
        }
    }
}
