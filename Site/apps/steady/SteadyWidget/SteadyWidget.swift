import SwiftUI
import WidgetKit

@main
struct SteadyWidgetBundle: WidgetBundle {
    var body: some Widget {
        StepsWidget()
    }
}

struct StepsWidget: Widget {
    let kind = "app.steady.steps"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: StepsProvider()) { entry in
            StepsWidgetView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Steps today")
        .description("Your step count so far today, from Apple Health.")
        .supportedFamilies([.systemSmall, .accessoryRectangular])
    }
}

struct StepsWidgetView: View {
    let entry: StepsEntry

    var body: some View {
        switch entry.content {
        case .steps(let steps):
            VStack(alignment: .leading, spacing: 4) {
                Label("Steps", systemImage: "figure.walk")
                    .font(.caption.bold())
                    .foregroundStyle(.teal)
                if let steps {
                    Text(steps, format: .number.precision(.fractionLength(0)))
                        .font(.title.bold())
                        .monospacedDigit()
                } else {
                    Text("No data yet").font(.headline).foregroundStyle(.secondary)
                }
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        case .openApp:
            VStack(spacing: 6) {
                Image(systemName: "heart.text.square")
                    .font(.title2)
                    .foregroundStyle(.teal)
                Text("Open Steady to connect Apple Health")
                    .font(.caption)
                    .multilineTextAlignment(.center)
            }
            .widgetURL(URL(string: "steady://connect-health"))
        case .unavailable:
            Text("Apple Health isn't available on this device.")
                .font(.caption)
        }
    }
}

#Preview(as: .systemSmall) {
    StepsWidget()
} timeline: {
    StepsEntry.preview
    StepsEntry(date: .now, content: .openApp)
}
