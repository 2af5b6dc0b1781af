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

/// An input problem: bad YAML, a malformed plist, an unknown key. Carries where it was found,
/// so the CLI can print `file:line: error: message` and keep going with the next input.
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
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

/// Several input errors found in one pass (a config with three bad keys reports all three).
public struct InputErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [InputError]
    public init(_ errors: [InputError]) { self.errors = errors }
    public var description: String { errors.map(\.description).joined(separator: "\n") }
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
