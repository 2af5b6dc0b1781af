import HealthStore
import Manifest
import XCTest

/// One type catalogue: every type the simulator knows is the checklist's type, spelled as HealthKit
/// spells it (the two lists once disagreed on `HKQuantityTypeIdentifierVO2Max`).
final class TypeCatalogueTests: XCTestCase {
    func testEverySimulatedTypeIsInTheCatalogueWithItsKind() throws {
        for type in HealthTypeID.allCases {
            let entry = try XCTUnwrap(HealthKitType.named(type.rawValue), "\(type.rawValue) is not in the catalogue")
            XCTAssertEqual(type.hkIdentifier, entry.identifier)
            XCTAssertEqual(type.kind.rawValue, entry.kind.rawValue, type.rawValue)
            XCTAssertEqual(HealthTypeID(hkIdentifier: entry.identifier), type)
        }
    }

    func testIdentifiersAreHealthKitsSpelling() {
        XCTAssertEqual(HealthKitType.named("vo2Max")?.identifier, "HKQuantityTypeIdentifierVO2Max")
        XCTAssertEqual(HealthTypeID.vo2Max.hkIdentifier, "HKQuantityTypeIdentifierVO2Max")
        XCTAssertEqual(HealthKitType.named("heartRateVariabilitySDNN")?.identifier, "HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
        XCTAssertEqual(HealthKitType.named("sleepAnalysis")?.identifier, "HKCategoryTypeIdentifierSleepAnalysis")
        XCTAssertEqual(HealthTypeID.dateOfBirth.hkIdentifier, "HKCharacteristicTypeIdentifierDateOfBirth")
    }
}
