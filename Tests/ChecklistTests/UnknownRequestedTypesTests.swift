import Checklist
import Manifest
import XCTest

/// A wrapper library's list built at run time leaves that direction's requested types unknown,
/// at the request's place; a list written out stays known.
final class UnknownRequestedTypesTests: XCTestCase {
    func testAWrapperListBuiltAtRunTimeIsUnknownAtItsCall() throws {
        let example = RuleExample.reactNative(["js/src/health.ts": """
            import { isHealthDataAvailable, requestAuthorization } from '@kingstinct/react-native-healthkit';

            export async function connect(names: string[]) {
              if (!isHealthDataAvailable()) return false;
              await requestAuthorization({ toRead: names.map((name) => `HKQuantityTypeIdentifier${name}`), toShare: ['HKQuantityTypeIdentifierBodyMass'] });
              return true;
            }
            """])
        let audit = Checklist().audit(try example.load())
        XCTAssertEqual(audit.unresolvedRead.places.map { String($0.split(separator: "/").last!) }, ["health.ts:5"], audit.notes.joined(separator: "\n"))
        XCTAssertTrue(audit.unresolvedShare.isEmpty)
        XCTAssertEqual(audit.requestedShare, ["bodyMass"])
    }
}
