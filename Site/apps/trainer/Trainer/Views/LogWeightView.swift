import SwiftUI

struct LogWeightView: View {
    @EnvironmentObject private var health: HealthKitManager
    @Environment(\.dismiss) private var dismiss

    @State private var pounds: Double = 170
    @State private var date = Date()
    @State private var problem: String?
    @State private var isSaving = false

    var body: some View {
        NavigationStack {
            Form {
                Stepper(value: $pounds, in: 60...500, step: 0.2) {
                    Text("\(pounds, format: .number.precision(.fractionLength(1))) lb")
                        .monospacedDigit()
                }
                DatePicker("When", selection: $date, in: ...Date())
                if let problem {
                    Text(problem).foregroundStyle(.red)
                }
            }
            .navigationTitle("Weigh-in")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Cancel") { dismiss() }
                }
                ToolbarItem(placement: .confirmationAction) {
                    Button("Save") { Task { await save() } }
                        .disabled(isSaving)
                }
            }
            .onAppear {
                if let current = health.latest.weightPounds { pounds = current }
            }
        }
    }

    private func save() async {
        isSaving = true
        defer { isSaving = false }
        do {
            try await health.saveWeight(pounds: pounds, on: date)
            dismiss()
        } catch let error as HealthKitManager.HealthKitError {
            problem = error.errorDescription
        } catch {
            problem = "Apple Health didn't accept the weigh-in."
        }
    }
}
