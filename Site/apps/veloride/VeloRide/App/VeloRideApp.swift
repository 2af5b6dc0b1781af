import SwiftUI
import HealthKit

@main
struct VeloRideApp: App {
    @StateObject private var authorization = HealthKitAuthorization.shared
    @StateObject private var rides = RideStore()

    init() {
        // Riders often flip Health switches in Settings and come straight back,
        // so refresh what we know about access as early as possible.
        Task { @MainActor in
            await HealthKitAuthorization.shared.checkAfterSettingsReturn()
        }
    }

    var body: some Scene {
        WindowGroup {
            RootTabView()
                .environmentObject(authorization)
                .environmentObject(rides)
                .tint(.orange)
        }
    }
}

struct RootTabView: View {
    @EnvironmentObject private var authorization: HealthKitAuthorization
    @EnvironmentObject private var rides: RideStore
    @Environment(\.scenePhase) private var scenePhase

    var body: some View {
        if rides.profile.finishedOnboarding {
            TabView {
                TodayView()
                    .tabItem { Label("Today", systemImage: "gauge.with.dots.needle.67percent") }
                RideListView()
                    .tabItem { Label("Rides", systemImage: "bicycle") }
            }
            .onChange(of: scenePhase) { _, phase in
                // Back from Settings? Pick up any change to the Health switches.
                guard phase == .active else { return }
                Task { await authorization.checkAfterSettingsReturn() }
            }
        } else {
            HealthPermissionStepView {
                rides.finishOnboarding()
            }
        }
    }
}
