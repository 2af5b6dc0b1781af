import Foundation

// `PermissionAnswer` and `PermissionGrant` are the config's own types (Manifest): the store
// takes the simulated user's answers exactly as `healthaudit.yml` states them.
@_exported import enum Manifest.PermissionAnswer
@_exported import struct Manifest.PermissionGrant

extension PermissionGrant {
    /// The type went through the sheet in at least one direction.
    public var wasAsked: Bool { read != nil || share != nil }

    public static let grantedBoth = PermissionGrant(read: .granted, share: .granted)
    public static let deniedBoth = PermissionGrant(read: .denied, share: .denied)
}

/// HKAuthorizationStatus: about *saving* only (spec §1.1).
public enum AuthorizationStatus: Int, Sendable, Hashable, CaseIterable {
    case notDetermined = 0, sharingDenied = 1, sharingAuthorized = 2

    public var name: String {
        switch self {
        case .notDetermined: return "notDetermined"
        case .sharingDenied: return "sharingDenied"
        case .sharingAuthorized: return "sharingAuthorized"
        }
    }
}

/// HKAuthorizationRequestStatus: would a sheet appear for this set of types (spec §1.2).
public enum AuthorizationRequestStatus: Int, Sendable, Hashable, CaseIterable {
    case unknown = 0, shouldRequest = 1, unnecessary = 2

    public var name: String {
        switch self {
        case .unknown: return "unknown"
        case .shouldRequest: return "shouldRequest"
        case .unnecessary: return "unnecessary"
        }
    }
}

/// What the permission sheet listed: only the (type, direction) pairs never put to the user before.
public struct AuthorizationSheet: Sendable, Hashable {
    public var readTypes: [HealthTypeID]
    public var shareTypes: [HealthTypeID]
}

/// The result of `requestAuthorization`: the completion's `success == true` (whatever the user chose), an error,
/// or an exception that terminates the app. The value is the sheet shown: nil when nothing was presented
/// (everything already answered, or an extension asked).
public typealias AuthorizationOutcome = QueryOutcome<AuthorizationSheet?>

extension QueryOutcome where Value == AuthorizationSheet? {
    public var succeeded: Bool {
        if case .success = self { return true }
        return false
    }

    public var sheetShown: Bool {
        if case .success(let sheet?) = self { return !sheet.readTypes.isEmpty || !sheet.shareTypes.isEmpty }
        return false
    }
}

/// Read access as the store enforces it (never revealed to the app).
enum ReadAccess: Sendable, Hashable {
    case notDetermined, denied, granted
}

/// Per-type answers and the rules HealthKit derives from them.
struct AuthorizationTable: Sendable {
    var grants: [HealthTypeID: PermissionGrant]

    func grant(_ type: HealthTypeID) -> PermissionGrant { grants[type] ?? PermissionGrant() }

    /// Share state only. A type that went through the sheet without a share answer (read-only request)
    /// reads `sharingDenied`, whatever was answered for reading (spec §1.1).
    func status(for type: HealthTypeID) -> AuthorizationStatus {
        let g = grant(type)
        switch g.share {
        case .granted?: return .sharingAuthorized
        case .denied?: return .sharingDenied
        case nil: return g.read != nil ? .sharingDenied : .notDetermined
        }
    }

    func readAccess(_ type: HealthTypeID) -> ReadAccess {
        switch grant(type).read {
        case nil: return .notDetermined
        case .denied?: return .denied
        case .granted?: return .granted
        }
    }

    /// The pairs a request would put on the sheet. Read and share are asked independently: a later request can add
    /// a share toggle for a type already asked for reading (spec §1.3 marks this unconfirmed; chosen so).
    func pending(share: Set<HealthTypeID>, read: Set<HealthTypeID>) -> AuthorizationSheet {
        AuthorizationSheet(
            readTypes: read.filter { grant($0).read == nil }.sorted(),
            shareTypes: share.filter { grant($0).share == nil }.sorted())
    }

    /// Records the user's choices for what the sheet showed. A toggle the user left alone is off (denied).
    mutating func apply(_ sheet: AuthorizationSheet, answers: [HealthTypeID: PermissionGrant]) {
        for t in sheet.readTypes { grants[t, default: PermissionGrant()].read = answers[t]?.read ?? .denied }
        for t in sheet.shareTypes { grants[t, default: PermissionGrant()].share = answers[t]?.share ?? .denied }
    }

    /// Health → Sources → App only lists toggles the app once asked for; other changes are ignored.
    /// Returns the types whose answers changed.
    mutating func applySettings(_ changes: [HealthTypeID: PermissionGrant]) -> [HealthTypeID] {
        var changed: [HealthTypeID] = []
        for (type, change) in changes {
            var g = grant(type)
            let before = g
            if let r = change.read, g.read != nil { g.read = r }
            if let s = change.share, g.share != nil { g.share = s }
            if g != before { grants[type] = g; changed.append(type) }
        }
        return changed.sorted()
    }
}

/// Info.plist purpose-string validation, as HealthKit performs it.
public enum PurposeString {
    /// `-[NSString hk_isValidPurposeString]` (decompiled HealthKit): after removing every non-alphanumeric character,
    /// more than 11 characters must remain. So "", "Health" and "for testing" are invalid (spec §1.5's "empty, one
    /// word" cases), while a real sentence passes.
    public static func isValid(_ string: String) -> Bool {
        string.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.count > 11
    }
}

/// The client-side checks `requestAuthorization` runs before talking to the daemon; each failure is an
/// uncaught NSInvalidArgumentException (spec §1.5). Order: arguments, write string, read string.
public enum AuthorizationRequestValidation {
    public static func crash(share: Set<HealthTypeID>, read: Set<HealthTypeID>, app: AppContext) -> HealthKitCrash? {
        if share.isEmpty && read.isEmpty {
            return HealthKitCrash(reason: "Must request authorization for at least one data type")
        }
        let disallowed = share.filter { !$0.isShareable }
        if !disallowed.isEmpty {
            return HealthKitCrash(
                reason: "Authorization to share the following types is disallowed: \(identifiers(disallowed))")
        }
        let unreadable = read.filter { !$0.isAuthorizable }
        if !unreadable.isEmpty {
            return HealthKitCrash(
                reason: "Authorization to read the following types is disallowed: \(identifiers(unreadable))")
        }
        if !share.isEmpty {
            if let crash = check(app.updateUsageDescription, key: "NSHealthUpdateUsageDescription",
                                 direction: "write", types: share) { return crash }
        }
        if !read.isEmpty {
            if let crash = check(app.shareUsageDescription, key: "NSHealthShareUsageDescription",
                                 direction: "read", types: read) { return crash }
        }
        return nil
    }

    private static func check(_ string: String?, key: String, direction: String,
                              types: Set<HealthTypeID>) -> HealthKitCrash? {
        guard let string else {
            return HealthKitCrash(reason: "\(key) must be set in the app's Info.plist in order to request "
                                  + "\(direction) authorization for the following types: \(identifiers(types))")
        }
        guard PurposeString.isValid(string) else {
            return HealthKitCrash(reason: "The string \"\(string)\" is an invalid value for \(key)")
        }
        return nil
    }

    /// HealthKit joins an NSSet's identifiers with ", " (set order); the simulator lists them in a stable order.
    static func identifiers(_ types: Set<HealthTypeID>) -> String {
        types.sorted().map(\.hkIdentifier).joined(separator: ", ")
    }
}
