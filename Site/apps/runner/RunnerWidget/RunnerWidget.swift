import SwiftUI
import WidgetKit

/// Shows the week's distance the app last computed; it never talks to HealthKit itself.
@main
struct RunnerWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "com.example.runner.week", provider: WeekProvider()) { entry in
            VStack(alignment: .leading) {
                Text("This week").font(.caption.bold())
                Text(Formatting.kilometres(entry.stats.weekMeters)).font(.title2.bold())
            }
            .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Weekly distance")
        .supportedFamilies([.systemSmall])
    }
}

struct WeekEntry: TimelineEntry {
    let date: Date
    let stats: RunStats
}

struct WeekProvider: TimelineProvider {
    func placeholder(in context: Context) -> WeekEntry { WeekEntry(date: .now, stats: .empty) }

    func getSnapshot(in context: Context, completion: @escaping (WeekEntry) -> Void) {
        completion(WeekEntry(date: .now, stats: RunStats.load()))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<WeekEntry>) -> Void) {
        completion(Timeline(entries: [WeekEntry(date: .now, stats: RunStats.load())], policy: .after(.now.addingTimeInterval(3600))))
    }
}
