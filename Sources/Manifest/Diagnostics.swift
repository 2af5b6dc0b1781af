import Foundation

/// A place in an input file. Lines and columns count from 1; `line` is nil when the format has none
/// (a binary plist), in which case reports cite line 1.
public struct FileLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?

    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let column, line != nil { text += ":\(column)" }
        return text
    }

    public static func < (a: FileLocation, b: FileLocation) -> Bool {
        (a.file, a.line ?? 0, a.column ?? 0) < (b.file, b.line ?? 0, b.column ?? 0)
    }
}

/// One input problem: bad YAML, a malformed plist, an unknown key. Carries where it was found,
/// so the CLI can print `file:line: error: message` and keep going with the next input.
public struct InputProblem: Hashable, Sendable, CustomStringConvertible {
    public var location: FileLocation
    public var message: String

    public init(_ message: String, at location: FileLocation) {
        self.message = message
        self.location = location
    }

    public init(_ message: String, file: String, line: Int? = nil, column: Int? = nil) {
        self.init(message, at: FileLocation(file: file, line: line, column: column))
    }

    public var description: String { "\(location): error: \(message)" }
}

/// The one error type for bad input: every problem a pass found (a config with three bad keys
/// reports all three). Readers that stop at the first problem throw it with one; collectors
/// catch this type alone and concatenate `problems`.
public struct InputError: Error, Sendable, CustomStringConvertible {
    public var problems: [InputProblem]

    public init(_ problems: [InputProblem]) { self.problems = problems }

    public init(_ message: String, at location: FileLocation) { self.init([InputProblem(message, at: location)]) }

    public init(_ message: String, file: String, line: Int? = nil, column: Int? = nil) {
        self.init([InputProblem(message, file: file, line: line, column: column)])
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }

    /// The same problems cited in `file`, the path the user knows (a reader saw an absolute or
    /// front-matter-relative one); `lineOffset` shifts lines of text embedded in a larger file.
    public func cited(in file: String, lineOffset: Int = 0) -> InputError {
        InputError(problems.map { InputProblem($0.message, file: file, line: $0.location.line.map { $0 + lineOffset } ?? (lineOffset > 0 ? lineOffset : nil)) })
    }
}

/// Evidence text cut to a readable length: a 7 MB usage string on one line must not become 28 MB
/// of annotations in every output format. Cut on a character boundary, marked with `…`.
public enum Clipped {
    public static let quoteLimit = 240
    public static let messageLimit = 1_000

    public static func text(_ text: String, limit: Int) -> String {
        guard text.unicodeScalars.count > limit else { return text }
        return String(text.prefix(limit)) + "…"
    }
}
