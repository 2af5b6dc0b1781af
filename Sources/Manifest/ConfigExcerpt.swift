/// The config as one app's evidence may show it: every line except the other apps' entries, each
/// run of which is replaced by one comment. An evidence file is handed to a reviewer of one app;
/// the settings, paths and suppression reasons of the repository's other apps are not theirs.
public enum ConfigExcerpt {
    public static func scoped(_ text: String, to app: String, in config: ProjectConfig) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let entries = config.apps.compactMap { entry in entry.location.line.map { (id: entry.id, line: $0) } }.sorted { $0.line < $1.line }
        guard config.apps.count > 1, entries.count == config.apps.count else { return text }
        // Entries written on one line (flow style) cannot be cut apart: none is shown then.
        let separable = Set(entries.map(\.line)).count == entries.count
        let starts = entries.map { start(ofEntryAt: $0.line - 1, in: lines) }
        // Each entry runs to the next one, or to the first top-level key after it.
        var hidden = Array(repeating: false, count: lines.count)
        var hiddenCount = Array(repeating: 0, count: lines.count)
        for (index, entry) in entries.enumerated() where !separable || entry.id != app {
            let next = index + 1 < starts.count ? starts[index + 1] : lines.count
            var end = starts[index] + 1
            while end < next, !isTopLevelKey(lines[end]) { end += 1 }
            for line in starts[index]..<end { hidden[line] = true }
            hiddenCount[starts[index]] += 1
        }
        var result: [String] = []
        var line = 0
        while line < lines.count {
            guard hidden[line] else { result.append(lines[line]); line += 1; continue }
            let indent = lines[line].prefix { $0 == " " || $0 == "\t" }
            var count = 0
            while line < lines.count, hidden[line] { count += hiddenCount[line]; line += 1 }
            result.append(indent + (separable ? "# \(count) other app\(count == 1 ? "" : "s") omitted: not part of this evidence"
                                             : "# app entries omitted: written on shared lines, this app's cannot be shown apart"))
        }
        return result.joined(separator: "\n")
    }

    /// An entry's first line: its first key's line, or the `-` alone on the line above it.
    private static func start(ofEntryAt line: Int, in lines: [String]) -> Int {
        line > 0 && lines[line - 1].trimmingCharacters(in: .whitespaces) == "-" ? line - 1 : line
    }

    /// A line that starts a top-level key (no indentation, not a comment, not a list item).
    private static func isTopLevelKey(_ line: String) -> Bool {
        guard let first = line.first else { return false }
        return first != " " && first != "\t" && first != "#" && first != "-"
    }
}
