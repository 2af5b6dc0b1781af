import Foundation
import os

struct CompletedRide: Identifiable, Codable, Hashable {
    let id: UUID
    var title: String
    var startedAt: Date
    var endedAt: Date
    var movingTime: TimeInterval
    var distanceMeters: Double
    var activeKilocalories: Double
    var elevationGainMeters: Double?
    var averagePowerWatts: Double?
    var isIndoor: Bool
    var savedToHealth = false
}

struct RiderProfile: Codable {
    var finishedOnboarding = false
    var functionalThresholdPower: Int?
}

/// Keeps rides and the rider profile in a JSON file in Application Support.
@MainActor
final class RideStore: ObservableObject {
    @Published private(set) var rides: [CompletedRide] = []
    @Published private(set) var profile = RiderProfile()
    @Published var lastSaveProblem: String?

    private let saver = WorkoutSaver(healthStore: HealthKitAuthorization.shared.healthStore)
    private let log = Logger(subsystem: "com.veloride.app", category: "RideStore")
    private let fileURL: URL

    private struct Snapshot: Codable {
        var rides: [CompletedRide]
        var profile: RiderProfile
    }

    init(directory: URL = .applicationSupportDirectory) {
        fileURL = directory.appending(path: "rides.json")
        load()
    }

    func finishOnboarding() {
        profile.finishedOnboarding = true
        persist()
    }

    func add(_ ride: CompletedRide) async {
        var ride = ride
        do {
            try await saver.exportToHealth(ride)
            ride.savedToHealth = true
            lastSaveProblem = nil
        } catch WorkoutSaver.SaveError.rideTooShort {
            log.debug("Ride shorter than a minute, kept locally only")
        } catch {
            lastSaveProblem = "Couldn't save this ride to Apple Health."
            log.error("Saving ride to Health failed: \(String(describing: error), privacy: .public)")
        }
        rides.insert(ride, at: 0)
        persist()
    }

    private func load() {
        guard let data = try? Data(contentsOf: fileURL) else { return }
        do {
            let snapshot = try JSONDecoder().decode(Snapshot.self, from: data)
            rides = snapshot.rides
            profile = snapshot.profile
        } catch {
            log.error("rides.json unreadable, starting fresh")
        }
    }

    private func persist() {
        do {
            try FileManager.default.createDirectory(
                at: fileURL.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            let data = try JSONEncoder().encode(Snapshot(rides: rides, profile: profile))
            try data.write(to: fileURL, options: .atomic)
        } catch {
            log.error("Could not write rides.json")
        }
    }
}
