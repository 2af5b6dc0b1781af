import HealthStore
import Manifest
import XCTest

/// One type catalogue: every type the simulator knows is the checklist's type, spelled as HealthKit
/// spells it (the two lists once disagreed on `HKQuantityTypeIdentifierVO2Max`).
final class TypeCatalogueTests: XCTestCase {
    /// The simulator reads kind and identifier from the catalogue, so a type missing there would trap:
    /// every one must be catalogued, and each identifier must lead back to its type.
    func testEverySimulatedTypeIsInTheCatalogue() throws {
        for type in HealthTypeID.allCases {
            let entry = try XCTUnwrap(HealthKitType.named(type.rawValue), "\(type.rawValue) is not in the catalogue")
            XCTAssertEqual(HealthTypeID(hkIdentifier: entry.identifier), type)
        }
        XCTAssertEqual(HealthTypeID.sleepAnalysis.kind, .category)
        XCTAssertEqual(HealthTypeID.biologicalSex.kind, .characteristic)
        XCTAssertEqual(HealthTypeID.workout.kind, .workout)
        XCTAssertEqual(HealthTypeID.vo2Max.kind, .quantity)
    }

    func testIdentifiersAreHealthKitsSpelling() {
        XCTAssertEqual(HealthKitType.named("vo2Max")?.identifier, "HKQuantityTypeIdentifierVO2Max")
        XCTAssertEqual(HealthTypeID.vo2Max.hkIdentifier, "HKQuantityTypeIdentifierVO2Max")
        XCTAssertEqual(HealthKitType.named("heartRateVariabilitySDNN")?.identifier, "HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
        XCTAssertEqual(HealthKitType.named("sleepAnalysis")?.identifier, "HKCategoryTypeIdentifierSleepAnalysis")
        XCTAssertEqual(HealthTypeID.dateOfBirth.hkIdentifier, "HKCharacteristicTypeIdentifierDateOfBirth")
    }
}
