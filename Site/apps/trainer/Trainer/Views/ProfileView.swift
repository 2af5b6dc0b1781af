import SwiftUI

struct ProfileView: View {
    @EnvironmentObject private var health: HealthKitManager
    @State private var showingWeighIn = false
    @State private var connectError: String?

    var body: some View {
        NavigationStack {
            Form {
                Section("Apple Health") {
                    if health.isAvailable {
                        Button("Connect Apple Health") {
                            Task { await connect() }
                        }
                        if let connectError {
                            Text(connectError).font(.footnote).foregroundStyle(.red)
                        }
                    } else {
                        Text("Apple Health isn't available on this device.")
                            .foregroundStyle(.secondary)
                    }
                }

                Section("Body") {
                    row("Age", health.latest.age.map { "\($0)" })
                    row("Height", health.latest.formattedHeight)
                    row("Weight", health.latest.weightPounds.map { String(format: "%.1f lb", $0) })
                    row("Body fat", health.latest.bodyFatPercentage.map { String(format: "%.1f %%", $0 * 100) })
                    row("Lean mass", health.latest.leanBodyMassPounds.map { String(format: "%.1f lb", $0) })
                    row("Sleep last night", health.latest.timeAsleepHours.map { String(format: "%.1f h", $0) })
                    Button("Log a weigh-in") { showingWeighIn = true }
                }
            }
            .navigationTitle("Profile")
            .refreshable { await health.refresh() }
            .sheet(isPresented: $showingWeighIn) {
                LogWeightView()
            }
        }
    }

    private func connect() async {
        do {
            try await health.requestAccess()
            connectError = nil
            await health.refresh()
        } catch {
            connectError = (error as? LocalizedError)?.errorDescription ?? "Couldn't connect to Apple Health."
        }
    }

    private func row(_ title: String, _ value: String?) -> some View {
        LabeledContent(title, value: value ?? "—")
    }
}
