import Foundation

/// The week's figures the app computes and shares with the widget through the app group.
struct RunStats: Codable, Equatable {
    var weekMeters: Double?
    var runs: Int

    static let empty = RunStats(weekMeters: nil, runs: 0)
    static let suite = "group.com.example.runner"

    static func load() -> RunStats {
        guard let data = UserDefaults(suiteName: suite)?.data(forKey: "runStats"),
              let stats = try? JSONDecoder().decode(RunStats.self, from: data) else { return .empty }
        return stats
    }
}
