import SwiftUI

/// Nothing data-driven is on screen until the permission picture is known.
struct RootView: View {
    @EnvironmentObject private var health: HealthAccess

    var body: some View {
        Group {
            switch health.phase {
            case .checking:
                ProgressView()
            case .unavailable:
                ContentUnavailableView(
                    "Apple Health isn't available",
                    systemImage: "heart.slash",
                    description: Text("Steady needs Apple Health. It isn't available on this device.")
                )
            case .needsRequest:
                ConnectHealthView()
            case .ready:
                MainTabs()
            case .failed(let error):
                ContentUnavailableView {
                    Label("Couldn't reach Apple Health", systemImage: "exclamationmark.triangle")
                } description: {
                    Text(error.message)
                } actions: {
                    Button("Try again") { Task { await health.refreshRequestStatus() } }
                }
            }
        }
        .task { await health.refreshRequestStatus() }
        .onOpenURL { _ in
            // The widget links here when it still needs access; re-check which screen to show.
            Task { await health.refreshRequestStatus() }
        }
    }
}

private struct ConnectHealthView: View {
    @EnvironmentObject private var health: HealthAccess

    var body: some View {
        VStack(spacing: 20) {
            Image(systemName: "heart.text.square.fill")
                .font(.system(size: 64))
                .foregroundStyle(.teal)
            Text("Connect Apple Health")
                .font(.title2.bold())
            Text("Steady reads your steps, heart rate and sleep to show daily trends and recovery, and saves the mindful minutes and workouts you log. You choose each type in the next screen.")
                .multilineTextAlignment(.center)
                .foregroundStyle(.secondary)
            Button("Continue") {
                Task { await health.requestAccess() }
            }
            .buttonStyle(.borderedProminent)
        }
        .padding(32)
    }
}

private struct MainTabs: View {
    var body: some View {
        TabView {
            TrendsView()
                .tabItem { Label("Trends", systemImage: "chart.line.uptrend.xyaxis") }
            LogSessionView()
                .tabItem { Label("Log", systemImage: "plus.circle") }
        }
    }
}
