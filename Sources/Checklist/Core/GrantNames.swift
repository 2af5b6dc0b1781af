/// The words of names that record what the person answered: `setAuthorized`, `hasHealthAccess`,
/// `granted`, `isPermitted` — shared by every rule that asks whether a value is kept as a grant.
enum GrantNames {
    /// Words of names about access: `authoriz` also takes `requestHealthAuthorization`.
    static let grantWords = ["grant", "authoriz", "authoris", "allow", "permission", "permitted", "access"]
    /// Words of names that hold the answer: `isAuthorized`, `hasAuthorization`, `hasHealthPermission`,
    /// `accessGranted` — not `authorizationStatus` (the asking words rule out `permissionSheetSeen`).
    static let recordWords = ["grant", "authorized", "authorised", "hasauthoriz", "allow", "permitted", "permission", "access"]
    static let denyWords = ["deni", "deny", "declin", "refus", "notallowed", "not allowed", "unauthori", "not authori", "permission", "no access", "noaccess"]
    /// The person's refusal only: `.denied`, `isDenied`, `.declined` — not `.notAuthorized`, which a failed
    /// request also leaves the app in, truly.
    static let refusalWords = ["deni", "deny", "declin", "refus"]
    /// A refusal or an absence, not a grant: `denied`, `unauthorized`, `disallowed`, `withoutAccess`.
    static let negativeWords = ["deni", "deny", "declin", "refus", "notallowed", "disallow", "unauthori", "notauthori", "noaccess", "without", "missing"]
    /// Names that record the asking, not its outcome: `permissionRequested`, `shouldRequest`, `accessPromptShown`.
    static let requestWords = ["request", "ask", "prompt", "shown", "seen", "initiali", "needs", "should", "done", "determined", "checked"]

    /// A name that speaks of access as granted, the asking included (`requestHealthAccess`).
    static func mentionsGrant(_ name: String) -> Bool {
        let text = name.lowercased()
        return grantWords.contains(where: text.contains) && !negativeWords.contains(where: text.contains)
    }

    /// `appleHealthConnected`, `isHealthLinked`: a name for Health shown as connected — a grant when it is
    /// set because the request returned (never `disconnected`, nor `connecting`).
    static func saysConnected(_ name: String) -> Bool {
        let text = name.lowercased()
        return (text.contains("connected") || text.contains("linked")) && !text.contains("disconnect") && !text.contains("unlink")
            && !negativeWords.contains(where: text.contains)
    }

    /// A name for a flag or setter that records the outcome (not merely that the request happened).
    static func says(_ name: String) -> Bool {
        let text = name.lowercased()
        return recordWords.contains(where: text.contains) && !negativeWords.contains(where: text.contains)
            && !requestWords.contains(where: text.contains)
    }
}
