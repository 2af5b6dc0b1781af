import SwiftUI

@main
struct TrainerApp: App {
    @StateObject private var health = HealthKitManager()
    @StateObject private var coach = CoachSession()

    var body: some Scene {
        WindowGroup {
            TabView {
                CoachView()
                    .tabItem { Label("Coach", systemImage: "figure.strengthtraining.traditional") }
                ProfileView()
                    .tabItem { Label("Profile", systemImage: "person.crop.circle") }
            }
            .environmentObject(health)
            .environmentObject(coach)
        }
    }
}
