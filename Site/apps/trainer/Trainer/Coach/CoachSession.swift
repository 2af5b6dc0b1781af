import Foundation

struct CoachMessage: Identifiable, Equatable {
    enum Role: String { case user, coach }
    let id = UUID()
    let role: Role
    let text: String
}

/// Talks to the Trainer backend. Health metrics travel as a short context block
/// in front of the conversation so the coach can tailor volume and intensity.
@MainActor
final class CoachSession: ObservableObject {
    @Published private(set) var messages: [CoachMessage] = []
    @Published private(set) var isThinking = false

    private let endpoint = URL(string: "https://api.trainer.example/v2/coach")!
    private let session: URLSession

    init(session: URLSession = .shared) {
        self.session = session
    }

    func send(_ text: String, health: HealthData) async {
        messages.append(CoachMessage(role: .user, text: text))
        isThinking = true
        defer { isThinking = false }

        let body = RequestBody(
            context: contextBlock(from: health),
            messages: messages.map { .init(role: $0.role.rawValue, content: $0.text) }
        )
        do {
            var request = URLRequest(url: endpoint)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(body)
            let (data, _) = try await session.data(for: request)
            let reply = try JSONDecoder().decode(ReplyBody.self, from: data)
            messages.append(CoachMessage(role: .coach, text: reply.text))
        } catch {
            messages.append(CoachMessage(role: .coach, text: "I couldn't reach the server. Try again in a moment."))
        }
    }

    /// "age: 38; weight_lb: 172.4; ..." in a stable order so prompts cache well.
    func contextBlock(from health: HealthData) -> String {
        let fields = health.promptFields()
        guard !fields.isEmpty else { return "No body metrics shared." }
        return fields.keys.sorted().map { "\($0): \(fields[$0]!)" }.joined(separator: "; ")
    }

    private struct RequestBody: Encodable {
        struct Message: Encodable {
            let role: String
            let content: String
        }
        let context: String
        let messages: [Message]
    }

    private struct ReplyBody: Decodable {
        let text: String
    }
}
