import SwiftUI
import HealthKit

struct LogSessionView: View {
    @State private var minutes = 10
    @State private var alsoSaveAsWorkout = false
    @State private var status: String?
    @State private var isSaving = false

    private let logger = SessionLogger()

    var body: some View {
        NavigationStack {
            Form {
                Stepper("\(minutes) minutes", value: $minutes, in: 1...120)
                Toggle("Also save as a Mind & Body workout", isOn: $alsoSaveAsWorkout)
                Button("Log session") {
                    Task { await save() }
                }
                .disabled(isSaving)
                if let status {
                    Text(status).font(.footnote).foregroundStyle(.secondary)
                }
            }
            .navigationTitle("Log")
        }
    }

    private func save() async {
        isSaving = true
        defer { isSaving = false }
        let end = Date()
        let start = end.addingTimeInterval(TimeInterval(-minutes * 60))
        do {
            try await logger.logMindfulSession(from: start, to: end)
            if alsoSaveAsWorkout {
                try await logger.logWorkout(.mindAndBody, from: start, to: end)
            }
            status = "Saved to Apple Health."
        } catch let error as HealthAccessError {
            status = error.message
        } catch {
            status = HealthAccessError.unknown.message
        }
    }
}
