import Foundation
import HealthKit
import os

/// Reads body metrics for the coach and logs weigh-ins back to Apple Health.
@MainActor
final class HealthKitManager: ObservableObject {
    enum HealthKitError: LocalizedError {
        case notAvailable
        case dataTypeNotAvailable
        case authorizationFailed
        case writeNotAllowed
        case noData

        var errorDescription: String? {
            switch self {
            case .notAvailable: "Apple Health isn't available on this device."
            case .dataTypeNotAvailable: "This kind of health data isn't supported."
            case .authorizationFailed: "Trainer isn't allowed to read this from Apple Health."
            case .writeNotAllowed: "Turn on Body Weight for Trainer in Settings › Health › Data Access."
            case .noData: "No data in Apple Health yet."
            }
        }
    }

    @Published private(set) var latest = HealthData()
    @Published private(set) var isRefreshing = false
    @Published var lastError: HealthKitError?

    private let healthStore = HKHealthStore()
    private let log = Logger(subsystem: "app.trainer.ios", category: "HealthKit")

    static let writeTypes: Set<HKSampleType> = [
        HKQuantityType(.bodyMass),
    ]

    static let readTypes: Set<HKObjectType> = [
        HKQuantityType(.bodyMass),
        HKQuantityType(.height),
        HKQuantityType(.bodyFatPercentage),
        HKQuantityType(.leanBodyMass),
        HKCategoryType(.sleepAnalysis),
        HKObjectType.characteristicType(forIdentifier: .dateOfBirth)!,
    ]

    var isAvailable: Bool { HKHealthStore.isHealthDataAvailable() }

    // MARK: - Authorization

    func requestAccess() async throws {
        guard HKHealthStore.isHealthDataAvailable() else {
            throw HealthKitError.notAvailable
        }
        try await healthStore.requestAuthorization(toShare: Self.writeTypes, read: Self.readTypes)
    }

    // MARK: - Reading

    func refresh() async {
        guard isAvailable else { return }
        isRefreshing = true
        defer { isRefreshing = false }

        async let weight = latestQuantity(.bodyMass, unit: .pound())
        async let height = latestQuantity(.height, unit: .inch())
        async let bodyFat = latestQuantity(.bodyFatPercentage, unit: .percent())
        async let leanMass = latestQuantity(.leanBodyMass, unit: .pound())
        async let sleep = lastNightAsleepHours()
        async let birthday = fetchDateOfBirth()

        var data = HealthData()
        data.weightPounds = try? await weight
        data.heightInches = try? await height
        data.bodyFatPercentage = try? await bodyFat
        data.leanBodyMassPounds = try? await leanMass
        data.timeAsleepHours = try? await sleep
        if let ageInfo = try? await birthday {
            data.dateOfBirth = ageInfo.date
            data.age = ageInfo.age
        }
        data.lastUpdated = Date()
        latest = data
    }

    private func fetchDateOfBirth() async throws -> (date: Date, age: Int) {
        guard let dateOfBirthType = HKObjectType.characteristicType(forIdentifier: .dateOfBirth) else {
            throw HealthKitError.dataTypeNotAvailable
        }

        // Birthday is sensitive, so make sure the user actually allowed it before reading.
        guard healthStore.authorizationStatus(for: dateOfBirthType) == .sharingAuthorized else {
            log.info("Date of birth not authorized, skipping age")
            throw HealthKitError.authorizationFailed
        }

        let components = try healthStore.dateOfBirthComponents()
        guard let birthday = Calendar(identifier: .gregorian).date(from: components) else {
            throw HealthKitError.noData
        }
        guard let years = Calendar.current.dateComponents([.year], from: birthday, to: Date()).year else {
            throw HealthKitError.noData
        }
        return (birthday, years)
    }

    private func latestQuantity(_ id: HKQuantityTypeIdentifier, unit: HKUnit) async throws -> Double {
        let newestFirst = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)
        return try await withCheckedThrowingContinuation { continuation in
            let query = HKSampleQuery(
                sampleType: HKQuantityType(id),
                predicate: nil,
                limit: 1,
                sortDescriptors: [newestFirst]
            ) { _, samples, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let sample = samples?.first as? HKQuantitySample {
                    continuation.resume(returning: sample.quantity.doubleValue(for: unit))
                } else {
                    continuation.resume(throwing: HealthKitError.noData)
                }
            }
            healthStore.execute(query)
        }
    }

    private func lastNightAsleepHours() async throws -> Double {
        let end = Date()
        let start = Calendar.current.date(byAdding: .hour, value: -24, to: end) ?? end
        let predicate = HKQuery.predicateForSamples(withStart: start, end: end)
        let asleepValues = Set(HKCategoryValueSleepAnalysis.allAsleepValues.map(\.rawValue))

        return try await withCheckedThrowingContinuation { continuation in
            let query = HKSampleQuery(
                sampleType: HKCategoryType(.sleepAnalysis),
                predicate: predicate,
                limit: HKObjectQueryNoLimit,
                sortDescriptors: nil
            ) { _, samples, error in
                if let error {
                    continuation.resume(throwing: error)
                    return
                }
                let asleep = (samples as? [HKCategorySample] ?? []).filter { asleepValues.contains($0.value) }
                guard !asleep.isEmpty else {
                    continuation.resume(throwing: HealthKitError.noData)
                    return
                }
                let seconds = asleep.reduce(0.0) { $0 + $1.endDate.timeIntervalSince($1.startDate) }
                continuation.resume(returning: seconds / 3600)
            }
            healthStore.execute(query)
        }
    }

    // MARK: - Writing

    func saveWeight(pounds: Double, on date: Date = Date()) async throws {
        let bodyMassType = HKQuantityType(.bodyMass)
        guard healthStore.authorizationStatus(for: bodyMassType) == .sharingAuthorized else {
            throw HealthKitError.writeNotAllowed
        }

        let sample = HKQuantitySample(
            type: bodyMassType,
            quantity: HKQuantity(unit: .pound(), doubleValue: pounds),
            start: date,
            end: date
        )
        try await healthStore.save(sample)
        latest.weightPounds = pounds
        log.info("Logged weigh-in to Health")
    }
}
