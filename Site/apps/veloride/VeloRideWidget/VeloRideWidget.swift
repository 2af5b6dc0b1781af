import SwiftUI
import WidgetKit

@main
struct VeloRideWidgetBundle: WidgetBundle {
    var body: some Widget {
        ReadinessWidget()
    }
}

struct ReadinessWidget: Widget {
    let kind = "com.veloride.readiness"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: ReadinessProvider()) { entry in
            ReadinessWidgetView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Readiness")
        .description("Last night's HRV and resting heart rate at a glance.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

struct ReadinessWidgetView: View {
    let entry: ReadinessEntry

    var body: some View {
        switch entry.content {
        case .unavailable:
            Text("Apple Health isn't available on this device.")
                .font(.caption)
        case let .readiness(hrv, resting):
            VStack(alignment: .leading, spacing: 6) {
                Label("Readiness", systemImage: "bicycle")
                    .font(.caption.bold())
                    .foregroundStyle(.orange)
                Row(title: "HRV", value: hrv, unit: "ms")
                Row(title: "Resting", value: resting, unit: "bpm")
                Spacer(minLength: 0)
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        }
    }
}

private struct Row: View {
    let title: String
    let value: Double?
    let unit: String

    var body: some View {
        HStack(alignment: .firstTextBaseline) {
            Text(title).font(.caption).foregroundStyle(.secondary)
            Spacer()
            if let value {
                Text("\(Int(value.rounded())) \(unit)").font(.headline).monospacedDigit()
            } else {
                Text("—").font(.headline).foregroundStyle(.tertiary)
            }
        }
    }
}

#Preview(as: .systemSmall) {
    ReadinessWidget()
} timeline: {
    ReadinessEntry.sample
}
