#!/usr/bin/env python3
"""Writes a site with one Swift app of N files of HealthKit-using code (deterministic), for the
check/parse benchmark: python3 bench/gen_swift_app.py OUT_DIR [--files 1000]."""
import argparse
import os

TEMPLATE = '''import HealthKit
import Foundation

/// Generated file {index}: a store wrapper with reads, a guarded write and a request.
final class HealthFeature{index} {{
    let store = HKHealthStore()
    private var cache: [Date: Double] = [:]

    func available() -> Bool {{ HKHealthStore.isHealthDataAvailable() }}

    func request() async throws {{
        guard available() else {{ return }}
        let read: Set<HKObjectType> = [HKQuantityType(.stepCount), HKQuantityType(.heartRate), HKCategoryType(.sleepAnalysis)]
        try await store.requestAuthorization(toShare: [HKQuantityType(.bodyMass)], read: read)
    }}

    func steps(from start: Date, to end: Date) async throws -> Double {{
        let predicate = HKQuery.predicateForSamples(withStart: start, end: end)
        let descriptor = HKStatisticsQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.stepCount), predicate: predicate),
                                                     options: .cumulativeSum)
        let value = try await descriptor.result(for: store)?.sumQuantity()?.doubleValue(for: .count()) ?? 0
        cache[start] = value
        return value
    }}

    func save(weight kilograms: Double, at date: Date) async throws {{
        let type = HKQuantityType(.bodyMass)
        guard store.authorizationStatus(for: type) == .sharingAuthorized else {{ return }}
        let sample = HKQuantitySample(type: type, quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: kilograms), start: date, end: date)
        try await store.save(sample)
    }}

    func summary(_ values: [Double]) -> String {{
        let total = values.reduce(0, +)
        let average = values.isEmpty ? 0 : total / Double(values.count)
        return String(format: "%.1f (%d days, %.1f average)", total, values.count, average)
    }}
}}
'''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()
    sources = os.path.join(args.out, "apps", "big", "Sources")
    os.makedirs(sources, exist_ok=True)
    for index in range(args.files):
        folder = os.path.join(sources, f"Feature{index // 100:02d}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"HealthFeature{index:04d}.swift"), "w") as f:
            f.write(TEMPLATE.format(index=index))
    with open(os.path.join(args.out, "healthaudit.yml"), "w") as f:
        f.write("title: Big\napps:\n  - id: big\n    name: Big\n    root: apps/big\n    sources: [Sources]\n"
                "    requested:\n      read: [stepCount, heartRate, sleepAnalysis]\n      share: [bodyMass]\n")


if __name__ == "__main__":
    main()
