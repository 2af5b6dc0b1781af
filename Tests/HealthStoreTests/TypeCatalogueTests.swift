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

    /// The simulator's units and aggregation come from the catalogue's rows; each must be a unit the
    /// simulator converts, and the sums must be HealthKit's (steps add up, heart rate averages).
    func testTheSimulatorsUnitsAndAggregationComeFromTheCatalogue() {
        for type in HealthTypeID.allCases where type.kind == .quantity {
            XCTAssertNotNil(type.canonicalUnit, "\(type.rawValue): catalogue unit \(type.catalogued.unit ?? "none") is not a simulator unit")
        }
        XCTAssertEqual(HealthTypeID.stepCount.aggregationStyle, .cumulative)
        XCTAssertEqual(HealthTypeID.heartRate.aggregationStyle, .discreteArithmetic)
        XCTAssertEqual(HealthTypeID.vo2Max.canonicalUnit, .vo2MaxUnit)
        XCTAssertNil(HealthTypeID.sleepAnalysis.aggregationStyle)
    }

    /// The catalogue covers HealthKit's nutrients, symptoms and mobility types, spelled as HealthKit
    /// spells them, and each identifier leads back to one type.
    func testTheCatalogueCoversHealthKitsTypesAndIdentifiersAreUnique() throws {
        XCTAssertEqual(HealthKitType.named("dietaryCaffeine")?.unit, "mg")
        XCTAssertEqual(HealthKitType.named("dietaryCaffeine")?.aggregation, .cumulative)
        XCTAssertEqual(HealthKitType.named("headache")?.identifier, "HKCategoryTypeIdentifierHeadache")
        XCTAssertEqual(HealthKitType.named("uvExposure")?.identifier, "HKQuantityTypeIdentifierUVExposure")
        XCTAssertEqual(HealthKitType.named("walkingSpeed")?.minimumIOS, 14)
        XCTAssertGreaterThan(HealthKitType.all.count, 190)
        var seen: Set<String> = []
        for type in HealthKitType.all {
            XCTAssertTrue(seen.insert(type.identifier).inserted, "\(type.identifier) twice")
            XCTAssertEqual(HealthKitType.identified(type.identifier)?.name, type.name)
            XCTAssertEqual(type.kind == .quantity, type.unit != nil, type.name)
        }
        XCTAssertNil(HealthKitType.named("heartbeat")?.companion, "heartbeat series belong to HRV samples, not workouts")
    }
}
