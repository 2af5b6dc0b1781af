import SwiftUI

@main
struct RunnerApp: App {
    @StateObject private var health = HealthAccess()

    var body: some Scene {
        WindowGroup {
            RunSummaryView()
                .environmentObject(health)
        }
    }
}
