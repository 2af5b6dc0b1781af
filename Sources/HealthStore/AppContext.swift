import Foundation

/// The device the app runs on, as far as HealthKit cares.
public struct DeviceProfile: Sendable, Hashable {
    public var name: String
    /// `HKHealthStore.isHealthDataAvailable()`: false on iPadOS 16 and earlier (spec §1.4).
    public var healthDataAvailable: Bool
    /// Locked device (or background without data protection): protected data is inaccessible (code 6).
    public var locked: Bool

    public init(name: String = "iPhone", healthDataAvailable: Bool = true, locked: Bool = false) {
        self.name = name; self.healthDataAvailable = healthDataAvailable; self.locked = locked
    }

    public static let iPhone = DeviceProfile()
    public static let lockedIPhone = DeviceProfile(name: "iPhone (locked)", locked: true)
    public static let iPadOS16 = DeviceProfile(name: "iPad (iPadOS 16)", healthDataAvailable: false)
}

/// The audited app as HealthKit sees it: identity, entitlement, Info.plist purpose strings, context, device.
public struct AppContext: Sendable, Hashable {
    public var bundleIdentifier: String
    /// The source name its saved samples carry.
    public var name: String
    /// `com.apple.developer.healthkit`.
    public var hasHealthKitEntitlement: Bool
    /// NSHealthShareUsageDescription (reading).
    public var shareUsageDescription: String?
    /// NSHealthUpdateUsageDescription (writing).
    public var updateUsageDescription: String?
    /// A widget or other app extension: it cannot present the authorization sheet.
    public var isExtension: Bool
    public var device: DeviceProfile

    public init(bundleIdentifier: String, name: String, hasHealthKitEntitlement: Bool = true,
                shareUsageDescription: String? = nil, updateUsageDescription: String? = nil,
                isExtension: Bool = false, device: DeviceProfile = .iPhone) {
        self.bundleIdentifier = bundleIdentifier
        self.name = name
        self.hasHealthKitEntitlement = hasHealthKitEntitlement
        self.shareUsageDescription = shareUsageDescription
        self.updateUsageDescription = updateUsageDescription
        self.isExtension = isExtension
        self.device = device
    }

    /// The source the app's own saved samples carry (a third-party app).
    public var source: SampleSource {
        SampleSource(name: name, bundleIdentifier: bundleIdentifier, kind: .thirdPartyApp)
    }

    /// A well-formed app: entitlement and both purpose strings present.
    public static func example(bundleIdentifier: String = "com.example.app", name: String = "Example") -> AppContext {
        AppContext(bundleIdentifier: bundleIdentifier, name: name,
                   shareUsageDescription: "Reads your steps, heart rate and sleep to show daily summaries.",
                   updateUsageDescription: "Saves your weight and workouts to the Health app.")
    }
}
