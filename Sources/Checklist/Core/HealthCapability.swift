import Manifest

extension PropertyListDocument {
    /// Whether this Info.plist requires the `healthkit` device capability (`["healthkit"]` or
    /// `{healthkit: true}`): the App Store installs its target only where Health exists.
    var requiresHealthKit: Bool {
        switch self["UIRequiredDeviceCapabilities"] {
        case .array(let items)?: return items.contains { $0.string == "healthkit" }
        case .dictionary(let map)?: return map["healthkit"]?.bool == true
        default: return false
        }
    }
}

extension AppManifest {
    /// The targets the App Store installs only where Health exists, each with the Info.plist that requires it:
    /// a target requiring `healthkit` itself, and the app's extensions when the app does (they install with
    /// it). None when the app also builds for Mac Catalyst (`SUPPORTS_MACCATALYST`), where Health may be absent.
    var installedOnlyWithHealth: [String: PropertyListDocument] {
        guard config.buildSettings["SUPPORTS_MACCATALYST"]?.uppercased() != "YES" else { return [:] }
        var found: [String: PropertyListDocument] = [:]
        for target in targets {
            if let plist = target.infoPlist, plist.requiresHealthKit { found[target.id] = plist }
            else if target.kind == .appExtension, let plist = main.infoPlist, plist.requiresHealthKit { found[target.id] = plist }
        }
        return found
    }
}
