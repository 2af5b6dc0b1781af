import SwiftUI

struct CoachView: View {
    @EnvironmentObject private var coach: CoachSession
    @EnvironmentObject private var health: HealthKitManager
    @State private var draft = ""

    var body: some View {
        NavigationStack {
            VStack(spacing: 0) {
                ScrollView {
                    LazyVStack(alignment: .leading, spacing: 12) {
                        ForEach(coach.messages) { message in
                            Bubble(message: message)
                        }
                        if coach.isThinking {
                            ProgressView().padding(.leading)
                        }
                    }
                    .padding()
                }
                HStack {
                    TextField("Ask your coach…", text: $draft, axis: .vertical)
                        .textFieldStyle(.roundedBorder)
                    Button("Send") {
                        let text = draft
                        draft = ""
                        Task { await coach.send(text, health: health.latest) }
                    }
                    .disabled(draft.trimmingCharacters(in: .whitespaces).isEmpty || coach.isThinking)
                }
                .padding()
            }
            .navigationTitle("Coach")
            .task { await health.refresh() }
        }
    }
}

private struct Bubble: View {
    let message: CoachMessage

    var body: some View {
        Text(message.text)
            .padding(10)
            .background(message.role == .user ? Color.accentColor.opacity(0.15) : Color.secondary.opacity(0.12),
                        in: RoundedRectangle(cornerRadius: 12))
            .frame(maxWidth: .infinity, alignment: message.role == .user ? .trailing : .leading)
    }
}
