import ArgumentParser
import Foundation
import HealthStore
import Manifest
import Report

/// In-process measurements the benchmark (`bench/run.py`) needs and cannot take from outside:
/// the per-page cost of our Markdown path against libcmark alone, and the store's daily statistics.
/// Its own executable, so the shipped CLI carries no benchmark code.
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthaudit-bench",
        abstract: "Measurements for bench/run.py (prints JSON).",
        subcommands: [MarkdownBench.self, StoreBench.self])
}

struct MarkdownBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "markdown", abstract: "Per-page Markdown cost vs raw libcmark.")

    @Option(help: "Folder of Markdown pages with front matter.") var content: String
    @Option(help: "Passes over the pages; the fastest pass is reported.") var repeats = 5

    func run() throws {
        let pages = try ContentLoader().load(directory: URL(fileURLWithPath: content).standardizedFileURL.path, displayPrefix: "content")
        let bodies = pages.map(\.body)
        var ours = Double.infinity, raw = Double.infinity, bytes = 0
        for _ in 0..<repeats {
            // Interleaved passes, so drift on a shared machine hits both alike.
            var start = DispatchTime.now().uptimeNanoseconds
            for body in bodies { bytes &+= MarkdownRenderer.render(body) { $0.hasSuffix(".md") ? $0 : nil }.html.utf8.count }
            ours = min(ours, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            start = DispatchTime.now().uptimeNanoseconds
            for body in bodies { bytes &+= CMarkDocument.rawHTML(body).utf8.count }
            raw = min(raw, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        print("{\"pages\": \(pages.count), \"ours_seconds\": \(ours), \"cmark_seconds\": \(raw), \"bytes\": \(bytes)}")
    }
}

struct StoreBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "store", abstract: "Daily statistics over minute-level samples.")

    @Option(help: "Days of minute-resolution data.") var days = 365
    @Option(help: "Write the same rows as CSV (type,start,end,value) for the SQLite peer.") var csv: String?
    @Option var repeats = 3

    func run() throws {
        let zone = TimeZone(identifier: "Europe/London")!
        let first = DayDate(year: 2025, month: 1, day: 1), last = first.adding(days: days - 1)
        let data = HealthDataGenerator(seed: 7, from: first, through: last, timeZone: zone, resolution: .minute).generate()
        let store = SimulatedHealthStore(data: data, app: .example(), grants: [.heartRate: PermissionGrant(read: .granted), .stepCount: PermissionGrant(read: .granted)])
        let rows = data.sampleCount(of: .heartRate) + data.sampleCount(of: .stepCount)
        if let csv {
            var text = "type,start,end,value\n"
            text.reserveCapacity(rows * 40)
            for type in [HealthTypeID.heartRate, .stepCount] {
                for sample in data.allSamples(of: type) { text += "\(type.rawValue),\(sample.startTime),\(sample.endTime),\(sample.value)\n" }
            }
            try text.write(toFile: csv, atomically: true, encoding: .utf8)
        }
        var best = Double.infinity, checksum = 0.0
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            let heart = store.dailyStatistics(of: .heartRate, from: first, through: last, options: [.discreteAverage, .discreteMin, .discreteMax])
            let steps = store.dailyStatistics(of: .stepCount, from: first, through: last, options: .cumulativeSum)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            checksum = (heart.value?.buckets.compactMap(\.values.average).reduce(0, +) ?? 0) + (steps.value?.buckets.compactMap(\.values.sum).reduce(0, +) ?? 0)
        }
        print("{\"days\": \(days), \"rows\": \(rows), \"store_seconds\": \(best), \"checksum\": \(checksum)}")
    }
}
