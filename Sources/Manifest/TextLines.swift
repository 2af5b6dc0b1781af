/// The lines of a file's text, for quotes and line numbers.
public enum TextLines {
    /// `text` split at each `\n`, a `\r` before it dropped. By UTF-8 bytes: splitting by Character
    /// runs grapheme breaking over the whole file (about 20 MB/s, the slowest step of reading a
    /// large plist), and takes `\r\n` for one character, which made a CRLF file one long line.
    public static func split(_ text: String) -> [Substring] {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            Substring(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
        }
    }
}
