import SwiftUI
import UIKit

@main
struct SteadyApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate
    @StateObject private var health = HealthAccess()

    var body: some Scene {
        WindowGroup {
            RootView()
                .environmentObject(health)
        }
    }
}

final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        // Observer queries have to exist before HealthKit can wake us in the background,
        // so set them up on every launch (they're skipped until the person has been asked).
        BackgroundSync.shared.registerIfAlreadyAsked()
        return true
    }
}
