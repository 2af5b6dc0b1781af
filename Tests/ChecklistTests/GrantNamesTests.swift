@testable import Checklist
import XCTest

/// The one vocabulary every rule uses to tell a name that records a grant from one that records
/// the asking, a refusal, or a status.
final class GrantNamesTests: XCTestCase {
    func testNamesThatRecordAGrant() {
        for name in ["isAuthorized", "setIsAuthorized", "hasAuthorization", "setHasAuthorization", "granted", "accessGranted",
                     "hasHealthPermission", "setHasPermission", "isPermitted", "allowed", "hasHealthAccess", "isAuthorised"] {
            XCTAssertTrue(GrantNames.says(name), name)
        }
    }

    func testNamesThatRecordTheAskingARefusalOrAStatus() {
        for name in ["authorizationStatus", "permissionRequested", "didAskPermission", "shouldRequestAccess", "permissionSheetSeen",
                     "setPermissionsDetermined", "permissionFlowDone", "accessPromptShown", "accessDenied", "isUnauthorized",
                     "withoutAccess", "disallowed", "needsAuthorization", "healthKitInitialized", "authChecked"] {
            XCTAssertFalse(GrantNames.says(name), name)
        }
    }

    /// The looser reading for enclosing function names and comments: asking for access mentions it.
    func testMentionsIncludeTheAsking() {
        XCTAssertTrue(GrantNames.mentionsGrant("requestHealthAuthorization"))
        XCTAssertTrue(GrantNames.mentionsGrant("requestHealthAccess"))
        XCTAssertFalse(GrantNames.mentionsGrant("accessDenied"))
    }
}
