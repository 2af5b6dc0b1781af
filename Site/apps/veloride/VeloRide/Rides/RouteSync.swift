import CloudKit

/// A ride's route follows the rider to their iPad through CloudKit; HealthKit samples never do.
struct RouteSync {
    private let database = CKContainer(identifier: "iCloud.com.veloride.app").privateCloudDatabase

    func upload(_ ride: CompletedRide, polyline: Data) async throws {
        let record = CKRecord(recordType: "Route", recordID: CKRecord.ID(recordName: ride.id.uuidString))
        record["title"] = ride.title
        record["polyline"] = polyline
        _ = try await database.save(record)
    }
}
