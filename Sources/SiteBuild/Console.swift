import Foundation
import Report

/// The one place healthaudit writes messages for a person — progress, notes, warnings, errors,
/// what discovery found — to stderr or stdout (reports have their own formats and escaping).
/// A message is given as its lines, and each is printed as exactly one line (`VisibleText.line`):
/// a folder, file or app name holding a line break, a control or bidi character, `::` or `##[`
/// cannot start another line or become a command for the CI runner reading the log.
public enum Console {
    public static func error(_ lines: [String]) { write(lines, to: .standardError) }
    public static func error(_ line: String) { error([line]) }
    public static func output(_ lines: [String]) { write(lines, to: .standardOutput) }
    public static func output(_ line: String) { output([line]) }

    /// The bytes a message prints as: each line escaped, each ended by one line feed.
    public static func text(_ lines: [String]) -> String {
        lines.map { VisibleText.line($0) + "\n" }.joined()
    }

    private static func write(_ lines: [String], to handle: FileHandle) {
        // One write per message, so messages of two threads never interleave inside a line.
        handle.write(Data(text(lines).utf8))
    }
}
