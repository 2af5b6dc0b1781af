/// A file the audit read but could not analyse, and why: reported as a finding (never a note), so
/// code the rules did not see is never passed over in silence.
public struct UnanalysedFile: Sendable, Hashable {
    /// Site-relative, as every location.
    public var path: String
    public var line: Int
    public var column: Int?
    public var reason: String
    /// Analysed up to `line` (JavaScript, Dart) rather than not at all (Swift, Tuist manifests).
    public var isPartial: Bool
    /// Left out because the run's parse budget was spent, not for anything in the file itself: the
    /// run cannot vouch for it, so the finding is an error.
    public var failsRun: Bool
    /// The line as written, for files the audit keeps no text of (a manifest); empty otherwise.
    public var quote: String

    public init(path: String, line: Int, column: Int?, reason: String, isPartial: Bool = false, failsRun: Bool = false, quote: String = "") {
        self.path = path; self.line = line; self.column = column; self.reason = reason
        self.isPartial = isPartial; self.failsRun = failsRun; self.quote = quote
    }

    public var message: String {
        isPartial ? "analysed only up to this line: \(reason)" : "not analysed: \(reason)"
    }
}
